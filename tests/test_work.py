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
    limit = work.Limit(time.monotonic() + 60, on_long=seen.append, long_after=0.01)
    with work.limited(limit):
        work.check("short so far")
        assert seen == []
        time.sleep(0.02)
        work.check("long now")
        work.check("still long")
    assert seen == [limit]


def test_settled_objects_are_no_longer_scanned_by_the_collector():
    import gc

    cache = [{"k": i} for i in range(10_000)]
    work.settle_heap()
    assert gc.get_freeze_count() >= len(cache)
    assert not any(o is cache for o in gc.get_objects())
    gc.unfreeze()
