"""The request guard's parts on their own: rate limits, Host/Origin policy, token parsing and loading."""

from __future__ import annotations

import asyncio

import pytest
from starlette.datastructures import Headers

from pramana.config import HttpSettings
from pramana.errors import InvalidInputError
from pramana.mcp.auth import StaticTokens, Unauthorized, bearer_token
from pramana.mcp.guard import MAX_TRACKED_CALLERS, HostPolicy, RateLimiter


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_rate_limiter_allows_a_burst_then_refills_at_the_rate():
    clock = Clock()
    limiter = RateLimiter(120, clock)  # 2 a second, bursts of 20
    assert [limiter.wait_needed("a") for _ in range(20)] == [0.0] * 20
    assert limiter.wait_needed("a") == pytest.approx(0.5)
    assert limiter.wait_needed("b") == 0.0  # callers are counted apart
    clock.now += 1.0
    assert limiter.wait_needed("a") == 0.0 and limiter.wait_needed("a") == 0.0
    assert limiter.wait_needed("a") > 0


def test_rate_limiter_memory_is_bounded():
    limiter = RateLimiter(60, Clock())
    for n in range(MAX_TRACKED_CALLERS + 50):
        limiter.wait_needed(f"addr:{n}")
    assert len(limiter._buckets) == MAX_TRACKED_CALLERS


@pytest.mark.parametrize(
    ("bind", "allowed", "host", "refused"),
    [
        ("127.0.0.1", [], "127.0.0.1:8000", False),
        ("127.0.0.1", [], "[::1]:8000", False),
        ("127.0.0.1", [], "localhost", False),
        ("127.0.0.1", [], "attacker.example:8000", True),
        ("127.0.0.1", [], None, True),
        ("0.0.0.0", ["mcp.example.org"], "MCP.example.org:443", False),
        ("0.0.0.0", ["mcp.example.org"], "other.example.org", True),
        ("0.0.0.0", ["*"], "anything.example", False),
        ("10.1.2.3", [], "10.1.2.3:8000", False),
    ],
)
def test_host_policy(bind: str, allowed: list[str], host: str | None, refused: bool):
    headers = Headers({"host": host} if host else {})
    assert (HostPolicy(bind, allowed, []).refusal(headers) is not None) is refused


@pytest.mark.parametrize(
    ("origin", "refused"),
    [("http://localhost:6274", False), ("http://127.0.0.1", False), ("https://app.example.org", False),
     ("https://evil.example.org", True), ("null", True), ("http://app.example.org", True)],
)  # fmt: skip
def test_origin_policy(origin: str, refused: bool):
    policy = HostPolicy("127.0.0.1", [], ["https://app.example.org"])
    headers = Headers({"host": "127.0.0.1:8000", "origin": origin})
    assert (policy.refusal(headers) is not None) is refused


@pytest.mark.parametrize(
    ("header", "token"),
    [(None, None), ("Bearer abc", "abc"), ("bearer  abc ", "abc"), ("BEARER abc", "abc")],
)
def test_bearer_header_parsing(header: str | None, token: str | None):
    assert bearer_token(header) == token


@pytest.mark.parametrize(
    "header", ["Basic abc", "Bearer", "Bearer ", "abc", "Token abc", "Bearer " + "a" * 9000]
)
def test_bearer_header_refusals(header: str):
    with pytest.raises(Unauthorized):
        bearer_token(header)


def test_tokens_come_from_the_environment_and_a_file(tmp_path, monkeypatch):
    file = tmp_path / "tokens"
    file.write_text("# team tokens\n\nfile-token-0123456789\n  other-token-0123456789  \n")
    monkeypatch.setenv("PRAMANA_TOKENS", "env-token-0123456789, second-env-token-0123")
    settings = HttpSettings(tokens_file=file)
    assert settings.token_list() == [
        "env-token-0123456789", "second-env-token-0123", "file-token-0123456789", "other-token-0123456789"
    ]  # fmt: skip
    tokens = StaticTokens(settings.token_list())
    assert asyncio.run(tokens.authenticate("other-token-0123456789")).id.startswith("token:")
    with pytest.raises(Unauthorized):
        asyncio.run(tokens.authenticate("other-token-012345678"))


def test_token_settings_are_checked(tmp_path):
    with pytest.raises(InvalidInputError, match="16 characters"):
        StaticTokens(["short"])
    with pytest.raises(InvalidInputError, match="PRAMANA_TOKENS"):
        StaticTokens([])
    with pytest.raises(InvalidInputError, match="cannot read"):
        HttpSettings(tokens_file=tmp_path / "missing").token_list()


def test_default_rate_limit_depends_on_exposure():
    assert HttpSettings().effective_rate_limit() == 0
    assert HttpSettings(auth="token").effective_rate_limit() == 600
    assert HttpSettings(host="0.0.0.0", insecure=True).effective_rate_limit() == 600
    assert HttpSettings(rate_limit=0, auth="token").effective_rate_limit() == 0
