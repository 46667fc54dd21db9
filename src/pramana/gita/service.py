"""The gita logic: lookup, search, fuzzy matching, chapter summaries and seeding."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

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
from pramana.gita import install, models, packaged, question, semantic, transcript
from pramana.gita.books import BOOKS, INSTALLABLE, chosen_books, install_hint
from pramana.gita.matcher import IndexedVerse, Match, VerseMatcher
from pramana.gita.phonetic_matcher import PhoneticMatcher, fine_key
from pramana.gita.question import EmbedderFactory, QuestionIndex, build_index, question_embedder
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
from pramana.gita.store import SearchHit, StoredBookVerse, StoredText, StoredVerse
from pramana.gita.stores import open_store
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

if TYPE_CHECKING:
    from pramana.code.embed import Embedder

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
MatcherFactory = Callable[[list[IndexedVerse], set[str]], VerseMatcher]
# Search fuses two rankings by reciprocal rank: the question ranking (question.py: English
# translations, stemmed, without question scaffolding) and FTS5's of the verses whose IAST or
# Devanāgarī holds every word of the query ("karma yoga", "sarva dharman"); KEYWORD_WEIGHT is its
# share. A query the question ranking finds nothing for (Sanskrit, Devanāgarī, only function
# words) gets FTS5's ranking over every column, as before.
KEYWORD_WEIGHT = 1.0
RANK_OFFSET = 10
SAME_TEXT_SHARE = 0.6  # of the longer verse's letters, for a text to count as a quotation of it
SAME_TEXT_MIN = 24  # letters: refrains and half-lines do not make two verses one text
SAME_TEXT_SCORE = 92
MATCHERS_KEPT = 3  # matchers over different sets of books (the default set, and books a call filters on)


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
    return models.VerseMatch(
        ref=str(match.ref),
        book=match.ref.book,
        score=min(1.0, max(0.0, match.score)),
        matched=match.matched,
        line=match.line,
        transliteration=match.transliteration,
        vedabase_url=match.ref.vedabase_url,
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
        book=top.ref.book if top else None,
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
    ):
        """`embedder_factory` makes the question embedder (default: the model if
        settings.question_model, else the cached static table, else none)."""
        self.settings = with_remembered_source(settings)
        # The SQLite file (read-only on a read-only mount) or PostgreSQL (PRAMANA_DATABASE_URL).
        self.store = open_store(self.settings)
        self._source_down_until = 0.0  # monotonic time until which the source is not asked again
        self._matcher_factory = matcher_factory
        # One matcher per set of books asked for, made on first use, kept while the books are the same.
        self._matchers: dict[tuple[tuple[str, ...], tuple[int, ...]], VerseMatcher] = {}
        self._matcher_lock = threading.Lock()
        self._embedder_factory = embedder_factory or (
            question_embedder if settings.question_model else question.cached_embedder
        )
        self._questions: QuestionIndex | None = None
        self._questions_key: tuple[int, int] = (-1, -1)
        self._questions_warmed: str = ""  # what building the question index took, until a search says it
        self._embedder: Embedder | None = None
        self._questions_lock = threading.Lock()

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
            stored, notes = self._book_text(ref)
            return self._book_verse_model(stored, chosen, notes)
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
        if "BG" in codes:
            index = self.questions()
            if index.note and index.reads_as_english(query):  # a question, ranked by its words alone
                notes.append(index.note)
            if self._questions_warmed:
                notes.append(self._questions_warmed)
                self._questions_warmed = ""
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
        return models.SearchResult(query=query, results=hits, verses_cached=cached, books=codes, notes=notes)

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
        """The question ranking, fused by reciprocal rank with the verses whose Sanskrit holds every
        word of the query (and, in the other books, whose Sanskrit or cached translation does); when
        the question ranking finds nothing, FTS5's or the matcher's (_by_words_or_sound)."""
        others = [code for code in books if code != "BG"]
        gita = "BG" in books
        answers = self.questions().search(query, limit) if gita and question.content_words(query) else []
        if not answers:
            return self._by_words_or_sound(query, limit, books)
        keyword = self.store.search_sanskrit(query, limit)
        by_question = [SearchHit(a.ref, a.score, a.excerpt) for a in answers]
        rankings = [(1.0, by_question), (KEYWORD_WEIGHT, keyword)]
        if others:
            rankings.append((KEYWORD_WEIGHT, self.store.search_books(query, limit, others)))
        fused: dict[VerseRef, SearchHit] = {}
        for weight, ranking in rankings:
            for rank, hit in enumerate(ranking):
                score = weight / (RANK_OFFSET + rank)
                seen = fused.get(hit.ref)
                snippet = seen.snippet if seen and "**" in seen.snippet else hit.snippet
                fused[hit.ref] = SearchHit(hit.ref, score + (seen.score if seen else 0.0), snippet)
        return sorted(fused.values(), key=lambda hit: -hit.score)[:limit]

    def _by_words_or_sound(
        self, query: str, limit: int, books: list[str] | tuple[str, ...] = ("BG",)
    ) -> list[SearchHit]:
        """FTS5's verses holding every word; else, for a quote whose words sandhi joined in the verse
        ("karmanye vadhikaraste" of karmaṇyevādhikāraste), the matcher's verses if it is confident;
        else FTS5's verses holding any word. In every book asked for, best BM25 first."""
        others = [code for code in books if code != "BG"]
        gita = "BG" in books
        every_word = self._by_score(
            self.store.search_every_word(query, limit) if gita else [],
            self.store.search_books(query, limit, others),
        )[:limit]
        if every_word:
            return every_word
        report = self.matcher(list(books)).match(query, limit)
        if report.confident:
            return [
                SearchHit(m.ref, m.score, f"**{m.matched}**" if m.matched else "") for m in report.matches
            ]
        return self._by_score(
            self.store.search_any_word(query, limit) if gita else [],
            self.store.search_books(query, limit, others, every_word=False),
        )[:limit]

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
                self._questions_warmed = self._warming_note(time.perf_counter() - started)
                self._questions_key = (key[0], self.store.vectors_stamp())
                work.settle_heap()
            return self._questions

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
        """Encode the cached translations the vector file lacks (seed calls this); says what it did."""
        embedder = self.embedder()
        if not question.is_model(embedder):
            return (question.lexical_note() or "") if embedder is None else ""
        assert embedder is not None
        verses = question.split_translations(self.store.english_texts())
        texts = [text for verse in verses for text in verse.dense_texts]
        started = time.perf_counter()
        encoded = semantic.VectorCache(self.store, embedder).build(texts, progress)
        if not encoded:
            return ""
        where = "the database" if self.settings.database_url else self.vector_path.name
        return (
            f"Encoded {encoded} texts for question search in {time.perf_counter() - started:.0f} s ({where})."
        )

    # -- fuzzy matching ----------------------------------------------------------------------

    def matcher(self, books: list[str] | None = None) -> VerseMatcher:
        """The matcher over the verses of `books` (default: the Gītā and every installed book): the
        Gītā's packaged text, the installed books' from the cache. Built on first use, and again when
        the installed books change."""
        installed = self.store.installed_books()
        codes = tuple(books or ["BG", *installed])
        key = (codes, tuple(book.installed_ns for book in installed.values()))
        with self._matcher_lock:
            matcher = self._matchers.get(key)
            if matcher is None:
                verses = packaged.indexed_verses() if "BG" in codes else []
                others = [code for code in codes if code != "BG"]
                for ref, transliteration in self.store.book_transliterations(others):
                    verses.append(IndexedVerse(ref, transliteration, book=ref.book))
                matcher = self._matcher_factory(verses, packaged.english_words())
                for old in [k for k in self._matchers if k[1] != key[1]]:  # made before an install
                    del self._matchers[old]
                while len(self._matchers) >= MATCHERS_KEPT:
                    del self._matchers[next(iter(self._matchers))]
                self._matchers[key] = matcher
                work.settle_heap()
            return matcher

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
        matcher = self.matcher(codes)
        report = matcher.match(garbled, top_n)
        top = self._verse_or_sanskrit(report.matches[0].ref, chosen) if report.matches else None
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
        matcher = self.matcher(codes)
        if not isinstance(matcher, PhoneticMatcher):
            raise InvalidInputError(f"transcript correction needs the phonetic matcher, not {matcher.name}")
        started = time.perf_counter()
        corrected, spans = transcript.correct(matcher, text)
        span_models = [_span_model(span) for span in spans]
        return models.TranscriptCorrection(
            corrected=corrected,
            spans=span_models,
            replaced=sum(s.status == "replaced" for s in span_models),
            flagged=sum(s.status == "flagged" for s in span_models),
            words=len(text.split()),
            seconds=round(time.perf_counter() - started, 3),
            books=codes,
        )

    # -- the books ---------------------------------------------------------------------------

    def available_books(self) -> list[str]:
        """The Gītā (always) and the books installed."""
        return ["BG", *self.store.installed_books()]

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
        cached = self.store.verses([VerseRef(ref.chapter, number) for number in numbers])
        for number in numbers:
            verse_ref = VerseRef(ref.chapter, number)
            stored = cached.get(verse_ref)
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
        """Fetch every verse and chapter not yet cached: bounded concurrency, retries, resumable;
        with `question_vectors`, then encode the translations for question search (the model's
        vectors, when the embeddings extra is installed; build_question_vectors).

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
        if remembered:
            result = result.model_copy(update={"notes": [remembered, *result.notes]})
        return result

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
