"""Import Monier-Williams (target <= 90 s) and measure sanskrit tool latency over MCP stdio with
mw + ap90 + md + cae installed (targets p50: exact and prefix <= 5 ms, fuzzy <= 30 ms,
reverse <= 50 ms, get_article <= 5 ms).

    uv run python benchmarks/sanskrit.py [--calls 100] [--db PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from _common import REPO_ROOT, RawStdioClient, percentiles, sdk_timed
from pramana.sanskrit.importers import import_path
from pramana.sanskrit.source import install
from pramana.sanskrit.store import SanskritStore

WORDS = [
    "kṛṣṇa",
    "dharma",
    "karman",
    "yoga",
    "deva",
    "agni",
    "rāja",
    "putra",
    "jñāna",
    "bhakti",
    "ātman",
    "manas",
]
QUERIES = {
    "exact": [(w, "exact") for w in [*WORDS, "कृष्ण", "kfzRa", "krishna", "dharma"]],
    "prefix": [(w[:3], "prefix") for w in WORDS],
    "fuzzy": [(w[1:4], "fuzzy") for w in WORDS],
    "reverse": [
        (w, "reverse") for w in ["fire", "black", "king", "son", "river", "horse", "sacrifice", "wisdom"]
    ],
}


def shared_data() -> Path:
    data = Path(os.environ.get("PRAMANA_TEST_DATA", REPO_ROOT.parent / "shared" / "data")) / "sanskrit"
    if not data.is_dir():
        sys.exit(f"no Sanskrit data at {data}: set PRAMANA_TEST_DATA")
    return data


def build(db: Path) -> None:
    data = shared_data()
    store = SanskritStore(db)
    started = time.perf_counter()
    mw = import_path(store, data / "mw" / "heritage_xhtml", "mw")
    print(f"import Monier-Williams (Heritage XHTML, 317 pages): {mw.entries:,} entries in "
          f"{time.perf_counter() - started:.1f} s (target <= 90 s)")  # fmt: skip
    for item in asyncio.run(install(store, ["ap90"], str(data), db.parent / "downloads")):
        print(f"install ap90 (csl): {item.entries:,} entries in {item.seconds} s")
    for code, file in (("md", "md/macdse.slob"), ("cae", "cae/cappse.slob")):
        item = import_path(store, data / file, code)
        print(f"import {code} (slob): {item.entries:,} entries in {item.seconds} s")
    store.close()
    print(f"database size with mw + ap90 + md + cae: {db.stat().st_size / 1e6:.0f} MB")


SERVER_ARGS = ["-m", "pramana", "serve", "sanskrit"]


def _env(db: Path) -> dict[str, str]:
    return {**os.environ, "SANSKRIT_DB_PATH": str(db)}


def measure_raw(db: Path, calls: int, limit: int) -> None:
    client = RawStdioClient(SERVER_ARGS, _env(db))
    try:
        ids = []
        for query, mode in QUERIES["exact"][:5]:
            found = client.call_tool("sanskrit_search", {"query": query, "mode": mode, "limit": 50})
            ids += [hit["article_id"] for hit in found["structuredContent"]["results"][:5]]
        for name, queries in QUERIES.items():
            samples: list[float] = []
            for query, mode in queries:
                arguments = {"query": query, "mode": mode, "limit": limit}
                samples += client.timed("sanskrit_search", arguments, max(1, calls // len(queries)))
            print(f"  sanskrit_search {name:<8} limit {limit:<3} {percentiles(samples)}")
        samples = []
        for article_id in ids:
            samples += client.timed("sanskrit_get_article", {"article_id": article_id}, 4)
        print(f"  sanskrit_get_article     {percentiles(samples)}")
    finally:
        client.close()


async def measure(db: Path, calls: int, limit: int) -> None:
    params = StdioServerParameters(command=sys.executable, args=SERVER_ARGS, env=_env(db))
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        ids = []
        for query, mode in QUERIES["exact"][:5]:
            result = await session.call_tool("sanskrit_search", {"query": query, "mode": mode, "limit": 50})
            ids += [hit["article_id"] for hit in result.structured_content["results"][:5]]
        for name, queries in QUERIES.items():
            samples: list[float] = []
            for query, mode in queries:  # each query a few times in a row, like a person refining a search
                arguments = {"query": query, "mode": mode, "limit": limit}
                timed, _ = await sdk_timed(
                    session, "sanskrit_search", arguments, max(1, calls // len(queries))
                )
                samples += timed
            print(f"  sanskrit_search {name:<8} limit {limit:<3} {percentiles(samples)}")
        samples = []
        for article_id in ids:
            timed, _ = await sdk_timed(session, "sanskrit_get_article", {"article_id": article_id}, 4)
            samples += timed
        print(f"  sanskrit_get_article     {percentiles(samples)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--calls", type=int, default=100)
    parser.add_argument("--db", type=Path, help="reuse a database built before (skips the imports)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or Path(tmp) / "sanskrit.db"
        if not db.exists():
            build(db)
        # The SDK's client re-validates every structured result against the tool's outputSchema in pure
        # Python (jsonschema): about 3 ms for 50 hits, most of the difference between the two clients.
        for limit in (50, 10):
            print("over stdio, bare JSON-RPC client (server + transport):")
            measure_raw(db, args.calls, limit)
            print("over stdio, MCP Python SDK ClientSession (adds its outputSchema validation):")
            asyncio.run(measure(db, args.calls, limit))


if __name__ == "__main__":
    main()
