"""A licence header at the top of a source file: the same words in every file of a project, about none.

Projects open each file with the same comment ("This file is part of Twig. (c) Fabien Potencier. For
the full copyright and license information, please view the LICENSE file that was distributed with
this source code."; Apache's "Licensed to the Apache Software Foundation ... You may obtain a copy of
the License"). Searched as code, that comment makes every file's first chunk an answer to queries
that say "source", "file" or "copy". `without_license_header` drops it from what is searched (the
chunk's words and its embedded text); the chunk shown is unchanged.

A header is the first comment of the text (after `<?php`, a `#!` line and blank lines): a block
comment (`/* */`, `(* *)`, `{- -}`) or a run of line comments with the same marker (`//`, `#`,
`--`, `;;`, `%`; `///` and `//!` are doc comments, another marker, so a crate's `//!` docs right under
its licence stay). It counts as a licence when it says at least two of: copyright, "(c)", licence,
"rights reserved", warranty, SPDX-License-Identifier, "permission is hereby granted".
"""

from __future__ import annotations

import re

_BLOCKS = {"/*": "*/", "(*": "*)", "{-": "-}"}
_LINE_MARKER = re.compile(r"(?://[/!]?|#(?!!)|--|;+|%+)")
_LICENSE_WORDS = re.compile(
    r"(copyright)|(\(c\))|(licen[cs])|(rights\s+reserved)|(warrant)|(spdx-license-identifier)"
    r"|(permission\s+is\s+hereby\s+granted)",
    re.IGNORECASE,
)
_PREAMBLE = ("<?php", "<?")
_OPENS_COMMENT = re.compile(r"\s*[/#\-;%({<]")


def without_license_header(text: str) -> str:
    """`text` without its opening licence comment (the module's docstring); `text` itself when it
    opens with none."""
    start = _first_line(text)
    if start is None:
        return text
    lines = text.split("\n")
    end = _comment_end(lines, start)
    if end is None or not _is_license("\n".join(lines[start : end + 1])):
        return text
    return "\n".join(lines[:start] + lines[end + 1 :])


def _first_line(text: str) -> int | None:
    """The line that opens the text's first comment, or None when the text opens with code."""
    if not _OPENS_COMMENT.match(text):
        return None  # most chunks: a definition, not a comment (checked before splitting the text)
    for number, line in enumerate(text.split("\n", 40)[:40]):
        stripped = line.strip()
        if not stripped or stripped in _PREAMBLE or (number == 0 and stripped.startswith("#!")):
            continue
        opens_block = stripped[:2] in _BLOCKS
        return number if opens_block or _LINE_MARKER.match(stripped) else None
    return None


def _comment_end(lines: list[str], start: int) -> int | None:
    """The last line of the comment that opens at line `start`."""
    first = lines[start].strip()
    closing = _BLOCKS.get(first[:2])
    if closing is not None:
        if closing in first[2:]:
            return start
        return next((n for n in range(start + 1, len(lines)) if closing in lines[n]), None)
    marker = _marker(first)
    end = start
    while end + 1 < len(lines) and _marker(lines[end + 1].strip()) == marker:
        end += 1
    return end


def _marker(line: str) -> str | None:
    found = _LINE_MARKER.match(line)
    return found.group() if found else None


def _is_license(comment: str) -> bool:
    kinds = {m.lastindex for m in _LICENSE_WORDS.finditer(comment)}
    return len(kinds) >= 2
