"""Compatibility entry point: `vedabase-mcp` and `python -m vedabase_mcp` start pramana's gita server.

Arguments are read here, before the server's modules load, so `--help` answers at once.
"""

from __future__ import annotations

import sys

USAGE = """usage: vedabase-mcp [--help] [--version]

The gita server of pramana (the vedabase-mcp spec's five tools, and correct_transcript) on stdio,
for an MCP client to start: Claude Desktop, Claude Code, VS Code, Cursor, Windsurf. `python -m
vedabase_mcp` is the same. Settings come from the environment: VEDABASE_DB_PATH (the cache),
VEDABASE_API_URL (where verses come from), PRAMANA_DATA_DIR.

  pramana config CLIENT gita   prints a client's configuration for it, with absolute paths
  pramana gita --help          the same tools from the shell
"""


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] in ("-h", "--help"):
        sys.stdout.write(USAGE)
        return
    if args and args[0] == "--version":
        from pramana import __version__

        sys.stdout.write(f"vedabase-mcp (pramana {__version__})\n")
        return
    if args:
        sys.stderr.write(f"vedabase-mcp: unknown argument {args[0]!r}\n{USAGE}")
        sys.exit(2)
    from pramana.gita.tools import main as serve

    serve()
