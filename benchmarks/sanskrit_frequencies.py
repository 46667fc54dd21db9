"""Derive the lemma frequencies the analyzer ranks readings by (src/pramana/sanskrit/data/frequencies.tsv).

    uv run python benchmarks/sanskrit_frequencies.py --db PATH [--out FILE]

(--out defaults to src/pramana/sanskrit/data/frequencies.tsv.)

From what: the Sanskrit verses of the Śrīmad-Bhāgavatam in the shared scripture data (public domain;
`scripture/slides-…-verses.tar.gz`, 14,090 verses, about 200,000 words), never from the evaluation
sets (which are DCS sentences of other texts). How: every distinct word is analysed with no counts
installed (its single-word readings: no splits), so that each reading's score is what the analyzer
knows of it apart from its lemma: the grammatical slot, the restored final, the preverbs. A lemma is
counted in its class (a verb under its root, a nominal stem, an indeclinable: vac the verb and vac the
stem of vāc are two lemmas). Expectation-maximisation then shares each occurrence of a word among the
lemmas it may be a form of, in proportion to each reading's likelihood times its lemma's current count
plus the lemma's prior pseudo-count (from its dictionary articles, as the analyzer smooths it), until the
counts settle: a lemma whose other forms are unambiguous (pitṛ: pituḥ, pitaram) takes a form it shares
with a rare one (pitā). Only lemma counts are stored.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import tarfile
import time
from collections import Counter
from pathlib import Path

from _common import shared_data
from pramana.sanskrit import frequency
from pramana.sanskrit.analysis import Analyzer
from pramana.sanskrit.store import SanskritStore
from pramana.text.schemes import Scheme, convert

OUT = Path(__file__).resolve().parent.parent / "src" / "pramana" / "sanskrit" / "data" / "frequencies.tsv"
ROUNDS = 30
MIN_COUNT = 1.0
SLOT_PRIOR = 2000.0  # occurrences: how far the slot shares are drawn towards the analyzer's weights


def sb_words() -> Counter[str]:
    """Every word of the SB verses (IAST as vedabase writes it, ṁ as ṃ), counted."""
    archive = next(shared_data("scripture").glob("slides-*-verses.tar.gz"))
    words: Counter[str] = Counter()
    with tarfile.open(archive) as tar:
        for member in tar:
            if "/books/json/sb/" not in member.name or not member.name.endswith(".json"):
                continue
            handle = tar.extractfile(member)
            if handle is None:
                continue
            try:
                verses = json.loads(handle.read().decode("utf-8")).get("verses") or []
            except (json.JSONDecodeError, UnicodeDecodeError):
                continue
            for verse in verses:
                text = (verse.get("roman") or "").replace("ṁ", "ṃ").replace("ṟ", "ṝ").replace("ḻ", "l")
                for word in re.findall(r"[a-zāīūṛṝḷṃḥṅñṭḍṇśṣ']+", text.lower()):
                    words[word.rstrip("'")] += 1  # a leading ' is an elided a ('pi)
    return words


Candidate = tuple[tuple[str, str], tuple[str, ...], float, float]


def candidates(db: Path, words: Counter[str]) -> dict[str, list[Candidate]]:
    """word → [((lemma, class), its slots, the reading's likelihood apart from its lemma and slots, the
    lemma's pseudo-count)], analysed with no counts installed (a reading's prior is its pseudo-count)."""
    frequency.FREQUENCIES = Path("/nonexistent")
    frequency.DCS_COUNTS = Path(
        "/nonexistent"
    )  # the SB's counts alone (the DCS sample is mixed in at run time)
    frequency.clear_caches()
    store = SanskritStore(db, read_only=True)
    analyzer = Analyzer(store)
    found: dict[str, list[Candidate]] = {}
    batch = list(words)
    scale = frequency.total()
    for start in range(0, len(batch), 200):
        chunk = batch[start : start + 200]
        slp1 = {word: convert(word, Scheme.IAST, Scheme.SLP1) for word in chunk}
        analysed = analyzer.analyze_many(list(slp1.values()))
        for word in chunk:
            best: dict[tuple[str, str], Candidate] = {}
            for reading in analysed[slp1[word]]:
                lemma, cls, prior = reading.prior
                if not lemma:
                    continue
                slots = (
                    tuple(dict.fromkeys(frequency.slot_key(g) for g in reading.grammar)) if cls != "i" else ()
                )
                rest = math.exp(reading.score - prior - frequency.slot_log_probability(reading.grammar, cls))
                if (lemma, cls) not in best or rest > best[lemma, cls][2]:
                    best[lemma, cls] = ((lemma, cls), slots, rest, math.exp(prior) * scale)
            if best:
                found[word] = list(best.values())
    store.close()
    return found


def estimate(
    words: Counter[str], found: dict[str, list[Candidate]]
) -> tuple[dict[tuple[str, str], float], dict[str, dict[str, float]]]:
    """Lemma counts and P(slot | class), by expectation-maximisation; the slots smoothed towards the
    analyzer's own weights (`frequency.hand_slots`) by SLOT_PRIOR occurrences."""
    hand = frequency.hand_slots()
    slots = {cls: dict(table) for cls, table in hand.items()}
    counts: dict[tuple[str, str], float] = {}
    floor = frequency.SLOT_FLOOR
    for _ in range(ROUNDS):
        new: Counter[tuple[str, str]] = Counter()
        seen: dict[str, Counter[str]] = {cls: Counter() for cls in slots}
        for word, readings in found.items():
            shares = []
            for key, its_slots, rest, pseudo in readings:
                table = slots.get(key[1])
                each = [table.get(slot, floor) for slot in its_slots] if table and its_slots else [1.0]
                shares.append((counts.get(key, 0.0) + pseudo) * sum(each) * rest)
            total = sum(shares) or 1.0
            for (key, its_slots, _rest, _pseudo), share in zip(readings, shares, strict=True):
                weight = words[word] * share / total
                new[key] += weight
                table = slots.get(key[1])
                if table and its_slots:
                    each = [table.get(slot, floor) for slot in its_slots]
                    for slot, part in zip(its_slots, each, strict=True):
                        seen[key[1]][slot] += weight * part / sum(each)
        counts = dict(new)
        slots = {
            cls: frequency._normalized(
                {slot: seen[cls][slot] + SLOT_PRIOR * p for slot, p in hand[cls].items()}
            )
            for cls in hand
        }
    return counts, slots


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    started = time.perf_counter()
    words = sb_words()
    print(f"{sum(words.values()):,} words, {len(words):,} distinct")
    found = candidates(args.db, words)
    counts, slots = estimate(words, found)
    kept = sorted(((key, count) for key, count in counts.items() if count >= MIN_COUNT), key=lambda x: -x[1])
    lines = [
        "# lemma (SLP1), its class (v: a verb, under its root; n: a nominal stem; i: an indeclinable) and its"
        " estimated count in the Śrīmad-Bhāgavatam's verses; derived by benchmarks/sanskrit_frequencies.py"
        " (see its docstring), nothing else stored",
        "# = lines: P(slot | class), estimated with the counts",
        *(f"=\t{cls}\t{slot}\t{p:.3g}" for cls, table in slots.items() for slot, p in table.items()),
        *(f"{lemma}\t{cls}\t{count:.1f}" for (lemma, cls), count in kept),
    ]
    args.out.write_text("\n".join(lines) + "\n", "utf-8")
    analysed = sum(words[word] for word in found)
    print(f"{len(found):,} distinct words with readings ({analysed / sum(words.values()):.2f} of all);"
          f" {len(kept):,} lemmas kept (top: {', '.join(lemma for (lemma, _), _ in kept[:15])});"
          f" {time.perf_counter() - started:.0f} s")  # fmt: skip


if __name__ == "__main__":
    main()
