"""Offline as a first-class mode: a seed from a given source is remembered; an unreachable source is
asked once, then the cache answers quietly with the age of its data; every server's "cannot reach
the upstream" has one shape, naming --source."""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest

from pramana.config import GitaSettings
from pramana.embed import EXTRA_MODULES
from pramana.errors import SourceUnreachableError
from pramana.gita.service import GitaService, remembered_source_path
from tests.conftest import require_extra, run_pramana


@contextmanager
def silent_source() -> Iterator[tuple[str, Callable[[], int]]]:
    """A source that takes connections and never answers (a dead proxy, a black-holed network);
    the callable counts the connections made to it."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    listener.settimeout(0.1)
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        while not stop.is_set():
            try:
                accepted.append(listener.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}", lambda: len(accepted)
    finally:
        stop.set()
        thread.join()
        for conn in accepted:
            conn.close()
        listener.close()


def test_a_seed_from_a_given_source_is_remembered_and_read_by_later_calls(seeded_copy, gita_mirror):
    given = GitaService(GitaSettings(db_path=seeded_copy, api_url=str(gita_mirror)))
    seeded = given.seed()
    assert seeded.complete and any("remembered" in note for note in seeded.notes)
    assert remembered_source_path(seeded_copy).read_text().strip() == str(gita_mirror.resolve())
    later = GitaService(GitaSettings(db_path=seeded_copy))  # no --source, no VEDABASE_API_URL
    assert later.settings.api_url == str(gita_mirror.resolve())
    chapter = later.chapter_summary(13)
    assert (chapter.source, chapter.verses_count, chapter.notes) == ("live", 35, [])
    told = GitaService(GitaSettings(db_path=seeded_copy, api_url="http://127.0.0.1:9"))
    assert told.settings.api_url == "http://127.0.0.1:9"  # a source given now wins


def test_an_unreachable_source_is_asked_once_then_the_cache_answers_with_its_age(seeded_copy):
    with silent_source() as (url, connections):
        service = GitaService(GitaSettings(db_path=seeded_copy, api_url=url, http_timeout=0.3))
        first = service.chapter_summary(2)
        assert connections() == 1  # one probe, one attempt
        answers = [service.chapter_summary(n) for n in (2, 3, 18)]
        assert connections() == 1  # not asked again
    for chapter in (first, *answers):
        assert chapter.source == "cache" and chapter.notes == []  # quietly
        assert chapter.fetched_at and chapter.age_days is not None and chapter.age_days >= 0
    assert first.summary and answers[0].summary == first.summary


def test_a_lookup_miss_does_not_retry_an_unreachable_source_on_every_call(tmp_path):
    with silent_source() as (url, connections):
        service = GitaService(GitaSettings(db_path=tmp_path / "c.db", api_url=url, http_timeout=0.3))
        first = service.lookup("2.47")
        asked = connections()
        again = service.lookup("9.34")
        assert asked >= 1 and connections() == asked
    for verse in (first, again):
        assert verse.translation is None and verse.devanagari  # the packaged Sanskrit
        assert "could not be reached" in verse.notes[0] or "failed" in verse.notes[0]
        assert "--source" in verse.notes[0]


def test_an_uncached_chapter_offline_is_the_shared_offline_error(tmp_path):
    settings = GitaSettings(db_path=tmp_path / "c.db", api_url="http://127.0.0.1:9", http_retries=1)
    service = GitaService(settings)
    with pytest.raises(SourceUnreachableError) as raised:
        service.chapter_summary(2)
    _assert_offline_shape(str(raised.value), "the Gita source", "VEDABASE_API_URL")


def _assert_offline_shape(message: str, what: str, variable: str) -> None:
    assert message.startswith(f"Cannot reach {what} at "), message
    assert "nothing was fetched. Use a reachable mirror or a local copy:" in message
    assert "--source " in message and f"(or set {variable})" in message
    assert "run again to resume" not in message


@pytest.mark.parametrize(
    ("args", "what", "variable"),
    [
        (["gita", "seed"], "the Gita source", "VEDABASE_API_URL"),
        (["sanskrit", "install", "ap90"], "the csl-orig dictionaries", "SANSKRIT_SOURCE_URL"),
        (["pali", "download"], "DPD's release", "DPD_RELEASE_URL"),
        (["gita", "install", "sb", "cc"], "the books' archive", "VEDABASE_BOOKS_SOURCE"),
    ],
)
def test_every_server_says_offline_the_same_way(tmp_path, args, what, variable):
    """Nothing listens on the port: every server's download stops at once, in one shape."""
    closed = "http://127.0.0.1:9"
    env = {"PRAMANA_DATA_DIR": str(tmp_path), "VEDABASE_DB_PATH": "", "SANSKRIT_DB_PATH": "",
           "DPD_DB_PATH": "", "VEDABASE_API_URL": closed, "SANSKRIT_SOURCE_URL": closed,
           "DPD_RELEASE_URL": f"{closed}/dpd.db.tar.bz2",
           "VEDABASE_BOOKS_SOURCE": f"{closed}/slides.tar.gz"}  # fmt: skip
    result = run_pramana(*args, env=env, timeout=120)
    assert result.returncode != 0
    (line,) = [line for line in result.stderr.splitlines() if line.startswith("error: ")]
    _assert_offline_shape(line.removeprefix("error: "), what, variable)


def test_the_first_search_of_a_server_says_what_it_warmed(seeded_copy, monkeypatch):
    """Loading the question model is 3-6 s on a busy machine: the search that pays it says so, once."""
    require_extra(*EXTRA_MODULES)
    monkeypatch.setattr("pramana.gita.service.WARMING_NOTE_AFTER_S", 0.0)
    service = GitaService(GitaSettings(db_path=seeded_copy, question_model=True))
    first = service.search("how can I control my restless mind?", 3)
    second = service.search("what is the self?", 3)
    warmed = "The first search of a process loads the question model (all-MiniLM-L6-v2)"
    assert any(note.startswith(warmed) for note in first.notes), first.notes
    assert not any("first search" in note for note in second.notes)
    words_only = GitaSettings(db_path=seeded_copy, question_model=False)
    lexical = GitaService(words_only, embedder_factory=lambda: None)
    assert not any("first search" in note for note in lexical.search("mind", 3).notes)  # nothing loaded
