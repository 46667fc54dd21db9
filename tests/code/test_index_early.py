"""`pramana code index PATH` starts its first parse worker before the CLI loads, for a new index only."""

from __future__ import annotations

from pathlib import Path

import pytest

from pramana.code.index import early
from pramana.code.index import workers as workers_module
from pramana.locations import default_code_db


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["code", "index", "repo"], ("repo", None)),
        (["code", "index", "repo", "--db", "x.db"], ("repo", "x.db")),
        (["code", "index", "--db=x.db", "--embedder", "static", "repo"], ("repo", "x.db")),
        (["code", "index", "--backend", "sqlite", "repo"], ("repo", None)),
        (["code", "index"], None),  # no repository: the CLI says what is missing
        (["code", "index", "repo", "--db"], None),
        (["code", "index", "repo", "--help"], None),
        (["code", "index", "repo", "--unknown", "1"], None),
        (["code", "index", "a", "b"], None),
        (["code", "search", "repo"], None),
        (["gita", "index", "repo"], None),
        ([], None),
    ],
)
def test_the_command_line_read_before_the_cli_loads(argv, expected):
    found = early._index_arguments(argv)
    assert (None if found is None else (str(found[0]), found[1])) == expected


@pytest.fixture
def started(monkeypatch) -> list[Path]:  # type: ignore[no-untyped-def]
    roots: list[Path] = []
    monkeypatch.setattr(workers_module, "start_worker_early", lambda root, static_table: roots.append(root))
    return roots


def test_a_worker_starts_early_only_for_a_repository_without_an_index(tmp_path, monkeypatch, started):
    monkeypatch.setenv("PRAMANA_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("PRAMANA_CODE_DB", raising=False)
    repo = tmp_path / "repo"
    repo.mkdir()
    early.start_for_command(["code", "index", str(repo)])
    assert started == [repo.resolve()]
    index = default_code_db(repo)  # the index the settings would choose exists: an incremental run
    index.parent.mkdir(parents=True)
    index.write_bytes(b"")
    early.start_for_command(["code", "index", str(repo)])
    assert started == [repo.resolve()]
    early.start_for_command(["code", "index", str(repo), "--db", str(tmp_path / "new.db")])
    assert len(started) == 2  # --db names a file that is not there yet
    monkeypatch.setenv("PRAMANA_CODE_DB", str(index))
    early.start_for_command(["code", "index", str(repo)])
    assert len(started) == 2  # $PRAMANA_CODE_DB names the existing one
    early.start_for_command(["code", "index", str(tmp_path / "missing")])
    early.start_for_command(["code", "search", str(repo)])
    assert len(started) == 2


@pytest.mark.slow  # starts a worker process
def test_a_worker_the_guess_started_for_an_existing_index_is_ended(tmp_path, monkeypatch):
    from pramana.code.data import install
    from pramana.config import CodeSettings
    from pramana.servers import Source

    monkeypatch.setattr(workers_module, "cpus", lambda: 2)
    monkeypatch.delenv(workers_module.WORKERS_ENV, raising=False)
    monkeypatch.setattr(workers_module, "holds_at_least", lambda root, files, size: True)
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "a.py").write_text("def a():\n    return 1\n", encoding="utf-8")
    settings = CodeSettings.load(repo=repo, db_path=tmp_path / "index.db", embedder="none")
    install(settings, Source(str(repo)), lambda *_: None)  # the index exists from here on
    workers_module.start_worker_early(repo, static_table=False)  # as a wrong guess would
    (worker,) = workers_module._early
    from pramana.code import runtime

    real_run, early_at_index = runtime.run_index, []

    def recording(*args, **kwargs):  # type: ignore[no-untyped-def]
        early_at_index.extend(workers_module._early)
        return real_run(*args, **kwargs)

    monkeypatch.setattr(runtime, "run_index", recording)
    install(settings, Source(str(repo)), lambda *_: None)
    assert early_at_index == []  # ended before the index ran: its parses would be of no use to it
    assert workers_module._early == [] and worker.wait(timeout=10) is not None


_COLLECTOR_PROBE = """
import gc, sys
import pramana.code.runtime as runtime
def run_index(*args, **kwargs):  # where the index would begin: what the collector does then
    print("at the index:", gc.isenabled(), gc.get_freeze_count() > 0)
    raise SystemExit(0)
runtime.run_index = run_index
sys.argv = ["pramana", *sys.argv[1:]]
from pramana.code.index import early
early.start_for_command = lambda argv: None  # no worker: this is about the indexing process
from pramana.entry import main
import pramana.cli
pramana.cli.app_for = lambda argv, app_for=pramana.cli.app_for: (
    print("loading:", gc.isenabled()) or app_for(argv)
)
main()
"""


@pytest.mark.parametrize("command", ["code index", "code search"])
def test_the_collector_rests_while_code_index_loads_and_runs_once_it_indexes(tmp_path, command):
    import os
    import subprocess
    import sys

    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "a.py").write_text("def a():\n    return 1\n", encoding="utf-8")
    argv = [*command.split(), str(repo) if command == "code index" else "a", "--db", str(tmp_path / "i.db")]
    env = {**os.environ, "PRAMANA_DATA_DIR": str(tmp_path / "data"), "PRAMANA_CODE_INDEX_WORKERS": "0"}
    found = subprocess.run(
        [sys.executable, "-c", _COLLECTOR_PROBE, *argv], capture_output=True, text=True, env=env
    ).stdout.splitlines()
    if command == "code index":  # off while it loads; once it indexes, on, with what it loaded frozen
        assert found == ["loading: False", "at the index: True True"]
    else:  # any other command: the collector as the interpreter set it
        assert found[0] == "loading: True"


def test_collections_are_resumed_only_where_they_were_held():
    import gc

    early.resume_collections()  # nothing held (this process is a test's): nothing frozen, nothing turned on
    assert gc.isenabled() and not early._holding
    early.hold_collections(["code", "search", "x"])
    assert gc.isenabled() and not early._holding


_WORKER_PROBE = """
import gc
gc.disable()  # as the worker's command line does
from pramana.code.index import prepare
def serving(stdin, stdout, arguments):
    print(gc.isenabled(), gc.get_threshold()[0], gc.get_freeze_count() > 0)
prepare._serve = serving
prepare.serve()
"""


def test_a_worker_collects_as_seldom_as_the_indexing_process():
    import subprocess
    import sys

    from pramana import work

    assert "gc.disable()" in workers_module.COMMAND[-1]  # off while the worker loads
    found = subprocess.run([sys.executable, "-c", _WORKER_PROBE], capture_output=True, text=True, input="")
    assert found.stderr.split() == ["True", str(work.FEWER_COLLECTIONS_YOUNG), "True"]
