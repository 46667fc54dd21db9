"""Reading sentences into tokens, undoing apostrophe elisions, and Pāḷi's scripts."""

import pytest

from pramana.pali.sandhi import SandhiRule, apostrophe_splits, tokens
from pramana.text.pali import PaliScript, detect_script, from_roman, parse_script, to_roman

SUTTA = "evaṃ me sutaṃ ekaṃ samayaṃ bhagavā sāvatthiyaṃ viharati jetavane anāthapiṇḍikassa ārāme"


def test_punctuation_becomes_a_space_not_nothing():
    assert tokens("“Bhikkhavo”ti. Bhagavā avoca:") == ["bhikkhavo", "ti", "bhagavā", "avoca"]
    assert tokens("‘evaṃ, bhante’ti (2) — 12.") == ["evaṃ", "bhante'ti"]  # ’ between letters: elision
    assert tokens("evaṁ SUTAṀ") == ["evaṃ", "sutaṃ"]
    assert tokens("n’atthi piy'āppiyaṃ 'quoted'") == ["n'atthi", "piy'āppiyaṃ", "quoted"]
    assert tokens("... !!! 123") == []


def test_apostrophe_splits_restore_the_elided_letters():
    rules = (SandhiRule("ā", "t", "ā", "it"), SandhiRule("a", "p", "a", "ap"))
    assert ["dullabhā", "iti"] in apostrophe_splits("dullabhā'ti", rules)
    assert ["saṃkhittena", "api"] in apostrophe_splits("saṃkhittena'pi", rules)
    assert ["accharāsaṅghātamattaṃ", "api"] in apostrophe_splits("accharāsaṅghātamattam'pi", ())
    assert ["tena", "upasaṅkami"] in apostrophe_splits("ten'upasaṅkami", ())
    three = apostrophe_splits("m'idh'ekacce", ())
    assert all(len(split) == 3 for split in three) and ["ma", "idha", "ekacce"] in three
    assert apostrophe_splits("dhammo", rules) == [["dhammo"]]


@pytest.mark.parametrize("script", [s for s in PaliScript if s != PaliScript.ROMAN])
def test_scripts_round_trip(script):
    text = SUTTA + " paḷāsa kāḷo"
    written = from_roman(text, script)
    assert detect_script(written) == script
    assert to_roman(written) == text


def test_script_conventions():
    assert from_roman("evaṃ me", PaliScript.SINHALA) == "එවං මෙ"  # short e, as Sinhala Pāḷi is printed
    assert "ဿ" in from_roman("anāthapiṇḍikassa", PaliScript.MYANMAR)  # the great sa for ss
    assert from_roman("kāḷo", PaliScript.DEVANAGARI) == "काळो"  # ḷ is the consonant ळ, not vocalic ऌ
    assert from_roman("evaṃ", PaliScript.THAI) == "เอวํ"
    assert parse_script("Burmese") == PaliScript.MYANMAR
    with pytest.raises(ValueError, match="use one of"):
        parse_script("klingon")
