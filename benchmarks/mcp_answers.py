"""The JSON-RPC lines a stdio server writes, byte for byte, for this checkout and another one (main): a
change to the MCP layer (pramana.mcp, every server's) must leave every answer as it was.

For every token of the DCS sets (benchmarks/data/sanskrit_dcs_*.tsv) the sanskrit server is asked
`sanskrit_analyze_word`, `sanskrit_transliterate` and, for a sample, a call with an argument its schema
refuses; `initialize` and `tools/list` are compared too. Both servers get the same requests in the same
order (the same ids); the lines are compared as bytes.

    uv run python benchmarks/mcp_answers.py --db /tmp/s.db --baseline-src /tmp/main-checkout/src \\
        [--set heldout2 ...] [--limit N]

Prints the count of lines compared and each difference (the first 3 in full); exits 1 if any differ.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from sanskrit_answers import SETS, set_words

PROTOCOL = "2025-06-18"
CLIENT = {"name": "mcp-answers", "version": "0"}


def requests(words: list[str]) -> list[dict]:
    """Every request, ids in order: the handshake, the tool list, then each word's calls."""
    asked: list[dict] = [
        {"method": "initialize", "params": {
            "protocolVersion": PROTOCOL, "capabilities": {}, "clientInfo": CLIENT,
        }},
        {"method": "notifications/initialized"},
        {"method": "tools/list", "params": {}},
    ]  # fmt: skip
    for index, word in enumerate(words):
        asked.append(
            {"method": "tools/call", "params": {"name": "sanskrit_analyze_word", "arguments": {"word": word}}}
        )
        asked.append({"method": "tools/call", "params": {
            "name": "sanskrit_transliterate", "arguments": {"text": word, "target": "devanagari"},
        }})  # fmt: skip
        if index % 50 == 0:  # refused by the argument schema, an unknown tool: the error paths
            asked.append(
                {
                    "method": "tools/call",
                    "params": {"name": "sanskrit_analyze_word", "arguments": {"word": 7}},
                }
            )
            asked.append({"method": "tools/call", "params": {"name": "no_such_tool", "arguments": {}}})
    numbered, next_id = [], 0
    for request in asked:
        message = {"jsonrpc": "2.0", **request}
        if not request["method"].startswith("notifications/"):
            next_id += 1
            message["id"] = next_id
        numbered.append(message)
    return numbered


def answers(db: Path, messages: list[dict], source: Path | None) -> list[bytes]:
    """The lines the server writes, one per request with an id, as bytes."""
    env = {**os.environ, "SANSKRIT_DB_PATH": str(db)}
    if source is not None:
        env["PYTHONPATH"] = str(source)
    server = subprocess.Popen(
        [sys.executable, "-m", "pramana", "serve", "sanskrit"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env,
    )  # fmt: skip
    assert server.stdin is not None and server.stdout is not None
    lines: list[bytes] = []
    try:
        for message in messages:
            server.stdin.write(json.dumps(message, ensure_ascii=False).encode() + b"\n")
            server.stdin.flush()
            if "id" in message:  # one answer each, in order: the next request waits for it
                lines.append(server.stdout.readline())
    finally:
        server.stdin.close()
        server.wait(timeout=30)
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--db", type=Path, required=True, help="a sanskrit database (read only)")
    parser.add_argument("--baseline-src", type=Path, required=True, help="the other checkout's src/")
    parser.add_argument("--set", action="append", dest="sets", help=f"DCS sets (default: {', '.join(SETS)})")
    parser.add_argument("--limit", type=int, default=0, help="only the first N words")
    args = parser.parse_args()
    words = set_words(tuple(args.sets) if args.sets else SETS)
    if args.limit:
        words = words[: args.limit]
    messages = requests(words)
    before = answers(args.db, messages, args.baseline_src)
    after = answers(args.db, messages, None)
    asked = [message for message in messages if "id" in message]
    differ = [index for index, (old, new) in enumerate(zip(before, after, strict=True)) if old != new]
    print(f"{len(words)} words, {len(before)} JSON-RPC answers compared byte for byte"
          f" ({sum(map(len, after)):,} bytes): {len(differ)} differ")  # fmt: skip
    for shown, index in enumerate(differ):
        print(f"  {json.dumps(asked[index]['params'], ensure_ascii=False)[:200]}")
        if shown < 3:
            print(f"    before: {before[index][:600]!r}\n    after:  {after[index][:600]!r}")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
