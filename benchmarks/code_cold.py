"""Index from cold as a user meets it, and search over stdio, on semble's 18 repositories.

    uv run python benchmarks/code_cold.py [--repo NAME ...] [--rounds N]

For each repository of `semble_bench.py`: `pramana code index ROOT --db FILE` in a new process, with
a data folder of its own that nothing has used (a first use on a new machine: nothing cached, the
shipped static table checked and loaded), timed from outside (wall seconds, and the CPU seconds of
the process and its parse workers); then the index is served by `pramana serve code` and every
annotated query is asked over stdio by a bare JSON-RPC client (p50 of two passes after a warm one,
as semble_bench.py --stdio does). The load average is printed beside each figure: on a shared
machine the wall times mean little without it. `--rounds N` indexes each repository N times (each
from cold) and keeps the lowest wall time and its CPU time.

`--queries FILE` measures the repositories of a `code_heldout.py` query set instead (its roots
fetched into `--cache` as that script does; its queries asked over stdio).

`--stages` also indexes each repository once more from cold through the CLI's own install path in a
new process, and prints where the indexing process's time went (wall / CPU seconds per stage of
IndexReport.stages, its imports before them, the rest of its CPU, and the parse workers' CPU).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import shared_data
from semble_bench import REPOS, stdio_p50, tree_of


def cold_index(root: Path, workdir: Path) -> tuple[float, float]:
    """(wall, CPU) seconds of `pramana code index` in a new process and a new data folder."""
    data = Path(tempfile.mkdtemp(prefix="data-", dir=workdir))
    env = {**os.environ, "PRAMANA_DATA_DIR": str(data)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as installed: bytecode compiled once
    db = data / "index.db"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "pramana", "code", "index", str(root), "--db", str(db)],
        env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


STAGES = """
import json, resource, sys, time
wall, cpu = time.perf_counter(), time.process_time()
from pramana.code.index.early import hold_collections
hold_collections(["code", "index"])  # as the `pramana` command does (entry.main)
from pathlib import Path
from pramana import process
process.for_commands()
from pramana.code.data import install
from pramana.config import CodeSettings
from pramana.servers import Source
settings = CodeSettings.load(repo=Path(sys.argv[1]), db_path=Path(sys.argv[2]))
stages = {"imports": (time.perf_counter() - wall, time.process_time() - cpu)}
stages.update(install(settings, Source(sys.argv[1]), lambda *_: None).report.report.stages)
workers = resource.getrusage(resource.RUSAGE_CHILDREN)
workers_cpu = workers.ru_utime + workers.ru_stime
print(json.dumps({"stages": stages, "cpu": time.process_time(), "workers": workers_cpu}))
"""


def stages(root: Path, workdir: Path) -> str:
    """Where a cold index's time went: 'stage wall/cpu' for the indexing process, then its other CPU
    (opening the store, the static table, the exit) and its parse workers' CPU."""
    data = Path(tempfile.mkdtemp(prefix="data-", dir=workdir))
    env = {**os.environ, "PRAMANA_DATA_DIR": str(data)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    command = [sys.executable, "-c", STAGES, str(root), str(data / "index.db")]
    done = subprocess.run(command, env=env, check=True, capture_output=True, text=True)
    found = json.loads(done.stdout)
    timed = found["stages"]
    other = found["cpu"] - sum(cpu for _, cpu in timed.values())
    shown = ", ".join(f"{name} {wall:.2f}/{cpu:.2f}" for name, (wall, cpu) in timed.items())
    return f"  stages (wall/CPU s): {shown}; other CPU {other:.2f}; workers' CPU {found['workers']:.2f}"


def _heldout_trees(queries: Path, cache: Path) -> dict[str, tuple[Path, list[dict]]]:
    """A code_heldout.py query set's repositories that are there: name -> (root, queries)."""
    from code_heldout import resolve_root

    trees = {}
    for repo in json.loads(queries.read_text())["repos"]:
        root = resolve_root(repo["root"], cache)
        if root is not None and root.is_dir():
            trees[repo["name"]] = (root, repo["queries"])
    return trees


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", nargs="*", help="these repositories only (of --queries' too)")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--no-stdio", action="store_true", help="time indexing only")
    parser.add_argument("--stages", action="store_true", help="also print where a cold index's time went")
    parser.add_argument("--queries", type=Path, help="a code_heldout.py query set's repositories instead")
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "pramana-heldout-code")
    args = parser.parse_args()
    bench = shared_data("code", "semble-bench")
    trees = _heldout_trees(args.queries, args.cache) if args.queries else None
    unknown = set(args.repo or ()) - set(trees or REPOS)
    if unknown:
        parser.error(f"no repository {', '.join(sorted(unknown))}; there are {', '.join(trees or REPOS)}")
    print(f"{'repo':<13} {'index s':>8} {'cpu s':>6} {'load':>5}   {'stdio p50 ms':>12} {'load':>5}")
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        os.environ["PRAMANA_DATA_DIR"] = str(workdir / "serve-data")  # the server's, for stdio
        for repo in [name for name in trees or REPOS if not args.repo or name in args.repo]:
            root = trees[repo][0] if trees else tree_of(bench, repo)
            load = os.getloadavg()[0]
            wall, cpu = min(cold_index(root, workdir) for _ in range(args.rounds))
            line = f"{repo:<13} {wall:>8.2f} {cpu:>6.2f} {load:>5.1f}"
            if not args.no_stdio:
                queries = (
                    trees[repo][1]
                    if trees
                    else json.loads((bench / "annotations" / f"{repo}.json").read_text())
                )
                db = workdir / f"{repo}.db"
                subprocess.run(
                    [sys.executable, "-m", "pramana", "code", "index", str(root), "--db", str(db)],
                    check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                )  # fmt: skip
                stdio_load = os.getloadavg()[0]
                line += f"   {stdio_p50(root, db, queries):>12.2f} {stdio_load:>5.1f}"
            print(line, flush=True)
            if args.stages:
                print(stages(root, workdir), flush=True)


if __name__ == "__main__":
    main()
