"""Verbal derivatives the form index makes beyond what it held (issue 29, ninth round): the future
participles (Pāṇini 3.3.14), the perfect participles (3.2.106-107), the epics' middle participle of an
active thematic verb, and the preverbs' r as l before the root ay (8.2.19). The expected forms are
written out from Whitney's Grammar (§802-808 perfect, §939-940 future participles, §1011 on the epic's
voice) and Pāṇini's rules, not from the generator."""

from __future__ import annotations

import re

import pytest

from pramana.sanskrit.analysis import join_preverb, preverb_splits
from pramana.sanskrit.forms import (
    PARTICIPLE_NAMES,
    SHIPPED_DHATUPATHA,
    Generator,
    epic_middle_participle,
    future_participles,
    read_dhatupatha,
)
from tests.sanskrit.test_forms import readings_of


@pytest.mark.parametrize(
    ("future", "participle"),
    [
        ("Bavizyati", "Bavizyat"),  # bhaviṣyant (Whitney §940)
        ("dAsyati", "dAsyat"),
        ("hArayizyati", "hArayizyat"),  # a causative's
        ("karizyate", "karizyamARa"),  # the middle's, with ṇatva after ṣ
        ("yotsyate", "yotsyamAna"),  # no ṇatva: t stops it
        ("lapsyate", "lapsyamAna"),
    ],
)
def test_future_participles_from_the_future(future, participle):
    assert future_participles(future) == [participle]


def test_a_future_without_the_future_suffix_has_no_participle():
    assert future_participles("gacCati") == [] and future_participles("Bavitā") == []


@pytest.mark.parametrize(
    ("present", "participle"),
    [("Bramati", "BramamARa"), ("gacCati", "gacCamAna"), ("patati", "patamAna"), ("carati", "caramARa")],
)
def test_the_epic_middle_participle_of_an_active_verb(present, participle):
    assert epic_middle_participle(present) == participle


def _participles(code: str) -> dict[str, set[str]]:
    root = next(root for root in read_dhatupatha(SHIPPED_DHATUPATHA) if root.code == code)
    _, stems = Generator().verb(root)
    found: dict[str, set[str]] = {}
    for row in stems:
        found.setdefault(PARTICIPLE_NAMES[row.info], set()).add(row.stem)
    return found


def test_the_generator_makes_the_future_participles_of_both_voices_and_the_causative():
    made = _participles("08.0010")  # ḍukṛñ, both voices
    assert {"karizyat", "karizyamARa", "kArayizyat", "kArayizyamARa"} <= made["future participle"]
    assert "kurvamARa" not in made["present participle"]  # athematic: no epic -amāna is made


def test_the_generator_makes_the_epic_middle_participle_of_an_active_thematic_verb_only():
    assert "BramamARa" in _participles("01.0985")["present participle"]  # bhramu, active only
    made = _participles("01.1046")["present participle"]  # hṛñ, both voices: its own middle, once
    assert "haramARa" in made and "haramAna" not in made


def test_the_generator_makes_the_perfect_participles_of_the_bare_root():
    # Whitney §802-808: cakṛvāṃs, jagmivāṃs (and jaganvāṃs), the middle cakrāṇa; a causative has none
    assert {"cakfvas", "cakrARa"} <= _participles("08.0010")["perfect participle"]
    assert "jagmivas" in _participles("01.1137")["perfect participle"]
    assert not any(stem.startswith("kAray") for stem in _participles("08.0010")["perfect participle"])
    # āp's perfect is active only (āpa): āpivas, no middle āpāna (a noun of its own, "a drinking party")
    assert _participles("05.0016")["perfect participle"] == {"Apivas"}


def test_a_10th_class_verbs_present_without_ay_makes_no_epic_middle_participle():
    # vṛt of the 10th class (vartayati, optionally vartati): vartamāna is the 1st class vṛt's own participle
    assert "vartamAna" not in _participles("10.0312")["present participle"]
    assert "vartamAna" in _participles("01.0862")["present participle"]


def test_the_preverbs_r_is_l_before_ay():
    assert join_preverb("parA", "ay") == "palAy" and join_preverb("pra", "ay") == "plAy"
    assert join_preverb("pari", "ay") == "palyay"
    assert join_preverb("parA", "jay") == "parAjay"  # any other root keeps the r
    assert (("parA",), "ayate") in preverb_splits("palAyate")
    assert (("pari",), "ayate") in preverb_splits("palyayate")
    assert not any(preverbs == ("parA",) for preverbs, _ in preverb_splits("palASa"))  # no ay: no parā


@pytest.mark.parametrize(
    ("word", "lemma", "reading"),
    [
        ("hārayiṣyan", "hāray", "future participle, nominative singular (m.)"),
        ("kariṣyamāṇaḥ", "kṛ", "future participle, nominative singular (m.)"),
        ("bhaviṣyatām", "bhū", "future participle, genitive plural (m.)"),
        ("bhramamāṇau", "bhram", "present participle, nominative dual (m.)"),
        ("jagmivān", "gam", "perfect participle, nominative singular (m.)"),
        ("tasthivān", "sthā", "perfect participle, nominative singular (m.)"),
        ("cakrāṇaḥ", "kṛ", "perfect participle, nominative singular (m.)"),
        ("palāyate", "palāy", "present 3rd singular"),
        ("palāyitum", "palāy", "infinitive"),
    ],
)
def test_the_analyzer_reads_them(forms, word, lemma, reading):
    found = {(its_lemma, _slot(grammar)) for its_lemma, grammar in readings_of(forms, word)}
    assert (lemma, _slot(reading)) in found, found


def _slot(grammar: str) -> str:
    """The grammar without its genders, which the answer joins: 'nominative singular (m., n.)'."""
    return re.sub(r" \([mfn., ]+\)$", "", grammar)
