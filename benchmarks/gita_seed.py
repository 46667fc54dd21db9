"""Seed all 701 verses + 18 chapters from a loopback HTTP mirror; print the time (target <= 5 s).

uv run python benchmarks/gita_seed.py [--runs 3]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from _common import gita_mirror, loopback_mirror
from pramana.config import GitaSettings
from pramana.gita.service import GitaService


def seed_once(url: str, db: Path) -> tuple[float, int]:
    service = GitaService(GitaSettings(db_path=db, api_url=url))
    started = time.perf_counter()
    result = service.seed()
    elapsed = time.perf_counter() - started
    service.close()
    if not result.complete:
        raise SystemExit(f"seed incomplete: {result.failures[:3]}")
    return elapsed, result.fetched_verses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    mirror = gita_mirror()
    with loopback_mirror(mirror) as url, tempfile.TemporaryDirectory() as tmp:
        times = []
        for run in range(args.runs):
            db = Path(tmp) / f"run{run}.db"
            elapsed, fetched = seed_once(url, db)
            times.append(elapsed)
            print(f"run {run + 1}: seeded {fetched} verses + 18 chapters over HTTP in {elapsed:.2f} s")
        again, fetched = seed_once(url, Path(tmp) / "run0.db")
        print(f"re-seed of a complete cache: {again * 1000:.0f} ms, {fetched} verses fetched")
        print(f"seed from {url} (loopback): median {statistics.median(times):.2f} s (target <= 5 s)")
        print(f"cache size: {(Path(tmp) / 'run0.db').stat().st_size / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
