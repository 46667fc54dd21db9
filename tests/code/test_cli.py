"""`pramana code …`: index with a progress bar, then ask from the shell."""

import json

import pytest
from typer.testing import CliRunner

from pramana.cli import app

runner = CliRunner()


def test_index_then_query_from_the_shell(fresh_repo, tmp_path):
    db = str(tmp_path / "code.db")
    indexed = runner.invoke(app, ["code", "index", str(fresh_repo), "--db", db, "--embedder", "none"])
    assert indexed.exit_code == 0, indexed.output
    assert "16 files (16 parsed, 0 unchanged, 0 removed) (keyword search only)" in " ".join(
        indexed.output.split()
    )
    again = runner.invoke(app, ["code", "index", str(fresh_repo), "--db", db, "--embedder", "none"])
    assert "(0 parsed, 16 unchanged" in " ".join(again.output.split())
    found = runner.invoke(app, ["code", "search", "refund a payment", "--db", db, "--json", "-n", "1"])
    assert (
        found.exit_code == 0 and json.loads(found.output)["chunks"][0]["metadata"]["name"] == "refund_payment"
    )
    usages = runner.invoke(app, ["code", "usages", "slugify", "--db", db])
    assert "packages/web/src/api.ts:13 (call in `fetchOrders`)" in usages.output
    functions = runner.invoke(app, ["code", "functions", "packages/api/shop/cart.py", "--db", db])
    assert "**Cart.total**" in functions.output
    deps = runner.invoke(app, ["code", "deps", "packages/web/src/App.tsx", "--db", db])
    assert "→ packages/web/src/api.ts" in deps.output
    explained = runner.invoke(app, ["code", "explain", "Server.Start", "--db", db])
    assert "# method Server.Start" in explained.output


def test_errors_are_one_line_without_traceback(fresh_repo, tmp_path):
    missing = runner.invoke(app, ["code", "index", str(tmp_path / "nope"), "--db", str(tmp_path / "x.db")])
    assert missing.exit_code == 2 and "repository folder not found" in missing.output
    backend = runner.invoke(app, ["code", "index", str(fresh_repo), "--backend", "oracle"])
    assert backend.exit_code == 2 and "backend" in backend.output
    empty = runner.invoke(
        app, ["code", "search", "cart", "--db", str(tmp_path / "empty.db"), "--repo", str(fresh_repo)]
    )
    assert empty.exit_code == 2 and "pramana code index" in empty.output
    assert "Traceback" not in missing.output + backend.output + empty.output


@pytest.mark.slow  # starts a process
def test_index_in_a_process_of_its_own_leaves_the_file_whole(fresh_repo, tmp_path):
    """The command closes its index before the exit (which skips the collector's passes): the log is
    copied into the file and removed, not left for the next process to recover."""
    import os
    import subprocess
    import sys

    db = tmp_path / "code.db"
    env = {**os.environ, "PRAMANA_DATA_DIR": str(tmp_path / "data")}
    command = [sys.executable, "-m", "pramana", "code", "index", str(fresh_repo), "--db", str(db)]
    done = subprocess.run([*command, "--embedder", "none"], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert db.is_file() and not db.with_name("code.db-wal").exists()
    found = runner.invoke(app, ["code", "search", "refund a payment", "--db", str(db), "--json", "-n", "1"])
    assert json.loads(found.output)["chunks"][0]["metadata"]["name"] == "refund_payment"
