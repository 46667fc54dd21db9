"""pramana from Python: the services the MCP tools use, called in process, for pipelines.

The vedabase-mcp spec's `lecture_to_notes.py` corrects a transcript and looks verses up; it needs no
MCP client for that, only these calls:

    from pramana.api import Gita

    with Gita() as gita:  # settings as the CLI reads them
        fixed = gita.correct_file("lecture.txt")  # confident quotes replaced, unsure ones flagged
        for span in fixed.spans:
            print(span.status, span.ref, span.original)
        verse = gita.lookup("BG 2.47")  # Devanāgarī, IAST, a translation, the link
        found = gita.match("man mana bhava mad bhakto")  # garbled Sanskrit -> its verse
        hits = gita.search("how can I control my mind?")

Every result is the typed model the MCP tool returns as its structured result (pydantic: `.ref`,
`.model_dump()`), so a pipeline and an agent read the same fields. Bad input raises
`pramana.errors.InvalidInputError` (or `NotFoundError`, `NotReadyError`, `SourceError`: all
`PramanaError`) with a message written for the caller. References are strings ("BG 2.47", "2:47",
"SB 1.2.6", "CC Madhya 20.108"), for every book installed; `books` narrows a search, a match or a
correction to some of them (["bg"], ["sb", "cc"]).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from types import TracebackType

from pramana.config import GitaSettings
from pramana.errors import InvalidInputError
from pramana.gita.models import (
    Chapter,
    ChapterVerses,
    InstallResult,
    MatchResult,
    SearchResult,
    SeedResult,
    TranscriptCorrection,
    Verse,
)
from pramana.gita.service import GitaService

__all__ = [
    "Chapter", "ChapterVerses", "Gita", "InstallResult", "MatchResult", "SearchResult", "SeedResult",
    "TranscriptCorrection", "Verse",
]  # fmt: skip

_CHAPTER = re.compile(r"^\s*(?:(?:bg|gita|bhagavad[\s-]*g[iī]t[aā])\s*)?(\d{1,3})\s*$", re.IGNORECASE)


class Gita:
    """The gita server's services in process: lookup, search, match, correct, chapters, seed, and the
    Śrīmad-Bhāgavatam and Caitanya-caritāmṛta once installed (`install_books`).

    `db_path` and `source` override VEDABASE_DB_PATH and VEDABASE_API_URL (else the data directory's
    cache, and the source a seed remembered); `translator` is the default author of every call.
    Thread-safe; open one and reuse it: the matcher and the question index are built on first use.
    """

    def __init__(
        self,
        db_path: str | Path | None = None,
        source: str | None = None,
        *,
        translator: str | None = None,
    ) -> None:
        given = {"db_path": Path(db_path) if db_path is not None else None, "api_url": source}
        self.settings = GitaSettings.load(**given)
        self.translator = translator
        self._service = GitaService(self.settings)

    def lookup(self, reference: str, translator: str | None = None) -> Verse:
        """One verse by reference: "BG 2.47", "2:47", "bg 15-7", "SB 1.2.6", "CC Madhya 20.108"."""
        return self._service.lookup(reference, translator or self.translator)

    def search(
        self, query: str, max_results: int = 5, translator: str | None = None, books: list[str] | None = None
    ) -> SearchResult:
        """Verses for a question in plain English, keywords, or Sanskrit in any spelling (needs the seed)."""
        return self._service.search(query, max_results, translator or self.translator, books)

    def match(
        self, garbled: str, top_n: int = 3, translator: str | None = None, books: list[str] | None = None
    ) -> MatchResult:
        """The verse that garbled Sanskrit comes from; trust `confident`, else check the candidates."""
        return self._service.match(garbled, top_n, translator or self.translator, books)

    def correct(self, transcript: str, books: list[str] | None = None) -> TranscriptCorrection:
        """A transcript with its confident quotes replaced (`_…_ (BG 2.47)`) and unsure ones flagged."""
        return self._service.correct_transcript(transcript, books)

    def correct_file(self, path: str | Path, books: list[str] | None = None) -> TranscriptCorrection:
        """`correct()` of a UTF-8 text file."""
        file = Path(path)
        try:
            text = file.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise InvalidInputError(f"no such file: {file}") from None
        except (UnicodeDecodeError, IsADirectoryError) as exc:
            raise InvalidInputError(f"cannot read {file} as UTF-8 text: {exc}") from None
        return self.correct(text, books)

    def chapter(self, reference: str, translator: str | None = None) -> ChapterVerses:
        """A chapter's verses, of any book: "BG 2", "SB 1.2", "CC Madhya 20"."""
        return self._service.chapter(reference, translator or self.translator)

    def chapter_summary(self, chapter: int | str) -> Chapter:
        """A Gītā chapter's name, meaning, verse count and summary: 2, "2" or "BG 2"."""
        if isinstance(chapter, str):
            found = _CHAPTER.match(chapter)
            if found is None:
                raise InvalidInputError(f"chapter {chapter!r} is not a chapter number such as 2 or 'BG 2'")
            chapter = int(found[1])
        return self._service.chapter_summary(chapter)

    def seed(self, progress: Callable[[int, int, str], None] | None = None) -> SeedResult:
        """Fetch the Gītā's translations not cached (resumable); `progress(done, total, what)`."""
        return self._service.seed(progress, question_vectors=True)

    def install_books(self, books: list[str] | None = None, source: str | None = None) -> InstallResult:
        """Install the Śrīmad-Bhāgavatam and Caitanya-caritāmṛta (["sb", "cc"]) from upstream's
        archive, or `source`: a local copy of it, the folder it unpacks to, or a URL."""
        return self._service.install_books(books or ["sb", "cc"], source)

    def close(self) -> None:
        self._service.close()

    def __enter__(self) -> Gita:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()
