"""Reading sentences into tokens, undoing apostrophe elisions, and Pāḷi's scripts."""

import pytest

from pramana import work
from pramana.pali.sandhi import MAX_CANDIDATES, Elisions, SandhiRule, SandhiRules, apostrophe_splits, tokens
from pramana.text.pali import PaliScript, detect_script, from_roman, parse_script, to_roman

SUTTA = "evaṃ me sutaṃ ekaṃ samayaṃ bhagavā sāvatthiyaṃ viharati jetavane anāthapiṇḍikassa ārāme"


def test_punctuation_becomes_a_space_not_nothing():
    assert tokens("“Bhikkhavo”ti. Bhagavā avoca:") == ["bhikkhavo'ti", "bhagavā", "avoca"]  # joined
    assert tokens("lokasmin”ti (vuttan)ti hotī’”ti “evaṃ” ti") == [
        "lokasmin'ti",
        "vuttan'ti",
        "hotī'ti",
        "evaṃ",
        "ti",
    ]
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


def test_elisions_are_a_graph_not_a_list_of_every_split():
    rules = SandhiRules([SandhiRule("a", "p", "a", "ap"), SandhiRule("i", "t", "i", "it")])
    # Five elisions: 28 ** 5 (17 million) splits with these rules; the graph has a few hundred candidates.
    bomb = Elisions("saṃkhittena'pi'ti'va'pi'ti", rules)
    assert bomb.explored < 500 and not bomb.truncated
    known = {"saṃkhittena", "api", "iti", "eva", "va", "ti"}
    first = next(bomb.splits(known))
    assert first == ["saṃkhittena", "api", "iti", "va", "api", "iti"]  # what the rules restore, first
    assert all(set(split) <= known for split in bomb.splits(known))
    # Nothing after the first word known: the best partial split keeps the word that is.
    assert Elisions("saṃkhittena'xq'zz", rules).best_partial({"saṃkhittena"})[0] == "saṃkhittena"
    assert Elisions("xq'zz", rules).best_partial({"saṃkhittena"}) is None


def test_elisions_explore_at_most_the_cap():
    rules = SandhiRules([SandhiRule("a", "p", "a", "ap")])
    token = "'".join(["pi", "ti", "va"] * 1_500)  # 4,500 elisions in one 13,500-letter token
    graph = Elisions(token, rules)
    assert graph.truncated and graph.explored <= MAX_CANDIDATES
    assert len(graph.forms()) <= MAX_CANDIDATES
    assert next(graph.splits(), None) is None  # its end was never reached: no split claims to be whole
    assert Elisions(token, rules, limit=100).explored <= 100


def test_elisions_stop_at_the_calls_deadline():
    with work.deadline(-1), pytest.raises(work.WorkLimitExceeded, match="apostrophed token"):
        Elisions("saṃkhittena'pi'ti", SandhiRules())


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
