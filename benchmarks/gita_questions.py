"""search_verses on questions in a reader's words: R@1 and R@5 on tests/gita/questions.json, and
the search p50 in process and over MCP stdio (targets: R@1 >= 0.90, R@5 >= 0.97, p50 <= 20 ms).

The cache is seeded from the shared mirror through a loopback HTTP server. Each ranking is scored
on the dev half (used to choose the settings), the held-out half and all questions:
- `before`: FTS5 alone (store.search: all words, else any word), the search before questions;
- `lexical`: the question ranking without the embedding table (the default install);
- `semantic`: with the static embedding table, when it is cached in the data directory;
- `--ablations`: the question ranking without one signal at a time, on the dev half.

    uv run python benchmarks/gita_questions.py [--calls 200] [--ablations] [--misses]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path

from _common import REPO_ROOT, RawStdioClient, gita_mirror, loopback_mirror, percentiles
from pramana.config import GitaSettings
from pramana.gita import question
from pramana.gita.service import GitaService

QUESTIONS = REPO_ROOT / "tests" / "gita" / "questions.json"
SPLITS = ("dev", "held-out", "all")
Search = Callable[[str], list[str]]


def load_questions() -> list[dict]:
    return json.loads(QUESTIONS.read_text(encoding="utf-8"))["questions"]


def recall(search: Search, questions: list[dict], misses: bool = False) -> dict[str, tuple[float, float]]:
    """R@1 and R@5 per split."""
    found: dict[str, list[tuple[bool, bool]]] = {split: [] for split in SPLITS}
    for item in questions:
        refs = search(item["question"])
        answers = set(item["answers"])
        hit = (bool(refs) and refs[0] in answers, bool(answers.intersection(refs[:5])))
        found[item["split"]].append(hit)
        found["all"].append(hit)
        if misses and not hit[0] and item["split"] == "dev":
            print(f"  miss {item['id']}: {item['question']!r} wants {item['answers']}, got {refs[:5]}")
    return {
        split: (sum(h[0] for h in hits) / len(hits), sum(h[1] for h in hits) / len(hits))
        for split, hits in found.items()
        if hits
    }


def show(label: str, figures: dict[str, tuple[float, float]], splits: tuple[str, ...] = SPLITS) -> None:
    cells = "  ".join(
        f"{split} R@1 {r1:.3f} R@5 {r5:.3f}" for split, (r1, r5) in figures.items() if split in splits
    )
    print(f"{label:<28} {cells}")


def service_search(service: GitaService) -> Search:
    return lambda text: [hit.ref for hit in service.search(text, 10).results]


@contextmanager
def changed(**settings: float):
    """question.py's module settings changed for a while (an ablation)."""
    saved = {name: getattr(question, name) for name in settings}
    for name, value in settings.items():
        setattr(question, name, value)
    try:
        yield
    finally:
        for name, value in saved.items():
            setattr(question, name, value)


ABLATIONS: dict[str, dict] = {
    "without question words": {"QUESTION_WORDS": frozenset()},
    "without commentaries": {"COMMENTARY_WEIGHT": 0.0},
    "commentaries as translations": {"COMMENTARY_WEIGHT": 1.0},
    "without the glossary": {"GLOSSARY_WEIGHT": 0.0},
}


def ablations(db: Path, questions: list[dict], embedder: question.EmbedderFactory) -> None:
    dev = [q for q in questions if q["split"] == "dev"]
    for label, settings in ABLATIONS.items():
        with changed(**settings):
            service = GitaService(
                GitaSettings(db_path=db, api_url="http://127.0.0.1:9"), embedder_factory=embedder
            )
            show(f"  {label}", recall(service_search(service), dev), ("dev",))
            service.close()
    with changed(stem=lambda word: word):
        question._word_stems.cache_clear()
        service = GitaService(
            GitaSettings(db_path=db, api_url="http://127.0.0.1:9"), embedder_factory=embedder
        )
        show("  without stemming", recall(service_search(service), dev), ("dev",))
        service.close()
    question._word_stems.cache_clear()


def in_process_p50(service: GitaService, questions: list[dict], calls: int) -> list[float]:
    samples = []
    for i in range(calls):
        started = time.perf_counter()
        service.search(questions[i % len(questions)]["question"], 5)
        samples.append((time.perf_counter() - started) * 1000)
    return samples


def stdio_p50(db: Path, questions: list[dict], calls: int) -> list[float]:
    env = {**os.environ, "VEDABASE_DB_PATH": str(db), "VEDABASE_API_URL": "http://127.0.0.1:9"}
    client = RawStdioClient(["-m", "pramana", "serve", "gita"], env)
    try:
        for item in questions[:10]:  # warm up: the first search builds the question index
            client.call_tool("search_verses", {"query": item["question"]})
        samples = []
        for i in range(calls):
            arguments = {"query": questions[i % len(questions)]["question"], "max_results": 5}
            samples.extend(client.timed("search_verses", arguments, 1))
        return samples
    finally:
        client.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--ablations", action="store_true", help="the dev figures without each signal")
    parser.add_argument("--misses", action="store_true", help="list the dev questions missed at rank 1")
    args = parser.parse_args()
    questions = load_questions()
    print(f"{len(questions)} questions ({sum(q['split'] == 'dev' for q in questions)} dev)")
    with tempfile.TemporaryDirectory() as tmp, loopback_mirror(gita_mirror()) as url:
        db = Path(tmp) / "cache.db"
        seeded = GitaService(GitaSettings(db_path=db, api_url=url)).seed()
        assert seeded.complete, seeded.failures
        settings = GitaSettings(db_path=db, api_url="http://127.0.0.1:9")
        before = GitaService(settings, embedder_factory=lambda: None)
        show(
            "before (FTS5 alone)",
            recall(lambda text: [str(h.ref) for h in before.store.search(text, 10)], questions),
        )
        lexical = GitaService(settings, embedder_factory=lambda: None)
        show("lexical", recall(service_search(lexical), questions, args.misses))
        if args.ablations:
            ablations(db, questions, lambda: None)
        semantic = GitaService(settings)
        if semantic.questions().semantic:
            show("semantic (static table)", recall(service_search(semantic), questions, args.misses))
            if args.ablations:
                ablations(db, questions, question.cached_embedder)
        else:
            print("semantic: no static embedding table cached (install the embeddings extra); lexical only")
        served = "semantic" if semantic.questions().semantic else "lexical"
        in_process = in_process_p50(semantic, questions, args.calls)
        print(f"search_verses in process ({served}): {percentiles(in_process)}")
        samples = stdio_p50(db, questions, args.calls)
        print(f"search_verses over MCP stdio: {percentiles(samples)}  (target p50 <= 20 ms)")
        for service in (before, lexical, semantic):
            service.close()


if __name__ == "__main__":
    sys.exit(main())
