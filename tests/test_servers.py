"""The registry of servers (pramana.servers): pramana's four, those PRAMANA_SERVERS names, those
registered in process; what reads it (serve's choices, client configurations, doctor) sees them all."""

from __future__ import annotations

import sys

import pytest

from pramana import servers as registry
from pramana.clients import configuration
from pramana.config import ServerSettings
from pramana.errors import InvalidInputError
from pramana.mcp.servers import build, server_names
from pramana.mcp.tools import Readiness


class EchoSettings(ServerSettings):
    db_path: str = "echo.db"  # type: ignore[assignment]


def _echo_tools(server, service) -> None:
    @server.tool()
    def echo(text: str) -> str:
        """Say it back."""
        return service() + text


ECHO = registry.Server(
    name="echo",
    settings=lambda: EchoSettings,
    instructions="Echoes.",
    install=lambda settings, source, progress: registry.Installed(settings.db_path, "nothing"),
    open=lambda settings: "echo: ",
    tools=_echo_tools,
    ready=lambda service: Readiness(ready=True, detail=service),
    doctor=lambda: [],
)


@pytest.fixture
def echo():
    registry.register(ECHO)
    yield ECHO
    registry.unregister("echo")


def test_pramanas_own_servers_come_first_in_order():
    assert list(registry.servers())[:4] == ["gita", "sanskrit", "pali", "code"]
    assert registry.server("gita").mcp_name == "vedabase" and registry.server("pali").mcp_name == "pali"


def test_a_registered_server_is_served_and_configured(echo, tmp_path):
    assert server_names(["echo"]) == ["echo"] and "echo" in server_names(["all"])
    served = build(["echo"], {"echo": EchoSettings()}, worker_processes=False)
    assert served.server.name == "echo" and served.readiness()["echo"].detail == "echo: "
    made = configuration("cursor", ["echo"], environ={}, cwd=tmp_path)
    assert [launch.args[-2:] for launch in made.launches] == [("serve", "echo")]


def test_a_module_that_declares_no_server_is_one_line(monkeypatch):
    monkeypatch.setenv("PRAMANA_SERVERS", "pramana.config")
    with pytest.raises(
        InvalidInputError, match=r"^PRAMANA_SERVERS: cannot load a server from 'pramana.config'"
    ):
        registry.servers()
    monkeypatch.setenv("PRAMANA_SERVERS", "no_such_module_here")
    with pytest.raises(InvalidInputError, match="no_such_module_here"):
        registry.servers()


def test_unknown_names_say_which_there_are():
    with pytest.raises(
        InvalidInputError, match="unknown server nope; choose from gita, sanskrit, pali, code"
    ):
        registry.server("nope")
    with pytest.raises(InvalidInputError, match="a server's name is a word"):
        registry.register(registry.Server(**{**ECHO.__dict__, "name": "all"}))


def test_pramanas_servers_install_through_their_declarations(gita_mirror, tmp_path):
    from pramana.config import CodeSettings, GitaSettings

    reported: list[tuple[str, int, int | None]] = []
    gita = registry.server("gita").install(
        GitaSettings(db_path=tmp_path / "gita.db"),
        registry.Source(str(gita_mirror)),
        lambda *r: reported.append(r),
    )
    assert gita.path == tmp_path / "gita.db" and gita.detail == "701 of 701 verses"
    assert reported and reported[-1][1] == reported[-1][2]
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "cart.py").write_text("def add_item(cart, item):\n    cart.append(item)\n")
    settings = CodeSettings(db_path=tmp_path / "code.db", embedder="none")
    code = registry.server("code").install(settings, registry.Source(str(repo)), lambda *r: None)
    assert code.path == tmp_path / "code.db" and code.detail == "1 files (1 parsed)"
    assert code.report.symbols == 1 and code.report.embedder is None  # what `pramana code index` prints


ECHO_PARTS = """
from pramana.mcp.tools import Readiness
from pramana.servers import Installed

def install(settings, source, progress):
    progress("echoing", 1, 1)
    return Installed(settings.db_path, f"echoed {source.location}")

def ready(service):
    return Readiness(ready=True, detail=service)
"""


def test_a_declaration_names_its_parts_by_module_and_imports_them_when_called(tmp_path, monkeypatch):
    """A "module:name" string in place of a callable: nothing is imported until it is called."""
    (tmp_path / "echo_parts.py").write_text(ECHO_PARTS)
    monkeypatch.syspath_prepend(str(tmp_path))
    declared = registry.Server(
        **{**ECHO.__dict__, "install": "echo_parts:install", "ready": "echo_parts:ready"},
    )
    assert "echo_parts" not in sys.modules
    reported: list[tuple[str, int, int | None]] = []
    installed = declared.install(EchoSettings(), registry.Source("here"), lambda *r: reported.append(r))
    assert installed.detail == "echoed here" and reported == [("echoing", 1, 1)]
    assert "echo_parts" in sys.modules and declared.ready("ok").detail == "ok"
    monkeypatch.delitem(sys.modules, "echo_parts")
    # pramana's own declarations name theirs so: the settings class is imported when it is asked for.
    assert registry.server("code").settings().__name__ == "CodeSettings"


def test_a_reference_that_cannot_be_loaded_says_which():
    with pytest.raises(InvalidInputError, match="'install_it' is not a 'module:name' reference"):
        registry.Server(**{**ECHO.__dict__, "install": "install_it"})
    missing = registry.Server(**{**ECHO.__dict__, "open": "no_such_module_here:open"})
    with pytest.raises(InvalidInputError, match="cannot load 'no_such_module_here:open'"):
        missing.open(EchoSettings())
