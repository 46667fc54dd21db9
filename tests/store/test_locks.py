"""Concurrent writers wait for each other cleanly: a second index run of one database waits, says so
in one line, then finds the work done; never a "database is locked" traceback."""

from __future__ import annotations

import logging
import subprocess
import sys
import threading

from pramana.store.locks import exclusive, lock_file
from tests.conftest import run_pramana


class _Said(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.waiting = threading.Event()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())
        self.waiting.set()


def test_a_second_holder_waits_for_the_first(tmp_path):
    said = _Said()
    logger = logging.getLogger("pramana.store.locks")
    logger.addHandler(said)
    order: list[str] = []
    target = tmp_path / "index.db"

    def second() -> None:
        with exclusive(lock_file(target), "indexing into index.db"):
            order.append("second")

    try:
        with exclusive(lock_file(target), "indexing into index.db"):
            waiter = threading.Thread(target=second)
            waiter.start()
            assert said.waiting.wait(30), "the second holder did not say it waits"
            order.append("first")
        waiter.join(30)
    finally:
        logger.removeHandler(said)
    assert order == ["first", "second"]
    assert said.lines == ["indexing into index.db: waiting for another pramana process writing it to finish"]


def test_a_second_code_index_of_one_database_waits_then_finds_the_files_indexed(tmp_path):
    repo = tmp_path / "shop"
    repo.mkdir()
    (repo / "cart.py").write_text("def cart_total(prices):\n    return sum(prices)\n")
    (repo / "tax.py").write_text("def with_tax(amount, rate):\n    return amount * (1 + rate)\n")
    db = tmp_path / "data" / "shop.db"
    index = [sys.executable, "-m", "pramana", "code", "index", str(repo), "--db", str(db)]
    index += ["--embedder", "none"]
    with exclusive(lock_file(db), "a test holding the index"):
        waiting = subprocess.Popen(index, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert waiting.stderr is not None
        first = waiting.stderr.readline()  # blocks until the command says something
        assert first == "indexing into shop.db: waiting for another pramana process writing it to finish\n"
        assert waiting.poll() is None  # still waiting: nothing indexed while the lock is held
    out, rest = waiting.communicate(timeout=120)
    assert waiting.returncode == 0, rest
    assert "2 files (2 parsed" in " ".join(out.split())
    again = run_pramana("code", "index", str(repo), "--db", str(db), "--embedder", "none")
    assert again.returncode == 0 and "2 unchanged" in " ".join(again.stdout.split()), again.stderr
