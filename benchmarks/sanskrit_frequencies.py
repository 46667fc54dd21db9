"""Derive the lemma frequencies the analyzer ranks readings by (src/pramana/sanskrit/data/frequencies.tsv).

    uv run python benchmarks/sanskrit_frequencies.py --db PATH [--out FILE]

(--out defaults to src/pramana/sanskrit/data/frequencies.tsv.)

From what: the Sanskrit verses of the Śrīmad-Bhāgavatam in the shared scripture data (public domain;
`scripture/slides-…-verses.tar.gz`, 14,090 verses, about 170,000 words), never from the evaluation
sets (which are DCS sentences of other texts). How: every word is analysed (its single-word readings:
no splits), and the counts of its candidate lemmas are estimated by expectation-maximisation: each
occurrence is shared among the lemmas it may be a form of in proportion to their current counts
(started from the number of dictionary articles on each), five rounds. Only lemma counts are stored.
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
from pramana.sanskrit.analysis import Analyzer
from pramana.sanskrit.store import SanskritStore
from pramana.text.schemes import Scheme, convert

OUT = Path(__file__).resolve().parent.parent / "src" / "pramana" / "sanskrit" / "data" / "frequencies.tsv"
ROUNDS = 5
MIN_COUNT = 2.0


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
                    words[word.strip("'")] += 1
    return words


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    started = time.perf_counter()
    words = sb_words()
    print(f"{sum(words.values()):,} words, {len(words):,} distinct")
    store = SanskritStore(args.db, read_only=True)
    analyzer = Analyzer(store)
    candidates: dict[str, dict[str, float]] = {}  # word → lemma → exp(its best reading's score)
    slp1 = {word: convert(word, Scheme.IAST, Scheme.SLP1) for word in words}
    batch = list(words)
    for start in range(0, len(batch), 200):
        chunk = batch[start : start + 200]
        found = analyzer.analyze_many([slp1[word] for word in chunk])
        for word in chunk:
            shares: dict[str, float] = {}
            for reading in found[slp1[word]]:
                shares.setdefault(reading.lemma, math.exp(reading.score))
            if shares:
                candidates[word] = shares
    # round 0 shares each word by its readings' scores (the analyzer's ranking without counts); later
    # rounds reweigh each lemma by how its count moved from round 0
    first: dict[str, float] | None = None
    counts: dict[str, float] = {lemma: 1.0 for shares in candidates.values() for lemma in shares}
    for _ in range(ROUNDS):
        new: Counter[str] = Counter()
        for word, shares in candidates.items():
            weighted = {
                lemma: share * counts[lemma] / (first[lemma] if first else 1.0)
                for lemma, share in shares.items()
            }
            total = sum(weighted.values()) or 1.0
            for lemma, weight in weighted.items():
                new[lemma] += words[word] * weight / total
        counts = {lemma: new.get(lemma, 0.0) + 0.01 for lemma in counts}
        first = first or dict(counts)
    kept = sorted(
        ((lemma, count) for lemma, count in counts.items() if count >= MIN_COUNT), key=lambda x: -x[1]
    )
    lines = [
        "# lemma (SLP1) and its estimated count in the Śrīmad-Bhāgavatam's verses; derived by"
        " benchmarks/sanskrit_frequencies.py (see its docstring), nothing else stored",
        *(f"{lemma}\t{round(count)}" for lemma, count in kept),
    ]
    args.out.write_text("\n".join(lines) + "\n", "utf-8")
    analysed = sum(words[word] for word in candidates)
    print(f"{len(candidates):,} distinct words with readings ({analysed / sum(words.values()):.2f} of all);"
          f" {len(kept):,} lemmas kept (top: {', '.join(lemma for lemma, _ in kept[:15])});"
          f" {time.perf_counter() - started:.0f} s;"
          f" log10 total {math.log10(sum(c for _, c in kept)):.1f}")  # fmt: skip


if __name__ == "__main__":
    main()
