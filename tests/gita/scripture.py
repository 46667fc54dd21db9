"""A minimal reader of the SB and CC verse texts in the shared archive, for the matcher's tests and
benchmarks until the books' own importer lands (it replaces this module: see docs/gita.md).

It reads `books/json/{sb,cc}/**/<verse>.json` from the archive (`slides-2460884c-verses.tar.gz`,
PROVENANCE.md beside it): each file's `roman` lines, ṟ/ḻ written as ṝ/l̐, the reference built from the
path (never `info.id`, which has backslashes in places). The known stray "/" before a value
(`"prevId":/null`, SB 1.1.1 among the three files) is dropped; a file still not JSON, or empty, is
skipped. Two CC files (Ādi 1.4, 1.5) carry synonyms and a translation after the verse: only the lines
before them are read.
"""

from __future__ import annotations

import json
import re
import tarfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ARCHIVE = Path("scripture") / "slides-2460884c-verses.tar.gz"
CC_PARTS = {"adi": "Ādi", "madhya": "Madhya", "antya": "Antya"}
# books/json/sb/<canto>/<chapter>/<verse>.json, cc/<part>/<chapter>/<verse>.json: a verse is a number, a
# range (5-7), or SB 4.29's 1a-2a, 1b, 2b; summary.json, invocation.json and the like are prose
_VERSE_FILE = re.compile(r"/books/json/(sb|cc)/([a-z0-9]+)/(\d+)/(\d+[a-z]?(?:-\d+[a-z]?)?)\.json$")
_STRAY_SLASH = re.compile(r'(":\s*)/')
_NOT_VERSE = re.compile(r"—.*;|^TRANSLATION$")  # "anarpita—not bestowed; carīm—…", then the translation


@dataclass(frozen=True)
class ScriptureVerse:
    book: str  # "SB" or "CC"
    ref: str  # "SB 1.2.6", "SB 10.1.5-7", "CC Ādi 17.31"
    text: str  # IAST as vedabase writes it (ṁ), one line a half-verse
    order: tuple[int, int, int, str]  # where it stands in its book


def _order_number(stem: str) -> tuple[int, str]:
    number = re.match(r"\d+", stem)
    return (int(number.group()) if number else 0, stem)


def _text(raw: bytes) -> str | None:
    try:
        document = json.loads(_STRAY_SLASH.sub(r"\1", raw.decode("utf-8")))
    except (UnicodeDecodeError, json.JSONDecodeError):
        return None
    lines: list[str] = []
    for verse in document.get("verses") or []:
        for line in str(verse.get("roman") or "").splitlines():
            if _NOT_VERSE.search(line.strip()):
                break
            if line.strip():
                lines.append(line.strip().replace("ṟ", "ṝ").replace("ḻ", "l\u0310"))
    return "\n".join(lines) or None


@cache
def read_scripture(archive: Path) -> tuple[ScriptureVerse, ...]:
    """Every SB and CC verse in the archive, in book order (SB by canto, CC Ādi, Madhya, Antya)."""
    verses = []
    with tarfile.open(archive) as tar:
        for member in tar:
            found = _VERSE_FILE.search(member.name)
            if not member.isfile() or found is None:
                continue
            book, part, chapter, stem = found.groups()
            handle = tar.extractfile(member)
            text = _text(handle.read()) if handle else None
            if text is None:
                continue
            if book == "sb":
                ref, part_order = f"SB {part}.{chapter}.{stem}", int(part)
            else:
                ref, part_order = f"CC {CC_PARTS[part]} {chapter}.{stem}", list(CC_PARTS).index(part)
            order = (part_order, int(chapter), *_order_number(stem))
            verses.append(ScriptureVerse(book.upper(), ref, text, order))
    return tuple(sorted(verses, key=lambda v: (v.book != "SB", v.order)))
