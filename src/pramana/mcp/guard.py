"""What every HTTP request meets: request ids and access logs, Host and Origin allow-lists (on every
route), and before an MCP route bearer authentication, the caller's identity for the session it opens
or uses, and per-caller rate limits."""

from __future__ import annotations

import json
import logging
import math
import re
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterable
from urllib.parse import urlsplit

from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from mcp.server.auth.provider import AccessToken
from starlette.authentication import AuthCredentials
from starlette.datastructures import Headers, MutableHeaders
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pramana.config import LOOPBACK_NAMES
from pramana.mcp.auth import Authenticator, Principal, Unauthorized, bearer_token
from pramana.mcp.logs import request_id

log = logging.getLogger("pramana.http")

MCP_PATH_PREFIXES = ("/mcp", "/sse", "/messages")
WILDCARD_ADDRESSES = ("0.0.0.0", "::", "")
# A client's request id is echoed into logs: only short, plain ones (no log injection, no newlines).
CLIENT_REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,64}")
MAX_TRACKED_CALLERS = 10_000


def is_loopback(host: str) -> bool:
    return host in LOOPBACK_NAMES or host.startswith("127.")


def is_mcp_path(path: str) -> bool:
    return any(path == prefix or path.startswith(prefix + "/") for prefix in MCP_PATH_PREFIXES)


def _host_name(value: str) -> str:
    """'example.com:8000' -> 'example.com', '[::1]:8000' -> '::1'."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1:].partition("]")[0]
    return value.rpartition(":")[0] if value.count(":") == 1 else value


class HostPolicy:
    """DNS-rebinding protection: a web page that rebinds its own name to this server's address sends
    its own name as Host and its own origin as Origin; both must be on the allow-lists."""

    def __init__(self, bind_host: str, hosts: Iterable[str], origins: Iterable[str]):
        extra = [h.strip().lower() for h in hosts if h.strip()]
        self.any_host = "*" in extra
        self.hosts = {*LOOPBACK_NAMES, *(_host_name(h) for h in extra if h != "*")}
        if bind_host not in WILDCARD_ADDRESSES:
            self.hosts.add(bind_host.strip("[]").lower())
        self.origins = {
            f"http://{name}" if ":" not in name else f"http://[{name}]" for name in LOOPBACK_NAMES
        }
        self.origins |= {self._origin_base(o) for o in origins if o.strip()}

    @staticmethod
    def _origin_base(origin: str) -> str:
        parts = urlsplit(origin.strip().lower())
        host = parts.hostname or ""
        return f"{parts.scheme}://{'[' + host + ']' if ':' in host else host}"

    def refusal(self, headers: Headers) -> tuple[int, str] | None:
        host = headers.get("host")
        if not self.any_host and (host is None or _host_name(host) not in self.hosts):
            return 421, f"Host {host!r} is not allowed here; the server accepts --allowed-host names only"
        origin = headers.get("origin")
        if origin is not None and self._origin_base(origin) not in self.origins:
            return 403, f"Origin {origin!r} is not allowed; add it with --allowed-origin"
        return None


class RateLimiter:
    """A token bucket per caller: `per_minute` requests a minute, in bursts of up to ten seconds' worth."""

    def __init__(self, per_minute: int, clock: Callable[[], float] = time.monotonic):
        self.rate = per_minute / 60.0
        self.capacity = float(max(20, per_minute // 6))
        self._clock = clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def wait_needed(self, caller: str) -> float:
        """Seconds until `caller` may make a request; 0 means now (and the request is counted)."""
        now = self._clock()
        tokens, last = self._buckets.pop(caller, (self.capacity, now))
        tokens = min(self.capacity, tokens + (now - last) * self.rate)
        wait = 0.0
        if tokens >= 1:
            tokens -= 1
        else:
            wait = (1 - tokens) / self.rate
        self._buckets[caller] = (tokens, now)
        while len(self._buckets) > MAX_TRACKED_CALLERS:  # many addresses must not grow memory without end
            self._buckets.popitem(last=False)
        return wait


def _authenticated(caller: Principal) -> AuthenticatedUser:
    """The SDK's form of an authenticated caller; the transports compare it (its client_id) with
    the one that opened a session. It carries the caller's id, never the token itself."""
    return AuthenticatedUser(AccessToken(token=caller.id, client_id=caller.id, scopes=[]))


def _relative(location: str) -> str:
    """A redirect's target as a path: the Host a client sent never becomes a URL we hand out."""
    parts = urlsplit(location)
    path = parts.path or "/"
    return path + (f"?{parts.query}" if parts.query else "")


def _error(status: int, error: str, description: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": error, "error_description": description}, status, headers=headers)


class Guard:
    """ASGI middleware in front of the whole app.

    Every route checks Host and Origin (a DNS-rebinding page must not read /health or /ready
    either). MCP routes also need a bearer token when auth is on; the caller it names is put in
    the request's scope as the SDK's AuthenticatedUser, so that a session belongs to the caller
    that opened it: another caller's request for it is answered 404, as for an unknown session.
    A redirect (a trailing slash) names no host: its Location is a path on the host asked.
    """

    def __init__(
        self,
        app: ASGIApp,
        *,
        hosts: HostPolicy,
        authenticator: Authenticator | None = None,
        limiter: RateLimiter | None = None,
        resource_metadata_url: str | None = None,
    ):
        self.app = app
        self.hosts = hosts
        self.authenticator = authenticator
        self.limiter = limiter
        self.resource_metadata_url = resource_metadata_url

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        offered = headers.get("x-request-id", "")
        rid = offered if CLIENT_REQUEST_ID.fullmatch(offered) else uuid.uuid4().hex
        reset = request_id.set(rid)
        started = time.perf_counter()
        status = [0]

        async def send_tagged(message: Message) -> None:
            if message["type"] == "http.response.start":
                status[0] = message["status"]
                response_headers = MutableHeaders(scope=message)
                response_headers.append("x-request-id", rid)
                if 300 <= status[0] < 400 and "location" in response_headers:
                    response_headers["location"] = _relative(response_headers["location"])
            await send(message)

        caller: Principal | None = None
        try:
            problem = self.hosts.refusal(headers)
            if problem is not None:
                code, why = problem
                refused = _error(code, "forbidden_host" if code == 421 else "forbidden_origin", why)
                await refused(scope, receive, send_tagged)
                return
            if is_mcp_path(scope["path"]):
                refused_call, caller = await self._admit(scope, headers)
                if refused_call is not None:
                    await refused_call(scope, receive, send_tagged)
                    return
                if caller is not None:
                    scope["user"], scope["auth"] = _authenticated(caller), AuthCredentials()
            await self.app(scope, receive, send_tagged)
        finally:
            self._log(scope, status[0], started, caller)
            request_id.reset(reset)

    async def _admit(self, scope: Scope, headers: Headers) -> tuple[JSONResponse | None, Principal | None]:
        caller = None
        if self.authenticator is not None:
            try:
                token = bearer_token(headers.get("authorization"))
                if token is None:
                    return self._unauthorized(None), None
                caller = await self.authenticator.authenticate(token)
            except Unauthorized as exc:
                return self._unauthorized(str(exc)), None
        if self.limiter is not None:
            client = scope.get("client")
            key = caller.id if caller else f"addr:{client[0] if client else 'unknown'}"
            wait = self.limiter.wait_needed(key)
            if wait > 0:
                retry = str(math.ceil(wait))
                why = f"rate limit reached; retry in {retry} s"
                return _error(429, "rate_limited", why, {"Retry-After": retry}), caller
        return None, caller

    def _unauthorized(self, why: str | None) -> JSONResponse:
        # RFC 6750: no error code when no credentials came; invalid_token when a bad one did.
        challenge = ['Bearer realm="pramana"']
        if why is not None:
            challenge.append(f'error="invalid_token", error_description={json.dumps(why)}')
        if self.resource_metadata_url:
            challenge.append(f'resource_metadata="{self.resource_metadata_url}"')
        description = why or "this server needs `Authorization: Bearer <token>`"
        return _error(401, "invalid_token" if why else "unauthorized", description, {
            "WWW-Authenticate": ", ".join(challenge)
        })  # fmt: skip

    @staticmethod
    def _log(scope: Scope, status: int, started: float, caller: Principal | None) -> None:
        client = scope.get("client")
        fields = {
            "event": "request",
            "method": scope.get("method"),
            "path": scope["path"],  # never the query string: it could hold a token someone misplaced
            "status": status,
            "ms": round((time.perf_counter() - started) * 1000, 1),
            "client": client[0] if client else None,
            "caller": caller.id if caller else None,
        }
        log.info("%s %s %s", scope.get("method"), scope["path"], status, extra={"fields": fields})
