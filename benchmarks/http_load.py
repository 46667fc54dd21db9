"""Load on one HTTP server: 50 concurrent SDK clients x 100 mixed tool calls, two rounds.

Serves all four servers from one `pramana serve all --transport http` process on loopback, with
data built from ../shared/data. Prints errors, latency percentiles, throughput and the server's
memory after each round (flat = no growth from the first round to the second).

    uv run python benchmarks/http_load.py [--clients 50] [--calls 100] [--rounds 2]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._common import REPO_ROOT, gita_mirror, loopback_mirror, shared_data
from benchmarks._http_server import RunningServer, running_server
from benchmarks._mcp_client import http_session
from pramana.config import GitaSettings
from pramana.gita.service import GitaService
from pramana.pali.source import build as build_dpd
from pramana.sanskrit.source import install
from pramana.sanskrit.store import SanskritStore

CALLS = [
    ("lookup_verse", lambda r: {"reference": f"BG {r.randint(1, 18)}.{r.randint(1, 20)}"}),
    ("search_verses", lambda r: {"query": r.choice(["karma", "yoga", "dharma", "krishna", "devotion"])}),
    ("fuzzy_match_verse", lambda r: {"garbled_sanskrit": r.choice(["man mana bhava mad bhakto",
                                                                   "karmanye vadhikaraste"])}),
    ("sanskrit_search", lambda r: {"query": r.choice(["agni", "deva", "karman", "dharma"])}),
    ("sanskrit_transliterate", lambda r: {"text": "kṛṣṇa", "direction": "iast_to_deva"}),
    ("lookup_pali_word", lambda r: {"word": r.choice(["dhamma", "buddha", "sati", "citta"])}),
    ("get_grammatical_details", lambda r: {"sentence": "manopubbaṅgamā dhammā manoseṭṭhā manomayā"}),
    ("search_pali_meaning", lambda r: {"english": r.choice(["mindfulness", "mind", "truth"])}),
    ("search_code", lambda r: {"query": r.choice(["parse a verse reference", "rate limit", "json logs"])}),
    ("list_functions", lambda r: {"path": "pramana/mcp/guard.py"}),
]  # fmt: skip


def build_data(folder: Path) -> dict[str, str]:
    started = time.perf_counter()
    with loopback_mirror(gita_mirror()) as url:
        service = GitaService(GitaSettings(db_path=folder / "cache.db", api_url=url))
        service.seed()
        service.close()
    store = SanskritStore(folder / "sanskrit.db")
    asyncio.run(install(store, ["ap90"], str(shared_data("sanskrit")), folder / "downloads"))
    store.close()
    build_dpd(shared_data("pali"), folder / "dpd.db")
    print(f"data built in {time.perf_counter() - started:.0f} s")
    return {
        "VEDABASE_DB_PATH": str(folder / "cache.db"),
        "SANSKRIT_DB_PATH": str(folder / "sanskrit.db"),
        "DPD_DB_PATH": str(folder / "dpd.db"),
        "PRAMANA_CODE_REPO": str(REPO_ROOT / "src"),
        "PRAMANA_CODE_DB": str(folder / "code.db"),
        "PRAMANA_CODE_EMBEDDER": "none",
    }


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def client(url: str, seed: int, calls: int, samples: list[float], errors: list[str]) -> None:
    rng = random.Random(seed)
    async with http_session(url) as session:
        for _ in range(calls):
            name, make = rng.choice(CALLS)
            arguments = make(rng)
            started = time.perf_counter()
            try:
                result = await session.call_tool(name, arguments)
                if result.is_error and "does not exist" not in result.content[0].text:
                    errors.append(f"{name}: {result.content[0].text[:120]}")
            except Exception as exc:  # a transport failure is what this benchmark is looking for
                errors.append(f"{name}: {type(exc).__name__}: {exc}")
            samples.append((time.perf_counter() - started) * 1000)


async def one_round(
    url: str, clients: int, calls: int, round_number: int
) -> tuple[list[float], list[str], float]:
    samples: list[float] = []
    errors: list[str] = []
    started = time.perf_counter()
    await asyncio.gather(
        *(client(url, round_number * 1000 + n, calls, samples, errors) for n in range(clients))
    )
    return samples, errors, time.perf_counter() - started


@contextmanager
def serving_all() -> Iterator[RunningServer]:
    """`pramana serve all` over data built in a temporary folder, once /ready says it is."""
    import httpx

    with tempfile.TemporaryDirectory() as tmp, running_server(["all"], build_data(Path(tmp))) as server:
        while httpx.get(server.base + "/ready").status_code != 200:
            time.sleep(0.5)
        yield server


def pct(samples: list[float], q: float) -> float:
    """The q-quantile of `samples` (any order; nan when there are none)."""
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] if ordered else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--calls", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    with serving_all() as server:
        pid = server.process.pid
        print(f"server ready; RSS {rss_mb(pid):.0f} MB")
        asyncio.run(one_round(server.mcp_url, 5, 10, 99))  # warm-up: caches, matcher, first imports
        print(f"after warm-up: RSS {rss_mb(pid):.0f} MB")
        memory = []
        for number in range(1, args.rounds + 1):
            samples, errors, seconds = asyncio.run(
                one_round(server.mcp_url, args.clients, args.calls, number)
            )
            ordered = sorted(samples)
            memory.append(rss_mb(pid))
            print(
                f"round {number}: {args.clients} clients x {args.calls} calls = {len(samples)} calls in "
                f"{seconds:.1f} s ({len(samples) / seconds:.0f} calls/s); errors {len(errors)}; "
                f"p50 {pct(ordered, 0.5):.1f} ms, p90 {pct(ordered, 0.9):.1f} ms, "
                f"p99 {pct(ordered, 0.99):.1f} ms, max {ordered[-1]:.1f} ms; RSS {memory[-1]:.0f} MB"
            )
            for error in errors[:5]:
                print("  error:", error)
        if len(memory) > 1:
            print(f"memory from round 1 to round {len(memory)}: {memory[-1] - memory[0]:+.0f} MB")
        print(f"server exit code after SIGTERM: {server.stop()}")


if __name__ == "__main__":
    main()
