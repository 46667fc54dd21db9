"""Who may call the HTTP server: static bearer tokens, or JWTs from an OAuth authorization server."""

from __future__ import annotations

import hashlib
import hmac
import logging
from dataclasses import dataclass
from typing import Protocol

import anyio.to_thread
import jwt

from pramana.errors import InvalidInputError

log = logging.getLogger(__name__)

# Asymmetric algorithms only: accepting HS* would let anyone who has the public JWKS forge tokens
# (the key-confusion attack), and "none" would accept unsigned ones.
JWT_ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"]
JWT_LEEWAY_SECONDS = 30
MAX_TOKEN_CHARS = 8192


@dataclass(frozen=True)
class Principal:
    """An authenticated caller. `id` names it in logs and rate limits; it is never the secret."""

    id: str


class Unauthorized(Exception):
    """The bearer token is not acceptable; the message says why, without echoing the token."""


class Authenticator(Protocol):
    async def authenticate(self, token: str) -> Principal: ...


def token_id(token: str) -> str:
    return "token:" + hashlib.sha256(token.encode()).hexdigest()[:12]


class StaticTokens:
    """A fixed set of tokens (PRAMANA_TOKENS or a file), compared in constant time."""

    def __init__(self, tokens: list[str]):
        if not tokens:
            raise InvalidInputError("--auth token needs tokens: set PRAMANA_TOKENS or --tokens-file")
        short = [t for t in tokens if len(t) < 16]
        if short:
            raise InvalidInputError("bearer tokens must be at least 16 characters; generate them randomly")
        # Digests have one length, so comparing them leaks neither a token's content nor its length.
        self._digests = [hashlib.sha256(t.encode()).digest() for t in tokens]

    async def authenticate(self, token: str) -> Principal:
        offered = hashlib.sha256(token.encode()).digest()
        matched = False
        for digest in self._digests:  # every digest is compared: the time does not say which matched
            matched |= hmac.compare_digest(offered, digest)
        if not matched:
            raise Unauthorized("the bearer token is not valid")
        return Principal(token_id(token))


class JwtVerifier:
    """OAuth resource server: a JWT signed by a key in the issuer's JWKS, for this audience, unexpired."""

    def __init__(self, jwks_url: str | None, issuer: str | None, audience: str):
        if not jwks_url or not issuer:
            raise InvalidInputError(
                "--auth jwt needs --jwks-url and --issuer (PRAMANA_JWKS_URL, PRAMANA_JWT_ISSUER)"
            )
        self.issuer = issuer
        self.audience = audience
        self._keys = jwt.PyJWKClient(jwks_url, cache_keys=True, lifespan=300, timeout=5)

    async def authenticate(self, token: str) -> Principal:
        # The JWKS client fetches with blocking I/O (cached for five minutes): keep it off the event loop.
        return await anyio.to_thread.run_sync(self._verify, token)

    def _verify(self, token: str) -> Principal:
        try:
            key = self._keys.get_signing_key_from_jwt(token)
        except jwt.PyJWKClientConnectionError as exc:
            log.warning("cannot fetch the JWKS: %s", exc)
            raise Unauthorized("the signing keys cannot be fetched now; try again later") from exc
        except (jwt.PyJWKClientError, jwt.DecodeError) as exc:
            raise Unauthorized("the token is not a JWT signed by a known key") from exc
        try:
            claims = jwt.decode(
                token,
                key.key,
                algorithms=JWT_ALGORITHMS,
                audience=self.audience,
                issuer=self.issuer,
                leeway=JWT_LEEWAY_SECONDS,
                options={"require": ["exp", "iss", "aud"]},
            )
        except jwt.ExpiredSignatureError as exc:
            raise Unauthorized("the token has expired") from exc
        except jwt.InvalidAudienceError as exc:
            raise Unauthorized(
                f"the token is not for this server (audience must be {self.audience})"
            ) from exc
        except jwt.InvalidIssuerError as exc:
            raise Unauthorized(f"the token was not issued by {self.issuer}") from exc
        except jwt.InvalidTokenError as exc:
            raise Unauthorized(f"the token is not valid: {exc}") from exc
        subject = str(claims.get("sub") or claims.get("client_id") or "unknown")
        return Principal("sub:" + subject[:200])


def bearer_token(authorization: str | None) -> str | None:
    """The token of an `Authorization: Bearer <token>` header; None when there is no such header.

    Only the header is read: tokens in query strings or cookies end up in logs and browser history,
    and the MCP authorization spec forbids them.
    """
    if authorization is None:
        return None
    scheme, _, token = authorization.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized("use the header `Authorization: Bearer <token>`")
    token = token.strip()
    if len(token) > MAX_TOKEN_CHARS:
        raise Unauthorized("the bearer token is too long")
    return token
