"""End to end: the SDK's client talks to `pramana serve pali` over stdio."""

import pytest

from benchmarks._mcp_client import stdio_session

pytestmark = pytest.mark.anyio
SUTTA_OPENING = (
    "Evaṃ me sutaṃ—ekaṃ samayaṃ bhagavā sāvatthiyaṃ viharati jetavane anāthapiṇḍikassa ārāme. "
    "Tatra kho bhagavā bhikkhū āmantesi: “bhikkhavo”ti. “Bhadante”ti te bhikkhū bhagavato paccassosuṃ."
)
DHAMMAPADA_211 = (
    "Tasmā piyaṃ na kayirātha, piyāpāyo hi pāpako; Ganthā tesaṃ na vijjanti, yesaṃ natthi piyāppiyaṃ."
)


@pytest.fixture
def anyio_backend():
    return "asyncio"


async def test_the_four_tools(dpd_db):
    async with stdio_session(["-m", "pramana", "serve", "pali"], {"DPD_DB_PATH": str(dpd_db)}) as s:
        tools = {t.name: t for t in (await s.list_tools()).tools}
        sutta = await s.call_tool("get_grammatical_details", {"sentence": SUTTA_OPENING})
        verse = await s.call_tool("get_grammatical_details", {"sentence": DHAMMAPADA_211})
        word = await s.call_tool("lookup_pali_word", {"word": "bhikkhave"})
        meaning = await s.call_tool("search_pali_meaning", {"english": "fire", "limit": 3})
        thai = await s.call_tool("transliterate_pali", {"text": "evaṃ me sutaṃ", "target": "thai"})
        empty = await s.call_tool("get_grammatical_details", {"sentence": "  "})
        punctuation = await s.call_tool("get_grammatical_details", {"sentence": "“…”!"})
        huge = await s.call_tool("get_grammatical_details", {"sentence": "evaṃ " * 2001})
        bad_script = await s.call_tool("transliterate_pali", {"text": "evaṃ", "target": "klingon"})
    assert set(tools) == {
        "get_grammatical_details",
        "lookup_pali_word",
        "search_pali_meaning",
        "transliterate_pali",
    }
    assert all(t.annotations.read_only_hint and t.output_schema for t in tools.values())
    tokens = sutta.structured_content["tokens"]
    assert [t["word"] for t in tokens][:3] == ["evaṃ", "me", "sutaṃ"]
    quoted = next(t for t in tokens if t["word"] == "bhikkhavo'ti")  # “bhikkhavo”ti: one word, joined
    assert (
        quoted["deconstruction"][0]["split"] == "bhikkhavo + iti" and quoted["deconstruction"][0]["rank"] == 1
    )
    assert all(t["status"] == "found" for t in tokens), [t["word"] for t in tokens if t["status"] != "found"]
    first = tokens[0]["candidates"][0]
    assert {
        "id",
        "lemma_1",
        "pos",
        "grammar",
        "meaning_combo",
        "family_root",
        "root_key",
        "construction",
    } <= set(first)
    by_word = {t["word"]: t for t in verse.structured_content["tokens"]}
    assert 46228 in {c["id"] for c in by_word["piyāpāyo"]["candidates"]}
    assert "masc nom pl" in {r for c in by_word["ganthā"]["candidates"] for r in c["readings"]}
    assert "tasmā" in verse.content[0].text and "found" in verse.content[0].text
    assert word.structured_content["status"] == "found"
    assert meaning.structured_content["results"][0]["lemma_1"] == "aggi"
    assert thai.structured_content["result"] == "เอวํ เม สุตํ"
    assert empty.is_error and "empty" in empty.content[0].text
    assert punctuation.is_error and "no words" in punctuation.content[0].text
    assert huge.is_error and "10000" in huge.content[0].text.replace(",", "")
    assert bad_script.is_error


async def test_missing_database_is_reported_with_how_to_get_one(tmp_path):
    async with stdio_session(
        ["-m", "pramana", "serve", "pali"], {"DPD_DB_PATH": str(tmp_path / "x.db")}
    ) as s:
        result = await s.call_tool("get_grammatical_details", {"sentence": "evaṃ me sutaṃ"})
    assert result.is_error and "pramana pali build" in result.content[0].text
    assert "pramana pali download" in result.content[0].text
