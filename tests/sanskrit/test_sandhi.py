"""Words sandhi joined (tasyāham, caiva, nāsti, yo'yam) are split into known words, each analysed."""

import time

import pytest

from pramana.sanskrit.sandhi import MAX_SPLIT_CHARS, junctions, split_sandhi


@pytest.mark.parametrize(
    ("group", "words", "lemmas"),
    [  # joins as the Gītā writes them
        ("tasyāham", ["tasya", "aham"], ["tad", "asmad"]),  # 10.20: ā = a + a
        ("caiva", ["ca", "eva"], ["ca", "eva"]),  # ai = a + e
        ("nāsti", ["na", "asti"], ["na", "as"]),  # 2.66
        ("yo'yam", ["yo", "ayam"], ["yad", "idam"]),  # 6.33: avagraha; yo is yaḥ before sandhi
        ("tayorna", ["tayor", "na"], ["tad", "na"]),  # 3.34: r = ḥ before a voiced sound
        ("hyavaśaḥ", ["hi", "avaśaḥ"], ["hi"]),  # 3.5: y = i before a vowel
        ("yajjñātvā", ["yat", "jñātvā"], ["yad", "jñā"]),  # 4.35: j = t before j
        ("mameha", ["mama", "iha"], ["asmad", "iha"]),  # e = a + i
    ],
)
def test_a_sandhi_group_resolves_to_its_words(forms, group, words, lemmas):
    analysed = forms.analyze(group)
    assert analysed.count == 0 and analysed.note is None
    best = analysed.splits[0]
    assert [part.word for part in best.parts] == words
    found = {a.lemma for part in best.parts for a in part.analyses} | {
        part.word for part in best.parts if part.article_ids
    }
    assert set(lemmas) <= found, (best.summary, found)
    assert best.summary.startswith(f"{group}: ")


def test_three_words(forms):
    split = forms.analyze("caivāham").splits[0]  # ca + eva + aham
    assert [part.word for part in split.parts] == ["ca", "eva", "aham"]
    assert "aham (nominative singular" in split.summary and "of asmad" in split.summary


def test_the_summary_names_each_words_reading(forms):
    summary = forms.analyze("tasyāham").splits[0].summary
    assert summary.startswith("tasyāham: tasya (genitive singular")
    assert " of tad) + aham (nominative singular" in summary


def test_exact_search_falls_back_to_the_split_after_exact_and_form_hits(forms):
    found = forms.search("caiva")
    assert found.matched_by == "sandhi" and found.splits
    assert {"ca", "eva"} <= {hit.word for hit in found.results}
    assert found.did_you_mean == []
    assert forms.search("eva").matched_by == "exact"  # a headword is never split
    assert forms.search("rāmeṇa").matched_by == "form" and not forms.search("rāmeṇa").splits


def test_a_word_that_is_a_form_is_not_split(forms):
    assert forms.analyze("tasya").splits == []


def test_junctions_undo_each_rule():
    pairs = set(junctions("tasyAham")) | set(junctions("viSIdannidam")) | set(junctions("tacCrutvA"))
    assert {("tasya", "aham"), ("viSIdan", "idam"), ("tat", "SrutvA")} <= pairs


def test_a_hostile_long_word_is_bounded(forms):
    asked: list[int] = []

    def known(keys: set[str]) -> set[str]:
        asked.append(len(keys))
        return keys  # every key known: the worst case for the number of splits

    word = "cEvAham" * 7  # 49 letters: over the limit, not split at all
    assert split_sandhi(word, known) == [] and asked == []
    started = time.thread_time()  # this thread's CPU, not the clock
    splits = split_sandhi(word[:MAX_SPLIT_CHARS], known)
    assert len(splits) == 3 and all(len(split.parts) == 2 for split in splits)
    assert time.thread_time() - started < 1
    started = time.thread_time()
    analysed = forms.analyze("aeiou" * 9 + "xyz")  # 48 letters no split can make known
    assert analysed.splits == [] and "compound" in analysed.note
    assert time.thread_time() - started < 2
    too_long = forms.analyze("tasyāham" * 8)
    assert too_long.splits == [] and f"up to {MAX_SPLIT_CHARS} letters" in too_long.note


def test_three_part_search_is_capped():
    asked: list[int] = []

    def nothing_after_the_first(keys: set[str]) -> set[str]:
        asked.append(len(keys))
        return {key for key in keys if len(key) == 2}  # only short first words: forces three parts

    split_sandhi("ca" + "x" * 40, nothing_after_the_first)
    assert len(asked) == 2 and asked[1] < 20_000


def test_cli_analyze_shows_the_split(forms_db):
    from tests.conftest import run_pramana

    done = run_pramana("sanskrit", "analyze", "caiva", "--db", str(forms_db))
    assert done.returncode == 0, done.stderr
    assert (
        "words joined by sandhi" in done.stdout
        and "- caiva: ca (a headword) + eva (a headword)" in done.stdout
    )
