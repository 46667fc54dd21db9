"""A licence header every file opens with is not searched (issue 28's Java/Kotlin/PHP/Rust held-out set:
Twig's header, "please view the LICENSE file that was distributed with this source code", made every
file's first chunk an answer to "split the template source into tokens"). Snippets of our own."""

from __future__ import annotations

from pramana.code.index.tables import LICENSE_HEADERS
from pramana.code.search.terms import chunk_bag
from pramana.code.service import CodeService
from pramana.embed import chunk_text
from pramana.text.licenses import without_license_header
from tests.code.conftest import indexed_service, reindexed_from_before

HEADER = """/*
 * This file belongs to Orchard.
 *
 * (c) The Orchard Authors
 *
 * Copyright and licence terms are in the LICENSE file shipped with this source code.
 */
"""

PHP_PICKER = (
    "<?php\n\n" + HEADER + "\nnamespace Orchard\\Picking;\n\nuse Orchard\\Tree;\n\n"
    "final class Picker\n{\n    public function pick(Tree $tree): array\n    {\n        return $tree->fruit();\n    }\n}\n"
)

PHP_READER = (
    "<?php\n\n" + HEADER + "\nnamespace Orchard;\n\n"
    "final class Reader\n{\n    /** Splits the source of a recipe into steps. */\n"
    "    public function steps(string $source): array\n    {\n        return explode(';', $source);\n    }\n}\n"
)


def test_a_block_licence_is_dropped_and_the_code_after_it_kept():
    kept = without_license_header(PHP_PICKER)
    assert "Copyright" not in kept and "(c)" not in kept
    assert kept.startswith("<?php") and "namespace Orchard\\Picking;" in kept and "use Orchard\\Tree;" in kept


def test_line_comment_licences_keep_the_docs_under_them():
    go = (
        "// Copyright 2026 The Orchard Authors. All rights reserved.\n"
        "// Licensed under the Orchard licence, found in the LICENSE file.\n\n"
        "// Package picking chooses ripe fruit.\npackage picking\n"
    )
    assert without_license_header(go) == "\n// Package picking chooses ripe fruit.\npackage picking\n"
    rust = (
        "// SPDX-License-Identifier: MIT OR Apache-2.0\n// Copyright 2026 The Orchard Authors\n"
        "//! Ripe fruit, chosen.\npub fn pick() {}\n"
    )
    assert without_license_header(rust) == "//! Ripe fruit, chosen.\npub fn pick() {}\n"
    shell = "#!/bin/sh\n# Copyright 2026 Orchard. Licensed under the Orchard licence.\necho picked\n"
    assert without_license_header(shell) == "#!/bin/sh\necho picked\n"


def test_comments_that_are_not_licences_stay():
    doc = "/**\n * Checks that every dependency's licence is allowed.\n */\nclass LicenceCheck {}\n"
    assert without_license_header(doc) == doc  # one licence word: a doc about licences, not a header
    code = "fn pick() {}\n// Copyright 2026 The Orchard Authors, licensed under MIT.\n"
    assert without_license_header(code) == code  # not the opening comment
    includes = "#include <stdio.h>\n#include <orchard.h>\n"
    assert without_license_header(includes) == includes
    unclosed = "/* Copyright 2026, licensed under MIT\nint pick(void);\n"
    assert without_license_header(unclosed) == unclosed


def test_the_header_is_neither_counted_nor_embedded():
    bag = chunk_bag(None, None, ["src", "picker"], PHP_PICKER)
    assert "copyright" not in bag and "sourc" not in bag and "licenc" not in bag
    assert "pick" in bag and "tree" in bag
    embedded = chunk_text("src/Picker.php", "class", None, "Picker", PHP_PICKER)
    assert "Copyright" not in embedded and "final class Picker" in embedded


def test_the_header_answers_no_query(tmp_path):
    files = {f"src/Picking/Picker{n}.php": PHP_PICKER.replace("Picker", f"Picker{n}") for n in range(6)}
    files["src/Reader.php"] = PHP_READER
    service = indexed_service(files, tmp_path)
    found = service.search_code("who owns the copyright, which licence", limit=5).chunks
    assert [c.id for c in found if c.metadata.filePath.endswith(".php")] == []
    assert service.search_code("split the source into steps", limit=1).chunks[0].metadata.filePath == "src/Reader.php"
    assert "Copyright" in service.get_file("src/Reader.php").content  # shown as written


def test_an_index_made_before_reads_every_file_again(tmp_path):
    files = {"src/Picker.php": PHP_PICKER, "tools/gen.py": "def gen():\n    pass\n"}
    report, reopened, root = reindexed_from_before(LICENSE_HEADERS, files, tmp_path)
    assert {"src/Picker.php", "tools/gen.py"} <= set(report.changed_paths)
    assert CodeService(reopened, root).explain_code("Picker").definition is not None
