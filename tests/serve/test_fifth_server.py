"""A fifth server is a folder that fills in pramana.servers.Server: declared outside pramana (a package in
tmp_path, named by PRAMANA_SERVERS), it is installed, served over a real MCP stdio client, and shows up
in `pramana doctor` and the readiness checks, without a line of pramana changed."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest
from mcp_types import TextContent

from benchmarks._mcp_client import stdio_session
from tests.conftest import run_pramana

# The whole server: its settings, its store (a JSON file) installed from a source (a text file), its
# service, one tool, its readiness and its doctor line.
PROVERBS_SERVER = '''
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

from mcp.server.mcpserver import MCPServer
from mcp_types import CallToolResult
from pydantic import BaseModel, Field

from pramana.config import ServerSettings, default_data_dir
from pramana.doctor import ServerStatus, file_size
from pramana.errors import NotFoundError
from pramana.mcp.calls import tool_call
from pramana.mcp.tools import READ_ONLY, Readiness, result
from pramana.servers import Installed, Progress, Server, Source

HOW_TO = "install it: pramana.servers.server('proverbs').install(...)"


class ProverbSettings(ServerSettings):
    db_path: Path = Field(
        default_factory=lambda: default_data_dir() / "proverbs.json", validation_alias="PROVERBS_DB_PATH"
    )
    source: str = Field(default="proverbs.txt", validation_alias="PROVERBS_SOURCE")


class Proverb(BaseModel):
    word: str
    proverb: str


class Proverbs:
    def __init__(self, path: Path) -> None:
        self.by_word: dict[str, str] = json.loads(path.read_text()) if path.is_file() else {}


def install(settings: ProverbSettings, source: Source, progress: Progress) -> Installed:
    lines = Path(source.location or settings.source).read_text().splitlines()
    store = {}
    for done, line in enumerate(lines, 1):
        word, _, proverb = line.partition(":")
        store[word.strip()] = proverb.strip()
        progress("reading", done, len(lines))
    settings.resolved_db_path().write_text(json.dumps(store))
    return Installed(settings.resolved_db_path(), f"{len(store)} proverbs")


def tools(server: MCPServer, service: Callable[[], Proverbs]) -> None:
    @server.tool(annotations=READ_ONLY)
    @tool_call()
    def proverb(word: str) -> Annotated[CallToolResult, Proverb]:
        """The proverb about a word."""
        found = service().by_word.get(word)
        if found is None:
            raise NotFoundError(f"no proverb about {word!r}")
        return result(found, Proverb(word=word, proverb=found))


def ready(service: Proverbs) -> Readiness:
    count = len(service.by_word)
    return Readiness(ready=count > 0, detail=f"{count} proverbs" if count else f"no proverbs; {HOW_TO}")


def doctor() -> list[ServerStatus]:
    path = ProverbSettings.load().resolved_db_path()
    count = len(Proverbs(path).by_word)
    has, then = (f"{count} proverbs", "") if count else ("no proverbs", HOW_TO)
    return [ServerStatus("proverbs", count > 0, str(path), file_size(path), has, then)]


SERVER = Server(
    name="proverbs",
    settings=lambda: ProverbSettings,
    instructions="Proverbs, by the word they are about.",
    install=install,
    open=lambda settings: Proverbs(settings.resolved_db_path()),
    tools=tools,
    ready=ready,
    doctor=doctor,
)
'''


@pytest.fixture
def proverbs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The proverbs server's package in tmp_path, on sys.path and named in PRAMANA_SERVERS; the
    environment a pramana process needs to find it."""
    package = tmp_path / "site" / "proverbs_server"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "server.py").write_text(PROVERBS_SERVER)
    (tmp_path / "proverbs.txt").write_text(
        "haste: more haste, less speed\ncook: too many cooks spoil the broth\n"
    )
    env = {
        "PRAMANA_SERVERS": "proverbs_server.server",
        "PROVERBS_DB_PATH": str(tmp_path / "proverbs.json"),
        "PROVERBS_SOURCE": str(tmp_path / "proverbs.txt"),
        "PYTHONPATH": str(tmp_path / "site"),
        "PRAMANA_DATA_DIR": str(tmp_path / "data"),
    }
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    yield env
    for name in [name for name in sys.modules if name.startswith("proverbs_server")]:
        del sys.modules[name]


def test_a_fifth_server_is_installed_served_and_checked(proverbs: dict[str, str]):
    from pramana.doctor import check_all
    from pramana.mcp.servers import build, server_names
    from pramana.servers import Source, server, servers

    assert list(servers()) == ["gita", "sanskrit", "pali", "code", "proverbs"]
    assert server_names(["proverbs"]) == ["proverbs"]
    declared = server("proverbs")
    before = [status for status in check_all() if status.server == "proverbs"]
    assert [(status.ready, status.has) for status in before] == [(False, "no proverbs")]
    assert build(["proverbs"], worker_processes=False).readiness()["proverbs"].ready is False

    reported: list[tuple[str, int, int | None]] = []
    settings = declared.load_settings(db_path=Path(proverbs["PROVERBS_DB_PATH"]).with_suffix(".first.json"))
    installed = declared.install(settings, Source(), lambda *report: reported.append(report))
    assert installed.detail == "2 proverbs" and reported[-1] == ("reading", 2, 2)
    # `pramana install` reads the registry too: the same install, from the command line.
    done = run_pramana("install", "proverbs", "--source", proverbs["PROVERBS_SOURCE"], env=proverbs)
    assert done.returncode == 0 and done.stdout.strip().endswith("proverbs.json: 2 proverbs"), done.stderr

    served = build(["proverbs"], worker_processes=False)
    assert served.server.name == "proverbs" and served.readiness()["proverbs"].detail == "2 proverbs"
    doctor = run_pramana("doctor", "--json", env=proverbs)
    assert doctor.returncode == 0, doctor.stderr
    lines = {line["server"]: line for line in json.loads(doctor.stdout)}
    assert lines["proverbs"]["ready"] is True and lines["proverbs"]["has"] == "2 proverbs"

    async def over_stdio() -> tuple[list[str], str, str]:
        async with stdio_session(["-m", "pramana", "serve", "proverbs"], proverbs) as client:
            names = [tool.name for tool in (await client.list_tools()).tools]
            found = await client.call_tool("proverb", {"word": "cook"})
            missing = await client.call_tool("proverb", {"word": "cat"})
            assert not found.is_error and missing.is_error
            assert found.structured_content == {"word": "cook", "proverb": "too many cooks spoil the broth"}
            texts = [
                content.text
                for content in (*found.content, *missing.content)
                if isinstance(content, TextContent)
            ]
            return names, texts[0], texts[-1]

    names, found, missing = asyncio.run(over_stdio())
    assert names == ["proverb"]
    assert found == "too many cooks spoil the broth"
    assert missing.endswith("no proverb about 'cat'")
