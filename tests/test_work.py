import time

import pytest

from pramana import work


def test_check_is_free_outside_a_deadline():
    work.check("anything")
    assert work.remaining() is None


def test_check_raises_once_the_deadline_passed():
    with work.deadline(0.01):
        work.check("early")
        time.sleep(0.02)
        with pytest.raises(work.WorkLimitExceeded, match="more work than one call may spend: splitting"):
            work.check("splitting")
    work.check("after the block")


def test_a_nested_deadline_keeps_the_earlier_end():
    with work.deadline(0.01), work.deadline(60):
        assert work.remaining() <= 0.01


def test_a_stopped_call_ends_at_its_next_check():
    limit = work.Limit(time.monotonic() + 60)
    with work.limited(limit):
        work.check("before")
        limit.stopped.set()
        with pytest.raises(work.WorkLimitExceeded):
            work.check("after the caller left")


def test_a_long_call_is_announced_once_at_a_check():
    seen: list[work.Limit] = []
    worked = [0.0]  # the call's own clock (a busy machine must not make "short so far" long)
    limit = work.Limit(
        time.monotonic() + 60, on_long=seen.append, long_after=0.01, started=0.0, clock=lambda: worked[0]
    )
    with work.limited(limit):
        work.check("short so far")
        assert seen == []
        worked[0] = 0.02
        work.check("long now")
        work.check("still long")
    assert seen == [limit]


def test_settled_objects_are_no_longer_scanned_by_the_collector():
    import gc

    cache = [{"k": i} for i in range(10_000)]
    work.settle_heap()  # not a serving process: freezing is not a library's choice to make
    assert gc.get_freeze_count() == 0 and any(o is cache for o in gc.get_objects())
    work.settle_heaps(True)  # what pramana.process.for_serving does
    try:
        work.settle_heap()
        assert gc.get_freeze_count() >= len(cache)
        assert not any(o is cache for o in gc.get_objects())
    finally:
        work.settle_heaps(False)
        gc.unfreeze()


def test_a_growing_cache_is_frozen_every_so_many_entries():
    import gc

    gc.unfreeze()
    cache = [{"k": i} for i in range(100)]
    work.cached(work.FREEZE_EVERY)  # not a serving process: nothing frozen
    assert any(o is cache for o in gc.get_objects())
    work.settle_heaps(True)  # what pramana.process.for_serving does
    try:
        work.cached(work.FREEZE_EVERY)  # whatever was counted before, this many entries make a freeze
        assert not any(o is cache for o in gc.get_objects())  # frozen, without a collection first
        gc.unfreeze()
        later = [{"k": i} for i in range(100)]
        work.cached(work.FREEZE_EVERY - 1)  # the count starts again after a freeze: not yet
        assert any(o is later for o in gc.get_objects())
    finally:
        work.settle_heaps(False)
        gc.unfreeze()


def test_network_timeouts_and_retry_pauses_end_with_the_call():
    assert work.time_for(30.0) == 30.0  # outside a call: the client's own timeout
    with work.deadline(2.0):
        assert 1.5 < work.time_for(30.0) <= 2.0
        assert work.time_for(0.5) == 0.5
        left = work.remaining()
        work.pause(0.1, "retrying")  # within the call's time: it sleeps
        assert work.remaining() < left
        with pytest.raises(work.WorkLimitExceeded, match="source not answering"):
            work.pause(5.0, "source not answering")  # refused before sleeping: it would end after the call
        assert work.remaining() > 0  # had it slept its 5 s first, the call would be over
    with work.deadline(0.0):
        time.sleep(0.01)
        assert work.time_for(30.0) == work.MIN_NETWORK_TIMEOUT


def test_a_call_that_filled_caches_freezes_only_in_a_serving_process():
    import gc

    gc.unfreeze()
    work.freeze_cached()  # a library's caller (a test, a pipeline): its collector is its own
    assert gc.get_freeze_count() == 0
    work.settle_heaps(True)
    try:
        work.freeze_cached()
        assert gc.get_freeze_count() > 0
    finally:
        work.settle_heaps(False)
        gc.unfreeze()


_BUILD_AND_SETTLE = """
import os, threading
from pramana import work

def resident() -> int:
    return int(open("/proc/self/statm").read().split()[1]) * os.sysconf("SC_PAGE_SIZE")

def build() -> None:  # as a server builds an index: in a thread of its own, keeping a little of it
    global kept
    blocks = [b"x" * 2000 + bytes([i % 256]) for i in range(60_000)]  # ~120 MB, allocated by malloc
    kept = blocks[::500]  # survivors all through the heap: freeing the rest shrinks nothing by itself

thread = threading.Thread(target=build)
thread.start()
thread.join()
before = resident()
work.settle_heaps(True)
work.settle_heap()
print(before, resident())
"""


@pytest.mark.skipif(work._malloc_trim() is None, reason="the C library has no malloc_trim (not glibc)")
def test_settling_a_build_hands_the_memory_it_freed_back_to_the_system():
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", _BUILD_AND_SETTLE], capture_output=True, text=True, check=True
    )
    before, after = map(int, done.stdout.split())
    assert before - after > 60_000_000, (before, after)  # most of the 120 MB freed was resident before


def test_fewer_collections_while_indexing_and_the_thresholds_given_back():
    import gc

    before = gc.get_threshold()
    with work.fewer_collections(50_000):
        assert gc.get_threshold() == (50_000, *before[1:])
    assert gc.get_threshold() == before
    with pytest.raises(KeyError), work.fewer_collections():
        raise KeyError("a failed index")
    assert gc.get_threshold() == before
