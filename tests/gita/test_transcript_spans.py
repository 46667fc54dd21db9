"""Correction changes only the quote: generated transcripts with garbled quotes planted among English
words (some of them Sanskrit used as English: bhakti, yoga, dharma), at the start, middle and end."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks._gita_garble import TRANSFORMS, Case, make_cases
from pramana.config import GitaSettings
from pramana.gita.models import TranscriptCorrection, TranscriptSpan
from pramana.gita.service import GitaService
from pramana.gita.verse_text import proper_iast
from pramana.text.normalize import fold_word

# What is said before and after a quote: plain English, Sanskrit words used as English, punctuation.
BEFORE = [
    "",
    "Krishna says, ",
    "This is the essence of bhakti: ",
    "This is real yoga, ",
    "The dharma is clear: ",
    "He explained karma yoga (",
    "Remember “",
    "So the guru said - ",
    "And then\n",
]
AFTER = [
    "",
    ".",
    ", as dharma teaches.",
    ", and this is bhakti yoga.",
    " karma is the point here.",
    "; yoga means this.",
    ")",
    "” he said.",
    "? Yes, maya.",
    "\n\nNext point.",
]
KINDS = [*TRANSFORMS, "partial_quote"]


@dataclass(frozen=True)
class Planted:
    text: str
    start: int  # the garbled quote's range in the text
    end: int
    case: Case


@pytest.fixture(scope="module")
def service(seeded_db, mirror_url):
    gita = GitaService(GitaSettings(db_path=seeded_db, api_url=mirror_url))
    yield gita
    gita.close()


class Cases(list[Case]):
    def __repr__(self) -> str:  # hypothesis prints the test's arguments when it fails
        return f"<{len(self)} garbled quotes>"


@pytest.fixture(scope="module")
def cases(service) -> Cases:
    return Cases(
        case for case in make_cases(service.store.transliterations(), 20, seed=15) if case.kind in KINDS
    )


def plant(case: Case, before: str, after: str) -> Planted:
    return Planted(before + case.text + after, len(before), len(before) + len(case.text), case)


def unchanged_outside_spans(text: str, result: TranscriptCorrection) -> None:
    """Every character outside the spans is in the corrected text as it was, between the rewrites."""
    position, rest = 0, result.corrected
    for span in (s for s in result.spans if s.status != "ignored"):
        kept = text[position : span.start]
        assert rest.startswith(kept), (kept, rest[: len(kept) + 20])
        rest = rest[len(kept) :]
        rest = rest[len(rewrite(span, rest)) :]
        position = span.end
    assert rest == text[position:]


def rewrite(span: TranscriptSpan, rest: str) -> str:
    if span.status == "replaced":
        expected = f"_{span.correct_transliteration}_ ({span.ref})"
        assert rest.startswith(expected)
        return expected
    match = re.match(re.escape(span.original) + r" \[unsure: BG \d+\.\d+\? score \d\.\d\d\]", rest)
    assert match, rest[:80]
    return match.group()


def quoted_words(case: Case) -> set[str]:
    # the case quotes the data's IAST (sarvato.ananta…); replacements show proper marks (sarvato'nanta…)
    return {fold_word(word) for word in re.split(r"[\s/|]+", proper_iast(case.source)) if fold_word(word)}


def verse_words(span: TranscriptSpan) -> set[str]:
    words = re.split(r"[\s/|]+", span.correct_transliteration or "")
    return {fold_word(word) for word in words if fold_word(word)}


@settings(max_examples=400, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_only_the_quote_changes(service, cases, data):
    case = data.draw(st.sampled_from(cases), label="case")
    planted = plant(case, data.draw(st.sampled_from(BEFORE)), data.draw(st.sampled_from(AFTER)))
    result = service.correct_transcript(planted.text)
    unchanged_outside_spans(planted.text, result)
    replaced = [span for span in result.spans if span.status == "replaced"]
    for span in replaced:
        assert planted.start <= span.start and span.end <= planted.end, (planted.text, span.original)
        if span.ref in case.expected:
            assert verse_words(span) <= quoted_words(case), (planted.text, span.correct_transliteration)


def test_english_around_the_quote_is_kept(service, cases):
    """Every case between Sanskrit-looking English words: no replaced span reaches outside the quote."""
    bad = []
    for case in cases:
        planted = plant(case, "The essence of bhakti: ", ", as dharma teaches.")
        result = service.correct_transcript(planted.text)
        unchanged_outside_spans(planted.text, result)
        for span in result.spans:
            if span.status == "replaced" and not (planted.start <= span.start and span.end <= planted.end):
                bad.append((planted.text, span.original))
            if span.status == "flagged":  # an unsure span may be wider; its words are kept as said
                assert f"{span.original} [unsure: {span.ref}?" in result.corrected
    assert not bad, (len(bad), bad)


@pytest.mark.parametrize(
    ("text", "corrected"),
    [
        (
            "This is the essence of bhakti: man mana bhava mad bhakto mad yaji mam namaskuru, says Krishna.",
            "This is the essence of bhakti: _manmanā bhava madbhakto madyājī māṃ namaskuru_ (BG 9.34),"
            " says Krishna.",
        ),
        (
            "This is real yoga, karmanye vadhikaraste ma phaleshu kadachana.",
            "This is real yoga, _karmaṇyevādhikāraste mā phaleṣu kadācana_ (BG 2.47).",
        ),
        (
            "Act without attachment: karmanye vadhikaraste ma phaleshu kadachana, as dharma teaches.",
            "Act without attachment: _karmaṇyevādhikāraste mā phaleṣu kadācana_ (BG 2.47),"
            " as dharma teaches.",
        ),
    ],
)
def test_measured_cases(service, text, corrected):
    assert service.correct_transcript(text).corrected == corrected


def test_a_partial_quote_is_replaced_by_the_words_quoted_only(service):
    result = service.correct_transcript(
        "He said ma phaleshu kadachana ma karma phala hetur bhur, and stopped."
    )
    assert result.corrected == (
        "He said _mā phaleṣu kadācana / mā karmaphalaheturbhūrmā_ (BG 2.47), and stopped."
    )


def test_whitespace_around_the_transcript_is_kept_and_spans_index_the_input(service):
    text = "\n  Krishna says, karmanye vadhikaraste ma phaleshu kadachana.  \n"
    result = service.correct_transcript(text)
    assert result.corrected == "\n  Krishna says, _karmaṇyevādhikāraste mā phaleṣu kadācana_ (BG 2.47).  \n"
    assert [text[s.start : s.end] for s in result.spans] == ["karmanye vadhikaraste ma phaleshu kadachana"]
