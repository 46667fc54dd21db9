"""What one MCP call over stdio costs before any tool does any work: a bare MCP SDK server (one sync tool
that echoes its argument) on the SDK's stdio transport and on pramana's (pramana.mcp.stdio), and a pramana
server's cheapest tool (`sanskrit_transliterate`, no database), in turns, with the load average and the
server's CPU a call (all its threads: what a busy machine does not inflate as it does the wall time).

    uv run python benchmarks/mcp_floor.py [--calls 1000] [--rounds 2] [--baseline-src /tmp/main-checkout/src]

`--baseline-src`: also the pramana server run from another checkout's src (before/after, in turns).
"""

from __future__ import annotations

import argparse
import os
import statistics
import textwrap
from pathlib import Path

from _common import RawStdioClient, process_cpu_ms

BARE = textwrap.dedent(
    """
    import sys
    from mcp.server.mcpserver import MCPServer

    server = MCPServer(name="bare", log_level="WARNING")

    @server.tool()
    def echo(word: str) -> str:
        return word

    if sys.argv[1:] == ["pramana"]:
        from pramana.mcp.stdio import run_stdio

        run_stdio(server)
    else:
        server.run()
    """
)


def _thread_cpu_ms(pid: int, tid: int) -> float:
    """CPU time one thread of a process has run, to the nanosecond (Linux; 0 elsewhere)."""
    try:
        return int(Path(f"/proc/{pid}/task/{tid}/schedstat").read_text().split()[0]) / 1e6
    except (OSError, ValueError, IndexError):
        return 0.0


def _timed(label: str, args: list[str], tool: str, arguments: dict, calls: int, env: dict[str, str]) -> None:
    client = RawStdioClient(args, env)
    try:
        client.timed(tool, arguments, 20)  # imports, first-call paths
        pid = client._process.pid
        samples, cpu = [], []
        loop_before = _thread_cpu_ms(pid, pid)
        for _ in range(calls):
            before = process_cpu_ms(pid)
            samples += client.timed(tool, arguments, 1)
            cpu.append(process_cpu_ms(pid) - before)
        loop = (_thread_cpu_ms(pid, pid) - loop_before) / calls
        samples.sort()
    finally:
        client.close()
    p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))]
    print(f"  {label:<44} p50 {statistics.median(samples):.2f} ms, p99 {p99:.2f} ms;"
          f" the server's CPU a call p50 {statistics.median(cpu) * 1000:.0f} us,"
          f" its event loop's (main thread) mean {loop * 1000:.0f} us;"
          f" load average {os.getloadavg()[0]:.2f}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--baseline-src", type=Path)
    args = parser.parse_args()
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    transliterate = {"text": "rAmeRa", "source": "slp1", "target": "iast"}
    for round_ in range(args.rounds):
        print(f"round {round_ + 1}:")
        _timed("bare SDK server, SDK stdio transport", ["-c", BARE], "echo", {"word": "x"}, args.calls, env)
        _timed("bare SDK server, pramana's stdio transport", ["-c", BARE, "pramana"], "echo", {"word": "x"},
               args.calls, env)  # fmt: skip
        if args.baseline_src:
            baseline = {**env, "PYTHONPATH": str(args.baseline_src)}
            _timed("baseline: pramana sanskrit_transliterate", ["-m", "pramana", "serve", "sanskrit"],
                   "sanskrit_transliterate", transliterate, args.calls, baseline)  # fmt: skip
        _timed("pramana sanskrit_transliterate", ["-m", "pramana", "serve", "sanskrit"],
               "sanskrit_transliterate", transliterate, args.calls, env)  # fmt: skip


if __name__ == "__main__":
    main()
