"""Serving pramana over HTTP: streamable HTTP at /mcp, legacy SSE at /sse, /health and /ready."""

from __future__ import annotations

import contextlib
import logging
import signal
import socket
import time
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import anyio.to_thread
import uvicorn
from mcp.server.transport_security import TransportSecuritySettings
from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, Route
from starlette.types import ASGIApp, Receive, Scope, Send

from pramana import __version__
from pramana.config import HttpSettings
from pramana.errors import InvalidInputError
from pramana.mcp.auth import Authenticator, JwtVerifier, StaticTokens
from pramana.mcp.disclosure import hide_paths, public_message, public_result
from pramana.mcp.guard import WILDCARD_ADDRESSES, Guard, HostPolicy, RateLimiter, is_loopback
from pramana.mcp.logs import configure_json_logging
from pramana.mcp.servers import Served

log = logging.getLogger("pramana.http")
GRACEFUL_SHUTDOWN_SECONDS = 5


def check_exposure(settings: HttpSettings) -> None:
    """Refuse settings that would expose an open server by accident."""
    if settings.auth == "none" and not is_loopback(settings.host) and not settings.insecure:
        raise InvalidInputError(
            f"binding to {settings.host} without auth exposes every tool to the network; "
            "use --auth token or --auth jwt, or pass --insecure if that is what you want"
        )
    if settings.host in WILDCARD_ADDRESSES and settings.auth == "none" and not settings.host_list():
        # Without auth, Host checking is what stops DNS rebinding: it needs the names clients use.
        raise InvalidInputError(
            f"binding to {settings.host or 'every address'} without auth needs --allowed-host "
            "with the name(s) clients use to reach this server"
        )


def make_authenticator(settings: HttpSettings) -> Authenticator | None:
    if settings.auth == "token":
        return StaticTokens(settings.token_list())
    if settings.auth == "jwt":
        return JwtVerifier(
            settings.jwks_url, settings.jwt_issuer, settings.jwt_audience or settings.resource_url()
        )
    return None


def build_app(served: Served, settings: HttpSettings) -> ASGIApp:
    """The whole HTTP app: MCP transports behind the Guard, plus health, readiness and auth metadata."""
    authenticator = make_authenticator(settings)
    # Host and Origin are checked by the Guard, the same way for every MCP route.
    unchecked = TransportSecuritySettings(enable_dns_rebinding_protection=False)
    streamable = served.server.streamable_http_app(
        streamable_http_path="/mcp",
        stateless_http=settings.stateless,
        max_request_body_size=settings.max_body_bytes,
        transport_security=unchecked,
        host=settings.host,
    )
    legacy = served.server.sse_app(
        sse_path="/sse",
        message_path="/messages/",
        max_request_body_size=settings.max_body_bytes,
        transport_security=unchecked,
        host=settings.host,
    )
    started = time.monotonic()

    async def health(_: Request) -> JSONResponse:
        servers = list(served.checks)
        uptime = round(time.monotonic() - started, 1)
        return JSONResponse({"status": "ok", "version": __version__, "servers": servers, "uptime_s": uptime})

    async def ready(_: Request) -> JSONResponse:
        states = await anyio.to_thread.run_sync(served.readiness)
        everything = all(state.ready for state in states.values())
        body = {
            "ready": everything,
            "servers": {
                name: {
                    "ready": state.ready,
                    "detail": public_message(state.detail),
                    # a store on PostgreSQL: its pool (names no user, password or socket path)
                    **({"database": public_result(state.database)} if state.database is not None else {}),
                }
                for name, state in states.items()
            },
            # what `all` left out, with why; not counted against readiness
            "not_served": {name: public_message(why) for name, why in served.left_out.items()},
        }
        return JSONResponse(body, 200 if everything else 503)

    routes: list[BaseRoute] = [
        Route("/health", health, methods=["GET"]),
        Route("/ready", ready, methods=["GET"]),
    ]
    metadata_url = None
    if settings.auth == "jwt":
        metadata_routes, metadata_url = _protected_resource_metadata(settings)
        routes += metadata_routes
    routes += [*streamable.routes, *legacy.routes]

    @contextlib.asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        async with served.server.session_manager.run():
            yield
        log.info("shutdown complete", extra={"fields": {"event": "stopped"}})

    app = Starlette(routes=routes, lifespan=lifespan)
    per_minute = settings.effective_rate_limit()
    limiter = RateLimiter(per_minute) if per_minute else None
    hosts = HostPolicy(settings.host, _allowed_hosts(settings), settings.origin_list())
    return Guard(
        NoEventReplay(app),
        hosts=hosts,
        authenticator=authenticator,
        limiter=limiter,
        resource_metadata_url=metadata_url,
    )


class NoEventReplay:
    """`GET /mcp` with `Last-Event-ID` asks to resume a stream from an event. pramana keeps no event
    history (its SSE events carry no ids, so a client has none to resume from): such a request is
    refused with 400 and a JSON-RPC error saying to open the stream afresh, where the SDK would
    answer with no response at all (a 500 with an empty body)."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] == "http"
            and scope.get("method") == "GET"
            and scope["path"] == "/mcp"
            and Headers(scope=scope).get("last-event-id") is not None
        ):
            error = {
                "jsonrpc": "2.0",
                "id": None,
                "error": {
                    "code": -32600,
                    "message": "this server keeps no event history to resume from (Last-Event-ID): open"
                    " the stream again without Last-Event-ID",
                },
            }
            await JSONResponse(error, 400)(scope, receive, send)
            return
        await self.app(scope, receive, send)


def _protected_resource_metadata(settings: HttpSettings) -> tuple[list[BaseRoute], str]:
    """RFC 9728 metadata telling OAuth clients which authorization server issues tokens for us.

    Served at the path-suffixed well-known URL (what the 401 points to) and at the bare one, which
    some clients try first. The issuer is given exactly as configured: RFC 8414 compares it as a string.
    """
    resource = settings.resource_url()
    parts = urlsplit(resource)
    well_known = "/.well-known/oauth-protected-resource"
    body = {
        "resource": resource,
        "authorization_servers": [settings.jwt_issuer],
        "bearer_methods_supported": ["header"],
        "resource_name": "pramana",
    }

    async def metadata(_: Request) -> JSONResponse:
        return JSONResponse(body, headers={"Cache-Control": "public, max-age=3600"})

    paths = {well_known + parts.path.rstrip("/"), well_known}
    url = f"{parts.scheme}://{parts.netloc}{well_known}{parts.path.rstrip('/')}"
    return [Route(path, metadata, methods=["GET"]) for path in sorted(paths)], url


def _allowed_hosts(settings: HttpSettings) -> list[str]:
    """The Host names to accept. Exposed with auth and no list given: any. A rebinding page cannot
    attach a bearer token it does not have, so auth does the protecting there."""
    named = settings.host_list()
    if not named and settings.auth != "none" and not is_loopback(settings.host):
        return ["*"]
    return named


class _Server(uvicorn.Server):
    """uvicorn, except that after a graceful shutdown on SIGTERM or SIGINT the process exits 0."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        previous = {sig: signal.signal(sig, self.handle_exit) for sig in (signal.SIGINT, signal.SIGTERM)}
        try:
            yield
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)


def serve_http(
    build_served: Callable[[], Served],
    settings: HttpSettings,
    level: str,
    private_paths: Iterable[Path] = (),
) -> None:
    """Run until SIGTERM/SIGINT; in-flight requests get GRACEFUL_SHUTDOWN_SECONDS to finish.

    Unsafe settings and a port in use are refused before the servers are built (the code server
    starts indexing as it is built). No answer names a path of this machine (mcp/disclosure.py):
    `private_paths` are the served servers' folders (their databases, repository), which results
    must not show either.
    """
    check_exposure(settings)
    make_authenticator(settings)  # missing tokens or JWT settings are refused before the port is taken
    sock = _listen(settings.host, settings.port)
    port = int(sock.getsockname()[1])
    settings = settings.model_copy(update={"port": port})  # port 0: the resource URL needs the real one
    configure_json_logging(level)
    hide_paths(private_paths)
    try:
        served = build_served()
    except BaseException:
        sock.close()
        raise
    app = build_app(served, settings)
    config = uvicorn.Config(
        app,
        log_config=None,
        access_log=False,  # the Guard logs each request, without query strings
        timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_SECONDS,
        server_header=False,
    )
    for name, why in served.left_out.items():
        log.warning(
            "%s: not served: %s", name, why, extra={"fields": {"event": "not_served", "server": name}}
        )
    fields: dict[str, Any] = {
        "event": "listening",
        "url": settings.local_url(),
        "port": port,
        "servers": list(served.checks),
        "auth": settings.auth,
        "stateless": settings.stateless,
    }
    log.info("listening on %s", fields["url"], extra={"fields": fields})
    _Server(config).run(sockets=[sock])


def _listen(host: str, port: int) -> socket.socket:
    """Bind before serving, so a port in use is one clear error (and port 0 tells its number)."""
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(2048)
    except OSError as exc:
        sock.close()
        raise InvalidInputError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    return sock
