"""`sanskrit_analyze_word`'s answers to every word of the DCS sets, one JSON line a word, to prove that a
change (a faster splitter, an order made stable) leaves every answer byte for byte as it was, and that
the answers do not depend on the process's hash seed (PYTHONHASHSEED: set and dict iteration orders).

    uv run python benchmarks/sanskrit_answers.py --db /tmp/s.db --out /tmp/before.jsonl   # on main
    uv run python benchmarks/sanskrit_answers.py --db /tmp/s.db --compare /tmp/before.jsonl  # after
    uv run python benchmarks/sanskrit_answers.py --db /tmp/s.db --seeds 1,2 --limit 400   # two processes

--compare and --seeds print the words whose answers differ and exit 1 if any do.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from pramana.sanskrit.service import SanskritService

DATA = Path(__file__).with_name("data")
# the DCS sets of benchmarks/sanskrit_text.py: dev, dev2, heldout, heldout2, ... (every one there is)
SETS = tuple(sorted(path.stem.removeprefix("sanskrit_dcs_") for path in DATA.glob("sanskrit_dcs_*.tsv")
                    if path.stem.removeprefix("sanskrit_dcs_").startswith(("dev", "heldout"))))  # fmt: skip


def set_words(names: tuple[str, ...] = SETS) -> list[str]:
    """Each token of the sets (IAST, as written), once, in the sets' order."""
    words: dict[str, None] = {}
    for name in names:
        for line in (DATA / f"sanskrit_dcs_{name}.tsv").read_text("utf-8").splitlines():
            if line.strip() and not line.startswith("#"):
                words[line.split("\t")[1]] = None
    return list(words)


def answers(db: Path, words: list[str]) -> list[str]:
    """One line a word: the word, a tab, its answer as the server sends it (JSON)."""
    service = SanskritService(db, read_only=True)
    try:
        return [f"{word}\t{service.analyze(word).model_dump_json()}" for word in words]
    finally:
        service.close()


def differences(before: list[str], after: list[str]) -> list[str]:
    """The words whose lines differ (or are missing from one side)."""
    old = dict(line.split("\t", 1) for line in before)
    new = dict(line.split("\t", 1) for line in after)
    return [word for word in dict.fromkeys([*old, *new]) if old.get(word) != new.get(word)]


def _in_process(db: Path, seed: str, limit: int, out: Path) -> None:
    """The answers written by a process of its own, with hash seed `seed`."""
    command = [sys.executable, __file__, "--db", str(db), "--out", str(out), "--limit", str(limit)]
    subprocess.run(command, check=True, env={**os.environ, "PYTHONHASHSEED": seed})


def main() -> None:
    formatter = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=formatter)
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--out", type=Path, help="write the answers here")
    parser.add_argument("--compare", type=Path, help="compare with answers written before")
    parser.add_argument("--seeds", help="two or more hash seeds, comma-separated: one process each, compared")
    parser.add_argument("--limit", type=int, default=0, help="the first N words only (0: all)")
    args = parser.parse_args()
    words = set_words()
    if args.limit:
        words = words[: args.limit]
    if args.seeds:
        with tempfile.TemporaryDirectory() as folder:
            outputs = []
            for seed in args.seeds.split(","):
                out = Path(folder) / f"{seed}.jsonl"
                _in_process(args.db, seed, args.limit, out)
                outputs.append(out.read_text("utf-8").splitlines())
        changed = sorted({word for other in outputs[1:] for word in differences(outputs[0], other)})
        print(f"{len(words)} words, hash seeds {args.seeds}: {len(changed)} answers differ")
        for word in changed:
            print(f"  {word}")
        sys.exit(1 if changed else 0)
    lines = answers(args.db, words)
    if args.out:
        args.out.write_text("\n".join(lines) + "\n", "utf-8")
        print(f"{len(lines)} answers written to {args.out}")
    if args.compare:
        changed = differences(args.compare.read_text("utf-8").splitlines(), lines)
        print(f"{len(lines)} words: {len(changed)} answers differ from {args.compare}")
        for word in changed:
            print(f"  {word}")
        sys.exit(1 if changed else 0)


if __name__ == "__main__":
    main()
