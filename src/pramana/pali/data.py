"""The pali server's data (its declaration's install and doctor, pramana.servers): the Digital Pāḷi
Dictionary, built from its TSV backups or downloaded as its release."""

from __future__ import annotations

from contextlib import closing
from pathlib import Path
from typing import TYPE_CHECKING

from pramana.servers import Installed, Progress, Source

if TYPE_CHECKING:
    from pramana.config import PaliSettings
    from pramana.doctor import ServerStatus


def install(settings: PaliSettings, source: Source, progress: Progress) -> Installed:
    """DPD built from the folder of TSV backups `source.location` names (or whatever it names, with
    the step `build`), else its release downloaded from `location` (a URL or a dpd.db.tar.bz2;
    default: the settings' release). The report is the build's (pali.source.BuildReport), or None."""
    import asyncio

    from pramana.pali.source import build, download_release

    target = settings.resolved_db_path()
    folder = Path(source.location).expanduser() if source.location else None
    if folder is not None and (folder.is_dir() or source.wants("build")):
        report = build(folder, target, progress)
        return Installed(report.path, f"{report.headwords:,} headwords built from {folder}", report=report)

    async def reported(done: int, total: int | None) -> None:
        progress("downloading", done, total)

    url = source.location or settings.release_url
    return Installed(
        asyncio.run(download_release(url, target, progress=reported)), f"DPD's release from {url}"
    )


def doctor() -> list[ServerStatus]:
    from pramana.config import PaliSettings
    from pramana.doctor import ServerStatus, file_size, read_safely
    from pramana.install import command
    from pramana.pali.store import HOW_TO_GET, PaliStore

    path = PaliSettings.load().resolved_db_path()
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
