"""The books over MCP stdio with the SDK's client: install_books with progress notifications, then
every tool across the three books, each result naming its book, and errors that say what exists."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks._mcp_client import stdio_session

pytestmark = [pytest.mark.anyio, pytest.mark.data]


@pytest.fixture
def anyio_backend():
    return "asyncio"


async def test_install_then_every_tool_across_the_books(
    tmp_path: Path, seeded_copy: Path, scripture_archive, mirror_url
):
    updates: list[tuple[float, float | None, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        updates.append((progress, total, message))

    env = {
        "VEDABASE_DB_PATH": str(seeded_copy),
        "VEDABASE_API_URL": mirror_url,
        "VEDABASE_BOOKS_SOURCE": str(scripture_archive),
    }
    async with stdio_session(["-m", "pramana", "serve", "gita"], env) as session:
        tools = {tool.name: tool for tool in (await session.list_tools()).tools}
        before = await session.call_tool("lookup_verse", {"reference": "SB 1.2.6"})
        installed = await session.call_tool("install_books", {}, progress_callback=on_progress)
        again = await session.call_tool("install_books", {"books": ["sb"]})
        joined = await session.call_tool("lookup_verse", {"reference": "SB 10.1.6"})
        wrong = await session.call_tool("lookup_verse", {"reference": "SB 1.2.35"})
        chapter = await session.call_tool("get_chapter", {"chapter": "CC Madhya 20"})
        matched = await session.call_tool(
            "fuzzy_match_verse", {"garbled_sanskrit": "sa vai pumsam paro dharmo yato bhaktir adhokshaje"}
        )
        filtered = await session.call_tool(
            "fuzzy_match_verse", {"garbled_sanskrit": "sa vai pumsam paro dharmo", "books": ["bg"]}
        )
        searched = await session.call_tool(
            "search_verses", {"query": "dharmah projjhita kaitavo", "books": ["SB"]}
        )
        corrected = await session.call_tool(
            "correct_transcript",
            {"text": "He quoted sa vai pumsam paro dharmo yato bhaktir adhokshaje today."},
        )
        gita = await session.call_tool("lookup_verse", {"reference": "BG 2.47"})

    assert {"get_chapter", "install_books"} <= set(tools)
    assert tools["install_books"].annotations.read_only_hint is False
    assert tools["fuzzy_match_verse"].input_schema["properties"]["books"]
    assert before.is_error and "pramana gita install sb" in before.content[0].text
    assert not installed.is_error, installed.content
    books = installed.structured_content["books"]
    assert [(b["book"], b["verses"], b["installed_now"]) for b in books] == [
        ("SB", 14_090, True),
        ("CC", 11_555, True),
    ]
    assert str(scripture_archive) not in installed.content[0].text  # the server's paths stay on the server
    assert installed.structured_content["source"] == "a local copy"
    messages = {message for _, _, message in updates}
    assert len(updates) >= 5 and {"writing SB", "writing CC", "installed"} <= messages
    assert again.structured_content["books"][0]["installed_now"] is False
    assert joined.structured_content["ref"] == "SB 10.1.5-7" and joined.structured_content["book"] == "SB"
    assert "SB 10.1.6 is part of SB 10.1.5-7" in joined.content[0].text
    assert wrong.is_error and "SB 1.2 has 34 verses" in wrong.content[0].text
    assert chapter.structured_content["verse_count"] == 406 and chapter.content[0].text.startswith(
        "## CC Madhya 20"
    )
    top = matched.structured_content["matches"][0]
    assert matched.structured_content["confident"] and (top["ref"], top["book"]) == ("SB 1.2.6", "SB")
    assert all(m["book"] == "BG" for m in filtered.structured_content["matches"])
    assert searched.structured_content["results"][0]["ref"] == "SB 1.1.2"
    assert "(SB 1.2.6)" in corrected.structured_content["corrected"]
    assert corrected.structured_content["spans"][0]["book"] == "SB"
    assert gita.structured_content["translation"]["author_key"] == "prabhu"
