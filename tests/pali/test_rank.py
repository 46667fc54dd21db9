"""Ranking a token's readings: the neighbours' tie-break, split weights, nasal spellings (issue 30)."""

from pramana.pali import rank, results
from pramana.pali.sandhi import nasal_variant
from pramana.pali.service import _agree, _short_before_iti


def _candidate(hid: int, lemma: str, pos: str, readings: list[str], weight: float, position: int):
    candidate = results.Candidate(
        id=hid, lemma_1=lemma, pos=pos, grammar="", meaning_combo="", family_root="", root_key="",
        construction="", readings=readings, rank=position,
    )  # fmt: skip
    candidate._weight = weight
    return candidate


def _token(word: str, *candidates: results.Candidate) -> results.TokenAnalysis:
    return results.TokenAnalysis(word=word, status="found", candidates=list(candidates))


def test_agreement_needs_a_neighbour_read_one_way_and_the_same_gender_case_and_number():
    acc = ("masc acc sg",)
    assert rank.agreement_bonus(("masc acc sg", "nt nom sg"), [acc], None) == rank.AGREEMENT
    assert rank.agreement_bonus(("masc acc sg",), [acc], None) == rank.AGREEMENT  # one reading is enough
    assert rank.agreement_bonus(("nt acc sg",), [acc], None) == 0.0  # another gender
    assert rank.agreement_bonus(("masc acc pl",), [acc], None) == 0.0  # another number
    assert rank.agreement_bonus(("masc acc sg",), [("masc acc sg", "masc nom pl")], None) == 0.0  # ambiguous
    assert rank.agreement_bonus(("pr 1st sg",), [], "ahaṃ") == rank.AGREEMENT  # ahaṃ ... karomi
    assert rank.agreement_bonus(("pr 3rd sg",), [], "ahaṃ") == 0.0


def test_neighbours_break_a_tie_and_the_remembered_tokens_stay_as_they_were():
    # Two readings of equal weight: only the adjective's masc nom sg agrees with vuṭṭhito ...
    adjective = _candidate(1, "gata 1", "adj", ["masc nom sg", "fem nom sg"], 3.0, 2)
    noun = _candidate(2, "gata 2", "nt", ["nt nom sg"], 3.0, 1)
    far = _candidate(3, "gata 3", "masc", ["masc nom sg"], 1.0, 3)  # too light to be moved up
    word = _token("gato", noun, adjective, far)
    neighbour = _token("vuṭṭhito", _candidate(9, "vuṭṭhita", "pp", ["masc nom sg"], 5.0, 1))
    read = _agree([word, neighbour])
    assert [c.id for c in read[0].candidates] == [1, 2, 3]  # the agreeing one first
    assert [c.rank for c in read[0].candidates] == [1, 2, 3]
    assert [c.id for c in word.candidates] == [2, 1, 3] and noun.rank == 1  # the shared token unchanged
    # ... and where the neighbour could be read two ways, nothing moves.
    unsure = _token("vuṭṭhitā", _candidate(9, "vuṭṭhita", "pp", ["masc nom pl", "fem nom sg"], 5.0, 1))
    assert [c.id for c in _agree([word, unsure])[0].candidates] == [2, 1, 3]


def test_a_pronoun_names_the_person_of_the_verb_after_it():
    third = _candidate(1, "karoti", "pr", ["pr 3rd sg"], 2.0, 1)
    first = _candidate(2, "karoti", "pr", ["pr 1st sg"], 2.0, 2)
    pronoun = _token("ahaṃ", _candidate(9, "ahaṃ", "pron", ["1st nom sg"], 9.0, 1))
    read = _agree([pronoun, _token("karomi", third, first)])
    assert [c.id for c in read[1].candidates] == [2, 1]


def test_a_split_weighs_every_piece_it_assumes():
    assert rank.split_weight([5.2, 9.0], 3, pieces=3) < rank.split_weight([3.7, 9.0], 1, pieces=2)
    assert rank.split_weight([], 0, pieces=1) < rank.GRAMMAR_TERM_WEIGHT


def test_nasal_spellings_of_editions():
    assert nasal_variant("akathaṃkathī") == "akathaṅkathī"
    assert nasal_variant("saṃgho") == "saṅgho" and nasal_variant("saṅgho") == "saṃgho"
    assert nasal_variant("saṃpanno") == "sampanno" and nasal_variant("kiñci") == "kiṃci"
    assert nasal_variant("dhammo") is None and nasal_variant("saṃsāro") is None  # no stop after ṃ


def _part(form: str, *lemmas: str) -> results.Part:
    return results.Part(
        form=form, candidates=[_candidate(i, lemma, "ind", [], 1.0, 0) for i, lemma in enumerate(lemmas)]
    )


def _split(*parts: results.Part) -> results.Split:
    return results.Split(split=" + ".join(p.form for p in parts), source="unmarked", parts=list(parts))


def test_a_vowel_lengthened_before_iti_is_read_short_when_it_is_the_same_word():
    iti = _part("iti", "iti")
    long, short = _split(_part("bhikkhū", "bhikkhu"), iti), _split(_part("bhikkhu", "bhikkhu"), iti)
    costs = dict((split.split, cost) for split, cost in _short_before_iti([(long, 1.0), (short, 2.0)]))
    assert costs["bhikkhu + iti"] < costs["bhikkhū + iti"]
    # vā (or) is not va (as if) lengthened: the word as written stays first.
    written, other = _split(_part("vā", "vā"), iti), _split(_part("va", "va"), iti)
    assert _short_before_iti([(written, 0.0), (other, 1.0)]) == [(written, 0.0), (other, 1.0)]
