"""What a pramana server is, declared once per server, and the registry everything else reads.

Each server package declares itself in `pramana/<package>/server.py` as `SERVER = Server(...)`: its
name, its settings, its instructions, how its data is installed (source → store), how its service
opens, its tools, its readiness and its `pramana doctor` lines. The MCP layer (`pramana.mcp.servers`),
the `pramana` command (its groups, `serve`, `config`) and `pramana doctor` read the registry here; none
of them lists servers by hand. A server outside pramana is a module with such a `SERVER`, named in
PRAMANA_SERVERS (docs/development.md, "Adding a server").

A declaration is cheap to import: its callables import their server's code (its settings class too,
pydantic's) when they are called, so that `pramana --help` loads neither pydantic nor the MCP SDK,
and `pramana code search` no other server's modules.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from pramana.errors import InvalidInputError

if TYPE_CHECKING:
    import typer
    from mcp.server.mcpserver import MCPServer

    from pramana.config import ServerSettings
    from pramana.doctor import ServerStatus
    from pramana.mcp.tools import Readiness

S = TypeVar("S", bound="ServerSettings")
Service = TypeVar("Service")
T = TypeVar("T")

# (what is happening, done, total or None while unknown): every install reports through this.
Progress = Callable[[str, int, int | None], None]

# pramana's own servers, in the order they are listed and served.
BUILT_IN = ("pramana.gita.server", "pramana.sanskrit.server", "pramana.pali.server", "pramana.code.server")
# More servers: modules with a SERVER, comma-separated (a server outside pramana, or one under test).
EXTRA_VARIABLE = "PRAMANA_SERVERS"


@dataclass(frozen=True)
class Source:
    """Where an install reads from: `location` (a URL, a file or a folder; None: what the settings
    name) and `parts`, which of it to install (dictionary codes, books; empty: the server's default).
    `force`: install again what is installed already; `steps`: the server's optional steps, on or
    off (gita's `vectors`, sanskrit's `forms`, pali's `build`), as its own command's flags set them."""

    location: str | None = None
    parts: tuple[str, ...] = ()
    force: bool = False
    steps: Mapping[str, bool] = field(default_factory=dict)

    def wants(self, step: str, default: bool = False) -> bool:
        return self.steps.get(step, default)


@dataclass(frozen=True)
class Installed:
    """What an install left: where (the store's file, or a database server's name as an answer may
    give it), and what it holds, in words. `complete` is False when part of it failed (`detail`
    says what, and that running it again goes on); `report` is the server's own account of it (a
    seed's or an index run's), for its own command to show in full."""

    path: Path | str
    detail: str
    complete: bool = True
    report: Any = None


class Server(Generic[S, Service]):
    """One server's declaration.

    - `name`: its `pramana` command group and `pramana serve` argument; `title`: its MCP name when
      served alone (default `name`).
    - `settings()`: its settings class (a pramana.config.ServerSettings).
    - `install(settings, source, progress)`: fetch or build its data into its store.
    - `open(settings)`: its service over that store (made once per process, on the first call that
      needs it, so that a missing store is an answer saying how to install it, not a crash at start).
    - `tools(mcp, service)`: add its MCP tools to `mcp`; `service()` opens the service (once).
    - `ready(service)`: whether it has the data it needs to answer (GET /ready, `pramana doctor`).
    - `doctor()`: its `pramana doctor` lines, reading its store without changing it.
    - `cli()`: its `pramana <name> …` command group, if it has one.
    - `preload`: modules a worker process imports before its first heavy call (its heavy tools' code);
      `warm_workers(settings)`: whether to start a worker process with the server.

    Each callable may be given as a "module:name" string instead, imported when it is first called
    (so that reading the declaration imports nothing): for `settings` and `cli` it names the
    settings class and the typer app, for the others the function.
    """

    def __init__(
        self,
        *,
        name: str,
        settings: Callable[[], type[S]] | str,
        instructions: str,
        install: Callable[[S, Source, Progress], Installed] | str,
        open: Callable[[S], Service] | str,
        tools: Callable[[MCPServer, Callable[[], Service]], None] | str,
        ready: Callable[[Service], Readiness] | str,
        doctor: Callable[[], list[ServerStatus]] | str,
        cli: Callable[[], typer.Typer] | str | None = None,
        title: str = "",
        preload: tuple[str, ...] = (),
        warm_workers: Callable[[S], bool] | str | None = None,
    ) -> None:
        self.name = name
        self.settings: Callable[[], type[S]] = named(settings) if isinstance(settings, str) else settings
        self.instructions = instructions
        self.install: Callable[[S, Source, Progress], Installed] = called(install)
        self.open: Callable[[S], Service] = called(open)
        self.tools: Callable[[MCPServer, Callable[[], Service]], None] = called(tools)
        self.ready: Callable[[Service], Readiness] = called(ready)
        self.doctor: Callable[[], list[ServerStatus]] = called(doctor)
        self.cli: Callable[[], typer.Typer] | None = named(cli) if isinstance(cli, str) else cli
        self.title = title
        self.preload = preload
        self.warm_workers: Callable[[S], bool] | None = None if warm_workers is None else called(warm_workers)

    def __repr__(self) -> str:
        return f"Server(name={self.name!r})"

    @property
    def mcp_name(self) -> str:
        return self.title or self.name

    def load_settings(self, **given: Any) -> S:
        """Its settings from the environment; `given` (flags that were set) override it."""
        return self.settings().load(**given)


def resolve(reference: str) -> Any:
    """What a "module:name" reference names, imported now."""
    module_name, _, attribute = reference.partition(":")
    try:
        return getattr(importlib.import_module(module_name), attribute)
    except (ImportError, AttributeError) as exc:
        raise InvalidInputError(f"cannot load {reference!r} ({exc}); name it as 'module:name'") from None


def _checked(reference: str) -> str:
    module_name, colon, attribute = reference.partition(":")
    if not (colon and module_name and attribute.isidentifier()):
        raise InvalidInputError(f"{reference!r} is not a 'module:name' reference")
    return reference


def named(reference: str) -> Callable[[], Any]:
    """A callable returning what `reference` names (a class, an app), imported on the first call."""
    checked = _checked(reference)
    return lambda: resolve(checked)


def called(function: Callable[..., T] | str) -> Callable[..., T]:
    """`function`, or, given a "module:name" reference, a callable that imports it when called."""
    if not isinstance(function, str):
        return function
    checked = _checked(function)

    def call(*args: Any) -> T:
        found: Callable[..., T] = resolve(checked)
        return found(*args)

    call.__name__ = call.__qualname__ = checked
    return call


AnyServer = Server[Any, Any]
_registered: dict[str, AnyServer] = {}


def register(server: AnyServer) -> AnyServer:
    """Add a server to this process's registry (a test's, or one a program embeds); PRAMANA_SERVERS
    does the same for every pramana process started with it."""
    if not server.name.isidentifier() or server.name == "all":
        raise InvalidInputError(f"a server's name is a word (not 'all'): {server.name!r}")
    _registered[server.name] = server
    return server


def unregister(name: str) -> None:
    _registered.pop(name, None)


def _declared(module_name: str) -> AnyServer:
    try:
        declared = importlib.import_module(module_name).SERVER
    except (ImportError, AttributeError) as exc:
        raise InvalidInputError(
            f"{EXTRA_VARIABLE}: cannot load a server from {module_name!r} ({exc}); name a module that"
            " defines SERVER = pramana.servers.Server(...)"
        ) from None
    if not isinstance(declared, Server):
        raise InvalidInputError(f"{EXTRA_VARIABLE}: {module_name}.SERVER is not a pramana.servers.Server")
    return declared


def _modules() -> Iterator[str]:
    yield from BUILT_IN
    for name in os.environ.get(EXTRA_VARIABLE, "").split(","):
        if name.strip():
            yield name.strip()


def servers() -> dict[str, AnyServer]:
    """Every server, by name: pramana's, then PRAMANA_SERVERS', then those registered in process."""
    found: dict[str, AnyServer] = {}
    for module_name in _modules():
        declared = _declared(module_name)
        found.setdefault(declared.name, declared)
    for name, declared in _registered.items():
        found.setdefault(name, declared)
    return found


def server(name: str) -> AnyServer:
    """The server named `name`, or an error naming those there are."""
    every = servers()
    if name not in every:
        raise InvalidInputError(f"unknown server {name}; choose from {', '.join(every)}")
    return every[name]
