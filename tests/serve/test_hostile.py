"""Hostile input over HTTP: fuzzed tool arguments (hypothesis), a broken JSON-RPC layer, path traversal,
FTS/SQL injection. Never a crash, never a traceback to the client, never damaged data."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp.shared.exceptions import MCPError

from benchmarks._hostile_inputs import INJECTIONS, MALFORMED, TRAVERSALS
from benchmarks._http_server import RunningServer
from benchmarks._mcp_client import SessionThread, http_session
from tests.serve.conftest import INITIALIZE, MCP_HEADERS, wait_ready

INVALID_PARAMS = -32602
NO_ARGUMENT_FUZZ = {"seed_database"}  # downloads: exercised by the fault tests, not by thousands of calls

hostile_text = st.one_of(
    st.text(max_size=300),
    st.sampled_from(INJECTIONS + TRAVERSALS),
    st.text(alphabet=st.characters(codec="utf-8"), min_size=1000, max_size=5000),
)
hostile_value = st.one_of(
    hostile_text,
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.none(),
    st.lists(hostile_text, max_size=5),
    st.dictionaries(st.text(max_size=10), hostile_text, max_size=3),
)


@pytest.fixture(scope="module")
def session(all_server: RunningServer) -> Iterator[SessionThread]:
    opened = SessionThread(lambda: http_session(all_server.mcp_url))
    yield opened
    opened.close()


@pytest.fixture(scope="module")
def schemas(session: SessionThread) -> dict[str, dict]:
    tools = session.call(lambda s: s.list_tools()).tools
    return {tool.name: tool.input_schema for tool in tools}


def assert_no_leak(text: str) -> None:
    assert "Traceback" not in text and 'File "' not in text
    assert "root:x:0:0" not in text


def call_safely(session: SessionThread, name: str, arguments: dict) -> tuple[bool, str]:
    """(is_error, text) of one call; a JSON-RPC error (e.g. invalid params) counts as a refusal."""
    try:
        result = session.call(lambda s: s.call_tool(name, arguments))
    except MCPError as exc:
        # Refusing bad params at the JSON-RPC level is fine; anything else (a transport error, a 429) is not.
        assert exc.code == INVALID_PARAMS, (exc.code, exc.message)
        assert_no_leak(exc.message)
        return True, exc.message
    text = "\n".join(getattr(block, "text", "") for block in result.content)
    assert_no_leak(text)
    return result.is_error, text


def test_every_string_and_list_argument_has_a_size_limit(schemas: dict[str, dict]):
    def unbounded(schema: dict, where: str) -> list[str]:
        found = []
        kinds = [schema, *schema.get("anyOf", [])]
        for kind in kinds:
            if kind.get("type") == "string" and "maxLength" not in kind and "enum" not in kind:
                found.append(where)
            if kind.get("type") == "array":
                if "maxItems" not in kind:
                    found.append(where + "[]")
                found += unbounded(kind.get("items", {}), where + "[]")
        return found

    problems = [
        f"{tool}.{name}"
        for tool, schema in schemas.items()
        for name, prop in schema.get("properties", {}).items()
        for _ in unbounded(prop, name)
    ]
    assert problems == []


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(data=st.data())
def test_fuzzed_arguments_never_crash_a_tool(session: SessionThread, schemas: dict[str, dict], data):
    name = data.draw(st.sampled_from(sorted(set(schemas) - NO_ARGUMENT_FUZZ)), label="tool")
    properties = list(schemas[name].get("properties", {}))
    keys = st.sampled_from([*properties, "unexpected", "__proto__"]) if properties else st.just("unexpected")
    arguments = data.draw(st.dictionaries(keys, hostile_value, max_size=4), label="arguments")
    call_safely(session, name, arguments)


@pytest.mark.parametrize("path", TRAVERSALS)
def test_get_file_never_leaves_the_repository(session: SessionThread, path: str):
    is_error, text = call_safely(session, "get_file", {"path": path})  # checks no file content leaks
    assert is_error
    assert any(word in text for word in ("repository", "index", "NUL"))  # says why


@pytest.mark.parametrize(
    ("tool", "argument"),
    [("search_verses", "query"), ("sanskrit_search", "query"), ("search_pali_meaning", "english"),
     ("search_code", "query"), ("search_docs", "query"), ("find_usages", "name"), ("fuzzy_match_verse",
     "garbled_sanskrit"), ("lookup_pali_word", "word")],
)  # fmt: skip
def test_injection_strings_are_just_text(session: SessionThread, tool: str, argument: str):
    for text in INJECTIONS:
        call_safely(session, tool, {argument: text})
    call_safely(session, "sanskrit_search", {"query": INJECTIONS[0], "mode": "reverse"})


def test_data_is_intact_after_the_hostile_calls(all_server: RunningServer, session: SessionThread):
    ready = wait_ready(all_server)
    assert ready["ready"] is True
    assert ready["servers"]["gita"]["detail"] == "701 of 701 verses cached"
    answer = session.call(lambda s: s.call_tool("search_verses", {"query": "dharma"}))
    assert not answer.is_error and answer.structured_content["results"]


# -- the JSON-RPC layer, raw -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def raw_session(all_server: RunningServer) -> dict[str, str]:
    opened = httpx.post(all_server.mcp_url, json=INITIALIZE, headers=MCP_HEADERS)
    assert opened.status_code == 200
    headers = {
        **MCP_HEADERS,
        "Mcp-Session-Id": opened.headers["mcp-session-id"],
        "Mcp-Protocol-Version": "2025-06-18",
    }
    note = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    assert httpx.post(all_server.mcp_url, json=note, headers=headers).status_code == 202
    return headers


@pytest.mark.parametrize("body", MALFORMED, ids=range(len(MALFORMED)))
def test_malformed_json_rpc_gets_an_error_not_a_crash(all_server: RunningServer, raw_session, body: bytes):
    response = httpx.post(all_server.mcp_url, content=body, headers=raw_session, timeout=30)
    assert response.status_code < 500
    assert_no_leak(response.text)
    assert httpx.get(all_server.base + "/health").status_code == 200


def test_the_session_still_works_after_the_garbage(all_server: RunningServer, raw_session):
    ping = httpx.post(
        all_server.mcp_url, json={"jsonrpc": "2.0", "id": 7, "method": "ping"}, headers=raw_session
    )
    assert ping.status_code == 200 and '"id":7' in ping.text


def test_wrong_methods_and_content_types(all_server: RunningServer, raw_session):
    assert httpx.put(all_server.mcp_url, json=INITIALIZE, headers=raw_session).status_code in (405, 400)
    text = {**raw_session, "Content-Type": "text/plain"}
    assert httpx.post(all_server.mcp_url, content=b"{}", headers=text).status_code in (400, 415)
    no_accept = {**raw_session, "Accept": "text/html"}
    assert httpx.post(all_server.mcp_url, json=INITIALIZE, headers=no_accept).status_code in (400, 406)
    stale = {**raw_session, "Mcp-Session-Id": "f" * 32}
    assert (
        httpx.post(
            all_server.mcp_url, json={"jsonrpc": "2.0", "id": 1, "method": "ping"}, headers=stale
        ).status_code
        == 404
    )
