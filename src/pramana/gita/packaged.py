"""The Sanskrit of all 701 verses and a list of English words, shipped in the package.

Made by scripts/make_gita_text.py from the vedicscriptures data (see data/PROVENANCE.md), so that
lookups (without a translation), fuzzy matching and transcript correction work before any seed
and with the source unreachable. The transliteration has proper IAST marks (see `proper_iast`).
"""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from pramana.gita.matcher import IndexedVerse
from pramana.gita.reference import VerseRef, parse_reference

TEXT_FILE = "gita_text.json.gz"
TOPICS_FILE = "topics.json"  # the reader's subject index: a description of each verse (PROVENANCE.md)
QUESTIONS_FILE = "reader_questions.json"  # questions a reader asks that each verse answers (PROVENANCE.md)


@dataclass(frozen=True)
class PackagedVerse:
    ref: VerseRef
    devanagari: str
    transliteration: str  # IAST, proper marks


@cache
def _document() -> dict:
    data = resources.files("pramana.gita").joinpath("data", TEXT_FILE).read_bytes()
    return json.loads(gzip.decompress(data))


@cache
def packaged_verses() -> dict[VerseRef, PackagedVerse]:
    """Every verse, in order."""
    return {
        VerseRef(chapter, verse): PackagedVerse(VerseRef(chapter, verse), devanagari, iast)
        for chapter, verse, devanagari, iast in _document()["verses"]
    }


def indexed_verses() -> list[IndexedVerse]:
    """Every verse as the matchers index it (IAST with proper marks, and Devanāgarī)."""
    return [IndexedVerse(v.ref, v.transliteration, v.devanagari) for v in packaged_verses().values()]


def packaged_verse(ref: VerseRef) -> PackagedVerse:
    return packaged_verses()[ref]


@cache
def english_words() -> frozenset[str]:
    """Words the clean English translations write in lower case (see scripts/make_gita_text.py)."""
    return frozenset(_document()["english_words"])


@cache
def verse_topics() -> dict[VerseRef, str]:
    """Each verse's description in the reader's subject index (data/topics.json, pramana's own text)."""
    return _by_verse(TOPICS_FILE)


@cache
def verse_questions() -> dict[VerseRef, tuple[str, ...]]:
    """The questions a reader asks that each verse answers (data/reader_questions.json, pramana's own
    text, written verse by verse from the translations without the test questions)."""
    return {ref: tuple(asked) for ref, asked in _by_verse(QUESTIONS_FILE).items()}


def _by_verse(name: str) -> dict[VerseRef, Any]:
    """A packaged JSON file of pramana's own texts by verse id ("BG 2.47"), less its "about" key."""
    data = json.loads(resources.files("pramana.gita").joinpath("data", name).read_text("utf-8"))
    return {parse_reference(key): value for key, value in data.items() if key != "about"}
