"""pramana's servers by name, and one MCP server built from one or several of them."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from mcp.server.mcpserver import MCPServer

from pramana.config import ServerSettings
from pramana.errors import InvalidInputError
from pramana.mcp.arguments import polish_tools
from pramana.mcp.calls import DeclaredTool, declared_tools
from pramana.mcp.tools import Readiness, ReadinessCheck, checked, new_server, opened_on_first_use
from pramana.mcp.workers import WorkerPool
from pramana.servers import AnyServer, servers

# pramana's own servers (pramana.servers has every one, PRAMANA_SERVERS' too).
SERVER_NAMES = ("gita", "sanskrit", "pali", "code")

COMBINED_INSTRUCTIONS = """pramana: grounded lookups from local data. This endpoint serves several
servers' tools together; each section below says what one of them is for."""


@dataclass
class Served:
    """The MCP server to run and, per pramana server in it, how to tell whether it has its data;
    `left_out`: the servers `all` did not include, with why."""

    server: MCPServer
    checks: dict[str, ReadinessCheck]
    left_out: dict[str, str] = field(default_factory=dict)
    workers: WorkerPool | None = None
    tools: list[DeclaredTool] = field(default_factory=list)  # every tool, as tool_call declared it

    def readiness(self) -> dict[str, Readiness]:
        return {name: checked(check) for name, check in self.checks.items()}


def server_names(requested: Sequence[str]) -> list[str]:
    """The servers asked for, in a stable order: names, or `all` for every one."""
    known = list(servers())
    wanted = {name.strip().lower() for name in requested}
    if not wanted:
        raise InvalidInputError(f"name a server to serve: {', '.join(known)} or all")
    if "all" in wanted:
        return known
    unknown = sorted(wanted - set(known))
    if unknown:
        raise InvalidInputError(f"unknown server {', '.join(unknown)}; choose from {', '.join(known)} or all")
    return [name for name in known if name in wanted]


def servable(
    requested: Sequence[str], settings: Mapping[str, ServerSettings]
) -> tuple[list[str], dict[str, str]]:
    """The servers to run, and those left out with why; `settings` has each requested server's.

    `all` means every server whose configuration is there (the code server needs a repository or an
    index); a server named explicitly without it is an error. A database not built yet is no reason
    to leave a server out: the server answers with how to get its data, and /ready says why it waits.
    """
    names = server_names(requested)
    everything = "all" in {name.strip().lower() for name in requested}
    left_out: dict[str, str] = {}
    for name in names:
        reason = settings[name].missing_configuration()
        if reason is not None and not everything:
            raise InvalidInputError(f"cannot serve {name}: {reason}")
        if reason is not None:
            left_out[name] = reason
    if len(left_out) == len(names):
        raise InvalidInputError(
            "nothing to serve: " + "; ".join(f"{n}: {why}" for n, why in left_out.items())
        )
    return [name for name in names if name not in left_out], left_out


def build(
    names: Sequence[str],
    settings: Mapping[str, Any] | None = None,
    left_out: Mapping[str, str] | None = None,
    *,
    worker_processes: bool = True,
) -> Served:
    """One MCP server with the tools of every named server; settings[name] overrides its defaults.

    A single server keeps its own name and instructions (`vedabase` for gita, as its spec says);
    several are served as `pramana`, with each one's instructions under its own heading. Heavy
    tools' long calls run in a pool of worker processes (started when first needed), unless
    `worker_processes` is false.
    """
    settings = dict(settings or {})
    every = servers()
    chosen = {name: every[name] for name in names}
    if len(chosen) == 1:
        (only,) = chosen.values()
        server = new_server(only.mcp_name, only.instructions)
    else:
        sections = [f"## {name}\n{declared.instructions}" for name, declared in chosen.items()]
        server = new_server("pramana", "\n\n".join([COMBINED_INSTRUCTIONS, *sections]))
    checks: dict[str, ReadinessCheck] = {}
    declared_tools_of: dict[str, list[DeclaredTool]] = {}
    for name, declared in chosen.items():
        own = settings.get(name) or declared.load_settings()
        settings[name] = own
        with declared_tools() as tools:
            checks[name] = _add(server, declared, own)
        declared_tools_of[name] = tools
    publish_output_schemas_only(server)
    polish_tools(server)
    heavy = {name: [tool for tool in tools if tool.budget.heavy] for name, tools in declared_tools_of.items()}
    pool = None
    if worker_processes and any(heavy.values()):
        with_heavy = [name for name, tools in heavy.items() if tools]
        pool = WorkerPool(
            functools.partial(heavy_tools, with_heavy, {name: settings[name] for name in with_heavy}),
            preload=[module for name in with_heavy for module in chosen[name].preload],
        )
        for tools in heavy.values():
            for tool in tools:
                tool.processes = pool
        # A server may ask for a worker process at start (its heavy tools take seconds to load there).
        warm = [chosen[name].warm_workers for name in with_heavy]
        if any(wants(settings[name]) for name, wants in zip(with_heavy, warm, strict=True) if wants):
            pool.prestart()
    every_tool = [tool for tools in declared_tools_of.values() for tool in tools]
    return Served(server, checks, dict(left_out or {}), pool, every_tool)


def _add(server: MCPServer, declared: AnyServer, settings: ServerSettings) -> ReadinessCheck:
    """Add one server's tools over its service (opened once, when first needed); its readiness check."""
    service = opened_on_first_use(lambda: declared.open(settings))
    declared.tools(server, service)
    return lambda: declared.ready(service())


def heavy_tools(names: Sequence[str], settings: Mapping[str, Any]) -> dict[str, Callable[..., Any]]:
    """In a worker process: the heavy tools of the named servers, as plain synchronous functions
    over the process's own services."""
    served = build(names, settings, worker_processes=False)
    return {tool.name: tool.function for tool in served.tools if tool.budget.heavy}


def publish_output_schemas_only(server: MCPServer) -> None:
    """Keep each tool's published outputSchema, but not the SDK's check of every result against it.

    Every structured result is the model_dump() of an instance of the very model the schema is made
    from (mcp.tools.result), so the check, a full pydantic validation of the result done on the
    event loop, can find nothing; under load it took a third of the event loop's time, which every
    other call and /health waited behind. The SDK reads these fields live and names a schema
    published without a model as a supported case. Clients still validate results against the
    schema (the SDK's ClientSession does, in the stdio tests of every server).
    """
    # The one use of the SDK's private tool registry: it has no public way to publish a schema
    # without checking results against it (structured_output=False drops the schema too).
    for tool in server._tool_manager.list_tools():
        if tool.fn_metadata.output_schema is not None:
            tool.fn_metadata.output_model = None
