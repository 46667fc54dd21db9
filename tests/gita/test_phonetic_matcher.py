"""The default matcher against the repo's test set: hand-written quotes, the non-Gita
negatives, and every kind of transcript corruption generated from the cached verses."""

from __future__ import annotations

from collections import defaultdict

import pytest

from benchmarks._gita_garble import KINDS, make_cases
from benchmarks._gita_match_cases import LECTURE_QUOTES, NOT_GITA, SPEC_PAIRS
from pramana.gita.packaged import english_words, indexed_verses
from pramana.gita.phonetic_matcher import PhoneticMatcher
from pramana.gita.reference import VerseRef
from pramana.gita.store import GitaStore
from pramana.text.phonetic import skeleton

# Minimum top-1 accuracy per kind of corruption (measured: see benchmarks/gita_match.py).
MIN_TOP1 = defaultdict(lambda: 0.95, {"syllables": 0.8, "english_filler": 0.85})


@pytest.fixture(scope="module")
def store(seeded_db):
    return GitaStore(seeded_db)


@pytest.fixture(scope="module")
def matcher():
    return PhoneticMatcher(indexed_verses(), english_words())  # as the service builds it


def test_skeleton_maps_back_to_the_source():
    garbled = skeleton("mā mā evaṁ sa jīva-loka")
    assert garbled.key == skeleton("mamaivāṃśo jīvaloke").key == "nnpnscplk"
    start, end = garbled.span(5, 9)
    assert "mā mā evaṁ sa jīva-loka"[start:end] == "jīva-lok"


@pytest.mark.parametrize(("text", "ref"), SPEC_PAIRS + LECTURE_QUOTES)
def test_hand_written_quotes_come_out_on_top_and_confident(matcher, text, ref):
    report = matcher.match(text, 3)
    assert str(report.matches[0].ref) == ref
    assert report.confident


@pytest.mark.parametrize("text", NOT_GITA)
def test_text_not_from_the_gita_is_never_confident(matcher, text):
    assert not matcher.match(text, 3).confident


def test_every_kind_of_corruption(matcher, store):
    cases = make_cases(store.transliterations(), per_kind=30, seed=2024)
    hits, totals, wrong_confident = defaultdict(int), defaultdict(int), []
    for case in cases:
        report = matcher.match(case.text, 3)
        top = str(report.matches[0].ref) if report.matches else None
        totals[case.kind] += 1
        hits[case.kind] += top in case.expected
        if report.confident and top not in case.expected:
            wrong_confident.append((case.kind, case.text, top))
    assert set(totals) == set(KINDS)
    for kind in KINDS:
        assert hits[kind] / totals[kind] >= MIN_TOP1[kind], (kind, hits[kind], totals[kind])
    assert len(wrong_confident) <= 1, wrong_confident


def test_the_matched_span_is_the_quoted_part_of_the_verse(matcher):
    report = matcher.match("mā phaleṣu kadācana", 1)
    top = report.matches[0]
    assert top.ref == VerseRef(2, 47)
    assert top.matched == "mā phaleṣu kadācana"
    assert top.line == "karmaṇyevādhikāraste mā phaleṣu kadācana"


def test_iast_and_devanagari_line_splits_are_both_indexed(matcher):
    """BG 1.20's Devanāgarī ends with the half-line that its IAST puts at the start of 1.21."""
    report = matcher.match("hrishikesham tada vakyam idam aha mahipate", 3)
    top = report.matches[0]
    assert (str(top.ref), [str(ref) for ref in top.also_in]) == ("BG 1.20", ["BG 1.21"])
    assert "BG 1.21" not in {str(m.ref) for m in report.matches[1:]}  # the others are other words


def test_identical_lines_in_two_verses_are_noted(matcher):
    report = matcher.match("manmana bhava madbhakto madyaji mam namaskuru", 3)
    assert [str(ref) for ref in report.matches[0].also_in] == ["BG 18.65"]
    assert report.matches[0].recurs == 1 and report.confident
    assert str(report.matches[0].ref) == "BG 9.34"  # of verses with the same words, the first
    assert "also appear in BG 18.65" in report.notes[0]


def test_english_filler_is_trimmed(matcher):
    report = matcher.match("Krishna says, karmanye vadhikaraste ma phaleshu kadachana, which means", 1)
    assert report.query == "karmanye vadhikaraste ma phaleshu kadachana,"
    assert str(report.matches[0].ref) == "BG 2.47"


def test_names_in_the_translations_stay_sanskrit(matcher):
    assert matcher.is_english("says") and matcher.is_english("Which")
    assert not matcher.is_english("pandava") and not matcher.is_english("kaunteya")
    assert not matcher.is_english("phaleṣu")


@pytest.mark.parametrize("text", ["ma", "om", "hi", "...", "123 456"])
def test_too_little_to_match(matcher, text):
    report = matcher.match(text, 3)
    assert not report.confident and report.matches == []
