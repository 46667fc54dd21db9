"""Compatibility entry point: `vedabase-mcp` and `python -m vedabase_mcp` start pramana's gita server."""

from pramana.gita.tools import main

__all__ = ["main"]
