"""The `gita` MCP server: the five tools of the vedabase-mcp spec."""

from __future__ import annotations

from typing import Annotated

from mcp.server.mcpserver import Context, MCPServer
from mcp_types import CallToolResult, ToolAnnotations
from pydantic import Field

from pramana.config import GitaSettings
from pramana.gita import format, models
from pramana.gita.reference import MAX_REFERENCE_LENGTH
from pramana.gita.service import (
    MAX_GARBLED_CHARS,
    MAX_QUERY_CHARS,
    MAX_TRANSCRIPT_CHARS,
    SEED_HINT,
    VERSE_COUNT,
    GitaService,
)
from pramana.mcp.calls import progress_reporter, tool_call
from pramana.mcp.tools import READ_ONLY, Readiness, ReadinessCheck, result

NAME = "vedabase"
INSTRUCTIONS = """Bhagavad Gita lookup from the vedicscriptures dataset (701 verses, 18 chapters, 22
translators and commentators). Use lookup_verse for a known reference, search_verses for questions,
words or topics, fuzzy_match_verse for Sanskrit garbled by a transcript. The Sanskrit of every verse
ships with the server, so lookups, matching and transcript correction work at once; translations are
cached as they are looked up. If search says the cache is empty, call seed_database once."""

Translator = Annotated[
    str | None,
    Field(
        description="Author key or name, e.g. 'prabhu' (default), 'siva', 'Gambirananda', 'Shankaracharya'",
        max_length=100,
    ),
]

SEED = ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=True, openWorldHint=True)


# Seeding fetches 719 documents; a stopped seed keeps what it fetched, and the next one resumes.
SEED_DEADLINE_S = 900.0
# A lookup that misses the cache, and a chapter summary, wait for the source (with retries).
FETCH_DEADLINE_S = 30.0


def register(server: MCPServer, settings: GitaSettings | None = None) -> ReadinessCheck:
    """Add the gita tools to `server`; returns its readiness check (verses cached)."""
    service = GitaService(settings or GitaSettings.load(), background=True)

    @server.tool(annotations=READ_ONLY)
    @tool_call(FETCH_DEADLINE_S)
    def lookup_verse(
        reference: Annotated[
            str,
            Field(
                description="Verse reference: 'BG 2.47', '2:47', 'bg 15-7', 'Bhagavad Gita 9.34'",
                max_length=MAX_REFERENCE_LENGTH,
            ),
        ],
        translator: Translator = None,
    ) -> Annotated[CallToolResult, models.Verse]:
        """Fetch one Bhagavad Gita verse by reference: Devanāgarī, IAST transliteration, a translation
        (Prabhupada's unless `translator` names another author) and its vedabase.io link. With the
        translation not cached and the source unreachable, the Sanskrit alone, with a note."""
        verse = service.lookup(reference, translator)
        return result(format.verse_markdown(verse), verse)

    @server.tool(annotations=READ_ONLY)
    @tool_call()
    def search_verses(
        query: Annotated[
            str,
            Field(
                description="Words to find, in English, Hindi, IAST or ASCII Sanskrit, or Devanāgarī",
                max_length=MAX_QUERY_CHARS,
            ),
        ],
        max_results: Annotated[int, Field(ge=1, le=10, description="How many verses, 1-10")] = 5,
        translator: Translator = None,
    ) -> Annotated[CallToolResult, models.SearchResult]:
        """Search all cached verses, best first: a question in plain English ('how can I control my
        restless mind?'), keywords, or Sanskrit with or without diacritics, joined or not
        ('karmanyevadhikaraste', 'karmanye vadhikaraste', 'krishna') or in Devanāgarī. Needs
        seed_database once."""
        found = service.search(query, max_results, translator)
        return result(format.search_markdown(found), found)

    @server.tool(annotations=READ_ONLY)
    @tool_call(heavy=True)  # 2,000 characters of garble are scored against every verse
    def fuzzy_match_verse(
        garbled_sanskrit: Annotated[
            str,
            Field(
                description="Sanskrit as a transcript wrote it, e.g. 'man manā bhava mad-bhākto'",
                max_length=MAX_GARBLED_CHARS,
            ),
        ],
        top_n: Annotated[int, Field(ge=1, le=5, description="How many candidates, 1-5")] = 3,
        translator: Translator = None,
    ) -> Annotated[CallToolResult, models.MatchResult]:
        """Identify the verse that garbled or phonetic Sanskrit (from lecture transcripts) comes from.
        Returns ranked candidates with scores in [0, 1], the words of the verse each matched, and the top
        one in full. `confident` is true only when the top match is reliable; otherwise treat the
        candidates as guesses. Works over all 701 verses without seed_database."""
        matched = service.match(garbled_sanskrit, top_n, translator)
        return result(format.match_markdown(matched), matched)

    @server.tool(annotations=READ_ONLY)
    @tool_call(heavy=True)  # a megabyte of transcript is seconds of CPU
    def correct_transcript(
        text: Annotated[
            str,
            Field(
                description="Lecture transcript: English with garbled Sanskrit quotes (max 1,000,000 chars)",
                max_length=MAX_TRANSCRIPT_CHARS,
            ),
        ],
    ) -> Annotated[CallToolResult, models.TranscriptCorrection]:
        """Find the Bhagavad Gita quotes in a transcript and correct them: each confident quote is replaced
        by the verse's words in IAST and its reference, e.g. '_karmaṇyevādhikāraste_ (BG 2.47)'; unsure ones
        are flagged in place ('[unsure: BG 2.47?]') and never replaced. Also lists every span found."""
        corrected = service.correct_transcript(text)
        return result(format.transcript_markdown(corrected), corrected)

    @server.tool(annotations=READ_ONLY)
    @tool_call(FETCH_DEADLINE_S)
    def get_chapter_summary(
        chapter: Annotated[int, Field(ge=1, le=18, description="Chapter number, 1-18")],
    ) -> Annotated[CallToolResult, models.Chapter]:
        """Chapter name (Sanskrit and English), meaning, verse count and summary. Fetched fresh from the
        source; the cached copy is served, with a note, when the source cannot be reached."""
        chapter_info = service.chapter_summary(chapter)
        return result(format.chapter_markdown(chapter_info), chapter_info)

    @server.tool(annotations=SEED)
    @tool_call(SEED_DEADLINE_S, lane="long")
    def seed_database(ctx: Context) -> Annotated[CallToolResult, models.SeedResult]:
        """Download all 701 verses and 18 chapters into the local cache. Resumable and idempotent:
        only what is missing is fetched, so run it again after a failure. Reports progress. Returns
        when the texts are stored; with the embeddings extra the server then encodes them in the
        background so that search_verses ranks questions by meaning (each search says how it ranked)."""

        seeded = service.seed(progress_reporter(ctx))
        return result(format.seed_markdown(seeded), seeded)

    def readiness() -> Readiness:
        cached = service.store.verse_count()
        if cached == 0:
            # The packaged Sanskrit answers lookups and matching; only search needs the seed.
            return Readiness(
                ready=True, detail=f"no translations cached yet (search needs them). {SEED_HINT}"
            )
        return Readiness(ready=True, detail=f"{cached} of {VERSE_COUNT} verses cached")

    return readiness


def main() -> None:
    """Run the gita server on stdio (`vedabase-mcp`); bad settings are one line on stderr, exit 2."""
    import sys

    from pramana.errors import PramanaError
    from pramana.mcp.servers import build

    try:
        served = build(["gita"])
    except PramanaError as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(2)
    served.server.run("stdio")
