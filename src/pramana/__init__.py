"""pramana: grounded-lookup MCP servers."""

import os

# numpy's OpenBLAS runs a thread per CPU. A search's matrix-vector product is too small to gain
# from them, and between products they spin, taking the CPU the request needs (a 7.5k-chunk
# search went from 1.2 to 6.8 ms on two busy cores). One thread, unless the user chose otherwise;
# this only takes effect if numpy was not imported before pramana.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

__version__ = "0.1.0"
# The name on PyPI (`pramana` there is an unrelated project); the command and the import stay `pramana`.
DISTRIBUTION = "pramana-lookup"


def install_extra_hint(extra: str) -> str:
    """The command that adds one of pramana's optional extras, as pramana was installed here."""
    from pramana.install import extra_command

    return extra_command(extra)
