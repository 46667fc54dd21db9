"""`pramana serve ... --transport http`: the real server process, real SDK clients over HTTP and SSE."""

from __future__ import annotations

import asyncio
import json
import signal
import time

import httpx
import pytest

from benchmarks._http_server import RunningServer, running_server
from benchmarks._mcp_client import http_session, sse_session
from pramana.mcp.servers import SERVER_NAMES, build
from tests.conftest import run_pramana
from tests.serve.conftest import INITIALIZE, MCP_HEADERS, OTHER_TOKEN, TOKEN, wait_ready


def tool_counts(tmp_path) -> dict[str, int]:
    from pramana.config import CodeSettings, GitaSettings, PaliSettings, SanskritSettings

    settings = {
        "gita": GitaSettings(db_path=tmp_path / "g.db"),
        "sanskrit": SanskritSettings(db_path=tmp_path / "s.db"),
        "pali": PaliSettings(db_path=tmp_path / "p.db"),
        "code": CodeSettings(db_path=tmp_path / "c.db", embedder="none"),
    }
    counts = {name: len(asyncio.run(build([name], settings).server.list_tools())) for name in SERVER_NAMES}
    counts["all"] = len(asyncio.run(build(list(SERVER_NAMES), settings).server.list_tools()))
    return counts


def test_all_serves_every_tool_of_every_server_once(tmp_path):
    counts = tool_counts(tmp_path)
    assert counts["all"] == sum(counts[name] for name in SERVER_NAMES) == 27  # gita: 8 with the books


def test_health_and_ready_report_each_server(all_server: RunningServer):
    health = httpx.get(all_server.base + "/health")
    assert health.status_code == 200
    assert health.json()["status"] == "ok" and health.json()["servers"] == list(SERVER_NAMES)
    ready = wait_ready(all_server)
    assert ready["ready"] is True
    assert set(ready["servers"]) == set(SERVER_NAMES) and ready["not_served"] == {}
    assert ready["servers"]["gita"]["detail"] == "701 of 701 verses cached"
    assert ready["servers"]["code"]["detail"].startswith("2 files indexed")


def test_streamable_http_client_calls_every_server(all_server: RunningServer):
    async def calls() -> dict[str, str]:
        async with http_session(all_server.mcp_url) as session:
            tools = {tool.name for tool in (await session.list_tools()).tools}
            assert {"lookup_verse", "sanskrit_search", "get_grammatical_details", "search_code"} <= tools
            answers = {
                "gita": await session.call_tool("lookup_verse", {"reference": "BG 2.47"}),
                "sanskrit": await session.call_tool("sanskrit_search", {"query": "agni"}),
                "pali": await session.call_tool("lookup_pali_word", {"word": "dhamma"}),
                "code": await session.call_tool("search_code", {"query": "cart total discount"}),
            }
            assert not any(answer.is_error for answer in answers.values())
            return {name: json.dumps(a.structured_content, ensure_ascii=False) for name, a in answers.items()}

    answers = asyncio.run(calls())
    assert "karmaṇy" in answers["gita"]
    assert "agni" in answers["sanskrit"]
    assert "dhamma" in answers["pali"]
    assert "billing/cart.py" in answers["code"]


def test_legacy_sse_client_calls_a_tool(all_server: RunningServer):
    async def call() -> str:
        async with sse_session(all_server.base + "/sse") as session:
            answer = await session.call_tool("get_chapter_summary", {"chapter": 2})
            assert not answer.is_error
            return json.dumps(answer.structured_content, ensure_ascii=False)

    assert "Sankhya" in asyncio.run(call()) or "Contents" in asyncio.run(call())


def test_tool_errors_reach_the_client_as_errors_over_http(all_server: RunningServer):
    async def call():
        async with http_session(all_server.mcp_url) as session:
            return await session.call_tool("lookup_verse", {"reference": "BG 19.1"})

    answer = asyncio.run(call())
    assert answer.is_error
    assert "chapters 1-18" in answer.content[0].text


def test_every_request_is_logged_as_json_with_its_request_id(all_server: RunningServer):
    given = httpx.get(all_server.base + "/health", headers={"X-Request-Id": "trace-42"})
    assert given.headers["x-request-id"] == "trace-42"
    forged = httpx.get(all_server.base + "/health", headers={"X-Request-Id": "bad id; fake=1"})
    made = forged.headers["x-request-id"]
    assert made != "bad id; fake=1" and len(made) == 32
    time.sleep(0.2)
    entries = all_server.logs()  # raises if any line is not JSON
    requests = [entry for entry in entries if entry.get("event") == "request"]
    assert {"trace-42", made} <= {entry["request_id"] for entry in requests}
    assert all({"method", "path", "status", "ms"} <= set(entry) for entry in requests)


# -- Host and Origin (DNS rebinding) -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({"Host": "evil.example"}, 421),
        ({"Host": "evil.example:80"}, 421),
        ({"Origin": "http://evil.example"}, 403),
        ({"Origin": "null"}, 403),
        ({"Origin": "http://localhost:6274"}, 200),  # the MCP Inspector's page
        ({"Host": "localhost:1234"}, 200),
    ],
)
def test_host_and_origin_allow_lists(all_server: RunningServer, headers: dict[str, str], status: int):
    response = httpx.post(all_server.mcp_url, json=INITIALIZE, headers={**MCP_HEADERS, **headers})
    assert response.status_code == status


def test_health_answers_the_names_the_server_accepts(all_server: RunningServer):
    # A load balancer probes with a name (or address) on the allow-list, as any client does: a page
    # that rebinds its own name to this server must not read /health or /ready (tests/serve/test_attacks).
    for host in ("127.0.0.1", f"localhost:{all_server.port}", "[::1]"):
        assert httpx.get(all_server.base + "/health", headers={"Host": host}).status_code == 200
    assert httpx.get(all_server.base + "/health", headers={"Host": "10.0.0.7"}).status_code == 421


def test_oversized_body_is_refused_before_parsing(all_server: RunningServer):
    huge = b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"' + b"a" * (5 * 1024 * 1024) + b'"}}'
    response = httpx.post(all_server.mcp_url, content=huge, headers=MCP_HEADERS)
    assert response.status_code == 413


# -- bearer tokens -----------------------------------------------------------------------------------


def test_token_auth_refuses_requests_without_a_valid_bearer(token_server: RunningServer):
    url = token_server.mcp_url
    missing = httpx.post(url, json=INITIALIZE, headers=MCP_HEADERS)
    assert missing.status_code == 401
    assert missing.headers["www-authenticate"] == 'Bearer realm="pramana"'
    wrong = httpx.post(url, json=INITIALIZE, headers={**MCP_HEADERS, "Authorization": "Bearer " + "x" * 36})
    assert wrong.status_code == 401
    assert 'error="invalid_token"' in wrong.headers["www-authenticate"]
    assert httpx.get(token_server.base + "/sse").status_code == 401
    assert httpx.get(token_server.base + "/health").status_code == 200


@pytest.mark.parametrize(
    "placement",
    [
        {"params": {"access_token": TOKEN}},
        {"cookies": {"access_token": TOKEN}},
        {"headers": {"Authorization": f"Basic {TOKEN}"}},
        {"headers": {"Authorization": TOKEN}},
        {"headers": {"X-Api-Key": TOKEN}},
        {"headers": {"Authorization": f"Bearer {TOKEN}x"}},
        {"headers": {"Authorization": f"Bearer {TOKEN[:-1]}"}},
    ],
)
def test_tokens_in_the_wrong_place_are_not_accepted(token_server: RunningServer, placement: dict):
    extra_headers = placement.pop("headers", {})
    with httpx.Client(cookies=placement.pop("cookies", None)) as client:
        response = client.post(
            token_server.mcp_url, json=INITIALIZE, headers={**MCP_HEADERS, **extra_headers}, **placement
        )
    assert response.status_code == 401


def test_sdk_clients_with_the_token_are_served(token_server: RunningServer):
    async def calls() -> tuple[bool, bool]:
        async with http_session(token_server.mcp_url, TOKEN) as session:
            first = await session.call_tool("lookup_verse", {"reference": "2.47"})
        async with sse_session(token_server.base + "/sse", OTHER_TOKEN) as session:
            second = await session.call_tool("lookup_verse", {"reference": "2.48"})
        return first.is_error, second.is_error

    assert asyncio.run(calls()) == (False, False)


def test_no_secret_reaches_the_logs(token_server: RunningServer):
    httpx.post(
        token_server.mcp_url,
        json=INITIALIZE,
        headers={**MCP_HEADERS, "Authorization": "Bearer wrong-secret-1"},
    )
    httpx.post(token_server.mcp_url + "?access_token=query-secret-2", json=INITIALIZE, headers=MCP_HEADERS)
    httpx.post(
        token_server.mcp_url, json=INITIALIZE, headers={**MCP_HEADERS, "Authorization": f"Bearer {TOKEN}"}
    )
    time.sleep(0.3)
    text = "\n".join(token_server.log_lines)
    for secret in (TOKEN, OTHER_TOKEN, "wrong-secret-1", "query-secret-2"):
        assert secret not in text
    callers = {entry.get("caller") for entry in token_server.logs() if entry.get("event") == "request"}
    assert any(caller and caller.startswith("token:") for caller in callers)


def test_rate_limit_is_per_token(token_server: RunningServer):
    hammer = {**MCP_HEADERS, "Authorization": f"Bearer {OTHER_TOKEN}"}
    # The bucket refills one request a second, so on a slow machine a request after the first 429 may pass:
    # judge the 429 the hammering itself received.
    responses = [httpx.post(token_server.mcp_url, content=b"{}", headers=hammer) for _ in range(30)]
    limited = [response for response in responses if response.status_code == 429]
    assert limited and all(int(response.headers["retry-after"]) >= 1 for response in limited)
    calm = {**MCP_HEADERS, "Authorization": f"Bearer {TOKEN}"}
    assert httpx.post(token_server.mcp_url, json=INITIALIZE, headers=calm).status_code == 200


# -- process life ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--host", "0.0.0.0"], "without auth"),
        (["--host", "0.0.0.0", "--insecure"], "--allowed-host"),
        (["--auth", "token"], "PRAMANA_TOKENS"),
        (["--auth", "jwt"], "--jwks-url"),
        (["--auth", "basic"], "--auth"),
        (["--transport", "carrier-pigeon"], "--transport"),
    ],
)
def test_unsafe_or_incomplete_settings_are_refused(tmp_path, args: list[str], says: str):
    transport = [] if "--transport" in args else ["--transport", "http"]
    done = run_pramana("serve", "gita", *transport, *args, env={"VEDABASE_DB_PATH": str(tmp_path / "c.db")})
    assert done.returncode == 2
    assert says in done.stderr
    assert "Traceback" not in done.stderr


def test_a_port_in_use_is_one_clear_error(token_server: RunningServer, tmp_path):
    done = run_pramana(
        "serve", "gita", "--transport", "http", "--port", str(token_server.port),
        env={"VEDABASE_DB_PATH": str(tmp_path / "c.db")},
    )  # fmt: skip
    assert done.returncode == 2
    assert "cannot listen" in done.stderr and "Traceback" not in done.stderr


def test_sigterm_shuts_down_gracefully(all_data: dict[str, str]):
    with running_server(["gita"], all_data) as server:
        stream = httpx.stream("GET", server.base + "/sse", timeout=30)
        with stream as opened:  # a client holding an SSE stream open must not keep the process alive
            assert opened.status_code == 200
            server.process.send_signal(signal.SIGTERM)
            code = server.process.wait(60)  # a hang guard: the server's own drain ends in 5 s
        assert code == 0
        assert any(entry.get("event") == "stopped" for entry in server.logs())


def test_two_stateless_replicas_share_the_work(all_data: dict[str, str]):
    """Behind a load balancer without sticky sessions: a session begun on one replica goes on on the other."""
    with (
        running_server(["gita", "--stateless"], all_data) as first,
        running_server(["gita", "--stateless"], all_data) as second,
    ):
        opened = httpx.post(first.mcp_url, json=INITIALIZE, headers=MCP_HEADERS)
        assert opened.status_code == 200
        call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                "params": {"name": "lookup_verse", "arguments": {"reference": "BG 2.47"}}}  # fmt: skip
        answers = []
        for replica in (second, first, second):
            response = httpx.post(
                replica.mcp_url, json=call, headers={**MCP_HEADERS, "Mcp-Protocol-Version": "2025-06-18"}
            )
            assert response.status_code == 200
            answers.append(response.text)
        assert all("karma" in answer and '"isError":false' in answer for answer in answers)

        async def sdk(url: str) -> bool:
            async with http_session(url) as session:
                return (await session.call_tool("lookup_verse", {"reference": "18.66"})).is_error

        assert asyncio.run(sdk(first.mcp_url)) is False
        assert asyncio.run(sdk(second.mcp_url)) is False
