"""The sanskrit server's data (its declaration's install and doctor, pramana.servers): dictionaries
of csl-orig installed into the dictionary database, then the form index of what is installed."""

from __future__ import annotations

from contextlib import closing
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pramana.servers import Installed, Progress, Source

if TYPE_CHECKING:
    from pramana.config import SanskritSettings
    from pramana.doctor import ServerStatus
    from pramana.sanskrit import source
    from pramana.sanskrit.forms import FormIndexBuilt

DEFAULT_DICTIONARIES = ("ap90",)


@dataclass(frozen=True)
class InstallReport:
    """Each dictionary installed, and the form index built after them (None: the step `forms` was off)."""

    dictionaries: list[source.Installed]
    forms: FormIndexBuilt | None


def install(settings: SanskritSettings, source: Source, progress: Progress) -> Installed:
    """The dictionaries `source.parts` names (csl-orig codes; default Apte's) from `source.location`
    (default: the settings' csl-orig), then (the step `forms`, on unless turned off) the form index
    of what is installed."""
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
        forms = None
        if source.wants("forms", True):
            forms = build_form_index(
                store, None, lambda done, total: progress("verb forms of the Dhātupāṭha (once)", done, total)
            )
        detail = ", ".join(f"{item.code} ({item.entries:,})" for item in installed)
        return Installed(store.path, detail, report=InstallReport(installed, forms))


def doctor() -> list[ServerStatus]:
    from pramana.config import SanskritSettings
    from pramana.doctor import ServerStatus, file_size, read_safely
    from pramana.install import command
    from pramana.sanskrit.store import SanskritStore

    path = SanskritSettings.load().resolved_db_path()
    install = f"{command('sanskrit install ap90')}  (any csl-orig codes: mw, ap90, pwkvn…)"
    if not path.is_file():
        return [ServerStatus("sanskrit", False, str(path), 0, "no dictionaries", install)]

    forms: list[bool] = []
    built_by: list[str | None] = []

    def listed() -> str:
        with closing(SanskritStore(path, read_only=True)) as store:
            found = store.dictionaries()
            forms.append(store.has_forms())
            built_by.append(store.form_state("lexicon"))
        return ", ".join(f"{d.code} ({d.entry_count:,})" for d in found)

    codes, problem = read_safely(listed)
    size = file_size(path)
    if problem is not None:
        return [ServerStatus("sanskrit", False, str(path), size, f"unreadable: {problem}", install)]
    if not codes:
        return [ServerStatus("sanskrit", False, str(path), size, "no dictionaries", install)]
    from pramana.sanskrit.forms import INDEX_VERSION

    forms_hint = f"inflected forms (rāmeṇa → rāma): `{command('sanskrit forms')}`  (seconds)"
    stale_hint = (
        f"the form index is from an older pramana (version {built_by[0]}, now {INDEX_VERSION}): some"
        f" inflected forms are missing or read as before until `{command('sanskrit forms')}` rebuilds it"
        " (a minute)"
    )
    optional: tuple[str, ...] = ()
    if not forms[0]:
        optional = (forms_hint,)
    elif built_by[0] != INDEX_VERSION:
        optional = (stale_hint,)
    if not analyzer_compiled():
        optional += (PURE_PYTHON_HINT,)
    return [ServerStatus("sanskrit", True, str(path), size, f"dictionaries {codes}", "", optional)]


# What a user whose install runs the analyzer as source is told (README "Install"; hatch_build.py).
PURE_PYTHON_HINT = (
    "the word analyzer runs as pure Python here (a checkout run with `uv run`, or a wheel built without a"
    " C compiler): the same answers, about a third more CPU a word; `uv tool install .` with gcc or clang"
    " present compiles it"
)


def analyzer_compiled() -> bool:
    """Whether this install's word analyzer is the compiled one a wheel's build makes (hatch_build.py),
    found without importing it."""
    from importlib.util import find_spec

    spec = find_spec("pramana.sanskrit.analysis")
    return spec is not None and spec.origin is not None and not spec.origin.endswith(".py")
