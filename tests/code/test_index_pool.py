"""Who parses during an index: the parse workers, the indexing process beside them (the CLI), a
worker started before the indexing process has loaded the rest of itself (a new index)."""

from __future__ import annotations

import threading
from pathlib import Path
from types import SimpleNamespace

import pytest

from pramana.code.index import prepare as prepare_module
from pramana.code.index import workers as workers_module
from pramana.code.index.indexer import Indexer
from pramana.code.index.prepare import _Pool, prepare_files, worker_count
from pramana.code.index.skipped import holds_at_least
from pramana.code.index.walk import walk_repository
from pramana.code.index.workers import end_early_worker, start_worker_early
from pramana.code.store import CodeStore
from tests.code.test_bulk_index import snapshot, write_generated_repo


def _waiting_worker(flag: Path) -> tuple[str, ...]:
    """A worker that answers nothing before `flag` exists (at most 30 s)."""
    wait = (
        f"import os, time\nfor _ in range(3000):\n    if os.path.exists({str(flag)!r}): break\n"
        "    time.sleep(0.01)\n"
    )
    return ("-P", "-c", wait + "from pramana.code.index.prepare import serve\nserve()")


@pytest.fixture(scope="module")
def repo(tmp_path_factory) -> Path:
    return write_generated_repo(tmp_path_factory.mktemp("pool") / "repo", files=70)


def _parsed_here(monkeypatch, flag: Path | None = None) -> list[int]:  # type: ignore[no-untyped-def]
    """Records how many files each task done in this process held (and makes `flag` after one)."""
    done: list[int] = []
    real = prepare_module._prepare_task

    def recording(root, task, embedder=None):  # type: ignore[no-untyped-def]
        done.append(len(task))
        if flag is not None:
            flag.touch()
        return real(root, task, embedder)

    monkeypatch.setattr(prepare_module, "_prepare_task", recording)
    return done


def _watch_answers(monkeypatch, seen) -> None:  # type: ignore[no-untyped-def]
    """Shows `seen` each answer a worker's reader thread puts in its pool's queue, before it goes in."""
    real_read = _Pool._read

    def reading(self, index, process):  # type: ignore[no-untyped-def]
        def put(answer):  # type: ignore[no-untyped-def]
            seen(answer)
            pool.answers.put(answer)

        class Watched:  # the pool, its answers shown on their way
            answers = SimpleNamespace(put=put)

            def __getattr__(self, name):  # type: ignore[no-untyped-def]
                return getattr(pool, name)

        pool = self
        real_read(Watched(), index, process)

    monkeypatch.setattr(_Pool, "_read", reading)


@pytest.mark.slow  # starts worker processes
def test_the_indexing_process_parses_while_no_worker_has_answered(repo, tmp_path, monkeypatch):
    flag = tmp_path / "parsed-here"  # the worker answers once this process has done a task itself
    monkeypatch.setattr(workers_module, "COMMAND", _waiting_worker(flag))
    done = _parsed_here(monkeypatch, flag)
    store = CodeStore(tmp_path / "code.db")
    report = Indexer(repo, store, workers=1).run()
    assert report.files_parsed == 70 and not report.errors
    assert done, "nothing was parsed here while the worker was starting"
    reference = CodeStore(tmp_path / "reference.db")
    Indexer(repo, reference, workers=0).run()
    assert snapshot(store) == snapshot(reference)  # the same rows, whoever parsed them


@pytest.mark.slow  # starts worker processes
def test_a_background_index_leaves_the_parsing_to_its_workers(repo, tmp_path, monkeypatch):
    done = _parsed_here(monkeypatch)  # the worker answers at once: any task done here was taken
    store = CodeStore(tmp_path / "code.db")
    reports = []
    thread = threading.Thread(target=lambda: reports.append(Indexer(repo, store, workers=1).run()))
    thread.start()
    thread.join()
    assert reports and reports[0].files_parsed == 70 and not reports[0].errors
    assert done == []  # a server's threads keep the interpreter: only the worker parsed


def test_one_worker_fewer_than_the_cpus_when_the_indexing_process_parses_too(repo, monkeypatch):
    monkeypatch.setattr(workers_module, "cpus", lambda: 4)
    monkeypatch.setattr(prepare_module, "POOL_MIN_BYTES", 0)
    files = [(file, None) for file in walk_repository(repo)]
    assert worker_count(files, parses_here=True) == 3
    assert worker_count(files, parses_here=False) == 4
    monkeypatch.setattr(workers_module, "cpus", lambda: 1)
    assert worker_count(files, parses_here=True) == worker_count(files, parses_here=False) == 0
    assert worker_count(files, 2, parses_here=True) == 2  # a count asked for is the count


@pytest.mark.slow  # starts worker processes
def test_a_worker_started_early_is_the_one_the_index_uses(repo, monkeypatch):
    monkeypatch.setattr(workers_module, "cpus", lambda: 2)
    monkeypatch.delenv(workers_module.WORKERS_ENV, raising=False)
    monkeypatch.setattr(
        workers_module, "holds_at_least", lambda root, files, size: True
    )  # enough, as if large
    start_worker_early(repo, static_table=False)
    early = list(workers_module._early)
    assert len(early) == 1 and early[0].poll() is None
    used = []
    real = _Pool.__init__

    def recording(self, count, static_table=False):  # type: ignore[no-untyped-def]
        real(self, count, static_table)
        used.extend(self.processes)

    monkeypatch.setattr(_Pool, "__init__", recording)
    files = [(file, None) for file in walk_repository(repo)]
    outcomes = list(prepare_files(repo, files, workers=1))
    assert [o.file.path for o in outcomes] == [f.path for f, _ in files]
    assert all(o.prepared is not None for o in outcomes)
    assert used == early and workers_module._early == []
    assert early[0].wait(timeout=10) == 0  # it ended with its input


@pytest.mark.slow  # starts worker processes
def test_a_worker_started_early_for_too_little_work_is_ended(tmp_path, monkeypatch):
    monkeypatch.setattr(workers_module, "cpus", lambda: 2)
    monkeypatch.delenv(workers_module.WORKERS_ENV, raising=False)
    monkeypatch.setattr(workers_module, "holds_at_least", lambda root, files, size: True)  # a wrong guess
    small = tmp_path / "small"
    small.mkdir()
    for n in range(3):
        (small / f"m{n}.py").write_text(f"def f{n}():\n    return {n}\n", encoding="utf-8")
    start_worker_early(small, static_table=False)
    (early,) = workers_module._early
    files = [(file, None) for file in walk_repository(small)]
    assert len(list(prepare_files(small, files))) == len(files)  # parsed here: no pool for 3 files
    assert workers_module._early == [] and early.poll() is not None


def test_no_worker_starts_early_where_no_pool_would(repo, tmp_path, monkeypatch):
    monkeypatch.setenv(workers_module.WORKERS_ENV, "0")
    start_worker_early(repo, static_table=True)
    assert workers_module._early == []
    monkeypatch.delenv(workers_module.WORKERS_ENV)
    monkeypatch.setattr(workers_module, "cpus", lambda: 1)
    start_worker_early(repo, static_table=True)
    assert workers_module._early == []
    monkeypatch.setattr(workers_module, "cpus", lambda: 2)
    small = tmp_path / "small"
    (small / "node_modules").mkdir(parents=True)
    (small / "node_modules" / "big.js").write_text("x" * 600_000, encoding="utf-8")  # not walked
    (small / "a.py").write_text("x = 1\n", encoding="utf-8")
    start_worker_early(small, static_table=True)
    assert workers_module._early == []
    end_early_worker()


def test_the_size_guess_stops_once_it_has_enough(tmp_path):
    (tmp_path / "src").mkdir()
    for n in range(5):
        (tmp_path / "src" / f"m{n}.py").write_text("x" * 1000, encoding="utf-8")
    (tmp_path / "logo.png").write_bytes(b"\0" * 10_000)  # binary: not counted
    assert holds_at_least(tmp_path, 5, 5000) and not holds_at_least(tmp_path, 5, 5001)
    assert not holds_at_least(tmp_path, 6, 10)  # five files only: few but large files make no pool
    assert not holds_at_least(tmp_path / "missing", 1, 1)


def test_an_early_worker_parses_whole_tasks_until_a_task_comes(repo, monkeypatch):
    import queue

    monkeypatch.setattr(_Pool, "AHEAD_TASKS", 3)
    files = [(file, None) for file in walk_repository(repo)]
    first = list(prepare_module._tasks(files))[:3]
    root = str(repo.resolve())
    ahead = prepare_module._parse_ahead(root, queue.SimpleQueue())
    assert ahead.tasks == [[file for file, _ in task] for task in first]  # as the indexing process cuts them
    assert [file for _, file in ahead.files] == [file for task in ahead.tasks for file in task]
    parsed_here = {
        file: prepare_module.prepare(root, file, None).prepared for task in ahead.tasks for file in task
    }
    assert all(ahead.files[(root, file)][0] == parsed_here[file] for file in parsed_here)
    waiting: queue.SimpleQueue[tuple | None] = queue.SimpleQueue()
    waiting.put(None)  # a task is there (or the input ended): nothing is parsed ahead
    stopped = prepare_module._parse_ahead(root, waiting)
    assert stopped.files == {} and stopped.tasks == []


def test_a_task_takes_what_was_parsed_ahead_only_for_that_file_as_it_is(repo):
    import queue

    root = str(repo.resolve())
    ahead = prepare_module._parse_ahead(root, queue.SimpleQueue()).files
    (key, (prepared, _)), (other_key, (other, _)) = list(ahead.items())[:2]
    taken = prepare_module._taken(ahead, root, key[1], None, None)
    assert taken.prepared is prepared and (root, key[1]) not in ahead  # used once, not parsed again
    indexed_before = prepare_module._taken(ahead, root, other_key[1], "an indexed sha", None)
    assert indexed_before.prepared is not other and indexed_before.prepared == other  # read again
    assert prepare_module._taken({}, root, key[1], None, None).prepared == prepared  # parsed now: the same


@pytest.mark.slow  # starts a worker process
def test_a_worker_that_parsed_ahead_claims_those_tasks_and_answers_what_parsing_here_gives(repo):
    import pickle

    root = repo.resolve()
    tasks = list(prepare_module._tasks([(file, None) for file in walk_repository(repo)]))
    worker = workers_module.start_worker(False, ahead=root)
    try:
        assert worker.stdin is not None and worker.stdout is not None

        def send(task_id: int) -> None:
            assert worker.stdin is not None
            pickle.dump((task_id, str(root), None, tasks[task_id]), worker.stdin)
            worker.stdin.flush()

        send(0)
        send(1)  # as the pool sends them (IN_FLIGHT); whatever was parsed whole is claimed first
        first_id, claimed = prepare_module._read_answer(worker.stdout)
        assert first_id == _Pool.CLAIMED and claimed == list(range(len(claimed)))
        assert len(claimed) <= min(len(tasks), _Pool.AHEAD_TASKS)
        for task_id in claimed[2:]:  # the pool sends the claimed tasks it has not taken
            send(task_id)
        expected = sorted(set(claimed) | {0, 1})
        answers = [prepare_module._read_answer(worker.stdout) for _ in expected]
        assert sorted(task_id for task_id, _ in answers) == expected
    finally:
        end = worker.stdin
        assert end is not None
        end.close()
        assert worker.wait(timeout=10) == 0
    assert worker.stdout.read() == b""  # nothing unasked
    for task_id, outcomes in answers:
        here = [prepare_module.prepare(str(root), file, None) for file, _ in tasks[task_id]]
        assert [o.prepared for o in outcomes] == [o.prepared for o in here]


@pytest.mark.slow  # starts a worker process
def test_an_index_uses_the_tasks_an_early_worker_parsed_ahead_and_parses_none_twice(repo, monkeypatch):
    monkeypatch.setattr(workers_module, "cpus", lambda: 2)
    monkeypatch.delenv(workers_module.WORKERS_ENV, raising=False)
    monkeypatch.setattr(workers_module, "holds_at_least", lambda root, files, size: True)
    monkeypatch.setattr(_Pool, "CLAIM_WAIT", 30.0)  # whatever the load: the claim is waited for
    files = [(file, None) for file in walk_repository(repo)]
    firsts = [task[0][0].path for task in prepare_module._tasks(files)]
    here: list[int] = []  # the tasks done in this process, and those the worker answered
    there: list[int] = []
    claims: list[list[int]] = []
    real_task = prepare_module._prepare_task

    def parsed_here(root, task, embedder=None):  # type: ignore[no-untyped-def]
        here.append(firsts.index(task[0][0].path))
        return real_task(root, task, embedder)

    def recorded(answer):  # type: ignore[no-untyped-def]
        if answer[1] == _Pool.CLAIMED:
            claims.append(answer[2])
        elif answer[1] is not None:
            there.append(answer[1])

    monkeypatch.setattr(prepare_module, "_prepare_task", parsed_here)
    _watch_answers(monkeypatch, recorded)
    start_worker_early(repo, static_table=False)
    outcomes = list(prepare_files(repo, files, workers=1))
    root = str(repo.resolve())
    expected = [prepare_module.prepare(root, file, None).prepared for file, _ in files]
    assert [o.prepared for o in outcomes] == expected
    assert sorted(here + there) == list(range(len(firsts)))  # each task done once
    assert len(claims) == 1 and set(claims[0]) <= set(there)  # what it claimed, it was sent
    assert workers_module._early == []


@pytest.mark.slow  # starts a worker process
def test_a_worker_is_sent_its_next_task_while_the_indexing_process_is_busy(repo, tmp_path, monkeypatch):
    # The first task done here waits until the worker has answered more tasks than it was sent before
    # this process got busy (IN_FLIGHT): only its reader thread can have sent it those.
    answered: list[int] = []
    more_than_in_flight = threading.Event()
    real_task = prepare_module._prepare_task
    waited: list[bool] = []

    def busy(root, task, embedder=None):  # type: ignore[no-untyped-def]
        if not waited:
            waited.append(more_than_in_flight.wait(timeout=30))
        return real_task(root, task, embedder)

    def counted(answer):  # type: ignore[no-untyped-def]
        if answer[1] is not None and answer[1] >= 0:
            answered.append(answer[1])
            if len(answered) > _Pool.IN_FLIGHT:
                more_than_in_flight.set()

    monkeypatch.setattr(prepare_module, "_prepare_task", busy)
    _watch_answers(monkeypatch, counted)
    store = CodeStore(tmp_path / "code.db")
    report = Indexer(repo, store, workers=1).run()
    assert report.files_parsed == 70 and not report.errors
    assert waited == [True], f"the worker answered only {answered} while this process was busy"
    reference = CodeStore(tmp_path / "reference.db")
    Indexer(repo, reference, workers=0).run()
    assert snapshot(store) == snapshot(reference)


def test_the_last_tasks_are_small_and_every_file_is_in_one_task_in_order(repo):
    files = [(file, None) for file in walk_repository(repo)]
    tasks = list(prepare_module._tasks(files))
    assert [item for task in tasks for item in task] == files
    fine = prepare_module.FINE_TASK_FILES
    assert all(len(task) <= fine for task in tasks[-prepare_module.FINE_TASKS :])
    assert len(tasks[0]) == prepare_module.TASK_FILES > fine
    few = files[: prepare_module.TASK_FILES * 2]  # too few tasks to cut again
    assert [len(task) for task in prepare_module._tasks(few)] == [prepare_module.TASK_FILES] * 2


def _claiming_late(flag: Path) -> tuple[str, ...]:
    """A worker that says what it parsed ahead only once `flag` exists (at most 30 s)."""
    code = (
        "import os, time\nfrom pramana.code.index import prepare\nreal = prepare._answer\n"
        "def answer(answers, task_id, outcomes):\n"
        "    if task_id == prepare._Pool.CLAIMED:\n"
        f"        for _ in range(3000):\n            if os.path.exists({str(flag)!r}): break\n"
        "            time.sleep(0.01)\n"
        "    real(answers, task_id, outcomes)\n"
        "prepare._answer = answer\nprepare.serve()\n"
    )
    return ("-P", "-c", code)


@pytest.mark.slow  # starts a worker process
def test_while_a_claim_is_awaited_the_indexing_process_parses_only_tasks_none_can_claim(
    repo, tmp_path, monkeypatch
):
    # The claim comes only after this process has done a task: that task (and any before the claim)
    # is one the early worker cannot have parsed ahead, so no task is parsed twice, however late it is.
    flag = tmp_path / "parsed-here"
    monkeypatch.setattr(workers_module, "cpus", lambda: 2)
    monkeypatch.delenv(workers_module.WORKERS_ENV, raising=False)
    monkeypatch.setattr(workers_module, "holds_at_least", lambda root, files, size: True)
    monkeypatch.setattr(workers_module, "COMMAND", _claiming_late(flag))
    files = [(file, None) for file in walk_repository(repo)]
    tasks = list(prepare_module._tasks(files))
    firsts = [task[0][0].path for task in tasks]
    events: list[tuple[str, int]] = []
    real_task = prepare_module._prepare_task

    def parsed_here(root, task, embedder=None):  # type: ignore[no-untyped-def]
        events.append(("here", firsts.index(task[0][0].path)))
        outcomes = real_task(root, task, embedder)
        flag.touch()
        return outcomes

    def recorded(answer):  # type: ignore[no-untyped-def]
        if answer[1] == _Pool.CLAIMED:
            events.append(("claim", len(answer[2])))
        elif answer[1] is not None:
            events.append(("there", answer[1]))

    monkeypatch.setattr(prepare_module, "_prepare_task", parsed_here)
    _watch_answers(monkeypatch, recorded)
    start_worker_early(repo, static_table=False)
    outcomes = list(prepare_files(repo, files, workers=1))
    root = str(repo.resolve())
    assert [o.prepared for o in outcomes] == [
        prepare_module.prepare(root, file, None).prepared for file, _ in files
    ]
    done = sorted(task for kind, task in events if kind in ("here", "there"))
    assert done == list(range(len(tasks)))  # each task done once
    claimed_at = events.index(next(event for event in events if event[0] == "claim"))
    here_first = [task for kind, task in events[:claimed_at] if kind == "here"]
    # The first tasks done here, before the claim came: beyond any the worker could have parsed ahead.
    bound = min(_Pool.AHEAD_TASKS, len(tasks) // 2)
    assert here_first and here_first[0] >= bound
