import asyncio
import json

import pytest

from pramana.errors import InvalidInputError, NotFoundError, SourceError
from pramana.fetch import JsonSource
from pramana.gita.reference import VerseRef
from pramana.gita.source import GitaSource, parse_chapter, parse_verse
from tests.gita.faulty_server import faulty_server


def _doc(mirror, chapter, verse):
    return json.loads((mirror / "slok" / str(chapter) / str(verse) / "index.json").read_text("utf-8"))


def test_parse_verse_cleans_and_keeps_raw(gita_mirror):
    record = parse_verse(_doc(gita_mirror, 2, 47), VerseRef(2, 47))
    assert record.devanagari.startswith("कर्मण्येवाधिकारस्ते")
    assert record.transliteration.startswith("karmaṇyevādhikāraste")
    siva = next(t for t in record.texts if t.key == "siva" and t.field == "et")
    assert siva.text.startswith("Thy right is to work only")
    assert "prabhu" in {t.key for t in record.texts}
    assert "A.C. Bhaktivedanta Swami Prabhupada" in record.english_translations
    assert json.loads(record.raw_json)["_id"] == "BG2.47"


def test_18_45_keeps_only_prabhupadas_english(gita_mirror):
    record = parse_verse(_doc(gita_mirror, 18, 45), VerseRef(18, 45))
    assert list(record.english_translations) == ["A.C. Bhaktivedanta Swami Prabhupada"]
    assert all(t.numbered_for_other_verse for t in record.texts if t.key != "prabhu")


@pytest.mark.parametrize(
    "mutate",
    [
        lambda d: d.update(_id="BG2.48"),
        lambda d: d.update(verse=48),
        lambda d: d.pop("slok"),
        lambda d: d.update(transliteration=""),
        lambda d: d.update(siva="not an object"),
    ],
)
def test_parse_verse_rejects_wrong_shapes(gita_mirror, mutate):
    doc = _doc(gita_mirror, 2, 47)
    mutate(doc)
    with pytest.raises(SourceError, match=r"verse document for BG 2\.47"):
        parse_verse(doc, VerseRef(2, 47))


@pytest.mark.parametrize("doc", [[], "text", None, 3])
def test_parse_verse_rejects_non_objects(doc):
    with pytest.raises(SourceError, match="expected a JSON object"):
        parse_verse(doc, VerseRef(2, 47))


def test_parse_chapter(gita_mirror):
    doc = json.loads((gita_mirror / "chapter" / "2" / "index.json").read_text("utf-8"))
    chapter = parse_chapter(doc, 2)
    assert chapter.verses_count == 72
    assert chapter.name == "सांख्ययोग"
    assert chapter.name_meaning == "Transcendental Knowledge"
    assert "Sankhya Yoga" in chapter.summary
    with pytest.raises(SourceError):
        parse_chapter(doc, 3)


def test_source_location_must_be_url_or_directory(tmp_path):
    with pytest.raises(InvalidInputError, match="neither"):
        JsonSource(str(tmp_path / "missing"))
    with pytest.raises(InvalidInputError, match="empty"):
        JsonSource("  ")


def test_directory_source(gita_mirror):
    async def run():
        async with GitaSource(str(gita_mirror)) as source:
            verse = await source.verse(VerseRef(15, 7))
            chapters = await source.chapters()
            with pytest.raises(NotFoundError):
                await source.json.get("slok/2/99")
        return verse, chapters

    verse, chapters = asyncio.run(run())
    assert verse.transliteration.startswith("mamaivāṃśo")
    assert [c.verses_count for c in chapters][12] == 35


def test_http_source_decodes_utf8_served_as_text_html(mirror_url):
    async def run():
        async with GitaSource(mirror_url) as source:
            return await source.verse(VerseRef(2, 47))

    assert asyncio.run(run()).devanagari.startswith("कर्मण्येवाधिकारस्ते")


def test_http_source_follows_redirects_and_reports_404(gita_mirror):
    server, _ = faulty_server(gita_mirror)

    async def run():
        async with JsonSource(server.url + "/moved") as source:
            doc = await source.get("slok/2/47")
            with pytest.raises(NotFoundError, match="404"):
                await source.get("slok/2/99")
        return doc

    with server:
        assert asyncio.run(run())["_id"] == "BG2.47"


@pytest.mark.parametrize("behaviour", ["500", "503", "truncate", "not-json"])
def test_transient_failures_are_retried(gita_mirror, behaviour):
    server, plan = faulty_server(gita_mirror)
    plan.once["/slok/2/47/"] = [behaviour, behaviour]

    async def run():
        async with JsonSource(server.url, retries=3, timeout=2) as source:
            return await source.get("slok/2/47")

    with server:
        assert asyncio.run(run())["_id"] == "BG2.47"
    assert plan.requests["/slok/2/47/"] == 3


def test_persistent_failure_says_what_happened(gita_mirror):
    server, plan = faulty_server(gita_mirror)
    plan.always["/slok/2/47/"] = "hang"

    async def run():
        async with JsonSource(server.url, retries=2, timeout=0.3) as source:
            await source.get("slok/2/47")

    with server, pytest.raises(SourceError, match="failed after 2 attempts: timed out"):
        asyncio.run(run())


def test_http_source_over_a_plain_static_server_falls_back_to_index_json(gita_mirror):
    """`python -m http.server` over a copy whose index.html links became files serves junk for
    the directory URL; the client then asks for index.json and keeps doing so."""
    from tests.conftest import LoopbackServer, StaticHandler

    async def run():
        async with JsonSource(server.url) as source:
            return [await source.get(f"slok/2/{verse}") for verse in (47, 48)]

    with LoopbackServer(StaticHandler, gita_mirror) as server:
        docs = asyncio.run(run())
    assert [d["_id"] for d in docs] == ["BG2.47", "BG2.48"]
