"""The `pramana` command as installed (the console script) and as `python -m pramana`.

`pramana code index PATH` for a new index starts its first parse worker here, before the CLI and
its imports load (code/index/early.py says why); then the CLI runs. Only the command line decides:
importing pramana.cli starts nothing.
"""

from __future__ import annotations

import sys


def main() -> None:
    """Run the `pramana` command line."""
    from pramana.code.index.early import end_without_teardown, hold_collections, start_for_command

    hold_collections(sys.argv[1:])  # no collector's passes while `code index` loads
    start_for_command(sys.argv[1:])  # a new index's parse worker starts before the CLI's imports load
    from pramana.cli import app_for

    try:
        app_for(sys.argv[1:])(prog_name="pramana")
    except SystemExit as exc:  # how the command line ends, whether it succeeded or not
        end_without_teardown(sys.argv[1:], exc.code)  # `code index`: ends the process here
        raise
