"""Installing SB and CC, and the gita server with all three books (issue 27: install from a local copy
<= 60 s on two cores; index size and server RSS with all books reported).

    uv run python benchmarks/gita_install.py [--runs 3] [--calls 100]

Prints:
- install time of `pramana gita install sb cc` in a new process, from the local copy of upstream's
  archive (../shared/data/scripture) and from a loopback HTTP mirror serving it (the download path),
  best and median of --runs, and the in-process time the install reports (import excluded); and from
  a full-size copy: the same archive with a translation, word meanings and a purport added to every
  verse file (filler words, as long as upstream's texts are on average), which is what a user's install
  from upstream reads and keeps;
- the size of the cache with the books (the file, and what the books add to a seeded Gītā cache);
- the server's RSS over stdio with all three books: at start, after the first lookup and search,
  and after the first fuzzy match and transcript correction (which build the matcher over 26,000
  verses), worker processes included;
- p50/p95 over MCP stdio of lookup_verse, get_chapter, search_verses and fuzzy_match_verse across
  the books (fuzzy matching is measured more fully by the matcher's own benchmark).
The machine's load average is printed beside the figures: on a shared machine they vary.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from mcp import ClientSession

from _common import (
    REPO_ROOT,
    descendants,
    gita_mirror,
    load_average,
    loopback_mirror,
    percentiles,
    rss_mb,
    shared_data,
    until_idle,
)

sys.path.insert(0, str(REPO_ROOT))

from benchmarks._gita_scripture import books_server
from pramana.config import GitaSettings
from pramana.gita.service import GitaService

ARCHIVE = "slides-2460884c-verses.tar.gz"
LOOKUPS = [
    "SB 1.2.6", "SB 10.1.6", "Bhāg. 1.1.1", "SB 12.13.23", "SB 4.29.1b", "CC Ādi 17.31", "CC Madhya 20.109",
    "Cc. Antya 20.12", "BG 2.47", "BG 18.66",
]  # fmt: skip
CHAPTERS = ["SB 1.2", "SB 10.87", "CC Madhya 20", "CC Ādi 17", "BG 2"]
SEARCHES = [
    "dharmah projjhita kaitavo",
    "krishna varnam tvisakrishnam",
    "ceto darpana marjanam",
    "prahlada",
    "vasudeva",
    "karmanyevadhikaraste",
    "sarva dharman parityajya",
    "how can I control my mind",
]
MATCHES = [
    "sa vai pumsam paro dharmo yato bhaktir adhokshaje",
    "janmady asya yato nvayad itaratas carthesv abhijnah",
    "ceto darpana marjanam bhava maha davagni nirvapanam",
    "man mana bhava mad bhakto mad yaji mam namaskuru",
]


# Upstream's files carry, besides the verse, the BBT's word meanings, translation and purport (removed
# from the shared copy). Their lengths, on average, in characters (estimated from vedabase's pages): the
# full-size copy adds filler text of these lengths to every file.
FILLER_LENGTHS = {"synonyms": 350, "translation": 450, "purport": 2500}


def full_size_archive(shared: Path, target: Path) -> Path:
    """The shared archive with filler word meanings, translation and purport in every verse file: the
    word meanings in upstream's form ("word — meaning; …", one pair for each word of the verse, the
    meanings filler), the translation and purport words of the Gītā's English translations drawn at
    random (pramana's packaged word list), so that indexing them costs what upstream's texts cost."""
    import io
    import tarfile

    from pramana.gita import packaged

    rng = random.Random(108)
    words = sorted(packaged.english_words())

    def filler(length: int) -> str:
        text: list[str] = []
        while sum(len(w) + 1 for w in text) < length:
            text.append(rng.choice(words))
        return " ".join(text)

    def meanings(document: dict) -> str:
        stanzas = [v for v in document.get("verses") or [] if isinstance(v, dict)]
        verse = " ".join(str(v.get("roman") or "") for v in stanzas)
        pairs = [f"{word}—{filler(rng.randint(5, 25))}" for word in verse.split() if word.isalpha()]
        return "; ".join(pairs) or filler(FILLER_LENGTHS["synonyms"])

    with tarfile.open(shared, "r:gz") as source, tarfile.open(target, "w:gz") as out:
        for member in source:
            handle = source.extractfile(member) if member.isfile() else None
            data = handle.read() if handle else None
            if data is not None and member.name.endswith(".json") and b'"roman"' in data:
                try:
                    document = json.loads(data)
                except ValueError:
                    document = None  # upstream's three invalid files stay as they are
                if isinstance(document, dict):
                    document["synonyms"] = meanings(document)
                    document["translation"] = filler(FILLER_LENGTHS["translation"])
                    document["purport"] = [{"type": "normal", "content": filler(FILLER_LENGTHS["purport"])}]
                    data = json.dumps(document, ensure_ascii=False).encode("utf-8")
                    member.size = len(data)
            out.addfile(member, io.BytesIO(data) if data is not None else None)
    return target


def install_once(source: str, db: Path) -> tuple[float, float, float]:
    """Wall seconds of `pramana gita install sb cc` in a new process, the seconds it reports, and the
    CPU seconds the process used (which a busy machine does not inflate as it does the wall time)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = children.ru_utime + children.ru_stime
    started = time.perf_counter()
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pramana",
            "gita",
            "install",
            "sb",
            "cc",
            "--source",
            source,
            "--db",
            str(db),
            "--json",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.perf_counter() - started
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = children.ru_utime + children.ru_stime - cpu
    if done.returncode != 0:
        raise SystemExit(f"install failed: {done.stderr.strip()}")
    return wall, json.loads(done.stdout)["seconds"], cpu


def install_figures(label: str, source: str, runs: int, folder: Path) -> Path:
    walls, inner, cpus = [], [], []
    db = folder / "books.db"
    for run in range(runs):
        db = folder / f"{label}-{run}.db"
        wall, reported, cpu = install_once(source, db)
        walls.append(wall)
        inner.append(reported)
        cpus.append(cpu)
    print(
        f"install sb cc from {label}: best {min(walls):.1f} s, median {statistics.median(walls):.1f} s"
        f" in a new process (the install itself: best {min(inner):.1f} s; CPU {min(cpus):.1f} s at best,"
        f" the process's start included); {load_average()}"
    )
    return db


async def timed(session: ClientSession, tool: str, arguments: dict) -> float:
    started = time.perf_counter()
    result = await session.call_tool(tool, arguments)
    elapsed = (time.perf_counter() - started) * 1000
    if result.is_error:
        raise SystemExit(f"{tool} {arguments} failed: {result.content[0].text}")
    return elapsed


async def serve(db: Path, calls: int) -> None:
    rng = random.Random(27)
    async with books_server(db) as session:
        started = rss_mb(descendants())  # the server and its worker processes
        # what it builds in the background as it starts (on a busy machine a search that came first
        # waited for the term index past its deadline)
        settled = await until_idle()
        await timed(session, "lookup_verse", {"reference": "SB 1.2.6"})
        await timed(session, "search_verses", {"query": "prahlada"})
        looked = rss_mb(descendants())
        first_match = await timed(session, "fuzzy_match_verse", {"garbled_sanskrit": MATCHES[0]})
        transcript = "He said " + " and then ".join(MATCHES) + ". " + "Lecture words here. " * 40
        await timed(session, "correct_transcript", {"text": transcript})
        await until_idle()
        matched = rss_mb(descendants())
        print(
            f"server RSS with BG, SB and CC: {started:.0f} MB at start, {looked:.0f} MB after"
            f" a lookup and a search, {matched:.0f} MB after matching (the first fuzzy match"
            f" {first_match:.0f} ms, the matcher and indexes built in the background from the start, idle"
            f" {settled:.0f} s after it); {load_average()}"
        )
        for tool, key, values in (
            ("lookup_verse", "reference", LOOKUPS),
            ("get_chapter", "chapter", CHAPTERS),
            ("search_verses", "query", SEARCHES),
            ("fuzzy_match_verse", "garbled_sanskrit", MATCHES),
        ):
            samples = [await timed(session, tool, {key: rng.choice(values)}) for _ in range(calls)]
            print(f"{tool:<18} over stdio, all books: {percentiles(samples)}")
        print(load_average())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="installs per source")
    parser.add_argument("--calls", type=int, default=100, help="calls per tool over stdio")
    args = parser.parse_args()
    archive = shared_data("scripture", ARCHIVE)
    with tempfile.TemporaryDirectory(prefix="gita-install-") as tmp:
        folder = Path(tmp)
        os.environ["PRAMANA_DATA_DIR"] = str(folder)
        install_figures("a local copy", str(archive), args.runs, folder)
        with loopback_mirror(archive.parent) as url:
            install_figures("a loopback mirror", f"{url}/{ARCHIVE}", args.runs, folder)
        (folder / "full").mkdir()
        full = full_size_archive(archive, folder / "full" / ARCHIVE)
        print(f"full-size copy: {full.stat().st_size / 1e6:.1f} MB (upstream's: 26 MB, with its other files)")
        full_db = install_figures("a full-size local copy", str(full), args.runs, folder)
        print(f"cache size after the full-size install: {full_db.stat().st_size / 1e6:.1f} MB (books only)")
        # the sizes: a Gītā cache seeded from the mirror, then the books added to it
        seeded = folder / "seeded.db"
        with loopback_mirror(gita_mirror()) as url:
            GitaService(GitaSettings(db_path=seeded, api_url=url)).seed()
        with_books = folder / "with-books.db"
        shutil.copy(seeded, with_books)
        service = GitaService(GitaSettings(db_path=with_books))
        service.install_books(["sb", "cc"], str(archive))
        service.store._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        service.close()
        size, before = with_books.stat().st_size, seeded.stat().st_size
        print(
            f"cache size: {size / 1e6:.1f} MB with the Gītā seeded and SB and CC installed"
            f" ({(size - before) / 1e6:.1f} MB for the books: their texts, references and FTS5 index)"
        )
        asyncio.run(serve(with_books, args.calls))


if __name__ == "__main__":
    main()
