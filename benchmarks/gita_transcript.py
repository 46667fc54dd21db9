"""Correct a synthetic 10,000-word lecture transcript (target <= 2 s) and score the corrections.

English sentences are interleaved with garbled quotes of known verses (the test set's kinds), some
of them between Sanskrit words used as English ("bhakti:", "yoga,", ", as dharma teaches"); prints
the time in process and over MCP stdio, how many quotes were replaced correctly, replaced wrongly,
flagged, or missed, and how many characters outside the quotes the correction changed (must be 0).

    uv run python benchmarks/gita_transcript.py [--words 10000]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from _common import REPO_ROOT, gita_mirror

sys.path.insert(0, str(REPO_ROOT))

from benchmarks._gita_garble import make_cases
from pramana.config import GitaSettings
from pramana.gita.models import TranscriptCorrection, TranscriptSpan
from pramana.gita.service import GitaService

SENTENCES = [
    "So in this lecture we are discussing the nature of the self and how it relates to action.",
    "You see, people are always busy with their work and they do not think about the purpose of life.",
    "This point is very important, so please note it down and think about it during the week.",
    "Yesterday someone asked me a question after the class about how to apply this in daily life.",
    "The teacher explains that one should act without being attached to the results of the work.",
    "In the morning program we chanted and then read from the book for about an hour.",
    "There are many examples of this in history, and we will look at some of them next time.",
    "Now the next point is about the mind, which is sometimes a friend and sometimes an enemy.",
    "When we practice regularly, the result comes gradually, not all at once.",
    "Let us read the next verse together and then discuss the purport in small groups.",
]
KINDS = ("no_diacritics", "popular_ascii", "resegmented", "consonant_slips", "vowel_slips", "mixed")
# What is said around a quote, in turn: plain English, and Sanskrit words used as English.
FRAMES = [
    ("As it is said, ", ", and this is the meaning. "),
    ("This is the essence of bhakti: ", ", as dharma teaches. "),
    ("This is real yoga, ", " karma is the point. "),
]


def build(verses, words: int, rng: random.Random):  # type: ignore[no-untyped-def]
    quotes = [c for c in make_cases(verses, per_kind=60, seed=5) if c.kind in KINDS]
    rng.shuffle(quotes)
    text, planted, count = "", [], 0
    while count < words:
        sentence = rng.choice(SENTENCES)
        text += sentence + " "
        count += len(sentence.split())
        if rng.random() < 0.35 and quotes:
            quote = quotes.pop()
            before, after = FRAMES[len(planted) % len(FRAMES)]
            text += before
            planted.append((quote, len(text), len(text) + len(quote.text)))
            text += quote.text + after
            count += len(quote.text.split()) + len((before + after).split())
    return text, planted


async def over_stdio(db: Path, text: str) -> float:
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    env = {**os.environ, "VEDABASE_DB_PATH": str(db), "VEDABASE_API_URL": "http://127.0.0.1:9"}
    params = StdioServerParameters(command=sys.executable, args=["-m", "pramana", "serve", "gita"], env=env)
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        await session.call_tool(
            "fuzzy_match_verse", {"garbled_sanskrit": "yada yada hi dharmasya"}
        )  # warm index
        started = time.perf_counter()
        result = await session.call_tool("correct_transcript", {"text": text})
        elapsed = time.perf_counter() - started
        if result.is_error:
            raise SystemExit(result.content[0].text)
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--words", type=int, default=10_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "cache.db"
        service = GitaService(GitaSettings(db_path=db, api_url=str(gita_mirror())))
        service.seed()
        text, planted = build(service.store.transliterations(), args.words, random.Random(3))
        service.matcher()  # the index is built once per server
        started = time.perf_counter()
        result = service.correct_transcript(text)
        in_process = time.perf_counter() - started
        stdio = asyncio.run(over_stdio(db, text))

    score = score_quotes(text, result, planted)
    extra = [span.original for span in score.extra]
    print(f"transcript: {result.words} words, {len(text) / 1000:.0f} KB, {len(planted)} planted quotes")
    print(f"correct_transcript in process: {in_process:.2f} s; over MCP stdio: {stdio:.2f} s (target <= 2 s)")
    print(score.counts())
    print(f"spans replaced or flagged in the English around them: {len(extra)} {extra[:5]}")
    print(f"characters changed outside replaced spans: {changed_outside(text, result, planted)} (must be 0)")


@dataclass
class Score:
    """How the planted quotes came out, and the spans found in the English around them."""

    right: int = 0
    wrong: int = 0
    flagged: int = 0
    missed: int = 0
    extra: list[TranscriptSpan] = field(default_factory=list)

    def counts(self) -> str:
        return (
            f"planted quotes: replaced correctly {self.right}, wrongly {self.wrong}, flagged {self.flagged},"
            f" missed {self.missed}"
        )


def score_quotes(text: str, result: TranscriptCorrection, planted: list[tuple[Any, int, int]]) -> Score:
    """Each planted (quote, start, end) replaced right or wrongly, flagged or missed (SHOW_WRONG and
    SHOW_MISSED print those), and the spans outside every quote."""
    active = [span for span in result.spans if span.status != "ignored"]
    score = Score()
    for quote, start, end in planted:
        overlapping = [span for span in active if span.start < end and span.end > start]
        replaced = [span for span in overlapping if span.status == "replaced"]
        if any(span.ref not in quote.expected for span in replaced):
            score.wrong += 1
            if os.environ.get("SHOW_WRONG"):
                print("wrong:", quote.kind, repr(quote.text), [(s.original, s.ref) for s in replaced])
        elif replaced:
            score.right += 1
        elif overlapping:
            score.flagged += 1
        else:
            score.missed += 1
            if os.environ.get("SHOW_MISSED"):
                near = [
                    (s.original, s.status, s.ref) for s in result.spans if s.start < end and s.end > start
                ]
                print("missed:", quote.kind, repr(text[start - 40 : end + 40]), near)
    score.extra = [
        span for span in active if not any(span.start < end and span.end > start for _, start, end in planted)
    ]
    return score


def changed_outside(text: str, result, planted) -> int:  # type: ignore[no-untyped-def]
    """Characters of the English (outside the planted quotes) the correction did not keep as they were:
    those a replaced span took in, and any the corrected text does not hold between the rewrites."""
    quoted = [False] * len(text)
    for _, start, end in planted:
        quoted[start:end] = [True] * (end - start)
    changed, position, rest = 0, 0, result.corrected
    for span in (s for s in result.spans if s.status != "ignored"):
        kept = text[position : span.start]
        changed += sum(a != b for a, b in zip(kept, rest, strict=False)) + max(0, len(kept) - len(rest))
        rest = rest[len(kept) :]
        if span.status == "replaced":
            changed += sum(not quoted[i] for i in range(span.start, span.end))
            rest = rest.removeprefix(f"_{span.correct_transliteration}_ ({span.ref})")
        else:
            rest = rest[rest.find("]") + 1 :]  # the span as it was, and the note after it
        position = span.end
    tail = text[position:]
    return changed + sum(a != b for a, b in zip(tail, rest, strict=False)) + abs(len(tail) - len(rest))


if __name__ == "__main__":
    main()
