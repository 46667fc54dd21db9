"""Reading the SB and CC verses from upstream's archive (a .tar.gz, or the folder it unpacks to).

Upstream keeps one JSON file per verse, `books/json/<book>/<division>/<chapter>/<verse>.json`, named
by vedabase's references (`sb/10/1/5-7.json` holds SB 10.1.5-7). Its quirks, all handled here:
- three files are not JSON (`"prevId":/null`): the stray `/` is dropped;
- `info.id` is written with backslashes in some CC files, and some prevId/nextId are wrong: the
  reference is read from the file's path, never from `info`;
- ṝ is written ṟ and the nasal l̐ ḻ;
- a verse's `verses` holds one entry per stanza, some of them empty strings (CC Madhya 23.30), and
  CC Ādi 3.105-106 has no text at all;
- SB 4.29 has three texts numbered `1a-2a`, `1b`, `2b` besides its verses 1-85 (they come after 85);
- in CC Ādi 1.4 and 1.5 the word-for-word meanings and the translation were pasted into the verse
  text: they are cut off (and kept as what they are).
Translations and word-for-word meanings (`translation`, `synonyms`) are read when the archive has
them (upstream's does; the copy the tests use does not): they go into the user's own cache.
Purports are never read.

Nothing is extracted to disk: members are read from the stream, so a hostile archive cannot write
anywhere; members and the total read are bounded.
"""

from __future__ import annotations

import json
import re
import tarfile
import unicodedata
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from pramana import work
from pramana.errors import InvalidInputError, SourceError
from pramana.gita.books import Book
from pramana.gita.reference import ChapterRef, VerseRef

ReadProgress = Callable[[int, int, str], None]  # (done, total, what)

MAX_MEMBER_BYTES = 4 << 20  # upstream's largest file (a verse with its purport) is ~100 KB
MAX_READ_BYTES = 1 << 30
# A verse file: `<top folder>/books/json/sb/1/2/6.json` in the archive (its other folders are not read).
_MEMBER = re.compile(
    r"^(?P<top>[^/]+/)?books/json/(?P<book>sb|cc)/(?P<division>[a-z0-9]+)/(?P<chapter>\d{1,3})/(?P<name>[^/]+)\.json$"
)
_PLAIN = re.compile(r"(\d{1,3})(?:-(\d{1,3}))?")
_LABELLED = re.compile(r"(\d{1,3})[a-z](?:-(\d{1,3})[a-z])?")
_STRAY_SLASH = re.compile(r"(:\s*)/(?=\s*(?:\"|null|-?\d|\[|\{|true|false))")
_COMMIT = re.compile(r"[0-9a-f]{40}")
# A line of word-for-word meanings: "rādhā—Śrīmatī Rādhārāṇī; kṛṣṇa—of Lord Kṛṣṇa; …".
_GLOSSES = re.compile(r"^[^—;]{1,60}—[^;]+;[^—;]{1,60}—")
_PASTED_END = ("Link to this page", "Previous:")
_LETTERS = str.maketrans({"ṟ": "ṝ", "Ṟ": "Ṝ", "ḻ": "l\u0310", "Ḻ": "L\u0310", "\u00a0": " "})


@dataclass(frozen=True)
class BookVerse:
    ref: VerseRef
    transliteration: str  # IAST as vedabase writes it (ṁ), stanzas separated by a blank line
    translation: str = ""
    synonyms: str = ""
    prose: bool = False


@dataclass
class BookData:
    """One book as read from the archive, before its structure is checked."""

    book: Book
    verses: list[BookVerse] = field(default_factory=list)
    unreadable: list[str] = field(default_factory=list)  # references whose file could not be read
    fixed: list[str] = field(default_factory=list)  # upstream quirks repaired, one line each

    @property
    def chapters(self) -> dict[ChapterRef, list[BookVerse]]:
        by_chapter: dict[ChapterRef, list[BookVerse]] = {}
        for verse in self.verses:
            by_chapter.setdefault(verse.ref.chapter_ref, []).append(verse)
        return by_chapter

    @property
    def verse_count(self) -> int:
        """Verses counted by number, as upstream and vedabase count them (labelled texts apart)."""
        return sum(len(v.ref.members) for v in self.verses if not v.ref.label)

    @property
    def translations(self) -> int:
        return sum(bool(v.translation) for v in self.verses)


@dataclass
class ReadArchive:
    books: dict[str, BookData]
    version: str  # upstream's commit when the archive names it, else its top folder's name


# -- reading a source -----------------------------------------------------------------------------


def read_source(
    location: Path, books_wanted: list[Book], progress: ReadProgress | None = None
) -> ReadArchive:
    """The books wanted from a .tar.gz (or .tar) or from the folder it unpacks to."""
    books = {book.code: BookData(book) for book in books_wanted}
    try:
        if location.is_dir():
            version = _read_folder(location, books, progress)
        elif location.is_file():
            version = _read_tar(location, books, progress)
        else:
            raise InvalidInputError("the source is neither a file nor a folder")
    except OSError as exc:  # unreadable (permissions, a vanished mount): said without the path
        raise SourceError(f"the source cannot be read ({exc.strerror or type(exc).__name__})") from None
    for data in books.values():
        data.verses.sort(key=_chapter_order)
    return ReadArchive(books, version)


def _chapter_order(verse: BookVerse) -> tuple:
    """Verses by number, then upstream's lettered texts (SB 4.29.1a-2a, 1b, 2b), as upstream orders them."""
    ref = verse.ref
    return (ref.division, ref.chapter, bool(ref.label), ref.verse, ref.label)


class _CountingReader:
    """A file wrapper that reports how far the compressed archive has been read."""

    def __init__(self, raw: IO[bytes], total: int, progress: ReadProgress | None):
        self._raw, self._total, self._progress = raw, total, progress
        self.done = 0
        self.current = ""
        self._next_report = 0

    def read(self, size: int = -1) -> bytes:
        data = self._raw.read(size)
        self.done += len(data)
        if self._progress is not None and self.done >= self._next_report:
            self._next_report = self.done + max(1, self._total // 100)
            self._progress(self.done, self._total, f"reading {self.current}".strip())
        return data


def _read_tar(path: Path, books: dict[str, BookData], progress: ReadProgress | None) -> str:
    version = ""
    read = 0
    with path.open("rb") as raw:
        counting = _CountingReader(raw, path.stat().st_size, progress)
        try:
            with tarfile.open(fileobj=counting, mode="r|*") as tar:  # type: ignore[call-overload]
                for member in tar:
                    name = member.name.removeprefix("./")
                    parsed = _parse_member(name, books) if member.isfile() else None
                    if parsed is None:
                        continue
                    version = version or name.split("/")[0]
                    if member.size > MAX_MEMBER_BYTES or read + member.size > MAX_READ_BYTES:
                        raise SourceError(
                            f"the archive's file for {parsed[0]} is {member.size:,} bytes: not one of"
                            " upstream's verse files (nothing was installed)"
                        )
                    read += member.size
                    counting.current = str(parsed[0].chapter_ref)
                    handle = tar.extractfile(member)
                    _add(books, parsed, handle.read() if handle else b"")
                    work.check("reading the archive stopped; nothing was installed")
        except (tarfile.TarError, EOFError, zlib.error, OSError) as exc:
            raise SourceError(
                f"the archive is damaged or incomplete ({_reason(exc)}); nothing was installed"
            ) from None
    if progress is not None:
        progress(counting.done, counting.done, "read")
    return _version(version)


def _reason(exc: BaseException) -> str:
    """An archive error without the file's path (a remote client must not see server paths)."""
    text = str(exc) or type(exc).__name__
    return re.sub(r"'?/[^\s']+'?", "the file", text)[:200]


def _read_folder(root: Path, books: dict[str, BookData], progress: ReadProgress | None) -> str:
    base = _json_root(root)
    if base is None:
        raise SourceError(
            "the folder holds no books/json/sb or books/json/cc: give the archive (.tar.gz), the"
            " folder it unpacks to, or its books/json folder"
        )
    files = [
        path
        for data in books.values()
        for path in (base / data.book.slug).rglob("*.json")
        if path.is_file() and not path.is_symlink()
    ]
    for done, path in enumerate(sorted(files), start=1):
        parsed = _parse_member("books/json/" + path.relative_to(base).as_posix(), books)
        if parsed is not None:
            if path.stat().st_size > MAX_MEMBER_BYTES:
                raise SourceError(f"the folder's file for {parsed[0]} is not one of upstream's verse files")
            _add(books, parsed, path.read_bytes())
        if progress is not None and (done % 250 == 0 or done == len(files)):
            progress(done, len(files), f"reading {parsed[0].chapter_ref if parsed else ''}".strip())
        work.check("reading the folder stopped; nothing was installed")
    top = base.parent.parent if base.name == "json" and base.parent.name == "books" else base
    return _version(top.name)


def _json_root(root: Path) -> Path | None:
    """The folder holding sb/ and cc/: the given one, its books/json, or that of its one subfolder."""
    candidates = [root, root / "books" / "json"]
    candidates += [child / "books" / "json" for child in sorted(root.iterdir()) if child.is_dir()]
    for candidate in candidates:
        if any((candidate / slug).is_dir() for slug in ("sb", "cc")):
            return candidate
    return None


def _version(top: str) -> str:
    found = _COMMIT.search(top)
    return found[0] if found else top


def _parse_member(name: str, books: dict[str, BookData]) -> tuple[VerseRef, str] | None:
    """The reference a member's path names (and the book code), or None for anything else
    (chapter prose such as summary.json, other books, other files)."""
    match = _MEMBER.search(name)
    if match is None or match["book"].upper() not in books:
        return None
    book = books[match["book"].upper()].book
    if match["division"] not in book.division_slugs:
        return None
    division = book.division_slugs.index(match["division"]) + 1
    ref = _verse_ref(book, division, int(match["chapter"]), match["name"])
    return (ref, book.code) if ref else None


def _verse_ref(book: Book, division: int, chapter: int, name: str) -> VerseRef | None:
    if plain := _PLAIN.fullmatch(name):
        first, last = int(plain[1]), int(plain[2] or 0)
        return VerseRef(chapter, first, book.code, division, last if last > first else 0)
    if labelled := _LABELLED.fullmatch(name):
        first = int(labelled[1])
        return VerseRef(chapter, first, book.code, division, int(labelled[2] or 0), name)
    return None


# -- one file ---------------------------------------------------------------------------------


def _add(books: dict[str, BookData], parsed: tuple[VerseRef, str], raw: bytes) -> None:
    ref, code = parsed
    data = books[code]
    document = _load(raw, ref, data)
    if document is None:
        data.unreadable.append(str(ref))
        return
    data.verses.append(_book_verse(ref, document, data))


def _load(raw: bytes, ref: VerseRef, data: BookData) -> dict[str, Any] | None:
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return None
    try:
        document = json.loads(text)
    except json.JSONDecodeError:
        repaired = _STRAY_SLASH.sub(r"\1", text)
        try:
            document = json.loads(repaired)
        except json.JSONDecodeError:
            return None
        data.fixed.append(f"{ref}: a stray '/' made the file invalid JSON")
    return document if isinstance(document, dict) else None


def _book_verse(ref: VerseRef, document: dict[str, Any], data: BookData) -> BookVerse:
    entries = document.get("verses")
    stanzas: list[str] = []
    prose = False
    if isinstance(entries, list):
        for entry in entries:
            if isinstance(entry, dict) and isinstance(entry.get("roman"), str):
                stanzas.append(entry["roman"])
                prose = prose or entry.get("isProse") is True
    translation = _text(document.get("translation"))
    synonyms = _text(document.get("synonyms"))
    cleaned: list[str] = []
    for stanza in stanzas:
        lines = _lines(stanza)
        verse_lines, pasted_synonyms, pasted_translation = _split_pasted(lines)
        if pasted_synonyms or pasted_translation:
            data.fixed.append(f"{ref}: meanings pasted into the verse text were cut off")
            synonyms = synonyms or pasted_synonyms
            translation = translation or pasted_translation
        if verse_lines:
            cleaned.append("\n".join(verse_lines))
    original = "".join(stanzas)
    if "ṟ" in original or "ḻ" in original or "Ṟ" in original or "Ḻ" in original:
        data.fixed.append(f"{ref}: ṟ/ḻ written for ṝ/l̐")
    return BookVerse(ref, "\n\n".join(cleaned), translation, synonyms, prose)


def _lines(text: str) -> list[str]:
    text = unicodedata.normalize("NFC", text.translate(_LETTERS))
    return [" ".join(line.split()) for line in text.splitlines() if line.strip()]


def _split_pasted(lines: list[str]) -> tuple[list[str], str, str]:
    """(the verse's lines, pasted word meanings, pasted translation): CC Ādi 1.4 holds all three."""
    for index, line in enumerate(lines):
        if _GLOSSES.match(line) or line == "TRANSLATION":
            rest = lines[index:]
            cut = rest.index("TRANSLATION") if "TRANSLATION" in rest else len(rest)
            translation = _until_pasted_end(rest[cut + 1 :])
            return lines[:index], " ".join(rest[:cut]), " ".join(translation)
    return lines, "", ""


def _until_pasted_end(lines: list[str]) -> Iterator[str]:
    for line in lines:
        if line.startswith(_PASTED_END):
            return
        yield line


def _text(value: object) -> str:
    """A translation or synonyms field: a string, or a list of strings/paragraphs."""
    if isinstance(value, str):
        parts = [value]
    elif isinstance(value, list):
        parts = [
            p if isinstance(p, str) else str(p.get("content", ""))
            for p in value
            if isinstance(p, (str, dict))
        ]
    else:
        return ""
    text = unicodedata.normalize("NFC", "\n".join(parts).translate(_LETTERS))
    return "\n".join(" ".join(line.split()) for line in text.splitlines() if line.strip())


# -- the structure check ------------------------------------------------------------------------


def structure_problems(data: BookData) -> list[str]:
    """What keeps `data` from being the whole book: missing or unknown chapters, verses missing,
    doubled or unreadable, the count of verses. Empty when the book is whole."""
    book = data.book
    problems = [f"{ref} could not be read (not JSON)" for ref in data.unreadable[:5]]
    if len(data.unreadable) > 5:
        problems.append(f"… and {len(data.unreadable) - 5} more files could not be read")
    chapters = data.chapters
    expected = [
        ChapterRef(chapter, book.code, division)
        for division, count in enumerate(book.chapters, start=1)
        for chapter in range(1, count + 1)
    ]
    missing = [str(ref) for ref in expected if ref not in chapters]
    if missing:
        problems.append(f"{len(missing)} of {len(expected)} chapters are missing ({_first(missing)})")
    unexpected = sorted(set(chapters) - set(expected))
    if unexpected:
        problems.append(f"chapters the book does not have: {_first([str(r) for r in unexpected])}")
    gaps: list[str] = []
    for chapter in expected:
        gaps += _gaps(chapter, chapters.get(chapter, []))
    if gaps:
        problems.append(f"verses missing or doubled: {_first(gaps)}")
    if data.verse_count != book.verses:
        problems.append(f"{data.verse_count:,} verses where the {book.name} has {book.verses:,}")
    return problems


def _gaps(chapter: ChapterRef, verses: list[BookVerse]) -> list[str]:
    if not verses:
        return []
    found, expect = [], 1
    for ref in sorted(v.ref for v in verses if not v.ref.label):
        if ref.verse > expect:
            missing = f"{expect}-{ref.verse - 1}" if ref.verse - 1 > expect else f"{expect}"
            found.append(f"{chapter}.{missing} missing")
        elif ref.verse < expect:
            found.append(f"{ref} doubled")
        expect = max(expect, ref.members[-1] + 1)
    return found


def _first(items: list[str], count: int = 6) -> str:
    shown = ", ".join(items[:count])
    return shown + (f", … {len(items) - count} more" if len(items) > count else "")
