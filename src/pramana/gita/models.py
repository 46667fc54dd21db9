"""Typed results of the gita tools (the tools' outputSchema)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field


class Translation(BaseModel):
    author_key: str = Field(description="Dataset key of the author, e.g. 'prabhu'")
    author: str
    language: Literal["English", "Hindi", "Sanskrit"]
    kind: Literal["translation", "commentary"]
    text: str


BOOK = Field(
    default="BG", description="The book: BG (Bhagavad-gītā), SB (Śrīmad-Bhāgavatam), CC (Caitanya-caritāmṛta)"
)


class Verse(BaseModel):
    ref: str = Field(description="Canonical reference, e.g. 'BG 2.47', 'SB 10.1.5-7', 'CC Ādi 17.31'")
    book: str = BOOK
    book_name: str = "Bhagavad-gītā"
    division: str | None = Field(default=None, description="SB's canto or CC's līlā ('10', 'Madhya')")
    chapter: int
    verse: int = Field(description="The (first) verse number")
    verse_numbers: list[int] = Field(
        default_factory=list, description="Every verse number this text holds: [5, 6, 7] for SB 10.1.5-7"
    )
    devanagari: str = Field(
        description="Devanāgarī (the Gītā); empty for SB and CC, whose source has IAST only"
    )
    transliteration: str = Field(description="IAST")
    translation: Translation | None
    synonyms: str | None = Field(default=None, description="Word-for-word meanings, where the cache has them")
    vedabase_url: str
    notes: list[str] = Field(default_factory=list, description="Fallbacks and data caveats")


class SearchHit(BaseModel):
    ref: str
    book: str = BOOK
    score: float = Field(description="BM25 relevance; higher is better")
    transliteration: str
    translation_excerpt: str | None
    matched_excerpt: str = Field(description="Where the words matched, with **highlights**")
    vedabase_url: str


class VectorProgress(BaseModel):
    state: Literal["building", "built", "failed"] = Field(
        description="The background build of the vectors for ranking questions by meaning"
    )
    encoded: int = Field(description="Texts encoded so far")
    total: int = Field(description="Texts to encode")
    seconds: float = Field(description="How long the build took (0 while it runs)")
    error: str | None = None


class SearchResult(BaseModel):
    query: str
    results: list[SearchHit]
    verses_cached: int
    books: list[str] = Field(default_factory=lambda: ["BG"], description="The books searched")
    ranking: Literal["model", "static", "words"] = Field(
        default="words",
        description="How questions were ranked: by meaning with the model's vectors and by words ('model'),"
        " with the static embedding table's ('static'), or by words alone ('words': no embeddings"
        " extra, or the vectors are still being built)",
    )
    vectors: VectorProgress | None = Field(
        default=None, description="The background build of the question vectors, once one has started"
    )
    notes: list[str] = Field(default_factory=list)


class VerseMatch(BaseModel):
    ref: str
    book: str = BOOK
    score: float = Field(ge=0, le=1, description="Similarity of the quote to the matched part of the verse")
    matched: str = Field(description="The words of the verse the quote matched (line or span, IAST)")
    line: str = Field(description="The verse line the match lies in (IAST)")
    transliteration: str = Field(description="The whole verse (IAST)")
    vedabase_url: str
    also_in: list[str] = Field(
        default_factory=list,
        description="Every other verse whose text holds the matched words, in book order (a refrain, a"
        " speaker's line such as 'śrī-śuka uvāca', a verse one book quotes from another)",
    )
    recurs: int = Field(0, description="How many other verses hold the matched words (also_in lists 1,000)")


class MatchResult(BaseModel):
    given: str = Field(default="", description="The input as given")
    query: str = Field(description="The part of the input that was matched (filler words trimmed)")
    matcher: str
    confident: bool = Field(
        description="True only when the top match is reliable enough to replace the quote without review"
    )
    threshold: float = Field(description="Minimum top score for confidence")
    books: list[str] = Field(default_factory=lambda: ["BG"], description="The books matched against")
    matches: list[VerseMatch]
    top_match: Verse | None = Field(description="The best match in full, with its translation")
    notes: list[str] = Field(default_factory=list)


class Chapter(BaseModel):
    chapter_number: int
    name: str = Field(description="Sanskrit name in Devanāgarī")
    name_transliterated: str
    name_translation: str
    name_meaning: str = Field(description="English meaning")
    verses_count: int
    summary: str
    source: Literal["live", "cache"] = Field(description="'cache' when the source could not be reached")
    fetched_at: str | None = Field(
        default=None, description="When this copy was fetched from the source (UTC, 'YYYY-MM-DD HH:MM:SS')"
    )
    age_days: float | None = Field(default=None, description="How old this copy is, in days (0 when live)")
    notes: list[str] = Field(default_factory=list)


class SeedFailure(BaseModel):
    item: str = Field(description="'BG 2.47' or 'chapters'")
    error: str


class SeedResult(BaseModel):
    verses_cached: int
    verses_expected: int
    chapters_cached: int
    fetched_verses: int
    fetched_chapters: int
    failures: list[SeedFailure]
    complete: bool
    seconds: float
    source: str
    notes: list[str] = Field(default_factory=list)


class TranscriptSpan(BaseModel):
    start: int = Field(description="Character offset of the span in the input")
    end: int
    original: str
    status: Literal["replaced", "flagged", "ignored"] = Field(
        description="replaced: confident; flagged: a plausible but unsure match, left as it was and marked;"
        " ignored: too unlike any verse to be a Gita quote"
    )
    confident: bool
    ref: str | None = Field(description="The best match, if any")
    book: str | None = Field(default=None, description="The best match's book")
    score: float | None
    correct_transliteration: str | None = Field(description="The verse's words the span quotes (IAST)")
    candidates: list[str] = Field(description="Up to 3 candidate references, best first")


class TranscriptCorrection(BaseModel):
    corrected: str = Field(
        description="The transcript with confident quotes replaced and unsure ones flagged"
    )
    spans: list[TranscriptSpan]
    replaced: int
    flagged: int
    words: int
    seconds: float
    books: list[str] = Field(
        default_factory=lambda: ["BG"], description="The books quotes were matched against"
    )
    notes: list[str] = Field(
        default_factory=list, description="Books not installed, whose quotes could not be found"
    )


class ChapterVerse(BaseModel):
    ref: str
    verse_numbers: list[int]
    transliteration: str = Field(description="IAST")
    translation: str | None = Field(description="Where the cache has one")
    vedabase_url: str


class ChapterVerses(BaseModel):
    ref: str = Field(description="'BG 2', 'SB 1.2', 'CC Madhya 20'")
    book: str = BOOK
    book_name: str
    division: str | None = Field(description="SB's canto or CC's līlā")
    chapter: int
    verse_count: int = Field(description="Verses counted by number (a joined text counts each)")
    text_count: int = Field(description="Texts: a joined verse (SB 10.1.5-7) is one")
    title: str | None = Field(description="The chapter's name, where known (the Gītā's, once cached)")
    verses: list[ChapterVerse]
    vedabase_url: str
    notes: list[str] = Field(default_factory=list)


class InstalledBookInfo(BaseModel):
    book: str
    name: str
    verses: int = Field(description="Verses counted by number")
    texts: int = Field(description="Texts as upstream keys them (joined verses are one)")
    chapters: int
    translations: int = Field(description="Texts with a translation in this cache")
    version: str = Field(description="Upstream's commit")
    installed_at: str
    fixed: dict[str, int] = Field(default_factory=dict, description="Upstream quirks repaired, by kind")
    installed_now: bool = Field(description="False when it was installed already (nothing was done)")


class InstallResult(BaseModel):
    books: list[InstalledBookInfo]
    source: str = Field(description="Where the books were read from (a local path shows as 'a local copy')")
    downloaded_bytes: int
    seconds: float
    notes: list[str] = Field(default_factory=list)
