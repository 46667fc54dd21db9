"""Headwords that cannot be found by their stem, per dictionary, over every dictionary whose text is
in the shared data (csl-orig text, the md/cae slob files, the Heritage MW).

A headword printed as a cited form (a nominative: `DarmaH`, `agniH`, `vanaM`; `-AH` of a plural name
or an ā-root noun) should be found by an exact search for its stem (`Darma`, `agni`, `vana`). This
script installs each dictionary into one database and searches every such stem through the service.

    uv run python benchmarks/sanskrit_stems.py [--db PATH] [--skip-mw] [--examples 5]
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sqlite3
import tempfile
import time
from pathlib import Path

from _common import shared_data
from pramana.sanskrit.importers import import_path
from pramana.sanskrit.service import SanskritService
from pramana.sanskrit.source import install
from pramana.text.schemes import slp1_to_iast

_CITED = re.compile(r"^(?P<stem>.{3,}?)(?:(?P<vowel>[aiuIUA])H|(?P<neuter>a)[mM])$")
SLOBS = {"md": "md/macdse.slob", "cae": "cae/cappse.slob"}


def stems_of(headword: str) -> set[str]:
    """The stems a cited form can stand for ('' when `headword` is not one)."""
    match = _CITED.match(headword)
    if match is None or (match["neuter"] and len(headword) < 5):
        return set()
    if match["neuter"]:
        return {match["stem"] + "a"}
    vowel = match["vowel"]
    return {match["stem"] + vowel, match["stem"] + "a"} if vowel == "A" else {match["stem"] + vowel}


def csl_codes(data: Path) -> list[str]:
    return sorted(p.parent.name for p in data.glob("*/*.txt") if p.stem == p.parent.name)


def build(db: Path, data: Path, with_mw: bool) -> None:
    service = SanskritService(db)
    store = service.store
    started = time.perf_counter()
    for item in asyncio.run(install(store, csl_codes(data), str(data), db.parent / "downloads")):
        print(f"  {item.code}: {item.entries:,} entries ({item.seconds} s)")
    for code, file in SLOBS.items():
        print(f"  {code}: {import_path(store, data / file, code).entries:,} entries")
    if with_mw:
        print(f"  mw: {import_path(store, data / 'mw' / 'heritage_xhtml', 'mw').entries:,} entries")
    print(f"built in {time.perf_counter() - started:.0f} s")
    service.close()


def unreachable(service: SanskritService, db: Path, code: str) -> tuple[int, list[str]]:
    """(cited headwords of `code`, those an exact search for their stem does not find)."""
    with sqlite3.connect(db) as conn:
        headwords = [row[0] for row in conn.execute(
            "SELECT DISTINCT key_slp1 FROM entries WHERE dict_code = ?", (code,)
        )]  # fmt: skip
    cited = [(word, stems) for word in headwords if (stems := stems_of(word))]
    missing = []
    for word, stems in cited:
        found = any(
            hit.word == slp1_to_iast(word)
            for stem in stems
            for hit in service.search(stem, "exact", [code], 1000).results
        )
        if not found:
            missing.append(word)
    return len(cited), missing


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, help="reuse (or build) this database")
    parser.add_argument("--skip-mw", action="store_true", help="leave out the Heritage MW (slow import)")
    parser.add_argument("--examples", type=int, default=5)
    args = parser.parse_args()
    data = shared_data("sanskrit")
    db = args.db or Path(tempfile.mkdtemp(prefix="stems-")) / "sanskrit.db"
    if not db.exists():
        print(f"installing every available dictionary into {db}")
        build(db, data, with_mw=not args.skip_mw)
    service = SanskritService(db, read_only=True)
    print("\n| dictionary | headwords | cited forms | not found by their stem | examples |")
    print("|---|---|---|---|---|")
    total = 0
    for listed in service.list_dictionaries().dictionaries:
        cited, missing = unreachable(service, db, listed.code)
        total += len(missing)
        examples = ", ".join(slp1_to_iast(word) for word in missing[: args.examples])
        print(f"| {listed.code} | {listed.entry_count:,} | {cited:,} | {len(missing):,} | {examples} |")
    print(f"\ntotal not found by their stem: {total:,}")
    service.close()


if __name__ == "__main__":
    main()
