"""The spec's §5 matcher and pramana's phonetic matcher side by side on the repo's test set.

Prints top-1 / top-3 per kind of corruption, confident matches (right and wrong), false
confident matches on text that is not from the Gita, latency per query, index build time,
and a sweep of the confidence threshold (how it was calibrated).

    uv run python benchmarks/gita_match.py [--per-kind 40] [--spec-per-kind 15]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from _common import REPO_ROOT, gita_mirror, percentiles

sys.path.insert(0, str(REPO_ROOT))

from benchmarks._gita_garble import Case, make_cases, strip_marks
from benchmarks._gita_match_cases import LECTURE_QUOTES, NOT_GITA, SPEC_PAIRS
from pramana.config import GitaSettings
from pramana.gita import phonetic_matcher
from pramana.gita.matcher import IndexedVerse, SpecMatcher
from pramana.gita.phonetic_matcher import PhoneticMatcher
from pramana.gita.service import GitaService
from pramana.gita.verse_text import verse_lines

SYLLABLES = ["ka", "ra", "ma", "ta", "na", "sa", "va", "ya", "pa", "da", "ga", "ja", "la", "ha", "bha", "dha"]


def negatives(verses: list, count: int, rng: random.Random) -> list[str]:
    """Hard negatives: Gita words shuffled across verses (Sanskrit-like, but no verse), random syllables."""
    words = [w for _, iast, _ in verses for line in verse_lines(iast) for w in line.split()]
    shuffled = [strip_marks(" ".join(rng.sample(words, rng.randint(3, 6)))) for _ in range(count)]
    syllables = [
        " ".join("".join(rng.choices(SYLLABLES, k=rng.randint(2, 4))) for _ in range(rng.randint(3, 6)))
        for _ in range(count)
    ]
    return shuffled + syllables


def evaluate(matcher, cases: list[Case]):  # type: ignore[no-untyped-def]
    stats: dict[str, list[float]] = defaultdict(lambda: [0, 0, 0, 0, 0])
    latencies = []
    for case in cases:
        started = time.perf_counter()
        report = matcher.match(case.text, 3)
        latencies.append((time.perf_counter() - started) * 1000)
        refs = [str(m.ref) for m in report.matches]
        row = stats[case.kind]
        row[0] += 1
        row[1] += bool(refs) and refs[0] in case.expected
        row[2] += bool(set(refs[:3]) & case.expected)
        row[3] += report.confident and bool(refs) and refs[0] in case.expected
        row[4] += report.confident and not (refs and refs[0] in case.expected)
    return stats, latencies


def false_confident(matcher, texts: list[str]) -> tuple[int, list[str]]:  # type: ignore[no-untyped-def]
    wrong = [text for text in texts if matcher.match(text, 3).confident]
    return len(wrong), wrong


def print_table(name: str, stats, latencies) -> None:  # type: ignore[no-untyped-def]
    print(f"\n{name}")
    print(f"  {'kind':<20} {'n':>4} {'top-1':>6} {'top-3':>6} {'conf.right':>10} {'conf.wrong':>10}")
    total = [0, 0, 0, 0, 0]
    for kind, row in stats.items():
        n = row[0]
        print(
            f"  {kind:<20} {n:>4} {row[1] / n:>6.1%} {row[2] / n:>6.1%} {row[3] / n:>10.1%} {int(row[4]):>10}"
        )
        total = [a + b for a, b in zip(total, row, strict=True)]
    n = total[0]
    print(
        f"  {'ALL':<20} {n:>4} {total[1] / n:>6.1%} {total[2] / n:>6.1%} "
        f"{total[3] / n:>10.1%} {int(total[4]):>10}"
    )
    print(f"  latency per query (in process): {percentiles(latencies)}")


async def stdio_p50(db: Path, texts: list[str]) -> str:
    import os

    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    env = {**os.environ, "VEDABASE_DB_PATH": str(db), "VEDABASE_API_URL": "http://127.0.0.1:9"}
    params = StdioServerParameters(command=sys.executable, args=["-m", "pramana", "serve", "gita"], env=env)
    samples = []
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        await session.call_tool("fuzzy_match_verse", {"garbled_sanskrit": texts[0]})  # builds the index
        for text in texts:
            started = time.perf_counter()
            await session.call_tool("fuzzy_match_verse", {"garbled_sanskrit": text[:2000]})
            samples.append((time.perf_counter() - started) * 1000)
    return percentiles(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--per-kind", type=int, default=40)
    parser.add_argument("--spec-per-kind", type=int, default=15, help="the spec matcher is slow")
    args = parser.parse_args()
    rng = random.Random(11)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "cache.db"
        service = GitaService(GitaSettings(db_path=db, api_url=str(gita_mirror())))
        service.seed()
        verses = service.store.transliterations()  # the test cases garble the dataset's own text
        # The matcher reads the packaged text and English words (see pramana.gita.packaged).
        started = time.perf_counter()
        ours = service.matcher()
        build_ms = (time.perf_counter() - started) * 1000
        assert isinstance(ours, PhoneticMatcher)
        indexed = [IndexedVerse(ref, iast, deva) for ref, iast, deva in verses]
        spec = SpecMatcher(indexed)

        real = [Case("spec_pairs", t, frozenset({r}), t) for t, r in SPEC_PAIRS]
        real += [Case("lecture_quotes", t, frozenset({r}), t) for t, r in LECTURE_QUOTES]
        generated = make_cases(verses, per_kind=args.per_kind)
        hard_negatives = negatives(verses, 100, rng)

        print(
            f"test set: {len(real)} hand-written quotes, {len(generated)} generated cases "
            f"({args.per_kind} per kind), {len(NOT_GITA)} non-Gita texts, "
            f"{len(hard_negatives)} hard negatives"
        )
        print(f"phonetic index build: {build_ms:.0f} ms for {len(ours)} verses")

        stats, latencies = evaluate(ours, real + generated)
        print_table("pramana phonetic matcher", stats, latencies)
        wrong, _ = false_confident(ours, NOT_GITA)
        hard_wrong, hard_examples = false_confident(ours, hard_negatives)
        print(
            f"  false confident on non-Gita texts: {wrong} of {len(NOT_GITA)}; "
            f"on hard negatives: {hard_wrong} of {len(hard_negatives)} {hard_examples[:3]}"
        )

        spec_cases = real + [c for i, c in enumerate(generated) if i % args.per_kind < args.spec_per_kind]
        stats, latencies = evaluate(spec, spec_cases)
        print_table(
            f"spec §5 matcher ({args.spec_per_kind} per kind; it counts anything >= 0.25 as its answer)",
            stats,
            latencies,
        )
        wrong, _ = false_confident(spec, NOT_GITA)
        print(f"  answers given for non-Gita texts: {wrong} of {len(NOT_GITA)}")

        print(
            "\nconfidence calibration "
            "(score threshold: confident right on positives / wrong on all negatives)"
        )
        positives = real + generated
        for threshold in (0.80, 0.83, 0.86, 0.89, 0.92):
            phonetic_matcher.CONFIDENT_SCORE = threshold
            right = sum(
                1
                for c in positives
                if (r := ours.match(c.text, 3)).confident
                and r.matches
                and str(r.matches[0].ref) in c.expected
            )
            wrong_pos = sum(
                1
                for c in positives
                if (r := ours.match(c.text, 3)).confident
                and not (r.matches and str(r.matches[0].ref) in c.expected)
            )
            wrong_neg = false_confident(ours, NOT_GITA + hard_negatives)[0]
            print(
                f"  {threshold:.2f}: right {right / len(positives):.1%}, wrong on positives {wrong_pos}, "
                f"false on negatives {wrong_neg}"
            )
        phonetic_matcher.CONFIDENT_SCORE = PhoneticMatcher.threshold

        texts = [c.text for c in real + generated][:200]
        print(
            f"\nfuzzy_match_verse over MCP stdio: {asyncio.run(stdio_p50(db, texts))}  (target p50 <= 5 ms)"
        )


if __name__ == "__main__":
    main()
