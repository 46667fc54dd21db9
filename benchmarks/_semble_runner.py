"""Runs semble 0.7.0 inside its own virtualenv for benchmarks/peer_semble.py (not pramana's environment).

    <venv>/bin/python benchmarks/_semble_runner.py   (JSON lines in, JSON lines out)

The first line in is {"seeds": [int, ...], "repeats": int}, answered by {"semble": VERSION}; then each
line in is a tree, {"name", "root", "queries": [str, ...]}, answered by one line when it is done (the
caller can measure pramana on the same tree in between, so the two never share the CPU). For each
tree, semble indexes `root` with SembleIndex.from_path (its public API, as its benchmark does),
then asks every query with `index.search(query, top_k=10, alpha=0.0)`: semble's own "BM25 + ranking"
ablation (its benchmarks/baselines/ablations.py, mode "semble-bm25"). The embedding model semble loads
by default comes from the Hugging Face Hub, which is out of reach here; a stand-in is built instead: a
model2vec StaticModel over a small WordLevel tokenizer (the `tokenizers` library), random vectors drawn
from the first seed. With alpha=0 semble weighs the semantic candidates by 0 and drops zero scores, so
the stand-in's vectors cannot move a result; every further seed indexes and searches again with other
vectors, and the line reports how many queries' top 10 differed (it must be none) and, as proof that
the vectors were different enough to matter, how many queries' purely semantic top 10 (alpha=1)
differed between the seeds.

Only the standard library, semble and what semble installs are imported here.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import semble
from model2vec import StaticModel
from semble import SembleIndex
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers

# A small vocabulary of words common in code and in the queries' English: enough that a chunk's
# stand-in vector depends on its text, so that the semantic ranking does differ between seeds.
WORDS = """a add all and api app args array async await base body buffer build cache call class client
        close code config connect context create data decode default delete dict encode error event file
        find for from function get handle handler header http if import in index init int is json key
        list load log map message method model name new node not null object of on open option parse
        path port read request response return route run schema self send server session set size
        socket start state static str stream string struct test the to token type update url user value
        write"""
VOCABULARY = sorted(set(WORDS.split()))
DIMENSIONS = 32


def stand_in_model(seed: int, folder: Path) -> Path:
    """A model2vec StaticModel saved under folder: the tokenizer above, vectors drawn from seed."""
    vocab = {"[UNK]": 0, "[PAD]": 1} | {word: i + 2 for i, word in enumerate(VOCABULARY)}
    tokenizer = Tokenizer(models.WordLevel(vocab=vocab, unk_token="[UNK]"))
    tokenizer.normalizer = normalizers.Lowercase()
    tokenizer.pre_tokenizer = pre_tokenizers.Whitespace()
    vectors = np.random.default_rng(seed).standard_normal((len(vocab), DIMENSIONS)).astype(np.float32)
    path = folder / f"stand-in-{seed}"
    StaticModel(vectors=vectors, tokenizer=tokenizer, normalize=True).save_pretrained(path)
    return path


def hits(results: list) -> list[list]:
    return [[r.chunk.file_path, r.chunk.start_line, r.chunk.end_line] for r in results]


def run_tree(tree: dict, stand_ins: list[Path], repeats: int) -> dict:
    started = time.perf_counter()
    index = SembleIndex.from_path(tree["root"], model_path=str(stand_ins[0]))
    index_s = time.perf_counter() - started
    queries = tree["queries"]
    found, latencies = [], []
    for query in queries:
        started = time.perf_counter()
        found.append(hits(index.search(query, top_k=10, alpha=0.0)))
        latencies.append((time.perf_counter() - started) * 1000)
    for query in queries[:5]:  # warm repeats, as semble_bench.score_tree times pramana
        for _ in range(repeats):
            started = time.perf_counter()
            index.search(query, top_k=10, alpha=0.0)
            latencies.append((time.perf_counter() - started) * 1000)
    semantic = [hits(index.search(q, top_k=10, alpha=1.0)) for q in queries]
    changed, semantic_changed = 0, 0
    for model in stand_ins[1:]:
        other = SembleIndex.from_path(tree["root"], model_path=str(model))
        for query, first, first_semantic in zip(queries, found, semantic, strict=True):
            changed += hits(other.search(query, top_k=10, alpha=0.0)) != first
            semantic_changed += hits(other.search(query, top_k=10, alpha=1.0)) != first_semantic
    return {
        "name": tree["name"],
        "index_s": index_s,
        "chunks": len(index.chunks),
        "files": index.stats.indexed_files,
        "hits": found,
        "latencies_ms": latencies,
        "seeds_compared": len(stand_ins) - 1,
        "changed_by_vectors": changed,
        "semantic_changed_by_vectors": semantic_changed,
    }


def main() -> None:
    settings = json.loads(sys.stdin.readline())
    with tempfile.TemporaryDirectory(prefix="semble-stand-in-") as folder:
        stand_ins = [stand_in_model(seed, Path(folder)) for seed in settings["seeds"]]
        print(json.dumps({"semble": semble.__version__}), flush=True)
        for request in sys.stdin:
            tree = json.loads(request)
            try:
                line = run_tree(tree, stand_ins, settings["repeats"])
            except Exception as error:  # one tree semble cannot index must not lose the others
                line = {"name": tree["name"], "error": f"{type(error).__name__}: {error}"}
            print(json.dumps(line), flush=True)


if __name__ == "__main__":
    main()
