"""Where semble0 ranks the answer higher than pramana, query by query, from peer_semble.py's --per-query JSON.

    nice -n 5 uv run python benchmarks/peer_semble.py --per-query /tmp/peer.json
    uv run python benchmarks/peer_semble_diff.py /tmp/peer.json [--margin 0.2] [--against OTHER.json]

Lists every query semble0 wins by at least --margin (NDCG@10), with the targets, both tools' rank
of each target and both top 5s, then counts the wins by repository, language and category. With
--against (the same run of another branch) it lists the queries whose pramana score moved between the two.
"""

from __future__ import annotations

import argparse
import collections
import json
from pathlib import Path


def rows(path: Path) -> list[dict]:
    """Every query of the run, with its tree's part, repository and language."""
    found = []
    for tree in json.loads(path.read_text())["trees"]:
        for query in tree["queries"]:
            found.append({"part": tree["part"], "repo": tree["repo"], "language": tree["language"], **query})
    return found


def show(row: dict) -> None:
    ours, theirs = row["pramana"], row["semble0"]
    print(
        f"{row['repo']} [{row['language']}, {row['category']}] {row['query']!r}:"
        f" pramana {ours['ndcg10']:.2f}, semble0 {theirs['ndcg10']:.2f}"
    )
    targets = [t["path"] + (f":{t['start_line']}" if "start_line" in t else "") for t in row["targets"]]
    print(f"    targets {targets}; ranks pramana {ours['ranks']}, semble0 {theirs['ranks']}")
    print(f"    pramana {ours['top5']}")
    print(f"    semble0 {theirs['top5']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path)
    parser.add_argument("--margin", type=float, default=0.2)
    parser.add_argument("--against", type=Path, default=None, help="another run: list what moved")
    args = parser.parse_args()
    everything = rows(args.run)
    if args.against is not None:
        before = {(r["part"], r["repo"], r["query"]): r for r in rows(args.against)}
        for row in everything:
            old = before.get((row["part"], row["repo"], row["query"]))
            if old and abs(old["pramana"]["ndcg10"] - row["pramana"]["ndcg10"]) > 1e-9:
                print(f"{old['pramana']['ndcg10']:.2f} -> {row['pramana']['ndcg10']:.2f}", end=" ")
                show(row)
        return
    wins = [r for r in everything if r["semble0"]["ndcg10"] - r["pramana"]["ndcg10"] >= args.margin]
    losses = [r for r in everything if r["pramana"]["ndcg10"] - r["semble0"]["ndcg10"] >= args.margin]
    for row in sorted(wins, key=lambda r: (r["language"], r["repo"])):
        show(row)
    print(
        f"\n{len(wins)} of {len(everything)} queries semble0 wins by >= {args.margin}"
        f" ({len(losses)} the other way)"
    )
    for key in ("language", "repo", "category", "part"):
        counts = collections.Counter(r[key] for r in wins)
        print(f"  by {key}: " + ", ".join(f"{k} {n}" for k, n in counts.most_common()))


if __name__ == "__main__":
    main()
