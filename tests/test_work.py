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
