"""Before any seed: the packaged Sanskrit answers lookups, matching and transcripts; offline seeds
fail fast and say how to seed from elsewhere."""

import pytest

from pramana.config import GitaSettings
from pramana.errors import NotReadyError, SourceUnreachableError
from pramana.gita.service import GitaService
from tests.conftest import run_pramana
from tests.gita.faulty_server import closed_port_url, hanging_server

QUOTE_9_34 = "man manā bhava mad-bhākto mad-yajī mam namāskuru"


@pytest.fixture
def offline(tmp_path) -> GitaService:
    """A fresh cache file and a source where nothing listens."""
    return GitaService(GitaSettings(db_path=tmp_path / "fresh" / "cache.db", api_url=closed_port_url()))


def test_lookup_without_seed_or_source_gives_the_sanskrit_and_how_to_get_the_translation(offline):
    verse = offline.lookup("BG 2.47")
    assert verse.devanagari.startswith("कर्मण्येवाधिकारस्ते मा फलेषु कदाचन |")
    assert verse.transliteration.endswith("saṅgo'stvakarmaṇi ||2-47||")
    assert verse.translation is None
    (note,) = verse.notes
    assert "pramana gita seed" in note and "--source" in note and "VEDABASE_API_URL" in note
    assert "connection failed" in note
    assert offline.store.verse_count() == 0


def test_lookup_without_seed_fetches_the_translation_when_the_source_answers(tmp_path, mirror_url):
    service = GitaService(GitaSettings(db_path=tmp_path / "c.db", api_url=mirror_url))
    verse = service.lookup("9.34")
    assert verse.translation is not None and verse.notes == []
    assert verse.transliteration.startswith("manmanā bhava madbhakto")
    assert service.store.verse_count() == 1


def test_match_and_transcript_work_over_all_701_verses_without_seed(offline):
    result = offline.match(QUOTE_9_34, 3)
    assert result.matches[0].ref == "BG 9.34" and result.confident
    assert result.top_match.ref == "BG 9.34" and result.top_match.translation is None
    assert "not cached" in result.top_match.notes[0]
    assert "connection failed" not in result.top_match.notes[0]  # no network was tried
    assert offline.match("yadā yadā hi dharmasya glānirbhavati bhārata", 1).matches[0].ref == "BG 4.7"
    assert offline.match("sarva dharman parityajya mam ekam sharanam vraja", 1).matches[0].ref == "BG 18.66"
    fixed = offline.correct_transcript("Krishna says karmanye vadhikaraste ma phaleshu kadachana, you see.")
    assert fixed.replaced == 1 and "(BG 2.47)" in fixed.corrected


def test_search_without_seed_says_to_seed_and_how(offline):
    with pytest.raises(NotReadyError) as raised:
        offline.search("karma", 5)
    message = str(raised.value)
    assert "seed_database" in message and "pramana gita seed --source" in message
    assert "VEDABASE_API_URL" in message


def test_transliterations_are_shown_with_proper_marks(gita):
    verse = gita.lookup("BG 2.47")
    assert verse.transliteration == (
        "karmaṇyevādhikāraste mā phaleṣu kadācana |\nmā karmaphalaheturbhūrmā te saṅgo'stvakarmaṇi ||2-47||"
    )
    match = gita.match("ma karma phala hetur bhur ma te sango stv akarmani", 3)
    assert match.matches[0].ref == "BG 2.47"
    assert "saṅgo'stvakarmaṇi" in match.matches[0].matched
    assert match.matches[0].transliteration == verse.transliteration
    assert match.top_match.transliteration == verse.transliteration
    hit = gita.search("karmanyevadhikaraste", 1).results[0]
    assert hit.transliteration == verse.transliteration
    fixed = gita.correct_transcript("He said ma karma phala hetur bhur ma te sango stv akarmani, you see.")
    assert "saṅgo'stvakarmaṇi_ (BG 2.47)" in fixed.corrected
    assert fixed.spans[0].correct_transliteration.endswith("saṅgo'stvakarmaṇi")
    assert "kadācana ." not in gita.lookup("1.1").transliteration


AVAGRAHA_FORMS = [
    "saṅgo'stvakarmaṇi",  # proper IAST
    "saṅgo’stvakarmaṇi",
    "saṅgo.astvakarmaṇi",  # the dataset's
    "saṅgostvakarmaṇi",  # none
    "sango'stvakarmani",
    "sango astvakarmani",
]


@pytest.mark.parametrize("avagraha", AVAGRAHA_FORMS)
def test_search_and_match_read_any_avagraha(gita, avagraha):
    assert [h.ref for h in gita.search(avagraha, 3).results][:1] == ["BG 2.47"]
    assert gita.match(f"mā karmaphalaheturbhūrmā te {avagraha}", 1).matches[0].ref == "BG 2.47"


def test_an_apostrophe_in_english_is_still_english(gita):
    assert gita.questions().reads_as_english("one's prescribed duty")
    found = gita.search("one's prescribed duty", 10)  # 3.8, 18.7, 18.9, 18.47 (prescribed duties too)
    assert found.results and "BG 3.35" in [h.ref for h in found.results]  # may come first


# -- an offline seed ---------------------------------------------------------------------


def _assert_says_what_to_do(message: str) -> None:
    assert "--source" in message and "VEDABASE_API_URL" in message and "nothing was fetched" in message


def test_seed_with_the_source_refusing_connections_stops_at_its_first_request(offline):
    with pytest.raises(SourceUnreachableError) as raised:
        offline.seed()
    _assert_says_what_to_do(str(raised.value))  # "nothing was fetched": the probe, then no more
    assert "connection failed" in str(raised.value) and "after 1 attempts" in str(raised.value)


def test_seed_with_a_source_that_never_answers_waits_one_timeout_once(tmp_path):
    with hanging_server() as url:
        service = GitaService(GitaSettings(db_path=tmp_path / "c.db", api_url=url, http_timeout=1.0))
        with pytest.raises(SourceUnreachableError) as raised:
            service.seed()
    _assert_says_what_to_do(str(raised.value))
    # One attempt, which waited the configured timeout (the message names the one applied).
    assert "after 1 attempts: timed out (no answer within 1 s:" in str(raised.value)


def test_seed_waits_for_a_hanging_source_at_most_the_probe_timeout(tmp_path, monkeypatch):
    from pramana.gita import service as service_module

    monkeypatch.setattr(service_module, "PROBE_TIMEOUT_S", 1.0)
    with hanging_server() as url:
        service = GitaService(GitaSettings(db_path=tmp_path / "c.db", api_url=url, http_timeout=30))
        with pytest.raises(SourceUnreachableError) as raised:
            service.seed()
    assert "no answer within 1 s:" in str(raised.value)  # the probe's timeout, not the 30 s one


def test_cli_seed_offline_is_one_line_naming_source(tmp_path):
    result = run_pramana("gita", "seed", "--db", str(tmp_path / "c.db"), "--source", closed_port_url())
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    assert "--source" in result.stderr and "VEDABASE_API_URL" in result.stderr


def test_cli_match_on_a_fresh_install(tmp_path):
    """A new process, an empty data directory, no cache, no source: the spec's example answers."""
    env = {
        "HOME": str(tmp_path),
        "PRAMANA_DATA_DIR": str(tmp_path / "data"),
        "VEDABASE_DB_PATH": str(tmp_path / "data" / "cache.db"),
        "VEDABASE_API_URL": closed_port_url(),
    }
    result = run_pramana("gita", "match", QUOTE_9_34, env=env)
    assert result.returncode == 0, result.stderr
    assert "Confident match: BG 9.34" in result.stdout
    assert "manmanā bhava madbhakto" in result.stdout
