"""The sanskrit server, declared (pramana.servers): the Cologne dictionaries, searched in any script."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import closing
from typing import TYPE_CHECKING

from pramana.servers import Installed, Progress, Server, Source

if TYPE_CHECKING:
    import typer
    from mcp.server.mcpserver import MCPServer

    from pramana.config import SanskritSettings
    from pramana.doctor import ServerStatus
    from pramana.mcp.tools import Readiness
    from pramana.sanskrit.service import SanskritService

INSTRUCTIONS = """Sanskrit dictionaries of the Cologne collection (Monier-Williams, Apte, Macdonell,
Cappeller, ...). Search a word in any script (IAST, Devanāgarī, SLP1, Harvard-Kyoto, ITRANS,
Velthuis, or plain ASCII like 'krishna'), then read articles by their article_id."""

DEFAULT_DICTIONARIES = ("ap90",)


def settings_class() -> type[SanskritSettings]:
    from pramana.config import SanskritSettings

    return SanskritSettings


def install(settings: SanskritSettings, source: Source, progress: Progress) -> Installed:
    """The dictionaries `source.parts` names (csl-orig codes; default Apte's) from `source.location`
    (default: the settings' csl-orig), then the form index of what is installed."""
    import asyncio

    from pramana.sanskrit.forms import build_form_index
    from pramana.sanskrit.source import install as install_dictionaries
    from pramana.sanskrit.store import SanskritStore

    async def reported(what: str, done: int, total: int | None) -> None:
        progress(what, done, total)

    codes = list(source.parts or DEFAULT_DICTIONARIES)
    with closing(SanskritStore(settings.resolved_db_path())) as store:
        installed = asyncio.run(
            install_dictionaries(
                store, codes, source.location or settings.source_url, settings.downloads_dir(), reported
            )
        )
        build_form_index(store, None, lambda done, total: progress("forms", done, total))
        return Installed(store.path, ", ".join(f"{item.code} ({item.entries:,})" for item in installed))


def open_service(settings: SanskritSettings) -> SanskritService:
    from pramana.sanskrit.service import SanskritService

    return SanskritService(settings.resolved_db_path(), read_only=True)


def tools(server: MCPServer, service: Callable[[], SanskritService]) -> None:
    from pramana.sanskrit.tools import tools

    tools(server, service)


def ready(service: SanskritService) -> Readiness:
    from pramana.sanskrit.tools import readiness

    return readiness(service)


def cli() -> typer.Typer:
    from pramana.sanskrit.cli import app

    return app


def doctor() -> list[ServerStatus]:
    from pramana.doctor import ServerStatus, file_size, read_safely
    from pramana.install import command
    from pramana.sanskrit.store import SanskritStore

    path = settings_class().load().resolved_db_path()
    install = f"{command('sanskrit install ap90')}  (any csl-orig codes: mw, ap90, pwkvn…)"
    if not path.is_file():
        return [ServerStatus("sanskrit", False, str(path), 0, "no dictionaries", install)]

    forms: list[bool] = []

    def listed() -> str:
        with closing(SanskritStore(path, read_only=True)) as store:
            found = store.dictionaries()
            forms.append(store.has_forms())
        return ", ".join(f"{d.code} ({d.entry_count:,})" for d in found)

    codes, problem = read_safely(listed)
    size = file_size(path)
    if problem is not None:
        return [ServerStatus("sanskrit", False, str(path), size, f"unreadable: {problem}", install)]
    if not codes:
        return [ServerStatus("sanskrit", False, str(path), size, "no dictionaries", install)]
    forms_hint = f"inflected forms (rāmeṇa → rāma): `{command('sanskrit forms')}`  (seconds)"
    optional = () if forms[0] else (forms_hint,)
    return [ServerStatus("sanskrit", True, str(path), size, f"dictionaries {codes}", "", optional)]


SERVER = Server(
    name="sanskrit",
    settings=settings_class,
    instructions=INSTRUCTIONS,
    install=install,
    open=open_service,
    tools=tools,
    ready=ready,
    doctor=doctor,
    cli=cli,
    preload=("pramana.sanskrit.tools",),
)
