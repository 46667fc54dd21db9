"""Third-party clients against pramana: the MCP Inspector CLI, the TypeScript SDK, and the official
conformance scenarios, installed by `npm ci` in tests/clients (CI does it; see .ci/run)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks._http_server import RunningServer
from tests.serve.conftest import TOKEN

CLIENTS = Path(__file__).resolve().parent.parent / "clients"
BIN = CLIENTS / "node_modules" / ".bin"

# The scenarios that apply to a server with its own tools only; the others call conformance-only
# test tools (test_image_content, test_sampling, ...), resources or prompts that pramana does not have.
SCENARIOS = [
    "server-initialize",
    "ping",
    "tools-list",
    "tools-call-error",
    "resources-list",
    "prompts-list",
    "server-sse-multiple-streams",
    "dns-rebinding-protection",
]


@pytest.fixture(scope="module", autouse=True)
def node_clients() -> None:
    if shutil.which("node") and (BIN / "mcp-inspector").exists():
        return
    message = "the Node MCP clients are not installed: run `npm ci` in tests/clients (Node 20+)"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def run(
    command: list[str], env: dict[str, str] | None = None, timeout: float = 120
) -> subprocess.CompletedProcess:
    return subprocess.run(
        command,
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=CLIENTS,
        env={**os.environ, **(env or {})},
    )


def inspector(target: list[str], *args: str, env: dict[str, str] | None = None) -> dict:
    done = run([str(BIN / "mcp-inspector"), "--cli", *target, *args], env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def gita_stdio(all_data: dict[str, str]) -> tuple[list[str], dict[str, str]]:
    return [sys.executable, "-m", "pramana", "serve", "gita"], all_data


def test_inspector_lists_and_calls_tools_over_stdio(all_data: dict[str, str]):
    command, env = gita_stdio(all_data)
    listed = inspector(command, "--method", "tools/list", env=env)
    assert {tool["name"] for tool in listed["tools"]} >= {
        "lookup_verse",
        "search_verses",
        "fuzzy_match_verse",
    }
    called = inspector(
        command,
        "--method",
        "tools/call",
        "--tool-name",
        "lookup_verse",
        "--tool-arg",
        'reference="BG 2.47"',
        env=env,
    )
    assert called["isError"] is False
    assert called["structuredContent"]["ref"] == "BG 2.47"


def test_inspector_lists_and_calls_tools_over_http(all_server: RunningServer):
    target = [all_server.mcp_url, "--transport", "http"]
    listed = inspector(target, "--method", "tools/list")
    assert len(listed["tools"]) == 27  # gita has 8 with the books (issue 27)
    called = inspector(
        target, "--method", "tools/call", "--tool-name", "sanskrit_search", "--tool-arg", 'query="agni"'
    )
    assert called["isError"] is False
    assert any(hit["word"] == "agni" for hit in called["structuredContent"]["results"])


def test_inspector_over_legacy_sse(all_server: RunningServer):
    target = [all_server.base + "/sse", "--transport", "sse"]
    called = inspector(target, "--method", "tools/call", "--tool-name", "transliterate_pali", "--tool-arg",
                       'text="dhamma"', 'target="devanagari"')  # fmt: skip
    assert called["structuredContent"]["result"] == "धम्म"


def test_inspector_with_a_bearer_token(token_server: RunningServer):
    target = [token_server.mcp_url, "--transport", "http"]
    listed = inspector(target, "--header", f"Authorization: Bearer {TOKEN}", "--method", "tools/list")
    assert len(listed["tools"]) == 8  # the gita server (issue 27 added get_chapter, install_books)
    refused = run([str(BIN / "mcp-inspector"), "--cli", *target, "--method", "tools/list"])
    assert refused.returncode != 0


def sdk_client(*args: str, env: dict[str, str] | None = None) -> tuple[int, dict]:
    done = run(["node", "client.mjs", *args], env)
    return done.returncode, json.loads(done.stdout)


def test_typescript_sdk_client_over_http_with_token(token_server: RunningServer):
    garbled = json.dumps({"garbled_sanskrit": "karmany evadhikaras te ma phaleshu kadachana"})
    code, out = sdk_client("--url", token_server.mcp_url, "--token", TOKEN, "--tool", "fuzzy_match_verse",
                           "--args", garbled)  # fmt: skip
    assert code == 0, out
    assert out["server"]["name"] == "vedabase"
    assert out["call"]["structuredContent"]["matches"][0]["ref"] == "BG 2.47"
    code, out = sdk_client("--url", token_server.mcp_url, "--token", "x" * 40)
    assert code == 1 and "401" in json.dumps(out["error"])


def test_typescript_sdk_client_over_stdio(all_data: dict[str, str]):
    command, env = gita_stdio(all_data)
    code, out = sdk_client(
        "--tool", "lookup_verse", "--args", '{"reference": "BG 99.1"}', "--", *command, env=env
    )
    assert code == 3  # the tool's error reached the client as isError, not as a crash
    assert "chapters 1-18" in out["call"]["content"][0]["text"]


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_conformance_scenario(all_server: RunningServer, scenario: str):
    done = run([str(BIN / "conformance"), "server", "--url", all_server.mcp_url, "--scenario", scenario])
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
