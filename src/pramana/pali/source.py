"""Getting DPD in: build a dpd.db-compatible SQLite from DPD's TSV backups, or download DPD's release.

Both write a new file beside the target and rename it into place only when it is complete, so the
database a server has open is never half-built.
"""

from __future__ import annotations

import csv
import fnmatch
import json
import math
import os
import re
import sqlite3
import tarfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import create_engine
from sqlalchemy.engine import Engine
from sqlalchemy.pool import QueuePool

from pramana.download import ByteProgress, download
from pramana.errors import (
    InvalidInputError,
    NotFoundError,
    SourceError,
    SourceUnreachableError,
    offline_error,
)
from pramana.install import command, rerun
from pramana.pali.inflect import Template, grammar_entries, inflections, load_templates, niggahita
from pramana.pali.sandhi import read_rules
from pramana.pali.tables import (
    HEADWORD_COLUMNS,
    ROOT_COLUMNS,
    Base,
    DpdHeadword,
    DpdRoot,
    lemma_clean,
    root_clean,
    root_no_sign,
)
from pramana.store.atomic import replacing
from pramana.store.sqlite import connect

MEANINGS_FTS = "pramana_meanings"
SANDHI_RULES = "pramana_sandhi_rules"
SPLIT_EXCEPTIONS = "pramana_split_exceptions"  # DPD's deconstructor exceptions: never a part of a split
HEADWORD_FREQUENCY = "pramana_headword_frequency"
DPD_TABLES = {"dpd_headwords", "lookup"}  # what makes a file a DPD database for pramana
Progress = Callable[[str, int, int | None], None]
_INT_COLUMNS = {
    table: {c.name for c in model.__table__.columns if c.type.python_type is int}
    for table, model in (("dpd_headwords", DpdHeadword), ("dpd_roots", DpdRoot))
}
_SKIPPED_COLUMNS = {"created_at", "updated_at"}


@dataclass
class BuildReport:
    path: Path
    headwords: int
    roots: int
    templates: int
    lookup_keys: int
    generated_forms: int
    seconds: float


def _quiet(_stage: str, _done: int, _total: int | None) -> None:
    pass


def read_tsv(path: Path) -> Iterator[dict[str, str]]:
    """DPD's backup format: tab-separated, every field quoted, newlines allowed inside fields."""
    csv.field_size_limit(1 << 30)
    try:
        with path.open(encoding="utf-8", newline="") as handle:
            reader = csv.reader(handle, delimiter="\t", quotechar='"')
            header = next(reader, None)
            if not header:
                return
            for row in reader:
                if row:
                    yield dict(zip(header, row, strict=False))
    except (UnicodeDecodeError, csv.Error) as exc:
        raise InvalidInputError(f"cannot read {path} as DPD's TSV: {exc}") from exc


def _find(folder: Path, pattern: str) -> list[Path]:
    """Files under `folder` whose name matches `pattern`, symlinked folders followed (each real folder
    once, so a link back up the tree is no loop): a backup folder is often links to a dpd-db clone."""
    found: list[Path] = []
    seen: set[str] = set()
    for root, dirs, files in os.walk(folder, followlinks=True):
        real = os.path.realpath(root)
        if real in seen:
            dirs[:] = []
            continue
        seen.add(real)
        dirs.sort()
        found.extend(Path(root) / name for name in files if fnmatch.fnmatch(name, pattern))
    return sorted(p for p in found if p.is_file())


def _row(record: dict[str, str], columns: list[str], table: str) -> dict[str, object]:
    row: dict[str, object] = {}
    for name in columns:
        if name in _SKIPPED_COLUMNS:
            continue
        value = niggahita(record.get(name, "") or "")
        if name in _INT_COLUMNS[table]:
            row[name] = int(value) if value.strip().lstrip("-").isdigit() else 0
        else:
            row[name] = value
    return row


def _templates(folder: Path) -> dict[str, Template]:
    found = _find(folder, "inflection_templates.json") or _find(folder, "inflection_templates*.xlsx")
    if not found:
        raise InvalidInputError(f"no inflection_templates.json or .xlsx under {folder}")
    return load_templates(found[0])


def sqlite_engine(path: Path, *, read_only: bool = False) -> Engine:
    """A SQLAlchemy engine on the SQLite file `path`, whatever characters its name holds.

    Connections come from a creator, not from a `sqlite:///…` URL, where a `?` or `#` in a folder's
    name would end the path: another file would be opened (or made), and `mode=ro` lost.
    """

    def open_connection() -> sqlite3.Connection:
        if not read_only:
            return sqlite3.connect(path, check_same_thread=False)
        conn = connect(path, read_only=True)
        conn.row_factory = None  # SQLAlchemy reads plain tuples
        return conn

    # The URL names no file, so SQLAlchemy would pick its in-memory pool (one connection per thread).
    return create_engine("sqlite://", creator=open_connection, poolclass=QueuePool)


def build(folder: Path, target: Path, progress: Progress = _quiet) -> BuildReport:
    """Build `target` from the DPD backups under `folder`; the old file stays until the new one is whole."""
    started = time.perf_counter()
    folder = folder.expanduser()
    if not folder.is_dir():
        raise NotFoundError(f"{folder} is not a folder of DPD backup files")
    headword_files = _find(folder, "dpd_headwords*.tsv")
    if not headword_files:
        raise InvalidInputError(f"no dpd_headwords*.tsv under {folder}")
    templates = _templates(folder)
    with replacing(target) as building:
        engine = sqlite_engine(building)
        Base.metadata.create_all(engine)  # DPD's DDL, from the models
        engine.dispose()
        conn = sqlite3.connect(building)
        conn.execute("PRAGMA journal_mode = OFF")
        conn.execute("PRAGMA synchronous = OFF")
        with conn:
            headwords = _insert_headwords(conn, headword_files, progress)
            roots = _insert_roots(conn, _find(folder, "dpd_roots*.tsv"), progress)
            conn.executemany(
                "INSERT INTO inflection_templates (pattern, like, data) VALUES (?, ?, ?)",
                [(t.pattern, t.like, json.dumps(t.data, ensure_ascii=False)) for t in templates.values()],
            )
            keys, generated = _insert_lookup(conn, folder, headwords, templates, progress)
            add_meaning_index(conn)
            _insert_sandhi_rules(conn, _find(folder, "sandhi_rules.tsv"))
            _insert_split_exceptions(conn, _find(folder, "exceptions.tsv"))
            add_headword_frequency(conn)
            conn.execute(
                "INSERT INTO db_info (key, value) VALUES ('pramana_build', ?)",
                (json.dumps({"source": str(folder), "built": time.strftime("%Y-%m-%dT%H:%M:%S")}),),
            )
        conn.execute("PRAGMA journal_mode = DELETE")
        conn.execute("ANALYZE")
        conn.close()
    return BuildReport(
        target,
        len(headwords),
        roots,
        len(templates),
        keys,
        generated,
        round(time.perf_counter() - started, 1),
    )


def _insert_headwords(
    conn: sqlite3.Connection, files: list[Path], progress: Progress
) -> list[dict[str, object]]:
    rows: dict[int, dict[str, object]] = {}
    for path in files:
        for record in read_tsv(path):
            if not record.get("id", "").strip().isdigit():
                raise InvalidInputError(f"{path.name}: a row has no numeric id: {str(record)[:120]}")
            row = _row(record, HEADWORD_COLUMNS, "dpd_headwords")
            rows[int(record["id"])] = row  # the same number as row["id"], which _row made an int
    ordered = [rows[key] for key in sorted(rows)]
    columns = list(ordered[0])
    conn.executemany(
        f"INSERT INTO dpd_headwords ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
        ([row[c] for c in columns] for row in ordered),
    )
    progress("headwords", len(ordered), len(ordered))
    return ordered


def _insert_roots(conn: sqlite3.Connection, files: list[Path], progress: Progress) -> int:
    rows = [_row(record, ROOT_COLUMNS, "dpd_roots") for path in files for record in read_tsv(path)]
    if rows:
        columns = list(rows[0])
        placeholders = ", ".join("?" * len(columns))
        conn.executemany(
            f"INSERT OR REPLACE INTO dpd_roots ({', '.join(columns)}) VALUES ({placeholders})",
            ([row[c] for c in columns] for row in rows),
        )
    progress("roots", len(rows), len(rows))
    return len(rows)


class _LookupColumns:
    """lookup rows under construction: key -> column -> value (lists, or a string for help)."""

    def __init__(self) -> None:
        self.rows: dict[str, dict[str, object]] = defaultdict(dict)

    def add(self, key: str, column: str, value: object) -> None:
        cell = self.rows[key].setdefault(column, [] if column != "help" else value)
        if isinstance(cell, list) and value not in cell:
            cell.append(value)

    def extend_ids(self, key: str, ids: set[int]) -> None:
        cell = self.rows[key].setdefault("headwords", set())
        assert isinstance(cell, set)  # the headwords column holds only the set made here
        cell.update(ids)


def _insert_lookup(
    conn: sqlite3.Connection,
    folder: Path,
    headwords: list[dict[str, object]],
    templates: dict[str, Template],
    progress: Progress,
) -> tuple[int, int]:
    lookup = _LookupColumns()
    total = len(headwords)
    generated = 0
    for done, row in enumerate(headwords, 1):
        lemma = lemma_clean(str(row["lemma_1"]))
        stem, pattern, hid = str(row["stem"]), str(row["pattern"]), int(row["id"])  # type: ignore[call-overload]
        for form in inflections(lemma, stem, pattern, templates):
            lookup.extend_ids(form, {hid})
            generated += 1
        for form, entry in grammar_entries(
            lemma, stem, pattern, str(row["pos"]), str(row["grammar"]), templates
        ):
            lookup.add(form, "grammar", entry)
        if done % 5000 == 0 or done == total:
            progress("inflections", done, total)
    headword_ids = {int(row["id"]) for row in headwords}  # type: ignore[call-overload]
    for path in _find(folder, "lookup*.tsv"):
        for record in read_tsv(path):
            key = niggahita(record.get("lookup_key", ""))
            ids = {i for i in json.loads(record.get("headwords") or "[]") if i in headword_ids}
            if key and ids:
                lookup.extend_ids(key, ids)
    _add_side_tables(lookup, folder, headwords)
    rows = [_lookup_row(key, lookup.rows[key]) for key in sorted(lookup.rows)]
    conn.executemany(
        f"INSERT INTO lookup (lookup_key, headwords, {', '.join(_WRITTEN_LOOKUP_COLUMNS)}, epd, rpd, other,"
        f" sinhala, devanagari, thai) VALUES (?, ?, {', '.join('?' * len(_WRITTEN_LOOKUP_COLUMNS))},"
        " '', '', '', '', '', '')",
        rows,
    )
    progress("lookup", len(rows), len(rows))
    return len(rows), generated


# The lookup columns a build fills besides headwords; epd, rpd, other and the script columns stay "".
_WRITTEN_LOOKUP_COLUMNS = ("roots", "deconstructor", "variant", "spelling", "grammar", "help", "abbrev")


def _lookup_row(key: str, cells: dict[str, object]) -> tuple[str, ...]:
    ids = cells.get("headwords")
    headwords = json.dumps(sorted(ids)) if ids else ""  # type: ignore[call-overload]
    written = (
        json.dumps(cells[c], ensure_ascii=False) if c in cells else "" for c in _WRITTEN_LOOKUP_COLUMNS
    )
    return (key, headwords, *written)


def _add_side_tables(lookup: _LookupColumns, folder: Path, headwords: list[dict[str, object]]) -> None:
    """roots, deconstructor splits, spellings, variants, help and abbreviations, as DPD's lookup has them."""
    for path in _find(folder, "dpd_roots*.tsv"):
        for record in read_tsv(path):
            root = niggahita(record.get("root", ""))
            if root:
                for key in {root, root_clean(root), root_no_sign(root)}:
                    lookup.add(key, "roots", root)
    for row in headwords:
        if row.get("family_root") and row.get("root_key"):
            lookup.add(str(row["family_root"]), "roots", row["root_key"])
    sources = {
        "manual_corrections.tsv": ("compound", "split", "deconstructor"),
        "spelling_mistakes.tsv": ("mistake", "correction", "spelling"),
        "variant_readings.tsv": ("variant", "main", "variant"),
    }
    for name, (key_column, value_column, column) in sources.items():
        for path in _find(folder, name):
            for record in read_tsv(path):
                key, value = niggahita(record.get(key_column, "")), niggahita(record.get(value_column, ""))
                if key and value:
                    lookup.add(key, column, value)
    for path in _find(folder, "help.tsv"):
        for record in read_tsv(path):
            if record.get("help"):
                lookup.add(record["help"], "help", record.get("meaning", ""))
    for path in _find(folder, "abbreviations.tsv"):
        for record in read_tsv(path):
            if record.get("abbrev"):
                lookup.rows[record["abbrev"]]["abbrev"] = {
                    k: v
                    for k, v in record.items()
                    if k in ("meaning", "pāli", "example", "explanation") and v
                }


def _insert_sandhi_rules(conn: sqlite3.Connection, files: list[Path]) -> None:
    """DPD's sandhi rules, kept in the database so the server can undo apostrophe-marked elisions."""
    conn.execute(
        f"CREATE TABLE {SANDHI_RULES} (left_end TEXT, right_start TEXT, left_was TEXT, right_was TEXT,"
        " weight INTEGER DEFAULT 3)"
    )
    for path in files:
        conn.executemany(
            f"INSERT INTO {SANDHI_RULES} VALUES (?, ?, ?, ?, ?)",
            [(r.left_end, r.right_start, r.left_was, r.right_was, r.weight) for r in read_rules(path)],
        )


def _insert_split_exceptions(conn: sqlite3.Connection, files: list[Path]) -> None:
    """DPD's deconstructor exceptions (one word a line): forms it never takes as a part of a split."""
    conn.execute(f"CREATE TABLE {SPLIT_EXCEPTIONS} (word TEXT PRIMARY KEY)")
    for path in files:
        words = {niggahita(line.strip()) for line in path.read_text(encoding="utf-8").splitlines()}
        conn.executemany(f"INSERT OR IGNORE INTO {SPLIT_EXCEPTIONS} VALUES (?)", [(w,) for w in words if w])


def add_headword_frequency(conn: sqlite3.Connection) -> None:
    """How often each headword is met, for ranking homographs: DPD's `ebt_count` (its count in the early
    texts) where the database has it (DPD's release); otherwise how many headwords are built from it
    (its lemma as a part of their construction: dhamma in hundreds, mesa "ram" in a few), a proxy
    that needs no corpus. Stored as log(1 + count).

    Either is one count a lemma (the largest of its headwords' `ebt_count`s): DPD sums the counts of a
    headword's forms, so kusala adj, which has every form of kusala nt and a feminine besides, would
    outweigh the neuter wherever they meet; readings of one word are left to DPD's homonym order and
    the neighbours (benchmarks/pali_word_list_counts.py: a count of forms per word, the word list's
    `ebt_count`, put adjectives first and lost 23 of 455 right readings)."""
    columns = {row[1] for row in conn.execute("PRAGMA table_info(dpd_headwords)")}
    counts: dict[int, float] = {}
    if "ebt_count" in columns:
        rows = conn.execute("SELECT id, lemma_1, ebt_count FROM dpd_headwords").fetchall()
        per_lemma: dict[str, int] = defaultdict(int)
        for _id, lemma, count in rows:
            per_lemma[lemma_clean(lemma)] = max(per_lemma[lemma_clean(lemma)], count or 0)
        counts = {
            hid: per_lemma[lemma_clean(lemma)] for hid, lemma, _ in rows if per_lemma[lemma_clean(lemma)] > 0
        }
    if not counts:
        rows = conn.execute("SELECT id, lemma_1, construction FROM dpd_headwords").fetchall()
        used: dict[str, int] = defaultdict(int)
        for _id, _lemma, construction in rows:
            first_line = (construction or "").split("\n")[0]
            for part in {p.strip() for p in first_line.replace(">", "+").split("+")}:
                if part:
                    used[part] += 1
        counts = {hid: used.get(lemma_clean(lemma), 0) for hid, lemma, _ in rows}
    conn.execute(f"DROP TABLE IF EXISTS {HEADWORD_FREQUENCY}")
    conn.execute(f"CREATE TABLE {HEADWORD_FREQUENCY} (id INTEGER PRIMARY KEY, frequency REAL)")
    conn.executemany(
        f"INSERT INTO {HEADWORD_FREQUENCY} VALUES (?, ?)",
        [(hid, round(math.log1p(count), 3)) for hid, count in counts.items()],
    )


def add_meaning_index(conn: sqlite3.Connection) -> None:
    """An FTS5 index over the English meanings (pramana's own table; DPD's tables are left as they are)."""
    conn.execute(f"DROP TABLE IF EXISTS {MEANINGS_FTS}")
    conn.execute(
        f"CREATE VIRTUAL TABLE {MEANINGS_FTS} USING fts5(meaning_1, meaning_2, meaning_lit,"
        " content='dpd_headwords', content_rowid='id', tokenize='unicode61 remove_diacritics 2')"
    )
    conn.execute(
        f"INSERT INTO {MEANINGS_FTS} (rowid, meaning_1, meaning_2, meaning_lit)"
        " SELECT id, meaning_1, meaning_2, meaning_lit FROM dpd_headwords"
    )
    conn.execute(f"INSERT INTO {MEANINGS_FTS} ({MEANINGS_FTS}) VALUES ('optimize')")


# -- DPD's release ---------------------------------------------------------------------------------

_SHA256 = re.compile(r"\b([0-9a-fA-F]{64})\b")


async def download_release(
    url: str, target: Path, *, progress: ByteProgress | None = None, timeout: float = 60.0
) -> Path:
    """Fetch DPD's `dpd.db.tar.bz2` (resumable), verify it against `<url>.sha256` if the release has one,
    unpack `dpd.db`, add pramana's meaning index, and move it into place."""
    downloads = target.parent / "downloads"
    try:
        archive = await download(
            url,
            downloads / Path(url.split("?")[0]).name,
            timeout=timeout,
            progress=progress,
            sha256=await _published_checksum(url, timeout),
        )
    except SourceUnreachableError as exc:
        raise offline_error(
            "DPD's release", url, exc, retry=rerun("pali download"), variable="DPD_RELEASE_URL",
            local="URL_OR_FILE", meanwhile="The database already there (if any) is unchanged; "
            f"or build one from DPD's TSV backups: `{command('pali build --from DIR')}`.",
        ) from None  # fmt: skip
    with replacing(target) as unpacking:
        _unpack_db(archive, unpacking)
        conn = sqlite3.connect(unpacking)
        try:
            tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            missing = DPD_TABLES - tables
            if missing:
                raise SourceError(f"{url} holds a database without the tables {', '.join(sorted(missing))}")
            with conn:
                add_meaning_index(conn)
                add_headword_frequency(conn)
        finally:
            conn.close()
    return target


async def _published_checksum(url: str, timeout: float) -> str | None:
    if not url.startswith(("http://", "https://")):
        sidecar = Path(url + ".sha256")
        text = sidecar.read_text() if sidecar.is_file() else ""
    else:
        import httpx

        try:
            async with httpx.AsyncClient(follow_redirects=True, timeout=timeout) as client:
                response = await client.get(url + ".sha256")
        except httpx.HTTPError:
            return None
        text = response.text if response.status_code == 200 else ""
    match = _SHA256.search(text)
    return match[1].lower() if match else None


def _unpack_db(archive: Path, out: Path) -> None:
    """Extract the one `*.db` member, streaming (never trusting member paths: no path traversal)."""
    try:
        with tarfile.open(archive, "r:bz2") as tar:
            member = next((m for m in tar if m.isfile() and m.name.endswith(".db")), None)
            if member is None:
                raise SourceError(f"{archive.name} holds no .db file")
            source = tar.extractfile(member)
            assert source is not None
            with out.open("wb") as sink:
                for block in iter(lambda: source.read(1 << 20), b""):
                    sink.write(block)
    except (tarfile.TarError, EOFError, OSError) as exc:  # a corrupt bz2 stream raises OSError
        out.unlink(missing_ok=True)
        archive.unlink(missing_ok=True)
        raise SourceError(
            f"{archive.name} is not a readable tar.bz2 ({exc}); run again to fetch it anew"
        ) from exc
