"""The Śrīmad-Bhāgavatam and the Caitanya-caritāmṛta beside the Gītā, read once a session from the shared
archive (tests/gita/scripture.py), and the matcher over all three, built once a session (~2 s)."""

from __future__ import annotations

import pytest

from pramana.gita import packaged
from pramana.gita.matcher import IndexedVerse
from pramana.gita.phonetic_matcher import PhoneticMatcher
from tests.conftest import require_data
from tests.gita.scripture import ARCHIVE, ScriptureVerse, read_scripture


@pytest.fixture(scope="session")
def scripture() -> tuple[ScriptureVerse, ...]:
    return read_scripture(require_data(*ARCHIVE.parts))


@pytest.fixture(scope="session")
def every_book(scripture: tuple[ScriptureVerse, ...]) -> PhoneticMatcher:
    """The matcher over the Gītā, then SB, then CC, as the service builds it from installed books."""
    others = [IndexedVerse(verse.ref, verse.text, "", verse.book) for verse in scripture]
    return PhoneticMatcher([*packaged.indexed_verses(), *others], packaged.english_words())
