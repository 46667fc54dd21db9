"""The attacks found against the HTTP server (issue 31), each reproduced and refused:

- a session used or ended by a caller other than the one that opened it (another token);
- session ids written whole to the server's log;
- `GET /mcp` with `Last-Event-ID` (answered 500 with an empty body);
- `/health`, `/ready` and `/health/` without the Host check (DNS rebinding; a redirect to any Host);
- absolute server paths in what a remote client reads (tool errors, /ready).

benchmarks/attacks.py runs the same attacks, and the earlier ones, against any live server.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from benchmarks._http_server import RunningServer, running_server
from benchmarks._mcp_client import http_session
from tests.conftest import run_pramana
from tests.serve.conftest import INITIALIZE, MCP_HEADERS, OTHER_TOKEN, TOKEN

PROTOCOL = {"Mcp-Protocol-Version": "2025-06-18"}
PING = {"jsonrpc": "2.0", "id": 5, "method": "ping"}
LIST_TOOLS = {"jsonrpc": "2.0", "id": 6, "method": "tools/list"}
ABSOLUTE_PATH = re.compile(r"(?<![\w.:/])/(?:[\w.-]+/)+[\w.-]+")


def bearer(token: str) -> dict[str, str]:
    return {**MCP_HEADERS, **PROTOCOL, "Authorization": f"Bearer {token}"}


def open_session(server: RunningServer, token: str | None = None) -> str:
    headers = bearer(token) if token else MCP_HEADERS
    opened = httpx.post(server.mcp_url, json=INITIALIZE, headers=headers)
    assert opened.status_code == 200, opened.text
    session = opened.headers["mcp-session-id"]
    note = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    headers = {**headers, **PROTOCOL, "Mcp-Session-Id": session}
    assert httpx.post(server.mcp_url, json=note, headers=headers).status_code == 202
    return session


# -- a session belongs to the caller that opened it ---------------------------------------------------


def test_another_token_can_neither_use_nor_end_a_session(token_server: RunningServer):
    session = open_session(token_server, TOKEN)
    owner = {**bearer(TOKEN), "Mcp-Session-Id": session}
    intruder = {**bearer(OTHER_TOKEN), "Mcp-Session-Id": session}
    used = httpx.post(token_server.mcp_url, json=LIST_TOOLS, headers=intruder)
    ended = httpx.delete(token_server.mcp_url, headers=intruder)
    listened = httpx.get(token_server.mcp_url, headers={**intruder, "Accept": "text/event-stream"})
    unknown = httpx.post(token_server.mcp_url, json=PING, headers={**intruder, "Mcp-Session-Id": "f" * 32})
    # Answered exactly as an unknown session is: the intruder learns nothing, not even that it exists.
    assert used.status_code == ended.status_code == listened.status_code == unknown.status_code == 404
    assert used.json() == unknown.json()
    still = httpx.post(token_server.mcp_url, json=PING, headers=owner)
    assert still.status_code == 200 and '"id":5' in still.text  # the owner's session lives on
    assert httpx.delete(token_server.mcp_url, headers=owner).status_code == 200
    assert httpx.post(token_server.mcp_url, json=PING, headers=owner).status_code == 404


def test_another_token_cannot_post_into_an_sse_session(token_server: RunningServer):
    with httpx.Client(timeout=30) as client:
        owner = {"Authorization": f"Bearer {TOKEN}"}
        with client.stream("GET", token_server.base + "/sse", headers=owner) as stream:
            lines = stream.iter_lines()  # kept: an abandoned iterator would close the stream
            endpoint = next(line for line in lines if line.startswith("data:"))[5:].strip()
            messages = token_server.base + endpoint
            intruder = {"Authorization": f"Bearer {OTHER_TOKEN}", "Content-Type": "application/json"}
            refused = client.post(messages, json=INITIALIZE, headers=intruder)
            accepted = client.post(messages, json=INITIALIZE, headers={**intruder, **owner})
    assert refused.status_code == 404
    assert accepted.status_code == 202


def test_the_log_never_holds_a_whole_session_id(token_server: RunningServer):
    session = open_session(token_server, TOKEN)
    intruder = {**bearer(OTHER_TOKEN), "Mcp-Session-Id": session}
    assert httpx.post(token_server.mcp_url, json=PING, headers=intruder).status_code == 404
    httpx.delete(token_server.mcp_url, headers={**bearer(TOKEN), "Mcp-Session-Id": session})
    deadline = time.monotonic() + 10
    while session[:8] not in "\n".join(token_server.log_lines) and time.monotonic() < deadline:
        time.sleep(0.05)  # the log is written by a thread of its own
    text = "\n".join(token_server.log_lines)
    assert session[:8] in text  # the log still lets an operator follow a session...
    assert session[8:] not in text  # ...without handing out its id


# -- Last-Event-ID --------------------------------------------------------------------------------------


@pytest.mark.parametrize("known_session", [True, False])
def test_resuming_with_last_event_id_is_a_clean_4xx(all_server: RunningServer, known_session: bool):
    session = open_session(all_server) if known_session else "0" * 32
    headers = {**MCP_HEADERS, **PROTOCOL, "Accept": "text/event-stream", "Mcp-Session-Id": session}
    response = httpx.get(all_server.mcp_url, headers={**headers, "Last-Event-ID": "42"}, timeout=10)
    assert 400 <= response.status_code < 500
    assert response.json()["error"]["message"]  # a JSON-RPC error that says what to do, never empty
    assert httpx.get(all_server.base + "/health").status_code == 200


# -- Host checks on every route -------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/health", "/ready", "/health/", "/ready/", "/nothing-here"])
def test_every_route_checks_the_host(all_server: RunningServer, path: str):
    rebound = httpx.get(all_server.base + path, headers={"Host": "rebound.example:80"})
    assert rebound.status_code == 421
    assert "version" not in rebound.text and "servers" not in rebound.text
    cross_site = httpx.get(all_server.base + path, headers={"Origin": "http://evil.example"})
    assert cross_site.status_code == 403


def test_a_redirect_names_no_host(all_server: RunningServer):
    redirected = httpx.get(all_server.base + "/health/", headers={"Host": f"localhost:{all_server.port}"})
    assert redirected.status_code in (301, 307, 308)
    assert redirected.headers["location"] == "/health"


# -- no server path in a remote client's answer ---------------------------------------------------------


@pytest.fixture(scope="module")
def broken_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[RunningServer, Path]]:
    """gita with an empty cache and no reachable source, sanskrit and pali without their databases, in a
    folder whose path is easy to spot; a remote client must not learn it."""
    folder = tmp_path_factory.mktemp("private-server-folder")
    env = {
        "VEDABASE_DB_PATH": str(folder / "gita.db"),
        "VEDABASE_API_URL": "http://127.0.0.1:9",
        "SANSKRIT_DB_PATH": str(folder / "sanskrit.db"),
        "DPD_DB_PATH": str(folder / "dpd.db"),
    }
    with running_server(["gita", "sanskrit", "pali"], env) as server:
        yield server, folder


def test_tool_errors_and_readiness_name_no_server_path(broken_server: tuple[RunningServer, Path]):
    server, folder = broken_server

    async def calls() -> list[tuple[bool, str]]:
        async with http_session(server.mcp_url) as session:
            answers = [
                await session.call_tool("seed_database", {}),
                await session.call_tool("search_verses", {"query": "dharma"}),
                await session.call_tool("sanskrit_search", {"query": "agni"}),
                await session.call_tool("lookup_pali_word", {"word": "dhamma"}),
            ]
        return [(answer.is_error, answer.content[0].text) for answer in answers]

    answers = asyncio.run(calls())
    ready = httpx.get(server.base + "/ready")
    assert ready.status_code == 503
    said = [text for _, text in answers] + [ready.text]
    assert all(is_error for is_error, _ in answers), answers
    for text in said:
        assert str(folder) not in text and "private-server-folder" not in text, text
        assert ABSOLUTE_PATH.search(text) is None, text
    # What the file is still shows, by its name: the agent (and its user) can tell which one to fix.
    assert any("…/gita.db" in text for text in said) and any("…/sanskrit.db" in text for text in said)
    time.sleep(0.2)
    assert str(folder) in "\n".join(server.log_lines)  # the operator's log keeps the whole path


def test_local_users_still_see_the_whole_path(tmp_path):
    missing = tmp_path / "nowhere" / "sanskrit.db"
    done = run_pramana("sanskrit", "search", "agni", "--db", str(missing))
    assert done.returncode == 2 and str(missing) in done.stderr
