"""Reading real text, eighth round (issue 29): which reading comes first, by rules of the grammar, each
checked against forms the grammars give (Whitney's Sanskrit Grammar, the Aṣṭādhyāyī), not against the
analyzer's own paradigms."""

import pytest

from pramana.sanskrit import paradigms
from pramana.sanskrit.analysis import (
    FEMININE_HEADWORD,
    IN_NOMINATIVE,
    TASIL,
    TASIL_AFTER,
    Analyzer,
    Reading,
    _conventions,
    _possessive_nominative,
    _suppletive,
    lemma_class,
    preverb_splits,
)
from pramana.sanskrit.forms import NOMINAL, PARTICIPLE_NAMES, VERBAL, LexiconRow, retroflex_n


def _reading(form, lemma, kind, grammar, score):
    return Reading(form, lemma, kind, (grammar,), score, prior=(lemma, lemma_class(kind), 0.0))


def _noun(stem, genders):
    return LexiconRow(stem, NOMINAL, genders=genders)


# Whitney §438-440: the -in stems' nominative singular masculine is -ī (balin: balī, yogin: yogī; sau ca
# and nalopa, 6.4.13, 8.2.7); an a-stem's feminine is -ā unless a rule names -ī (ajādyataṣ ṭāp, 4.1.4)
@pytest.mark.parametrize(
    ("form", "in_stem", "a_stem"), [("balI", "balin", "bala"), ("yogI", "yogin", "yoga")]
)
def test_an_a_stems_feminine_in_i_comes_after_the_in_stems_nominative(form, in_stem, a_stem):
    row = _noun(a_stem, "m")
    alone = Analyzer._nominal_penalty(form, row, "f", {a_stem: [row]})
    beside = Analyzer._nominal_penalty(form, row, "f", {a_stem: [row], in_stem: [_noun(in_stem, "mfn")]})
    assert beside - alone == IN_NOMINATIVE
    # the masculine, and a case that is no -in nominative (balām, the feminine's accusative), are not touched
    assert Analyzer._nominal_penalty(form, row, "m", {in_stem: [_noun(in_stem, "mfn")]}) == 0.0
    assert Analyzer._nominal_penalty(form[:-1] + "Am", row, "f", {in_stem: [_noun(in_stem, "mfn")]}) == 0.0


# ṇatva (8.4.2) in a feminine stem: karin → kariṇī (an elephant cow, MW's headword), nitambin → nitambinī
def test_an_in_stems_feminine_headword_is_found_with_natva():
    assert retroflex_n("karinI") == "kariRI" and retroflex_n("nitambinI") == "nitambinI"
    row = _noun("karin", "mfn")
    assert (
        Analyzer._nominal_penalty("kariRI", row, "f", {"kariRI": [_noun("kariRI", "f")]}) == FEMININE_HEADWORD
    )
    assert Analyzer._nominal_penalty("kariRI", row, "f", {}) == 0.0


# Whitney §440, §453: the -in and -vat stems' neuter dual nominative is their feminine's nominative singular
# (karin: n. du. kariṇī, f. kariṇī; balavat: n. du. balavatī); where that feminine is a headword of its own
# (kariṇī, an elephant cow; hastinī) the word is read as it, the neuter dual of the adjective after it
@pytest.mark.parametrize(
    ("form", "stem", "feminine"), [("kariRI", "karin", "kariRI"), ("hastinI", "hastin", "hastinI")]
)
def test_an_in_stems_neuter_dual_comes_after_the_feminine_headword(form, stem, feminine):
    row = _noun(stem, "mfn")
    lexicon = {feminine: [_noun(feminine, "f")]}
    assert Analyzer._nominal_penalty(form, row, "n", lexicon) == FEMININE_HEADWORD
    assert Analyzer._nominal_penalty(form, row, "n", {}) == 0.0


def test_an_a_stems_neuter_is_not_read_as_a_feminine_headword():
    # pura's neuter dual is pure, never purī: only the feminine reading of an a-stem gives way to purī
    row = _noun("pura", "mfn")
    assert Analyzer._nominal_penalty("purI", row, "n", {"purI": [_noun("purI", "f")]}) == 0.0


# Whitney §447: the present participle's nominative singular masculine is -an (bhavan, of bhū); -vān is the
# possessive -vat's (§452) and the pronoun bhavat's (bhavān, "your honour", §456), and the past active
# participle's in -tavat (kṛtavān, §960): atvasantasya cādhātoḥ (6.4.14) lengthens -vat(up), not -at(ṛ)
def test_no_present_participle_has_a_nominative_in_van():
    present = PARTICIPLE_NAMES.index("present participle")
    past_active = PARTICIPLE_NAMES.index("past active participle")
    assert _possessive_nominative("BavAn", LexiconRow("Bavat", VERBAL, "BU", present, "mfn"))
    assert not _possessive_nominative("Bavan", LexiconRow("Bavat", VERBAL, "BU", present, "mfn"))
    assert not _possessive_nominative("kftavAn", LexiconRow("kftavat", VERBAL, "kf", past_active, "mfn"))


# Whitney §959-961: the past active participle adds -vat to the past passive participle (labdha: labdhavat,
# "having obtained"); a dictionary's headword labdhavat is that participle, read as the verb's
def test_the_past_active_participle_is_read_as_the_verbs_before_its_headword():
    readings = [
        _reading("labDavAn", "labDavat", "noun", "nominative singular (m.)", -13.1),
        _reading("labDavAn", "laB", "verb", "past active participle, nominative singular (m.)", -13.9),
    ]
    assert _conventions(readings)[0].lemma == "laB"


# Whitney §990-993: the gerund in -tvā (snātvā "having bathed", kṛtvā); a case of an a-stem in -tva (the
# abstracts in -tva are neuter, 5.1.119, and have no nominative in -ā) comes after it
def test_a_gerund_in_tva_comes_before_a_case_of_a_stem_in_tva():
    readings = [
        _reading("snAtvA", "snAtva", "noun", "nominative singular (f.)", -11.6),
        _reading("snAtvA", "snA", "verb", "gerund", -13.6),
    ]
    assert _conventions(readings)[0].lemma == "snA"
    # with no gerund of that form the headword keeps its place
    assert _conventions(readings[:1])[0].lemma == "snAtva"


# 8.3.34-36, 8.3.41, 8.4.40: the s of nis is ś only before a palatal (niś-cinoti), ṣ before a guttural or
# labial (niṣ-kramati), s before a dental (nis-tarati), r before a vowel or voiced sound (nir-gacchati,
# nir-vasati)
@pytest.mark.parametrize(
    ("word", "rest"),
    [("niScitya", "citya"), ("nizkramya", "kramya"), ("nistIrya", "tIrya"), ("nirgacCati", "gacCati")],
)
def test_nis_is_split_off_where_its_final_fits_the_next_sound(word, rest):
    assert (("nis",), rest) in preverb_splits(word)


def test_nis_is_not_split_off_where_its_final_does_not_fit():
    # niśvasiti is ni + śvas ("sigh"): nis before v would be nir (nirvasati)
    splits = preverb_splits("niSvasya")
    assert (("ni",), "Svasya") in splits and (("nis",), "vasya") not in splits
    assert (("nis",), "citya") not in preverb_splits("nizcitya")  # ṣ before c: no junction of nis
    assert (("dus",), "gata") in preverb_splits("durgata") and (("dus",), "gata") not in preverb_splits(
        "duSgata"
    )


# 3.4.84 bruvaḥ pañcānām ādita āho bruvaḥ: āha, āhatuḥ, āhuḥ, āttha, āhathuḥ stand for brū's present; MW and
# the DCS cite them under the root ah (prāha: prāh); brū's other suppletive forms stay vac's (2.4.53)
@pytest.mark.parametrize("form", ["Aha", "AhuH", "AtTa", "prAha"])
def test_brus_aha_forms_are_the_root_ahs(form):
    assert _suppletive("brU", form) == "ah"


def test_brus_other_forms_keep_their_roots():
    assert _suppletive("brU", "bravIti") == "brU" and _suppletive("brU", "vakzyati") == "vac"


# Whitney §444: a present participle's strong cases take the nasal (gacchantam, bhavantaḥ, yantam); only the
# reduplicated ones make them without it too (dadatam, juhvatam, bibhratam), so bharataḥ is no nominative
# plural of bharat (bharantaḥ) but the genitive or ablative singular
@pytest.mark.parametrize(
    ("form", "stem", "slot"),
    [("dadatam", "dadat", "accusative singular"), ("juhvataH", "juhvat", "nominative plural"),
     ("biBratam", "biBrat", "accusative singular"), ("gacCantam", "gacCat", "accusative singular"),
     ("yantam", "yat", "accusative singular")],
)  # fmt: skip
def test_the_strong_cases_of_a_present_participle(form, stem, slot):
    assert slot in {paradigms.slot_name(s) for s in paradigms.readings(form, stem, "m")}


@pytest.mark.parametrize(("form", "stem"), [("gacCatam", "gacCat"), ("BarataH", "Barat"), ("yatam", "yat")])
def test_no_strong_case_without_the_nasal_outside_the_reduplicated_class(form, stem):
    slots = {paradigms.slot_name(s) for s in paradigms.readings(form, stem, "m")}
    assert not slots & {"accusative singular", "nominative plural", "nominative dual"}
    assert "genitive singular" in {
        paradigms.slot_name(s) for s in paradigms.readings("grAhayataH", "grAhayat", "m")
    }


# Pāṇini 5.4.44 (pratiyoge pañcamyās tasiḥ), Whitney §1098: -tas makes an ablative of any noun (prayatna-tas,
# liṅga-tas); the DCS reads that ablative under the noun. A pronominal's -tas (5.3.7: sarva-tas, anya-tas) is
# an adverb (1.1.38), and no noun reading is made of it.
def _tasil_readings(key, lexicon, weights=None):
    from pramana.sanskrit.analysis import _Found

    found = _Found()
    Analyzer._tasil(object.__new__(Analyzer), key, 0.0, lexicon, weights or {}, found)
    return found.ranked()


def test_a_nouns_ablative_in_tas_comes_before_an_adverb_real_text_does_not_count():
    from pramana.sanskrit.analysis import _prior

    weights = {"prayatnatas": 2}  # the adverb in two dictionaries (MW and Apte), in no count of real text
    readings = _tasil_readings("prayatnatas", {"prayatna": [_noun("prayatna", "m")]}, weights)
    assert [(r.lemma, r.grammar) for r in readings] == [("prayatna", ("ablative singular (m.)",))]
    adverb = _prior("prayatnatas", weights, "rare indeclinable")[2]
    assert readings[0].score > adverb


def test_a_pronominals_tas_is_no_ablative_reading():
    assert _tasil_readings("sarvatas", {"sarva": [_noun("sarva", "mfn")]}) == []
    assert _tasil_readings("anyatas", {"anya": [_noun("anya", "mfn")]}) == []


def test_the_nominative_of_a_headword_in_ta_is_not_read_as_a_tas_ablative_first():
    # bharataḥ is bharata's nominative (Whitney §330), not bhara-tas: with bharata a headword the ablative
    # reading keeps its place after it
    alone = _tasil_readings("Baratas", {"Bara": [_noun("Bara", "m")]})
    beside = _tasil_readings("Baratas", {"Bara": [_noun("Bara", "m")], "Barata": [_noun("Barata", "m")]})
    assert alone[0].score - beside[0].score == TASIL_AFTER - TASIL > 0
