"""Seed all 701 verses + 18 chapters from a loopback HTTP mirror; print the time (target <= 5 s).

Also, before any seed: how long an offline seed takes to fail (nothing listening on the source's
port), and a fresh install's `pramana gita match` (a new process, an empty data directory, no source).

uv run python benchmarks/gita_seed.py [--runs 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import _free_port, gita_mirror, loopback_mirror
from pramana.config import GitaSettings
from pramana.errors import SourceUnreachableError
from pramana.gita.service import GitaService

QUOTE_9_34 = "man manā bhava mad-bhākto mad-yajī mam namāskuru"


def seed_once(url: str, db: Path) -> tuple[float, int]:
    service = GitaService(GitaSettings(db_path=db, api_url=url))
    started = time.perf_counter()
    result = service.seed()
    elapsed = time.perf_counter() - started
    service.close()
    if not result.complete:
        raise SystemExit(f"seed incomplete: {result.failures[:3]}")
    return elapsed, result.fetched_verses


def offline_seed_seconds(db: Path) -> float:
    service = GitaService(GitaSettings(db_path=db, api_url=f"http://127.0.0.1:{_free_port()}"))
    started = time.perf_counter()
    try:
        service.seed()
    except SourceUnreachableError:
        return time.perf_counter() - started
    raise SystemExit("the seed from a closed port did not fail")


def fresh_match_seconds(home: Path) -> float:
    """`pramana gita match` in a new process with nothing cached and nothing to download from."""
    env = {
        **os.environ,
        "HOME": str(home),
        "PRAMANA_DATA_DIR": str(home / "data"),
        "VEDABASE_DB_PATH": str(home / "data" / "cache.db"),
        "VEDABASE_API_URL": f"http://127.0.0.1:{_free_port()}",
    }
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "pramana", "gita", "match", QUOTE_9_34],
        env=env,
        capture_output=True,
        text=True,
    )
    elapsed = time.perf_counter() - started
    if "Confident match: BG 9.34" not in done.stdout:
        raise SystemExit(f"fresh match did not answer BG 9.34: {done.stdout[:300]} {done.stderr[:300]}")
    return elapsed


def before_any_seed(tmp: Path) -> None:
    failed = offline_seed_seconds(tmp / "offline.db")
    print(f"offline seed (connection refused) fails after {failed:.2f} s, naming --source")
    times = [fresh_match_seconds(tmp / f"home{run}") for run in range(3)]
    imports = subprocess.run(
        [sys.executable, "-c", "import time; t = time.perf_counter(); import pramana.gita.cli, "
         "pramana.gita.service; print(time.perf_counter() - t)"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    print(
        f"fresh install, no seed: `pramana gita match` answers BG 9.34 in {statistics.median(times):.2f} s"
        f" wall (median of 3, new process; {float(imports.stdout):.2f} s of it is importing pramana)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    mirror = gita_mirror()
    with tempfile.TemporaryDirectory() as tmp:
        before_any_seed(Path(tmp))
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
