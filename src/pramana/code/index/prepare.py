"""Reading, hashing and parsing the files an index run must look at, into the rows the index stores.

This is the CPU-heavy half of indexing (tree-sitter, identifier splitting), so with many
files it runs in worker processes while the indexing process writes what is ready. Only plain
data crosses between processes: tree-sitter objects stay where they were made, and the rows are
tuples (unpickling a million small dataclasses would cost more than parsing them did).

The CLI's indexing process parses too, whenever no worker's answer is ready to write: so its pool
needs one worker fewer than there are CPUs (a server's background index leaves parsing to its
workers), and a worker is only started for enough work to pay for its start.

The module imports little (no SQLite store, no embedder) so that a worker starts fast.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import json
import logging
import os
import pickle
import queue
import signal
import struct
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, BinaryIO

from pramana.code.files import decode, line_count, text_hash
from pramana.code.index import workers as _workers
from pramana.code.index.walk import RepoFile, Walk
from pramana.code.index.workers import (
    POOL_MIN_BYTES,
    POOL_MIN_FILES,
    end_early_worker,
    workers_from_environment,
)
from pramana.code.parse import Chunk, ParsedFile, parse_file
from pramana.code.search.terms import identifiers, path_stems, path_words, words_bag

if TYPE_CHECKING:
    import numpy as np

    from pramana.embed import StaticEmbedder

log = logging.getLogger(__name__)

TASK_FILES = 8  # files per task sent to a worker
TASK_BYTES = 400_000  # ... or fewer, when they are large
FINE_TASKS, FINE_TASK_FILES, FINE_FROM_TASKS = 3, 2, 8  # the last tasks, smaller (_tasks)


@dataclass
class PreparedFile:
    """One file's rows, ready for the store (see CodeStore.write_files)."""

    file: RepoFile
    sha: str
    lines: int
    # (id, chunk_type, name, parent, start_line, end_line, content, BM25 bag: (terms, float32 weights)):
    # the bag's terms (terms.chunk_bag's keys, in order) and its weights as the bags table stores them
    chunks: list[tuple] = field(default_factory=list)
    # (name, kind, parent, start_line, end_line, exported, signature, doc)
    symbols: list[tuple] = field(default_factory=list)
    imports: list[tuple] = field(default_factory=list)  # (module, names as JSON, line)
    refs: list[tuple] = field(default_factory=list)  # (name, line, kind, member: bool)
    tests: list[tuple[int, int]] = field(default_factory=list)  # (start_line, end_line) of in-file tests
    test_modules: list[str] = field(default_factory=list)  # paths of module files declared as tests
    vectors: np.ndarray | None = None  # one row per chunk, when the static table embedded them here


@dataclass
class Outcome:
    """What became of one file: prepared, unchanged (its hash is the one indexed), or an error."""

    file: RepoFile
    prepared: PreparedFile | None = None
    unchanged: bool = False
    error: str | None = None
    detail: str | None = None  # the traceback of an unexpected parse error


# A chunk's text's identifiers (terms.identifiers), kept for its static vector when the text is ASCII
# (the tokenizer then finds the same words): one pass over the text feeds both. None: not ASCII.
ChunkWords = list[str] | None


def rows(file: RepoFile, sha: str, lines: int, parsed: ParsedFile) -> PreparedFile:
    """`parsed` as the rows the store writes."""
    return _rows(file, sha, lines, parsed)[0]


def _rows(file: RepoFile, sha: str, lines: int, parsed: ParsedFile) -> tuple[PreparedFile, list[ChunkWords]]:
    """rows(), and each chunk's words (ChunkWords) for its vector."""
    stems = path_stems(path_words(file.path))  # once per file, not per chunk
    chunks: list[tuple] = []
    words: list[ChunkWords] = []
    for chunk in parsed.chunks:
        chunks.append(_chunk_row(chunk, stems, words))
    prepared = PreparedFile(
        file,
        sha,
        lines,
        chunks,
        [
            (s.name, s.kind, s.parent, s.start_line, s.end_line, int(s.exported), s.signature, s.doc)
            for s in parsed.symbols
        ],
        [(i.module, json.dumps(i.names), i.line) for i in parsed.imports],
        parsed.reference_rows,  # plain tuples: they pickle and unpickle in C
        parsed.tests,
        parsed.test_modules,
    )  # fmt: skip
    return prepared, words


def _chunk_row(chunk: Chunk, path: list[str], words: list[ChunkWords]) -> tuple:
    # The counting happens here, in the workers, in parallel: the indexing process only writes. The
    # weights go as the float32 bytes the bags table stores, not as a dict of a float object each (a
    # chunk's few dozen): made here, they cost the indexing process neither unpickling nor packing.
    content = chunk.content
    found = identifiers(content)
    words.append(found if content.isascii() else None)
    counts = words_bag(chunk.parent, chunk.name, path, found)
    return (
        chunk.id, chunk.chunk_type, chunk.name, chunk.parent, chunk.start_line, chunk.end_line,
        content, packed_bag(counts),
    )  # fmt: skip


def packed_bag(counts: dict[str, float]) -> tuple[tuple[str, ...], bytes]:
    """A chunk's bag (terms.chunk_bag) as the writer takes it: its terms in order, and its weights as
    the float32 bytes the bags table stores (native order, as `array("f")` wrote them: `struct` packs
    each number without `array`'s argument parsing per item, half the instructions)."""
    return tuple(counts), _floats(len(counts)).pack(*counts.values())


@functools.lru_cache(maxsize=1024)  # a bag's size: a few hundred seen in a repository
def _floats(count: int) -> struct.Struct:
    return struct.Struct(f"{count}f")


def prepare(
    root: str, file: RepoFile, known_sha: str | None, embedder: StaticEmbedder | None = None
) -> Outcome:
    """Read, hash and (unless its text is the one indexed) parse one file; embed its chunks too
    with `embedder` (the static table: fast enough to run wherever the parsing runs)."""
    outcome, words = _parsed(root, file, known_sha)
    if outcome.prepared is not None:
        _embed(outcome.prepared, embedder, words)
    return outcome


def _parsed(root: str, file: RepoFile, known_sha: str | None) -> tuple[Outcome, list[ChunkWords]]:
    """prepare() without the embedding: the outcome, and its chunks' words for their vectors."""
    try:
        data = (Path(root) / file.path).read_bytes()
    except OSError as exc:
        return Outcome(file, error=f"{file.path}: {exc}"), []
    text = decode(data)
    sha = text_hash(text)
    if sha == known_sha:
        return Outcome(file, unchanged=True), []
    try:
        parsed = parse_file(file.path, file.language, file.package, text)
    except Exception as exc:  # one unparsable file must not stop the index
        error = f"{file.path}: {type(exc).__name__}: {exc}"
        return Outcome(file, error=error, detail=traceback.format_exc()), []
    prepared, words = _rows(file, sha, line_count(text), parsed)
    return Outcome(file, prepared), words


def _embed(prepared: PreparedFile, embedder: StaticEmbedder | None, words: list[ChunkWords]) -> None:
    if embedder is not None and prepared.chunks:
        path = prepared.file.path
        prepared.vectors = embedder.embed_found(
            [_embedded(path, chunk, found) for chunk, found in zip(prepared.chunks, words, strict=True)]
        )


def _embedded(path: str, chunk: tuple, words: ChunkWords) -> str | tuple[str, list[str]]:
    """What the static table embeds for a chunk (embedded_text): its head and the words of its text
    found already, when its text is ASCII and embedded whole; else the text itself."""
    from pramana.embed import MAX_EMBED_CHARS, chunk_head  # here: a worker that does not embed needs no numpy

    head = chunk_head(path, chunk[1], chunk[3], chunk[2])
    if words is None or len(head) + len(chunk[6]) > MAX_EMBED_CHARS or not head.isascii():
        return embedded_text(path, chunk)
    return head, words


def embedded_text(path: str, chunk: tuple) -> str:
    """What an embedder reads for one of PreparedFile.chunks (embed.chunk_text)."""
    from pramana.embed import chunk_text  # here: a worker that does not embed needs no numpy

    return chunk_text(path, chunk[1], chunk[3], chunk[2], chunk[6])


def _prepare_task(
    root: str, task: list[tuple[RepoFile, str | None]], embedder: StaticEmbedder | None = None
) -> list[Outcome]:
    return [prepare(root, file, known_sha, embedder) for file, known_sha in task]


@functools.cache
def _worker_embedder(data_dir: str) -> StaticEmbedder | None:
    """The static table of `data_dir` in a worker; None if it cannot load (the indexing process
    embeds those chunks then: a worker never builds the table)."""
    from pramana.embed import StaticEmbedder

    embedder = StaticEmbedder(Path(data_dir))
    return embedder if embedder.is_ready() else None


def worker_count(
    files: Sequence[tuple[RepoFile, str | None]], workers: int | None = None, *, parses_here: bool = False
) -> int:
    """How many worker processes to parse `files` with: 0 (parse here) for little work or one CPU;
    one fewer than the CPUs when this process `parses_here` too.

    `workers` (or $PRAMANA_CODE_INDEX_WORKERS) overrides the choice; 0 never starts a pool.
    """
    if workers is None:
        workers = workers_from_environment()
    if not sys.executable:  # an embedded interpreter: no python to start workers with
        return 0
    if workers is not None:
        return max(0, workers)
    if len(files) < POOL_MIN_FILES or sum(f.size for f, _ in files) < POOL_MIN_BYTES:
        return 0
    cpus = _workers.cpus()
    return 0 if cpus < 2 else min(cpus - 1 if parses_here else cpus, 8)


def parses_here() -> bool:
    """Whether the indexing process parses beside its workers: when indexing is all it does (the
    index runs on its main thread, as in the CLI). A server's background index leaves the
    interpreter to the threads that answer, and lets its workers parse."""
    return threading.current_thread() is threading.main_thread()


def prepare_files(
    root: Path,
    files: Sequence[tuple[RepoFile, str | None]],
    workers: int | None = None,
    embedder: StaticEmbedder | None = None,
) -> Iterator[Outcome]:
    """An Outcome for each (file, hash indexed now or None), in order.

    With much to parse, worker processes parse a few tasks ahead of the consumer (so it writes
    while they parse, and memory stays bounded), and the consumer parses too while it has nothing
    to write (parses_here); otherwise it happens here, one file at a time. A ready static
    `embedder` embeds the chunks where they are parsed (workers load its table).
    """
    here = parses_here()
    count = worker_count(files, workers, parses_here=here)
    tasks = list(_tasks(files))
    if count == 0 or len(tasks) < 2:
        end_early_worker()  # too little to parse: a worker started early would only cost a start
        for file, known_sha in files:
            yield prepare(str(root), file, known_sha, embedder)
        return
    pool = _Pool(min(count, len(tasks) - 1 if here else len(tasks)), embedder is not None)
    try:
        yield from pool.run(str(root), tasks, embedder, parse_here=here)
    finally:
        pool.close()


def _tasks(files: Sequence[tuple[RepoFile, str | None]]) -> Iterator[list[tuple[RepoFile, str | None]]]:
    """`files` cut into tasks of TASK_FILES files (or TASK_BYTES), in order; with many tasks, the last
    FINE_TASKS of them cut again into tasks of FINE_TASK_FILES: at the end, whoever runs out of tasks
    first (the indexing process or a worker) waits for the others' last ones, and small ones make
    that wait short."""
    tasks: list[list[tuple[RepoFile, str | None]]] = []
    task: list[tuple[RepoFile, str | None]] = []
    size = 0
    for item in files:
        task.append(item)
        size += item[0].size
        if len(task) >= TASK_FILES or size >= TASK_BYTES:
            tasks.append(task)
            task, size = [], 0
    if task:
        tasks.append(task)
    if len(tasks) < FINE_FROM_TASKS:
        yield from tasks
        return
    yield from tasks[:-FINE_TASKS]
    for last in tasks[-FINE_TASKS:]:
        for start in range(0, len(last), FINE_TASK_FILES):
            yield last[start : start + FINE_TASK_FILES]


class _Pool:
    """Worker processes that each read tasks (pickled) on stdin and write outcomes on stdout, and the
    indexing process, which does a task itself whenever no answer is ready for it to pass on.

    Plain subprocesses rather than multiprocessing: fork is unsafe in the server, which indexes in
    a thread beside others, and spawn/forkserver would import the main module (the whole CLI) in
    every worker. A worker that dies has its tasks done here instead.
    """

    IN_FLIGHT = 2  # tasks sent to a worker before its first answer: it never waits for the next
    AHEAD_TASKS = 24  # at most this many tasks parsed ahead, and half (the first task sent stops it sooner)
    # A worker that parsed ahead answers its first task first with (CLAIMED, the ids of the tasks it
    # parsed whole); the indexing process sends it those it has not taken (their files are used where
    # they are the files sent: _taken). It waits this long for that word before it parses a task
    # itself (so as not to parse one of those again); a claim that comes later counts for the tasks
    # nobody has taken yet.
    CLAIMED = -1
    CLAIM_WAIT = 0.05

    def __init__(self, count: int, static_table: bool = False):
        """`count` workers: those started early (start_worker_early) first, then new ones; an early
        worker beyond `count` is ended."""
        taken = _workers.take_early(count)
        self.ahead = len(taken)  # workers 0..ahead-1 parsed ahead: each will say what it claims
        self.processes = taken + [_workers.start_worker(static_table) for _ in range(count - len(taken))]
        # (worker, task id, outcomes); (worker, CLAIMED, task ids); (worker, None, None): it is gone
        self.answers: queue.Queue[tuple[int, int | None, Any]] = queue.Queue()
        self.dispatch: _Dispatch | None = None  # who is sent which task, while run() runs
        for index, process in enumerate(self.processes):
            threading.Thread(
                target=self._read, args=(index, process), name="pramana-index-reader", daemon=True
            ).start()

    def _read(self, index: int, process: subprocess.Popen[bytes]) -> None:
        assert process.stdout is not None
        try:
            while True:
                task_id, outcomes = _read_answer(process.stdout)
                dispatch = self.dispatch
                if dispatch is not None and task_id != self.CLAIMED:
                    # The worker's next task goes now, from this thread: the indexing process may be
                    # busy parsing or writing for a while, and the worker would wait for it.
                    dispatch.answered(index, task_id)
                self.answers.put((index, task_id, outcomes))
        except Exception:  # EOF or a broken stream: the worker is gone
            self.answers.put((index, None, None))

    def run(
        self,
        root: str,
        tasks: list[list[tuple[RepoFile, str | None]]],
        embedder: StaticEmbedder | None = None,
        parse_here: bool = True,
    ) -> Iterator[Outcome]:
        """Each task's outcomes, in order; with `parse_here`, this process does a task itself
        whenever no answer is ready (otherwise only the tasks of a worker that died)."""
        table_dir = str(embedder.data_dir) if embedder is not None else None
        dispatch = self.dispatch = _Dispatch(self, root, table_dir, tasks)
        ready: dict[int, list[Outcome]] = {}
        claim_until = time.monotonic() + self.CLAIM_WAIT
        dispatch.send_all()
        while dispatch.wanted < len(tasks):
            if dispatch.wanted in ready:
                yield from ready.pop(dispatch.wanted)
                dispatch.advance()
                continue
            # A task no worker has, for this process to do while no answer is ready.
            spare = parse_here and dispatch.spare_left()
            wait: float | None = None  # block until an answer comes
            if spare:
                # A worker that parsed ahead has not said what it claims: this process does a task none
                # can claim meanwhile (take_beyond_ahead), else waits a little for the claim.
                waiting = dispatch.unclaimed and not dispatch.beyond_ahead_left()
                wait = max(0.0, claim_until - time.monotonic()) if waiting else 0.0
            answer = None
            if dispatch.sent:  # some worker is still there
                with contextlib.suppress(queue.Empty):
                    answer = self.answers.get(timeout=wait)
            if answer is None:  # nothing to pass on yet: this process does a spare task meanwhile
                if time.monotonic() >= claim_until:
                    dispatch.stop_waiting_for_claims()  # other workers wait no longer for the claim
                task = dispatch.take_beyond_ahead() if parse_here else None
                if task is None:
                    dispatch.stop_waiting_for_claims()  # waited long enough for what was parsed ahead
                    alone = not dispatch.sent  # no worker left: this process does every task that remains
                    task = dispatch.take_spare(every=alone) if parse_here or alone else None
                if task is not None:
                    ready[task] = _prepare_task(root, tasks[task], embedder)
                continue
            index, task_id, outcomes = answer
            if task_id is None or outcomes is None:
                log.warning("an index worker stopped; parsing its files in the indexing process")
                for lost in dispatch.gone(index):
                    ready[lost] = _prepare_task(root, tasks[lost], embedder)
                continue
            if task_id == self.CLAIMED:
                dispatch.claimed(index, outcomes)
                continue
            ready[task_id] = outcomes
        self.dispatch = None

    def close(self) -> None:
        for process in self.processes:
            with contextlib.suppress(OSError):
                assert process.stdin is not None
                process.stdin.close()  # a worker ends at the end of its input
        for process in self.processes:
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                _workers.stop(process)


class _Dispatch:
    """Which task goes where during one _Pool.run: tasks are sent in order, each worker kept
    IN_FLIGHT ahead, and no task sent more than `window` ahead of the one the consumer waits for
    (memory stays bounded). Driven both by the consumer (run) and by each worker's reader thread,
    which sends that worker its next task as soon as it answers; a lock keeps one view."""

    def __init__(
        self, pool: _Pool, root: str, table_dir: str | None, tasks: list[list[tuple[RepoFile, str | None]]]
    ):
        self.pool, self.root, self.table_dir, self.tasks = pool, root, table_dir, tasks
        self.lock = threading.Lock()
        self.sent: dict[int, list[int]] = {index: [] for index in range(len(pool.processes))}
        self.next_task = 0
        self.wanted = 0  # the task whose outcomes the consumer passes on next
        self.window = (len(pool.processes) + 1) * (pool.IN_FLIGHT + 2)  # answers held ahead of it
        # Workers that parsed ahead have not said what they claim yet: until they do (or CLAIM_WAIT
        # passes) the other workers are sent nothing, and the consumer parses only tasks that no
        # worker can claim: those from `ahead_bound` on (_parse_ahead parses no further), taken out
        # of order (`taken`; next_task passes over them).
        self.unclaimed = set(range(pool.ahead))
        self.awaiting = set(range(pool.ahead))  # as unclaimed, but only a claim (or an end) clears it
        self.ahead_bound = min(pool.AHEAD_TASKS, len(tasks) // 2)
        self.taken: set[int] = set()

    def _send_next(self, index: int) -> bool:
        stdin = self.pool.processes[index].stdin
        assert stdin is not None
        message = (self.next_task, self.root, self.table_dir, self.tasks[self.next_task])
        try:
            pickle.dump(message, stdin, pickle.HIGHEST_PROTOCOL)
            stdin.flush()
        except (OSError, ValueError):
            return False  # the worker is gone: its reader reports it
        self.sent[index].append(self.next_task)
        self._advance()
        return True

    def _advance(self) -> None:
        """next_task moves on, past the tasks the consumer took out of order."""
        self.next_task += 1
        while self.next_task in self.taken:
            self.taken.discard(self.next_task)
            self.next_task += 1

    def _send(self, index: int) -> None:
        if index not in self.sent or (self.unclaimed and index not in self.unclaimed):
            return
        while (
            self.next_task < len(self.tasks)
            and len(self.sent[index]) < self.pool.IN_FLIGHT
            and self.next_task < self.wanted + self.window
        ):
            if not self._send_next(index):
                return

    def send_all(self) -> None:
        with self.lock:
            for index in list(self.sent):
                self._send(index)

    def answered(self, index: int, task_id: int) -> None:
        """A worker answered `task_id` (its reader thread): its next task goes now."""
        with self.lock:
            if task_id in self.sent.get(index, ()):
                self.sent[index].remove(task_id)
            self._send(index)

    def advance(self) -> None:
        """The consumer passed on task `wanted`: the window moves on."""
        with self.lock:
            self.wanted += 1
            for index in list(self.sent):
                self._send(index)

    def spare_left(self) -> bool:
        return self.next_task < len(self.tasks) and self.next_task < self.wanted + self.window

    def take_spare(self, every: bool = False) -> int | None:
        """The next task, for the consumer to do itself (None if none is left to take); with
        `every` (no worker left), whatever the window."""
        with self.lock:
            if not (self.spare_left() or (every and self.next_task < len(self.tasks))):
                return None
            task = self.next_task
            self._advance()
            return task

    def _beyond_ahead(self) -> int | None:
        """The first task no worker that parsed ahead can claim and nobody has taken, while one has
        not claimed yet (and few enough are held out of order); else None."""
        if not self.awaiting or len(self.taken) >= self.window:
            return None
        task = max(self.next_task, self.ahead_bound)
        while task in self.taken:
            task += 1
        return task if task < len(self.tasks) else None

    def beyond_ahead_left(self) -> bool:
        with self.lock:
            return self._beyond_ahead() is not None

    def take_beyond_ahead(self) -> int | None:
        """A task for the consumer to do while a worker that parsed ahead has not said what it claims:
        one it cannot claim, so that none is parsed twice (None: no such task, or no claim awaited)."""
        with self.lock:
            task = self._beyond_ahead()
            if task is None:
                return None
            if task == self.next_task:
                self._advance()
            else:
                self.taken.add(task)
            return task

    def stop_waiting_for_claims(self) -> None:
        with self.lock:
            if self.unclaimed:
                self.unclaimed.clear()
                for index in list(self.sent):
                    self._send(index)

    def claimed(self, index: int, task_ids: list[int]) -> None:
        """A worker that parsed ahead claims `task_ids`: those nobody has taken are sent to it."""
        with self.lock:
            for claimed in task_ids:
                if claimed == self.next_task and claimed < len(self.tasks) and index in self.sent:
                    self.window += 1  # parsed already: holding it costs no more than it did
                    if not self._send_next(index):
                        break
            self.awaiting.discard(index)
            if index in self.unclaimed:
                self.unclaimed.discard(index)
                for other in list(self.sent):
                    self._send(other)

    def gone(self, index: int) -> list[int]:
        """A worker stopped: the tasks it had, for the consumer to do."""
        with self.lock:
            self.unclaimed.discard(index)
            self.awaiting.discard(index)
            return self.sent.pop(index, [])


def serve() -> None:
    """A worker's loop: (task id, root, table dir, files) in on stdin, (task id, outcomes) out on stdout."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the indexing process's to handle
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # whatever else gets printed must not mix with the answers
    arguments = sys.argv[1:]
    if _workers.STATIC_TABLE in arguments:  # while the indexing process walks the repository
        from pramana.embed import packaged_table

        packaged_table()
    # Parsing makes many short-lived objects: the collector's full passes skip what is loaded
    # (process.freeze_loaded, without importing what that module needs for servers), and it runs
    # as seldom as in the indexing process (work.fewer_collections): at the default threshold its
    # passes took ~4% of a worker's CPU (tokio: 170 young and 15 middle passes, against 29 and 2).
    from pramana import work  # here: the indexing process starts its first worker before it loads this

    gc.freeze()
    gc.enable()
    with work.fewer_collections():
        _serve(stdin, stdout, arguments)
    # Everything is answered and flushed: ending without the interpreter's teardown (freeing every
    # object one by one) lets the indexing process, which waits for it, go on sooner.
    os._exit(0)


def _serve(stdin: BinaryIO, stdout: BinaryIO, arguments: list[str]) -> None:
    messages: queue.SimpleQueue[tuple | None] = queue.SimpleQueue()
    threading.Thread(target=_read_messages, args=(stdin, messages), daemon=True).start()
    # Answers are written by a thread of their own: an answer (~0.4 MB) is larger than a pipe holds,
    # and the indexing process's reader takes it in pieces, each when its busy main thread lets it
    # have the interpreter; this thread waits for that, not the parsing of the next task.
    answers: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()
    writer = threading.Thread(target=_write_answers, args=(stdout, answers), daemon=True)
    writer.start()
    claiming = _workers.AHEAD in arguments[:-1]
    ahead = _parse_ahead(arguments[arguments.index(_workers.AHEAD) + 1], messages) if claiming else _Ahead("")
    while (message := messages.get()) is not None:
        task_id, root, table_dir, task = message
        if claiming:  # the first task: say which tasks were parsed whole ahead (the pool sends them)
            claiming = False
            _answer(answers, _Pool.CLAIMED, list(range(len(ahead.tasks))) if root == ahead.root else [])
        embedder = _worker_embedder(table_dir) if table_dir is not None else None
        outcomes = [_taken(ahead.files, root, file, known_sha, embedder) for file, known_sha in task]
        _answer(answers, task_id, outcomes)
    answers.put(None)
    writer.join()


def _read_messages(stdin: BinaryIO, messages: queue.SimpleQueue[tuple | None]) -> None:
    """A worker's tasks, as they come; None at the end of its input (or when it breaks)."""
    try:
        while True:
            messages.put(pickle.load(stdin))
    except Exception:  # EOFError: the indexing process has sent everything
        messages.put(None)


def _answer(
    answers: queue.SimpleQueue[bytes | None], task_id: int, outcomes: list[Outcome] | list[int]
) -> None:
    answer = pickle.dumps((task_id, outcomes), pickle.HIGHEST_PROTOCOL)
    answers.put(_ANSWER_SIZE.pack(len(answer)) + answer)


# Each answer goes with its size first, so that the indexing process's reader takes it in one read
# (the pipe holds it whole) rather than frame by frame, each read waiting for its busy main thread to
# let it have the interpreter again (up to the switch interval, 5 ms, each).
_ANSWER_SIZE = struct.Struct("<Q")


def _read_answer(stream: IO[bytes]) -> tuple[int, Any]:
    """One answer of a worker (_answer); EOFError at the end of its output."""
    header = stream.read(_ANSWER_SIZE.size)
    if len(header) < _ANSWER_SIZE.size:
        raise EOFError("the worker's output ended")
    (size,) = _ANSWER_SIZE.unpack(header)
    answer = stream.read(size)
    if len(answer) < size:
        raise EOFError("the worker's output ended within an answer")
    return pickle.loads(answer)


def _write_answers(stdout: BinaryIO, answers: queue.SimpleQueue[bytes | None]) -> None:
    """A worker's answers, written in order as they come; stops at None (or a broken pipe)."""
    while (answer := answers.get()) is not None:
        try:
            stdout.write(answer)
            stdout.flush()
        except OSError:
            return  # the indexing process is gone


@dataclass
class _Ahead:
    """What a worker parsed before its first task: each file's rows, and the tasks parsed whole."""

    root: str
    files: dict[tuple[str, RepoFile], tuple[PreparedFile, list[ChunkWords]]] = field(default_factory=dict)
    tasks: list[list[RepoFile]] = field(default_factory=list)


def _parse_ahead(root: str, messages: queue.SimpleQueue[tuple | None]) -> _Ahead:
    """The files of the first tasks a new index of `root` will send (walked and cut into tasks as the
    indexing process does), parsed while it is still loading; stops when the first task comes. Not
    embedded: the task says with what. Files that fail are left for their task to report."""
    ahead = _Ahead(root)
    try:
        files = [(file, None) for file in Walk(Path(root)).files()]
    except Exception:  # the indexing process walks it too, and says what is wrong
        return ahead
    tasks = list(_tasks(files))
    # At most half: the indexing process, once loaded, has the other half to parse while this worker
    # embeds and sends what it parsed ahead (which it does only when told with what table).
    for task in tasks[: min(_Pool.AHEAD_TASKS, len(tasks) // 2)]:
        for file, _ in task:
            if not messages.empty():
                return ahead
            outcome, words = _parsed(root, file, None)
            if outcome.prepared is not None:
                ahead.files[(root, file)] = (outcome.prepared, words)
        ahead.tasks.append([file for file, _ in task])
    return ahead


def _taken(
    ahead: dict[tuple[str, RepoFile], tuple[PreparedFile, list[ChunkWords]]], root: str, file: RepoFile,
    known_sha: str | None,
    embedder: StaticEmbedder | None,
) -> Outcome:  # fmt: skip
    """The outcome of one file of a task: the one parsed ahead when it is that file as it is now (the
    same root, path, size and mtime; nothing indexed for it before), else parsed now."""
    taken = ahead.pop((root, file), None)
    if taken is None or known_sha is not None:
        return prepare(root, file, known_sha, embedder)
    prepared, words = taken
    _embed(prepared, embedder, words)
    return Outcome(file, prepared)
