"""Seed, then search at once: what a user waits for with the `embeddings` extra (issue 31, point 2).

A fresh data folder; the gita server over MCP stdio with the question model on; `seed_database`
from the shared mirror through a loopback HTTP server; then `search_verses` with a question at once
and every second until its structured result says it ranked by meaning (`ranking: model`). Printed:
- the seed call's time (it returns when the texts are stored: the vectors are built afterwards,
  in the server's background);
- the time from the seed's answer to the first answer of search_verses, and that answer's ranking;
- the time from the seed's answer to the search that ranked by meaning (all vectors built), with
  the build's own figures (texts encoded, seconds) from the result.
`--busy N` runs N processes that spin on the CPU meanwhile (two busy cores: `--busy 2`).

    uv run python benchmarks/gita_seed_vectors.py [--busy 2] [--timeout 1800]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import RawStdioClient, gita_mirror, loopback_mirror

QUESTION = "how can I control my restless mind?"
SPIN = "while True: pass"


def search(client: RawStdioClient) -> dict:
    return client.call_tool("search_verses", {"query": QUESTION, "max_results": 5})["structuredContent"]


def run(busy: int, timeout: float) -> None:
    spinners = [subprocess.Popen([sys.executable, "-c", SPIN]) for _ in range(busy)]
    try:
        with tempfile.TemporaryDirectory() as folder, loopback_mirror(gita_mirror()) as url:
            env = {
                **os.environ,
                "PRAMANA_DATA_DIR": folder,
                "VEDABASE_DB_PATH": str(Path(folder) / "gita.db"),
                "VEDABASE_API_URL": url,
                "VEDABASE_QUESTION_MODEL": "true",
            }
            client = RawStdioClient(["-m", "pramana", "serve", "gita"], env)
            try:
                started = time.perf_counter()
                seeded = client.call_tool("seed_database", {})["structuredContent"]
                seeded_at = time.perf_counter()
                print(
                    f"seed_database: {seeded_at - started:.1f} s, {seeded['verses_cached']} verses"
                    f" (notes: {' '.join(seeded['notes']) or 'none'})"
                )
                first = search(client)
                first_at = time.perf_counter()
                print(
                    f"first search_verses answer: {first_at - seeded_at:.2f} s after the seed,"
                    f" ranking {first['ranking']!r}, {len(first['results'])} verses,"
                    f" first {first['results'][0]['ref']}"
                )
                result = first
                while result["ranking"] != "model" and time.perf_counter() - seeded_at < timeout:
                    time.sleep(1.0)
                    result = search(client)
                done_at = time.perf_counter()
                build = result.get("vectors") or {}
                print(
                    f"ranked by meaning: {done_at - seeded_at:.1f} s after the seed (ranking"
                    f" {result['ranking']!r}; the build: {build.get('encoded')} of {build.get('total')}"
                    f" texts in {build.get('seconds')} s, state {build.get('state')!r})"
                )
            finally:
                client.close()
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--busy", type=int, default=0, help="processes spinning on the CPU meanwhile")
    parser.add_argument("--timeout", type=float, default=1800.0, help="seconds to wait for the vectors")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}; {args.busy} spinning processes")
    run(args.busy, args.timeout)


if __name__ == "__main__":
    main()
