"""Getting Gita data in: the vedicscriptures documents, checked and turned into records."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from pramana.errors import SourceError
from pramana.fetch import JsonSource
from pramana.gita.reference import VerseRef
from pramana.gita.repair import Repairs, repair_text
from pramana.gita.translators import TRANSLATION_FIELDS, TRANSLATORS, clean_author_text
from pramana.text.normalize import clean_text


@dataclass(frozen=True)
class AuthorText:
    key: str
    author: str
    field: str  # et, ht, sc or hc
    text: str
    numbered_for_other_verse: bool
    repairs: Repairs = field(default_factory=Repairs)  # the source's damage undone in `text`


@dataclass(frozen=True)
class VerseRecord:
    ref: VerseRef
    devanagari: str
    transliteration: str
    texts: list[AuthorText]
    raw_json: str

    @property
    def english_translations(self) -> dict[str, str]:
        """{author name: English translation}, the spec's `translations` column."""
        return {t.author: t.text for t in self.texts if t.field == "et" and not t.numbered_for_other_verse}


@dataclass(frozen=True)
class ChapterRecord:
    chapter_number: int
    name: str
    name_transliterated: str
    name_translation: str
    name_meaning: str
    verses_count: int
    summary: str
    summary_hindi: str = ""
    raw_json: str = field(default="", repr=False)
    fetched_at: str = ""  # when the cached copy was fetched ("YYYY-MM-DD HH:MM:SS", UTC); "" if never


def verse_path(ref: VerseRef) -> str:
    return f"slok/{ref.chapter}/{ref.verse}"


def chapter_path(chapter: int) -> str:
    return f"chapter/{chapter}"


def _require_text(doc: dict[str, Any], key: str, where: str) -> str:
    value = doc.get(key)
    if not isinstance(value, str) or not value.strip():
        raise SourceError(f"{where}: field {key!r} is missing or empty")
    return value


def author_texts(doc: dict[str, Any], ref: VerseRef, fields: tuple[str, ...]) -> list[AuthorText]:
    """Each author's cleaned and repaired `fields` texts in a verse document (placeholders dropped)."""
    texts: list[AuthorText] = []
    for key, translator in TRANSLATORS.items():
        block = doc.get(key)
        if not isinstance(block, dict):
            continue
        for field_name in fields:
            cleaned = clean_author_text(block.get(field_name), ref.chapter, ref.verse)
            if cleaned is not None:
                repaired = repair_text(cleaned.text, key, field_name)
                texts.append(
                    AuthorText(
                        key=key,
                        author=str(block.get("author") or translator.name),
                        field=field_name,
                        text=repaired.text,
                        numbered_for_other_verse=cleaned.numbered_for_other_verse,
                        repairs=repaired.repairs,
                    )
                )
    return texts


def parse_verse(doc: Any, ref: VerseRef, raw_json: str | None = None) -> VerseRecord:
    """Check a verse document's shape against the reference it was fetched for.

    Only the translations (`et`, `ht`) are cleaned here; commentaries stay in `raw_json`
    and are read when an author who wrote nothing else is asked for.
    """
    where = f"verse document for {ref}"
    if not isinstance(doc, dict):
        raise SourceError(f"{where}: expected a JSON object, got {type(doc).__name__}")
    if (
        doc.get("_id") != f"BG{ref.chapter}.{ref.verse}"
        or doc.get("chapter") != ref.chapter
        or doc.get("verse") != ref.verse
    ):
        raise SourceError(
            f"{where}: it identifies itself as {doc.get('_id')!r} "
            f"(chapter {doc.get('chapter')!r}, verse {doc.get('verse')!r})"
        )
    devanagari = clean_text(_require_text(doc, "slok", where))
    transliteration = clean_text(_require_text(doc, "transliteration", where))
    for key in TRANSLATORS:
        if key in doc and not isinstance(doc[key], dict):
            raise SourceError(f"{where}: author {key!r} is not an object")
    return VerseRecord(
        ref=ref,
        devanagari=devanagari,
        transliteration=transliteration,
        texts=author_texts(doc, ref, TRANSLATION_FIELDS),
        raw_json=raw_json if raw_json is not None else json.dumps(doc, ensure_ascii=False),
    )


def parse_chapter(doc: Any, chapter: int) -> ChapterRecord:
    where = f"chapter document for chapter {chapter}"
    if not isinstance(doc, dict):
        raise SourceError(f"{where}: expected a JSON object, got {type(doc).__name__}")
    if doc.get("chapter_number") != chapter:
        raise SourceError(f"{where}: it is chapter {doc.get('chapter_number')!r}")
    count = doc.get("verses_count")
    if not isinstance(count, int) or count < 1:
        raise SourceError(f"{where}: verses_count {count!r} is not a positive number")
    meaning = doc.get("meaning") if isinstance(doc.get("meaning"), dict) else {}
    summary = doc.get("summary") if isinstance(doc.get("summary"), dict) else {}
    return ChapterRecord(
        chapter_number=chapter,
        name=clean_text(_require_text(doc, "name", where)),
        name_transliterated=clean_text(str(doc.get("transliteration") or "")),
        name_translation=clean_text(str(doc.get("translation") or "")),
        name_meaning=clean_text(str(meaning.get("en") or "")),
        verses_count=count,
        summary=clean_text(str(summary.get("en") or "")),
        summary_hindi=clean_text(str(summary.get("hi") or "")),
        raw_json=json.dumps(doc, ensure_ascii=False, separators=(",", ":")),
    )


def parse_chapter_list(doc: Any) -> list[ChapterRecord]:
    if not isinstance(doc, list):
        raise SourceError(f"chapters document: expected a JSON list, got {type(doc).__name__}")
    records = []
    for item in doc:
        number = item.get("chapter_number") if isinstance(item, dict) else None
        if not isinstance(number, int):
            raise SourceError("chapters document: an entry has no chapter_number")
        records.append(parse_chapter(item, number))
    return records


class GitaSource:
    """The vedicscriptures API (or a mirror directory) as typed records."""

    def __init__(self, location: str, *, timeout: float = 10.0, retries: int = 4, max_connections: int = 16):
        self.json = JsonSource(location, timeout=timeout, retries=retries, max_connections=max_connections)

    @property
    def location(self) -> str:
        return self.json.location

    async def __aenter__(self) -> GitaSource:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.json.aclose()

    async def verse(self, ref: VerseRef) -> VerseRecord:
        doc, text = await self.json.get_with_text(verse_path(ref))
        return parse_verse(doc, ref, text)

    async def chapter(self, chapter: int) -> ChapterRecord:
        return parse_chapter(await self.json.get(chapter_path(chapter)), chapter)

    async def chapters(self) -> list[ChapterRecord]:
        return parse_chapter_list(await self.json.get("chapters"))
