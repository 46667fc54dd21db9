"""Correct a synthetic 10,000-word Bhāgavatam class with 100 planted quotes (target <= 3 s) over all
three books, and score the corrections.

English sentences of a Bhāgavatam class are interleaved with garbled quotes of SB and CC verses (and a
few of the Gītā), made as benchmarks/_gita_scripture_cases.py makes them, some between Sanskrit words used as
English ("bhakti:", "yoga,", ", as dharma teaches"). Prints the time in process and over MCP stdio
(`pramana serve gita` with SB and CC installed from the shared archive), how many quotes were replaced
correctly, replaced wrongly, flagged or missed, spans found in the English, and how many characters
outside the replaced spans the correction changed (must be 0), in process and in the server's answer.

    uv run python benchmarks/scripture_transcript.py [--words 10000] [--quotes 100]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

from _common import REPO_ROOT, cpu_seconds, descendants, load_average, shared_data, until_idle
from gita_transcript import FRAMES, changed_outside, score_quotes

sys.path.insert(0, str(REPO_ROOT))

from benchmarks._gita_garble import Case
from benchmarks._gita_scripture import ARCHIVE, books_server, install_books, read_scripture
from benchmarks._gita_scripture_cases import Holders, Verse, make_scripture_cases
from pramana.gita import packaged, transcript
from pramana.gita.matcher import IndexedVerse
from pramana.gita.models import TranscriptCorrection
from pramana.gita.phonetic_matcher import PhoneticMatcher
from pramana.gita.service import _span_model

# What a Bhāgavatam class says between its quotes (pramana's own sentences).
SENTENCES = [
    "So in this chapter Sukadeva Gosvami is describing to Maharaja Pariksit how the devotee should live.",
    "The king was about to die within seven days, and still he was asking only about the Lord.",
    "You see, people are always busy with their work and they do not think about the purpose of life.",
    "This point is very important, so please note it down and think about it during the week.",
    "Yesterday someone asked me a question after the class about how to apply this in daily life.",
    "The sages at Naimisaranya asked Suta Gosvami six questions, and the first was about the ultimate good.",
    "Srila Prabhupada used to explain this verse again and again in his morning walks.",
    "When the mind is disturbed, nothing else can satisfy the self, however much we accumulate.",
    "Caitanya Mahaprabhu showed by His own example how to chant with humility and patience.",
    "In the morning program we chanted and then read from the book for about an hour.",
    "There are many examples of this in history, and we will look at some of them next time.",
    "Now the next point is about association, because we become like the people we keep company with.",
    "Narada Muni instructed Vyasadeva to describe the pastimes of the Lord and not only religious duties.",
    "When we practice regularly, the result comes gradually, not all at once.",
    "Let us read the next verse together and then discuss the purport in small groups.",
    "The Lord is within the heart of every living being, and He is also outside as everything we see.",
    "If we water the root of the tree, all the leaves and branches are nourished automatically.",
    "Please keep your questions until the end, and then we will take them one by one.",
    "Prahlada Maharaja was only five years old when he taught his classmates in the school.",
    "Kaviraja Gosvami writes with great humility, always calling himself lower than a worm in stool.",
]
KINDS = ("no_diacritics", "popular_ascii", "resegmented", "consonant_slips", "vowel_slips", "mixed")


def build(quotes: list[Case], words: int, count: int, rng: random.Random) -> tuple[str, list[tuple]]:
    """A transcript of about `words` words with `count` quotes spread evenly through it."""
    every = max(1, words // (count + 1))
    text, planted, said = "", [], 0
    while said < words or len(planted) < count:
        sentence = rng.choice(SENTENCES)
        text += sentence + " "
        said += len(sentence.split())
        if said >= every * (len(planted) + 1) and len(planted) < count:
            quote = quotes[len(planted)]
            before, after = FRAMES[len(planted) % len(FRAMES)]
            text += before
            planted.append((quote, len(text), len(text) + len(quote.text)))
            text += quote.text + after
            said += len(quote.text.split()) + len((before + after).split())
    return text, planted


def as_result(
    text: str, corrected: str, spans: list[transcript.Span], seconds: float
) -> TranscriptCorrection:
    """The correction in the service's shape, for gita_transcript.changed_outside."""
    return TranscriptCorrection(
        corrected=corrected,
        spans=[_span_model(span) for span in spans],
        replaced=sum(span.status == "replaced" for span in spans),
        flagged=sum(span.status == "flagged" for span in spans),
        words=len(text.split()),
        seconds=seconds,
    )


async def over_stdio(archive: Path, text: str, warm: str) -> tuple[float, float, TranscriptCorrection]:
    """Seconds of `correct_transcript` over stdio with the books installed, the server's CPU seconds for
    it, and its answer. A long transcript goes to the server's worker process, which builds its own
    matcher as it starts: `warm`, another transcript, is corrected first, so that is not timed."""
    with tempfile.TemporaryDirectory() as tmp:
        db = install_books(archive, Path(tmp) / "gita.db")
        async with books_server(db) as session:
            await session.call_tool("correct_transcript", {"text": warm})
            await until_idle()  # the indexes the server builds at start
            cpu, started = cpu_seconds(descendants()), time.perf_counter()
            result = await session.call_tool("correct_transcript", {"text": text})
            elapsed, cpu = time.perf_counter() - started, cpu_seconds(descendants()) - cpu
    if result.is_error:
        raise SystemExit(result.content[0].text)
    return elapsed, cpu, TranscriptCorrection.model_validate(result.structured_content)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--words", type=int, default=10_000)
    parser.add_argument("--quotes", type=int, default=100)
    parser.add_argument("--no-stdio", action="store_true")
    args = parser.parse_args()
    print(load_average())
    archive = shared_data("scripture") / ARCHIVE.name
    scripture = read_scripture(archive)
    gita = packaged.indexed_verses()
    matcher = PhoneticMatcher(
        [*gita, *(IndexedVerse(v.ref, v.text, "", v.book) for v in scripture)], packaged.english_words()
    )
    verses = [Verse(v.ref, v.text) for v in scripture]
    holders = Holders(verses + [Verse(str(v.ref), v.transliteration) for v in gita])
    rng = random.Random(3)
    # whole half-lines and lines as a speaker quotes them: 9 SB/CC quotes for each Gītā one
    quotes = [c for c in make_scripture_cases(verses, holders, 40, seed=5) if c.kind in KINDS]
    gita_verses = [Verse(str(v.ref), v.transliteration) for v in gita]
    quotes += [c for c in make_scripture_cases(gita_verses, holders, 4, seed=6) if c.kind in KINDS]
    rng.shuffle(quotes)
    text, planted = build(quotes, args.words, args.quotes, rng)

    started, cpu = time.perf_counter(), time.process_time()
    corrected, spans = transcript.correct(matcher, text)
    in_process, cpu = time.perf_counter() - started, time.process_time() - cpu
    warm = build(quotes[::-1], 500, 5, random.Random(4))[0]  # other quotes, as long as a worker takes
    served = None if args.no_stdio else asyncio.run(over_stdio(archive, text, warm))
    result = as_result(text, corrected, spans, in_process)

    score = score_quotes(text, result, planted)
    extra = [(span.original, span.status, span.ref) for span in score.extra]
    print(f"transcript: {result.words:,} words, {len(text) / 1000:.0f} KB, {len(planted)} planted quotes")
    timing = f"correct_transcript in process: {in_process:.2f} s ({cpu:.2f} s of CPU)"
    if served is not None:
        timing += (
            f"; over MCP stdio (pramana serve gita, all books): {served[0]:.2f} s ({served[1]:.2f} s of CPU)"
        )
    print(f"{timing} (target <= 3 s); {load_average()}")
    print(score.counts())
    print(f"spans replaced or flagged in the English around them: {len(extra)} {extra[:5]}")
    print(f"characters changed outside replaced spans: {changed_outside(text, result, planted)} (must be 0)")
    if served is not None:
        same = served[2].corrected == corrected
        print(
            f"  in the server's answer: {changed_outside(text, served[2], planted)}"
            f" ({'the same text as in process' if same else 'NOT the same text as in process'})"
        )


if __name__ == "__main__":
    main()
