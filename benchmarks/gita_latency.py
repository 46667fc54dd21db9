"""Latency of the gita tools over real MCP stdio, cached (targets: lookup p50 <= 5 ms, search <= 10 ms).

uv run python benchmarks/gita_latency.py [--calls 200]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
import time
from pathlib import Path

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from _common import gita_mirror, percentiles
from pramana.config import GitaSettings
from pramana.gita.reference import all_refs
from pramana.gita.service import GitaService

SEARCHES = [
    "karmanyevadhikaraste",
    "prescribed duty",
    "krishna arjuna",
    "surrender unto me",
    "yoga",
    "sarva dharman parityajya",
    "कर्म",
    "the soul is eternal",
    "bhakti devotion",
    "peace",
]
MATCHES = [
    "man manā bhava mad-bhākto mad-yajī mam namāskuru",
    "mā mā evaṁ sa jīva-loka jīva-bhūta-sanātana",
    "kārama-ñeva-dhikāra-ste māpaleṣu-dhikāṣṭhana",
]


async def timed(session: ClientSession, tool: str, arguments: dict) -> float:
    started = time.perf_counter()
    result = await session.call_tool(tool, arguments)
    elapsed = (time.perf_counter() - started) * 1000
    if result.is_error:
        raise SystemExit(f"{tool} failed: {result.content[0].text}")
    return elapsed


async def measure(db: Path, calls: int) -> None:
    env = {**os.environ, "VEDABASE_DB_PATH": str(db), "VEDABASE_API_URL": "http://127.0.0.1:9"}
    params = StdioServerParameters(command=sys.executable, args=["-m", "pramana", "serve", "gita"], env=env)
    refs = all_refs()
    rng = random.Random(7)
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        for _ in range(20):  # warm up (the first match builds the matcher's index)
            await timed(session, "lookup_verse", {"reference": "2.47"})
            await timed(session, "search_verses", {"query": "karma"})
            await timed(session, "fuzzy_match_verse", {"garbled_sanskrit": MATCHES[0]})
        lookups = [
            await timed(session, "lookup_verse", {"reference": f"BG {ref.chapter}.{ref.verse}"})
            for ref in rng.choices(refs, k=calls)
        ]
        searches = [
            await timed(session, "search_verses", {"query": SEARCHES[i % len(SEARCHES)]})
            for i in range(calls)
        ]
        matches = [
            await timed(session, "fuzzy_match_verse", {"garbled_sanskrit": MATCHES[i % len(MATCHES)]})
            for i in range(calls)
        ]
    print(f"lookup_verse over stdio, cached:  {percentiles(lookups)}  (target p50 <= 5 ms)")
    print(f"search_verses over stdio:         {percentiles(searches)}  (target p50 <= 10 ms)")
    print(f"fuzzy_match_verse over stdio:     {percentiles(matches)}  (target p50 <= 5 ms)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--calls", type=int, default=200)
    args = parser.parse_args()
    mirror = gita_mirror()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "cache.db"
        service = GitaService(GitaSettings(db_path=db, api_url=str(mirror)))
        service.seed()
        service.close()
        asyncio.run(measure(db, args.calls))


if __name__ == "__main__":
    main()
