"""Attacks on a live pramana HTTP server: prints PASS or FAIL per attack, exits 1 if any failed.

By default it starts its own server, `pramana serve all --transport http --auth token` with two tokens,
over a data folder with nothing installed (every server then answers with errors that would name
its files) and a two-file repository for the code server, and reads the server's log too. Or it
attacks a server you run (its log is then yours to read):

    uv run python benchmarks/attacks.py
    uv run python benchmarks/attacks.py --url http://127.0.0.1:18700 --token A --other-token B
    uv run python benchmarks/attacks.py --fuzz 1000 --seed 7      # more fuzzed tool calls

What is attacked (issue 31's findings and the ~70 earlier ones, tests/serve/test_hostile.py and
tests/serve/test_attacks.py): bearer tokens in the wrong place or wrong; a session used, listened
to or ended by another token, over streamable HTTP and SSE; session ids in the log; Last-Event-ID;
malformed JSON-RPC, wrong methods, content types and Accept headers, an oversized body; DNS
rebinding (Host and Origin on every route, redirects); path traversal through get_file; FTS and SQL
injection as text; absolute server paths in tool errors and /ready; fuzzed tool arguments; request
ids used for log injection; the per-token rate limit. Each attack is one line; a FAIL says what came
back. Needs no dataset.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import secrets
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._hostile_inputs import INJECTIONS, MALFORMED, TRAVERSALS
from benchmarks._http_server import running_server

PROTOCOL = "2025-06-18"
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": PROTOCOL,
        "capabilities": {},
        "clientInfo": {"name": "attacks", "version": "1"},
    },
}
ABSOLUTE_PATH = re.compile(r"(?<![\w.:/])/(?:[\w.@-]+/)+[\w.@-]+|\b[A-Za-z]:\\[\w.\\-]+")
LEAKS = ("Traceback", 'File "', "root:x:0:0")


@dataclass
class Target:
    base: str
    token: str | None
    other_token: str | None
    log: list[str] | None = None  # the server's log lines, when this script started it
    private: str | None = None  # a folder of the server's that no answer may name
    results: list[tuple[str, bool | None, str]] = field(default_factory=list)

    @property
    def mcp(self) -> str:
        return self.base + "/mcp"

    def headers(self, token: str | None = None, **extra: str) -> dict[str, str]:
        chosen = token if token is not None else self.token
        headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
        if chosen:
            headers["Authorization"] = f"Bearer {chosen}"
        return {**headers, **extra}

    def open_session(self, token: str | None = None) -> str:
        opened = httpx.post(self.mcp, json=INITIALIZE, headers=self.headers(token), timeout=30)
        opened.raise_for_status()
        session = opened.headers["mcp-session-id"]
        note = {"jsonrpc": "2.0", "method": "notifications/initialized"}
        httpx.post(self.mcp, json=note, headers=self.session_headers(session, token), timeout=30)
        return session

    def session_headers(self, session: str, token: str | None = None) -> dict[str, str]:
        return self.headers(token, **{"Mcp-Session-Id": session, "Mcp-Protocol-Version": PROTOCOL})

    def rpc(
        self, session: str, method: str, params: dict, token: str | None = None
    ) -> tuple[int, dict | str]:
        """(HTTP status, the JSON-RPC answer or the body as text)."""
        body = {"jsonrpc": "2.0", "id": random.randrange(1, 10**9), "method": method, "params": params}
        response = httpx.post(self.mcp, json=body, headers=self.session_headers(session, token), timeout=60)
        return response.status_code, _answer(response)


def _answer(response: httpx.Response) -> dict | str:
    if response.headers.get("content-type", "").startswith("text/event-stream"):
        for line in response.text.splitlines():
            if line.startswith("data:") and '"id"' in line:
                return json.loads(line[5:])
        return response.text
    try:
        return response.json()
    except ValueError:
        return response.text


def leak(text: str, target: Target, sent: str = "", *, any_path: bool = True) -> str | None:
    """What in `text` a remote client must not see, or None (`sent`, the client's own input, may be
    quoted back). `any_path`: any absolute path counts (not where answers quote pieces of hostile
    input, which holds paths: then only the server's own folder does)."""
    if sent:
        text = text.replace(sent, "")
    for marker in LEAKS:
        if marker in text:
            return f"leaks {marker!r}"
    if target.private and target.private in text:
        return "names the server's folder"
    found = ABSOLUTE_PATH.search(text) if any_path else None
    if found and not found.group().startswith(("/mcp", "/sse", "/messages", "/health", "/ready")):
        return f"names a path: {found.group()}"
    return None


Attack = Callable[[Target], tuple[bool | None, str]]
ATTACKS: list[tuple[str, Attack]] = []


def attack(name: str) -> Callable[[Attack], Attack]:
    def register(fn: Attack) -> Attack:
        ATTACKS.append((name, fn))
        return fn

    return register


# -- who may call ----------------------------------------------------------------------------------


def _status(method: str, url: str, **kwargs) -> int:  # type: ignore[no-untyped-def]
    with httpx.Client(cookies=kwargs.pop("cookies", None), timeout=30) as client:
        return client.request(method, url, **kwargs).status_code


def _expect(status: int, wanted: tuple[int, ...]) -> tuple[bool, str]:
    return status in wanted, f"HTTP {status}"


@attack("no token")
def _no_token(t: Target) -> tuple[bool | None, str]:
    if not t.token:
        return None, "the server has no auth"
    return _expect(_status("POST", t.mcp, json=INITIALIZE, headers=t.headers("")), (401,))


for _name, _placement in {
    "a wrong token": {"headers": {"Authorization": "Bearer " + "x" * 40}},
    "the token in the query string": {"params": {"access_token": "TOKEN"}},
    "the token in a cookie": {"cookies": {"access_token": "TOKEN"}},
    "the token as Basic auth": {"headers": {"Authorization": "Basic TOKEN"}},
    "the token without a scheme": {"headers": {"Authorization": "TOKEN"}},
    "the token plus a character": {"headers": {"Authorization": "Bearer TOKENx"}},
    "the token less a character": {"headers": {"Authorization": "Bearer TOKEN-"}},
    "a 10,000-character token": {"headers": {"Authorization": "Bearer " + "a" * 10_000}},
}.items():

    def _wrong_place(t: Target, placement: dict = _placement) -> tuple[bool | None, str]:
        if not t.token:
            return None, "the server has no auth"
        given = json.loads(json.dumps(placement).replace("TOKEN-", t.token[:-1]).replace("TOKEN", t.token))
        headers = {**t.headers(""), **given.pop("headers", {})}
        return _expect(_status("POST", t.mcp, json=INITIALIZE, headers=headers, **given), (401,))

    attack(_name)(_wrong_place)


@attack("/sse and /messages/ without a token")
def _legacy_without_token(t: Target) -> tuple[bool | None, str]:
    if not t.token:
        return None, "the server has no auth"
    statuses = [
        _status("GET", t.base + "/sse"),
        _status("POST", t.base + "/messages/?session_id=" + "0" * 32),
    ]
    return all(s == 401 for s in statuses), f"HTTP {statuses}"


# -- sessions belong to their caller -----------------------------------------------------------------


def _two_tokens(t: Target) -> str | None:
    return None if t.token and t.other_token else "needs two tokens (--token and --other-token)"


@attack("another token calls a tool in my session")
def _foreign_call(t: Target) -> tuple[bool | None, str]:
    if why := _two_tokens(t):
        return None, why
    session = t.open_session()
    status, _ = t.rpc(session, "tools/list", {}, token=t.other_token)
    mine, _ = t.rpc(session, "ping", {})
    return status == 404 and mine == 200, f"intruder HTTP {status}, owner HTTP {mine}"


@attack("another token ends my session (DELETE)")
def _foreign_delete(t: Target) -> tuple[bool | None, str]:
    if why := _two_tokens(t):
        return None, why
    session = t.open_session()
    ended = httpx.delete(t.mcp, headers=t.session_headers(session, t.other_token), timeout=30).status_code
    mine, _ = t.rpc(session, "ping", {})
    return ended == 404 and mine == 200, f"intruder DELETE HTTP {ended}, owner then HTTP {mine}"


@attack("another token listens to my session (GET)")
def _foreign_listen(t: Target) -> tuple[bool | None, str]:
    if why := _two_tokens(t):
        return None, why
    session = t.open_session()
    headers = {**t.session_headers(session, t.other_token), "Accept": "text/event-stream"}
    with httpx.stream("GET", t.mcp, headers=headers, timeout=30) as response:
        return response.status_code == 404, f"HTTP {response.status_code}"


@attack("another token posts into my SSE session")
def _foreign_sse(t: Target) -> tuple[bool | None, str]:
    if why := _two_tokens(t):
        return None, why
    owner = {"Authorization": f"Bearer {t.token}"}
    with httpx.Client(timeout=30) as client, client.stream("GET", t.base + "/sse", headers=owner) as stream:
        lines = stream.iter_lines()
        endpoint = next(line for line in lines if line.startswith("data:"))[5:].strip()
        intruder = {"Authorization": f"Bearer {t.other_token}"}
        refused = client.post(t.base + endpoint, json=INITIALIZE, headers=intruder).status_code
        accepted = client.post(t.base + endpoint, json=INITIALIZE, headers=owner).status_code
    return refused == 404 and accepted == 202, f"intruder HTTP {refused}, owner HTTP {accepted}"


@attack("an unknown or expired session id")
def _unknown_session(t: Target) -> tuple[bool | None, str]:
    status, _ = t.rpc("f" * 32, "ping", {})
    return status == 404, f"HTTP {status}"


@attack("session ids in the server's log")
def _session_ids_logged(t: Target) -> tuple[bool | None, str]:
    if t.log is None:
        return None, "not this script's server: read its log yourself"
    session = t.open_session()
    t.rpc(session, "ping", {})
    httpx.delete(t.mcp, headers=t.session_headers(session), timeout=30)
    time.sleep(0.5)  # the log is written by a thread of its own
    text = "\n".join(t.log)
    return session not in text, "the whole id is in the log" if session in text else "cut to 8 characters"


# -- the protocol layer ------------------------------------------------------------------------------


@attack("GET /mcp with Last-Event-ID")
def _last_event_id(t: Target) -> tuple[bool | None, str]:
    session = t.open_session()
    headers = {**t.session_headers(session), "Accept": "text/event-stream", "Last-Event-ID": "42"}
    response = httpx.get(t.mcp, headers=headers, timeout=30)
    answered = isinstance(_answer(response), dict)
    return (
        400 <= response.status_code < 500 and answered,
        f"HTTP {response.status_code}, body {response.text[:80]!r}",
    )


for _index, _body in enumerate(MALFORMED):

    def _malformed(t: Target, body: bytes = _body) -> tuple[bool | None, str]:
        session = t.open_session()
        response = httpx.post(t.mcp, content=body, headers=t.session_headers(session), timeout=60)
        problem = leak(response.text, t)
        return response.status_code < 500 and problem is None, f"HTTP {response.status_code} {problem or ''}"

    attack(f"malformed JSON-RPC #{_index} ({_body[:24]!r})")(_malformed)


@attack("wrong method, content type and Accept")
def _wrong_shapes(t: Target) -> tuple[bool | None, str]:
    session = t.open_session()
    headers = t.session_headers(session)
    statuses = [
        httpx.put(t.mcp, json=INITIALIZE, headers=headers).status_code,
        httpx.post(t.mcp, content=b"{}", headers={**headers, "Content-Type": "text/plain"}).status_code,
        httpx.post(t.mcp, json=INITIALIZE, headers={**headers, "Accept": "text/html"}).status_code,
    ]
    return all(400 <= s < 500 for s in statuses), f"HTTP {statuses}"


@attack("a 5 MiB body")
def _oversized(t: Target) -> tuple[bool | None, str]:
    huge = b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"' + b"a" * (5 * 1024 * 1024) + b'"}}'
    return _expect(httpx.post(t.mcp, content=huge, headers=t.headers(), timeout=60).status_code, (413,))


@attack("a forged request id (log injection)")
def _request_id(t: Target) -> tuple[bool | None, str]:
    response = httpx.get(t.base + "/health", headers={"X-Request-Id": 'evil id; "fake": 1'})
    given = response.headers.get("x-request-id", "")
    return re.fullmatch(r"[0-9a-f]{32}", given) is not None, f"request id {given!r}"


# -- DNS rebinding -----------------------------------------------------------------------------------

for _path in ("/mcp", "/health", "/ready", "/health/", "/no-such-page", "/sse"):

    def _rebound(t: Target, path: str = _path) -> tuple[bool | None, str]:
        method = "POST" if path == "/mcp" else "GET"
        kwargs = {"json": INITIALIZE} if path == "/mcp" else {}
        host = _status(method, t.base + path, headers={**t.headers(), "Host": "rebound.example"}, **kwargs)
        origin = _status(
            method, t.base + path, headers={**t.headers(), "Origin": "http://evil.example"}, **kwargs
        )
        return host == 421 and origin == 403, f"foreign Host: HTTP {host}, foreign Origin: HTTP {origin}"

    attack(f"DNS rebinding on {_path}")(_rebound)


@attack("a redirect to the Host sent")
def _redirect(t: Target) -> tuple[bool | None, str]:
    host = httpx.URL(t.base).netloc.decode()
    response = httpx.get(t.base + "/health/", headers={"Host": host})
    location = response.headers.get("location", "")
    named = "://" in location
    return response.status_code < 300 or not named, f"HTTP {response.status_code} Location {location!r}"


# -- tools -------------------------------------------------------------------------------------------


def _tool(t: Target, session: str, name: str, arguments: dict) -> tuple[int, bool, str]:
    """(HTTP status, is an error, every text of the answer)."""
    status, answer = t.rpc(session, "tools/call", {"name": name, "arguments": arguments})
    if not isinstance(answer, dict):
        return status, True, str(answer)
    if "error" in answer:
        return status, True, json.dumps(answer["error"], ensure_ascii=False)
    result = answer.get("result", {})
    texts = [block.get("text", "") for block in result.get("content", [])]
    return status, bool(result.get("isError")), "\n".join(texts)


def _tools(t: Target, session: str) -> dict[str, dict]:
    _, answer = t.rpc(session, "tools/list", {})
    assert isinstance(answer, dict), answer
    return {tool["name"]: tool.get("inputSchema", {}) for tool in answer["result"]["tools"]}


@attack("path traversal through get_file")
def _traversal(t: Target) -> tuple[bool | None, str]:
    session = t.open_session()
    if "get_file" not in _tools(t, session):
        return None, "no code server here"
    bad = []
    for path in TRAVERSALS:
        status, is_error, text = _tool(t, session, "get_file", {"path": path})
        if status >= 500 or not is_error or leak(text, t, sent=path):
            bad.append(f"{path!r}: HTTP {status} {text[:60]!r}")
    return not bad, "; ".join(bad) or f"{len(TRAVERSALS)} paths refused"


@attack("FTS and SQL injection as text")
def _injection(t: Target) -> tuple[bool | None, str]:
    session = t.open_session()
    tools = _tools(t, session)
    targets = [
        ("search_verses", "query"), ("sanskrit_search", "query"), ("search_pali_meaning", "english"),
        ("search_code", "query"), ("find_usages", "name"), ("fuzzy_match_verse", "garbled_sanskrit"),
        ("lookup_pali_word", "word"),
    ]  # fmt: skip
    bad, calls = [], 0
    for name, argument in targets:
        if name not in tools:
            continue
        for text in INJECTIONS:
            calls += 1
            status, _, answer = _tool(t, session, name, {argument: text})
            if status >= 500 or leak(answer, t, sent=text):
                bad.append(f"{name}({text[:20]!r}): HTTP {status} {answer[:60]!r}")
    return not bad, "; ".join(bad[:3]) or f"{calls} calls, each answered as text"


@attack("server paths in tool errors and /ready")
def _paths(t: Target) -> tuple[bool | None, str]:
    session = t.open_session()
    tools = _tools(t, session)
    asked = {
        "search_verses": {"query": "dharma"}, "seed_database": {}, "sanskrit_search": {"query": "agni"},
        "lookup_pali_word": {"word": "dhamma"}, "search_code": {"query": "cart"},
        "get_file": {"path": "no/such/file.py"},
    }  # fmt: skip
    texts = [_tool(t, session, name, arguments)[2] for name, arguments in asked.items() if name in tools]
    texts.append(httpx.get(t.base + "/ready", timeout=60).text)
    found = [problem for text in texts if (problem := leak(text, t))]
    return not found, "; ".join(found[:3]) or f"{len(texts)} answers, no path"


@attack("fuzzed tool arguments")
def _fuzz(t: Target) -> tuple[bool | None, str]:
    session = t.open_session()
    tools = {name: schema for name, schema in _tools(t, session).items() if name != "seed_database"}
    rng = random.Random(OPTIONS.seed)
    bad, statuses = [], []
    for _ in range(OPTIONS.fuzz):
        name = rng.choice(sorted(tools))
        keys = [*tools[name].get("properties", {}), "unexpected", "__proto__"]
        arguments = {rng.choice(keys): _hostile_value(rng) for _ in range(rng.randint(0, 4))}
        status, _, text = _tool(t, session, name, arguments)
        statuses.append(status)
        if status >= 500 or (problem := leak(text, t, any_path=False)):
            bad.append(f"{name}: HTTP {status} {problem or text[:60]!r}")
    healthy = httpx.get(t.base + "/health").status_code == 200
    detail = "; ".join(bad[:3]) or f"{len(statuses)} calls, none crashed or leaked"
    return not bad and healthy, detail + ("" if healthy else "; /health down")


def _char(rng: random.Random, highest: int) -> str:
    """Any character UTF-8 can carry (surrogates cannot be sent)."""
    code = rng.randrange(1, highest)
    return chr(code) if not 0xD800 <= code <= 0xDFFF else "\ufffd"


def _hostile_value(rng: random.Random) -> object:
    text = lambda: rng.choice([  # noqa: E731
        "".join(_char(rng, 0x2FFFF) for _ in range(rng.randrange(0, 300))),
        rng.choice(INJECTIONS + TRAVERSALS),
        "".join(_char(rng, 0x10FFFF) for _ in range(rng.randrange(1000, 5000))),
    ])  # fmt: skip
    kinds = [
        text,
        lambda: rng.randint(-(2**70), 2**70),
        lambda: rng.choice([float("nan"), float("inf"), -1e308, 0.5]),
        lambda: rng.choice([True, False, None]),
        lambda: [text() for _ in range(rng.randrange(6))],
        lambda: {text()[:10]: text() for _ in range(rng.randrange(4))},
    ]
    value = rng.choice(kinds)()
    finite = not isinstance(value, float) or (value == value and abs(value) != float("inf"))
    return value if finite else str(value)  # JSON has no NaN or infinity: sent as text


# -- rate limits (last: they use up a token's requests) ----------------------------------------------


@attack("hammering with one token")
def _rate_limit(t: Target) -> tuple[bool | None, str]:
    if why := _two_tokens(t):
        return None, why
    hammer = t.headers(t.other_token)

    async def hammering() -> list[httpx.Response]:
        async with httpx.AsyncClient(timeout=30) as client:
            return list(
                await asyncio.gather(*(client.post(t.mcp, content=b"{}", headers=hammer) for _ in range(400)))
            )

    responses = asyncio.run(hammering())
    limited = [r for r in responses if r.status_code == 429]
    retry = all(int(r.headers.get("retry-after", "0")) >= 1 for r in limited)
    other = httpx.post(t.mcp, json=INITIALIZE, headers=t.headers()).status_code
    detail = f"{len(limited)} of {len(responses)} at once got 429; the other token then: HTTP {other}"
    return bool(limited) and retry and other == 200, detail


@attack("/health answers after everything")
def _still_up(t: Target) -> tuple[bool | None, str]:
    return _expect(httpx.get(t.base + "/health", timeout=30).status_code, (200,))


# -- running ---------------------------------------------------------------------------------------


@contextmanager
def own_server() -> Iterator[Target]:
    """`pramana serve all` with token auth over a fresh data folder and a two-file repository."""
    tokens = [secrets.token_hex(24), secrets.token_hex(24)]
    with tempfile.TemporaryDirectory(prefix="pramana-attacks-") as folder:
        root = Path(folder)
        repo = root / "shop"
        (repo / "billing").mkdir(parents=True)
        (repo / "billing" / "cart.py").write_text("def cart_total(prices):\n    return sum(prices)\n")
        (repo / "README.md").write_text("# Shop\n")
        env = {
            "PRAMANA_DATA_DIR": str(root / "data"),
            "PRAMANA_TOKENS": ",".join(tokens),
            "PRAMANA_CODE_REPO": str(repo),
            "PRAMANA_CODE_EMBEDDER": "none",
            "VEDABASE_API_URL": "http://127.0.0.1:9",  # no source: the seed and lookups fail, as offline
            "VEDABASE_QUESTION_MODEL": "0",
        }
        with running_server(["all", "--auth", "token"], env) as server:
            yield Target(server.base, tokens[0], tokens[1], log=server.log_lines, private=folder)


def run(target: Target) -> int:
    failed = 0
    for name, fn in ATTACKS:
        try:
            ok, detail = fn(target)
        except Exception as exc:  # an attack that cannot even be made is a failure to look at
            ok, detail = False, f"{type(exc).__name__}: {exc}"
        label = {True: "PASS", False: "FAIL", None: "SKIP"}[ok]
        failed += ok is False
        print(f"{label}  {name}: {detail}", flush=True)
    passed = sum(1 for line in ATTACKS) - failed
    print(f"\n{len(ATTACKS)} attacks: {failed} failed ({passed} passed or skipped)")
    return 1 if failed else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", help="a running server's base URL (default: start one)")
    parser.add_argument("--token", help="a bearer token it accepts")
    parser.add_argument("--other-token", help="a second token it accepts (the session attacks need two)")
    parser.add_argument("--fuzz", type=int, default=300, help="fuzzed tool calls (default 300)")
    parser.add_argument("--seed", type=int, default=31, help="the fuzzer's seed")
    global OPTIONS
    OPTIONS = parser.parse_args()
    if OPTIONS.url:
        return run(Target(OPTIONS.url.rstrip("/"), OPTIONS.token, OPTIONS.other_token))
    with own_server() as target:
        return run(target)


OPTIONS = argparse.Namespace(fuzz=300, seed=31)

if __name__ == "__main__":
    sys.exit(main())
