"""Helpers every pramana MCP server uses to shape tool results and errors."""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from mcp.server.lowlevel import Server
from mcp.server.mcpserver import MCPServer
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel

from pramana import __version__, work
from pramana.errors import InvalidInputError, PramanaError
from pramana.store.failures import storage_problem

log = logging.getLogger(__name__)

READ_ONLY = ToolAnnotations(
    read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)

LONG_LIST = 20
T = TypeVar("T")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


def log_level(default: str = "WARNING") -> Any:
    """Server log level from PRAMANA_LOG_LEVEL (default WARNING: stdio servers log to stderr)."""
    level = os.environ.get("PRAMANA_LOG_LEVEL", "").strip().upper() or default
    if level not in LOG_LEVELS:
        raise InvalidInputError(
            f"PRAMANA_LOG_LEVEL={os.environ['PRAMANA_LOG_LEVEL']!r} is not a log level: use one of"
            f" {', '.join(LOG_LEVELS)}"
        )
    return level


def new_server(name: str, instructions: str) -> MCPServer:
    """An empty pramana MCP server; each server package's `register` adds its tools to it."""
    server = MCPServer(name=name, version=__version__, instructions=instructions, log_level=log_level())
    if not tracing_configured():
        without_tracing(server)
    return server


def tracing_configured() -> bool:
    """Whether this process exports OpenTelemetry spans (a tracer provider is installed, as
    `opentelemetry-instrument` or the application does at start, or named by OTEL_PYTHON_TRACER_PROVIDER)."""
    from opentelemetry import trace

    return not isinstance(trace.get_tracer_provider(), trace.ProxyTracerProvider)


def without_tracing(server: MCPServer) -> None:
    """Leave out the SDK's OpenTelemetry middleware: with no tracer provider its span per message is a
    no-op, yet it cost ~5% of the event loop's time a call (the span's attributes, the trace context
    read from `_meta`, the context manager; py-spy, docs/benchmarks.md). The SDK names dropping it
    from the middleware list as the way to opt out; its own middleware are found as the ones a new
    low-level server starts with (by name: only the telemetry one), so that ours and the SDK's
    request-state boundary stay."""
    built_in = {type(found) for found in Server("probe").middleware if "Telemetry" in type(found).__name__}
    server.middleware[:] = [
        middleware for middleware in server.middleware if type(middleware) not in built_in
    ]


class Readiness(BaseModel):
    """Whether a server has the data it needs to answer (GET /ready reports one per server);
    `database`: the state of a shared database's connection pool, for a server that uses one."""

    ready: bool
    detail: str
    database: dict[str, Any] | None = None


ReadinessCheck = Callable[[], Readiness]


def explained(exc: Exception, where: str) -> str:
    """What to tell the agent about a failure in `where` (a tool or a readiness check).

    Pramana errors and SQLite failures (locked, read-only, damaged) say what happened; anything
    unexpected is logged with its traceback here and reported without it.
    """
    if isinstance(exc, PramanaError):
        return str(exc)
    problem = storage_problem(exc)
    if problem is not None:
        log.warning("%s: %s", where, problem)
        return problem
    log.exception("%s failed unexpectedly", where)
    return f"internal error in {where}: {type(exc).__name__}; the server log has details"


def checked(check: Callable[[], Readiness]) -> Readiness:
    """Run a readiness check: a failure (no database, a corrupt or locked file) means not ready, with why."""
    try:
        return check()
    except Exception as exc:
        return Readiness(ready=False, detail=explained(exc, "readiness check"))


def opened_on_first_use(factory: Callable[[], T]) -> Callable[[], T]:
    """A getter that builds its value on the first call, once, even from several worker threads.

    Servers open their database this way, so a missing one is reported to the agent on its first
    call (with how to get one) instead of stopping the server at startup.
    """
    lock = threading.Lock()
    made: list[T] = []

    def get() -> T:
        with lock:
            if not made:
                made.append(factory())
                work.settle_heap()
            return made[0]

    return get


def result(text: str, model: BaseModel, *, omit_none: bool = False) -> CallToolResult:
    """Readable markdown for the model plus the typed result for programs.

    `omit_none` leaves out optional fields that are None (only fields the schema does not require).
    """
    return CallToolResult(
        content=[TextContent(type="text", text=text)],
        structured_content=_dumped(model, omit_none),
    )


def _dumped(model: BaseModel, omit_none: bool) -> dict[str, Any]:
    """model_dump, with long lists of models dumped one item at a time.

    pydantic's serializer holds the interpreter lock for the whole of one call: a 10,000-character
    Pāḷi sentence's analysis took ~0.2 s, during which no other call (nor the event loop) ran.
    """
    long_lists = {
        name
        for name, value in model
        if isinstance(value, list) and len(value) > LONG_LIST and isinstance(value[0], BaseModel)
    }
    dumped = model.model_dump(mode="json", exclude_none=omit_none, exclude=long_lists)
    for name in long_lists:
        dumped[name] = [item.model_dump(mode="json", exclude_none=omit_none) for item in getattr(model, name)]
    return dumped
