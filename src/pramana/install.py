"""How pramana was installed, and so which commands work: the hints every message gives.

A hint that does not work where it is read is worse than none: after `uv tool install .`, `uv pip
install 'pramana-lookup[embeddings]'` answers "No virtual environment found" (and the name is not
published yet). Three ways of installing are told apart by what they leave on disk:

- `tool`: `uv tool install` made a virtual environment of pramana's own, with `uv-receipt.toml` in it
  (what it was installed from and with which extras);
- `checkout`: an editable install of a checkout (`uv sync`, `pip install -e`), run with `uv run`;
- `venv`: a virtual environment (or a system Python) that pip or `uv pip` installed pramana into,
  from a wheel, a directory or an index (`direct_url.json` in its metadata says which).

Only files are read, nothing is imported or run: `command()` and `extra_command()` are called while
modules load (their messages are constants).
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
import sysconfig
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Literal
from urllib.parse import unquote, urlparse

from pramana import DISTRIBUTION

Mode = Literal["tool", "checkout", "venv"]
# A module each extra installs, to tell which extras are there without importing them.
EXTRA_MODULES = {"embeddings": "onnxruntime", "milvus": "pymilvus", "pinecone": "pinecone"}


@dataclass(frozen=True)
class Installation:
    mode: Mode
    python: Path  # the interpreter pramana runs in
    scripts: Path  # where its `pramana` script is
    source: str | None  # what it was installed from: a directory, a file or URL; None: an index
    checkout: Path | None = None  # the checkout of an editable install
    extras: tuple[str, ...] = ()  # the extras installed
    editable: bool = False
    has_pip: bool = True  # pip is installed in that environment (uv's venvs have none)

    def command(self, args: str = "", *, cwd: Path | None = None, env: dict[str, str] | None = None) -> str:
        """The command line that runs `pramana ARGS` here: `pramana` when that name finds this
        installation (a tool's is on PATH once `uv tool update-shell` ran), `uv run pramana` in a
        checkout run with `uv run`, else the script's absolute path."""
        return " ".join(
            part for part in (self._launcher(cwd, os.environ if env is None else env), args) if part
        )

    def _launcher(self, cwd: Path | None, env: Mapping[str, str]) -> str:
        if self.mode == "tool":
            return "pramana"
        script = self.scripts / _script_name("pramana")
        found = shutil.which("pramana", path=env.get("PATH", ""))
        on_path = found is not None and _same_file(Path(found), script)
        # `uv run` puts the checkout's .venv/bin on PATH for its child only: the reader's shell
        # finds `pramana` there only if they activated that environment.
        if (
            self.mode == "checkout"
            and self.checkout is not None
            and (not on_path or "UV_RUN_RECURSION_DEPTH" in env)
        ):
            return f"uv run{self._project(cwd)} pramana"
        if on_path:
            return "pramana"
        if script.exists():
            return _quoted(script)
        return f"{_quoted(self.python)} -m pramana"

    def _project(self, cwd: Path | None) -> str:
        """` --project CHECKOUT` for a uv command run outside the checkout, else nothing."""
        if self.checkout is None:
            return ""
        here = (cwd or Path.cwd()).resolve()
        inside = here == self.checkout or self.checkout in here.parents
        return "" if inside else f" --project {_quoted(self.checkout)}"

    def extra_command(self, extra: str, *, cwd: Path | None = None) -> str:
        """The command that adds one of pramana's extras to this installation, keeping the others."""
        if self.mode == "checkout":
            return f"uv sync{self._project(cwd)} --inexact --extra {extra}"
        if self.mode == "tool":
            extras = sorted({*self.extras, extra})
            editable = "--editable " if self.editable else ""
            return f"uv tool install --force {editable}{_quoted(self._requirement(extras))}"
        requirement = _quoted(self._requirement([extra]))
        if self.has_pip:
            return f"{_quoted(self.python)} -m pip install {requirement}"
        return f"uv pip install --python {_quoted(self.python)} {requirement}"

    def reinstall_command(self, package: str, *, cwd: Path | None = None) -> str:
        """The command that reinstalls one package of this installation (a damaged file in it)."""
        if self.mode == "checkout":
            return f"uv sync{self._project(cwd)} --inexact --reinstall-package {package}"
        if self.mode == "tool":
            requirement = _quoted(self._requirement(sorted(self.extras)))
            return f"uv tool install --force --reinstall-package {package} {requirement}"
        if self.has_pip:
            return f"{_quoted(self.python)} -m pip install --force-reinstall --no-deps {package}"
        return f"uv pip install --python {_quoted(self.python)} --reinstall --no-deps {package}"

    def _requirement(self, extras: list[str]) -> str:
        """pramana with `extras`, from where it came: `DIR[e]`, `pramana-lookup[e] @ URL`, or the index's."""
        suffix = f"[{','.join(extras)}]" if extras else ""
        if self.source is None:
            return DISTRIBUTION + suffix
        if "://" in self.source:
            return f"{DISTRIBUTION}{suffix} @ {self.source}"
        if self.source.endswith((".whl", ".tar.gz", ".zip")):  # an archive by its path: a URL for it
            return f"{DISTRIBUTION}{suffix} @ {Path(self.source).absolute().as_uri()}"
        return self.source + suffix  # a directory


def _script_name(name: str) -> str:
    return f"{name}.exe" if os.name == "nt" else name


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return False


def _quoted(value: str | Path) -> str:
    return shlex.quote(str(value))


def detect(
    prefix: Path | None = None,
    python: Path | None = None,
    scripts: Path | None = None,
    dist_info: Path | None = None,
) -> Installation:
    """The installation at `prefix` (default: this interpreter's), its metadata in `dist_info`."""
    prefix = prefix or Path(sys.prefix)
    python = python or Path(sys.executable)
    scripts = scripts or Path(sysconfig.get_path("scripts"))
    dist_info = dist_info or _own_dist_info()
    direct = _direct_url(dist_info)
    receipt = prefix / "uv-receipt.toml"
    if receipt.is_file():
        source, extras, editable = _from_receipt(receipt)
        return Installation("tool", python, scripts, source, None, extras, editable, has_pip=False)
    has_pip = any(Path(p).joinpath("pip").is_dir() for p in _site_packages(prefix))
    extras = tuple(extra for extra, module in EXTRA_MODULES.items() if _importable(module, prefix))
    if direct is not None and direct.get("dir_info", {}).get("editable"):
        checkout = _local_path(direct.get("url", ""))
        checkout = checkout.resolve() if checkout is not None else None
        if checkout is not None and (checkout / "pyproject.toml").is_file():
            return Installation("checkout", python, scripts, str(checkout), checkout, extras, True, has_pip)
    return Installation("venv", python, scripts, _source(direct), None, extras, False, has_pip)


def _own_dist_info() -> Path | None:
    """pramana's installed metadata folder, found by its name in site-packages (importlib.metadata
    would import the email package, which the quick commands otherwise never load)."""
    import pramana

    name = DISTRIBUTION.replace("-", "_")
    places = {sysconfig.get_path("purelib"), sysconfig.get_path("platlib")}
    places.add(str(Path(pramana.__file__).parents[1]))
    for place in places:
        found = sorted(Path(place).glob(f"{name}-*.dist-info"))
        if found:
            return found[-1]
    return None


def _direct_url(dist_info: Path | None) -> dict | None:
    """PEP 610's record of where a distribution was installed from; None for an index."""
    if dist_info is None:
        return None
    try:
        found = json.loads((dist_info / "direct_url.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return found if isinstance(found, dict) else None


def _local_path(url: str) -> Path | None:
    parsed = urlparse(url)
    if parsed.scheme != "file":
        return None
    return Path(unquote(parsed.path))


def _source(direct: dict | None) -> str | None:
    """A local directory as a path; a wheel, an archive or a remote URL as its URL; None for an index."""
    if direct is None or not direct.get("url"):
        return None
    url = str(direct["url"])
    path = _local_path(url)
    if path is not None and "dir_info" in direct:
        return str(path)
    if path is not None and not path.exists():
        return None  # the wheel it came from is gone: the index's is the one left
    return url


def _from_receipt(receipt: Path) -> tuple[str | None, tuple[str, ...], bool]:
    """What uv tool installed pramana from, and with which extras (uv-receipt.toml's requirements)."""
    try:
        requirements = tomllib.loads(receipt.read_text(encoding="utf-8"))["tool"]["requirements"]
    except (OSError, KeyError, TypeError, tomllib.TOMLDecodeError):
        return None, (), False
    for entry in requirements:
        if isinstance(entry, dict) and entry.get("name") == DISTRIBUTION:
            extras = tuple(str(extra) for extra in entry.get("extras", ()))
            if entry.get("editable"):
                return str(entry["editable"]), extras, True
            for key in ("directory", "path"):
                if entry.get(key):
                    return str(entry[key]), extras, False
            if entry.get("url"):
                return str(entry["url"]), extras, False
            if entry.get("git"):
                return f"git+{entry['git']}", extras, False
            return None, extras, False
    return None, (), False


def _site_packages(prefix: Path) -> list[Path]:
    if prefix == Path(sys.prefix):
        return [Path(p) for p in sys.path if p.endswith("site-packages")]
    return [*prefix.glob("lib/python3*/site-packages"), prefix / "Lib" / "site-packages"]


def _importable(module: str, prefix: Path) -> bool:
    if prefix == Path(sys.prefix):
        import importlib.util

        return importlib.util.find_spec(module) is not None
    return any((site / module).is_dir() for site in _site_packages(prefix))


@cache
def installation() -> Installation:
    """This process's installation (read once)."""
    return detect()


def command(args: str = "") -> str:
    """`pramana ARGS` as it runs here (see Installation.command)."""
    return installation().command(args)


def extra_command(extra: str) -> str:
    """The command that adds one of pramana's extras here (see Installation.extra_command)."""
    return installation().extra_command(extra)


def reinstall_command(package: str) -> str:
    return installation().reinstall_command(package)


def rerun(args: str, *, without: tuple[str, ...] = ("--source", "--url")) -> str:
    """`pramana ARGS` to run again: the command line this process was started with when it is that
    command (its other flags kept, such as --no-forms), minus the options `without` names; else ARGS."""
    import shlex

    given = sys.argv[1:]
    words = args.split()
    if Path(sys.argv[0]).name not in ("pramana", "pramana.exe", "__main__.py") or given[:2] != words[:2]:
        return command(args)
    kept: list[str] = []
    skip = False
    for word in given:
        if skip:
            skip = False
        elif word in without:
            skip = True
        elif not word.startswith(tuple(f"{option}=" for option in without)):
            kept.append(word)
    return command(shlex.join(kept))
