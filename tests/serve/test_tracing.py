"""The SDK's OpenTelemetry middleware is left out where no tracer provider is installed (its span per
message is a no-op there, yet costs the event loop), kept where one is, and either way every answer
is the same: results, argument errors, unknown tools."""

from __future__ import annotations

import anyio
import pytest
from mcp import Client
from mcp.server.lowlevel import Server
from opentelemetry import trace

from pramana.mcp.servers import build

CALLS = [
    ("sanskrit_transliterate", {"text": "rāmaḥ", "target": "devanagari"}),
    ("sanskrit_transliterate", {"text": "धर्मक्षेत्रे", "target": "iast"}),
    ("sanskrit_transliterate", {"text": 7}),  # refused by the argument schema
    ("no_such_tool", {}),
]


def _telemetry(server) -> list[str]:
    return [type(found).__name__ for found in server.middleware if "Telemetry" in type(found).__name__]


def _answers(server) -> list[dict]:
    async def ask() -> list[dict]:
        async with Client(server) as client:
            return [
                (await client.call_tool(name, arguments)).model_dump(mode="json", by_alias=True)
                for name, arguments in CALLS
            ]

    return anyio.run(ask)


def test_the_sdk_still_starts_its_servers_with_a_telemetry_middleware() -> None:
    # what is left out is found this way: if the SDK stops adding one, there is nothing to leave out
    assert _telemetry(Server("probe"))


def test_without_a_tracer_provider_only_the_telemetry_middleware_is_left_out() -> None:
    assert isinstance(trace.get_tracer_provider(), trace.ProxyTracerProvider)  # none installed in tests
    server = build(["sanskrit"], worker_processes=False).server
    assert _telemetry(server) == []
    # the SDK's own request-state boundary (MCPServer adds it) stays
    assert [type(found).__name__ for found in server.middleware] == ["RequestStateBoundary"]


def test_with_a_tracer_provider_spans_are_kept_and_answers_are_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    without = build(["sanskrit"], worker_processes=False).server
    monkeypatch.setattr(trace, "get_tracer_provider", trace.NoOpTracerProvider)  # as if one were installed
    traced = build(["sanskrit"], worker_processes=False).server
    assert _telemetry(traced) == ["OpenTelemetryMiddleware"]
    assert len(traced.middleware) == len(without.middleware) + 1
    answers = _answers(traced)
    assert _answers(without) == answers
    assert [answer["isError"] for answer in answers] == [False, False, True, True]
    assert "रामः" in answers[0]["content"][0]["text"] and "dharmakṣetre" in answers[1]["content"][0]["text"]
