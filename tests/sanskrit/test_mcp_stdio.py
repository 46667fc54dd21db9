"""End to end: the SDK's client talks to `pramana serve sanskrit` over stdio."""

from collections.abc import Iterator
from pathlib import Path

import pytest

from benchmarks._mcp_client import SessionThread, stdio_session

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.fixture(scope="module")
def forms_server(forms_db: Path) -> Iterator[SessionThread]:
    """One `serve sanskrit` over the forms database for the tests that only call its tools (a server
    process spends over a second of CPU importing the MCP SDK)."""
    args, env = ["-m", "pramana", "serve", "sanskrit"], {"SANSKRIT_DB_PATH": str(forms_db)}
    opened = SessionThread(lambda: stdio_session(args, env))
    yield opened
    opened.close()


async def test_the_four_tools(sanskrit_db):
    async with stdio_session(
        ["-m", "pramana", "serve", "sanskrit"], {"SANSKRIT_DB_PATH": str(sanskrit_db)}
    ) as s:
        tools = {t.name: t for t in (await s.list_tools()).tools}
        search = await s.call_tool("sanskrit_search", {"query": "krishna"})
        reverse = await s.call_tool("sanskrit_search", {"query": "betelnut", "mode": "reverse", "limit": 3})
        article = await s.call_tool("sanskrit_get_article", {"article_id": "ap90:100"})
        listed = await s.call_tool("sanskrit_list_dictionaries", {})
        converted = await s.call_tool(
            "sanskrit_transliterate", {"text": "kṛṣṇa", "direction": "iast_to_deva"}
        )
        bad_mode = await s.call_tool("sanskrit_search", {"query": "deva", "mode": "nope"})
        bad_id = await s.call_tool("sanskrit_get_article", {"article_id": "ap90:0"})
        bad_limit = await s.call_tool("sanskrit_search", {"query": "deva", "limit": 5000})
    assert set(tools) == {
        "sanskrit_search", "sanskrit_list_dictionaries", "sanskrit_get_article", "sanskrit_transliterate",
        "sanskrit_analyze_word",
    }  # fmt: skip
    assert all(t.annotations.read_only_hint and t.output_schema for t in tools.values())
    assert search.structured_content["did_you_mean"][0] == "kṛṣṇa"
    assert "Did you mean: kṛṣṇa" in search.content[0].text
    assert reverse.structured_content["truncated"] is True
    assert all(hit["snippet"] for hit in reverse.structured_content["results"])
    assert all("snippet" not in hit for hit in search.structured_content["results"])  # only in reverse mode
    assert search.structured_content["matched_by"] == "loose"
    assert article.structured_content["headword"] == "akeśa"
    assert "Hairless, bald" in article.content[0].text
    assert listed.structured_content["count"] == 4
    assert converted.structured_content["result"] == "कृष्ण"
    assert bad_mode.is_error and "exact, prefix, fuzzy, reverse" in bad_mode.content[0].text
    assert bad_id.is_error and "not found" in bad_id.content[0].text
    assert bad_limit.is_error and "1000" in bad_limit.content[0].text


def test_inflected_forms_and_glosses_over_stdio(forms_server: SessionThread):
    analysed = forms_server.call(lambda s: s.call_tool("sanskrit_analyze_word", {"word": "rāmeṇa"}))
    searched = forms_server.call(lambda s: s.call_tool("sanskrit_search", {"query": "gacchati"}))
    prefixed = forms_server.call(
        lambda s: s.call_tool("sanskrit_search", {"query": "krishn", "mode": "prefix"})
    )
    empty = forms_server.call(lambda s: s.call_tool("sanskrit_analyze_word", {"word": " "}))
    assert analysed.structured_content["analyses"][0]["lemma"] == "rāma"
    assert "rāmeṇa: instrumental singular (m., n.) of rāma" in analysed.content[0].text
    assert searched.structured_content["matched_by"] == "form"
    text = searched.content[0].text  # also cases of the present participle gacchat
    assert "gacchati: present 3rd singular or present participle" in text and " of gam →" in text
    assert searched.structured_content["results"][0]["gloss"].startswith("(gácchati")
    first = prefixed.structured_content["results"][0]
    assert (first["word"], first["loose"]) == ("kṛṣṇa", True)
    assert empty.is_error and "word is empty" in empty.content[0].text


async def test_missing_database_is_reported_on_the_first_call(tmp_path):
    async with stdio_session(
        ["-m", "pramana", "serve", "sanskrit"], {"SANSKRIT_DB_PATH": str(tmp_path / "x.db")}
    ) as s:
        result = await s.call_tool("sanskrit_list_dictionaries", {})
    assert result.is_error and "pramana sanskrit install" in result.content[0].text


def test_words_joined_by_sandhi_over_stdio(forms_server: SessionThread):
    analysed = forms_server.call(lambda s: s.call_tool("sanskrit_analyze_word", {"word": "tasyāham"}))
    searched = forms_server.call(lambda s: s.call_tool("sanskrit_search", {"query": "नास्ति"}))
    split = analysed.structured_content["splits"][0]
    assert [part["word"] for part in split["parts"]] == ["tasya", "aham"]
    assert split["parts"][1]["analyses"][0]["lemma"] == "asmad"
    assert "tasyāham: tasya (genitive singular" in analysed.content[0].text
    assert searched.structured_content["matched_by"] == "sandhi"
    assert {"na", "as"} <= {hit["word"] for hit in searched.structured_content["results"]}
    assert "nāsti: na (indeclinable na) + asti (present 3rd singular" in searched.content[0].text
