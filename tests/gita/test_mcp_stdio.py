"""End to end: the SDK's client talks to `pramana serve gita` over real stdio."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from benchmarks._mcp_client import stdio_session

pytestmark = pytest.mark.anyio

TOOLS = {
    "lookup_verse",
    "search_verses",
    "fuzzy_match_verse",
    "get_chapter_summary",
    "seed_database",
    "correct_transcript",
    "get_chapter",  # and install_books (issue 27: SB and CC)
    "install_books",
}


@pytest.fixture
def anyio_backend():
    return "asyncio"


def env(db: Path, url: str) -> dict[str, str]:
    return {"VEDABASE_DB_PATH": str(db), "VEDABASE_API_URL": url}


async def test_tools_are_listed_with_schemas_and_hints(seeded_copy, mirror_url):
    async with stdio_session(["-m", "pramana", "serve", "gita"], env(seeded_copy, mirror_url)) as session:
        tools = {tool.name: tool for tool in (await session.list_tools()).tools}
    assert set(tools) == TOOLS
    for name in TOOLS - {"seed_database", "install_books"}:
        assert tools[name].annotations.read_only_hint is True
    assert tools["seed_database"].annotations.read_only_hint is False
    for tool in tools.values():
        assert tool.output_schema and tool.output_schema["type"] == "object"
        assert tool.description
    assert tools["lookup_verse"].input_schema["required"] == ["reference"]
    assert tools["search_verses"].input_schema["properties"]["max_results"]["maximum"] == 10
    assert tools["fuzzy_match_verse"].input_schema["properties"]["top_n"]["default"] == 3
    assert tools["get_chapter_summary"].input_schema["properties"]["chapter"]["maximum"] == 18


async def test_every_tool_answers_text_and_structure(seeded_copy, mirror_url):
    async with stdio_session(["-m", "pramana", "serve", "gita"], env(seeded_copy, mirror_url)) as session:
        verse = await session.call_tool("lookup_verse", {"reference": "BG 2.47"})
        search = await session.call_tool("search_verses", {"query": "karmanyevadhikaraste", "max_results": 3})
        match = await session.call_tool(
            "fuzzy_match_verse", {"garbled_sanskrit": "man manā bhava mad-bhākto mad-yajī mam namāskuru"}
        )
        chapter = await session.call_tool("get_chapter_summary", {"chapter": 2})
        seed = await session.call_tool("seed_database", {})
        translated = await session.call_tool(
            "lookup_verse", {"reference": "18.45", "translator": "Sivananda"}
        )
        unsure = await session.call_tool(
            "fuzzy_match_verse", {"garbled_sanskrit": "om namo bhagavate vasudevaya"}
        )
        corrected = await session.call_tool(
            "correct_transcript",
            {"text": "Krishna says sarva dharman parityajya mam ekam sharanam vraja, so."},
        )

    for result in (verse, search, match, chapter, seed, translated, unsure, corrected):
        assert not result.is_error, result.content
    text = verse.content[0].text
    assert text.startswith("## BG 2.47")
    assert "**Sanskrit:**\nकर्मण्येवाधिकारस्ते" in text
    assert "**Transliteration:**\n_karmaṇyevādhikāraste" in text
    assert "You have a right to perform your prescribed duty" in text
    assert "[Read on Vedabase](https://vedabase.io/en/library/bg/2/47/)" in text
    assert verse.structured_content["translation"]["author_key"] == "prabhu"
    assert search.structured_content["results"][0]["ref"] == "BG 2.47"
    assert "BG 2.47" in search.content[0].text
    assert match.structured_content["matches"][0]["ref"] == "BG 9.34"
    assert match.structured_content["confident"] is True
    assert (
        match.structured_content["matches"][0]["matched"] == "manmanā bhava madbhakto madyājī māṃ namaskuru"
    )
    assert "**Confident match: BG 9.34**" in match.content[0].text
    assert unsure.structured_content["confident"] is False
    assert "No confident match" in unsure.content[0].text
    assert corrected.structured_content["replaced"] == 1
    assert corrected.structured_content["spans"][0]["ref"] == "BG 18.66"
    assert "_sarvadharmānparityajya māmekaṃ śaraṇaṃ vraja_ (BG 18.66), so." in corrected.content[0].text
    assert "### Top match: BG 9.34" in match.content[0].text
    assert chapter.structured_content["verses_count"] == 72
    assert chapter.structured_content["source"] == "live"
    assert seed.structured_content["complete"] is True
    assert seed.structured_content["fetched_verses"] == 0
    assert "belongs to another verse" in translated.structured_content["notes"][0]
    assert "> Note:" in translated.content[0].text


BAD_CALLS = [
    ("lookup_verse", {"reference": "BG 2.47 trailing"}, "BG 2.47"),
    ("lookup_verse", {"reference": "BG 2.99"}, "verses 1-72"),
    ("lookup_verse", {"reference": ""}, "empty"),
    ("lookup_verse", {"reference": "2" * 5000}, "at most 100"),
    ("lookup_verse", {"reference": "2.47", "translator": "nobody"}, "unknown translator"),
    ("lookup_verse", {}, "reference"),
    ("get_chapter_summary", {"chapter": 19}, "chapter must be at most 18 (got 19)"),
    ("get_chapter_summary", {"chapter": "two"}, "chapter must be a whole number (got 'two')"),
    ("search_verses", {"query": ""}, "empty"),
    ("search_verses", {"query": "karma", "max_results": 50}, "max_results must be at most 10 (got 50)"),
    ("search_verses", {"query": "x" * 10_000}, "at most 500"),
    ("fuzzy_match_verse", {"garbled_sanskrit": "   "}, "empty"),
    ("fuzzy_match_verse", {"garbled_sanskrit": "karma", "top_n": 9}, "top_n must be at most 5 (got 9)"),
]


async def test_bad_calls_are_errors_that_say_what_is_accepted(seeded_copy, mirror_url):
    async with stdio_session(["-m", "pramana", "serve", "gita"], env(seeded_copy, mirror_url)) as session:
        for tool, arguments, message in BAD_CALLS:
            result = await session.call_tool(tool, arguments)
            assert result.is_error, (tool, arguments)
            assert message in result.content[0].text, (tool, arguments, result.content[0].text)
            assert "Traceback" not in result.content[0].text
            assert "pydantic" not in result.content[0].text and "\n" not in result.content[0].text
        still_fine = await session.call_tool("lookup_verse", {"reference": "2.47"})
    assert not still_fine.is_error


async def test_seed_over_mcp_reports_progress(tmp_path, mirror_url):
    updates: list[tuple[float, float | None, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        updates.append((progress, total, message))

    async with stdio_session(
        ["-m", "pramana", "serve", "gita"], env(tmp_path / "c.db", mirror_url)
    ) as session:
        empty = await session.call_tool("search_verses", {"query": "karma"})
        seeded = await session.call_tool("seed_database", {}, progress_callback=on_progress)
        found = await session.call_tool("search_verses", {"query": "karma"})
    assert empty.is_error and "seed_database" in empty.content[0].text
    assert seeded.structured_content["verses_cached"] == 701
    assert len(updates) >= 10
    assert updates[-1][0] == updates[-1][1] == 702
    assert not found.is_error


@pytest.mark.parametrize(
    "launch",
    [
        ["-m", "vedabase_mcp"],
        ["vedabase-mcp"],
    ],
)
async def test_spec_launch_lines_start_the_gita_server(seeded_copy, mirror_url, launch):
    if launch[0] == "vedabase-mcp":
        script = shutil.which("vedabase-mcp", path=str(Path(sys.executable).parent))
        assert script, "the vedabase-mcp console script is not installed"
        command, args = script, []
    else:
        command, args = sys.executable, launch
    async with stdio_session(args, env(seeded_copy, mirror_url), command=command) as session:
        result = await session.call_tool("lookup_verse", {"reference": "bg 15-7"})
    assert result.structured_content["ref"] == "BG 15.7"


async def test_before_any_seed_and_offline_the_sanskrit_tools_answer(tmp_path):
    from tests.gita.faulty_server import closed_port_url

    fresh = env(tmp_path / "fresh" / "cache.db", closed_port_url())
    async with stdio_session(["-m", "pramana", "serve", "gita"], fresh) as session:
        verse = await session.call_tool("lookup_verse", {"reference": "BG 2.47"})
        match = await session.call_tool(
            "fuzzy_match_verse", {"garbled_sanskrit": "man manā bhava mad-bhākto mad-yajī mam namāskuru"}
        )
        corrected = await session.call_tool(
            "correct_transcript",
            {"text": "Krishna says sarva dharman parityajya mam ekam sharanam vraja, so."},
        )
        search = await session.call_tool("search_verses", {"query": "karma"})
        seed = await session.call_tool("seed_database", {})
    assert not verse.is_error and verse.structured_content["translation"] is None
    assert "saṅgo'stvakarmaṇi ||2-47||" in verse.structured_content["transliteration"]
    assert "VEDABASE_API_URL" in verse.content[0].text and "pramana gita seed" in verse.content[0].text
    assert not match.is_error and match.structured_content["matches"][0]["ref"] == "BG 9.34"
    assert not corrected.is_error and "(BG 18.66)" in corrected.structured_content["corrected"]
    assert search.is_error and "seed_database" in search.content[0].text
    assert (
        seed.is_error
        and "VEDABASE_API_URL" in seed.content[0].text
        and "Traceback" not in seed.content[0].text
    )


def _processes_with(marker: str) -> list[str]:
    """The command lines of the processes whose environment holds `marker` (the server and anything
    it started)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and marker.encode() in (entry / "environ").read_bytes():
                found.append((entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace"))
        except OSError:  # gone, or not ours to read
            continue
    return found


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="reads /proc")
async def test_stdio_runs_heavy_calls_in_the_server_without_worker_processes(seeded_copy, mirror_url):
    """One client over stdio: a long transcript correction starts no worker processes (seconds and
    ~240 MB for nothing to keep apart)."""
    marker = f"PRAMANA_TEST_MARKER={seeded_copy}"
    environment = {**env(seeded_copy, mirror_url), "PRAMANA_TEST_MARKER": str(seeded_copy)}
    transcript = "Krishna says karmaṇy evādhikāras te mā phaleṣu kadācana, so work. " * 400
    async with stdio_session(["-m", "pramana", "serve", "gita"], environment) as session:
        result = await session.call_tool("correct_transcript", {"text": transcript})
        assert not result.is_error, result.content
        assert result.structured_content["replaced"] >= 1
        # The server, and no worker: the pool's processes are started by multiprocessing (forkserver
        # or spawn). The warm-up's term-index builder (`pramana.gita.build_terms`, a process of its
        # own on purpose) may still run on a busy machine and is not a worker (CI saw a second process).
        processes = _processes_with(marker)
        assert sum("pramana serve gita" in p for p in processes) == 1, processes
        assert not [p for p in processes if "multiprocessing" in p], processes
