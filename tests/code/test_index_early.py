"""`pramana code index PATH` starts its first parse worker before the CLI loads, for a new index only."""

from __future__ import annotations

from pathlib import Path

import pytest

from pramana.code.index import early
from pramana.code.index import prepare as prepare_module
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
    monkeypatch.setattr(prepare_module, "start_worker_early", lambda root, static_table: roots.append(root))
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

    monkeypatch.setattr(prepare_module, "_cpus", lambda: 2)
    monkeypatch.delenv(prepare_module.WORKERS_ENV, raising=False)
    monkeypatch.setattr(prepare_module, "holds_at_least", lambda root, files, size: True)
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "a.py").write_text("def a():\n    return 1\n", encoding="utf-8")
    settings = CodeSettings.load(repo=repo, db_path=tmp_path / "index.db", embedder="none")
    install(settings, Source(str(repo)), lambda *_: None)  # the index exists from here on
    prepare_module.start_worker_early(repo, static_table=False)  # as a wrong guess would
    (worker,) = prepare_module._early
    from pramana.code import runtime

    real_run, early_at_index = runtime.run_index, []

    def recording(*args, **kwargs):  # type: ignore[no-untyped-def]
        early_at_index.extend(prepare_module._early)
        return real_run(*args, **kwargs)

    monkeypatch.setattr(runtime, "run_index", recording)
    install(settings, Source(str(repo)), lambda *_: None)
    assert early_at_index == []  # ended before the index ran: its parses would be of no use to it
    assert prepare_module._early == [] and worker.wait(timeout=10) is not None
