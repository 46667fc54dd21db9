"""The `pali` MCP server: the Digital Pāḷi Dictionary's tools for agents."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp_types import CallToolResult
from pydantic import Field

from pramana.mcp.calls import tool_call
from pramana.mcp.tools import READ_ONLY, Readiness, result
from pramana.pali import format, models
from pramana.pali.service import (
    MAX_MEANING_LIMIT,
    MAX_SENTENCE_CHARS,
    MAX_WORD_CHARS,
    PaliService,
)
from pramana.pali.service import transliterate_pali as convert_script

Script = Literal["roman", "sinhala", "thai", "myanmar", "devanagari"]


def tools(server: MCPServer, service: Callable[[], PaliService]) -> None:
    """Add the pali tools to `server`; `service()` opens DPD (once)."""

    @server.tool(annotations=READ_ONLY)
    @tool_call(heavy=True)  # sandhi splits of apostrophed words
    def get_grammatical_details(
        sentence: Annotated[
            str, Field(description="A Pāḷi sentence, any script", max_length=MAX_SENTENCE_CHARS)
        ],
    ) -> Annotated[CallToolResult, models.SentenceAnalysis]:
        """Analyse every word of a Pāḷi sentence with DPD: for each token, status found/not_found and the
        candidate headwords (id, lemma_1, pos, grammar, meaning_combo, family_root, root_key,
        construction) with what this form is (readings, e.g. 'masc nom sg'), plus sandhi splits. A word
        that came earlier in the sentence has same_as (the position of its first occurrence) instead."""
        found = service().analyze(sentence)
        return result(format.sentence_markdown(found), found)

    @server.tool(annotations=READ_ONLY)
    @tool_call(heavy=True)  # sandhi splits of apostrophed words
    def lookup_pali_word(
        word: Annotated[str, Field(description="One Pāḷi word, any script", max_length=MAX_WORD_CHARS)],
    ) -> Annotated[CallToolResult, models.WordResult]:
        """Everything DPD knows about one form: its headwords in full (meanings, construction, root with
        its dpd_roots details, examples), splits, spellings and variants; roots and abbreviations too."""
        found = service().lookup_word(word)
        return result(format.word_markdown(found), found)

    @server.tool(annotations=READ_ONLY)
    @tool_call()
    def search_pali_meaning(
        english: Annotated[str, Field(description="English words, e.g. 'mindfulness'", max_length=500)],
        limit: Annotated[int, Field(ge=1, le=MAX_MEANING_LIMIT, description="Most headwords to return")] = 10,
    ) -> Annotated[CallToolResult, models.MeaningSearch]:
        """English to Pāḷi: headwords whose meanings contain all the words, best match first."""
        found = service().search_meaning(english, limit)
        return result(format.meaning_markdown(found), found)

    @server.tool(annotations=READ_ONLY)
    @tool_call()
    def transliterate_pali(
        text: Annotated[str, Field(description="Pāḷi text", max_length=MAX_SENTENCE_CHARS)],
        target: Annotated[Script, Field(description="Script to write it in")],
        source: Annotated[Script | None, Field(description="Script it is in; detected if omitted")] = None,
    ) -> Annotated[CallToolResult, models.PaliTransliteration]:
        """Convert Pāḷi between Roman, Sinhala, Thai, Myanmar and Devanāgarī scripts."""
        converted = convert_script(text, target, source)
        return result(format.transliteration_markdown(converted), converted)


def readiness(service: PaliService) -> Readiness:
    """Ready with a DPD database that has headwords."""
    count = service.store.headword_count()
    return Readiness(ready=count > 0, detail=f"{count} headwords")
