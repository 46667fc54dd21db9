"""Replicas sharing one PostgreSQL (issue 33): load, seeding from two replicas at once, a restart.

    uv run python benchmarks/postgres_replicas.py [--clients 50] [--calls 100] [--replicas 3]

Starts a PostgreSQL cluster of its own (benchmarks/_postgres_server.py: initdb into a temporary folder, a
Unix socket there; as the `postgres` user when run as root; `apt-get install postgresql` if there is
none) and a loopback HTTP mirror of the Gītā data (../shared/data/gita/mirror). Then prints:
1. two `pramana gita seed --database-url` processes started at once: the time of each, and the rows of
   every table beside those one seed alone leaves (they must be equal);
2. N replicas (`pramana serve gita --transport http --stateless`) on loopback sharing the database,
   `--clients` MCP clients x `--calls` mixed calls spread over them: errors, p50/p99 per tool; then
   the same load on N replicas each with its own copy of the SQLite cache (the scale-out recipe
   before PostgreSQL);
3. the same PostgreSQL load again, with PostgreSQL restarted (pg_ctl restart -m fast) a few seconds
   in: the calls that failed, and the seconds from the restart until calls succeed again.
The load average is printed beside the figures: the machine this runs on may be busy.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import httpx
import psycopg

from benchmarks._common import gita_mirror, loopback_mirror
from benchmarks._http_server import RunningServer, running_server
from benchmarks._mcp_client import http_session
from benchmarks._postgres_server import PostgresCluster, started_cluster

TABLES = ["verses", "verse_texts", "verse_search", "verse_words", "chapters"]
QUERIES = ["karma", "yoga", "how can I control my restless mind?", "sarva dharman parityajya", "devotion"]
QUOTES = ["man mana bhava mad bhakto", "karmanye vadhikaraste ma phaleshu", "mamaivamso jiva loke"]
CALLS = [
    ("lookup_verse", lambda r: {"reference": f"BG {r.randint(1, 18)}.{r.randint(1, 20)}"}),
    ("search_verses", lambda r: {"query": r.choice(QUERIES)}),
    ("fuzzy_match_verse", lambda r: {"garbled_sanskrit": r.choice(QUOTES)}),
    ("get_chapter", lambda r: {"chapter": f"BG {r.randint(1, 18)}"}),
]


def load_average() -> str:
    return "load average " + " ".join(f"{x:.1f}" for x in os.getloadavg())


def counts(url: str) -> dict[str, int]:
    with psycopg.connect(url) as conn:
        return {t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in TABLES}  # type: ignore[index]


def seed(url: str, mirror: str, env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "pramana", "gita", "seed", "--database-url", url, "--source", mirror],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env={**os.environ, **env},
    )  # fmt: skip


def timed_seeds(urls: list[str], mirror: str, env: dict[str, str]) -> list[tuple[float, int]]:
    started = time.perf_counter()
    processes = [seed(url, mirror, env) for url in urls]
    done = []
    for process in processes:
        process.wait()
        done.append((time.perf_counter() - started, process.returncode))
    return done


@dataclass
class Load:
    samples: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: list[str] = field(default_factory=list)
    calls: list[tuple[float, float, bool]] = field(
        default_factory=list
    )  # (start, end, ok) on the monotonic clock


async def client(urls: list[str], number: int, calls: int, load: Load) -> None:
    rng = random.Random(number)
    async with http_session(urls[number % len(urls)]) as session:
        for _ in range(calls):
            name, make = rng.choice(CALLS)
            started = time.monotonic()
            ok = True
            try:
                result = await session.call_tool(name, make(rng))
                if result.is_error and "does not exist" not in result.content[0].text:
                    ok = False
                    load.errors.append(f"{name}: {result.content[0].text[:160]}")
            except Exception as exc:  # a transport failure is what this benchmark is looking for
                ok = False
                load.errors.append(f"{name}: {type(exc).__name__}: {str(exc)[:160]}")
            ended = time.monotonic()
            load.samples[name].append((ended - started) * 1000)
            load.calls.append((started, ended, ok))


def run_load(urls: list[str], clients: int, calls: int) -> tuple[Load, float]:
    load = Load()

    async def everyone() -> None:
        await asyncio.gather(*(client(urls, n, calls, load) for n in range(clients)))

    started = time.perf_counter()
    asyncio.run(everyone())
    return load, time.perf_counter() - started


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] if ordered else float("nan")


def report(title: str, load: Load, seconds: float) -> None:
    total = sum(len(v) for v in load.samples.values())
    print(
        f"{title}: {total} calls in {seconds:.1f} s ({total / seconds:.0f}/s), errors {len(load.errors)};"
        f" {load_average()}"
    )
    for name, values in sorted(load.samples.items()):
        print(
            f"  {name:18} n={len(values):5}  p50 {pct(values, 0.5):7.1f} ms  p99 {pct(values, 0.99):7.1f} ms"
        )
    for error in load.errors[:5]:
        print("  error:", error)


def replicas(stack: ExitStack, count: int, env_of) -> list[RunningServer]:  # type: ignore[no-untyped-def]
    servers = [stack.enter_context(running_server(["gita", "--stateless"], env_of(i))) for i in range(count)]
    for server in servers:
        deadline = time.monotonic() + 120
        while httpx.get(server.base + "/ready", timeout=30).status_code != 200:
            if time.monotonic() > deadline:
                raise SystemExit(
                    f"replica on {server.base} never ready: {httpx.get(server.base + '/ready').text}"
                )
            time.sleep(0.5)
    return servers


def restart_during_load(
    cluster: PostgresCluster, urls: list[str], clients: int, calls: int, after: float
) -> None:
    marks: dict[str, float] = {}

    def restart() -> None:
        time.sleep(after)
        marks["begin"] = time.monotonic()
        cluster.restart()
        marks["end"] = time.monotonic()

    thread = threading.Thread(target=restart)
    thread.start()
    load, seconds = run_load(urls, clients, calls)
    thread.join()
    report("PostgreSQL restarted under load", load, seconds)
    begin, end = marks["begin"], marks["end"]
    failed = [c for c in load.calls if not c[2]]
    print(
        f"  restart took {end - begin:.1f} s (pg_ctl restart -m fast); failed calls {len(failed)}"
        f" of {len(load.calls)}"
    )
    if failed:
        first, last = min(c[1] for c in failed) - begin, max(c[1] for c in failed) - begin
        print(f"  failures from {first:+.1f} s to {last:+.1f} s after the restart began")
    # Calls waiting for a connection during the restart wait (up to PRAMANA_DATABASE_POOL_WAIT) rather
    # than fail: the longest of those, and when the first call made after the restart began succeeded.
    after = [
        c for c in load.calls if c[0] >= begin and c[2] and (not failed or c[1] > max(f[1] for f in failed))
    ]
    overlapping = [c[1] - c[0] for c in load.calls if c[0] <= end and c[1] >= begin]
    if after:
        print(f"  calls succeed again {min(c[1] for c in after) - begin:.1f} s after the restart began")
    if overlapping:
        print(f"  the longest call across the restart took {max(overlapping):.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--calls", type=int, default=100)
    parser.add_argument("--replicas", type=int, default=3)
    parser.add_argument("--restart-after", type=float, default=5.0, help="seconds into the load")
    args = parser.parse_args()

    # Stopped with SIGTERM (timeout, kill): the cluster and the replicas are stopped on the way out.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    cluster = started_cluster()
    try:
        with (
            tempfile.TemporaryDirectory() as tmp,
            loopback_mirror(gita_mirror()) as mirror,
            ExitStack() as stack,
        ):
            env = {"PRAMANA_DATA_DIR": tmp, "VEDABASE_QUESTION_MODEL": "false"}
            alone, shared = cluster.create_database("alone"), cluster.create_database("shared")

            print(f"one seed alone: {timed_seeds([alone], mirror, env)[0][0]:.1f} s; {load_average()}")
            raced = timed_seeds([shared, shared], mirror, env)
            print("two seeds at once: " + ", ".join(f"{s:.1f} s (exit {code})" for s, code in raced))
            one, two = counts(alone), counts(shared)
            print(f"  rows, one seed: {one}\n  rows, two seeds at once: {two}\n  equal: {one == two}")

            sqlite = Path(tmp) / "gita.db"
            command = [
                sys.executable,
                "-m",
                "pramana",
                "gita",
                "seed",
                "--db",
                str(sqlite),
                "--source",
                mirror,
            ]
            subprocess.run(command, check=True, capture_output=True, env={**os.environ, **env})
            copies = []
            for i in range(args.replicas):
                copies.append(Path(tmp) / f"replica-{i}" / "gita.db")
                copies[-1].parent.mkdir()
                shutil.copy(sqlite, copies[-1])

            pg_env = {**env, "PRAMANA_DATABASE_URL": shared, "VEDABASE_API_URL": mirror}
            with ExitStack() as pg_stack:
                servers = replicas(pg_stack, args.replicas, lambda i: pg_env)
                urls = [s.mcp_url for s in servers]
                asyncio.run(client(urls, 999, 20, Load()))  # warm-up
                report(f"{args.replicas} replicas, one PostgreSQL", *run_load(urls, args.clients, args.calls))
                restart_during_load(cluster, urls, args.clients, args.calls, args.restart_after)
                time.sleep(2)  # the replicas' listening connections come back
                for server in servers:
                    ready = httpx.get(server.base + "/ready", timeout=30).json()
                    print(f"  /ready after: {ready['servers']['gita']['database']}")

            with ExitStack() as sqlite_stack:
                servers = replicas(
                    sqlite_stack, args.replicas,
                    lambda i: {**env, "VEDABASE_DB_PATH": str(copies[i]), "VEDABASE_API_URL": mirror},
                )  # fmt: skip
                urls = [s.mcp_url for s in servers]
                asyncio.run(client(urls, 999, 20, Load()))
                report(
                    f"{args.replicas} replicas, a SQLite copy each", *run_load(urls, args.clients, args.calls)
                )
            stack.close()
    finally:
        cluster.remove()


if __name__ == "__main__":
    main()
