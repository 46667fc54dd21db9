"""analyze's remembered answers: the same answer as worked out, bounded, forgotten when the file changes."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from pramana.sanskrit import analysis
from pramana.sanskrit import service as service_module
from pramana.sanskrit.analysis import Analyzer
from pramana.sanskrit.service import SanskritService


@pytest.fixture
def writable(forms_db: Path, tmp_path: Path):
    target = tmp_path / "sanskrit.db"
    shutil.copy(forms_db, target)
    service = SanskritService(target)
    yield service
    service.close()


def test_a_repeated_word_is_worked_out_once_with_the_same_answer(forms: SanskritService) -> None:
    first = forms.analyze("tena").model_dump()
    assert forms.analyses_computed == 1
    assert forms.analyze(" tena ").model_dump() == first  # the word as asked, stripped, is the key
    assert forms.analyses_computed == 1
    fresh = SanskritService(forms.db_path, read_only=True)
    try:
        assert fresh.analyze("tena").model_dump() == first
    finally:
        fresh.close()


def test_other_dictionaries_are_another_answer(forms: SanskritService) -> None:
    everything = forms.analyze("tena")
    chosen = forms.analyze("tena", ["lan"])
    assert forms.analyses_computed == 2
    assert chosen.model_dump() == everything.model_dump()  # lan is the only one installed
    forms.analyze("tena", ["LAN "])  # the same codes once checked
    assert forms.analyses_computed == 2


def test_the_least_recently_asked_answers_are_forgotten(
    forms: SanskritService, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(service_module, "ANSWERS_KEPT", 2)
    for word in ("tena", "iti", "tena", "api"):  # iti is now the least recently asked
        forms.analyze(word)
    assert forms.analyses_computed == 3
    assert len(forms._answers) == 2
    forms.analyze("tena")
    assert forms.analyses_computed == 3
    forms.analyze("iti")
    assert forms.analyses_computed == 4


def test_a_change_to_the_file_forgets_every_answer(writable: SanskritService) -> None:
    before = writable.analyze("tena")
    assert before.analyses[0].lemma == "tad" and before.analyses[0].article_ids
    writable.analyze("iti")
    other = sqlite3.connect(writable.db_path)  # another process's write: tad's headword gone
    try:
        with other:
            other.execute("DELETE FROM headwords WHERE slp1 = 'tad'")
    finally:
        other.close()
    after = writable.analyze("tena")
    assert after.analyses[0].lemma == "tad" and not after.analyses[0].article_ids
    writable.analyze("iti")
    assert writable.analyses_computed == 4
    writable.analyze("tena")
    assert writable.analyses_computed == 4  # remembered again until the next change


def test_a_words_readings_are_read_once_and_the_same_alone_or_among_others(
    forms: SanskritService, monkeypatch: pytest.MonkeyPatch
) -> None:
    words = ["tena", "iti", "gacCati", "rAmeRa", "tasya", "aham"]
    fresh = Analyzer(forms.store)
    alone = {word: fresh.analyze_many([word])[word] for word in words}
    analyzer = Analyzer(forms.store)
    read: list[list[str]] = []
    work = analyzer._analyze_many
    monkeypatch.setattr(analyzer, "_analyze_many", lambda batch: read.append(batch) or work(batch))
    assert analyzer.analyze_many(words[:4]) == {word: alone[word] for word in words[:4]}
    assert analyzer.analyze_many(words[2:]) == {word: alone[word] for word in words[2:]}
    assert read == [words[:4], words[4:]]  # only the words not read before
    analyzer.analyze_many(words)[words[0]].clear()  # a caller's list, not the remembered readings
    assert analyzer.analyze_many(words[:1])[words[0]] == alone[words[0]]


def test_remembered_readings_are_bounded(forms: SanskritService, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(analysis, "SEEN_ANALYSES", 3)
    analyzer = Analyzer(forms.store)
    analyzer.analyze_many(["tena", "iti"])
    found = analyzer.analyze_many(["tena", "tasya", "aham"])  # 2 + 2 > 3: all forgotten, these read again
    assert set(found) == {"tena", "tasya", "aham"} and all(found.values())
    assert set(analyzer._analysed) == {"tena", "tasya", "aham"}


def test_the_stamp_moves_with_a_write_not_with_a_reader(writable: SanskritService) -> None:
    store = writable.store
    wal = store.path.with_name(store.path.name + "-wal")
    before = store.stamp()
    reader = sqlite3.connect(store.path)  # another process reading: its connection, an empty log
    try:
        reader.execute("SELECT count(*) FROM headwords").fetchone()
        assert store.stamp() == before
        with reader:
            reader.execute("DELETE FROM headwords WHERE slp1 = 'tad'")
        assert wal.exists() and wal.stat().st_size > 0
        assert store.stamp() != before
    finally:
        reader.close()
