"""Other ways to read a question with the same MiniLM, on the tuning splits only (the 240's dev,
held-out and fresh; the harder set's dev half): the served ranking's first 50 verses re-scored with

- more vectors per verse (multi-vector verses): Prabhupada's purport in groups of sentences,
  Sivananda's word-for-word glosses and his commentary in groups of sentences, read from the raw
  documents in the user's own cache (nothing of them is in the repository); a verse scores the soft
  maximum (or the maximum) of its vectors' cosines, added to the served score at a weight, or fused
  by reciprocal rank;
- pseudo-relevance feedback (Rocchio): the question's vector moved toward its first k verses'
  vectors (their centroid, or each one's row nearest the question), the model's similarity again;
- a hubness correction (CSLS-like): each text's cosine less its mean cosine with its k nearest
  reader's questions (or texts) of other verses, so a text near every question stops winning them.

Prints R@1 / R@5 per split and, for the harder set's dev half, per kind. Nothing here is served:
it is how the choice not to change the ranking was measured (docs/benchmarks.md, issue 27).

    uv run python benchmarks/gita_question_signals.py --cache DIR   # DIR as gita_questions.py's
"""

from __future__ import annotations

import argparse
import json
import re
import sqlite3
import sys
import time
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from _common import gita_mirror, loopback_mirror
from gita_questions import build_vectors, cache_dir, load_questions
from pramana.config import GitaSettings
from pramana.gita import question
from pramana.gita.semantic import VectorCache, VerseVectors
from pramana.gita.service import GitaService

TUNING = ("dev", "held-out", "fresh", "hard-dev")
DEPTH = 50  # the served verses re-scored
GROUP_WORDS = 60  # words per group of a commentary's sentences (MiniLM reads 128 tokens well)
_SENTENCE = re.compile(r"(?<=[.?!])\s+(?=[A-Z\"'“‘(])")
_DEVANAGARI = re.compile(r"[\u0900-\u097F]+")


@dataclass
class Asked:
    """One tuning question as the served ranking read it."""

    item: dict
    hits: list[tuple[str, float]]  # the served first DEPTH (ref, score)
    vector: np.ndarray  # the model's vector of the question as read (its glosses in)
    model: bool  # whether the question ranking (and so the model) scored it


Rescore = Callable[[Asked], list[float]]


def sentence_groups(text: str, size: int = GROUP_WORDS) -> list[str]:
    groups: list[list[str]] = [[]]
    for sentence in _SENTENCE.split(text.strip()):
        if groups[-1] and sum(len(s.split()) for s in groups[-1]) + len(sentence.split()) > size:
            groups.append([])
        groups[-1].append(sentence)
    return [" ".join(g) for g in groups if len(" ".join(g).split()) >= 4]


def sivananda(commentary: str) -> tuple[str, str]:
    """Sivananda's `ec`: the word-for-word glosses (their English, joined) and the commentary."""
    gloss, _, rest = commentary.partition("Commentary")
    gloss = re.sub(r"^\s*\d+\.\d+\.?", "", gloss)
    english = [" ".join(_DEVANAGARI.sub(" ", g).strip(" ?.;,").split()) for g in gloss.split("?")]
    return "; ".join(e for e in english if re.search(r"[a-zA-Z]", e)), rest


def extra_texts(db: Path) -> list[tuple[str, str, str]]:
    """(ref, kind, text) of every verse's extra texts (purport, gloss, siva), from the raw documents of
    the cache at `db`."""
    rows = []
    with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as conn:
        documents = conn.execute("SELECT ref, raw_json FROM verses ORDER BY chapter, verse").fetchall()
    for ref, raw in documents:
        document = json.loads(raw)
        rows += [(ref, "purport", t) for t in sentence_groups((document.get("prabhu") or {}).get("ec") or "")]
        gloss, commentary = sivananda((document.get("siva") or {}).get("ec") or "")
        rows += [(ref, "gloss", gloss)] if gloss else []
        rows += [(ref, "siva", t) for t in sentence_groups(commentary)]
    return rows


def soft_max(
    vectors: VerseVectors, query: np.ndarray, count: int, shift: np.ndarray | None = None
) -> np.ndarray:
    cosines = vectors.vectors @ query - (0.0 if shift is None else shift)
    peak = float(cosines.max())
    sums = np.bincount(vectors.verses, weights=np.exp((cosines - peak) / 0.05), minlength=count)
    with np.errstate(divide="ignore"):
        return np.where(sums > 0, peak + 0.05 * np.log(sums), -1.0)


def evaluate(label: str, rescore: Rescore, asked: list[Asked]) -> None:
    found: dict[str, list[tuple[bool, bool]]] = {}
    for one in asked:
        scores = rescore(one)
        ranked = sorted(zip(scores, (ref for ref, _ in one.hits), strict=True), key=lambda pair: -pair[0])
        order = [ref for _, ref in ranked]
        answers = set(one.item["answers"])
        hit = (bool(order) and order[0] in answers, bool(answers.intersection(order[:5])))
        split = one.item["split"]
        keys = ["hard-dev", f"hard-dev {one.item['kind']}"] if split == "hard-dev" else ["the 240"]
        for key in keys:
            found.setdefault(key, []).append(hit)
    cells = [
        f"{key} {sum(h[0] for h in hits) / len(hits):.3f}/{sum(h[1] for h in hits) / len(hits):.3f}"
        for key, hits in found.items()
    ]
    print(f"{label:<32} {'  '.join(cells)}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--cache", type=Path, help="gita_questions.py's --cache (the seeded cache, its vectors)"
    )
    args = parser.parse_args()
    with cache_dir(args.cache) as folder, loopback_mirror(gita_mirror()) as url:
        db = folder / "cache.db"
        seeded = GitaService(GitaSettings(db_path=db, api_url=url), embedder_factory=lambda: None).seed()
        assert seeded.complete, seeded.failures
        service = GitaService(GitaSettings(db_path=db, api_url="http://127.0.0.1:9"))
        if not question.is_model(service.embedder()):
            sys.exit("the embeddings extra is not installed")
        build_vectors(service)
        ranking = service.ranking()
        index = ranking.questions
        embedder = index._embedder
        assert embedder is not None and index._vectors is not None
        served_vectors = index._vectors
        refs = [str(ref) for ref in index.refs]
        position = {ref: i for i, ref in enumerate(refs)}
        asked = []
        for item in (q for q in load_questions(held_out=False) if q["split"] in TUNING):
            read = ranking.read(item["question"])
            model = index.scores(read.english, english_only=read.share >= 0.5) is not None
            hits = [(str(hit.ref), hit.score) for hit in service.ranked(item["question"], DEPTH)]
            asked.append(Asked(item, hits, embedder.embed([read.english])[0].astype(np.float32), model))
        print(f"{len(asked)} tuning questions ({', '.join(TUNING)})")
        evaluate("served", lambda one: [s for _, s in one.hits], asked)

        def added(signal: Callable[[Asked], np.ndarray], weight: float) -> Rescore:
            """The served score plus `weight` times a per-verse signal (a model-scored question only)."""

            def rescore(one: Asked) -> list[float]:
                if not one.model or not one.hits:
                    return [s for _, s in one.hits]
                values = signal(one)
                return [s + weight * values[position[ref]] for ref, s in one.hits]

            return rescore

        # pseudo-relevance feedback (Rocchio) on the served vectors
        centroids = np.zeros((len(refs), served_vectors.vectors.shape[1]), dtype=np.float32)
        np.add.at(centroids, served_vectors.verses, served_vectors.vectors)
        centroids /= np.linalg.norm(centroids, axis=1, keepdims=True) + 1e-9
        for k in (3, 5, 10):
            for beta in (0.25, 0.5, 1.0):

                def feedback(one: Asked, k: int = k, beta: float = beta) -> np.ndarray:
                    moved = one.vector + beta * centroids[[position[r] for r, _ in one.hits[:k]]].mean(0)
                    moved /= np.linalg.norm(moved)
                    return soft_max(served_vectors, moved, len(refs)) - soft_max(
                        served_vectors, one.vector, len(refs)
                    )

                evaluate(f"Rocchio k {k} beta {beta}", added(feedback, question.MODEL_WEIGHT), asked)

        # multi-vector verses
        rows = extra_texts(db)
        cache = VectorCache(folder / "extra-vectors.npz", embedder)
        started = time.perf_counter()
        encoded = cache.build([text for _, _, text in rows])
        print(f"extra texts: {len(rows)} ({encoded} encoded now, {time.perf_counter() - started:.0f} s)")
        for kinds in (("purport",), ("gloss",), ("siva",), ("purport", "gloss", "siva")):
            by_verse: dict[str, list[str]] = {}
            for ref, kind, text in rows:
                if kind in kinds:
                    by_verse.setdefault(ref, []).append(text)
            extra = cache.vectors([by_verse.get(ref, []) for ref in refs])
            assert extra is not None
            name = "+".join(kinds)
            for weight in (0.25, 0.5, 1.0, 2.0):

                def similarity(one: Asked, extra: VerseVectors = extra) -> np.ndarray:
                    values = soft_max(extra, one.vector, len(refs))
                    return np.where(values < -0.5, np.median(values[values > -0.5]), values)

                evaluate(f"{name} soft-max w {weight}", added(similarity, weight), asked)

        # hubness: each served text's cosine less its mean one with its k nearest reader's questions
        texts = question.split_translations(service.store.english_texts())
        is_question = np.array(
            [
                flag
                for v in texts
                for flag in [False] * (len(v.dense_texts) - len(v.questions)) + [True] * len(v.questions)
            ]
        )
        assert len(is_question) == len(served_vectors.vectors)
        pool, pool_verses = served_vectors.vectors[is_question], served_vectors.verses[is_question]
        for k in (10, 50):
            hub = np.zeros(len(served_vectors.vectors), dtype=np.float32)
            for start in range(0, len(hub), 2048):
                cosines = served_vectors.vectors[start : start + 2048] @ pool.T
                cosines[served_vectors.verses[start : start + 2048, None] == pool_verses[None, :]] = -1.0
                hub[start : start + 2048] = np.sort(cosines, axis=1)[:, -k:].mean(1)
            hub -= hub.mean()
            for lam in (0.25, 0.5, 1.0):

                def corrected(one: Asked, hub: np.ndarray = hub, lam: float = lam) -> np.ndarray:
                    return soft_max(served_vectors, one.vector, len(refs), lam * hub) - soft_max(
                        served_vectors, one.vector, len(refs)
                    )

                evaluate(f"hubness k {k} lambda {lam}", added(corrected, question.MODEL_WEIGHT), asked)
        service.close()


if __name__ == "__main__":
    main()
