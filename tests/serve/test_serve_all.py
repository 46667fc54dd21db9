"""`pramana serve all` serves every server that can run and says which it left out, and why."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pytest

from benchmarks._http_server import running_server
from benchmarks._mcp_client import http_session, stdio_session
from tests.conftest import run_pramana
from tests.serve.conftest import wait_ready

NO_REPOSITORY = {"PRAMANA_CODE_REPO": "", "PRAMANA_CODE_DB": ""}  # empty counts as unset
WHY_NOT_CODE = "no repository (give --repo PATH or PRAMANA_CODE_REPO)"


def tool_names_over_http(url: str) -> set[str]:
    async def listed() -> set[str]:
        async with http_session(url) as session:
            return {tool.name for tool in (await session.list_tools()).tools}

    return asyncio.run(listed())


def test_all_without_a_repository_serves_the_others_and_is_ready(all_data: dict[str, str]):
    with running_server(["all"], {**all_data, **NO_REPOSITORY}) as server:
        ready = wait_ready(server)
        health = httpx.get(server.base + "/health").json()
        tools = tool_names_over_http(server.mcp_url)
        notices = [entry for entry in server.logs() if entry.get("event") == "not_served"]
    assert ready["ready"] is True
    assert list(ready["servers"]) == health["servers"] == ["gita", "sanskrit", "pali"]
    assert ready["not_served"] == {"code": WHY_NOT_CODE}
    assert [(entry["server"], entry["message"]) for entry in notices] == [
        ("code", f"code: not served: {WHY_NOT_CODE}")
    ]
    assert {"lookup_verse", "sanskrit_search", "lookup_pali_word"} <= tools
    assert "search_code" not in tools


def test_a_missing_database_is_served_and_reported_not_ready(all_data: dict[str, str], tmp_path: Path):
    # No data is no reason to leave a server out: it answers with how to get some.
    missing = {"SANSKRIT_DB_PATH": str(tmp_path / "sanskrit.db"), "DPD_DB_PATH": str(tmp_path / "dpd.db")}
    with running_server(["all"], {**all_data, **NO_REPOSITORY, **missing}) as server:
        response = httpx.get(server.base + "/ready")
    body = response.json()
    assert response.status_code == 503 and body["ready"] is False
    assert body["servers"]["gita"]["ready"] is True
    assert body["servers"]["sanskrit"]["ready"] is False
    assert "pramana sanskrit install" in body["servers"]["sanskrit"]["detail"]
    assert body["servers"]["pali"]["ready"] is False
    assert "pramana pali build" in body["servers"]["pali"]["detail"]
    assert body["not_served"] == {"code": WHY_NOT_CODE}


def test_all_over_stdio_says_on_stderr_what_it_left_out(all_data: dict[str, str], tmp_path: Path):
    async def session() -> tuple[set[str], bool]:
        with (tmp_path / "stderr.txt").open("w") as errlog:
            env = {**all_data, **NO_REPOSITORY}
            async with stdio_session(["-m", "pramana", "serve", "all"], env, errlog=errlog) as client:
                tools = {tool.name for tool in (await client.list_tools()).tools}
                answer = await client.call_tool("lookup_verse", {"reference": "BG 2.47"})
                return tools, answer.is_error

    tools, failed = asyncio.run(session())
    assert not failed and "lookup_verse" in tools and "search_code" not in tools
    stderr = (tmp_path / "stderr.txt").read_text().splitlines()
    assert stderr.count(f"code: not served: {WHY_NOT_CODE}") == 1


@pytest.mark.parametrize("args", [["code"], ["gita", "code"], ["code", "--transport", "http", "--port", "0"]])
def test_a_server_named_without_its_configuration_is_one_clear_error(args: list[str], tmp_path: Path):
    done = run_pramana("serve", *args, env={**NO_REPOSITORY, "PRAMANA_DATA_DIR": str(tmp_path)}, timeout=60)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [f"error: cannot serve code: {WHY_NOT_CODE}"]
