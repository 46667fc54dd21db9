"""`--auth jwt`: an OAuth resource server checking JWTs against a JWKS served over loopback HTTP."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import json
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import rsa
from jwt.algorithms import RSAAlgorithm

from benchmarks._http_server import RunningServer, running_server
from benchmarks._mcp_client import http_session
from tests.conftest import LoopbackServer, StaticHandler
from tests.serve.conftest import INITIALIZE, MCP_HEADERS

ISSUER = "https://auth.example.test"


def _key() -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


SIGNING_KEY = _key()
STRANGER_KEY = _key()


@pytest.fixture(scope="module")
def jwks_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("jwks")
    public = json.loads(RSAAlgorithm.to_jwk(SIGNING_KEY.public_key()))
    (folder / "jwks.json").write_text(
        json.dumps({"keys": [{**public, "kid": "k1", "use": "sig", "alg": "RS256"}]})
    )
    with LoopbackServer(StaticHandler, folder) as server:
        yield server.url + "/jwks.json"


@pytest.fixture(scope="module")
def jwt_server(jwks_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    db = tmp_path_factory.mktemp("jwtgita") / "c.db"
    args = ["gita", "--auth", "jwt", "--jwks-url", jwks_url, "--issuer", ISSUER]
    with running_server(args, {"VEDABASE_DB_PATH": str(db)}) as server:
        yield server


def token(server: RunningServer, *, key=SIGNING_KEY, kid="k1", alg="RS256", **claims) -> str:
    now = int(time.time())
    body = {"iss": ISSUER, "aud": server.mcp_url, "sub": "agent-7", "iat": now, "exp": now + 300, **claims}
    body = {name: value for name, value in body.items() if value is not None}
    return jwt.encode(body, key, algorithm=alg, headers={"kid": kid})


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def post(server: RunningServer, bearer: str) -> httpx.Response:
    return httpx.post(
        server.mcp_url, json=INITIALIZE, headers={**MCP_HEADERS, "Authorization": f"Bearer {bearer}"}
    )


def test_a_valid_token_is_served(jwt_server: RunningServer):
    assert post(jwt_server, token(jwt_server)).status_code == 200

    async def call() -> bool:
        async with http_session(jwt_server.mcp_url, token(jwt_server)) as session:
            return (await session.call_tool("get_chapter_summary", {"chapter": 1})).is_error

    asyncio.run(call())  # answers (from the source or an error about it): what matters is it got through
    callers = {entry.get("caller") for entry in jwt_server.logs() if entry.get("event") == "request"}
    assert "sub:agent-7" in callers


@pytest.mark.parametrize(
    ("claims", "says"),
    [
        ({"exp": int(time.time()) - 3600}, "expired"),
        ({"aud": "http://127.0.0.1:1/mcp"}, "audience"),
        ({"iss": "https://evil.example"}, "issued"),
        ({"exp": None}, "exp"),
        ({"key": STRANGER_KEY}, "not valid"),
        ({"kid": "unknown"}, "known key"),
    ],
)
def test_bad_tokens_get_401_with_the_reason(jwt_server: RunningServer, claims: dict, says: str):
    options = {name: claims.pop(name) for name in ("key", "kid") if name in claims}
    response = post(jwt_server, token(jwt_server, **options, **claims))
    assert response.status_code == 401
    assert says in response.json()["error_description"]
    assert 'error="invalid_token"' in response.headers["www-authenticate"]


def test_symmetric_and_unsigned_tokens_are_refused(jwt_server: RunningServer, jwks_url: str):
    # Key confusion: an HS256 token "signed" with the public key's JSON must not pass.
    claims = {"iss": ISSUER, "aud": jwt_server.mcp_url, "exp": int(time.time()) + 300}

    def unsigned(alg: str) -> str:
        header = {"alg": alg, "kid": "k1", "typ": "JWT"}
        return ".".join(_b64(json.dumps(part).encode()) for part in (header, claims))

    public_json = httpx.get(jwks_url).text.encode()
    forged = unsigned("HS256")
    forged += "." + _b64(hmac.new(public_json, forged.encode(), hashlib.sha256).digest())
    assert post(jwt_server, forged).status_code == 401
    assert post(jwt_server, unsigned("none") + ".").status_code == 401
    assert post(jwt_server, "not.a.jwt").status_code == 401


def test_protected_resource_metadata_points_to_the_issuer(jwt_server: RunningServer):
    missing = httpx.post(jwt_server.mcp_url, json=INITIALIZE, headers=MCP_HEADERS)
    assert missing.status_code == 401
    challenge = missing.headers["www-authenticate"]
    metadata_url = challenge.split('resource_metadata="')[1].split('"')[0]
    assert metadata_url == jwt_server.base + "/.well-known/oauth-protected-resource/mcp"
    metadata = httpx.get(metadata_url).json()
    assert metadata["resource"] == jwt_server.mcp_url
    assert metadata["authorization_servers"] == [ISSUER]
    assert metadata["bearer_methods_supported"] == ["header"]


def test_an_unreachable_jwks_is_a_401_not_a_crash(tmp_path: Path):
    args = ["gita", "--auth", "jwt", "--jwks-url", "http://127.0.0.1:9/jwks.json", "--issuer", ISSUER]
    with running_server(args, {"VEDABASE_DB_PATH": str(tmp_path / "c.db")}) as server:
        response = post(server, token(server))
        assert response.status_code == 401
        assert "signing keys" in response.json()["error_description"]
        assert httpx.get(server.base + "/health").status_code == 200


def test_a_session_belongs_to_its_jwt_subject(jwt_server: RunningServer):
    """A new token of the same subject (a refreshed one) goes on with the session; another subject's
    token gets 404, as for an unknown session."""
    opened = post(jwt_server, token(jwt_server))
    assert opened.status_code == 200
    session = {"Mcp-Session-Id": opened.headers["mcp-session-id"], "Mcp-Protocol-Version": "2025-06-18"}
    ping = {"jsonrpc": "2.0", "id": 3, "method": "ping"}

    def ping_as(bearer: str) -> httpx.Response:
        headers = {**MCP_HEADERS, **session, "Authorization": f"Bearer {bearer}"}
        return httpx.post(jwt_server.mcp_url, json=ping, headers=headers)

    assert ping_as(token(jwt_server, sub="agent-8")).status_code == 404
    assert ping_as(token(jwt_server, jti="refreshed")).status_code == 200
