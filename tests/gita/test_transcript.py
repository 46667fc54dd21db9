import random
import time

import pytest

from benchmarks._gita_match_cases import NOT_GITA
from pramana import work
from pramana.config import GitaSettings
from pramana.errors import InvalidInputError
from pramana.gita import transcript
from pramana.gita.service import MAX_TRANSCRIPT_CHARS, GitaService
from pramana.gita.transcript import MAX_QUOTE_CHARS

LECTURE = (
    "So today we continue with the Gita. Krishna says, karmanye vadhikaraste ma phaleshu kadachana, "
    "which means you have the right to work but not to the fruits.\n\n"
    "Prabhupada often quoted, man mana bhava mad bhakto mad yaji mam namaskuru. This is the conclusion. "
    "Also, mama evamsho jiva loke jiva bhuta sanatanah, we are eternal parts.\n\n"
    "Then we chanted hare krishna hare krishna krishna krishna hare hare and took prasadam. "
    "Someone asked about the dharma kshetra kuru kshetra samaveta yuyutsava verse. "
    "He said mo phalishu kadachina again."
)


@pytest.fixture
def result(gita):
    return gita.correct_transcript(LECTURE)


def test_confident_quotes_are_replaced_with_the_verse_and_reference(result):
    corrected = result.corrected
    assert "Krishna says, _karmaṇyevādhikāraste mā phaleṣu kadācana_ (BG 2.47), which means" in corrected
    assert "quoted, _manmanā bhava madbhakto madyājī māṃ namaskuru_ (BG 9.34). This" in corrected
    assert "_mamaivāṃśo jīvaloke jīvabhūtaḥ sanātanaḥ_ (BG 15.7), we are" in corrected
    assert "_dharmakṣetre kurukṣetre samavetā yuyutsavaḥ_ (BG 1.1) verse" in corrected
    assert result.replaced == 4


def test_english_is_left_as_it_was(result):
    assert result.corrected.startswith("So today we continue with the Gita. Krishna says, ")
    assert "we are eternal parts.\n\nThen we chanted" in result.corrected


def test_unsure_quotes_are_flagged_never_replaced(result):
    flagged = [span for span in result.spans if span.status == "flagged"]
    # eight consonants, the vowels unlike the verse's: not near-exact enough for so short a quote
    assert [span.original for span in flagged] == ["mo phalishu kadachina"]
    assert "He said mo phalishu kadachina [unsure: BG 2.47? score" in result.corrected
    assert not flagged[0].confident


def test_non_gita_mantra_is_not_replaced(result):
    assert "hare krishna hare krishna krishna krishna hare hare" in result.corrected
    for span in result.spans:
        if "hare" in span.original:
            assert span.status == "ignored"


def test_spans_point_into_the_input(result):
    for span in result.spans:
        assert LECTURE[span.start : span.end] == span.original
    replaced = [s for s in result.spans if s.status == "replaced"]
    assert [s.ref for s in replaced] == ["BG 2.47", "BG 9.34", "BG 15.7", "BG 1.1"]
    assert all(s.correct_transliteration and s.score >= 0.86 for s in replaced)


@pytest.mark.parametrize("text", NOT_GITA)
def test_nothing_is_replaced_in_text_without_gita_quotes(gita, text):
    assert gita.correct_transcript(f"In the morning we recited {text} and then had breakfast.").replaced == 0


def test_devanagari_quote_in_a_transcript(gita):
    fixed = gita.correct_transcript("The verse कर्मण्येवाधिकारस्ते मा फलेषु कदाचन is famous.")
    assert "_karmaṇyevādhikāraste mā phaleṣu kadācana_ (BG 2.47) is famous" in fixed.corrected


def test_big_transcript(gita):
    paragraph = LECTURE + "\n\n"
    big = paragraph * 200  # about 100 KB
    fixed = gita.correct_transcript(big)
    assert fixed.replaced == 800 and fixed.flagged == 200
    assert fixed.words == len(big.split())


@pytest.mark.parametrize("text", ["", "   ", "x" * 1_000_001])
def test_bad_transcripts(gita, text):
    with pytest.raises(InvalidInputError):
        gita.correct_transcript(text)


def test_empty_cache_corrects_from_the_packaged_text(tmp_path):
    service = GitaService(GitaSettings(db_path=tmp_path / "c.db", api_url="http://127.0.0.1:9"))
    fixed = service.correct_transcript("He says karmanye vadhikaraste ma phaleshu kadachana, you see.")
    assert fixed.replaced == 1 and "(BG 2.47)" in fixed.corrected


def test_a_quote_said_many_times_is_matched_once(gita):
    # 1,800 copies (960 KB, 12,600 spans): one match per distinct quote, not half a minute of matching.
    started = time.thread_time()  # this thread's CPU, not the clock
    fixed = gita.correct_transcript((LECTURE + "\n\n") * 1_800)
    assert time.thread_time() - started < 8
    assert fixed.replaced == 4 * 1_800 and fixed.flagged == 1_800


def test_a_transcript_with_too_many_quotes_is_refused_before_matching(gita):
    # Distinct verse fragments between English words, 1 MB of them: ~10,000 quotes, a minute of matching.
    rng = random.Random(5)
    verses = [iast.split() for _, iast, _ in gita.store.transliterations()]
    fragments, size = [], 0
    while size < MAX_TRANSCRIPT_CHARS:
        words = rng.choice(verses)
        start = rng.randrange(len(words) - 4)
        fragments.append(" ".join(words[start : start + rng.randint(3, 6)]) + " and the")
        size += len(fragments[-1]) + 1
    started = time.thread_time()
    with pytest.raises(InvalidInputError, match=r"possible Sanskrit quotes .* send it in parts of about"):
        gita.correct_transcript(" ".join(fragments)[:MAX_TRANSCRIPT_CHARS])
    assert time.thread_time() - started < 15


def test_a_long_run_of_sanskrit_is_matched_in_pieces(gita):
    run = " ".join(["dharmakṣetre kurukṣetre samavetā yuyutsavaḥ"] * 200)  # 8,800 characters, no English
    fixed = gita.correct_transcript(f"He recited {run} and stopped.")
    assert len(fixed.spans) >= 5 and all(s.end - s.start <= MAX_QUOTE_CHARS for s in fixed.spans)
    assert {s.ref for s in fixed.spans} == {"BG 1.1"}


def test_reading_and_matching_stop_at_the_calls_deadline(gita):
    with work.deadline(-1), pytest.raises(work.WorkLimitExceeded, match="reading the transcript"):
        gita.correct_transcript(LECTURE)


class _SteppingClock:
    """A monotonic clock that moves a millisecond each time it is read: a deadline falls after as many
    checks on any machine, however fast or busy (a fast machine once corrected the whole megabyte
    within a real 0.2 s)."""

    def __init__(self) -> None:
        self.now = 0.0

    def monotonic(self) -> float:
        self.now += 0.001
        return self.now


def test_a_megabyte_transcript_stops_at_the_deadline_before_any_matching(gita, monkeypatch):
    transcript = "and so Krishna says dharmaksetre kurukshetre samaveta yuyutsavah. " * 15_000
    # The deadline ended it before any matching began: while reading it or counting its possible
    # quotes (its message says which). 0.2 s is 200 reads of the clock: a megabyte is ~750 checks.
    before_matching = "reading the transcript|counting the transcript's possible quotes"
    monkeypatch.setattr(work, "time", _SteppingClock())
    with work.deadline(0.2), pytest.raises(work.WorkLimitExceeded, match=before_matching):
        gita.correct_transcript(transcript)


@pytest.mark.parametrize("window", [1, 7, 64, 16_384])
def test_words_are_read_a_window_at_a_time_exactly_as_at_once(monkeypatch, window):
    # One finditer over a megabyte held the interpreter lock ~0.1 s; the windows must cut no word.
    monkeypatch.setattr(transcript, "TOKEN_WINDOW", window)
    rng = random.Random(window)
    pieces = ["karmaṇy evādhikāras te", " ", "\n\n", "x" * 300, "mā\tphaleṣu", "  ", "kadācana.", "—"]
    for _ in range(20):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 60)))
        expected = [(m.start(), m.end()) for m in transcript._TOKEN.finditer(text)]
        assert [(m.start(), m.end()) for m in transcript._tokens(text)] == expected
