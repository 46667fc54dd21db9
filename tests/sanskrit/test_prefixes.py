"""The table of the lexicon's stem prefixes (issue 29, third round): the splitter's part tests reject at
once a part that begins no known stem or form, and never a form of a known stem."""

from pramana.sanskrit.analysis import Known, PartTests, prefix_table


def _known(words):
    known = object.__new__(Known)  # only the prefix table: no store
    known.use_prefixes(prefix_table(words, bits=16))
    return known


def test_the_prefix_table_knows_every_prefix_and_little_else():
    known = _known(["deva", "gam", "agacCat"])
    assert known.known_prefix("devadatta") == 4
    assert known.known_prefix("gacCati") == 2  # ga-m
    assert known.known_prefix("agacCan") == 6
    assert known.known_prefix("dev") == 3


def test_no_declined_form_of_a_known_stem_is_rejected():
    # forms written out from Whitney's tables (§330 a-stems, §373 -tṛ, §449 -at participles, §443 -vat),
    # not from pramana's paradigms: the ending beyond what each shares with its stem
    tests = PartTests(_known(["deva", "kartf", "gacCat", "Bagavat", "rAjan", "manas"]))
    forms = [
        "devAByAm",
        "deveByaH",
        "devEH",
        "devAnAm",
        "kartrIByAm",
        "kartFRAm",
        "gacCantIByAm",
        "gacCantyAH",
        "BagavAn",
        "BagavadByAm",
        "rAjYA",
        "rAjaByAm",
        "manoBiH",
        "manAMsi",
        "devo",
        "devAH",
    ]
    assert all(tests._may_be_word(form) for form in forms)
    for nonsense in ("devakulapatiH", "gacCantIkAraH", "rAjYAmitrakam"):
        assert not tests._may_be_word(nonsense)


def test_a_verb_form_after_its_preverbs_is_not_rejected():
    tests = PartTests(_known(["gacCati", "gata"]))
    assert tests._may_be_word("AgacCati")
    assert tests._may_be_word("upAgacCati")
    assert tests.reach("AgacCati") >= len("AgacCati") - 1
