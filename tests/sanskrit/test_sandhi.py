"""Words sandhi joined (tasyāham, caiva, nāsti, yo'yam) and compounds are split into known parts, each
analysed, ranked with the word's own readings."""

import time

import pytest

from pramana.sanskrit import compound
from pramana.sanskrit.sandhi import MAX_SPLIT_CHARS, Segmenter, junctions


def lemmas_of(split) -> set[str]:
    return {a.lemma for part in split.parts for a in part.analyses}


@pytest.mark.parametrize(
    ("group", "words", "lemmas"),
    [  # joins as the Gītā writes them
        ("tasyāham", ["tasya", "aham"], ["tad", "asmad"]),  # 10.20: ā = a + a
        ("caiva", ["ca", "eva"], ["ca", "eva"]),  # ai = a + e
        ("nāsti", ["na", "asti"], ["na", "as"]),  # 2.66
        ("yo'yam", ["yo", "ayam"], ["tad", "idam"][1:]),  # 6.33: avagraha; yo is yaḥ before sandhi
        ("hyavaśaḥ", ["hi", "avaśaḥ"], ["hi"]),  # 3.5: y = i before a vowel
        ("mameha", ["mama", "iha"], ["asmad", "iha"]),  # e = a + i
        ("cāpi", ["ca", "api"], ["ca", "api"]),
        ("devairapi", ["devair", "api"], ["deva", "api"]),  # r for the visarga before a vowel
        ("gatvāpi", ["gatvā", "api"], ["gam", "api"]),  # a word, not a compound's member, before api
    ],
)
def test_a_sandhi_group_resolves_to_its_words(forms, group, words, lemmas):
    analysed = forms.analyze(group)
    best = analysed.splits[0]
    assert [part.word for part in best.parts] == words
    assert set(lemmas) <= lemmas_of(best), (best.summary, lemmas_of(best))
    assert analysed.likeliest == "split"


def test_three_words(forms):
    split = forms.analyze("caivāham").splits[0]  # ca + eva + aham
    assert [part.word for part in split.parts] == ["ca", "eva", "aham"]
    assert "aham (nominative singular" in split.summary and "of asmad" in split.summary


def test_a_split_is_tried_even_when_a_rare_reading_exists(forms):
    analysed = forms.analyze("ceha")  # ca + iha, though ceha may be read as a form of a root
    assert [part.word for part in analysed.splits[0].parts] == ["ca", "iha"]
    assert analysed.likeliest == "split"


def test_exact_search_falls_back_to_the_split(forms):
    found = forms.search("caiva")
    assert found.matched_by == "sandhi" and found.splits
    assert {"ca", "eva"} <= {hit.word for hit in found.results}
    assert forms.search("eva").matched_by == "exact"  # a headword is never split


def test_a_common_word_is_not_split(forms):
    analysed = forms.analyze("tasya")
    assert analysed.splits == [] or analysed.likeliest == "analysis"


def test_junctions_undo_each_rule():
    pairs = set(junctions("tasyAham")) | set(junctions("viSIdannidam")) | set(junctions("tacCrutvA"))
    pairs |= set(junctions("tAMllokAn"))  # Whitney §161: n before l a nasalised l (tān lokān)
    assert {("tasya", "aham"), ("viSIdan", "idam"), ("tat", "SrutvA"), ("tAn", "lokAn")} <= pairs


def test_a_hostile_long_word_is_bounded(forms):
    tests: list[str] = []

    def everything(part: str) -> float:
        tests.append(part)
        return 1.0  # every part known: the worst case for the search

    segmenter = Segmenter(everything, everything)
    word = "cEvAham" * 7  # 49 letters: over the limit, not split at all
    assert segmenter.split(word) == [] and tests == []
    started = time.thread_time()  # this thread's CPU, not the clock
    splits = segmenter.split(word[:MAX_SPLIT_CHARS])
    assert splits and len(tests) <= 3 * Segmenter.BUDGET
    assert time.thread_time() - started < 5
    started = time.thread_time()
    analysed = forms.analyze("aeiou" * 9 + "xyz")  # 48 letters no split can make known
    assert analysed.splits == [] and analysed.note
    assert time.thread_time() - started < 5
    too_long = forms.analyze("tasyāham" * 16)  # longer than a long compound's search takes (128 letters)
    assert too_long.splits == [] and f"up to {compound.MAX_LETTERS} letters" in too_long.note


def test_cli_analyze_shows_the_split(forms_db):
    from tests.conftest import run_pramana

    done = run_pramana("sanskrit", "analyze", "caiva", "--db", str(forms_db))
    assert done.returncode == 0, done.stderr
    assert "caiva" in done.stdout and "ca (indeclinable ca) + eva (indeclinable eva)" in done.stdout


def test_a_final_a_before_a_vowel_is_never_left_unjoined():
    assert ("ca", "iva") not in set(junctions("caiva"))  # caiva is ca eva, however it is spelled
    assert ("ca", "eva") in set(junctions("cEva"))
    assert ("hi", "iha") in set(junctions("hiiha"))  # only a and ā always join


def test_usable_junctions_keep_junctions_order_without_repeats_or_short_parts():
    from pramana.sanskrit.sandhi import MIN_PART, usable_junctions

    for word in ("tasyAham", "viSIdannidam", "tacCrutvA", "yo'yam", "hyavaSaH", "tAMstAn", "rAjaputreRa"):
        pairs = junctions(word)
        every = [pair for pair in pairs if min(map(len, pair)) >= MIN_PART and "'" not in "".join(pair)]
        usable = usable_junctions(word)
        assert list(usable) == list(dict.fromkeys(every))  # the search ranks ties in this order
        assert len(set(usable)) == len(usable)


def test_a_long_groups_search_undoes_each_strings_junctions_once():
    """The same rest is reached at several depths of one search: its junctions are made once."""
    from pramana.sanskrit.sandhi import usable_junctions

    usable_junctions.cache_clear()
    segmenter = Segmenter(lambda part: -5.0 if len(part) >= 3 else None, lambda part: None)
    segmenter.split("rAmaputrasyABaraRAni", budget=2000)
    info = usable_junctions.cache_info()
    assert info.hits > 0 and info.misses < info.hits + info.misses


def test_a_first_parts_score_is_remembered_and_splits_are_as_a_fresh_search_makes_them():
    """The segmenter scores each first part once (member, then word when it is no likely member); a
    search after others gives the splits a fresh segmenter gives, in the same order, with the same
    budget spent."""
    members = {"rAma": -6.0, "putra": -7.0, "deva": -6.5, "dat": -12.0, "Ba": -13.0}
    words = {"putrasya": -8.0, "AgacCati": -9.0, "datta": -10.0, "ca": -4.0, "rAmaH": -7.5}
    asked: list[tuple[str, str]] = []

    def member(part: str) -> float | None:
        asked.append(("member", part))
        return members.get(part)

    def word(part: str) -> float | None:
        asked.append(("word", part))
        return words.get(part)

    remembering = Segmenter(member, word)
    groups = ["rAmaputrasya", "devadatta", "rAmaputrasya", "rAmaScAgacCati", "devadatta"]
    for group in groups:
        asked.clear()
        found = remembering.split(group)
        spent = remembering._tests
        fresh = Segmenter(members.get, words.get)
        assert found == fresh.split(group) and spent == fresh._tests
        assert len(asked) == len(set(asked))  # no part scored twice as a member, nor twice as a word
    asked.clear()
    assert remembering.split("rAmaputrasya")
    assert all(kind == "word" for kind, _ in asked)  # its first parts were scored before; only wholes asked
