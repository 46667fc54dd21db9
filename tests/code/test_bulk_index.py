"""Indexing many files at once: batched writes, worker processes, the fast reference reader."""

from __future__ import annotations

import itertools
import json
import random
import sqlite3
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from pramana.code import parse
from pramana.code.files import decode, line_count, text_hash
from pramana.code.index import prepare as prepare_module
from pramana.code.index import store as index_store_module
from pramana.code.index import workers as workers_module
from pramana.code.index.indexer import Indexer
from pramana.code.index.prepare import prepare
from pramana.code.index.walk import walk_repository
from pramana.code.store import CodeStore
from tests.code.conftest import SAMPLE_FILES, write_sample_repo

TEMPLATES = {
    ".py": '''"""Module {n}."""

import os
from .mod{m} import helper_{m}


class Widget{n}:
    """A widget."""

    def render_{n}(self, size: int) -> str:
        """Draw it."""
        return helper_{m}(size) + os.sep + self.name.upper()


def helper_{n}(value):
    return Widget{n}().render_{n}(value)
''',
    ".ts": """import {{ helper{m} }} from "./mod{m}";

/** Fetch item {n}. */
export async function helper{n}(id: string): Promise<number> {{
  const found = await fetch(`/items/${{id}}`);
  return helper{m}(found.status) + new Date().getTime();
}}

export class Store{n} {{
  get(key: string): number {{
    return this.cache.get(key) ?? helper{n}(key);
  }}
}}
""",
    ".go": """package pkg

import "fmt"

// Helper{n} formats a value.
func Helper{n}(v int) string {{
\treturn fmt.Sprintf("%d", Helper{m}(v))
}}

type Server{n} struct {{ Addr string }}

func (s *Server{n}) Start() error {{ return nil }}
""",
    ".rs": """use crate::mod{m}::helper_{m};

/// Helper {n}.
pub fn helper_{n}(v: u64) -> u64 {{
    helper_{m}(v) + std::cmp::max(v, 1)
}}

pub struct Point{n} {{ x: u64 }}

impl Point{n} {{
    pub fn norm(&self) -> u64 {{ self.x.pow(2) }}
}}
""",
    ".md": "# Notes {n}\n\nHow module {n} calls module {m}.\n\n## Details\n\nMore words about item {n}.\n",
}


def write_generated_repo(root: Path, files: int = 175) -> Path:
    rng = random.Random(7)
    suffixes = list(TEMPLATES)
    for n in range(files):
        suffix = suffixes[n % len(suffixes)]
        folder = root / f"pkg{n % 7}"
        folder.mkdir(parents=True, exist_ok=True)
        other = (n + 35 * rng.randrange(1, files // 35)) % files  # same folder, same language
        text = TEMPLATES[suffix].format(n=n, m=other)
        (folder / f"mod{n}{suffix}").write_text(text * (1 + n % 3), encoding="utf-8")
    return root


def snapshot(store: CodeStore) -> dict[str, object]:
    """Everything an index holds about its files, independent of row ids."""
    conn = store._conn

    def table(sql: str) -> list[tuple]:
        return sorted((tuple(row) for row in conn.execute(sql)), key=repr)

    lexicon = {i: t for i, t in conn.execute("SELECT id, term FROM lexicon")}
    bags = {}
    for chunk_id, terms, weights in conn.execute(
        "SELECT c.id, b.terms, b.weights FROM bags b JOIN chunks c ON c.rowid = b.chunk_rowid"
    ):
        ids = np.frombuffer(terms, dtype=np.int32).tolist()
        bags[chunk_id] = dict(
            zip([lexicon[i] for i in ids], np.frombuffer(weights, np.float32).tolist(), strict=True)
        )
    return {
        "files": table("SELECT path, language, package, size, sha, lines FROM files"),
        "chunks": table(
            "SELECT c.id, f.path, c.chunk_type, c.name, c.parent, c.start_line, c.end_line, c.content"
            " FROM chunks c JOIN files f ON f.id = c.file_id"
        ),
        "bags": bags,
        "symbols": table(
            "SELECT f.path, s.name, s.kind, s.parent, s.start_line, s.end_line, s.exported, s.signature,"
            " s.doc FROM symbols s JOIN files f ON f.id = s.file_id"
        ),
        "imports": table(
            "SELECT f.path, i.module, i.names, i.line, i.resolved FROM imports i"
            " JOIN files f ON f.id = i.file_id"
        ),
        "refs": table(
            "SELECT f.path, r.name, r.line, r.kind, r.member FROM refs r JOIN files f ON f.id = r.file_id"
        ),
        "dependencies": table("SELECT f.path, d.target FROM dependencies d JOIN files f ON f.id = d.file_id"),
    }


def index_one_by_one(root: Path, store: CodeStore) -> None:
    """The reference: every file parsed here and written in a transaction of its own."""
    for file in walk_repository(root):
        text = decode((root / file.path).read_bytes())
        parsed = parse.parse_file(file.path, file.language, file.package, text)
        store.replace_file(file, text_hash(text), line_count(text), parsed)
    indexer = Indexer(root, store, workers=0)
    indexer.resolve_imports()
    store.fill_bags()


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> tuple[Path, dict[str, object]]:
    root = write_generated_repo(tmp_path_factory.mktemp("generated") / "repo")
    store = CodeStore(tmp_path_factory.mktemp("reference") / "code.db")
    index_one_by_one(root, store)
    return root, snapshot(store)


@pytest.mark.parametrize("workers", [0, 2])
def test_a_cold_index_in_batches_holds_what_file_by_file_indexing_does(generated, tmp_path, workers):
    root, expected = generated
    store = CodeStore(tmp_path / "code.db")
    report = Indexer(root, store, workers=workers).run()
    assert report.files_parsed == len(expected["files"]) == 175 and not report.errors
    assert report.added_paths == report.changed_paths == sorted(report.changed_paths, key=_walk_order(root))
    got = snapshot(store)
    assert got.keys() == expected.keys()
    for table in expected:
        assert got[table] == expected[table], table
    assert len(expected["refs"]) > 1000 and len(expected["dependencies"]) > 50


def test_imports_a_cold_index_resolves_as_it_writes_are_those_resolved_after(
    generated, tmp_path, monkeypatch
):
    root, expected = generated
    resolved_after = []
    monkeypatch.setattr(Indexer, "resolve_imports", lambda self, paths=None: resolved_after.append(paths))
    store = CodeStore(tmp_path / "code.db")
    Indexer(root, store, workers=0).run()
    assert resolved_after == [] and store.meta("resolved") == "1"  # nothing left to resolve after
    assert snapshot(store) == expected


def test_a_file_that_fails_leaves_a_cold_index_s_imports_to_be_resolved_after(
    generated, tmp_path, monkeypatch
):
    root, expected = generated
    imported = sorted({target for _, target in expected["dependencies"]})[0]  # a file another imports
    real = prepare_module.parse_file

    def failing(path, *args):  # type: ignore[no-untyped-def]
        if path == imported:
            raise ValueError("unparsable")
        return real(path, *args)

    monkeypatch.setattr(prepare_module, "parse_file", failing)
    store = CodeStore(tmp_path / "code.db")
    report = Indexer(root, store, workers=0).run()
    assert len(report.errors) == 1 and imported in report.errors[0]
    got = snapshot(store)
    assert all(imported not in json.loads(row[4]) for row in got["imports"])  # leads to no file indexed
    assert imported not in {target for _, target in got["dependencies"]}
    assert got["dependencies"] == [d for d in expected["dependencies"] if imported not in d]


def _walk_order(root: Path):  # type: ignore[no-untyped-def]
    order = {f.path: i for i, f in enumerate(walk_repository(root))}
    return order.__getitem__


def test_workers_that_die_leave_their_files_to_the_indexing_process(generated, tmp_path, monkeypatch):
    root, expected = generated
    monkeypatch.setattr(
        workers_module, "COMMAND", ("-c", "import sys; sys.stdin.buffer.read(10); sys.exit(3)")
    )
    store = CodeStore(tmp_path / "code.db")
    report = Indexer(root, store, workers=2).run()
    assert report.files_parsed == 175 and not report.errors
    assert snapshot(store) == expected


def test_an_interrupted_batch_leaves_whole_files_and_the_next_run_finishes(generated, tmp_path, monkeypatch):
    root, expected = generated
    monkeypatch.setattr(Indexer, "BATCH_ROWS", 300)  # many small transactions
    store = CodeStore(tmp_path / "code.db")
    real = store._insert
    calls = 0

    def failing(conn, files, lexicon, resolver=None):  # type: ignore[no-untyped-def]
        nonlocal calls
        calls += 1
        if calls == 3:  # the third transaction fails at its last insert, with the rest of it written
            files[-1].refs.append(("broken", object(), "call", 0))  # a line SQLite cannot store
        return real(conn, files, lexicon, resolver)

    monkeypatch.setattr(store, "_insert", failing)
    with pytest.raises(sqlite3.ProgrammingError):
        Indexer(root, store, workers=0).run()
    partial = snapshot(store)
    kept = {row[0] for row in partial["files"]}
    assert 0 < len(kept) < 175
    for table in ("chunks", "symbols", "refs", "imports"):  # each file kept has all its rows
        column = 1 if table == "chunks" else 0
        rows = [r for r in expected[table] if r[column] in kept]
        got = partial[table]
        if table == "imports":  # resolved against every file walked: the index's once it completes
            rows, got = [r[:4] for r in rows], [r[:4] for r in got]
        assert got == rows, table
    assert set(partial["bags"]) == {r[0] for r in partial["chunks"]}
    monkeypatch.setattr(store, "_insert", real)
    report = Indexer(root, store, workers=0).run()
    assert report.files_parsed == 175 - len(kept) and report.files_unchanged == len(kept)
    assert snapshot(store) == expected  # term ids of the rolled-back batch were not kept


def test_an_edit_after_a_bulk_index_keeps_vectors_of_unchanged_chunks(generated, tmp_path):
    root, _ = generated
    store = CodeStore(tmp_path / "code.db")
    Indexer(root, store, workers=0).run()
    rows = store.chunks_without_vectors()
    store.put_vectors([r.rowid for r in rows], np.ones((len(rows), 4), dtype=np.float32))
    target = next(p for p in sorted(root.rglob("*.py")))
    target.write_text(target.read_text() + "\n\ndef added():\n    return 1\n", encoding="utf-8")
    report = Indexer(root, store, workers=0).run()
    assert report.changed_paths == [target.relative_to(root).as_posix()]
    missing = store.chunks_without_vectors()
    assert [r.name for r in missing] == ["added"]


@pytest.mark.parametrize(
    ("path", "language", "expected"),
    [
        ("packages/api/shop/payments.py", "python", {("join", "call", True), ("c", "call", True),
                                                     ("b", "reference", True), ("path", "import", False),
                                                     ("apply_discount", "call", False)}),
        ("packages/web/src/api.ts", "typescript", {("B", "call", True), ("d", "reference", True),
                                                   ("stringify", "call", True), ("slugify", "call", False)}),
        ("packages/web/src/App.tsx", "tsx", {("then", "call", True), ("fetchOrders", "call", False)}),
        ("packages/web/src/util.js", "javascript", {("readFile", "call", True), ("d", "call", True),
                                                    ("b", "reference", True), ("require", "call", False)}),
        ("services/inventory/server.go", "go", {("Println", "call", True), ("Addr", "reference", True)}),
        ("crates/pricing/src/lib.rs", "rust", {("c", "call", True), ("z", "call", True),
                                               ("vat", "call", False), ("Read", "import", True)}),
    ],
)  # fmt: skip
def test_references_are_classified_calls_members_and_imports(path, language, expected):
    source = SAMPLE_FILES[path] + _EXTRA.get(language, "")
    parsed = parse.parse_file(path, language, "root", source)
    found = {(r.name, r.kind, r.member) for r in parsed.references}
    assert expected <= found, expected - found
    assert {(r.name, r.line) for r in parsed.references}.isdisjoint(  # a definition is not a use of itself
        {(s.name, s.start_line) for s in parsed.symbols if s.signature.lstrip().startswith(("def ", "fn "))}
    )


_EXTRA = {
    "python": "\nimport os.path as p\nx = p.join(a.b.c(), d)\nfrom .m import (q,\n    r)\n",
    "typescript": '\nimport x = require("fs");\nconst y = await import("./z");\nnew a.B(c.d);\n',
    "javascript": '\nconst fs = require("fs");\nfs.readFile(a.b, () => c.d());\n',
    "rust": "\nuse std::{io::Read, fmt};\nfn f() { a::b::c(); let x = y.z(); }\n",
}


def test_sample_repository_indexes_the_same_with_workers(sample_repo, tmp_path):
    serial = CodeStore(tmp_path / "serial.db")
    Indexer(sample_repo, serial, workers=0).run()
    pooled = CodeStore(tmp_path / "pooled.db")
    Indexer(sample_repo, pooled, workers=2).run()
    assert snapshot(pooled) == snapshot(serial)


def test_the_cli_module_runs_and_imports_no_server_machinery(tmp_path):
    code = (
        "import sys, pramana.cli, pramana.code.runtime\n"
        "heavy = {'mcp', 'sqlalchemy', 'pyglossary', 'vidyut', 'uvicorn', 'starlette', 'onnxruntime',"
        " 'pathspec', 'pyglossary'}\n"
        "print(sorted(heavy & {m.split('.')[0] for m in sys.modules}))\n"
    )
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert found.stdout.strip() == "[]", found.stdout
    shown = subprocess.run(
        [sys.executable, "-m", "pramana.cli", "code", "--help"], capture_output=True, text=True, check=True
    )
    assert "search" in shown.stdout


@pytest.mark.parametrize(
    ("modules", "unneeded"),
    [
        # An index worker (prepare.serve with the static table): started once per CPU for each index.
        (
            "pramana.code.index.prepare, pramana.embed",
            {"email", "httpx", "rapidfuzz", "mcp", "pydantic"},
        ),
        # The code server's tools: what a server imports before its first answer. rapidfuzz only
        # suggests paths for a wrong one; the indexer comes with the background index.
        ("pramana.code.tools", {"rapidfuzz", "onnxruntime", "tokenizers", "pramana.code.index.indexer"}),
    ],
)
def test_starting_imports_nothing_the_first_work_does_not_need(modules, unneeded):
    code = f"import sys, {modules}\nprint(sorted(m for m in sys.modules if m.split('.')[0] in {unneeded!r}"
    code += f" or m in {unneeded!r}))"
    found = subprocess.run([sys.executable, "-P", "-c", code], capture_output=True, text=True, check=True)
    assert found.stdout.strip() == "[]", found.stdout


def test_a_cold_index_commits_in_batches_not_per_file(generated, tmp_path, monkeypatch):
    root, _ = generated
    store = CodeStore(tmp_path / "code.db")
    commits = []
    real = store._bump
    monkeypatch.setattr(store, "_bump", lambda conn: commits.append(1) or real(conn))
    # The writer commits a batch each second: a clock that moves 4 ms each time it is read, not the
    # machine's (under load the same index takes seconds, and would commit as often).
    ticks = itertools.count()
    monkeypatch.setattr(index_store_module, "time", SimpleNamespace(perf_counter=lambda: next(ticks) * 0.004))
    Indexer(root, store, workers=0).run()
    assert 1 <= len(commits) <= 5  # the 175 files (a batch per second or 60k rows), resolved imports


def test_a_reader_sees_whole_files_while_an_index_runs(tmp_path):
    root = write_sample_repo(tmp_path / "repo")
    store = CodeStore(tmp_path / "code.db")
    reader = CodeStore(tmp_path / "code.db")
    with store.bulk_writer(max_rows=None, max_seconds=None) as writer:
        for file in walk_repository(root):
            outcome = prepare(str(root), file, None)
            assert outcome.prepared is not None
            writer.add(outcome.prepared)
        writer._flush()  # rows are in the open transaction
        assert reader.counts()["files"] == 0  # nothing is visible before the commit
    assert reader.counts()["files"] == 16


def test_bags_written_with_the_files_are_those_fill_bags_would_count(generated, tmp_path):
    root, _ = generated
    store = CodeStore(tmp_path / "code.db")
    Indexer(root, store, workers=2).run()
    written = snapshot(store)["bags"]
    store._conn.execute("DELETE FROM bags")
    assert store.fill_bags() == len(written) > 500
    assert snapshot(store)["bags"] == written


@pytest.mark.parametrize("workers", [0, 2])
def test_the_static_table_embeds_chunks_where_they_are_parsed(generated, tmp_path, static, workers):
    from pramana.embed import chunk_text

    root, _ = generated
    store = CodeStore(tmp_path / "code.db")
    stages: set[str] = set()
    report = Indexer(root, store, static, workers=workers, progress=lambda s, d, t: stages.add(s)).run()
    assert "embed" not in stages  # nothing was left for the embedding stage
    assert report.chunks_embedded == report.chunks_written
    rows = store._conn.execute(
        "SELECT f.path, c.chunk_type, c.parent, c.name, c.content, v.vector FROM chunks c"
        " JOIN files f ON f.id = c.file_id LEFT JOIN vectors v ON v.chunk_rowid = c.rowid"
    ).fetchall()
    assert len(rows) > 500 and all(row[5] is not None for row in rows)
    expected = static.embed([chunk_text(*row[:5]) for row in rows])
    stored = np.vstack([np.frombuffer(row[5], dtype=np.float32) for row in rows])
    assert np.allclose(stored, expected, atol=1e-6)


def test_a_cold_index_writes_without_foreign_key_checks_and_leaves_every_row_whole(tmp_path, monkeypatch):
    from pramana.code.index.store import BulkWriter

    root = write_generated_repo(tmp_path / "repo", files=70)  # its own: a file is edited below
    reference = CodeStore(tmp_path / "reference.db")
    index_one_by_one(root, reference)
    expected = snapshot(reference)
    checked: list[int] = []  # PRAGMA foreign_keys as each file is written
    real_add = BulkWriter.add

    def add(self, prepared):  # type: ignore[no-untyped-def]
        checked.append(self.conn.execute("PRAGMA foreign_keys").fetchone()[0])
        real_add(self, prepared)

    monkeypatch.setattr(BulkWriter, "add", add)
    store = CodeStore(tmp_path / "code.db")
    Indexer(root, store, workers=0).run()
    assert set(checked) == {0}  # a cold index: every row new, nothing deleted
    assert store._conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1  # on again after it
    assert store._conn.execute("PRAGMA foreign_key_check").fetchall() == []
    assert snapshot(store) == expected
    checked.clear()
    changed = next(path for path in sorted(root.rglob("*.py")))
    changed.write_text(changed.read_text() + "\ndef added_later():\n    return 1\n")
    Indexer(root, store, workers=0).run()
    assert checked == [1]  # a file written in place of its old rows: their cascade needs the checks
    assert store._conn.execute("PRAGMA foreign_key_check").fetchall() == []
    chunks_of_changed = store._conn.execute(
        "SELECT count(*) FROM chunks c JOIN files f ON f.id = c.file_id"
        " WHERE f.path = ? AND c.name = 'added_later'",
        (changed.relative_to(root).as_posix(),),
    ).fetchone()[0]
    assert chunks_of_changed == 1


def _refs_indexes(store: CodeStore) -> set[str]:
    return {
        row[0] for row in store._conn.execute("SELECT name FROM sqlite_master WHERE tbl_name = 'refs'")
    } - {"refs"}


def test_a_cold_index_builds_the_refs_indexes_after_its_rows(tmp_path, monkeypatch):
    from pramana.code.index.store import BulkWriter

    root = write_generated_repo(tmp_path / "repo", files=70)  # its own: a file is edited below
    reference = CodeStore(tmp_path / "reference.db")
    index_one_by_one(root, reference)
    store = CodeStore(tmp_path / "code.db")
    while_writing: list[set[str]] = []
    real_add = BulkWriter.add

    def add(self, prepared):  # type: ignore[no-untyped-def]
        while_writing.append(_refs_indexes(store))
        real_add(self, prepared)

    monkeypatch.setattr(BulkWriter, "add", add)
    Indexer(root, store, workers=0).run()
    assert len(while_writing) == 70 and all(found == set() for found in while_writing)  # none while it writes
    assert _refs_indexes(store) == {"refs_name", "refs_file"}
    plan = str(
        [
            tuple(row)
            for row in store._conn.execute("EXPLAIN QUERY PLAN SELECT line FROM refs WHERE name = 'x'")
        ]
    )
    assert "refs_name" in plan
    assert snapshot(store)["refs"] == snapshot(reference)["refs"]
    changed = next(path for path in sorted(root.rglob("*.py")))
    changed.write_text(changed.read_text() + "\ndef added_later():\n    return helper_1(2)\n")
    while_writing.clear()
    Indexer(root, store, workers=0).run()  # not cold: written with the indexes in place
    assert while_writing == [{"refs_name", "refs_file"}]
    assert store._conn.execute("SELECT count(*) FROM refs WHERE name = 'added_later'").fetchone()[0] == 0
    assert store._conn.execute("SELECT count(*) FROM refs WHERE name = 'helper_1'").fetchone()[0] > 0


def test_refs_indexes_a_killed_cold_index_left_unbuilt_are_built_by_the_next_run(generated, tmp_path):
    root, expected = generated
    store = CodeStore(tmp_path / "code.db")
    Indexer(root, store, workers=0).run()
    for name in ("refs_name", "refs_file"):  # as a cold index killed while it wrote leaves them
        store._conn.execute(f"DROP INDEX {name}")
    assert _refs_indexes(store) == set()
    Indexer(root, store, workers=0).run()  # nothing changed: nothing written, the indexes built
    assert _refs_indexes(store) == {"refs_name", "refs_file"}
    assert snapshot(store)["refs"] == expected["refs"]


def test_a_cold_write_that_fails_still_leaves_the_refs_indexes(tmp_path):
    from pramana.code.index.store import BulkWriter

    store = CodeStore(tmp_path / "code.db")
    with pytest.raises(RuntimeError), BulkWriter(store, None, None, new_files_only=True):
        assert _refs_indexes(store) == set()
        raise RuntimeError("stopped")
    assert _refs_indexes(store) == {"refs_name", "refs_file"}


def test_a_cold_index_binds_no_value_sqlite3_must_adapt_and_keeps_member_flags(generated, tmp_path):
    """sqlite3 binds ints, floats, strs, bytes and None as they are; any other type (a bool among
    them) first goes through its adapters' look-up, which cost a tenth of the writes' instructions
    for the refs' member flags. A bool adapter that counts its calls sees none, and the flags read
    back 0 and 1, both present, as file-by-file indexing stores them."""
    root, expected = generated
    adapted: list[object] = []
    key = (bool, sqlite3.PrepareProtocol)
    before = sqlite3.adapters.get(key)
    sqlite3.register_adapter(bool, lambda value: adapted.append(value) or int(value))
    try:
        store = CodeStore(tmp_path / "code.db")
        Indexer(root, store, workers=0).run()
    finally:
        if before is None:
            del sqlite3.adapters[key]
        else:
            sqlite3.adapters[key] = before
    assert adapted == []
    assert snapshot(store)["refs"] == expected["refs"]
    flags = store._conn.execute("SELECT typeof(member), member, count(*) FROM refs GROUP BY 1, 2").fetchall()
    assert [row[:2] for row in flags] == [("integer", 0), ("integer", 1)]
    assert all(row[2] > 50 for row in flags)


@pytest.mark.parametrize("count", [0, 1, 2, 110, 111, 112, 333, 1000])
def test_rows_inserted_many_to_a_statement_are_every_row_in_order(count):
    from pramana.code.index.store import _insert_rows

    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE t (a INTEGER, b TEXT, c BLOB, d, e, f, g, h, i)")  # 9 columns: 111 a statement
    rows = [
        (n, f"name {n}", bytes([n % 256]) * (n % 5), None, n / 3, -n, "x" * (n % 7), n % 2, str(n))
        for n in range(count)
    ]
    _insert_rows(conn, "t (a, b, c, d, e, f, g, h, i)", rows)
    assert conn.execute("SELECT * FROM t ORDER BY rowid").fetchall() == rows
    assert [r[0] for r in conn.execute("SELECT rowid FROM t ORDER BY rowid")] == list(range(1, count + 1))


def test_a_bag_s_term_ids_are_its_terms_in_order():
    from pramana.code.index.store import _term_ids

    ids = {"get": 7, "user": 3, "id": 12}
    for terms in [(), ("user",), ("get", "user"), ("id", "get", "user", "get")]:
        assert np.frombuffer(_term_ids(terms, ids), dtype=np.int32).tolist() == [ids[t] for t in terms]
    with pytest.raises(KeyError):
        _term_ids(("get", "missing"), ids)


@pytest.mark.parametrize("highest", [50, 70_000])  # 16-bit term ids (a radix sort of them), and wider
def test_postings_list_each_term_s_chunks_in_chunk_order(highest):
    from pramana.code.search.lexical import LexicalIndex

    rng = random.Random(highest)
    bags = [[rng.randint(1, highest) for _ in range(rng.randint(1, 30))] for _ in range(200)]
    bags = [list(dict.fromkeys(bag)) for bag in bags]  # a bag holds each term once
    sizes = np.array([len(bag) for bag in bags], dtype=np.int64)
    terms = np.array([t for bag in bags for t in bag], dtype=np.int32)
    weights = np.arange(len(terms), dtype=np.float32)
    ids = [f"c{n}" for n in range(len(bags))]
    heads = {i: ("a.py", None, None) for i in ids}
    index = LexicalIndex.from_bags(1, range(len(bags)), ids, heads, sizes, terms, weights, {"t": highest})
    for term in {t for bag in bags for t in bag}:
        found = index.docs[index.start[term] : index.start[term + 1]].tolist()
        assert found == [n for n, bag in enumerate(bags) if term in bag]
        expected = [float(w) for w, t in zip(weights, terms, strict=True) if t == term]
        assert index.weights[index.start[term] : index.start[term + 1]].tolist() == expected


def _page_size(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        return int(conn.execute("PRAGMA page_size").fetchone()[0])


def test_a_new_index_is_written_in_large_pages_and_reads_from_a_read_only_mount(tmp_path):
    from tests.conftest import read_only_mount

    root = write_sample_repo(tmp_path / "repo")
    volume = tmp_path / "volume"
    store = CodeStore(volume / "code.db")
    Indexer(root, store, workers=0).run()
    counts = store.counts()
    store.close()  # the log copied into the file
    assert _page_size(volume / "code.db") == CodeStore.page_size > 4096  # SQLite's default
    with read_only_mount(volume, tmp_path / "mnt") as mounted:
        reader = CodeStore(mounted / "code.db", read_only=True)
        assert reader.counts() == counts and counts["files"] == 16
        reader.close()


def test_an_index_in_sqlite_s_default_pages_keeps_them_and_indexes_as_a_new_one(tmp_path):
    root = write_sample_repo(tmp_path / "repo")
    fresh = CodeStore(tmp_path / "fresh.db")
    Indexer(root, fresh, workers=0).run()
    older = tmp_path / "older.db"
    with sqlite3.connect(older) as conn:  # as an older pramana left it: 4 KiB pages, nothing indexed yet
        conn.execute("PRAGMA page_size = 4096")
        conn.execute("PRAGMA journal_mode = WAL")
    store = CodeStore(older)
    Indexer(root, store, workers=0).run()
    assert _page_size(older) == 4096
    assert snapshot(store) == snapshot(fresh)
