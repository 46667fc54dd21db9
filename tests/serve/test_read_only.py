"""A read-only replica: every server's data on a real read-only mount, served as it is."""

from __future__ import annotations

import hashlib
from pathlib import Path

import anyio
import httpx
import pytest

from benchmarks._http_server import running_server
from benchmarks._mcp_client import http_session
from tests.conftest import read_only_mount, run_pramana
from tests.serve.conftest import all_data_env, stage_all_data, wait_ready


def _digests(folder: Path) -> dict[str, str]:
    return {
        str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


@pytest.fixture
def replica(tmp_path: Path, seeded_db: Path, sanskrit_db: Path, dpd_db: Path):
    """Every server's finished data (as install, seed, build and index leave it) on a read-only mount."""
    volume = tmp_path / "volume"
    repo = stage_all_data(volume, seeded_db, sanskrit_db, dpd_db)
    indexed = run_pramana("code", "index", str(repo), "--db", str(volume / "code.db"), "--embedder", "none")
    assert indexed.returncode == 0, indexed.stderr
    before = _digests(volume)
    with read_only_mount(volume, tmp_path / "mnt") as mounted:
        yield mounted
    assert _digests(volume) == before  # nothing was written, not even a journal


def test_all_four_servers_answer_from_a_read_only_mount(replica: Path, mirror_url: str):
    with running_server(["all"], all_data_env(replica, mirror_url)) as server:
        readiness = wait_ready(server, timeout=30)
        assert readiness["ready"], readiness
        assert "read-only" in readiness["servers"]["code"]["detail"]

        async def calls() -> dict[str, str]:
            answers = {}
            async with http_session(server.mcp_url) as session:
                for tool, arguments in (
                    ("lookup_verse", {"reference": "BG 2.47"}),
                    ("search_verses", {"query": "karma"}),
                    ("get_chapter_summary", {"chapter": 2}),
                    ("sanskrit_search", {"query": "agni"}),
                    ("get_grammatical_details", {"sentence": "buddhaṃ saraṇaṃ gacchāmi"}),
                    ("search_code", {"query": "cart total discount"}),
                    ("get_file", {"path": "billing/cart.py"}),
                ):
                    answer = await session.call_tool(tool, arguments)
                    assert not answer.is_error, (tool, answer.content[0].text)
                    answers[tool] = answer.content[0].text
                missing = await session.call_tool("seed_database", {})
                assert missing.is_error and "read-only filesystem" in missing.content[0].text
            return answers

        answers = anyio.run(calls)
        assert "karmaṇy" in answers["lookup_verse"].lower()
        assert "cart_total" in answers["search_code"]
        assert httpx.get(server.base + "/health").status_code == 200
