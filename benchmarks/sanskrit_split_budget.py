"""How many part tests the segmenter's search needs (issue 29, the p99 of `sanskrit_analyze_word`): for
each token of the DCS sets, the smallest of a ladder of budgets whose best split is the one the full
budget (`Segmenter.BUDGET`) finds, beside the tests the full search spent and the token's length.

    uv run python benchmarks/sanskrit_split_budget.py --db /tmp/s.db [--set heldout2 ...] [--show 20]

A budget smaller than BUDGET is a trade only if the words that need more are few; what the sets'
figures do with it is measured by `PRAMANA_SPLIT_BUDGET=N benchmarks/sanskrit_text.py`. The best split
at a smaller budget is compared with the full one's, parts for parts (the answer shows up to
MAX_SPLITS splits, so an unchanged best split is necessary for an unchanged answer, not sufficient).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import Counter
from pathlib import Path

from pramana.sanskrit.sandhi import Segmenter
from pramana.sanskrit.service import MIN_SPLIT_CHARS, SanskritService
from pramana.text.schemes import slp1_readings

sys.path.insert(0, str(Path(__file__).parent))
from sanskrit_text import SETS, read_set

LADDER = (25, 50, 75, 100, 150, 200, 250, 300, 350)
BANDS = ((0, 14), (14, 20), (20, 28), (28, 200))  # letters (SLP1)


def needed(segmenter: Segmenter, word: str) -> tuple[int, int] | None:
    """(the smallest budget of LADDER, or BUDGET, giving the full search's best split; the tests the
    full search spent), None when the full search finds no split."""
    full = segmenter.split(word)[:1]
    spent = segmenter._tests  # the search's own count
    if not full:
        return None
    for budget in LADDER:
        if [s.parts for s in segmenter.split(word, budget)[:1]] == [full[0].parts]:
            return budget, spent
    return Segmenter.BUDGET, spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--set", action="append", default=[])
    parser.add_argument("--show", type=int, default=0, help="the N tokens that need the most tests")
    args = parser.parse_args()
    service = SanskritService(args.db, read_only=True)
    segmenter = service.segmenter
    rows: list[tuple[int, int, int, str]] = []
    for name in args.set or [name for name in SETS if name.startswith(("dev", "heldout"))]:
        for token in read_set(name):
            word = slp1_readings(token.text)[0]
            if len(word) < MIN_SPLIT_CHARS:
                continue
            found = needed(segmenter, word)
            if found is not None:
                rows.append((*found, len(word), f"{name}: {token.text}"))
    print(f"{len(rows)} tokens the segmenter splits (budget {Segmenter.BUDGET});"
          " the budget their best split needs:")  # fmt: skip
    for low, high in BANDS:
        band = [row for row in rows if low <= row[2] < high]
        if not band:
            continue
        counts = Counter(row[0] for row in band)
        exhausted = sum(row[1] >= Segmenter.BUDGET for row in band)
        print(f"  {low}-{high - 1} letters: {len(band)} tokens, median tests spent"
              f" {statistics.median(row[1] for row in band):.0f}, {exhausted} ran out;"
              f" needed: {', '.join(f'{b}: {counts[b]}' for b in sorted(counts))}")  # fmt: skip
    for row in sorted(rows, key=lambda row: (-row[0], -row[2]))[: args.show]:
        print(f"  needs {row[0]}, spent {row[1]}, {row[2]} letters: {row[3]}")
    service.close()


if __name__ == "__main__":
    main()
