"""`pramana config CLIENT`: every printed configuration parses against its client's documented schema
(tests/client_schemas, each citing its source), names pramana by an absolute path, and starts."""

from __future__ import annotations

import asyncio
import json
import shlex
import subprocess
from pathlib import Path

import jsonschema
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from typer.testing import CliRunner

from pramana.cli import app
from pramana.clients import CLIENTS
from pramana.install import installation

SCHEMAS = Path(__file__).parent / "client_schemas"
runner = CliRunner()


def _config(tmp_path: Path, *args: str, **env: str):
    isolated = {"PRAMANA_DATA_DIR": str(tmp_path / "data"), "VEDABASE_DB_PATH": "", "PRAMANA_CODE_REPO": "",
                "PRAMANA_CODE_DB": "", "OPENAI_API_KEY": ""}  # fmt: skip
    result = runner.invoke(app, ["config", *args], env={**isolated, **env})
    assert result.exit_code == 0, result.output
    return result


def _repo(tmp_path: Path) -> Path:
    repo = tmp_path / "shop"
    repo.mkdir(exist_ok=True)
    (repo / "cart.py").write_text("def cart_total(items):\n    return sum(items)\n")
    return repo


def _json_clients() -> list[str]:
    return [name for name in CLIENTS if name != "claude-code"]


@pytest.mark.parametrize("client", _json_clients())
@pytest.mark.parametrize("servers", [["gita"], ["sanskrit", "pali"], ["all"], ["code"]])
def test_each_printed_config_is_valid_for_its_client(tmp_path, client, servers):
    result = _config(tmp_path, client, *servers, "--repo", str(_repo(tmp_path)))
    printed = json.loads(result.stdout)
    jsonschema.validate(printed, json.loads((SCHEMAS / f"{client}.json").read_text()))
    (entries,) = printed.values()
    assert list(printed) == (["servers"] if client == "vscode" else ["mcpServers"])  # VS Code's own key
    assert len(entries) == len(servers)
    for name, entry in entries.items():
        command = Path(entry["command"])
        assert command.is_absolute() and command.is_file(), "a GUI client lacks the shell's PATH"
        server = entry["args"][entry["args"].index("serve") + 1]
        assert name == ("pramana" if server == "all" else f"pramana-{server}")
        if server in ("code", "all"):
            assert entry["args"][-2:] == ["--repo", str(tmp_path / "shop")]
        assert entry["env"]["PRAMANA_DATA_DIR"] == str(tmp_path / "data")  # the shell's settings, carried
    assert CLIENTS[client].where.split()[0].rstrip(";") in result.stderr  # where to paste it


def test_claude_code_gets_its_documented_command_line_and_mcp_json(tmp_path):
    """`claude mcp add [options] <name> -- <command> [args...]`, options --scope, --transport, -e."""
    commands = _config(tmp_path, "claude-code", "gita", "pali").stdout.splitlines()
    project = json.loads(_config(tmp_path, "claude-code", "gita", "pali", "--json").stdout)
    jsonschema.validate(project, json.loads((SCHEMAS / "claude-code.json").read_text()))
    assert len(commands) == 2
    for line in commands:
        words = shlex.split(line)
        assert words[:3] == ["claude", "mcp", "add"]
        options, rest = words[3 : words.index("--")], words[words.index("--") + 1 :]
        env, name = {}, options.pop()
        while options:
            flag, value = options.pop(0), options.pop(0)
            if flag in ("-s", "--scope"):
                assert value in ("local", "user", "project")
            elif flag in ("-t", "--transport"):
                assert value == "stdio"
            else:
                assert flag in ("-e", "--env") and "=" in value
                env.update([value.split("=", 1)])
        # The same server as the project file describes.
        assert project["mcpServers"][name] == {
            "type": "stdio",
            "command": rest[0],
            "args": rest[1:],
            "env": env,
        }


@pytest.mark.parametrize(
    ("args", "env", "message"),
    [
        (
            ["emacs"],
            {},
            "unknown client 'emacs'; choose claude-desktop, claude-code, vscode, cursor, windsurf",
        ),
        (["cursor", "gitaa"], {}, "unknown server gitaa; choose from gita, sanskrit, pali, code or all"),
        (["cursor", "code"], {}, "the code server needs a repository: give --repo PATH"),
        (["cursor", "gita", "pali", "--name", "x"], {}, "--name names one entry"),
    ],
)
def test_bad_requests_are_one_line(tmp_path, args, env, message):
    result = runner.invoke(
        app, ["config", *args], env={"PRAMANA_CODE_REPO": "", "PRAMANA_CODE_DB": "", **env}
    )
    assert result.exit_code == 2 and message in result.output and "Traceback" not in result.output


def test_settings_are_carried_absolute_and_secrets_are_not_copied(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = _config(tmp_path, "windsurf", "gita", VEDABASE_API_URL="./mirror", GITHUB_TOKEN="ghp_secret",
                     VEDABASE_HTTP_TIMEOUT="3")  # fmt: skip
    env = json.loads(result.stdout)["mcpServers"]["pramana-gita"]["env"]
    assert env["VEDABASE_API_URL"] == str(tmp_path / "mirror") and env["VEDABASE_HTTP_TIMEOUT"] == "3"
    assert "ghp_secret" not in result.stdout and "GITHUB_TOKEN is set here and not copied" in result.stderr


def test_all_without_a_repository_says_the_code_server_is_left_out(tmp_path):
    result = _config(tmp_path, "claude-desktop")  # all, by default
    assert json.loads(result.stdout)["mcpServers"]["pramana"]["args"] == ["serve", "all"]
    assert "code server is left out without a repository" in result.stderr


def test_the_printed_config_starts_the_servers_without_the_shells_path(tmp_path):
    """As a GUI client does: its command and args, its env over a bare one (no venv on PATH)."""
    printed = json.loads(_config(tmp_path, "cursor", "all", "--repo", str(_repo(tmp_path))).stdout)
    entry = printed["mcpServers"]["pramana"]
    bare = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), **entry["env"]}

    async def tools() -> tuple[list[str], str]:
        server = StdioServerParameters(command=entry["command"], args=entry["args"], env=bare)
        async with stdio_client(server) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            listed = await session.list_tools()
            matched = await session.call_tool(
                "fuzzy_match_verse", {"garbled_sanskrit": "man mana bhava mad bhakto"}
            )
            return [tool.name for tool in listed.tools], matched.content[0].text

    names, answer = asyncio.run(tools())
    assert len(names) == len(set(names)) >= 25 and {
        "lookup_verse",
        "sanskrit_search",
        "get_grammatical_details",
        "search_code",
    } <= set(names)
    assert "BG 9.34" in answer
    assert installation().scripts in Path(entry["command"]).parents


def test_the_spec_launch_lines_answer_help_instead_of_waiting_on_stdin():
    script = installation().scripts / "vedabase-mcp"
    for command in ([str(script)], [str(installation().python), "-m", "vedabase_mcp"]):
        shown = subprocess.run([*command, "--help"], capture_output=True, text=True, timeout=60)
        assert shown.returncode == 0 and shown.stdout.startswith("usage: vedabase-mcp"), shown.stderr
    wrong = subprocess.run([str(script), "--port", "1"], capture_output=True, text=True, timeout=60)
    assert wrong.returncode == 2 and "unknown argument '--port'" in wrong.stderr
