"""The symbol stage's queries: definitions by name, kind, file or folder, the uses of a name, a file's
imports and dependents, the definition around a line (find_definition, list_functions,
find_usages, get_file_outline and the like)."""

from __future__ import annotations

import heapq
import json
import posixpath
from collections.abc import Sequence

from pramana.code.index.tables import CodeTables
from pramana.code.languages import header_extensions
from pramana.code.records import ImportRecord, Owner, SymbolRecord, UseRecord
from pramana.code.search.paths import is_secondary
from pramana.code.search.rank import named_after

# In the order of SymbolRecord's fields.
SYMBOL_COLUMNS = """s.id, s.file_id, s.name, s.kind, s.parent, s.start_line, s.end_line, s.exported = 1,
    s.signature, s.doc, f.path, f.package, f.language"""


class SymbolQueries(CodeTables):
    """What the symbol tools read."""

    def symbols_under(self, path: str, limit: int) -> tuple[list[SymbolRecord], int]:
        """The first `limit` definitions in the file `path`, or in every file below the folder `path`
        ('' is the root), and how many there are."""
        base = "FROM symbols s JOIN files f ON f.id = s.file_id WHERE f.path = ? OR f.path LIKE ? ESCAPE '\\'"
        params = (path, _below(path))
        total = int(self._conn.execute(f"SELECT count(*) {base}", params).fetchone()[0])
        rows = self._records(
            SymbolRecord,
            f"SELECT {SYMBOL_COLUMNS} {base} ORDER BY f.path, s.start_line LIMIT ?",
            (*params, limit),
        )
        return rows, total

    def has_folder(self, path: str) -> bool:
        return bool(
            self._conn.execute(
                "SELECT 1 FROM files WHERE path LIKE ? ESCAPE '\\' LIMIT 1", (_below(path),)
            ).fetchone()
        )

    def definitions(self, name: str, limit: int | None = None) -> list[SymbolRecord]:
        """The definitions of `name` (the first `limit`, None: all), production code before tests
        (test files and test code inside a source file: a Rust `#[cfg(test)] mod tests {}`), examples
        and the like; in each, classes, interfaces, types and functions before methods
        before anything else; of a type split over files (C#'s partial classes), the file named
        after it first."""
        rows = self._records(
            SymbolRecord,
            f"SELECT {SYMBOL_COLUMNS} FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.name = ?",
            (name,),
        )
        tests = self.test_spans({row.file_id for row in rows})

        def order(row: SymbolRecord) -> tuple[object, ...]:
            return _definition_order(row, _in_spans(tests.get(row.file_id), row.start_line))

        # A common name (get, __init__) has thousands: keep `limit` of them while reading, not all.
        if limit is not None:
            return heapq.nsmallest(limit, rows, key=order)
        return sorted(rows, key=order)

    def definition_count(self, name: str) -> int:
        return int(self._conn.execute("SELECT count(*) FROM symbols WHERE name = ?", (name,)).fetchone()[0])

    def symbols_of_kind(
        self, kinds: Sequence[str], exported_only: bool, package: str | None, limit: int
    ) -> tuple[list[SymbolRecord], int]:
        clauses: list[str] = []
        params: list[object] = []
        if kinds:
            clauses.append(f"s.kind IN ({','.join('?' * len(kinds))})")
            params.extend(kinds)
        if exported_only:
            clauses.append("s.exported = 1")
        if package:
            clauses.append("f.package = ?")
            params.append(package)
        where = " AND ".join(clauses) or "1 = 1"
        base = f"FROM symbols s JOIN files f ON f.id = s.file_id WHERE {where}"
        total = int(self._conn.execute(f"SELECT count(*) {base}", params).fetchone()[0])
        rows = self._records(
            SymbolRecord,
            f"SELECT {SYMBOL_COLUMNS} {base} ORDER BY f.path, s.start_line LIMIT ?",
            [*params, limit],
        )
        return rows, total

    def references(
        self, name: str, limit: int, *, members_first: bool = False, members_only: bool = False
    ) -> tuple[list[UseRecord], int]:
        """The first `limit` uses of `name` and how many there are, in the order a developer reads
        them: production code before tests, examples and the like (`paths.is_secondary`, and test
        code inside a source file), calls
        before other references before imports, then by path and line.

        members_first puts accesses of a member (`x.name`, `x.name()`, `X::name`) before bare uses
        of the name; members_only keeps them alone, for a method, which is used no other way: a
        variable, a function or an import that merely shares its name is not a use of it.
        """
        where = "name = ? AND member = 1 AND kind != 'import'" if members_only else "name = ?"
        # paths.is_secondary is Python, so the uses are sorted here: one pass over the name's rows in
        # four small columns, a few ms for the usual hundreds, about 0.25 s for 100,000.
        cursor = self._conn.cursor()
        cursor.row_factory = None  # plain tuples: a third of the time of sqlite3.Row here
        query = f"SELECT rowid, file_id, kind, member, line FROM refs WHERE {where}"
        uses = cursor.execute(query, (name,)).fetchall()
        paths = self._conn.execute(
            "SELECT id, path FROM files WHERE id IN (SELECT value FROM json_each(?))",
            (json.dumps(sorted({use[1] for use in uses})),),
        )
        files = {file_id: (is_secondary(path), path) for file_id, path in paths}
        tests = self.test_spans(files)
        members = members_first or members_only

        def order(use: tuple[int, int, str, int, int]) -> tuple[object, ...]:
            secondary, path = files.get(use[1], (True, ""))
            secondary = secondary or _in_spans(tests.get(use[1]), use[4])
            return members and not use[3], secondary, _USE_ORDER.get(use[2], 2), path, use[4]

        chosen = {use[0]: rank for rank, use in enumerate(heapq.nsmallest(limit, uses, key=order))}
        rows = self._records(
            UseRecord,
            "SELECT r.rowid, r.line, r.kind, r.member, f.path, f.package, f.language, f.id AS file_id"
            " FROM refs r JOIN files f ON f.id = r.file_id WHERE r.rowid IN (SELECT value FROM json_each(?))",
            (json.dumps(list(chosen)),),
        )
        rows.sort(key=lambda row: chosen[row.rowid])
        return rows, len(uses)

    def references_in(self, path: str, start: int, end: int, kind: str) -> list[str]:
        rows = self._conn.execute(
            "SELECT DISTINCT r.name FROM refs r JOIN files f ON f.id = r.file_id"
            " WHERE f.path = ? AND r.line BETWEEN ? AND ? AND r.kind = ? ORDER BY r.line",
            (path, start, end, kind),
        )
        return [r[0] for r in rows]

    def imports_of(self, path: str, limit: int) -> list[ImportRecord]:
        return self._records(
            ImportRecord,
            "SELECT i.module, i.names, i.line, i.resolved FROM imports i JOIN files f ON f.id = i.file_id"
            " WHERE f.path = ? ORDER BY i.line LIMIT ?",
            (path, limit),
        )

    def dependents(self, path: str, limit: int) -> tuple[list[str], int]:
        """The first `limit` files importing `path` (by path), and how many there are."""
        base = "FROM dependencies d JOIN files f ON f.id = d.file_id WHERE d.target = ?"
        total = int(self._conn.execute(f"SELECT count(DISTINCT f.path) {base}", (path,)).fetchone()[0])
        rows = self._conn.execute(f"SELECT DISTINCT f.path {base} ORDER BY f.path LIMIT ?", (path, limit))
        return [r[0] for r in rows], total

    def enclosing_symbol(self, path: str, line: int) -> Owner | None:
        return self._record(
            Owner,
            "SELECT s.name, s.parent, s.kind FROM symbols s JOIN files f ON f.id = s.file_id"
            " WHERE f.path = ? AND s.start_line <= ? AND s.end_line >= ?"
            " ORDER BY s.end_line - s.start_line LIMIT 1",
            (path, line, line),
        )


CALLABLE_KINDS = frozenset({"function", "method"})
_KIND_ORDER = {"class": 0, "interface": 0, "type": 0, "function": 0, "method": 1}
_USE_ORDER = {"call": 0, "reference": 1, "import": 2}


def _definition_order(row: SymbolRecord, in_test: bool) -> tuple[object, ...]:
    """`in_test`: the definition is in test code inside its file (CodeTables.test_spans)."""
    return (
        in_test or is_secondary(row.path),
        # A function's body before its prototype: `f` defined in `f.c` before `f` declared in `f.h`
        # (an OCaml `val` of an `.mli` after its `let`); a header's classes and inline code stay first.
        row.kind in CALLABLE_KINDS and posixpath.splitext(row.path)[1] in header_extensions(),
        _KIND_ORDER.get(row.kind, 2),
        row.parent is not None,
        -row.exported,
        not named_after(row.path, row.name),  # C#'s partial `PyObject` in PyObject.cs, then PyObject.X.cs
        row.path,
        row.start_line,
    )


def _in_spans(spans: Sequence[tuple[int, int]] | None, line: int) -> bool:
    """Whether `line` is in one of `spans` (first, last line; CodeTables.test_spans)."""
    return spans is not None and any(start <= line <= end for start, end in spans)


def _below(folder: str) -> str:
    escaped = folder.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"{escaped}/%" if escaped else "%"
