"""Speed of the code server: indexing, re-indexing one file, start to first answer, search latency, memory.

    uv run python benchmarks/code_server.py [--repo PATH] [--embedder none|static] [--calls 50]

Without --repo it measures pramana's own repository and then rich 14.3.3 (38k lines, fetched
by benchmarks/code_retrieval.py into benchmarks/.cache). The repository is copied (the files the
indexer would read) to a scratch folder first, so touching a file never changes the original.

Start to first answer is timed as on an installed machine, with compiled bytecode (each server is
started once untimed, which writes it; PYTHONDONTWRITEBYTECODE is dropped from the servers'
environment), and beside the MCP SDK's own floor: a bare MCPServer with one trivial tool
(_bare_server.py), started the same way in the same run.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from _common import REPO_ROOT, RawStdioClient, percentiles, sdk_timed
from pramana.code.index.indexer import Indexer
from pramana.code.index.walk import walk_repository
from pramana.code.store import CodeStore
from pramana.embed import choose_embedder

QUERIES = [
    "parse the command line arguments",
    "read a file and split it into lines",
    "retry an HTTP request on failure",
    "render a table to the terminal",
    "open a database connection",
    "convert text between scripts",
    "format a number with thousands separators",
    "handle a timeout error",
    "where is the progress bar updated",
    "search with full text index",
]


def copy_repository(source: Path, target: Path) -> int:
    lines = 0
    for file in walk_repository(source):
        destination = target / file.path
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source / file.path, destination)
        lines += (source / file.path).read_bytes().count(b"\n")
    return lines


def measure_index(root: Path, db: Path, embedder) -> None:  # type: ignore[no-untyped-def]
    store = CodeStore(db)
    report = Indexer(root, store, embedder).run()
    counts = store.counts()
    print(
        f"  index: {report.files_seen:,} files, {counts['chunks']:,} chunks, {counts['symbols']:,} symbols, "
        f"{counts['refs']:,} references; database {db.stat().st_size / 1e6:.1f} MB"
    )
    print(
        f"  parse {report.parse_seconds:.1f} s ({report.files_seen / report.parse_seconds:,.0f} files/s, "
        f"{report.chunks_written / report.parse_seconds:,.0f} chunks/s)"
    )
    if embedder is not None and report.embed_seconds < 0.05:
        print(f"  {report.chunks_embedded:,} chunks embedded while parsing (in the workers)")
    elif embedder is not None:
        print(
            f"  embed {report.embed_seconds:.1f} s "
            f"({report.chunks_embedded / report.embed_seconds:,.1f} chunks/s, "
            f"{report.files_seen / report.embed_seconds:,.1f} files/s)"
        )
    print(
        f"  whole {report.total_seconds:.1f} s ({report.files_seen / report.total_seconds:,.1f} files/s, "
        f"{report.chunks_written / report.total_seconds:,.1f} chunks/s)"
    )
    unchanged = Indexer(root, store, embedder).run()
    print(f"  re-index, nothing changed: {unchanged.total_seconds * 1000:.0f} ms")
    additions = {
        ".py": "\n\ndef added_for_the_benchmark():\n    return 42\n",
        ".rs": "\n\nfn added_for_the_benchmark() -> u32 { 42 }\n",
        ".go": "\n\nfunc addedForTheBenchmark() int { return 42 }\n",
        ".ts": "\n\nexport function addedForTheBenchmark() { return 42 }\n",
    }
    sources = [root / p for p in store.paths() if Path(p).suffix in additions]
    target = max(sources, key=lambda p: p.stat().st_size)
    target.write_text(target.read_text() + additions[target.suffix])
    touched = Indexer(root, store, embedder).run()
    print(
        f"  re-index after editing one file ({target.relative_to(root)}, the largest): "
        f"{touched.total_seconds * 1000:.0f} ms ({touched.chunks_written} chunks parsed, "
        f"{touched.chunks_embedded} embedded; target <= 2 s)"
    )
    store.close()


def server_args(root: Path, db: Path, embedder: str) -> list[str]:
    return ["-m", "pramana", "serve", "code", "--repo", str(root), "--db", str(db), "--embedder", embedder]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def measure_cli(root: Path, db: Path, runs: int = 5) -> None:
    """`pramana code search` as a person runs it: a new process each time, on the warm index."""
    command = [sys.executable, "-m", "pramana", "code", "search", QUERIES[0]]
    command += ["--repo", str(root), "--db", str(db)]
    env = with_bytecode(dict(os.environ))
    subprocess.run(command, check=True, capture_output=True, env=env)  # writes the bytecode
    samples = []
    for _ in range(runs):
        begin = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True, env=env)
        samples.append((time.perf_counter() - begin) * 1000)
    median = statistics.median(samples)
    print(f"  CLI search, a new process each time: median {median:.0f} ms of {runs}; target < 1000")


def with_bytecode(env: dict[str, str]) -> dict[str, str]:
    """A server's environment as on an installed machine: its first start writes compiled bytecode
    and later starts read it (PYTHONDONTWRITEBYTECODE, set on some machines, would make every start
    compile the MCP SDK and pramana from source: about a second more here)."""
    return {k: v for k, v in env.items() if k != "PYTHONDONTWRITEBYTECODE"}


def time_to_first_answer(args: list[str], env: dict[str, str], starts: int = 3) -> tuple[float, dict]:
    """Median milliseconds from starting a server to its first search_code answer (after one
    untimed start that compiles the bytecode), and the last answer."""
    samples, answer = [], {}
    for attempt in range(starts + 1):
        started = time.perf_counter()
        client = RawStdioClient(args, env)
        answer = client.call_tool("search_code", {"query": QUERIES[0]})
        if attempt:
            samples.append((time.perf_counter() - started) * 1000)
        client.close()
    return statistics.median(samples), answer


def measure_server(root: Path, db: Path, embedder: str, calls: int) -> None:
    env = with_bytecode(dict(os.environ))
    floor, _ = time_to_first_answer([str(Path(__file__).parent / "_bare_server.py")], env)
    start, first = time_to_first_answer(server_args(root, db, embedder), env)
    print(
        f"  start to first answer: {start:.0f} ms (mode {first['structuredContent']['mode']}; target < 1 s); "
        f"the MCP SDK's own floor (a bare MCPServer, one tool): {floor:.0f} ms; medians of 3 starts"
    )
    started = time.perf_counter()
    client = RawStdioClient(server_args(root, db, embedder), env)
    while embedder != "none" and "still loading" in (
        client.call_tool("search_code", {"query": "x"})["structuredContent"].get("note") or ""
    ):
        time.sleep(0.2)
    if embedder != "none":
        print(f"  semantic model ready {time.perf_counter() - started:.1f} s after start")
    for query in QUERIES:  # warm up
        client.call_tool("search_code", {"query": query})
    samples = []
    for index in range(calls):
        begin = time.perf_counter()
        client.call_tool("search_code", {"query": QUERIES[index % len(QUERIES)], "limit": 5})
        samples.append((time.perf_counter() - begin) * 1000)
    print(
        f"  search_code over stdio (bare JSON-RPC client), limit 5: {percentiles(samples)}; target p50 <= 10"
    )
    for tool, arguments in (
        ("find_usages", {"name": "get", "limit": 10}),
        ("list_functions", {"path": "."}),
        ("search_by_type", {"type": "class", "limit": 20}),
    ):
        timed = client.timed(tool, arguments, 20)
        print(f"  {tool}: p50 {statistics.median(timed):.1f} ms")
    print(f"  server memory (RSS): {rss_mb(client._process.pid):.0f} MB")
    client.close()
    asyncio.run(measure_sdk(root, db, embedder, calls))


async def measure_sdk(root: Path, db: Path, embedder: str, calls: int) -> None:
    params = StdioServerParameters(
        command=sys.executable, args=server_args(root, db, embedder), env=with_bytecode(dict(os.environ))
    )
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        while embedder != "none":
            result = await session.call_tool("search_code", {"query": "x"})
            if "still loading" not in (result.structured_content.get("note") or ""):
                break
            await asyncio.sleep(0.2)
        await sdk_timed(session, "search_code", {"query": QUERIES[1]}, 5)
        samples, _ = await sdk_timed(session, "search_code", {"query": QUERIES[2], "limit": 5}, calls)
    print(f"  search_code over stdio (the SDK's ClientSession): {percentiles(samples)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", type=Path, action="append")
    parser.add_argument("--embedder", default="static", choices=["none", "static"])
    parser.add_argument("--calls", type=int, default=50)
    args = parser.parse_args()
    repos = args.repo or [REPO_ROOT, REPO_ROOT / "benchmarks" / ".cache" / "rich-14.3.3"]
    embedder = choose_embedder(args.embedder, None, "")
    prepare = getattr(embedder, "prepare", None)
    if prepare is not None:  # the static table: built once per data directory, then loaded
        started = time.perf_counter()
        prepare()
        print(f"{embedder.name}: table ready in {time.perf_counter() - started:.2f} s")
    for repo in repos:
        if not repo.is_dir():
            sys.exit(
                f"{repo} is missing (rich comes from: uv run python benchmarks/code_retrieval.py --only repo)"
            )
        with tempfile.TemporaryDirectory() as scratch:
            root, db = Path(scratch) / repo.name, Path(scratch) / "code.db"
            lines = copy_repository(repo, root)
            print(
                f"{repo.name}: {lines:,} lines; embedder {embedder.name if embedder else 'none (BM25 only)'}"
            )
            measure_index(root, db, embedder)
            measure_cli(root, db)
            measure_server(root, db, args.embedder, args.calls)


if __name__ == "__main__":
    main()
