"""The pali server, declared (pramana.servers): the Digital Pāḷi Dictionary for agents."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import TYPE_CHECKING

from pramana.servers import Installed, Progress, Server, Source

if TYPE_CHECKING:
    import typer
    from mcp.server.mcpserver import MCPServer

    from pramana.config import PaliSettings
    from pramana.doctor import ServerStatus
    from pramana.mcp.tools import Readiness
    from pramana.pali.service import PaliService

INSTRUCTIONS = """The Digital Pāḷi Dictionary (DPD). Give a Pāḷi sentence (Roman, Sinhala, Thai, Myanmar
or Devanāgarī script) to get every word's candidate headwords with grammar and meaning; look up one
word in depth; search English meanings; transliterate Pāḷi between scripts."""


def settings_class() -> type[PaliSettings]:
    from pramana.config import PaliSettings

    return PaliSettings


def install(settings: PaliSettings, source: Source, progress: Progress) -> Installed:
    """DPD built from the folder of TSV backups `source.location` names, else its release downloaded
    from `location` (a URL or a dpd.db.tar.bz2; default: the settings' release)."""
    import asyncio

    from pramana.pali.source import build, download_release

    target = settings.resolved_db_path()
    folder = Path(source.location).expanduser() if source.location else None
    if folder is not None and folder.is_dir():
        report = build(folder, target, progress)
        return Installed(report.path, f"{report.headwords:,} headwords built from {folder}")

    async def reported(done: int, total: int | None) -> None:
        progress("downloading", done, total)

    url = source.location or settings.release_url
    return Installed(
        asyncio.run(download_release(url, target, progress=reported)), f"DPD's release from {url}"
    )


def open_service(settings: PaliSettings) -> PaliService:
    from pramana.pali.service import PaliService

    return PaliService(settings.resolved_db_path())


def tools(server: MCPServer, service: Callable[[], PaliService]) -> None:
    from pramana.pali.tools import tools

    tools(server, service)


def ready(service: PaliService) -> Readiness:
    from pramana.pali.tools import readiness

    return readiness(service)


def cli() -> typer.Typer:
    from pramana.pali.cli import app

    return app


def doctor() -> list[ServerStatus]:
    from pramana.doctor import ServerStatus, file_size, read_safely
    from pramana.install import command
    from pramana.pali.store import HOW_TO_GET, PaliStore

    path = settings_class().load().resolved_db_path()
    get = f"{command('pali download')}  (DPD's latest release)"
    if not path.is_file():
        return [ServerStatus("pali", False, str(path), 0, "no DPD database", get)]

    def headwords() -> str:
        with closing(PaliStore(path)) as store:
            return f"{store.headword_count():,}"

    count, problem = read_safely(headwords)
    if problem is not None:
        return [ServerStatus("pali", False, str(path), file_size(path), f"unreadable: {problem}", HOW_TO_GET)]
    return [ServerStatus("pali", True, str(path), file_size(path), f"DPD with {count} headwords", "")]


SERVER = Server(
    name="pali",
    settings=settings_class,
    instructions=INSTRUCTIONS,
    install=install,
    open=open_service,
    tools=tools,
    ready=ready,
    doctor=doctor,
    cli=cli,
    preload=("pramana.pali.tools",),
)
