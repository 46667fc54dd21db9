"""The n-gram index that shortlists verses for the matcher, and the matcher over verses keyed opaquely
(no data needed: small made-up corpora)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pramana.gita.matcher import IndexedVerse
from pramana.gita.phonetic_index import ALPHABET, GramIndex
from pramana.gita.phonetic_matcher import PhoneticMatcher
from pramana.gita.verse_text import is_speaker_line, split_verse

keys = st.text(alphabet=ALPHABET, min_size=0, max_size=60)


@settings(max_examples=60, deadline=None)
@given(st.lists(keys, min_size=1, max_size=30), st.data())
def test_holding_finds_every_unit_that_holds_the_key(corpus, data):
    index = GramIndex(corpus)
    unit = data.draw(st.integers(0, len(corpus) - 1))
    start = data.draw(st.integers(0, len(corpus[unit])))
    piece = corpus[unit][start : start + data.draw(st.integers(0, 20))]
    holding = set(index.holding(piece).tolist())
    assert {i for i, key in enumerate(corpus) if piece in key} <= holding
    assert unit in holding


def test_shortlist_ranks_by_shared_grams_and_keeps_the_favoured():
    corpus = ["kctpnsyrl", "srkrsnpktn", "kctpnsyrlkctp", "nnnnnnnn", "ssstpkss"]
    index = GramIndex(corpus)
    assert list(index.shortlist("kctpnsy", 2)) == [0, 2]  # every 3-gram of the quote, in unit order
    assert 3 not in index.shortlist("kctpnsy", 5)  # no gram shared: never a candidate
    favoured = np.array([False, False, False, False, True])
    assert list(index.shortlist("kctpk", 1)) == [0]
    assert list(index.shortlist("kctpk", 1, favoured=favoured, favoured_limit=1)) == [0, 4]
    allowed = np.array([False, True, True, True, True])
    assert list(index.shortlist("kctpnsy", 5, allowed)) == [2]


def test_holding_allows_the_edits_asked_for():
    index = GramIndex(["srkrsnpktnkctp"])
    assert list(index.holding("srkrsnpktn")) == [0]
    assert list(index.holding("srkrsypktn")) == []  # a slip
    assert list(index.holding("srkrsypktn", edits=1)) == [0]


@dataclass(frozen=True)
class Key:
    """A book's own reference type: the matcher only hashes and prints it."""

    book: str
    number: int

    def __str__(self) -> str:
        return f"{self.book} {self.number}"


CORPUS = [
    IndexedVerse(Key("A", 1), "dharmakṣetre kurukṣetre samavetā yuyutsavaḥ", book="A"),
    IndexedVerse(Key("B", 1), "śrī-śuka uvāca\nsa vai puṁsāṁ paro dharmo\nyato bhaktir adhokṣaje", book="B"),
    IndexedVerse(Key("B", 2), "śrī-śuka uvāca\nahaituky apratihatā\nyayātmā suprasīdati", book="B"),
    IndexedVerse(Key("C", 1), "ahaituky apratihatā\nyayātmā suprasīdati\nkīrtanīyaḥ sadā hariḥ", book="C"),
]


def test_verses_keyed_opaquely_and_filtered_by_book():
    matcher = PhoneticMatcher(CORPUS, priors={})
    report = matcher.match("sa vai pumsam paro dharmo yato bhaktir adhokshaje", 3)
    assert report.matches[0].ref == Key("B", 1) and report.matches[0].book == "B"
    assert report.confident
    assert matcher.match("sa vai pumsam paro dharmo", 3, books={"A", "C"}).matches[0].book != "B"
    assert matcher.books == ["A", "B", "C"] and len(matcher) == 4


def test_the_same_words_in_two_books_are_the_first_books():
    report = PhoneticMatcher(CORPUS, priors={}).match("ahaituky apratihata yayatma suprasidati", 3)
    top = report.matches[0]
    assert top.ref == Key("B", 2) and top.also_in == (Key("C", 1),) and top.recurs == 1
    assert all(m.ref != Key("C", 1) for m in report.matches)  # named once, in also_in


def test_a_speakers_line_names_every_verse_it_opens():
    report = PhoneticMatcher(CORPUS, priors={}).match("sri suka uvaca", 3)
    assert [report.matches[0].ref, *report.matches[0].also_in] == [Key("B", 1), Key("B", 2)]
    assert not report.confident


def test_speaker_lines():
    recited, speakers = split_verse("śrī-śuka uvāca\nsa vai puṁsāṁ paro dharmo\ndevā ūcuḥ")
    assert (recited, speakers) == (["sa vai puṁsāṁ paro dharmo"], ["śrī-śuka uvāca", "devā ūcuḥ"])
    for line in ["śrī-rājovāca", "śrī bādarāyaṇir uvāca", "श्रीभगवानुवाच |", "arjuna uvāca |"]:
        assert is_speaker_line(line), line
    for line in ["apaśyann iti hovāca", "tau pūjayitvā provāca", "uvāca pārtha paśyaitān"]:
        assert not is_speaker_line(line), line  # the verse's own words


def test_shortlist_weighs_a_rare_gram_above_a_common_one():
    common = [f"kctrl{'s' * i}" for i in range(20)]  # "kct" in twenty units
    index = GramIndex([*common, "pnyrl"])  # "pny" in one
    # the quote shares one gram with each unit: the rare one decides, not the order of the units
    assert list(index.shortlist("pnykct", 1)) == [20]


def test_a_dropped_consonant_costs_one_edit_not_two():
    from pramana.gita.phonetic_matcher import _alignment_scores

    verse = "srkrsnpktnkctp"
    lengths = np.array([len(verse)], dtype=np.int32)
    exact, dropped, changed = "snpktnkc", "snpkttkc", "snptnkc"  # the same stretch, one slip and one gap
    assert _alignment_scores(exact, [verse], lengths, (1, 2))[0] == 1.0
    # a changed consonant: 2 edits of 16 letters; a dropped one: 1 edit of 14
    assert _alignment_scores(dropped, [verse], lengths, (1, 2))[0] == pytest.approx(1 - 2 / 16)
    assert _alignment_scores(changed, [verse], lengths, (1, 2))[0] == pytest.approx(1 - 1 / 14)
    # too short a verse for a longer stretch: aligned as it is
    short = np.array([7], dtype=np.int32)
    assert _alignment_scores(changed, ["snptnkc"], short, (1, 2), exact=False)[0] == 1.0


# Made-up lines: a quote that lost a syllable ("madhura" said "madhu") against a verse that holds the
# quote's consonants with one changed (given first, so that a tie would go to it).
DROPPED = [
    IndexedVerse(Key("D", 1), "kusumākara-vana-cāriṇī\nmadhu-gīta-vilāsiyī rasa-maṇḍale", book="D"),
    IndexedVerse(Key("D", 2), "kusumākara-vana-cāriṇī\nmadhura-gīta-vilāsinī rasa-maṇḍale", book="D"),
    IndexedVerse(Key("D", 3), "govinda-pada-sevinī\nsakala-loka-pāvanī", book="D"),
]


def test_a_quote_that_lost_a_syllable_finds_its_verse():
    report = PhoneticMatcher(DROPPED, priors={}).match("madhu-gita-vilasini", 3)
    assert report.matches[0].ref == Key("D", 2)


def test_a_syllable_said_twice_is_matched_as_said_once():
    matcher = PhoneticMatcher(DROPPED, priors={})
    fluent = matcher.match("madhura gita vilasini rasa mandale", 1).matches[0]
    stuttered = matcher.match("madhurara gigita vilasini rasa mandamandale", 1).matches[0]
    assert stuttered.ref == fluent.ref == Key("D", 2)
    assert stuttered.score == fluent.score


def test_stutters():
    from pramana.gita.phonetic_matcher import without_stutters

    assert without_stutters("prapraprabhu sabdabdam") == "prabhu sabdam"
    assert without_stutters("anananananta mandamandale") == "ananta mandale"
    assert without_stutters("krame krame") == "krame krame"  # said twice apart: the verse's words


def test_a_stuttered_quote_is_reported_as_given_with_a_note():
    report = PhoneticMatcher(DROPPED, priors={}).match("madhurara gigita vilasini", 1)
    assert report.query == "madhurara gigita vilasini"
    assert any("said once: 'madhura gita vilasini'" in note for note in report.notes)


# A short quote whose consonants one verse (X) holds exactly with other vowels, and two verses hold with
# a consonant changed: Y, the quote's own verse, and Z, given first, whose vowels differ.
WINDOW = [
    IndexedVerse(Key("Z", 1), "sukham ātyantikaṁ yat tad\nvetti yatra na caivāyaṁ", book="Z"),
    IndexedVerse(Key("Y", 1), "droṇaṁ ca bhīṣmaṁ ca jayadrathaṁ ca\nkarṇaṁ tathānyān api", book="Y"),
    IndexedVerse(Key("X", 1), "kibā nāma dharāñācha, bujhana nā yāya", book="X"),
    *CORPUS,
    *DROPPED,
]


def test_vowels_are_weighed_for_every_verse_that_can_lead():
    """X's exact consonants set the window of verses whose vowels are weighed, and its vowels drop it
    below Y and Z: they must be weighed too, or Z wins a tie of consonants by coming first."""
    matcher = PhoneticMatcher(WINDOW, priors={})
    report = matcher.match("drona ca bhi ca", 3)
    assert [m.ref for m in report.matches] == [Key("Y", 1), Key("X", 1), Key("Z", 1)]
    assert report.matches[0].score > report.matches[1].score > report.matches[2].score
