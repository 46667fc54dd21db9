"""Build the term indexes of a gita cache (the Gītā's, the installed books') and save them beside the
cache, in a process of its own.

A server's background thread runs `python -m pramana.gita.build_terms DB` after a seed: building the
index is seconds of pure Python over the commentaries, which in the server's own process would hold
the interpreter lock against the searches it answers meanwhile (on a busy machine, past a call's
deadline). This process runs at a lower priority, saves `<cache>.terms.npz` (and `<cache>.book-terms.npz`)
and exits; the server loads the files in a fraction of a second.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from pathlib import Path

NICENESS = 10
TIMEOUT_S = 600.0


def main(argv: list[str] | None = None) -> int:
    from pramana.config import GitaSettings
    from pramana.gita.service import GitaService

    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m pramana.gita.build_terms CACHE_DB", file=sys.stderr)
        return 2
    with contextlib.suppress(AttributeError, OSError):  # Windows, or not permitted: the usual priority
        os.nice(NICENESS)
    service = GitaService(GitaSettings.load(db_path=Path(args[0])), embedder_factory=lambda: None)
    try:
        if service.store.verse_count():
            service.terms()
        service.book_terms()
    finally:
        service.close()
    return 0


def build_in_subprocess(db_path: Path) -> None:
    """Run main() for `db_path` in a new process and wait for it; raises with its last error line."""
    done = subprocess.run(
        [sys.executable, "-m", "pramana.gita.build_terms", str(db_path)],
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        check=False,
    )
    if done.returncode != 0:
        lines = (done.stderr or "").strip().splitlines()
        raise RuntimeError(f"building the term index failed: {lines[-1] if lines else done.returncode}")


if __name__ == "__main__":
    sys.exit(main())
