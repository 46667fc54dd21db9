"""Hostile load on `pramana serve all` over HTTP: do expensive inputs stall everyone else?

50 clients for a few rounds: a third send the most expensive input each tool accepts (maximum
sizes, apostrophe bombs, pathological fuzzy queries, huge transcripts), the rest ordinary calls,
while /health is polled (from a process of its own, as a load balancer's checker would). Prints,
per round: ordinary calls' p50/p99 and errors, /health p99, how each kind of expensive call ended
(and its slowest time against its deadline), and the RSS and open files of the server and of the
processes under it (flat from round to round = nothing leaks).

Goals (issue 14): 0 ordinary errors, ordinary p99 <= 250 ms and /health p99 <= 50 ms while the
expensive calls run, every expensive call ended within its deadline + 1 s.

    uv run python benchmarks/hostile_load.py [--clients 50] [--seconds 20] [--rounds 3] [--pause 1]

`--pause S`: an ordinary client waits a random time, S seconds on average (exponential), between its
calls, as an agent does while its model reads an answer and writes the next call; the hostile clients
never wait. The default, 1 s, measures what the issue asks: how much the expensive calls slow everyone
else, at a rate the server can keep up with. With 0 every client sends its next call the moment the
last one answers: the server is then saturated, and by Little's law an ordinary call's latency is the
number of clients over the calls per second the machine can serve (clients and server share its 2
cores), whatever the expensive calls do (the README gives both).

Clients speak JSON-RPC over plain httpx (a light client: 50 SDK sessions in this process would
take the CPU the server is measured on); one session per client, as an agent's would be.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import time
from collections import Counter, defaultdict
from multiprocessing import Process, Queue
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.http_load import CALLS as ORDINARY
from benchmarks.http_load import pct, rss_mb, serving_all
from pramana.mcp.calls import DEFAULT_DEADLINE_S

SYLLABLES = [
    "ka",
    "ma",
    "ra",
    "ta",
    "dha",
    "na",
    "ya",
    "va",
    "sa",
    "bha",
    "ga",
    "ja",
    "kr",
    "pa",
    "la",
    "ha",
    "ti",
    "ni",
    "su",
    "me",
    "vo",
]
APOSTROPHE_BOMB = "saṃkhittena'pi'ti'va'pi'ti"


def _garble(rng: random.Random, chars: int, spaces: bool = True) -> str:
    words = []
    while sum(len(w) + 1 for w in words) < chars:
        words.append("".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 6))))
    return (" " if spaces else "").join(words)[:chars]


def _transcript(rng: random.Random, chars: int) -> str:
    """English with Sanskrit-looking stretches everywhere: every window is a candidate quote."""
    parts = []
    while sum(map(len, parts)) < chars:
        parts.append(rng.choice(["and so Krishna says ", "this is the point: ", "as the verse goes, "]))
        parts.append(_garble(rng, rng.randint(30, 200)) + ". ")
    return "".join(parts)[:chars]


EXPENSIVE = [
    ("correct_transcript", lambda r: {"text": _transcript(r, 1_000_000)}),
    ("fuzzy_match_verse", lambda r: {"garbled_sanskrit": _garble(r, 2_000, spaces=False), "top_n": 5}),
    ("search_verses", lambda r: {"query": " ".join(["a", "the", "of", "karma*", "OR"] * 100)[:500],
                                 "max_results": 10}),
    ("sanskrit_search", lambda r: {"query": _garble(r, 200, spaces=False), "mode": "fuzzy", "limit": 1000}),
    ("sanskrit_search", lambda r: {"query": "a", "mode": "prefix", "limit": 1000}),
    ("sanskrit_search", lambda r: {"query": "a b c d e f g " * 14, "mode": "reverse", "limit": 1000}),
    ("sanskrit_transliterate", lambda r: {"text": _garble(r, 100_000), "direction": "iast_to_deva"}),
    ("get_grammatical_details", lambda r: {"sentence": " ".join([APOSTROPHE_BOMB] * 380)[:10_000]}),
    ("lookup_pali_word", lambda r: {"word": ("ti'" * 70)[:200]}),
    ("search_pali_meaning", lambda r: {"english": " ".join(["the", "of", "a", "mind"] * 60)[:500],
                                       "limit": 100}),
    ("search_code", lambda r: {"query": " ".join(["self", "def", "return", "get", "data"] * 80)[:2000],
                               "limit": 50}),
    ("find_usages", lambda r: {"name": "get", "limit": 500}),
    ("explain_code", lambda r: {"query": "run"}),
]  # fmt: skip

HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


class Session:
    """One MCP session over streamable HTTP, spoken as JSON-RPC."""

    def __init__(self, client: httpx.AsyncClient, url: str):
        self.client, self.url, self.headers, self.next_id = client, url, dict(HEADERS), 1

    async def open(self) -> None:
        client_info = {"name": "hostile", "version": "1"}
        response = await self._post(
            "initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": client_info}
        )
        self.headers["Mcp-Session-Id"] = response.headers["mcp-session-id"]
        self.headers["Mcp-Protocol-Version"] = "2025-06-18"
        await self.client.post(self.url, headers=self.headers,
                               json={"jsonrpc": "2.0", "method": "notifications/initialized"})  # fmt: skip

    async def close(self) -> None:
        """End the session, as a client that is done does (else the server keeps it until it idles out)."""
        if "Mcp-Session-Id" in self.headers:
            await self.client.delete(self.url, headers=self.headers)

    async def call(self, tool: str, arguments: dict) -> tuple[bool, str]:
        """(is_error, text) of one tool call; a transport failure raises."""
        response = await self._post("tools/call", {"name": tool, "arguments": arguments})
        message = _message(response)
        if "error" in message:
            return True, f"JSON-RPC {message['error'].get('message', '')}"
        result = message["result"]
        text = result["content"][0]["text"] if result.get("content") else ""
        return bool(result.get("isError")), text

    async def _post(self, method: str, params: dict) -> httpx.Response:
        self.next_id += 1
        body = {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}
        response = await self.client.post(self.url, headers=self.headers, json=body)
        response.raise_for_status()
        return response


def _message(response: httpx.Response) -> dict:
    if response.headers.get("content-type", "").startswith("application/json"):
        return response.json()
    for line in response.text.splitlines():  # server-sent events: the answer is the last data line with an id
        if line.startswith("data:"):
            data = json.loads(line[5:])
            if "id" in data:
                return data
    raise ValueError("no JSON-RPC answer in the response")


def _kind(is_error: bool, text: str) -> str:
    if not is_error:
        return "answered"
    for marker, kind in (
        ("busy", "busy (waited out its deadline)"),
        ("more work than one call may spend", "work limit"),
        ("JSON-RPC", "refused by the protocol (schema)"),
    ):
        if marker in text:
            return kind
    return "error: " + text[:60]


async def ordinary_client(
    url: str,
    seed: int,
    until: float,
    samples: list[float],
    errors: list[str],
    pause: float,
    by_tool: dict[str, list[float]],
) -> None:
    rng = random.Random(seed)
    async with httpx.AsyncClient(timeout=60) as client:
        session = Session(client, url)
        try:
            await session.open()
        except Exception as exc:
            errors.append(f"opening a session: {type(exc).__name__}: {exc}")
            return
        while time.monotonic() < until:
            name, make = rng.choice(ORDINARY)
            started = time.perf_counter()
            try:
                is_error, text = await session.call(name, make(rng))
                if is_error:
                    errors.append(f"{name}: {text[:120]}")
            except Exception as exc:  # a transport failure is what this benchmark looks for
                errors.append(f"{name}: {type(exc).__name__}: {exc}")
            samples.append((time.perf_counter() - started) * 1000)
            by_tool[name].append(samples[-1])
            if pause:
                await asyncio.sleep(min(rng.expovariate(1 / pause), max(0.0, until - time.monotonic())))
        await session.close()


async def hostile_client(
    url: str,
    seed: int,
    until: float,
    inputs: list[tuple[str, dict]],
    outcomes: dict[str, Counter],
    slowest: dict[str, float],
) -> None:
    rng = random.Random(seed)
    async with httpx.AsyncClient(timeout=120) as client:
        session = Session(client, url)
        try:
            await session.open()
        except Exception as exc:
            outcomes["(opening a session)"][f"transport: {type(exc).__name__}"] += 1
            return
        while time.monotonic() < until:
            name, arguments = rng.choice(inputs)
            started = time.perf_counter()
            try:
                kind = _kind(*await session.call(name, arguments))
            except Exception as exc:
                kind = f"transport: {type(exc).__name__}"
            took = time.perf_counter() - started
            outcomes[name][kind] += 1
            slowest[name] = max(slowest[name], took)
        await session.close()


async def health_poller(base: str, until: float, samples: list[float]) -> None:
    async with httpx.AsyncClient(timeout=30) as client:
        while time.monotonic() < until:
            started = time.perf_counter()
            try:
                await client.get(base + "/health")
            except httpx.HTTPError as exc:
                print(f"  /health failed: {type(exc).__name__}: {exc}")
            samples.append((time.perf_counter() - started) * 1000)
            await asyncio.sleep(0.05)


def health_process(base: str, seconds: float, answer: Queue) -> None:
    """/health polled from a process of its own, as a load balancer's checker is: the ordinary
    clients' event loop, busy reading their answers, must not delay its measurements."""
    samples: list[float] = []
    asyncio.run(health_poller(base, time.monotonic() + seconds, samples))
    answer.put(samples)


def open_files(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) the process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def descendants(pid: int) -> list[int]:
    """The processes under `pid` (the worker processes for heavy calls, their fork server)."""
    children: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):  # a child is listed under the thread that made it
        try:
            children += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            continue
    return [found for child in children for found in (child, *descendants(child))]


def workers_line(pid: int) -> str:
    under = [p for p in descendants(pid) if Path(f"/proc/{p}").exists()]
    rss = sum(rss_mb(p) for p in under)
    return f"{len(under)} processes under it: RSS {rss:.0f} MB, open files {sum(map(open_files, under))}"


def expensive_inputs(seed: int) -> list[tuple[str, dict]]:
    """Two variants of each expensive input, made before the clients start (making a megabyte
    transcript takes the client's CPU, which would show as the server's latency)."""
    rng = random.Random(seed)
    return [(name, make(rng)) for name, make in EXPENSIVE for _ in range(2)]


def hostile_process(url: str, clients: int, seconds: float, number: int, answer: Queue) -> None:
    """The hostile clients, in a process of their own: sending megabytes must not slow the
    ordinary clients' measurements."""
    inputs = expensive_inputs(number)
    outcomes: dict[str, Counter] = defaultdict(Counter)
    slowest: dict[str, float] = defaultdict(float)

    async def run() -> None:
        until = time.monotonic() + seconds
        await asyncio.gather(
            *(
                hostile_client(url, number * 1000 + n, until, inputs, outcomes, slowest)
                for n in range(clients)
            )
        )

    asyncio.run(run())
    answer.put(({tool: dict(kinds) for tool, kinds in outcomes.items()}, dict(slowest)))


async def one_round(
    base: str, url: str, clients: int, seconds: float, number: int, pause: float = 0.0
) -> dict:
    hostile = clients // 3
    answer: Queue = Queue()
    process = Process(target=hostile_process, args=(url, hostile, seconds, number, answer))
    process.start()
    await asyncio.sleep(1.0)  # the hostile process is importing and making its inputs
    checked: Queue = Queue()
    checker = Process(target=health_process, args=(base, seconds, checked))
    checker.start()
    until = time.monotonic() + seconds
    samples: list[float] = []
    errors: list[str] = []
    by_tool: dict[str, list[float]] = defaultdict(list)
    await asyncio.gather(
        *(
            ordinary_client(url, number * 2000 + n, until, samples, errors, pause, by_tool)
            for n in range(clients - hostile)
        ),
    )
    outcomes, slowest = await asyncio.to_thread(answer.get)
    health = await asyncio.to_thread(checked.get)
    process.join()
    checker.join()
    counted = {tool: Counter(kinds) for tool, kinds in outcomes.items()}
    return {
        "samples": samples, "errors": errors, "health": health, "outcomes": counted, "slowest": slowest,
        "by_tool": by_tool,
    }  # fmt: skip


def report(number: int, found: dict, pid: int) -> None:
    samples, health = found["samples"], found["health"]
    print(
        f"round {number}: server CPU {found['cpu']:.1f} s in {found['took']:.0f} s, load average "
        f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; "
        f"ordinary {len(samples)} calls ({len(samples) / found['took']:.0f}/s), "
        f"errors {len(found['errors'])}, "
        f"p50 {pct(samples, 0.5):.0f} ms, p99 {pct(samples, 0.99):.0f} ms; "
        f"/health p99 {pct(health, 0.99):.0f} ms (n={len(health)}); "
        f"RSS {rss_mb(pid):.0f} MB, open files {open_files(pid)}; {workers_line(pid)}"
    )
    for error in found["errors"][:5]:
        print("  ordinary error:", error)
    print(
        "  ordinary p50/p99 by tool: "
        + ", ".join(
            f"{tool} {pct(times, 0.5):.0f}/{pct(times, 0.99):.0f}"
            for tool, times in sorted(found["by_tool"].items())
        )
    )
    for tool in sorted(found["outcomes"]):
        ended = ", ".join(f"{kind} {count}" for kind, count in found["outcomes"][tool].most_common())
        late = " LATE" if found["slowest"][tool] > DEFAULT_DEADLINE_S + 1 else ""
        print(f"  {tool:24} slowest {found['slowest'][tool]:5.1f} s{late}: {ended}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--pause", type=float, default=1.0, help="mean seconds an ordinary client waits between calls"
    )
    args = parser.parse_args()
    with serving_all() as server:
        pid = server.process.pid
        asyncio.run(one_round(server.base, server.mcp_url, 6, 3, 0))  # warm-up: caches, first imports
        print(f"ready and warm: RSS {rss_mb(pid):.0f} MB, open files {open_files(pid)}; {workers_line(pid)}")
        run_samples: list[float] = []
        run_health: list[float] = []
        run_errors = 0
        for number in range(1, args.rounds + 1):
            cpu, started = cpu_seconds(pid), time.monotonic()
            found = asyncio.run(
                one_round(server.base, server.mcp_url, args.clients, args.seconds, number, args.pause)
            )
            found.update(cpu=cpu_seconds(pid) - cpu, took=time.monotonic() - started)
            report(number, found, pid)
            run_samples += found["samples"]
            run_health += found["health"]
            run_errors += len(found["errors"])
        # The whole run's percentiles: a round's p99 rests on its ~6 slowest calls of ~600 and swings
        # with what else the two shared cores did in those seconds (the clients run on them too).
        print(
            f"whole run ({args.rounds} rounds): ordinary {len(run_samples)} calls, errors {run_errors}, "
            f"p50 {pct(run_samples, 0.5):.0f} ms, p99 {pct(run_samples, 0.99):.0f} ms; "
            f"/health p99 {pct(run_health, 0.99):.0f} ms (n={len(run_health)})"
        )
        print(f"server exit code after SIGTERM: {server.stop()}")
        problems = [line for line in server.log_lines if '"level": "error"' in line or "Traceback" in line]
        for line in problems[:10]:
            print("  server:", line[:300])


if __name__ == "__main__":
    main()
