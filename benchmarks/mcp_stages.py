"""Where one `sanskrit_analyze_word` call over stdio spends its time, stage by stage: a server with timers
(time.perf_counter_ns) wrapped around the SDK's and pramana's stages answers every token of a DCS set once;
medians and means per stage, and the event loop's (main thread's) CPU a call. For this checkout and,
with --baseline-src, another one (main), in turns.

    uv run python benchmarks/mcp_stages.py --db /tmp/s.db [--set heldout2] [--rounds 2] \\
        [--baseline-src /tmp/main-checkout/src]

The timers wrap functions by name, the SDK's internal ones included (measurement only: the product uses the
SDK's public API); a stage the installed SDK no longer has is reported as missing, not guessed.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

STAGES_ENV = "PRAMANA_STAGES_OUT"


def _instrumented_server() -> None:  # runs in the server process
    import atexit
    import inspect

    import mcp_types
    from mcp.server import runner
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.utilities import func_metadata

    import pramana.mcp.calls as calls
    import pramana.mcp.stdio as pstdio

    timings: dict[str, list[int]] = defaultdict(list)
    now = time.perf_counter_ns
    marks: dict[str, int] = {}
    loop_cpu: list[int] = []

    def wrap(owner: object, name: str, label: str) -> None:
        original = getattr(owner, name, None)
        if original is None:
            timings[f"{label} (missing)"] = []
            return
        if inspect.iscoroutinefunction(original):

            async def timed_async(*args: object, **kwargs: object) -> object:
                started = now()
                try:
                    return await original(*args, **kwargs)
                finally:
                    timings[label].append(now() - started)

            setattr(owner, name, timed_async)
        else:

            def timed(*args: object, **kwargs: object) -> object:
                started = now()
                try:
                    return original(*args, **kwargs)
                finally:
                    timings[label].append(now() - started)

            setattr(owner, name, timed)

    adapter = mcp_types.jsonrpc_message_adapter

    class Parsing:
        def validate_json(self, *args: object, **kwargs: object) -> object:
            started = now()
            try:
                return adapter.validate_json(*args, **kwargs)
            finally:
                timings["1 read line: JSON-RPC parsed and validated"].append(now() - started)

        def __getattr__(self, name: str) -> object:
            return getattr(adapter, name)

    mcp_types.jsonrpc_message_adapter = Parsing()  # type: ignore[assignment]
    wrap(func_metadata.FuncMetadata, "validate_arguments", "2 the tool's argument model")
    wrap(MCPServer, "_handle_call_tool", "3 the SDK's tool call (Context, arguments, the call)")
    run, work = calls._run, calls._work

    async def timed_run(*args: object, **kwargs: object) -> object:
        loop_cpu.append(time.thread_time_ns())
        marks["start"] = now()
        result = await run(*args, **kwargs)
        timings["4c hop back: the thread's end to the loop resuming"].append(now() - marks["end"])
        return result

    def timed_work(*args: object, **kwargs: object) -> object:
        timings["4a hop out: the loop to the worker thread starting"].append(now() - marks["start"])
        started, cpu = now(), time.thread_time_ns()
        try:
            return work(*args, **kwargs)
        finally:
            marks["end"] = now()
            timings["4b the tool in its thread (wall)"].append(marks["end"] - started)
            timings["4b the tool in its thread (CPU)"].append(time.thread_time_ns() - cpu)

    calls._run, calls._work = timed_run, timed_work  # type: ignore[assignment]
    wrap(runner.ServerRunner, "_serialize", "5 the result dumped and checked against the wire schema")
    wrap(mcp_types.JSONRPCResponse, "model_dump_json", "6 the response serialised")
    wrap(pstdio._Writer, "flush", "7 written to the pipe")

    def report() -> None:
        lines = [f"{label}\t{json.dumps(values)}" for label, values in sorted(timings.items())]
        calls_timed = max(1, len(loop_cpu) - 2)
        lines.append(
            f"loop CPU\t{json.dumps([(loop_cpu[-1] - loop_cpu[1]) / calls_timed if loop_cpu else 0])}"
        )
        Path(os.environ[STAGES_ENV]).write_text("\n".join(lines) + "\n")

    atexit.register(report)
    from pramana.cli import app

    sys.argv = ["pramana", "serve", "sanskrit"]
    app()


def _turn(db: Path, words: list[str], source: Path | None, out: Path) -> float:
    env = {**os.environ, "SANSKRIT_DB_PATH": str(db), STAGES_ENV: str(out)}
    if source is not None:
        env["PYTHONPATH"] = f"{source}{os.pathsep}{Path(__file__).parent}"
    server = subprocess.Popen(
        [sys.executable, __file__, "--serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL, env=env, text=True, encoding="utf-8", bufsize=1,
    )  # fmt: skip
    assert server.stdin is not None and server.stdout is not None

    def ask(index: int, method: str, params: dict) -> None:
        server.stdin.write(
            json.dumps({"jsonrpc": "2.0", "id": index, "method": method, "params": params}) + "\n"
        )
        server.stdin.flush()
        while json.loads(server.stdout.readline()).get("id") != index:
            pass

    ask(
        0,
        "initialize",
        {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "s", "version": "0"}},
    )
    server.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n")
    ask(
        1, "tools/call", {"name": "sanskrit_analyze_word", "arguments": {"word": "rāmaḥ"}}
    )  # open the database
    started = time.perf_counter()
    for index, word in enumerate(words):
        ask(index + 2, "tools/call", {"name": "sanskrit_analyze_word", "arguments": {"word": word}})
    wall = (time.perf_counter() - started) / len(words) * 1000
    server.stdin.close()
    server.wait(timeout=30)
    return wall


def _print(label: str, out: Path, wall: float) -> None:
    print(f"{label}: wall {wall:.2f} ms a call (mean); load average {os.getloadavg()[0]:.2f}")
    for line in out.read_text("utf-8").splitlines():
        name, values = line.split("\t")
        numbers = json.loads(values)
        if name == "loop CPU":
            print(f"  the event loop's CPU a call (mean, main thread)          {numbers[0] / 1000:8.1f} us")
        elif numbers:
            median, mean = statistics.median(numbers) / 1000, statistics.mean(numbers) / 1000
            print(f"  {name:56} p50 {median:8.1f} us, mean {mean:8.1f}")
        else:
            print(f"  {name}")


def main() -> None:
    if sys.argv[1:] == ["--serve"]:
        _instrumented_server()
        return
    from sanskrit_text import read_set

    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--set", default="heldout2")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--baseline-src", type=Path)
    args = parser.parse_args()
    words = list(dict.fromkeys(token.text for token in read_set(args.set)))  # each once: none remembered
    out = Path(f"/tmp/mcp_stages_{os.getpid()}.tsv")
    for round_ in range(args.rounds):
        print(f"round {round_ + 1}, {len(words)} words of {args.set}:")
        if args.baseline_src:
            _print("baseline", out, _turn(args.db, words, args.baseline_src, out))
        _print("this", out, _turn(args.db, words, None, out))
    out.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
