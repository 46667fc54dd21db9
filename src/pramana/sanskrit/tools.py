"""The `sanskrit` MCP server: the four tools of the sanskrit-dictionary spec."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp_types import CallToolResult
from pydantic import Field

from pramana.mcp.calls import tool_call
from pramana.mcp.tools import READ_ONLY, Readiness, result
from pramana.sanskrit import format, models
from pramana.sanskrit.service import (
    INSTALL_HINT,
    MAX_LIMIT,
    MAX_QUERY_CHARS,
    MAX_TRANSLITERATE_CHARS,
    SanskritService,
    transliterate,
)

# A search asking for more hits than this goes to a worker process at once (each hit is glossed).
MANY_RESULTS = 100


def tools(server: MCPServer, service: Callable[[], SanskritService]) -> None:
    """Add the sanskrit tools to `server`; `service()` opens the dictionaries (once)."""

    @server.tool(annotations=READ_ONLY)
    # a thousand hits, each with its gloss; sandhi splits of a long group
    @tool_call(heavy=True, at_once=lambda call: call.get("limit", 0) > MANY_RESULTS)
    def sanskrit_search(
        query: Annotated[
            str, Field(description="A word in any script or scheme", max_length=MAX_QUERY_CHARS)
        ],
        mode: Annotated[
            str,
            Field(
                description="exact | prefix | fuzzy (substring of headwords) | reverse (article full text)",
                max_length=20,
            ),
        ] = "exact",
        dict_codes: Annotated[
            list[Annotated[str, Field(max_length=20)]] | None,
            Field(
                description="Dictionary codes to search, e.g. ['mw', 'ap90']; all if omitted", max_length=50
            ),
        ] = None,
        limit: Annotated[int, Field(ge=1, le=MAX_LIMIT, description="Most results to return")] = 50,
    ) -> Annotated[CallToolResult, models.SearchResult]:
        """Search headwords (exact, prefix, fuzzy) or article text (reverse) across installed dictionaries;
        one hit per headword per dictionary, with a one-line gloss and its number of senses. An exact
        search of an inflected form (rāmeṇa, gacchati) gives its lemma's articles with `analyses`;
        otherwise a loose match (diacritics, vowel length, sibilants, nasals folded) with did_you_mean;
        failing that, words joined by sandhi (tasyāham, caiva) give their lemmas' articles with `splits`.
        Prefix and fuzzy add loose-spelling matches after the rest. Use article_id with
        sanskrit_get_article."""
        found = service().search(query, mode, dict_codes, limit)
        return result(format.search_markdown(found), found, omit_none=True)

    @server.tool(annotations=READ_ONLY)
    @tool_call()
    def sanskrit_analyze_word(
        word: Annotated[
            str,
            Field(description="An inflected word as met in a text, any script", max_length=MAX_QUERY_CHARS),
        ],
        dict_codes: Annotated[
            list[Annotated[str, Field(max_length=20)]] | None,
            Field(description="Dictionaries whose articles to point to; all if omitted", max_length=50),
        ] = None,
    ) -> Annotated[CallToolResult, models.WordAnalysis]:
        """What an inflected form is: its stem or root and every grammatical reading (rāmeṇa →
        instrumental singular (m.) of rāma; gacchati → present 3rd singular of gam), with the lemma's
        article ids. Forms come from an index generated offline with vidyut.prakriya. A word that is no
        form but words joined by sandhi gives `splits` (tasyāham → tasya + aham, each analysed)."""
        analysed = service().analyze(word, dict_codes)
        return result(format.analysis_markdown(analysed), analysed, omit_none=True)

    @server.tool(annotations=READ_ONLY)
    @tool_call()
    def sanskrit_list_dictionaries() -> Annotated[CallToolResult, models.DictionaryList]:
        """The installed dictionaries: code, name, languages, description, year, entry count, licence."""
        listed = service().list_dictionaries()
        return result(format.dictionaries_markdown(listed), listed)

    @server.tool(annotations=READ_ONLY)
    @tool_call()
    def sanskrit_get_article(
        article_id: Annotated[str, Field(description="From sanskrit_search, e.g. 'ap90:100'", max_length=64)],
        script: Annotated[
            Literal["iast", "devanagari"], Field(description="Script for Sanskrit in the article")
        ] = "iast",
    ) -> Annotated[CallToolResult, models.ArticleResult]:
        """One dictionary article as clean markdown, with its headword, dictionary and page reference."""
        article = service().get_article(article_id, script)
        return result(format.article_markdown(article), article)

    @server.tool(annotations=READ_ONLY)
    @tool_call()
    def sanskrit_transliterate(
        text: Annotated[str, Field(description="Text to convert", max_length=MAX_TRANSLITERATE_CHARS)],
        direction: Annotated[
            str | None,
            Field(description="iast_to_deva or deva_to_iast (the spec's directions)", max_length=20),
        ] = None,
        source: Annotated[
            str | None,
            Field(
                description="iast, devanagari, slp1, hk, itrans or velthuis; detected if omitted",
                max_length=20,
            ),
        ] = None,
        target: Annotated[
            str | None, Field(description="iast, devanagari, slp1, hk, itrans or velthuis", max_length=20)
        ] = None,
    ) -> Annotated[CallToolResult, models.TransliterationResult]:
        """Convert Sanskrit between scripts and schemes. Give `direction`, or `source`/`target`."""
        converted = transliterate(text, direction, source, target)
        return result(format.transliteration_markdown(converted), converted)


def readiness(service: SanskritService) -> Readiness:
    """Ready once a dictionary is installed."""
    listed = service.list_dictionaries()
    codes = ", ".join(d.code for d in listed.dictionaries)
    if not codes:
        return Readiness(ready=False, detail=f"no dictionaries installed. {INSTALL_HINT}")
    return Readiness(ready=True, detail=f"{len(listed.dictionaries)} dictionaries: {codes}")
