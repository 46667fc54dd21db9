"""The gita logic: lookup, search, fuzzy matching, chapter summaries and seeding."""

from __future__ import annotations

import asyncio
import atexit
import logging
import math
import multiprocessing
import sqlite3
import subprocess
import threading
import time
import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from rapidfuzz import fuzz

from pramana import work
from pramana.checks import required_text
from pramana.config import DEFAULT_VEDABASE_API_URL, GitaSettings
from pramana.errors import (
    InvalidInputError,
    NotFoundError,
    NotReadyError,
    PramanaError,
    SourceError,
    SourceUnreachableError,
    offline_error,
)
from pramana.gita import build_terms, install, models, packaged, question, semantic, transcript
from pramana.gita.book_ranking import BooksRanking, book_entries, book_terms_path, book_vectors_path
from pramana.gita.books import BOOKS, INSTALLABLE, chosen_books, install_hint
from pramana.gita.matcher import IndexedVerse, Match, VerseKey, VerseMatcher
from pramana.gita.phonetic_matcher import PhoneticMatcher, fine_key
from pramana.gita.question import EmbedderFactory, QuestionIndex, build_index, question_embedder
from pramana.gita.ranking import BookVerse, ReadQuery, VerseRanking
from pramana.gita.reference import (
    CHAPTER_COUNT,
    VERSE_COUNT,
    VERSES_PER_CHAPTER,
    ChapterRef,
    VerseRef,
    all_refs,
    check_chapter,
    parse_chapter,
    parse_reference,
)
from pramana.gita.repair import repair_notes
from pramana.gita.source import ChapterRecord, GitaSource, VerseRecord
from pramana.gita.store import GitaStore, SearchHit, StoredBookVerse, StoredText, StoredVerse
from pramana.gita.stores import open_store
from pramana.gita.terms import TERMS_VERSION, TermIndex, VerseTerms, terms_path
from pramana.gita.translators import (
    FALLBACK_ORDER,
    FIELD_KIND,
    FIELD_LANGUAGE,
    PREFERRED_FIELDS,
    TRANSLATORS,
    Translator,
    resolve_translator,
)
from pramana.gita.verse_text import verse_lines
from pramana.install import command, rerun
from pramana.store.postgres import ReadOnlyStoreError
from pramana.text.normalize import has_devanagari

if TYPE_CHECKING:
    from pramana.embed import Embedder

log = logging.getLogger(__name__)

MAX_QUERY_CHARS = 500
MAX_GARBLED_CHARS = 2_000
MAX_TRANSCRIPT_CHARS = 1_000_000
GIVE_TEXT = "give some text to search for"
SEED_HINT = f"Run the seed_database tool (or `{command('gita seed')}`) to cache all 701 verses."
SOURCE_HINT = (
    "If the source is unreachable, seed from a reachable mirror or a local copy of the data:"
    f" `{command('gita seed --source URL_OR_DIRECTORY')}`, or set VEDABASE_API_URL."
)
# Seeding first fetches one verse, once, waiting at most this long: an unreachable source fails the
# seed in seconds, not after every one of 719 documents has been retried.
PROBE_TIMEOUT_S = 5.0
# A lookup that misses the cache tries the source twice before it answers with the Sanskrit only.
LOOKUP_ATTEMPTS = 2
# Once the source could not be reached, calls answer from the cache without asking it again for
# this long (a server offline for the day asks once every five minutes, not on every call).
RETRY_SOURCE_AFTER_S = 300.0
# A first search that spent this long building the question index says so (3-6 s with the model).
WARMING_NOTE_AFTER_S = 1.0
# At exit, how long a vector build may take to finish the batch it is encoding: a thread left inside
# onnxruntime while the interpreter tears down ends the process with "terminate called".
STOP_VECTORS_WAIT_S = 30.0
_BUILDING: weakref.WeakSet[GitaService] = weakref.WeakSet()
# How long a server's search waits for the term index the background is building (a few seconds on an
# idle machine), keeping this much of its call's time for its own work.
TERMS_WAIT_S = 6.0
TERMS_MARGIN_S = 3.0
TERMS_PENDING_NOTE = (
    "Sanskrit words in loose spelling are not matched yet: their index is being built in the"
    " background (seconds; longer on a busy machine). Ask again shortly for those."
)
WARMING_THREADS = ("gita-warm-up", "gita-search", "gita-vectors")  # they build what searches need


def remembered_source_path(db_path: Path) -> Path:
    """Where a cache keeps the source it was seeded from (when that was not the default): beside it."""
    return db_path.with_name(f"{db_path.name}.source")


def with_remembered_source(settings: GitaSettings) -> GitaSettings:
    """`settings`, with the source the cache was seeded from when none was given (flag or variable):
    after `seed --source ./mirror`, lookups and chapter summaries read that mirror too."""
    if "api_url" in settings.model_fields_set or settings.database_url:
        return settings  # a database shared by replicas remembers no one machine's folder
    try:
        remembered = remembered_source_path(settings.resolved_db_path()).read_text(encoding="utf-8").strip()
    except OSError:
        return settings
    return settings.model_copy(update={"api_url": remembered}) if remembered else settings


def _age_days(fetched_at: str) -> float | None:
    """Days since an SQLite CURRENT_TIMESTAMP (UTC), to a tenth."""
    from datetime import UTC, datetime

    try:
        then = datetime.strptime(fetched_at, "%Y-%m-%d %H:%M:%S").replace(tzinfo=UTC)
    except ValueError:
        return None
    return round(max(0.0, (datetime.now(UTC) - then).total_seconds()) / 86_400, 1)


Progress = Callable[[int, int, str], None]
MatcherFactory = Callable[[list[IndexedVerse], Iterable[str]], VerseMatcher]
# Search adds to the verse ranking's scores (ranking.py: the question ranking and the loose Sanskrit
# terms) FTS5's verses whose IAST or Devanāgarī holds every word of the query ("karma yoga", "sarva
# dharman"), by KEYWORD_WEIGHT, and the matcher's confident verses for a quote, by QUOTE_WEIGHT. A
# query the ranking finds nothing for (Devanāgarī, only function words) gets FTS5's ranking over
# every column, as before.
KEYWORD_WEIGHT = 0.3  # FTS5's first verse adds this to the ranking's score, the next ones less
QUOTE_WEIGHT = 2.0  # the verse matcher's confident verses: the query is a quote
QUOTE_SHARE = 0.5  # the matcher is asked when at least this much of the query is Sanskrit


VECTORS_STARTED = (
    "The texts are stored and search works now. The vectors for ranking questions by meaning are being"
    " built in the background (a minute or two); until then search ranks by words and says so."
)


@dataclass
class VectorBuild:
    """The background build of the question vectors, as search reports it."""

    state: Literal["none", "building", "built", "failed"] = "none"
    done: int = 0
    total: int = 0
    seconds: float = 0.0
    error: str | None = None

    def model(self) -> models.VectorProgress | None:
        if self.state == "none":
            return None
        return models.VectorProgress(
            state=self.state, encoded=self.done, total=self.total, seconds=self.seconds, error=self.error
        )


def _boost(weight: float, rank: int) -> float:
    """What a verse ranked `rank` (0 first) by FTS5 or the matcher adds to the verse ranking's score."""
    return weight / (1 + 0.2 * rank)


def _quote_hit(match: Match) -> SearchHit:
    return SearchHit(_verse_ref(match.ref), match.score, f"**{match.matched}**" if match.matched else "")


def _verse_ref(key: VerseKey) -> VerseRef:
    """A matcher's or a ranking's key (opaque to them) as this service gave it: a VerseRef."""
    if not isinstance(key, VerseRef):
        raise TypeError(f"not a verse reference: {key!r}")
    return key


SAME_TEXT_SHARE = 0.6  # of the longer verse's letters, for a text to count as a quotation of it
SAME_TEXT_MIN = 24  # letters: refrains and half-lines do not make two verses one text
SAME_TEXT_SCORE = 92


def _same_text(one: str, other: str) -> bool:
    """Two verses' letters are one text quoted (whole, or nearly: a quotation may leave out a word)."""
    if not one or not other:
        return False
    short, long = sorted((one, other), key=len)
    if len(short) < SAME_TEXT_MIN or len(short) < SAME_TEXT_SHARE * len(long):
        return False
    return fuzz.partial_ratio(short, long) >= SAME_TEXT_SCORE  # editions differ in a letter or two


def _usable_text(texts: list[StoredText], author_key: str) -> StoredText | None:
    by_field = {t.field: t for t in texts if t.author_key == author_key and not t.numbered_for_other_verse}
    return next((by_field[f] for f in PREFERRED_FIELDS if f in by_field), None)


def choose_translation(
    verse: StoredVerse, translator: Translator, commentaries: Callable[[], list[StoredText]] | None = None
) -> tuple[StoredText | None, list[str]]:
    """The chosen author's text for this verse, or a fallback with a note saying why.

    `commentaries` loads the author's commentaries, for authors who wrote no translation.
    """
    own = [t for t in verse.texts if t.author_key == translator.key]
    if _usable_text(own, translator.key) is None and commentaries is not None:
        own += commentaries()
    chosen = _usable_text(own, translator.key)
    if chosen is not None:
        return chosen, []
    misnumbered = any(t.numbered_for_other_verse for t in own)
    reason = (
        f"{translator.name}'s text at {verse.ref} in the source data belongs to another verse"
        if misnumbered
        else f"{translator.name} has no translation or commentary for {verse.ref} in the source data"
    )
    for key in FALLBACK_ORDER:
        if key != translator.key and (fallback := _usable_text(verse.texts, key)) is not None:
            return fallback, [f"{reason}; showing {TRANSLATORS[key].name}'s instead."]
    return None, [f"{reason}, and no other author has one."]


def _translation_model(text: StoredText) -> models.Translation:
    return models.Translation(
        author_key=text.author_key,
        author=text.author,
        language=FIELD_LANGUAGE[text.field],  # type: ignore[arg-type]
        kind=FIELD_KIND[text.field],  # type: ignore[arg-type]
        text=text.text,
    )


def verse_model(
    verse: StoredVerse, translator: Translator, commentaries: Callable[[], list[StoredText]] | None = None
) -> models.Verse:
    text, notes = choose_translation(verse, translator, commentaries)
    if text is not None:
        notes = [*notes, *repair_notes(text.author, text.repairs)]
    return with_packaged_sanskrit(verse.ref, notes, _translation_model(text) if text else None)


def with_packaged_sanskrit(
    ref: VerseRef, notes: list[str], translation: models.Translation | None = None
) -> models.Verse:
    """A verse with the packaged Sanskrit (proper IAST marks), whatever the cache holds."""
    sanskrit = packaged.packaged_verse(ref)
    return models.Verse(
        ref=str(ref),
        chapter=ref.chapter,
        verse=ref.verse,
        devanagari=sanskrit.devanagari,
        transliteration=sanskrit.transliteration,
        translation=translation,
        vedabase_url=ref.vedabase_url,
        notes=notes,
    )


def _chapter_model(record: ChapterRecord, source: str, notes: list[str]) -> models.Chapter:
    live = source == "live"
    return models.Chapter(
        chapter_number=record.chapter_number,
        name=record.name,
        name_transliterated=record.name_transliterated,
        name_translation=record.name_translation,
        name_meaning=record.name_meaning,
        verses_count=record.verses_count,
        summary=record.summary,
        source=source,  # type: ignore[arg-type]
        fetched_at=None if live else (record.fetched_at or None),
        age_days=0.0 if live else _age_days(record.fetched_at),
        notes=notes,
    )


def _match_model(match: Match) -> models.VerseMatch:
    ref = _verse_ref(match.ref)
    return models.VerseMatch(
        ref=str(ref),
        book=ref.book,
        score=min(1.0, max(0.0, match.score)),
        matched=match.matched,
        line=match.line,
        transliteration=match.transliteration,
        vedabase_url=ref.vedabase_url,
        also_in=[str(ref) for ref in match.also_in],
        recurs=match.recurs,
    )


def _span_model(span: transcript.Span) -> models.TranscriptSpan:
    top = span.report.matches[0] if span.report.matches else None
    return models.TranscriptSpan(
        start=span.start,
        end=span.end,
        original=span.original,
        status=span.status,  # type: ignore[arg-type]
        confident=span.report.confident,
        ref=str(top.ref) if top else None,
        book=top.book if top else None,
        score=top.score if top else None,
        correct_transliteration=top.matched if top else None,
        candidates=[str(m.ref) for m in span.report.matches[:3]],
    )


class GitaService:
    def __init__(
        self,
        settings: GitaSettings,
        matcher_factory: MatcherFactory = PhoneticMatcher,
        embedder_factory: EmbedderFactory | None = None,
        *,
        background: bool = False,
    ):
        """`embedder_factory` makes the question embedder (default: the model if
        settings.question_model, else the cached static table, else none). `background`: a
        long-running server's service, which builds the question vectors in a thread of its own
        (after a seed, or at the first question search that finds them missing); a one-shot
        command's leaves them to `pramana gita seed --vectors`."""
        self.settings = with_remembered_source(settings)
        # The SQLite file (read-only on a read-only mount) or PostgreSQL (PRAMANA_DATABASE_URL).
        self.store = open_store(self.settings)
        self._source_down_until = 0.0  # monotonic time until which the source is not asked again
        self._matcher_factory = matcher_factory
        # One matcher over every installed book, made on first use, kept while the books are the same.
        self._matcher: VerseMatcher | None = None
        self._matcher_key: tuple[tuple[str, int], ...] = ()
        self._matcher_lock = threading.Lock()
        self._embedder_factory = embedder_factory or (
            question_embedder if settings.question_model else question.cached_embedder
        )
        self._questions: QuestionIndex | None = None
        self._questions_key: tuple[int, int] = (-1, -1)
        self._questions_warmed: str = ""  # what building the question index took, until a search says it
        self._embedder: Embedder | None = None
        self._questions_lock = threading.Lock()
        self._terms: TermIndex | None = None
        self._terms_key = ""
        self._ranking: VerseRanking | None = None
        self._terms_lock = threading.Lock()
        self._book_terms: TermIndex | None = None
        self._book_terms_key = ""
        self._book_terms_lock = threading.Lock()
        self._books: BooksRanking | None = None
        self._books_key: tuple[str, int] = ("", 0)
        self._books_lock = threading.Lock()
        self._warm_thread: threading.Thread | None = None
        self.background = background
        self._stop_vectors = threading.Event()  # set at exit: the vector build stops after its batch
        self.terms_pending = False  # the last ranking went without the term index (a server, still building)
        self.vector_build = VectorBuild()
        self._vector_thread: threading.Thread | None = None
        self._vector_lock = threading.Lock()

    def close(self) -> None:
        self.store.close()

    def _source_down(self) -> bool:
        return time.monotonic() < self._source_down_until

    def _note_unreachable(self) -> None:
        self._source_down_until = time.monotonic() + RETRY_SOURCE_AFTER_S

    def source(self, *, retries: int | None = None, timeout: float | None = None) -> GitaSource:
        return GitaSource(
            self.settings.api_url,
            timeout=timeout or self.settings.http_timeout,
            retries=retries or self.settings.http_retries,
            max_connections=self.settings.seed_concurrency,
        )

    # -- lookup ------------------------------------------------------------------------------

    def lookup(self, reference: str, translator: str | None = None) -> models.Verse:
        """The verse from the cache; on a miss its translation is fetched and cached, and if that
        fails the packaged Sanskrit is the answer, with a note saying how to get the translation."""
        ref = parse_reference(reference)
        chosen = resolve_translator(translator)
        if ref.book != "BG":
            book_verse, notes = self._book_text(ref)
            return self._book_verse_model(book_verse, chosen, notes)
        stored = self.store.verse(ref)
        if stored is None and self._source_down():
            why = f"{ref} is not cached and the source {self.settings.api_url} could not be reached"
            return with_packaged_sanskrit(ref, [f"No translation: {why}. {SEED_HINT} {SOURCE_HINT}"])
        if stored is None:
            try:
                stored = asyncio.run(self._fetch_verse(ref))
            except SourceUnreachableError as exc:
                self._note_unreachable()
                return with_packaged_sanskrit(ref, [f"No translation: {exc}"])
            except (SourceError, NotFoundError, NotReadyError) as exc:
                return with_packaged_sanskrit(ref, [f"No translation: {exc}"])
        return self._verse_model(stored, chosen)

    def _verse_model(self, stored: StoredVerse, translator: Translator) -> models.Verse:
        return verse_model(stored, translator, lambda: self.store.commentaries(stored.ref, translator.key))

    def _cached_or_sanskrit(self, ref: VerseRef, translator: Translator) -> models.Verse:
        stored = self.store.verse(ref)
        if stored is not None:
            return self._verse_model(stored, translator)
        return with_packaged_sanskrit(
            ref, [f"The translation of {ref} is not cached: lookup_verse fetches it. {SEED_HINT}"]
        )

    async def _fetch_verse(self, ref: VerseRef) -> StoredVerse:
        self._require_writable(f"{ref}'s translation is not cached")
        try:
            async with self.source(retries=LOOKUP_ATTEMPTS) as source:
                record = await source.verse(ref)
        except NotFoundError as exc:
            raise NotFoundError(f"{ref} is not cached and not in the source ({exc}). {SOURCE_HINT}") from exc
        except SourceError as exc:
            kind = SourceUnreachableError if isinstance(exc, SourceUnreachableError) else SourceError
            why = f"{ref} is not cached and the source failed ({exc})"
            raise kind(f"{why}. {SEED_HINT} {SOURCE_HINT}") from exc
        try:
            self.store.save_verse(record)
        except ReadOnlyStoreError as exc:
            raise NotReadyError(
                f"{ref}'s translation is not cached, and {self.store.location} is read-only for this"
                " process: seed it once with a role that may write"
                f" ({command('gita seed --database-url URL')})"
            ) from exc
        except sqlite3.OperationalError as exc:
            # A writable filesystem with a file that is not (permissions, chattr +i).
            if "readonly" not in str(exc):
                raise
            raise NotReadyError(
                f"{ref}'s translation is not cached, and the cache at {self.store.location} is read-only"
                f" for this process: seed a writable copy ({command('gita seed --db FILE')}) and serve that"
            ) from exc
        if self.store.verse_count() == VERSE_COUNT:  # this fetch completed the cache
            self.store.mark_misfiled()
        stored = self.store.verse(ref)
        assert stored is not None
        return stored

    # -- search ------------------------------------------------------------------------------

    def _require_cache(self) -> tuple[int, list[str]]:
        cached = self.store.verse_count()
        if cached == 0:
            raise NotReadyError(
                f"Search reads the translations, and none are cached yet (the cache at {self.store.location}"
                f" is empty). {SEED_HINT} {SOURCE_HINT} Lookups, fuzzy matching and transcript"
                " correction work without it."
            )
        notes = []
        if cached < VERSE_COUNT:
            notes.append(
                f"Only {cached} of {VERSE_COUNT} verses are cached, so results may be incomplete. {SEED_HINT}"
            )
        return cached, notes

    def _searched(self, books: list[str] | None) -> tuple[list[str], int, list[str]]:
        """The books a search reads, the Gītā verses cached, and notes. The Gītā needs its seed: with
        none cached it is left out (with a note) when another book can answer."""
        codes = self.books_for(books)
        if "BG" not in codes:
            return codes, self.store.verse_count(), []
        if self.store.verse_count() == 0 and len(codes) > 1:
            note = f"The Gītā's translations are not cached, so it was not searched. {SEED_HINT}"
            return codes[1:], 0, [note]
        cached, notes = self._require_cache()
        return codes, cached, notes

    def search(
        self, query: str, max_results: int = 5, translator: str | None = None, books: list[str] | None = None
    ) -> models.SearchResult:
        query = required_text(query, "search query", MAX_QUERY_CHARS, empty_hint=GIVE_TEXT, strip=True)
        if not 1 <= max_results <= 10:
            raise InvalidInputError("max_results must be between 1 and 10")
        chosen = resolve_translator(translator)
        codes, cached, notes = self._searched(books)
        hits = []
        ranked = self._sources_first(self.ranked(query, max_results, codes))
        ranking, note = self._ranking_used(query, codes)
        if note:
            notes.append(note)
        if self._questions_warmed:
            notes.append(self._questions_warmed)
            self._questions_warmed = ""
        if "BG" in codes and self.background and self.terms_pending:
            notes.append(TERMS_PENDING_NOTE)
        cached_hits = self.store.verses([hit.ref for hit in ranked if hit.ref.book == "BG"])
        for hit in ranked:
            if hit.ref.book != "BG":
                hits.append(self._book_hit(hit))
                continue
            stored = cached_hits.get(hit.ref)
            if stored is None:
                continue
            text, _ = choose_translation(stored, chosen)
            hits.append(
                models.SearchHit(
                    ref=str(hit.ref),
                    score=round(hit.score, 4),
                    transliteration=packaged.packaged_verse(hit.ref).transliteration,
                    translation_excerpt=text.text if text else None,
                    matched_excerpt=hit.snippet if "**" in hit.snippet else "",
                    vedabase_url=stored.vedabase_url,
                )
            )
        if not hits and not books:
            notes += self._not_installed_note("Not searched:")
        return models.SearchResult(
            query=query,
            results=hits,
            verses_cached=cached,
            books=codes,
            ranking=ranking,
            vectors=self.vector_build.model(),
            notes=notes,
        )

    def _ranking_used(
        self, query: str, codes: list[str]
    ) -> tuple[Literal["model", "static", "words"], str | None]:
        """How the question rankings of the books searched answered: by meaning with the model's vectors,
        with the static table's, or by words alone (the Gītā's when it is searched, else the books'), and,
        for a question in English, why by words alone. A model's missing vectors are then started in the
        background (build_question_vectors' texts: the Gītā's and the books' translations)."""
        indexes = [("the Gītā", self.questions())] if "BG" in codes else []
        if any(code != "BG" for code in codes):
            books = self.book_ranking(wait=False)
            if books is not None and books.translated:
                indexes.append((" and ".join(b for b in books.books if b in codes), books.ranking.questions))
        if not indexes:
            return "words", None
        model = question.is_model(self.embedder())
        unbuilt = [name for name, index in indexes if not index.semantic]
        if unbuilt and model and self.vector_build.state != "failed":
            self.start_vector_build()
        ranking: Literal["model", "static", "words"] = (
            "words" if not indexes[0][1].semantic else "model" if model else "static"
        )
        if not unbuilt or not any(index.reads_as_english(query) for _, index in indexes):
            return ranking, None
        note = self._vectors_note()
        if note and len(unbuilt) < len(indexes):  # the Gītā by meaning, the books not yet
            note = note.replace("Ranked by words only", f"{' and '.join(unbuilt)} ranked by words only", 1)
        return ranking, note

    def _vectors_note(self) -> str | None:
        build = self.vector_build
        if build.state == "building":
            return (
                f"Ranked by words only for now: the vectors for ranking by meaning are being built in the"
                f" background ({build.done} of {build.total} texts encoded); later searches use them."
            )
        if build.state == "failed":
            return (
                f"Ranked by words only: building the vectors for ranking by meaning failed ({build.error})."
            )
        if question.is_model(self.embedder()) and not self.background:
            return (
                "Ranked by words only: the vectors for ranking by meaning are not built; a server builds"
                " them in the background, or run `pramana gita seed --vectors` once (a minute or two)."
            )
        return self.questions().note if self.store.verse_count() else question.lexical_note()

    def _sources_first(self, hits: list[SearchHit]) -> list[SearchHit]:
        """Hits in their order, except that a verse another book quotes whole (CC quotes SB and the
        Gītā) comes before the quotations of it: the Gītā, then SB, then CC. Hits of one book keep the
        order they were ranked in."""
        keys = [self._quote_key(hit.ref) for hit in hits]
        placed: set[int] = set()
        ordered: list[SearchHit] = []
        for i in range(len(hits)):
            if i in placed:
                continue
            same = [i] + [
                j
                for j in range(i + 1, len(hits))
                if j not in placed and hits[j].ref.book != hits[i].ref.book and _same_text(keys[i], keys[j])
            ]
            placed.update(same)
            ordered += sorted((hits[j] for j in same), key=lambda hit: hit.ref)
        return ordered

    def _quote_key(self, ref: VerseRef) -> str:
        if ref.book == "BG":
            text = packaged.packaged_verse(ref).transliteration
        else:
            stored = self.store.book_verse(ref)
            text = stored.transliteration if stored else ""
        return fine_key(" ".join(verse_lines(text)))

    def _book_hit(self, hit: SearchHit) -> models.SearchHit:
        stored = self.store.book_verse(hit.ref)
        return models.SearchHit(
            ref=str(hit.ref),
            book=hit.ref.book,
            score=round(hit.score, 4),
            transliteration=stored.transliteration if stored else "",
            translation_excerpt=(stored.translation or None) if stored else None,
            matched_excerpt=hit.snippet if "**" in hit.snippet else "",
            vedabase_url=hit.ref.vedabase_url,
        )

    def ranked(self, query: str, limit: int, books: list[str] | tuple[str, ...] = ("BG",)) -> list[SearchHit]:
        """The verses of `books` for `query`, best first. Each book's verse ranking (ranking.py: the
        question ranking and the loose Sanskrit terms; the Gītā's of its cached texts, the installed
        books' of theirs, book_ranking.py) scores its verses; FTS5's verses whose Sanskrit holds every
        word of the query are raised by KEYWORD_WEIGHT and, for a query mostly of Sanskrit, the verse
        matcher's by QUOTE_WEIGHT when it is confident (a quote, in whichever book); the books' scores
        are merged as they are. When none finds anything, FTS5's or the matcher's (_by_words_or_sound)."""
        if not question.content_words(query) and not has_devanagari(query):
            return self._by_words_or_sound(query, limit, books)  # only question words ("what does it say")
        others = [code for code in books if code != "BG"]
        gita = self.ranking() if "BG" in books else None
        book_ranking = self.book_ranking(wait=not self.background) if others else None
        reads: list[tuple[VerseRanking | BooksRanking, ReadQuery]] = (
            [(gita, gita.read(query))] if gita is not None else []
        )
        if book_ranking is not None:
            reads.append((book_ranking, book_ranking.read(query)))
        boosts: list[tuple[VerseRef, float]] = [
            (hit.ref, _boost(KEYWORD_WEIGHT, i))
            for hits in self._keyword_hits(query, limit, books)
            for i, hit in enumerate(hits)
        ]
        quoted: dict[VerseRef, str] = {}
        if any(read.share >= QUOTE_SHARE for _, read in reads):
            matcher = self._current_matcher(wait=not self.background)  # a server answers without it meanwhile
            quote = matcher.match(query, limit, books=self._only(list(books))) if matcher else None
            if quote is not None and quote.confident:
                boosts += [(_verse_ref(m.ref), _boost(QUOTE_WEIGHT, i)) for i, m in enumerate(quote.matches)]
                quoted = {_verse_ref(m.ref): f"**{m.matched}**" for m in quote.matches if m.matched}
                # the verses that hold the quoted words too (CC quoting the Gītā or SB) are the quote
                top = quote.matches[0]
                boosts += [(_verse_ref(ref), QUOTE_WEIGHT) for ref in top.also_in[:limit]]
                quoted |= {
                    _verse_ref(ref): f"**{top.matched}**" for ref in top.also_in[:limit] if top.matched
                }
        answers: list[SearchHit] = []
        for ranking, read in reads:
            if not (read.known or boosts):
                continue
            if isinstance(ranking, BooksRanking):
                found = ranking.rank(query, limit, boosts, read, others)
            else:
                found = ranking.rank(query, limit, boosts, read)
            for a in found:
                ref = _verse_ref(a.ref)
                answers.append(SearchHit(ref, a.score, quoted.get(ref, a.excerpt)))
        if others and book_ranking is None:  # a server still building it: the books' verses by FTS5
            answers += self._unranked_book_hits(query, limit, others, boosts, quoted)
        if not answers:
            return self._by_words_or_sound(query, limit, books, any(read.known for _, read in reads))
        return sorted(answers, key=lambda hit: -hit.score)[:limit]  # stable: the Gītā's first of equals

    def _unranked_book_hits(
        self,
        query: str,
        limit: int,
        codes: list[str],
        boosts: list[tuple[VerseRef, float]],
        quoted: dict[VerseRef, str],
    ) -> list[SearchHit]:
        """The books' verses that FTS5 finds for every word (or, failing that, any word) and the
        matcher's quotes, scored by their boosts alone, while the books' ranking is being built."""
        scores: dict[VerseRef, float] = {}
        snippets: dict[VerseRef, str] = {}
        found = self.store.search_books(query, limit, codes) or self.store.search_books(
            query, limit, codes, every_word=False
        )
        for i, hit in enumerate(found):
            scores[hit.ref] = scores.get(hit.ref, 0.0) + _boost(KEYWORD_WEIGHT, i)
            snippets[hit.ref] = hit.snippet
        for ref, boost in boosts:
            if ref.book in codes:
                scores[ref] = scores.get(ref, 0.0) + boost
        return [
            SearchHit(ref, score, quoted.get(ref, snippets.get(ref, ""))) for ref, score in scores.items()
        ]

    def _keyword_hits(
        self, query: str, limit: int, books: list[str] | tuple[str, ...]
    ) -> list[list[SearchHit]]:
        """FTS5's verses whose Sanskrit holds every word of the query: the Gītā's, the other books'."""
        others = [code for code in books if code != "BG"]
        gita = self.store.search_sanskrit(query, limit) if "BG" in books else []
        return [gita, self.store.search_books_sanskrit(query, limit, others) if others else []]

    def _by_words_or_sound(
        self, query: str, limit: int, books: list[str] | tuple[str, ...] = ("BG",), known: bool = False
    ) -> list[SearchHit]:
        """FTS5's verses holding every word; else, for a quote whose words sandhi joined in the verse
        ("karmanye vadhikaraste" of karmaṇyevādhikāraste), the matcher's verses if it is confident;
        else FTS5's verses holding any word; else, for a query of words the texts know, the
        question rankings' by meaning or by their words alone, so that no such query finds nothing.
        In every book asked for, best first."""
        others = [code for code in books if code != "BG"]
        gita = "BG" in books
        every_word = self._by_score(
            self.store.search_every_word(query, limit) if gita else [],
            self.store.search_books(query, limit, others),
        )[:limit]
        if every_word:
            return every_word
        report = self.matcher().match(query, limit, books=self._only(list(books)))
        if report.confident:
            return [_quote_hit(m) for m in report.matches]
        any_word = self._by_score(
            self.store.search_any_word(query, limit) if gita else [],
            self.store.search_books(query, limit, others, every_word=False),
        )[:limit]
        if any_word or not question.content_words(query):
            return any_word
        answers: list[SearchHit] = []
        if gita and (known or self.questions().semantic):
            answers += [
                SearchHit(a.ref, a.score, a.excerpt)
                for a in self.questions().search(query, limit, english_only=False)
            ]
        book_ranking = self.book_ranking(wait=not self.background) if others else None
        if book_ranking is not None and book_ranking.translated:
            index = book_ranking.ranking.questions
            allowed = set(others)
            answers += [
                SearchHit(a.ref, a.score, a.excerpt)
                for a in index.search(query, limit * 4, english_only=False)
                if a.ref.book in allowed
            ][:limit]
        return sorted(answers, key=lambda hit: -hit.score)[:limit]

    @staticmethod
    def _by_score(*rankings: list[SearchHit]) -> list[SearchHit]:
        return sorted((hit for ranking in rankings for hit in ranking), key=lambda hit: -hit.score)

    def questions(self) -> QuestionIndex:
        """The question index over the cached verses, rebuilt when the cache or its vectors change."""
        with self._questions_lock:
            key = (self.store.verse_count(), self.store.vectors_stamp())
            if self._questions is None or key != self._questions_key:
                started = time.perf_counter()
                self._questions = self._question_index()
                if threading.current_thread().name not in WARMING_THREADS:  # a search waited for it
                    self._questions_warmed = self._warming_note(time.perf_counter() - started)
                self._questions_key = (key[0], self.store.vectors_stamp())
                work.settle_heap()
            return self._questions

    def terms(self, wait: bool = True) -> TermIndex | None:
        """The loose Sanskrit term index over the cached verses: the one saved beside the cache when
        it was built from the same documents, else built (a few seconds) and saved. Without `wait`,
        while another thread builds it, the last one (None at first): search answers without it."""
        if not self._terms_lock.acquire(blocking=wait):
            return self._terms
        try:
            signature = self.store.content_signature()
            if self._terms is None or signature != self._terms_key:
                refs = [ref for ref, _, _ in self.store.transliterations()]  # in term_sources' order
                built = self._term_index(
                    terms_path(self.index_base), refs, signature, self.store.term_sources, build=wait
                )
                if built is None:
                    return self._terms
                self._terms, self._terms_key = built, signature
            return self._terms
        finally:
            self._terms_lock.release()

    def _term_index(
        self,
        path: Path,
        refs: list[VerseRef],
        signature: str,
        sources: Callable[[], list[VerseTerms]],
        build: bool = True,
    ) -> TermIndex | None:
        """The term index saved at `path` if it was built from these texts, else built and saved.
        Without `build` (a server's search), None when it must be built: the search answers without
        it and the background warming builds it, never a call under its deadline (seconds of work
        that a busy machine stretches past it)."""
        terms = TermIndex.load(path, refs, signature)
        if terms is None and not build:
            self._start_warm_search()
            return None
        if terms is None:
            terms = TermIndex(sources())
            if not self.store.read_only:
                try:
                    terms.save(path, signature)
                except OSError as exc:  # a full disk: the index still serves from memory
                    log.warning("could not save the term index at %s: %s", path, exc)
        work.settle_heap()
        return terms

    def ranking(self) -> VerseRanking:
        """The verse ranking: the question index and the term index of the cached verses (in a
        server, without the term index while the background thread builds it)."""
        questions, terms = self.questions(), self.terms(wait=not self.background)
        if self.background and (terms is None or not terms.holds(questions.refs)):
            terms = self._await_terms(questions.refs)
        if terms is not None and not terms.holds(questions.refs):
            terms = None  # the last term index, of the texts before a seed, while the new one builds
        self.terms_pending = terms is None
        ranking = self._ranking
        if ranking is None or ranking.questions is not questions or ranking.terms is not terms:
            ranking = self._ranking = VerseRanking(questions, terms)
        return ranking

    def _await_terms(self, refs: list[VerseRef]) -> TermIndex | None:
        """In a server, the term index the background warming is building, waited for while this call
        has time to spare (seconds on an idle machine), else None: the search answers without it and
        says so (TERMS_PENDING_NOTE), rather than fail at its deadline on a busy machine."""
        left = work.remaining()
        budget = TERMS_WAIT_S if left is None else min(TERMS_WAIT_S, left - TERMS_MARGIN_S)
        ends = time.monotonic() + budget
        while self._warm_thread is not None and self._warm_thread.is_alive() and time.monotonic() < ends:
            time.sleep(0.05)
            terms = self.terms(wait=False)
            if terms is not None and terms.holds(refs):
                return terms
        terms = self.terms(wait=False)
        return terms if terms is not None and terms.holds(refs) else None

    def book_terms(self, wait: bool = True) -> TermIndex | None:
        """The term index of the installed books' verses and word meanings (book_ranking.py), saved
        beside the cache; None with no book installed, or (without `wait`) while another thread builds it."""
        if not self._book_terms_lock.acquire(blocking=wait):
            return self._book_terms
        try:
            signature = f"{TERMS_VERSION}:{self.store.books_signature()}"
            if signature != self._book_terms_key:
                installed = list(self.store.installed_books())
                built = None
                if installed:
                    stored = self.store.book_verses(installed)
                    built = self._term_index(
                        book_terms_path(self.index_base),
                        [verse.ref for verse in stored],
                        signature,
                        lambda: [entry.terms() for entry in book_entries(stored)],
                        build=wait,
                    )
                    if built is None:
                        return None
                self._book_terms, self._book_terms_key = built, signature
            return self._book_terms
        finally:
            self._book_terms_lock.release()

    def book_ranking(self, wait: bool = True) -> BooksRanking | None:
        """The ranking of the installed books' verses (book_ranking.py), rebuilt when the books or their
        vectors change; None with no book installed. Without `wait`, while another thread builds it (or
        its term index), the last one (None at first): search then finds their verses with FTS5."""
        if not self.store.installed_books():
            return None
        if not self._books_lock.acquire(blocking=wait):
            return self._books
        try:
            key = (self.store.books_signature(), self._book_vectors_stamp())
            if self._books is None or key != self._books_key:
                terms = self.book_terms(wait=wait)
                if terms is None:
                    return self._books if self._books_key[0] == key[0] else None
                stored = self.store.book_verses(list(self.store.installed_books()))
                if [v.ref for v in stored] != terms.refs:  # installed again meanwhile: next time
                    return self._books if self._books_key[0] == key[0] else None
                entries = book_entries(stored)
                questions = self._book_question_index(entries)
                self._books = BooksRanking(VerseRanking(questions, terms), [v.ref.book for v in stored])
                self._books_key = key
                work.settle_heap()
            return self._books
        finally:
            self._books_lock.release()

    def _book_question_index(self, entries: list[BookVerse]) -> QuestionIndex:
        """The question index of the books' translations: with the model's vectors once they are all
        encoded (a server encodes them in the background), the static table's, or by words alone."""
        texts = [entry.texts() for entry in entries]
        embedder = self.embedder()
        translated = [text for text in texts if text.translations]
        if not translated or embedder is None:
            return QuestionIndex(texts)
        if not question.is_model(embedder):
            return QuestionIndex(texts, embedder)
        vectors = semantic.VectorCache(self._book_vectors(), embedder).vectors(
            [text.dense_texts for text in texts]
        )
        return QuestionIndex(texts, embedder, vectors) if vectors is not None else QuestionIndex(texts)

    @property
    def book_vector_path(self) -> Path:
        return book_vectors_path(self.index_base)

    def _book_vectors(self) -> Path | semantic.VectorStorage:
        """Where the books' vectors are kept: a file beside a SQLite cache; on PostgreSQL the shared
        table the Gītā's are in (keyed by each text's hash, so the two sets never mix)."""
        return self.store if self.settings.database_url else self.book_vector_path

    def _book_vectors_stamp(self) -> int:
        """Changes when the books' vectors do (what their ranking is rebuilt for)."""
        if self.settings.database_url:
            return self.store.vectors_stamp()
        try:
            return self.book_vector_path.stat().st_mtime_ns
        except OSError:
            return 0

    @property
    def index_base(self) -> Path:
        """The path the search indexes this process derives are saved beside (the term indexes, the
        books' vectors): the SQLite cache; on PostgreSQL, where this replica's SQLite cache would be
        (its data folder): each replica derives them from the shared texts, keyed by what they hold."""
        return self.settings.resolved_db_path() if self.settings.database_url else self.sqlite_cache().path

    def sqlite_cache(self) -> GitaStore:
        """The store as what it is without a database URL: the SQLite cache (stores.open_store)."""
        assert isinstance(self.store, GitaStore), "a store on PostgreSQL has no file"
        return self.store

    def _warming_note(self, seconds: float) -> str:
        """What the first search of a process spent loading the question model, if it was long (the
        lexical index alone builds in well under a second)."""
        if seconds < WARMING_NOTE_AFTER_S or not question.is_model(self._embedder):
            return ""
        what = "the question model (all-MiniLM-L6-v2) and the translations' vectors"
        return (
            f"The first search of a process loads {what} ({seconds:.1f} s here); a server does it once,"
            " and its later searches take milliseconds."
        )

    @property
    def vector_path(self) -> Path:
        """Where the SQLite cache's question vectors live (on PostgreSQL: a table)."""
        return semantic.vectors_path(self.settings.resolved_db_path())

    def embedder(self) -> Embedder | None:
        """The question embedder, made once (loading the model takes half a second); while there
        is none, asked for again (a static table code search builds later is then used)."""
        if self._embedder is None:
            self._embedder = self._embedder_factory()
        return self._embedder

    def _question_index(self) -> QuestionIndex:
        texts = self.store.english_texts()
        embedder = self.embedder()
        if not question.is_model(embedder):
            return build_index(texts, embedder, None if embedder else question.lexical_note())
        assert embedder is not None
        verses = question.split_translations(texts)
        cache = semantic.VectorCache(self.store, embedder)
        wanted = [text for verse in verses for text in verse.dense_texts]
        missing = cache.missing(wanted)
        if missing and len(missing) <= semantic.MAX_SEARCH_TEXTS and not self.store.read_only:
            cache.build(missing)  # a verse or two a lookup cached since the seed
        vectors = cache.vectors([verse.dense_texts for verse in verses])
        if vectors is None:  # a cache seeded before the subject index: its translations' vectors
            vectors = cache.vectors([verse.translations for verse in verses])
        if vectors is None:
            return QuestionIndex(verses, note=question.unbuilt_note(len(cache.missing(wanted))))
        return QuestionIndex(verses, embedder, vectors)

    def build_question_vectors(self, progress: semantic.EncodeProgress | None = None) -> str:
        """Encode the cached texts the vector files lack, the Gītā's then the installed books'
        translations (seed --vectors calls this); says what it did."""
        embedder = self.embedder()
        if not question.is_model(embedder):
            return (question.lexical_note() or "") if embedder is None else ""
        assert embedder is not None
        started = time.perf_counter()
        work_list = self._texts_to_encode()
        todo = [(cache, texts, len(cache.missing(texts))) for cache, texts in work_list]
        total = sum(missing for _, _, missing in todo)
        encoded = 0
        for cache, texts, _ in todo:
            before = encoded

            def each(done: int, _: int, before: int = before) -> None:
                if progress is not None:
                    progress(before + done, total)

            encoded += cache.build(texts, each)
        if not encoded:
            return ""
        return f"Encoded {encoded} texts for question search in {time.perf_counter() - started:.0f} s."

    def _texts_to_encode(self) -> list[tuple[semantic.VectorCache, list[str]]]:
        """The vector stores (files beside a SQLite cache, a table on PostgreSQL) and the texts each
        should hold: the Gītā's translations, descriptions and reader's questions; the installed
        books' translations."""
        embedder = self.embedder()
        assert embedder is not None
        verses = question.split_translations(self.store.english_texts())
        gita = [text for verse in verses for text in verse.dense_texts]
        found = [(semantic.VectorCache(self.store, embedder), gita)]
        installed = list(self.store.installed_books())
        if installed:
            books = [v.translation for v in self.store.book_verses(installed) if v.translation]
            if books:
                found.append((semantic.VectorCache(self._book_vectors(), embedder), books))
        return found

    # -- fuzzy matching ----------------------------------------------------------------------

    def warm_up(self) -> threading.Thread:
        """Build in the background, as a server starts (and after an install), what its calls need, so
        that none waits for it: the matcher (over the Gītā ~0.1 s, over every book a few seconds) and,
        in the server's own process, the search indexes (warm_search). A worker process (a child) only
        needs the matcher, for the heavy calls it takes over. A call that needs the matcher meanwhile
        waits for this build rather than starting its own; a search answers without what is not built."""
        thread = threading.Thread(target=self._warm_up, name="gita-warm-up", daemon=True)
        with self._vector_lock:  # the one warming thread: _start_warm_search starts none beside it
            self._warm_thread = thread
            thread.start()
        return thread

    def _warm_up(self) -> None:
        try:
            self.matcher()
        except Exception:  # the first call that needs it builds it again, and reports what fails
            log.warning("building the verse matcher in the background failed", exc_info=True)
        if multiprocessing.parent_process() is None and (
            self.store.verse_count() or self.store.installed_books()
        ):
            self.warm_search()

    def matcher(self) -> VerseMatcher:
        """The one matcher over the Gītā and every installed book, in that order (the Gītā's packaged
        text first, then SB, then CC from the cache: the order decides which verse is credited with
        words several hold); a call limits it to some books at query time. Built on first use, and
        again when the installed books change."""
        matcher = self._current_matcher(wait=True)
        assert matcher is not None
        return matcher

    def _current_matcher(self, wait: bool) -> VerseMatcher | None:
        """The matcher (see matcher()); without `wait`, None while another thread builds it."""
        installed = self.store.installed_books()
        key = tuple((code, book.installed_ns) for code, book in installed.items())
        if not self._matcher_lock.acquire(blocking=wait):
            return None
        try:
            if self._matcher is None or key != self._matcher_key:
                self._matcher = None  # the old one's memory is free before the new one is built
                verses = packaged.indexed_verses()
                for ref, transliteration in self.store.book_transliterations(list(installed)):
                    verses.append(IndexedVerse(ref, transliteration, book=ref.book))
                self._matcher = self._matcher_factory(verses, packaged.english_words())
                self._matcher_key = key
                work.settle_heap()
            return self._matcher
        finally:
            self._matcher_lock.release()

    def match(
        self, garbled: str, top_n: int = 3, translator: str | None = None, books: list[str] | None = None
    ) -> models.MatchResult:
        garbled = required_text(
            garbled, "garbled_sanskrit", MAX_GARBLED_CHARS, empty_hint=GIVE_TEXT, strip=True
        )
        if not 1 <= top_n <= 5:
            raise InvalidInputError("top_n must be between 1 and 5")
        chosen = resolve_translator(translator)
        codes = self.books_for(books)
        matcher = self.matcher()
        report = matcher.match(garbled, top_n, books=self._only(codes))
        top = self._verse_or_sanskrit(_verse_ref(report.matches[0].ref), chosen) if report.matches else None
        return models.MatchResult(
            given=garbled,
            query=report.query,
            matcher=matcher.name,
            confident=report.confident,
            threshold=matcher.threshold,
            books=codes,
            matches=[_match_model(m) for m in report.matches],
            top_match=top,
            notes=[*report.notes, *([] if report.confident or books else self._not_installed_note())],
        )

    def correct_transcript(self, text: str, books: list[str] | None = None) -> models.TranscriptCorrection:
        """Find the Sanskrit quotes in a transcript; replace the confident ones, flag the unsure."""
        required_text(
            text, "transcript", MAX_TRANSCRIPT_CHARS, empty_hint=GIVE_TEXT
        )  # spans index the input as sent
        codes = self.books_for(books)
        matcher = self.matcher()
        if not isinstance(matcher, PhoneticMatcher):
            raise InvalidInputError(f"transcript correction needs the phonetic matcher, not {matcher.name}")
        started = time.perf_counter()
        corrected, spans = transcript.correct(matcher, text, self._only(codes))
        span_models = [_span_model(span) for span in spans]
        return models.TranscriptCorrection(
            corrected=corrected,
            spans=span_models,
            replaced=sum(s.status == "replaced" for s in span_models),
            flagged=sum(s.status == "flagged" for s in span_models),
            words=len(text.split()),
            seconds=round(time.perf_counter() - started, 3),
            books=codes,
            # a quote left unreplaced may be from a book not installed (a Bhāgavatam class, SB not installed)
            notes=[]
            if books or all(s.status == "replaced" for s in span_models)
            else self._not_installed_note(),
        )

    # -- the books ---------------------------------------------------------------------------

    def available_books(self) -> list[str]:
        """The Gītā (always) and the books installed."""
        return ["BG", *self.store.installed_books()]

    def _only(self, codes: list[str]) -> list[str] | None:
        """The books filter a matcher is given for `codes`: None when they are every book it holds."""
        return None if codes == self.available_books() else codes

    def books_for(self, books: list[str] | None) -> list[str]:
        """The codes of the books a call asks for (default: every one available); a book asked for
        that is not installed is an error saying how to install it."""
        if books is not None and len(books) > len(BOOKS):
            raise InvalidInputError(
                f"books lists {len(books)} books; there are {len(BOOKS)}", parameter="books"
            )
        return chosen_books(books, self.available_books())

    def _not_installed_note(self, what: str = "Not matched against:") -> list[str]:
        """For an answer that found little: the books it could not look in, and how to install them."""
        missing = [book for book in INSTALLABLE if book.code not in self.store.installed_books()]
        if not missing:
            return []
        names = " and ".join(f"the {book.name} ({book.code})" for book in missing)
        hint = install_hint([book.code for book in missing])
        verb = "is" if len(missing) == 1 else "are"
        return [
            f"{what} {names}, which {verb} not installed: {hint} installs {'it' if verb == 'is' else 'them'}."
        ]

    def _require_book(self, code: str) -> None:
        if code not in self.store.installed_books():
            book = BOOKS[code]
            raise NotReadyError(
                f"the {book.name} ({code}) is not installed: run {install_hint([code])} once (seconds"
                " from a local copy; it downloads upstream's 26 MB archive unless --source names a copy)."
                " The Bhagavad-gītā works without it."
            )

    def _book_text(self, ref: VerseRef) -> tuple[StoredBookVerse, list[str]]:
        """The text `ref` names, or the joined text it is part of (with a note saying so)."""
        self._require_book(ref.book)
        exact = self.store.book_verse(ref)
        if exact is not None:
            return exact, []
        holding = self.store.book_verse_holding(ref)
        if holding is not None and set(ref.members) <= set(holding.ref.members):
            return holding, [
                f"{ref} is part of {holding.ref}: these verses are one text (as vedabase has them),"
                " shown whole."
            ]
        raise NotFoundError(self._what_exists(ref))

    def _what_exists(self, ref: VerseRef) -> str:
        """Why `ref` names no text: the chapter's verses (and lettered texts), or the texts a range spans."""
        texts = self.store.book_chapter(ref.chapter_ref)
        numbered = [t.ref for t in texts if not t.ref.label]
        count = max((r.members[-1] for r in numbered), default=0)
        if ref.joined and not ref.label and ref.members[-1] <= count:
            inside = [str(r) for r in numbered if set(r.members) & set(ref.members)]
            return f"{ref} is not one text: its verses are in {', '.join(inside)}; look them up one by one"
        extra = [t.ref.number for t in texts if t.ref.label]
        also = f", and the texts {', '.join(extra)}" if extra else ""
        return f"{ref} does not exist: {ref.chapter_ref} has {count} verses (1-{count}){also}"

    def _book_verse_model(
        self, stored: StoredBookVerse, translator: Translator, notes: list[str]
    ) -> models.Verse:
        ref = stored.ref
        book = BOOKS[ref.book]
        notes = list(notes)
        translation = None
        if stored.translation:
            translation = models.Translation(
                author_key="prabhu",
                author=TRANSLATORS["prabhu"].name,
                language="English",
                kind="translation",
                text=stored.translation,
            )
            if translator.key != "prabhu":
                notes.append(f"The {book.name} has Prabhupada's translation only; showing it.")
        else:
            notes.append(
                f"No translation of {ref} in this cache: {ref.book} was installed from a copy without"
                f" translations. Upstream's archive (the default source) has them:"
                f" `{command(f'gita install {BOOKS[ref.book].slug} --force')}` keeps them in your own cache."
            )
        if not stored.transliteration:
            notes.append(f"The source has no text for {ref} (upstream's file for it is empty).")
        return models.Verse(
            ref=str(ref),
            book=ref.book,
            book_name=book.name,
            division=book.division_label(ref.division),
            chapter=ref.chapter,
            verse=ref.verse,
            verse_numbers=list(ref.members),
            devanagari="",
            transliteration=stored.transliteration,
            translation=translation,
            synonyms=stored.synonyms or None,
            vedabase_url=ref.vedabase_url,
            notes=notes,
        )

    def _verse_or_sanskrit(self, ref: VerseRef, translator: Translator) -> models.Verse:
        """A matched verse in full: the Gītā's with its cached translation, a book's from the cache."""
        if ref.book == "BG":
            return self._cached_or_sanskrit(ref, translator)
        stored = self.store.book_verse(ref)
        if stored is None:  # reinstalled between the match and now
            raise NotFoundError(f"{ref} is no longer installed; try again")
        return self._book_verse_model(stored, translator, [])

    def install_books(
        self,
        names: list[str],
        source: str | None = None,
        progress: Progress | None = None,
        *,
        force: bool = False,
    ) -> models.InstallResult:
        """Install SB and/or CC from upstream's archive (or `source`): see gita/install.py."""
        codes = install.wanted_codes(names)
        if self.store.read_only:
            raise NotReadyError("installing writes the cache, and this server opened it read-only")
        return install.install(
            self.store,
            codes,
            source or self.settings.books_source,
            downloads=self.settings.downloads_dir(),
            timeout=self.settings.http_timeout,
            progress=progress,
            force=force,
        )

    def chapter(self, reference: str, translator: str | None = None) -> models.ChapterVerses:
        """A chapter's verses: 'BG 2' (packaged Sanskrit, cached translations), 'SB 1.2', 'CC Madhya 20'."""
        ref = parse_chapter(reference)
        chosen = resolve_translator(translator)
        if ref.book == "BG":
            return self._gita_chapter(ref, chosen)
        self._require_book(ref.book)
        book = BOOKS[ref.book]
        texts = self.store.book_chapter(ref)
        verses = [
            models.ChapterVerse(
                ref=str(t.ref),
                verse_numbers=list(t.ref.members),
                transliteration=t.transliteration,
                translation=t.translation or None,
                vedabase_url=t.ref.vedabase_url,
            )
            for t in texts
        ]
        notes = []
        if texts and not any(t.translation for t in texts):
            notes.append(
                f"No translations in this cache for {ref.book}: the copy installed has the verse texts only."
            )
        return models.ChapterVerses(
            ref=str(ref),
            book=ref.book,
            book_name=book.name,
            division=book.division_label(ref.division),
            chapter=ref.chapter,
            verse_count=sum(len(t.ref.members) for t in texts if not t.ref.label),
            text_count=len(texts),
            title=None,
            verses=verses,
            vedabase_url=ref.vedabase_url,
            notes=notes,
        )

    def _gita_chapter(self, ref: ChapterRef, translator: Translator) -> models.ChapterVerses:
        verses = []
        numbers = range(1, VERSES_PER_CHAPTER[ref.chapter - 1] + 1)
        stored_verses = self.store.verses([VerseRef(ref.chapter, number) for number in numbers])
        for number in numbers:
            verse_ref = VerseRef(ref.chapter, number)
            stored = stored_verses.get(verse_ref)
            text = choose_translation(stored, translator)[0] if stored else None
            verses.append(
                models.ChapterVerse(
                    ref=str(verse_ref),
                    verse_numbers=[number],
                    transliteration=packaged.packaged_verse(verse_ref).transliteration,
                    translation=text.text if text else None,
                    vedabase_url=verse_ref.vedabase_url,
                )
            )
        cached = self.store.chapter(ref.chapter)
        notes = [] if any(v.translation for v in verses) else [f"No translations cached. {SEED_HINT}"]
        return models.ChapterVerses(
            ref=str(ref),
            book_name=BOOKS["BG"].name,
            division=None,
            chapter=ref.chapter,
            verse_count=len(verses),
            text_count=len(verses),
            title=(cached.name_translation or cached.name_transliterated) if cached else None,
            verses=verses,
            vedabase_url=ref.vedabase_url,
            notes=notes,
        )

    # -- chapters ----------------------------------------------------------------------------

    def chapter_summary(self, chapter: int) -> models.Chapter:
        """Fresh from the source (and cached). The cached copy, with its age, when the source cannot
        be reached: asked once (one attempt, a short wait), then not again for RETRY_SOURCE_AFTER_S;
        with a note when the source answered but badly."""
        check_chapter(chapter)
        cached = self.store.chapter(chapter)
        if cached is not None and self._source_down():
            return _chapter_model(cached, "cache", [])
        try:
            record = asyncio.run(self._fetch_chapter(chapter, probe=cached is not None))
        except SourceUnreachableError as exc:
            self._note_unreachable()
            if cached is None:
                raise offline_error(
                    "the Gita source", self.settings.api_url, exc, retry=command("gita seed"),
                    variable="VEDABASE_API_URL", meanwhile=f"Chapter {chapter} is not cached yet.",
                ) from exc  # fmt: skip
            return _chapter_model(cached, "cache", [])
        except (SourceError, NotFoundError) as exc:
            if cached is None:
                raise SourceError(
                    f"chapter {chapter} could not be fetched ({exc}) and is not cached. {SEED_HINT}"
                ) from exc
            return _chapter_model(cached, "cache", [f"The source failed ({exc}); this is the cached copy."])
        if not self.store.read_only:
            self.store.save_chapter(record)
        return _chapter_model(record, "live", [])

    async def _fetch_chapter(self, chapter: int, *, probe: bool) -> ChapterRecord:
        """With a cached copy to fall back on, one attempt and a short wait (a probe); else two."""
        timeout = min(self.settings.http_timeout, PROBE_TIMEOUT_S) if probe else None
        async with self.source(retries=1 if probe else 2, timeout=timeout) as source:
            return await source.chapter(chapter)

    # -- seeding -----------------------------------------------------------------------------

    def seed(self, progress: Progress | None = None, *, question_vectors: bool = False) -> models.SeedResult:
        """Fetch every verse and chapter not yet cached: bounded concurrency, retries, resumable. It
        returns when the texts are stored: a server's service (`background`) then builds the
        question indexes and, with the embeddings extra, the question vectors in a thread of its own
        (start_vector_build); search answers by words meanwhile and says so. With `question_vectors`
        (the Python API's seed), the vectors are encoded before it returns (build_question_vectors).

        `progress(done, total, message)` is called as documents arrive. Under a call's work limit
        (pramana.work) seeding stops when the limit is reached; what was fetched stays cached.
        """
        self._require_writable("seeding writes the cache")
        result = asyncio.run(self._seed(progress))
        if result.fetched_verses:
            self.store.mark_misfiled()  # the texts were written as the source has them
        remembered = self._remember_source(result)
        if question_vectors and result.verses_cached:
            fetched = result.fetched_verses + result.fetched_chapters + len(result.failures)

            def encoding(done: int, total: int) -> None:
                if progress is not None:
                    progress(fetched + done, fetched + total, "encoding texts for question search")

            note = self.build_question_vectors(encoding)
            result = result.model_copy(update={"notes": [note] if note else []})
        elif result.verses_cached and self.background and self.start_vector_build():
            result = result.model_copy(update={"notes": [VECTORS_STARTED]})
        if remembered:
            result = result.model_copy(update={"notes": [remembered, *result.notes]})
        return result

    def start_vector_build(self) -> bool:
        """In a server (`background`), build the search indexes and encode the texts the vector files
        lack (the Gītā's, the installed books' translations) in a thread of its own, one build at a
        time; True if one was started."""
        if not self.background or self.store.read_only:
            return False
        if not (self.store.verse_count() or self.store.installed_books()):
            return False
        with self._vector_lock:
            if self._vector_thread is not None and self._vector_thread.is_alive():
                return False
            if not question.is_model(self.embedder()):
                self._start_warm_search()
                return False
            self.vector_build = VectorBuild(state="building")
            self._vector_thread = threading.Thread(
                target=self._build_vectors, name="gita-vectors", daemon=True
            )
            self._vector_thread.start()
            _BUILDING.add(self)
            return True

    def stop_vector_build(self, timeout: float = STOP_VECTORS_WAIT_S) -> VectorBuild:
        """Stop a background vector build after the batch it is encoding (what it encoded is saved;
        the next start encodes the rest), and wait for it to end."""
        self._stop_vectors.set()
        return self.wait_for_vectors(timeout)

    def wait_for_vectors(self, timeout: float | None = None) -> VectorBuild:
        """The background build's state once it has ended (or after `timeout` seconds)."""
        thread = self._vector_thread
        if thread is not None:
            thread.join(timeout)
        return self.vector_build

    def _start_warm_search(self) -> None:
        """Build the search indexes in the warming thread, unless one is running. The caller holds
        _vector_lock (start_vector_build)."""
        if self._warm_thread is None or not self._warm_thread.is_alive():
            self._warm_thread = threading.Thread(target=self.warm_search, name="gita-search", daemon=True)
            self._warm_thread.start()

    def warm_search(self) -> None:
        """Build the search indexes: the Gītā's question index first (every question search needs it),
        then the term indexes of the Gītā and of the installed books, built in a process of its own
        (build_terms.py, at a lower priority) while searches answer without them, then the books'
        ranking. Errors are logged: a search builds what is missing again, and reports what fails."""
        try:
            if self.store.verse_count():
                self.questions()
            with self._terms_lock, self._book_terms_lock:  # searches meanwhile answer without them
                # The subprocess reads a SQLite cache; on PostgreSQL they are built in this thread below.
                if self._terms_stale() and not self.store.read_only and not self.settings.database_url:
                    try:
                        build_terms.build_in_subprocess(self.sqlite_cache().path)
                    except (RuntimeError, OSError, subprocess.SubprocessError) as exc:
                        log.warning("%s; building it in the server instead", exc)
            if self.store.verse_count():
                self.terms()  # loads the saved index (or builds it here if the process failed)
            self.book_ranking()
        except Exception:
            log.exception("building the gita search indexes in the background failed")

    def _terms_stale(self) -> bool:
        """Whether a term index this service needs is neither in memory nor saved for its texts."""
        gita = self.store.content_signature()
        books = f"{TERMS_VERSION}:{self.store.books_signature()}"
        return (
            self.store.verse_count() > 0
            and self._terms_key != gita
            and TermIndex.saved_signature(terms_path(self.index_base)) != gita
        ) or (
            bool(self.store.installed_books())
            and self._book_terms_key != books
            and TermIndex.saved_signature(book_terms_path(self.index_base)) != books
        )

    def _build_vectors(self) -> None:
        started = time.perf_counter()
        build = self.vector_build

        def progress(done: int, total: int) -> None:
            build.done, build.total = done, total

        try:
            warming = self._warm_thread
            if warming is not None and warming.is_alive():
                warming.join()  # a start's or an install's warm-up: its indexes, not built twice at once
            self.warm_search()  # the term indexes and the lexical rankings first: search answers by words
            todo = [(cache, texts, len(cache.missing(texts))) for cache, texts in self._texts_to_encode()]
            build.total = sum(missing for _, _, missing in todo)
            for cache, texts, _ in todo:
                before = build.done

                def advanced(done: int, _: int, before: int = before) -> None:
                    progress(before + done, build.total)

                # No deadline, but a stop: at exit the build saves what it encoded and ends.
                with work.limited(work.Limit(math.inf, stopped=self._stop_vectors)):
                    cache.build(texts, advanced)
            if self.store.verse_count():
                self.questions()  # the rankings by meaning, built here rather than in a search
            self.book_ranking()
            build.state = "built"
        except Exception as exc:
            if self._stop_vectors.is_set():
                log.info(
                    "the question vectors' build stopped at exit after %d of %d texts",
                    build.done,
                    build.total,
                )
                build.state, build.error = (
                    "failed",
                    "stopped before it finished; the next start encodes the rest",
                )
            else:
                log.exception("building the gita question vectors failed")
                build.state, build.error = "failed", str(exc)
        finally:
            build.seconds = round(time.perf_counter() - started, 1)

    def _remember_source(self, result: models.SeedResult) -> str:
        """After a seed from a source that was given (flag or variable), the cache remembers it, so
        that later lookups and chapter summaries (and seeds) read it without being told again; a
        source given as the default upstream forgets it. Says what it did."""
        if self.settings.database_url:  # shared by replicas: each is given its source (VEDABASE_API_URL)
            return ""
        path = remembered_source_path(self.settings.resolved_db_path())
        if "api_url" not in self.settings.model_fields_set or not (result.fetched_verses or result.complete):
            return ""
        location = self.settings.api_url
        if "://" not in location:
            location = str(Path(location).expanduser().resolve())
        if location.rstrip("/") == DEFAULT_VEDABASE_API_URL:
            path.unlink(missing_ok=True)
            return ""
        try:
            if path.read_text(encoding="utf-8").strip() == location:
                return ""  # remembered already
        except OSError:
            pass
        writing = path.with_name(path.name + ".writing")
        writing.write_text(location + "\n", encoding="utf-8")
        writing.replace(path)  # whole or not at all
        return f"This cache now reads its verses from {location} (remembered; --source changes it)."

    def _require_writable(self, why: str) -> None:
        if not self.store.read_only:
            return
        if self.settings.database_url:
            raise NotReadyError(
                f"{why}, and {self.store.location} is read-only for this process (its role may only"
                f" read): run it once with a role that may write ({command('gita seed --database-url URL')})"
            )
        raise NotReadyError(
            f"{why}, and the cache at {self.store.location} is on a read-only filesystem: seed a writable"
            f" copy ({command('gita seed --db FILE')}) and serve that"
        )

    async def _probe(self, ref: VerseRef) -> VerseRecord | None:
        """One verse, one attempt, a short wait: an unreachable source stops the seed here, with what to
        do. Any other failure is left to the seed proper (None), which retries it."""
        try:
            async with self.source(
                retries=1, timeout=min(self.settings.http_timeout, PROBE_TIMEOUT_S)
            ) as probe:
                return await probe.verse(ref)
        except SourceUnreachableError as exc:
            self._note_unreachable()
            raise offline_error(
                "the Gita source", self.settings.api_url, exc, retry=rerun("gita seed"),
                variable="VEDABASE_API_URL",
                meanwhile="Lookups (the Sanskrit), fuzzy matching and transcript correction work"
                " without the seed.",
            ) from exc  # fmt: skip
        except PramanaError:
            return None

    async def _seed(self, progress: Progress | None) -> models.SeedResult:
        started = time.perf_counter()
        cached = self.store.cached_refs()
        missing = [ref for ref in all_refs() if str(ref) not in cached]
        need_chapters = len(self.store.cached_chapters()) < CHAPTER_COUNT
        total = len(missing) + int(need_chapters)
        failures: list[models.SeedFailure] = []
        done = fetched_verses = fetched_chapters = 0
        report_every = max(1, total // 100)

        def report(message: str) -> None:
            if progress is not None and (done % report_every == 0 or done == total):
                progress(done, total, message)
            work.check(f"seeding stopped after {done} of {total} documents; run it again to fetch the rest")

        if missing and (probed := await self._probe(missing[0])) is not None:
            self.store.save_verse(probed)
            missing, fetched_verses, done = missing[1:], 1, 1
        # SQLite has one writer at a time: the verses are written here as they come. PostgreSQL
        # takes them from several connections at once, in the fetching tasks.
        shared_store = bool(self.settings.database_url)
        if total:
            async with self.source() as source:
                limit = asyncio.Semaphore(self.settings.seed_concurrency)

                async def fetch(ref: VerseRef) -> tuple[VerseRef, object]:
                    async with limit:
                        try:
                            record = await source.verse(ref)
                            if shared_store:  # written by several connections at once
                                await asyncio.to_thread(self.store.save_verse, record)
                            return ref, record
                        except PramanaError as exc:
                            return ref, exc

                tasks = [asyncio.ensure_future(fetch(ref)) for ref in missing]
                try:
                    for next_done in asyncio.as_completed(tasks):
                        ref, outcome = await next_done
                        if isinstance(outcome, PramanaError):
                            failures.append(models.SeedFailure(item=str(ref), error=str(outcome)))
                        else:
                            if not shared_store:
                                self.store.save_verse(outcome)  # type: ignore[arg-type]
                            fetched_verses += 1
                        done += 1
                        report(f"{ref}")
                finally:
                    for task in tasks:
                        task.cancel()
                    await asyncio.gather(*tasks, return_exceptions=True)
                if need_chapters:
                    try:
                        for record in await source.chapters():
                            self.store.save_chapter(record)
                            fetched_chapters += 1
                    except PramanaError as exc:
                        failures.append(models.SeedFailure(item="chapters", error=str(exc)))
                    done += 1
                    report("chapters")
        verses_cached = self.store.verse_count()
        chapters_cached = len(self.store.cached_chapters())
        return models.SeedResult(
            verses_cached=verses_cached,
            verses_expected=VERSE_COUNT,
            chapters_cached=chapters_cached,
            fetched_verses=fetched_verses,
            fetched_chapters=fetched_chapters,
            failures=failures,
            complete=verses_cached >= VERSE_COUNT and chapters_cached >= CHAPTER_COUNT,
            seconds=round(time.perf_counter() - started, 3),
            source=self.settings.api_url,
        )


def served(settings: GitaSettings) -> GitaService:
    """The service an MCP server opens: what a seed or an install changes (the search indexes, the
    question vectors) it rebuilds in the background."""
    return GitaService(settings, background=True)


@atexit.register
def _stop_vector_builds() -> None:
    for service in list(_BUILDING):
        service.stop_vector_build()
