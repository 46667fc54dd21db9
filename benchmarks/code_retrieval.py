"""Retrieval quality of `search_code`: CoSQA (text to function) and repository-level queries.

    uv run python benchmarks/code_retrieval.py [--embedder none|static|minilm|openai] [--split dev|test]
        [--only cosqa|repo] [--dense-weight W]

CoSQA: the 6,267 pool functions are indexed as one file each (code/<idx>.py); each query's rank is
that of the first chunk from its file. MRR is reported over the top 100 (MRR@100, which equals the
full-ranking MRR up to queries ranked below 100) and as MRR@10, with Recall@1/5/10.

Repo queries (httpx 0.28.1, rich 14.3.3): the sdists are fetched from PyPI once into
benchmarks/.cache (checked against the sha256 the dataset's README gives) and indexed; scoring is
the README's, at file level over distinct files, `pr` and `doc` reported apart.
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
import time
from pathlib import Path

from _common import REPO_ROOT, shared_data
from pramana.code.index.indexer import Indexer
from pramana.code.search import rank
from pramana.code.search.store import Filters
from pramana.code.service import CodeService
from pramana.code.store import CodeStore
from pramana.embed import choose_embedder

CACHE = REPO_ROOT / "benchmarks" / ".cache"
SDISTS = {
    "httpx": ("0.28.1", "75e98c5f16b0f35b567856f597f06ff2270a374470a5c2392242528e3e3e42fc"),
    "rich": ("14.3.3", "b8daa0b9e4eef54dd8cf7c86c03713f53241884e814f4e2f5fb342fe520f639b"),
}
DEPTH = 100


def ranked_files(service: CodeService, query: str, filters: Filters) -> list[str]:
    found = service._search(query, DEPTH, filters)
    return list(dict.fromkeys(c.metadata.filePath for c in found.chunks))


def build_index(root: Path, db: Path, embedder) -> tuple[CodeService, float]:  # type: ignore[no-untyped-def]
    store = CodeStore(db)
    started = time.perf_counter()
    Indexer(root, store, embedder).run()
    return CodeService(store, root, embedder), time.perf_counter() - started


# --- CoSQA ----------------------------------------------------------------------------------------


def cosqa(split: str, embedder, workdir: Path) -> dict[str, float]:  # type: ignore[no-untyped-def]
    data = shared_data("code", "cosqa")
    pool = json.loads((data / "code_idx_map.txt").read_text())
    queries = json.loads((data / f"cosqa-retrieval-{split}-500.json").read_text())
    root = workdir / "cosqa"
    (root / "code").mkdir(parents=True, exist_ok=True)
    for code, idx in pool.items():
        target = root / "code" / f"{idx}.py"
        if not target.exists():
            target.write_text(code + "\n")
    service, seconds = build_index(root, workdir / "cosqa.db", embedder)
    print(f"cosqa: indexed {len(pool):,} functions in {seconds:.1f} s")
    filters = Filters(excluded_languages=("markdown",))
    totals = collections.Counter()
    started = time.perf_counter()
    for query in queries:
        files = ranked_files(service, query["doc"], filters)
        target = f"code/{query['retrieval_idx']}.py"
        rank = files.index(target) + 1 if target in files else None
        totals["mrr@100"] += 1 / rank if rank else 0.0
        totals["mrr@10"] += 1 / rank if rank and rank <= 10 else 0.0
        for k in (1, 5, 10):
            totals[f"R@{k}"] += 1.0 if rank and rank <= k else 0.0
    elapsed = time.perf_counter() - started
    scores = {name: value / len(queries) for name, value in totals.items()}
    print(
        f"cosqa {split} ({len(queries)} queries, {service.store.counts()['chunks']:,} chunks, "
        f"{elapsed / len(queries) * 1000:.1f} ms/query): "
        + ", ".join(f"{k} {v:.3f}" for k, v in scores.items())
    )
    return scores


# --- repository queries ---------------------------------------------------------------------------


def sdist_tree(project: str) -> Path:
    version, sha256 = SDISTS[project]
    tree = CACHE / f"{project}-{version}"
    if tree.is_dir():
        return tree
    CACHE.mkdir(parents=True, exist_ok=True)
    archive = CACHE / f"{project}-{version}.tar.gz"
    if not archive.exists():
        pip = [shutil.which("pip")] if shutil.which("pip") else ["uvx", "pip"]
        subprocess.run(
            [
                *pip,
                "download",
                "--no-deps",
                "--no-binary",
                ":all:",
                f"{project}=={version}",
                "-d",
                str(CACHE),
            ],
            check=True,
        )
    digest = hashlib.sha256(archive.read_bytes()).hexdigest()
    if digest != sha256:
        sys.exit(f"{archive}: sha256 {digest} is not the dataset's {sha256}")
    with tarfile.open(archive) as tar:
        tar.extractall(CACHE, filter="data")
    return tree


def repo_queries(embedder, workdir: Path) -> None:  # type: ignore[no-untyped-def]
    queries = [json.loads(line) for line in (shared_data("code", "repo-queries") / "queries.jsonl").open()]
    for project in SDISTS:
        tree = sdist_tree(project)
        service, seconds = build_index(tree, workdir / f"{project}.db", embedder)
        counts = service.store.counts()
        print(f"{project}: indexed {counts['files']} files, {counts['chunks']:,} chunks in {seconds:.1f} s")
        ranked = {
            q["id"]: ranked_files(
                service, q["query"], Filters(excluded_languages=("markdown", "rst", "text"))
            )
            for q in queries
            if q["project"] == project
        }
        for (name, kind), figures in sorted(score(queries, ranked).items()):
            if name == project:
                print(
                    f"  {kind:<4} n={figures['n']:<4} "
                    + " ".join(f"{k} {v:.3f}" for k, v in figures.items() if k != "n")
                )


def score(queries: list[dict], ranked: dict[str, list[str]]) -> dict:
    """The dataset README's scoring, unchanged in meaning."""
    agg: dict = collections.defaultdict(lambda: collections.defaultdict(float))
    for q in queries:
        if q["id"] not in ranked:
            continue
        top, rel = ranked[q["id"]][:10], set(q["relevant"])
        first = next((i for i, p in enumerate(top, 1) if p in rel), None)
        for kind in (q["kind"], "all"):
            m = agg[(q["project"], kind)]
            m["n"] += 1
            m["mrr@10"] += 1 / first if first else 0.0
            for k in (1, 5, 10):
                m[f"R@{k}"] += len(rel & set(top[:k])) / len(rel)
            m["hit@10"] += 1.0 if first else 0.0
    return {
        key: {name: v / m["n"] for name, v in m.items() if name != "n"} | {"n": int(m["n"])}
        for key, m in agg.items()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--embedder", default="none", choices=["none", "static", "minilm", "openai"])
    parser.add_argument("--split", default="test", choices=["dev", "test"])
    parser.add_argument("--only", choices=["cosqa", "repo"])
    parser.add_argument(
        "--dense-weight", type=float, default=None, help="one dense weight for every query shape (rank.py)"
    )
    args = parser.parse_args()
    if args.dense_weight is not None:
        rank.DENSE_WEIGHT_SYMBOL = rank.DENSE_WEIGHT_SENTENCE = args.dense_weight
    embedder = choose_embedder(args.embedder, os.environ.get("OPENAI_API_KEY"), "https://api.openai.com/v1")
    if args.dense_weight is not None and embedder is not None:
        embedder.sentence_weight = args.dense_weight  # type: ignore[union-attr]
    prepare = getattr(embedder, "prepare", None)
    if prepare is not None:  # the static table (built once per data directory) or the model, loaded
        started = time.perf_counter()
        prepare()
        print(f"{embedder.name}: ready in {time.perf_counter() - started:.2f} s")
    print(f"embedder: {embedder.name if embedder else 'none (BM25 only)'}; dense weight {args.dense_weight}")
    # Indexes are kept (per embedder) so a second run, say with other fusion weights, re-uses them.
    workdir = CACHE / f"indexes-{embedder.name.replace(':', '-') if embedder else 'bm25'}"
    workdir.mkdir(parents=True, exist_ok=True)
    if args.only in (None, "cosqa"):
        cosqa(args.split, embedder, workdir)
    if args.only in (None, "repo"):
        repo_queries(embedder, workdir)


if __name__ == "__main__":
    main()
