"""Ready-to-paste configurations for MCP clients: Claude Desktop, Claude Code, VS Code, Cursor, Windsurf.

A client started from a desktop or a dock does not see the shell's PATH (nor its exported settings),
so a configuration names pramana by its absolute path and carries the settings this shell has set.
Each client's format is the one its documentation gives (tests/client_schemas holds them as JSON
schemas, with their sources):

- Claude Desktop, Cursor, Windsurf: `{"mcpServers": {NAME: {"command", "args", "env"}}}`;
- VS Code: `{"servers": {NAME: {"type": "stdio", "command", "args", "env"}}}` (not "mcpServers");
- Claude Code: `claude mcp add --scope user [-e KEY=VALUE]… NAME -- COMMAND ARGS…`, or `.mcp.json`
  (`{"mcpServers": {NAME: {"type": "stdio", …}}}`) for a project.
"""

from __future__ import annotations

import json
import os
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pramana import servers as registry
from pramana.config import env_names
from pramana.errors import InvalidInputError
from pramana.install import Installation, installation
from pramana.servers import EXTRA_VARIABLE


@dataclass(frozen=True)
class Client:
    title: str
    where: str  # where its configuration file lives
    key: str = "mcpServers"  # the object that maps names to servers
    typed: bool = False  # each server says "type": "stdio"


CLIENTS = {
    "claude-desktop": Client(
        "Claude Desktop",
        "claude_desktop_config.json (macOS: ~/Library/Application Support/Claude/, Windows:"
        ' %APPDATA%\\Claude\\, Linux: ~/.config/Claude/); add the entries to its "mcpServers",'
        " then restart Claude Desktop",
    ),
    "claude-code": Client(
        "Claude Code",
        "run the command (--scope user: every project; --scope project writes .mcp.json instead);"
        " with --json: the project's .mcp.json",
        typed=True,
    ),
    "vscode": Client(
        "VS Code",
        '.vscode/mcp.json in a workspace, or your user mcp.json (command palette: "MCP: Open User'
        ' Configuration"); add the entries to its "servers"',
        key="servers",
        typed=True,
    ),
    "cursor": Client(
        "Cursor",
        "~/.cursor/mcp.json (every project) or .cursor/mcp.json (one project);"
        ' add the entries to its "mcpServers"',
    ),
    "windsurf": Client(
        "Windsurf",
        "~/.codeium/windsurf/mcp_config.json (Windows: %USERPROFILE%\\.codeium\\windsurf\\mcp_config.json);"
        ' add the entries to its "mcpServers", then refresh the MCP servers in Cascade',
    ),
}

# Settings whose value is a path (made absolute: the client starts the server elsewhere).
PATH_VARIABLES = {"PRAMANA_DATA_DIR", "XDG_DATA_HOME", "VEDABASE_DB_PATH", "SANSKRIT_DB_PATH", "DPD_DB_PATH",
                  "PRAMANA_CODE_REPO", "PRAMANA_CODE_DB"}  # fmt: skip
# Settings that may be a URL or a local folder.
SOURCE_VARIABLES = {"VEDABASE_API_URL", "SANSKRIT_SOURCE_URL", "DPD_RELEASE_URL"}
SECRET_WORDS = ("KEY", "TOKEN", "SECRET", "PASSWORD")


@dataclass(frozen=True)
class Launch:
    """One server entry: the name the client shows, and how to start it."""

    name: str
    command: str
    args: tuple[str, ...]
    env: Mapping[str, str] = field(default_factory=dict)

    def entry(self, typed: bool) -> dict[str, object]:
        made: dict[str, object] = {"type": "stdio"} if typed else {}
        made |= {"command": self.command, "args": list(self.args)}
        if self.env:
            made["env"] = dict(self.env)
        return made


@dataclass(frozen=True)
class Configuration:
    client: Client
    launches: tuple[Launch, ...]
    notes: tuple[str, ...]  # said on stderr: where the file is, what was left out and why

    def as_json(self, key: str | None = None, typed: bool | None = None) -> str:
        entries = {
            launch.name: launch.entry(self.client.typed if typed is None else typed)
            for launch in self.launches
        }
        return json.dumps({key or self.client.key: entries}, indent=2, ensure_ascii=False)

    def claude_code_commands(self) -> str:
        """`claude mcp add` lines, as Claude Code's documentation gives them."""
        lines = []
        for launch in self.launches:
            words = ["claude", "mcp", "add", "--scope", "user", "--transport", "stdio"]
            for name, value in launch.env.items():
                words += ["-e", f"{name}={value}"]
            words += [launch.name, "--", launch.command, *launch.args]
            lines.append(shlex.join(words))
        return "\n".join(lines)


def _launcher(found: Installation) -> tuple[str, tuple[str, ...]]:
    """pramana's absolute command: its script beside the interpreter, else `python -m pramana`."""
    script = found.scripts / ("pramana.exe" if os.name == "nt" else "pramana")
    if script.is_file():
        return str(script), ()
    return str(found.python), ("-m", "pramana")


def _settings_variables() -> list[str]:
    names = ["PRAMANA_DATA_DIR", "XDG_DATA_HOME", "PRAMANA_LOG_LEVEL", EXTRA_VARIABLE]
    for server in registry.servers().values():
        for field_name in server.settings().model_fields:
            names += env_names(server.settings(), field_name)
    return list(dict.fromkeys(names))


def carried_settings(environ: Mapping[str, str], cwd: Path) -> tuple[dict[str, str], list[str]]:
    """The settings this shell has set, for the client to pass on (paths made absolute), and the
    secrets that are set but not copied into a file the user may share."""
    carried: dict[str, str] = {}
    secrets = []
    for name in _settings_variables():
        value = environ.get(name)
        if not value:
            continue
        if any(word in name for word in SECRET_WORDS):
            secrets.append(name)
            continue
        is_local_source = name in SOURCE_VARIABLES and "://" not in value
        if name in PATH_VARIABLES or is_local_source:
            value = str((cwd / Path(value).expanduser()).resolve())
        carried[name] = value
    return carried, secrets


def configuration(
    client: str,
    servers: Sequence[str],
    *,
    repo: Path | None = None,
    name: str | None = None,
    environ: Mapping[str, str] | None = None,
    cwd: Path | None = None,
    found: Installation | None = None,
) -> Configuration:
    """The configuration of `client` for `servers` (names, or `all`: every server from one process)."""
    if client not in CLIENTS:
        raise InvalidInputError(f"unknown client {client!r}; choose {', '.join(CLIENTS)}")
    environ = os.environ if environ is None else environ
    cwd = cwd or Path.cwd()
    wanted = [server.strip().lower() for server in servers] or ["all"]
    known = list(registry.servers())
    unknown = sorted(set(wanted) - {*known, "all"})
    if unknown:
        raise InvalidInputError(f"unknown server {', '.join(unknown)}; choose from {', '.join(known)} or all")
    if name is not None and len(wanted) > 1:
        raise InvalidInputError("--name names one entry; give one server (or all)")
    repo_path = (cwd / repo.expanduser()).resolve() if repo is not None else None
    if repo_path is not None and not repo_path.is_dir():
        raise InvalidInputError(f"--repo {repo} is not a folder")
    env, secrets = carried_settings(environ, cwd)
    has_repo = repo_path is not None or "PRAMANA_CODE_REPO" in env or "PRAMANA_CODE_DB" in env
    if "code" in wanted and not has_repo:
        raise InvalidInputError(
            "the code server needs a repository: give --repo PATH (or set PRAMANA_CODE_REPO)"
        )
    command, prefix = _launcher(found or installation())
    notes = [f"{CLIENTS[client].title}: {CLIENTS[client].where}."]
    repo_args = ("--repo", str(repo_path)) if repo_path is not None else ()
    launches = []
    for server in dict.fromkeys(wanted):
        args = (*prefix, "serve", server, *(repo_args if server in ("code", "all") else ()))
        launches.append(
            Launch(name or ("pramana" if server == "all" else f"pramana-{server}"), command, args, env)
        )
    if "all" in wanted and not has_repo:
        notes.append("all: the code server is left out without a repository (give --repo PATH to add it).")
    if secrets:
        notes.append(
            f"{', '.join(secrets)} {'is' if len(secrets) == 1 else 'are'} set here and not copied:"
            ' add to "env" yourself what the servers should use.'
        )
    return Configuration(CLIENTS[client], tuple(launches), tuple(notes))
