"""semble 0.7.0 (BM25 + its ranking, alpha=0) and pramana in the same run, scored the same way.

    nice -n 5 uv run python benchmarks/peer_semble.py [--cache DIR] [--repo NAME ...] [--bench-only]
                                                    [--heldout-only] [--heldout-cache DIR] [--per-query FILE]

The peer, semble (MinishLab, MIT), is installed from PyPI into a virtualenv of its own under --cache
(`uv venv` + `uv pip install semble==0.7.0`, reused on later runs): it is not a dependency of pramana
and is not in uv.lock. When it cannot be installed (no uv, no registry) the script says so and exits 0.

semble searches with alpha * semantic + (1 - alpha) * BM25 over RRF scores, then its ranking stack
(file coherence, identifier and definition boosts, path penalties). Its default embedding model,
minishlab/potion-code-16M-v2, comes from the Hugging Face Hub, which is not reachable here, so it
runs with alpha=0: the "BM25 + ranking" ablation semble publishes (0.834 on its 62 repositories,
against 0.852 for the hybrid). The embedding model is still loaded and asked (semble's code path is
unchanged); a stand-in model2vec model built locally takes its place, and with alpha=0 its vectors
weigh nothing: every tree is indexed and searched again with other random vectors, and the run
reports how many queries' top 10 changed (none may) and how many queries' purely semantic top 10
(alpha=1) changed, which shows the vectors were different enough to matter. The run is offline
(HF_HUB_OFFLINE=1); the runner is benchmarks/_semble_runner.py, executed by semble's virtualenv.

Trees, one at a time (pramana indexes and searches, then semble does, so they never share the CPU):
(a) the 18 repositories of ../shared/data/code/semble-bench, with semble's published hybrid figure
    beside the two measured here (--corrected: semble_bench.annotations' corrected targets, for both);
(b) every held-out query set, benchmarks/data/code_heldout*.json, roots resolved by code_heldout.py's
    own resolver (sources cached in --heldout-cache, fetched there by it when missing).
Both are scored by one function of semble_bench.py (score_answers, with target_rank, ndcg_at_10: semble's
rules); pramana is measured by semble_bench.score_tree (a cold index into a fresh SQLite file, then
`search_code(query, limit=10)`). With --per-query FILE, every query's targets, both tools' ranks of
each target, NDCG@10 and top 5 are written as JSON (benchmarks/peer_semble_diff.py reads it).
Timings: index seconds from cold (semble's in memory, as semble indexes), and the p50 of each
query once plus five queries three times more, in process, for both.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace

from _common import load_average, shared_data
from code_heldout import resolve_root
from pramana.embed import Embedder, choose_embedder
from semble_bench import (
    REPOS,
    annotations,
    published_figures,
    score_answers,
    score_tree,
    targets_of,
    tree_of,
)

SEMBLE_VERSION = "0.7.0"
SEMBLE = f"semble=={SEMBLE_VERSION}"
RUNNER = Path(__file__).parent / "_semble_runner.py"
HELDOUT_SETS = sorted((Path(__file__).parent / "data").glob("code_heldout*.json"))
SEEDS = (1, 2)  # the stand-in's vectors: the first is measured, the second must change nothing
REPEATS = 3  # warm repeats of the first five queries, as semble_bench.score_tree times pramana


def semble_python(cache: Path) -> Path | None:
    """The python of a virtualenv with semble 0.7.0 under cache, made when missing; None (said why)
    when it cannot be made."""
    python = cache / "venv" / "bin" / "python"
    if _semble_version(python) == SEMBLE_VERSION:
        return python
    uv = shutil.which("uv")
    if uv is None:
        print(f"semble: not measured: `uv` is not on PATH, so {SEMBLE} cannot be installed")
        return None
    steps = [
        [uv, "venv", "--quiet", "--clear", "--python", sys.executable, str(cache / "venv")],
        [uv, "pip", "install", "--quiet", "--python", str(python), SEMBLE],
    ]
    for step in steps:
        done = subprocess.run(step, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            why = (done.stderr.strip().splitlines() or ["no message"])[-1]
            print(f"semble: not measured: `{' '.join(step[1:3])}` failed ({why})")
            return None
    if (version := _semble_version(python)) != SEMBLE_VERSION:
        print(f"semble: not measured: the virtualenv has semble {version}, not {SEMBLE}")
        return None
    return python


def _semble_version(python: Path) -> str | None:
    if not python.exists():
        return None
    asked = [str(python), "-c", "import semble; print(semble.__version__)"]
    done = subprocess.run(asked, capture_output=True, text=True, check=False, env=_runner_env())
    return done.stdout.strip() if done.returncode == 0 else None


def _runner_env(cache_location: str = "") -> dict[str, str]:
    """semble's process: offline, its cache and statistics files in a folder of this run, bytecode
    written (its modules compile once, not at every run), nothing of pramana's environment."""
    dropped = ("PYTHONDONTWRITEBYTECODE", "VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME")
    env = {k: v for k, v in os.environ.items() if k not in dropped}
    env["HF_HUB_OFFLINE"] = "1"
    if cache_location:
        env["SEMBLE_CACHE_LOCATION"] = cache_location
    return env


class SembleRunner:
    """semble's runner as a child process: one tree in, one answer out (JSON lines)."""

    def __init__(self, python: Path, cache_location: Path):
        self.process = subprocess.Popen(
            [str(python), str(RUNNER)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=_runner_env(str(cache_location)),
        )
        self.version = self._ask({"seeds": list(SEEDS), "repeats": REPEATS})["semble"]

    def _ask(self, message: dict) -> dict:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(message) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"semble's runner stopped (exit {self.process.wait()})")
        return json.loads(line)

    def run(self, name: str, root: Path, queries: list[dict]) -> dict:
        return self._ask({"name": name, "root": str(root), "queries": [q["query"] for q in queries]})

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait()


def as_chunks(hits: list[list]) -> list[SimpleNamespace]:
    """semble's hits ([path, start line, end line]) in the shape semble_bench.target_rank reads."""
    return [
        SimpleNamespace(metadata=SimpleNamespace(filePath=path, startLine=start, endLine=end))
        for path, start, end in hits
    ]


def score_hits(queries: list[dict], hits: list[list[list]]) -> dict:
    """Each query's top 10 scored as semble_bench.score_tree scores pramana's (score_answers)."""
    return score_answers(queries, [as_chunks(found) for found in hits])


@dataclass
class Pair:
    """One tree measured by both."""

    name: str
    language: str
    ours: dict
    theirs: dict
    semble: dict = field(default_factory=dict)  # the runner's answer: timings, the vectors' check
    queries: list[dict] = field(default_factory=list)
    part: str = ""  # "semble-bench" or the held-out set's file name

    @property
    def semble_p50_ms(self) -> float:
        latencies = self.semble.get("latencies_ms")
        return statistics.median(latencies) if latencies else float("nan")

    def per_query(self) -> list[dict]:
        """Each query with its targets, each tool's rank of each target and top 5 (path:line)."""
        rows = []
        for query, ours, theirs in zip(
            self.queries, self.ours["per_query"], self.theirs["per_query"], strict=True
        ):
            rows.append(
                {
                    "query": query["query"],
                    "category": query.get("category", "other"),
                    "targets": targets_of(query),
                    "pramana": ours,
                    "semble0": theirs,
                }
            )
        return rows


def write_per_query(pairs: list[Pair], path: Path) -> None:
    """Every tree's queries, both tools' ranks and top 5, as JSON, for studying where they differ."""
    trees = [
        {"part": p.part, "repo": p.name, "language": p.language, "queries": p.per_query()} for p in pairs
    ]
    path.write_text(json.dumps({"load": load_average(), "trees": trees}, indent=1) + "\n")
    print(f"per-query results of {len(pairs)} trees written to {path}")


def measure(
    name: str,
    language: str,
    root: Path,
    queries: list[dict],
    runner: SembleRunner,
    embedder: Embedder | None,
    workdir: Path,
) -> Pair:
    ours = score_tree(root, queries, embedder, workdir / f"{name}.db", verbose=False)
    answer = runner.run(name, root, queries)
    if "error" in answer:  # semble indexes nothing there: what its user gets is no answer
        print(f"  semble on {name}: {answer['error']}")
        theirs = score_hits(queries, [[] for _ in queries])
    else:
        theirs = score_hits(queries, answer["hits"])
    return Pair(name, language, ours, theirs, answer, queries)


HEADER = (
    f"{'repo':<15} {'language':<11} {'pramana':>7} {'semble0':>7} {'diff':>6}"
    f" {'index s':>7} {'semble s':>8} {'p50 ms':>6} {'semble ms':>9}"
)


def row(pair: Pair, extra: str = "") -> str:
    ours, theirs = pair.ours["ndcg10"], pair.theirs["ndcg10"]
    return (
        f"{pair.name:<15} {pair.language:<11} {ours:>7.3f} {theirs:>7.3f} {ours - theirs:>+6.3f}"
        f" {pair.ours['index_s']:>7.2f} {pair.semble.get('index_s', float('nan')):>8.2f}"
        f" {pair.ours['p50_ms']:>6.2f} {pair.semble_p50_ms:>9.2f}{extra}"
    )


def summary(pairs: list[Pair], label: str) -> None:
    """Means over repositories, by language and by category (over queries), and the vectors' check."""
    ours = statistics.fmean(p.ours["ndcg10"] for p in pairs)
    theirs = statistics.fmean(p.theirs["ndcg10"] for p in pairs)
    print(
        f"{label}: {len(pairs)} repositories, mean pramana {ours:.3f}, semble0 {theirs:.3f},"
        f" diff {ours - theirs:+.3f}"
    )
    by_language = collections.defaultdict(list)
    for pair in pairs:
        by_language[pair.language].append(pair)
    print(
        "  by language: "
        + ", ".join(
            f"{language} {statistics.fmean(p.ours['ndcg10'] for p in group):.3f}"
            f"/{statistics.fmean(p.theirs['ndcg10'] for p in group):.3f}"
            for language, group in sorted(by_language.items())
        )
    )
    categories: dict[str, tuple[list[float], list[float]]] = collections.defaultdict(lambda: ([], []))
    for pair in pairs:
        for category, scores in pair.ours["category_scores"].items():
            categories[category][0].extend(scores)
            categories[category][1].extend(pair.theirs["category_scores"][category])
    print(
        "  by category, over queries (pramana/semble0): "
        + ", ".join(
            f"{c} {statistics.fmean(a):.3f}/{statistics.fmean(b):.3f} ({len(a)})"
            for c, (a, b) in sorted(categories.items())
        )
    )
    compared = [p.semble for p in pairs if "hits" in p.semble]
    queries = sum(len(s["hits"]) * s["seeds_compared"] for s in compared)
    changed = sum(s["changed_by_vectors"] for s in compared)
    semantic_changed = sum(s["semantic_changed_by_vectors"] for s in compared)
    print(
        f"  stand-in vectors: top 10 changed by other vectors in {changed} of {queries} queries at"
        f" alpha=0; semantic top 10 (alpha=1) changed in {semantic_changed}"
    )
    print(
        f"  index s max pramana {max(p.ours['index_s'] for p in pairs):.2f},"
        f" semble {max(p.semble.get('index_s', 0.0) for p in pairs):.2f};"
        f" p50 ms (median of repos) pramana {statistics.median(p.ours['p50_ms'] for p in pairs):.2f},"
        f" semble {statistics.median(p.semble_p50_ms for p in pairs):.2f}"
    )


def bench_pairs(
    repos: list[str], runner: SembleRunner, embedder: Embedder | None, workdir: Path, corrected: bool
) -> list[Pair]:
    bench = shared_data("code", "semble-bench")
    languages = {r["name"]: r["language"] for r in json.loads((bench / "repos.json").read_text())}
    published = published_figures(bench)
    print(f"(a) semble's benchmark, {len(repos)} repositories; 'hybrid' is semble's published figure")
    print(HEADER + f" {'hybrid':>6}")
    pairs = []
    for repo in repos:
        queries = annotations(bench, repo, corrected)
        pair = measure(repo, languages[repo], tree_of(bench, repo), queries, runner, embedder, workdir)
        pair.part = "semble-bench"
        pairs.append(pair)
        print(row(pair, f" {published[repo]['ndcg10']:>6.3f}"), flush=True)
    summary(pairs, "semble-bench")
    hybrid = statistics.fmean(published[p.name]["ndcg10"] for p in pairs)
    print(f"  semble's published hybrid on the same repositories: {hybrid:.3f}")
    return pairs


def heldout_pairs(
    names: list[str] | None, runner: SembleRunner, embedder: Embedder | None, workdir: Path, cache: Path
) -> list[Pair]:
    cache.mkdir(parents=True, exist_ok=True)
    everything = []
    for queries_file in HELDOUT_SETS:
        spec = json.loads(queries_file.read_text())
        pairs, heading = [], f"(b) {queries_file.name}\n{HEADER}"
        for repo in spec["repos"]:
            if names and repo["name"] not in names:
                continue
            if heading:  # once, above the set's first repository
                print(heading)
                heading = ""
            root = resolve_root(repo["root"], cache)
            if root is None or not root.is_dir():
                print(f"{repo['name']:<15} skipped: not installed ({repo['root']})")
                continue
            pair = measure(repo["name"], repo["language"], root, repo["queries"], runner, embedder, workdir)
            pair.part = queries_file.name
            pairs.append(pair)
            print(row(pair), flush=True)
        if len(pairs) > 1:
            ours = statistics.fmean(p.ours["ndcg10"] for p in pairs)
            theirs = statistics.fmean(p.theirs["ndcg10"] for p in pairs)
            print(f"{'mean':<27} {ours:>7.3f} {theirs:>7.3f} {ours - theirs:>+6.3f}")
        everything.extend(pairs)
    if everything:
        summary(everything, "every held-out set")
    return everything


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "pramana-peer-semble")
    parser.add_argument(
        "--heldout-cache", type=Path, default=Path(tempfile.gettempdir()) / "pramana-heldout-code"
    )
    parser.add_argument("--repo", nargs="*", default=None, help="only these repositories (of either part)")
    parser.add_argument("--bench-only", action="store_true", help="semble's benchmark only")
    parser.add_argument("--heldout-only", action="store_true", help="the held-out query sets only")
    parser.add_argument(
        "--corrected", action="store_true", help="semble_bench's corrected targets (fmtlib), for both"
    )
    parser.add_argument("--embedder", default="auto", choices=["none", "static", "auto"])
    parser.add_argument(
        "--per-query", type=Path, default=None, help="write every query's ranks and top 5 of both here (JSON)"
    )
    args = parser.parse_args()
    started = time.perf_counter()
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {load_average()}")
    args.cache.mkdir(parents=True, exist_ok=True)
    python = semble_python(args.cache)
    if python is None:
        return
    os.environ["PRAMANA_DATA_DIR"] = tempfile.mkdtemp(prefix="pramana-bench-data-")  # a first use
    embedder = choose_embedder(args.embedder, None, "")
    with tempfile.TemporaryDirectory(dir=args.cache, prefix="run-") as tmp:
        runner = SembleRunner(python, Path(tmp) / "semble-cache")
        print(f"semble {runner.version} (alpha=0, stand-in vectors); pramana embedder "
              f"{embedder.name if embedder else 'none (BM25 only)'}")  # fmt: skip
        pairs: list[Pair] = []
        try:
            if not args.heldout_only:
                repos = [r for r in REPOS if not args.repo or r in args.repo]
                if repos:
                    pairs += bench_pairs(repos, runner, embedder, Path(tmp), args.corrected)
            if not args.bench_only:
                pairs += heldout_pairs(args.repo, runner, embedder, Path(tmp), args.heldout_cache)
        finally:
            runner.close()
    if args.per_query is not None:
        write_per_query(pairs, args.per_query)
    print(f"{time.perf_counter() - started:.0f} s in all; {load_average()}")


if __name__ == "__main__":
    main()
