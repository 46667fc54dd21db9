"""Long compounds (issue 29: eight to twelve members, Amaruśataka's and the śāstras') split by the dynamic
programme of `compound.CompoundSplitter`, over a lexicon of the real stems each compound is made of plus
real stems that could mislead it; the junctions (vowel coalescence, the avagraha, a nasal's doubling)
are undone by sandhi's rules, not by the test."""

from __future__ import annotations

import pytest

from pramana.sanskrit import compound
from pramana.sanskrit.analysis import combining_stems
from pramana.sanskrit.compound import CompoundSplitter
from pramana.sanskrit.sandhi import Segmenter, Split


def splitter(stems: dict[str, float], words: dict[str, float]) -> CompoundSplitter:
    """Part tests over `stems` (a member is a stem in its combining form: majja for majjan, medo for
    medas) and `words` (inflected words, as the analyzer would read them)."""

    def member(part: str) -> float | None:
        scores = [stems[stem] for stem in combining_stems(part) if stem in stems]
        return max(scores) if scores else None

    def reach(part: str) -> int:
        known = [*stems, *words]
        return max((n for n in range(len(part) + 1) if any(k.startswith(part[:n]) for k in known)), default=0)

    return CompoundSplitter(member, words.get, reach)


@pytest.mark.parametrize(
    ("word", "stems", "words", "parts"),
    [
        (  # Carakasaṃhitā: jihvā + indriya as jihvendriya (ā + i = e)
            "hanudantasvaramalajihvendriyaviSoDanam",
            {
                "hanu": -9,
                "danta": -8,
                "svara": -8,
                "mala": -8,
                "jihvA": -9,
                "indriya": -8,
                "vara": -8,
                "ala": -12,
            },
            {"viSoDanam": -11},
            ("hanu", "danta", "svara", "mala", "jihvA", "indriya", "viSoDanam"),
        ),
        (  # Amaruśataka: 59 letters, longer than the bounded search takes; naKa + aMSu as naKAMSu
            "jyAkfzwibadDaKawakAmuKapARipfzWapreNKannaKAMSucayasaMvalito",
            {
                "jyA": -10,
                "kfzwi": -10,
                "badDa": -9,
                "KawakA": -12,
                "muKa": -8,
                "pARi": -8,
                "pfzWa": -9,
                "preNKan": -11,
                "naKa": -9,
                "aMSu": -9,
                "caya": -10,
                "Kawa": -12,
                "kA": -9,
                "sa": -8,
            },
            {"saMvalito": -12},
            (
                "jyA",
                "kfzwi",
                "badDa",
                "KawakA",
                "muKa",
                "pARi",
                "pfzWa",
                "preNKan",
                "naKa",
                "aMSu",
                "caya",
                "saMvalito",
            ),
        ),
        (  # Carakasaṃhitā: medo'sthi (medas + asthi, the avagraha), śukra + ojāṃsi as śukraujāṃsi
            "rasaruDiramAMsamedo'sTimajjaSukrOjAMsi",
            {"rasa": -8, "ruDira": -9, "mAMsa": -8, "medas": -9, "asTi": -9, "majjan": -10, "Sukra": -9},
            {"ojAMsi": -11},
            ("rasa", "ruDira", "mAMsa", "medo", "asTi", "majja", "Sukra", "ojAMsi"),
        ),
    ],
)
def test_a_long_compound_is_split_into_its_members(word, stems, words, parts):
    found = splitter(stems, words).split(word)
    assert found and found[0].parts == parts, [split.parts for split in found]
    assert found[0].members == (True,) * (len(parts) - 1) + (False,)


def test_the_bounded_search_leaves_the_longest_unsplit():
    """What the fallback is for: the left-first search takes no word over 48 letters."""
    word = "jyAkfzwibadDaKawakAmuKapARipfzWapreNKannaKAMSucayasaMvalito"
    assert Segmenter(lambda part: -8.0, lambda part: -8.0).split(word) == []


def test_a_word_inside_the_group_is_read_as_a_word():
    """Kālidāsa's kautukādhānahetor antarbāṣpaś ciram: a genitive and a nominative between members (the
    analyzer reads a word's sandhi final: bāṣpaś for bāṣpaḥ before c)."""
    stems = {"kOtuka": -10, "ADAna": -10, "antar": -8, "bAzpa": -9, "DAna": -9, "kOtukA": -12}
    words = {"hetor": -9, "bAzpaS": -10, "ciram": -8}
    found = splitter(stems, words).split("kOtukADAnahetorantarbAzpaSciram")
    # kautukā + dhāna or kautuka + ādhāna (both stems known): the words after them are the point here
    assert found[0].parts[2:] == ("hetor", "antar", "bAzpaS", "ciram"), found[0].parts
    assert found[0].members[2:] == (False, True, False, False)


def test_a_member_the_dictionaries_list_whole_is_refined_into_its_members():
    stems = {"kAmakroDa": -13.6, "kAma": -6.3, "kroDa": -7.9, "surA": -9, "dyUta": -10, "prAtiBAvya": -13}
    words = {"kftam": -8}
    tests = splitter(stems, words)
    coarse = tests.split("kAmakroDasurAdyUtaprAtiBAvyakftam")[0]
    assert coarse.parts[0] == "kAmakroDa"  # one rare member costs less than two and a junction
    refined = tests.refine(coarse)
    assert refined is not None and refined.parts[:3] == ("kAma", "kroDa", "surA")
    assert refined.members == (True,) * (len(refined.parts) - 1) + (False,)
    assert tests.refine(Split(("kAma", "kroDa"), (True, False), -14.0)) is None  # nothing long to refine


def test_the_search_is_bounded_whatever_the_word():
    calls: list[str] = []

    def everything(part: str) -> float:
        calls.append(part)
        return -5.0  # every part known: the worst case

    tests = CompoundSplitter(everything, everything, len)
    assert tests.split("a" * (compound.MAX_LETTERS + 1)) == [] and calls == []
    assert tests.split("kAma" * 4)[:1]  # short enough to search, every split possible
    calls.clear()
    tests.split("cEvAham" * 17)  # 119 letters: the budget runs out before the end (no split, no hang)
    assert compound.MAX_TESTS <= tests.tests <= compound.MAX_TESTS + compound.MAX_MEMBER * 8
    assert len(calls) <= 2 * (compound.MAX_TESTS + compound.MAX_MEMBER * 8)
    assert tests.split("kAma") == []  # shorter than MIN_LETTERS: the bounded search's alone


def test_the_service_searches_a_long_word_again_when_the_bounded_search_fails(forms, monkeypatch):
    """Over the installed lexicon (Lanman's vocabulary): when the left-first search runs out of tests with
    nothing, the dynamic programme gives the members."""
    segmenter = forms.segmenter
    monkeypatch.setattr(segmenter, "split", lambda word, budget=None: [])  # as on a compound of many members
    monkeypatch.setattr(type(segmenter), "exhausted", property(lambda self: True))
    splits = forms.analyze("rājaputrabhāryā").splits
    assert splits and [part.word for part in splits[0].parts] == ["rāja", "putra", "bhāryā"]
    assert {"rājan", "putra", "bhāryā"} <= {a.lemma for part in splits[0].parts for a in part.analyses}
    assert [part.member for part in splits[0].parts] == [True, True, False]
