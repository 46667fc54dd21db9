"""semble's own queries on repositories of its benchmark that ../shared/data does not have, as installed.

    uv run python benchmarks/code_semble_heldout.py --annotations DIR [--install DIR] [--prepare]
                                                    [--repo NAME ...] [--verbose]

semble publishes figures for 62 repositories; ../shared/data/code/semble-bench has 18 of them. For the
others whose source a package registry reachable here ships (PyPI wheels, npm tarballs, Debian
packages), this script lays the installed copy out as the repository is laid out
(`--install DIR/<repo>/<benchmark_root>`), reads semble's annotation for it (`--annotations
DIR/<repo>.json`: saved by hand from semble's benchmarks/annotations/, kept out of this repository)
and scores `search_code` as semble_bench.py does (its scorer, its rules), with semble's published
figure beside each.

The installed versions are not semble's pinned revisions. For each repository the script counts how
many annotation targets (distinct paths of `relevant` + `secondary`) exist in the installed copy and
scores it only when at least MIN_PRESENT of them do; a skipped repository is printed with the reason.
Of a scored repository, a query counts only when every target it names exists in the copy and none
has a line span (lines of semble's revision, which move between versions): "queries" says how many
of the annotation's count, the others are printed with --verbose.

`--prepare` copies the packages' files into --install: the files of the Debian packages built from
the repository's Debian source (installed: see PACKAGES; no other package's files), a wheel fetched
with `pip download`, an npm tarball fetched with `npm pack`. The data folder is fresh, so the first
index pays a first use.

Queries without a category in semble's annotation (older annotations of some repositories) are
counted as `symbol` when the query is one identifier (`Blueprint`, `render_template`, `g`), as
semble's newer annotations label such queries, and `other` otherwise.
"""

from __future__ import annotations

import argparse
import collections
import fnmatch
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

from _common import shared_data
from pramana.embed import choose_embedder
from semble_bench import published_figures, score_tree, targets_of

IDENTIFIER = re.compile(r"[A-Za-z_][\w]*(?:(?:::|\.)[A-Za-z_]\w*)*")
MIN_PRESENT = 0.8  # share of an annotation's target paths that must exist in the installed copy


@dataclass(frozen=True)
class Package:
    language: str
    benchmark_root: str  # "" for the whole checkout
    registry: str  # "apt", "debsrc", "pypi" or "npm"
    name: str  # the Debian package (debsrc: source package), the PyPI name==version, the npm name@version
    source: str  # apt: the installed folder (a glob); the others: the folder inside the archive


def _apt(language: str, root: str, name: str, source: str) -> Package:
    return Package(language, root, "apt", name, source)


RUBY_GEMS = "/usr/share/rubygems-integration/all/gems"
PACKAGES = {
    "nlohmann-json": _apt("cpp", "include/nlohmann", "nlohmann-json3-dev", "/usr/include/nlohmann"),
    "abseil-cpp": _apt("cpp", "absl", "libabsl-dev", "/usr/include/absl"),
    "chi": _apt("go", "", "golang-github-go-chi-chi-dev", "/usr/share/gocode/src/github.com/go-chi/chi"),
    "sinatra": _apt("ruby", "lib", "ruby-sinatra", f"{RUBY_GEMS}/sinatra-*/lib"),
    "pydantic": Package("python", "pydantic", "pypi", "pydantic==2.14.4", "pydantic"),
    "flask": Package("python", "src/flask", "pypi", "flask==3.1.3", "flask"),
    "httpx": Package("python", "httpx", "pypi", "httpx==0.28.1", "httpx"),
    "requests": Package("python", "src/requests", "pypi", "requests==2.34.2", "requests"),
    "starlette": Package("python", "starlette", "pypi", "starlette==1.10.0", "starlette"),
    "axios": Package("javascript", "lib", "npm", "axios@1.21.1", "package/lib"),
    "redux": Package("javascript", "src", "npm", "redux@5.0.1", "package/src"),
    "guzzle": _apt("php", "src", "php-guzzlehttp-guzzle", "/usr/share/php/GuzzleHttp"),
    "monolog": _apt("php", "src/Monolog", "php-monolog", "/usr/share/php/Monolog"),
    "laravel-framework": _apt("php", "src/Illuminate", "php-laravel-framework", "/usr/share/php/Illuminate"),
    # Debian ships these as jars; their source comes from the Debian source package (`apt-get source`).
    # Jackson 3 moved com/fasterxml/jackson to tools/jackson; 1.0.1 kept kotlinx-coroutines-core/common in
    # common/kotlinx-coroutines-core-common: the folder is laid out where the repository has it now.
    "jackson-databind": Package(
        "java",
        "src/main/java/tools/jackson/databind",
        "debsrc",
        "jackson-databind",
        "jackson-databind-jackson-databind-*/src/main/java/com/fasterxml/jackson/databind",
    ),
    "kotlinx-coroutines": Package(
        "kotlin",
        "kotlinx-coroutines-core/common/src",
        "debsrc",
        "kotlinx-coroutines",
        "kotlinx-coroutines-*/common/kotlinx-coroutines-core-common/src",
    ),
    "rails": _apt("ruby", "railties/lib/rails", "ruby-railties", f"{RUBY_GEMS}/railties-*/lib/rails"),
}


def version_of(package: Package) -> str:
    if package.registry == "debsrc":
        shown = subprocess.run(["apt-cache", *debian_sources(), "showsrc", package.name], capture_output=True,
                               text=True, check=False).stdout  # fmt: skip
        versions = [line.split()[1] for line in shown.splitlines() if line.startswith("Version:")]
        return versions[0] if versions else "unknown"
    if package.registry == "pypi":
        return package.name.partition("==")[2]
    if package.registry == "npm":
        return package.name.rpartition("@")[2]
    shown = subprocess.run(
        ["dpkg-query", "-W", "-f", "${Version}", package.name], capture_output=True, text=True, check=False
    )
    return shown.stdout.strip() if shown.returncode == 0 else "not installed"


def fetch_wheel(package: Package, folder: Path) -> Path | None:
    """The package's wheel, fetched with pip (the venv's, else the one on PATH)."""
    return _pip_download(package.name, folder, "--only-binary=:all:", "{name}-{version}-*.whl")


def fetch_sdist(package: Package, folder: Path) -> Path | None:
    """The package's source distribution (some ship code in other languages: pythonnet's C#)."""
    return _pip_download(package.name, folder, "--no-binary=:all:", "{name}-{version}.tar.gz")


def _pip_download(requirement: str, folder: Path, kind: str, pattern: str) -> Path | None:
    command = ["download", "--no-deps", kind, "-d", str(folder), requirement]
    fetched = subprocess.run([sys.executable, "-m", "pip", *command], capture_output=True, check=False)
    if fetched.returncode != 0 and shutil.which("pip"):
        subprocess.run(["pip", *command], capture_output=True, check=False)
    name, _, version = requirement.partition("==")
    return next(iter(sorted(folder.glob(pattern.format(name=name, version=version)))), None)


def fetch_tarball(package: Package, folder: Path) -> Path | None:
    """The package's npm tarball (`npm pack`, which fetches it without installing anything)."""
    folder.mkdir(parents=True, exist_ok=True)
    if shutil.which("npm"):
        subprocess.run(["npm", "pack", package.name, "--pack-destination", str(folder)], capture_output=True,
                       check=False)  # fmt: skip
    name, _, version = package.name.rpartition("@")
    return next(iter(sorted(folder.glob(f"{name.replace('/', '-').lstrip('@')}-{version}.tgz"))), None)


DEBSRC = Path(tempfile.gettempdir()) / "pramana-debsrc"  # a private apt state: the machine's is untouched
DEBSRC_OPTIONS = [
    f"-o{option}" for option in (
        f"Dir::Etc::SourceList={DEBSRC}/sources.list", "Dir::Etc::SourceParts=/dev/null",
        f"Dir::State::Lists={DEBSRC}/lists", f"Dir::Cache={DEBSRC}/cache",
    )
]  # fmt: skip


def debian_sources() -> list[str]:
    """apt's options for a private state whose sources list names bookworm's deb-src (updated once)."""
    (DEBSRC / "lists" / "partial").mkdir(parents=True, exist_ok=True)
    (DEBSRC / "cache" / "archives" / "partial").mkdir(parents=True, exist_ok=True)
    (DEBSRC / "sources.list").write_text("deb-src http://deb.debian.org/debian bookworm main\n")
    if not any((DEBSRC / "lists").glob("*Sources*")):
        subprocess.run(["apt-get", *DEBSRC_OPTIONS, "update"], capture_output=True, check=False)
    return DEBSRC_OPTIONS


def fetch_debian_source(package: Package, folder: Path) -> Path | None:
    """The upstream tarball of a Debian source package (`apt-get source --download-only`, with a private
    apt state, so the machine's apt configuration is not changed)."""
    options = debian_sources()
    folder.mkdir(parents=True, exist_ok=True)
    folder.chmod(0o777)  # apt's download user writes here
    subprocess.run(["apt-get", *options, "source", "--download-only", package.name], cwd=folder,
                   capture_output=True, check=False)  # fmt: skip
    return next(iter(sorted(folder.glob(f"{package.name}_*.orig.tar.*"))), None)


def extract_folder(members: list[tuple[str, bytes]], source: str, target: Path) -> None:
    """Write the archive members under source/ (a glob) to target, with their paths below source."""
    depth = source.count("/") + 1
    for name, data in members:
        parts = name.split("/")
        inside = len(parts) > depth and fnmatch.fnmatchcase("/".join(parts[:depth]), source)
        if inside and not name.endswith("/"):
            path = target.joinpath(*parts[depth:])
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)


def archive_members(archive: Path) -> list[tuple[str, bytes]]:
    if archive.suffix == ".whl":
        with zipfile.ZipFile(archive) as wheel:
            return [(name, wheel.read(name)) for name in wheel.namelist()]
    with tarfile.open(archive) as tarball:
        return [(m.name, tarball.extractfile(m).read()) for m in tarball.getmembers() if m.isfile()]  # type: ignore[union-attr]


def prepare(repo: str, package: Package, install: Path) -> str | None:
    """Lay the package's files out under install/<repo>/<benchmark_root>; the reason when it cannot."""
    target = install / repo / package.benchmark_root
    if target.exists():
        return None
    if package.registry in ("pypi", "npm", "debsrc"):
        fetch = {"pypi": fetch_wheel, "npm": fetch_tarball, "debsrc": fetch_debian_source}[package.registry]
        archive = fetch(package, install / f"_{package.registry}")
        if archive is None:
            return f"could not fetch {package.name} from {package.registry}"
        extract_folder(archive_members(archive), package.source, target)
        return None
    sources = sorted(Path("/").glob(package.source.lstrip("/")))
    if not sources:
        return f"not installed: apt-get install {package.name}"
    for path in package_files(package.name, sources[-1]):
        copied = target / path.relative_to(sources[-1])
        copied.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, copied, follow_symlinks=False)
    return None


def package_files(name: str, folder: Path) -> list[Path]:
    """The files under folder of every installed package built from the Debian source of `name` (the
    repository: laravel-framework is php-laravel-framework and 31 php-illuminate-*), and of no other
    package (/usr/share/php/GuzzleHttp also holds psr7's, another repository)."""
    shown = subprocess.run(["dpkg-query", "-W", "-f", "${Package} ${source:Package}\n"], capture_output=True,
                           text=True, check=False).stdout  # fmt: skip
    sources = dict(line.split(" ", 1) for line in shown.splitlines() if " " in line)
    built = sorted(package for package, source in sources.items() if source == sources.get(name))
    listed = subprocess.run(["dpkg", "-L", *built], capture_output=True, text=True, check=False).stdout
    owned = {Path(line) for line in listed.splitlines() if line.startswith(str(folder) + "/")}
    return sorted(path for path in owned if path.is_file() or path.is_symlink())


def with_category(query: dict) -> dict:
    """The query, with `symbol` or `other` as its category when the annotation gives none."""
    guessed = "symbol" if IDENTIFIER.fullmatch(query["query"]) else "other"
    return {"category": guessed, **query}


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
          f"{'pramana':>8} {'semble':>7} {'diff':>7} {'index s':>7} {'p50 ms':>6} {'symbol':>6}")  # fmt: skip
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
            annotated = [with_category(q) for q in json.loads(annotation.read_text())]
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
                f" {result['by_category'].get('symbol', float('nan')):>6.3f}"
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
