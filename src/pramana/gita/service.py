"""The gita logic: lookup, search, fuzzy matching, chapter summaries and seeding."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from pramana import work
from pramana.config import GitaSettings
from pramana.errors import (
    InvalidInputError,
    NotFoundError,
    NotReadyError,
    PramanaError,
    SourceError,
    SourceUnreachableError,
)
from pramana.gita import build_terms, models, packaged, question, semantic, transcript
from pramana.gita.matcher import IndexedVerse, Match, VerseMatcher
from pramana.gita.phonetic_matcher import PhoneticMatcher
from pramana.gita.question import EmbedderFactory, QuestionIndex, build_index, question_embedder
from pramana.gita.ranking import VerseRanking
from pramana.gita.reference import (
    CHAPTER_COUNT,
    VERSE_COUNT,
    VerseRef,
    all_refs,
    check_chapter,
    parse_reference,
)
from pramana.gita.repair import repair_notes
from pramana.gita.source import ChapterRecord, GitaSource, VerseRecord
from pramana.gita.store import GitaStore, SearchHit, StoredText, StoredVerse
from pramana.gita.terms import TermIndex, terms_path
from pramana.gita.translators import (
    FALLBACK_ORDER,
    FIELD_KIND,
    FIELD_LANGUAGE,
    PREFERRED_FIELDS,
    TRANSLATORS,
    Translator,
    resolve_translator,
)
from pramana.text.normalize import has_devanagari

if TYPE_CHECKING:
    from pramana.code.embed import Embedder

log = logging.getLogger(__name__)

MAX_QUERY_CHARS = 500
MAX_GARBLED_CHARS = 2_000
MAX_TRANSCRIPT_CHARS = 1_000_000
SEED_HINT = "Run the seed_database tool (or `pramana gita seed`) to cache all 701 verses."
SOURCE_HINT = (
    "If the source is unreachable, seed from a reachable mirror or a local copy of the data:"
    " `pramana gita seed --source URL_OR_DIRECTORY`, or set VEDABASE_API_URL."
)
# Seeding first fetches one verse, once, waiting at most this long: an unreachable source fails the
# seed in seconds, not after every one of 719 documents has been retried.
PROBE_TIMEOUT_S = 5.0
# A lookup that misses the cache tries the source twice before it answers with the Sanskrit only.
LOOKUP_ATTEMPTS = 2

Progress = Callable[[int, int, str], None]
MatcherFactory = Callable[[list[IndexedVerse], set[str]], VerseMatcher]
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
    return SearchHit(match.ref, match.score, f"**{match.matched}**" if match.matched else "")


def _mtime_ns(path: Path) -> int:
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return 0


def check_text(text: str, what: str, limit: int) -> str:
    if not text or not text.strip():
        raise InvalidInputError(f"{what} is empty; give some text to search for", parameter=what)
    if len(text) > limit:
        raise InvalidInputError(f"{what} is {len(text)} characters; the limit is {limit}", parameter=what)
    return text.strip()


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
    return models.Chapter(
        chapter_number=record.chapter_number,
        name=record.name,
        name_transliterated=record.name_transliterated,
        name_translation=record.name_translation,
        name_meaning=record.name_meaning,
        verses_count=record.verses_count,
        summary=record.summary,
        source=source,
        notes=notes,
    )


def _match_model(match: Match) -> models.VerseMatch:
    return models.VerseMatch(
        ref=str(match.ref),
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
        self.settings = settings
        self.store = GitaStore(settings.resolved_db_path())  # read-only on a read-only mount
        self._matcher_factory = matcher_factory
        self._matcher: VerseMatcher | None = None
        self._matcher_lock = threading.Lock()
        self._embedder_factory = embedder_factory or (
            question_embedder if settings.question_model else question.cached_embedder
        )
        self._questions: QuestionIndex | None = None
        self._questions_key: tuple[int, int] = (-1, -1)
        self._embedder: Embedder | None = None
        self._questions_lock = threading.Lock()
        self._terms: TermIndex | None = None
        self._terms_key = ""
        self._ranking: VerseRanking | None = None
        self._terms_lock = threading.Lock()
        self.background = background
        self.vector_build = VectorBuild()
        self._vector_thread: threading.Thread | None = None
        self._vector_lock = threading.Lock()

    def close(self) -> None:
        self.store.close()

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
        stored = self.store.verse(ref)
        if stored is None:
            try:
                stored = asyncio.run(self._fetch_verse(ref))
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
            raise SourceError(
                f"{ref} is not cached and the source failed ({exc}). {SEED_HINT} {SOURCE_HINT}"
            ) from exc
        try:
            self.store.save_verse(record)
        except sqlite3.OperationalError as exc:
            # A writable filesystem with a file that is not (permissions, chattr +i).
            if "readonly" not in str(exc):
                raise
            raise NotReadyError(
                f"{ref}'s translation is not cached, and the cache at {self.store.path} is read-only"
                " for this process: seed a writable copy (pramana gita seed --db FILE) and serve that"
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
                f"Search reads the translations, and none are cached yet (the cache at {self.store.path}"
                f" is empty). {SEED_HINT} {SOURCE_HINT} Lookups, fuzzy matching and transcript"
                " correction work without it."
            )
        notes = []
        if cached < VERSE_COUNT:
            notes.append(
                f"Only {cached} of {VERSE_COUNT} verses are cached, so results may be incomplete. {SEED_HINT}"
            )
        return cached, notes

    def search(self, query: str, max_results: int = 5, translator: str | None = None) -> models.SearchResult:
        query = check_text(query, "search query", MAX_QUERY_CHARS)
        if not 1 <= max_results <= 10:
            raise InvalidInputError("max_results must be between 1 and 10")
        chosen = resolve_translator(translator)
        cached, notes = self._require_cache()
        hits = []
        ranked = self.ranked(query, max_results)
        index = self.questions()
        ranking = self._ranking_used(index)
        if ranking == "words" and index.reads_as_english(query):  # a question, ranked by its words alone
            note = self._vectors_note(index)
            if note:
                notes.append(note)
        for hit in ranked:
            stored = self.store.verse(hit.ref)
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
        return models.SearchResult(
            query=query,
            results=hits,
            verses_cached=cached,
            ranking=ranking,
            vectors=self.vector_build.model(),
            notes=notes,
        )

    def _ranking_used(self, index: QuestionIndex) -> Literal["model", "static", "words"]:
        """Which question ranking answered: by meaning with the model's vectors, with the static
        table's, or by words alone; a missing model's vectors are then started in the background."""
        if index.semantic:
            return "model" if question.is_model(self.embedder()) else "static"
        if question.is_model(self.embedder()) and self.vector_build.state != "failed":
            self.start_vector_build()
        return "words"

    def _vectors_note(self, index: QuestionIndex) -> str | None:
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
        return index.note

    def ranked(self, query: str, limit: int) -> list[SearchHit]:
        """The verse ranking (ranking.py: the question ranking and the loose Sanskrit terms), the
        verses whose Sanskrit holds every word of the query raised by KEYWORD_WEIGHT and, for a query
        mostly of Sanskrit, the verse matcher's by QUOTE_WEIGHT when it is confident (a quote); when
        none finds anything, FTS5's or the matcher's (_by_words_or_sound)."""
        if not question.content_words(query) and not has_devanagari(query):
            return self._by_words_or_sound(query, limit)  # only question words ("what does it say")
        ranking = self.ranking()
        read = ranking.read(query)
        boosts = [
            (hit.ref, _boost(KEYWORD_WEIGHT, i))
            for i, hit in enumerate(self.store.search_sanskrit(query, limit))
        ]
        quoted: dict[VerseRef, str] = {}
        if read.share >= QUOTE_SHARE:
            quote = self.matcher().match(query, limit)
            if quote.confident:
                boosts += [(m.ref, _boost(QUOTE_WEIGHT, i)) for i, m in enumerate(quote.matches)]
                quoted = {m.ref: f"**{m.matched}**" for m in quote.matches if m.matched}
        answers = ranking.rank(query, limit, boosts, read) if read.known or boosts else []
        if not answers:
            return self._by_words_or_sound(query, limit, read.known)
        return [
            SearchHit(a.ref, a.score, quoted.get(a.ref, a.excerpt))  # type: ignore[arg-type,call-overload]
            for a in answers
        ]

    def _by_words_or_sound(self, query: str, limit: int, known: bool = False) -> list[SearchHit]:
        """FTS5's verses holding every word; else, for a quote whose words sandhi joined in the verse
        ("karmanye vadhikaraste" of karmaṇyevādhikāraste), the matcher's verses if it is confident;
        else FTS5's verses holding any word; else, for a query of words the texts know, the
        question ranking's by meaning or by its words alone, so that no such query finds nothing."""
        every_word = self.store.search_every_word(query, limit)
        if every_word:
            return every_word
        report = self.matcher().match(query, limit)
        if report.confident:
            return [_quote_hit(m) for m in report.matches]
        any_word = self.store.search_any_word(query, limit)
        if any_word or not (known or self.questions().semantic) or not question.content_words(query):
            return any_word
        return [
            SearchHit(a.ref, a.score, a.excerpt)
            for a in self.questions().search(query, limit, english_only=False)
        ]

    def questions(self) -> QuestionIndex:
        """The question index over the cached verses, rebuilt when the cache or its vectors change."""
        with self._questions_lock:
            key = (self.store.verse_count(), _mtime_ns(self.vector_path))
            if self._questions is None or key != self._questions_key:
                self._questions = self._question_index()
                self._questions_key = (key[0], _mtime_ns(self.vector_path))
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
                path = terms_path(self.store.path)
                refs = [ref for ref, _, _ in self.store.transliterations()]  # in term_sources' order
                terms = TermIndex.load(path, refs, signature)
                if terms is None:
                    terms = TermIndex(self.store.term_sources())
                    if not self.store.read_only:
                        try:
                            terms.save(path, signature)
                        except OSError as exc:  # a full disk: the index still serves from memory
                            log.warning("could not save the term index at %s: %s", path, exc)
                self._terms, self._terms_key = terms, signature
                work.settle_heap()
            return self._terms
        finally:
            self._terms_lock.release()

    def ranking(self) -> VerseRanking:
        """The verse ranking: the question index and the term index of the cached verses (in a
        server, without the term index while the background thread builds it)."""
        questions, terms = self.questions(), self.terms(wait=not self.background)
        ranking = self._ranking
        if ranking is None or ranking.questions is not questions or ranking.terms is not terms:
            ranking = self._ranking = VerseRanking(questions, terms)
        return ranking

    @property
    def vector_path(self) -> Path:
        return semantic.vectors_path(self.store.path)

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
        cache = semantic.VectorCache(self.vector_path, embedder)
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
        encoded = semantic.VectorCache(self.vector_path, embedder).build(texts, progress)
        if not encoded:
            return ""
        return (
            f"Encoded {encoded} texts for question search in {time.perf_counter() - started:.0f} s"
            f" ({self.vector_path.name})."
        )

    # -- fuzzy matching ----------------------------------------------------------------------

    def matcher(self) -> VerseMatcher:
        """The matcher over the packaged text of all 701 verses, built on first use."""
        with self._matcher_lock:
            if self._matcher is None:
                self._matcher = self._matcher_factory(packaged.indexed_verses(), packaged.english_words())
                work.settle_heap()
            return self._matcher

    def match(self, garbled: str, top_n: int = 3, translator: str | None = None) -> models.MatchResult:
        garbled = check_text(garbled, "garbled_sanskrit", MAX_GARBLED_CHARS)
        if not 1 <= top_n <= 5:
            raise InvalidInputError("top_n must be between 1 and 5")
        chosen = resolve_translator(translator)
        matcher = self.matcher()
        report = matcher.match(garbled, top_n)
        top = self._cached_or_sanskrit(report.matches[0].ref, chosen) if report.matches else None
        return models.MatchResult(
            query=report.query,
            matcher=matcher.name,
            confident=report.confident,
            threshold=matcher.threshold,
            matches=[_match_model(m) for m in report.matches],
            top_match=top,
            notes=list(report.notes),
        )

    def correct_transcript(self, text: str) -> models.TranscriptCorrection:
        """Find the Sanskrit quotes in a transcript; replace the confident ones, flag the unsure."""
        check_text(text, "transcript", MAX_TRANSCRIPT_CHARS)  # not stripped: spans index the input as sent
        matcher = self.matcher()
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
        )

    # -- chapters ----------------------------------------------------------------------------

    def chapter_summary(self, chapter: int) -> models.Chapter:
        """Fresh from the source (and cached); the cached copy, with a note, if the source fails."""
        check_chapter(chapter)
        try:
            record = asyncio.run(self._fetch_chapter(chapter))
        except (SourceError, NotFoundError) as exc:
            cached = self.store.chapter(chapter)
            if cached is None:
                raise SourceError(
                    f"chapter {chapter} could not be fetched ({exc}) and is not cached. {SEED_HINT}"
                ) from exc
            return _chapter_model(
                cached, "cache", [f"The source could not be reached ({exc}); this is the cached copy."]
            )
        if not self.store.read_only:
            self.store.save_chapter(record)
        return _chapter_model(record, "live", [])

    async def _fetch_chapter(self, chapter: int) -> ChapterRecord:
        async with self.source(retries=2) as source:
            return await source.chapter(chapter)

    # -- seeding -----------------------------------------------------------------------------

    def seed(self, progress: Progress | None = None) -> models.SeedResult:
        """Fetch every verse and chapter not yet cached: bounded concurrency, retries, resumable. It
        returns when the texts are stored: a server's service (`background`) then builds the
        question indexes and, with the embeddings extra, the question vectors in a thread of its own
        (start_vector_build); search answers by words meanwhile and says so.

        `progress(done, total, message)` is called as documents arrive. Under a call's work limit
        (pramana.work) seeding stops when the limit is reached; what was fetched stays cached.
        """
        self._require_writable("seeding writes the cache")
        result = asyncio.run(self._seed(progress))
        if result.fetched_verses:
            self.store.mark_misfiled()  # the texts were written as the source has them
        if result.verses_cached and self.background and self.start_vector_build():
            result = result.model_copy(update={"notes": [VECTORS_STARTED]})
        return result

    def start_vector_build(self) -> bool:
        """In a server (`background`), build the question and term indexes and encode the texts the
        vector file lacks in a thread of its own, one build at a time; True if one was started."""
        if not self.background or self.store.read_only or self.store.verse_count() == 0:
            return False
        with self._vector_lock:
            if self._vector_thread is not None and self._vector_thread.is_alive():
                return False
            if not question.is_model(self.embedder()):
                threading.Thread(target=self._warm_up, name="gita-warm-up", daemon=True).start()
                return False
            self.vector_build = VectorBuild(state="building")
            self._vector_thread = threading.Thread(
                target=self._build_vectors, name="gita-vectors", daemon=True
            )
            self._vector_thread.start()
            return True

    def wait_for_vectors(self, timeout: float | None = None) -> VectorBuild:
        """The background build's state once it has ended (or after `timeout` seconds)."""
        thread = self._vector_thread
        if thread is not None:
            thread.join(timeout)
        return self.vector_build

    def _warm_up(self) -> None:
        """The question index first (every question search needs it), then the term index, built in
        a process of its own (build_terms.py) while searches answer without it."""
        try:
            self.questions()
            with self._terms_lock:  # searches meanwhile: terms(wait=False) answers without it
                if self._terms is None or self._terms_key != self.store.content_signature():
                    try:
                        build_terms.build_in_subprocess(self.store.path)
                    except (RuntimeError, OSError, subprocess.SubprocessError) as exc:
                        log.warning("%s; building it in the server instead", exc)
            self.terms()  # loads the saved index (or builds it here if the process failed)
        except Exception:
            log.exception("building the gita search indexes in the background failed")

    def _build_vectors(self) -> None:
        started = time.perf_counter()
        build = self.vector_build

        def progress(done: int, total: int) -> None:
            build.done, build.total = done, total

        try:
            self._warm_up()  # the term index and the lexical ranking first: search answers by words
            verses = question.split_translations(self.store.english_texts())
            texts = [text for verse in verses for text in verse.dense_texts]
            embedder = self.embedder()
            assert embedder is not None
            cache = semantic.VectorCache(self.vector_path, embedder)
            build.total = len(cache.missing(texts))
            cache.build(texts, progress)
            self.questions()  # the ranking by meaning, built here rather than in a search
            build.state = "built"
        except Exception as exc:
            log.exception("building the gita question vectors failed")
            build.state, build.error = "failed", str(exc)
        finally:
            build.seconds = round(time.perf_counter() - started, 1)

    def _require_writable(self, why: str) -> None:
        if self.store.read_only:
            raise NotReadyError(
                f"{why}, and the cache at {self.store.path} is on a read-only filesystem: seed a writable"
                " copy (pramana gita seed --db FILE) and serve that"
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
            raise SourceUnreachableError(
                f"Cannot reach the Gita source {self.settings.api_url} ({exc}); nothing was fetched."
                f" {SOURCE_HINT} Lookups (the Sanskrit), fuzzy matching and transcript correction work"
                " without the seed."
            ) from exc
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
        if total:
            async with self.source() as source:
                limit = asyncio.Semaphore(self.settings.seed_concurrency)

                async def fetch(ref: VerseRef) -> tuple[VerseRef, object]:
                    async with limit:
                        try:
                            return ref, await source.verse(ref)
                        except PramanaError as exc:
                            return ref, exc

                tasks = [asyncio.ensure_future(fetch(ref)) for ref in missing]
                try:
                    for next_done in asyncio.as_completed(tasks):
                        ref, outcome = await next_done
                        if isinstance(outcome, PramanaError):
                            failures.append(models.SeedFailure(item=str(ref), error=str(outcome)))
                        else:
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
