"""What the repair of the source's damaged texts does, per author, over the whole mirror.

For every author and field of the 701 verses, as pramana parses them: the words given back a
lost "qu" (and "?nd" → "command"), the commas restored from "?", the words left as they are but
flagged as possibly damaged, and the commonest restorations and every flagged word.

    uv run python benchmarks/gita_text_repair.py [--examples 25]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter, defaultdict

from _common import REPO_ROOT, gita_mirror

sys.path.insert(0, str(REPO_ROOT))

from pramana.gita.reference import all_refs
from pramana.gita.source import author_texts
from pramana.gita.translators import FIELD_LANGUAGE, TRANSLATORS

FIELDS = tuple(FIELD_LANGUAGE)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--examples", type=int, default=25, help="how many of the commonest restorations to list"
    )
    args = parser.parse_args()
    mirror = gita_mirror()
    texts: Counter[tuple[str, str]] = Counter()
    repaired_texts: Counter[tuple[str, str]] = Counter()
    restored: Counter[tuple[str, str]] = Counter()
    suspects: Counter[tuple[str, str]] = Counter()
    commas: Counter[tuple[str, str]] = Counter()
    pairs: Counter[tuple[str, str]] = Counter()
    flagged: dict[str, Counter[str]] = defaultdict(Counter)
    started = time.perf_counter()
    for ref in all_refs():
        doc = json.loads(
            (mirror / "slok" / str(ref.chapter) / str(ref.verse) / "index.json").read_text("utf-8")
        )
        for text in author_texts(doc, ref, FIELDS):
            key = (text.key, text.field)
            texts[key] += 1
            repaired_texts[key] += bool(text.repairs.restored or text.repairs.commas)
            restored[key] += len(text.repairs.restored)
            suspects[key] += len(text.repairs.suspects)
            commas[key] += text.repairs.commas
            pairs.update(text.repairs.restored)
            for word in text.repairs.suspects:
                flagged[word][f"{text.key}.{text.field}"] += 1
    seconds = time.perf_counter() - started

    print(f"Repairs over {len(all_refs())} verses ({seconds:.1f} s to parse and repair every text)\n")
    print(
        f"{'author':<9} {'field':<5} {'texts':>6} {'repaired':>9} {'words':>7} {'flagged':>8} {'commas':>7}"
    )
    for author in TRANSLATORS:
        for field in FIELDS:
            key = (author, field)
            english = FIELD_LANGUAGE[field] == "English"
            if (english and texts[key]) or restored[key] or suspects[key] or commas[key]:
                print(
                    f"{author:<9} {field:<5} {texts[key]:>6} {repaired_texts[key]:>9} {restored[key]:>7}"
                    f" {suspects[key]:>8} {commas[key]:>7}"
                )
    print(
        f"{'all':<15} {sum(texts.values()):>6} {sum(repaired_texts.values()):>9} {sum(restored.values()):>7}"
        f" {sum(suspects.values()):>8} {sum(commas.values()):>7}"
    )
    print("\nwords: word occurrences restored; flagged: occurrences left as they are but possibly damaged")
    print(f"\n{len(pairs)} distinct restorations; the commonest:")
    for (found, shown), count in pairs.most_common(args.examples):
        print(f"  {count:>4}  {found} → {shown}")
    print("\nFlagged (left as they are):")
    for word, where in sorted(flagged.items(), key=lambda item: -sum(item[1].values())):
        print(f"  {word}: {', '.join(f'{place} ×{n}' for place, n in where.most_common())}")


if __name__ == "__main__":
    main()
