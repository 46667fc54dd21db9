"""Words written without a mark, split into DPD's words; readings ranked (issue 30)."""

import pytest

from pramana.pali.sandhi import SandhiRule, SandhiRules
from pramana.pali.split import MAX_PARTS, MAX_STATES, junctions, search

RULES = SandhiRules(
    [
        SandhiRule("ñ", "c", "ṃ", "c"),
        SandhiRule("a", "p", "a", "ap"),
        SandhiRule("i", "p", "i", "ap"),
        SandhiRule("v", "a", "u", "a"),
    ]
)


def test_junctions_apply_dpds_rules_at_every_letter():
    found = {(j.first, j.rest) for j in junctions("rūpañca", RULES)}
    assert ("rūpaṃ", "ca") in found and ("rūpañ", "ca") in found  # the rule, and the word as written
    assert ("kulesu", "ananugiddho") in {(j.first, j.rest) for j in junctions("kulesvananugiddho", RULES)}
    connector = [j for j in junctions("idhamāhu", RULES) if j.connector]
    assert [(j.first, j.connector, j.rest) for j in connector] == [("idha", "m", "āhu")]


def test_search_keeps_only_splits_of_known_words():
    known_words = {"rūpaṃ", "ca", "jāti", "api", "āyusā", "saṃkhittena"}
    asked = []

    def known(forms):
        asked.append(len(forms))
        return forms & known_words

    found = search(["rūpañca", "jātipi", "māyusā", "xyzqwv"], RULES, known)
    assert [f.parts for f in found["rūpañca"]] == [("rūpaṃ", "ca")]
    assert found["jātipi"][0].parts == ("jāti", "api")
    assert found["māyusā"][0].parts == ("m", "āyusā") and found["māyusā"][0].words == ["āyusā"]
    assert "xyzqwv" not in found and len(asked) <= MAX_PARTS  # one question a round, for every word at once


def test_search_is_bounded_on_a_hostile_word():
    asked = []

    def known(forms):  # every form is a word: the worst case
        asked.append(len(forms))
        return set(forms)

    word = "rūpañcapijātipisamaṇotimaraṇampievaitivahi" * 5
    found = search([word], RULES, known)
    assert len(asked) <= MAX_PARTS
    assert max(asked) <= (MAX_STATES + 1) * len(word) * 4  # open splits x places x variants, no more
    assert 0 < len(found[word]) <= 12


@pytest.mark.data
@pytest.mark.parametrize(
    ("word", "split"),
    [
        ("rūpañca", "rūpaṃ + ca"), ("jātipi", "jāti + api"), ("samaṇoti", "samaṇo + iti"),
        ("maraṇampi", "maraṇaṃ + api"), ("lokasmin”ti", "lokasmiṃ + iti"), ("vuttan”ti", "vuttaṃ + iti"),
        ("pajānātī”ti", "pajānāti + iti"), ("akataññūsi", "akataññū + asi"),
        ("kulesvananugiddho", "kulesu + ananugiddho"), ("jātuggabbhaseyya", "jātu + gabbhaseyya"),
        ("māyusā", "m + āyusā"), ("manubrūhaye", "m + anubrūhaye"), ("meso", "me + eso"),
        ("viññāṇasmimpi", "viññāṇasmiṃ + api"), ("saññāyapi", "saññāya + api"),
        ("dantehipi", "dantehi + api"), ("vā”ti", "vā + iti"),
        ("nisinnosī”ti", "nisinno + asi + iti"), ("pupphamivā", "pupphaṃ + iva"),
        ("kaṭṭhaṃva", "kaṭṭhaṃ + iva"), ("jālaṃva", "jālaṃ + iva"),
    ],
)  # fmt: skip
def test_words_dpd_does_not_list_whole_are_split_on_any_edition(pali_any_edition, word, split):
    token = pali_any_edition.analyze(word).tokens[0]
    assert token.status == "found"
    first = min([*token.candidates, *token.deconstruction], key=lambda reading: reading.rank)
    assert getattr(first, "split", None) == split, [(s.split, s.rank) for s in token.deconstruction]
    connectors = [p.form for s in token.deconstruction for p in s.parts if p.connector]
    assert set(connectors) <= {"m", "d", "r", "y", "v"}
    assert all(p.candidates or p.connector for p in first.parts)  # every part a DPD word


@pytest.mark.data
def test_readings_ranked_each_still_listed(pali_any_edition):
    found = pali_any_edition.analyze("hīnaṃ bhikkhū meso")
    hinam, bhikkhu, meso = found.tokens
    assert hinam.candidates[0].lemma_1.startswith("hīna") and hinam.candidates[0].rank == 1
    assert all(c.pos not in ("ve", "cs", "letter", "suffix") for c in hinam.candidates[:1])
    assert bhikkhu.candidates[0].lemma_1 == "bhikkhu"
    assert "mesa" in {c.lemma_1 for c in meso.candidates}  # the ram is still there, after me + eso
    ranks = sorted([c.rank for c in meso.candidates] + [s.rank for s in meso.deconstruction])
    assert ranks == list(range(1, len(ranks) + 1))


@pytest.mark.data
def test_a_listed_word_is_not_split_into_junk(pali_any_edition):
    found = pali_any_edition.analyze("bhikkhave tena yena karoti dhammo")
    for token in found.tokens:
        assert token.candidates and token.candidates[0].rank == 1, token.word
        assert all(s.source != "unmarked" for s in token.deconstruction)


@pytest.mark.data
def test_a_word_written_with_the_other_nasal_is_read_as_dpd_spells_it(pali_any_edition):
    found = pali_any_edition.analyze("akathaṃkathī saṃgho")
    for token, spelled in zip(found.tokens, ("akathaṅkathī", "saṅgho"), strict=True):
        assert token.status == "found" and token.spelling == [spelled] and token.lookup_key == spelled
        assert token.candidates and token.candidates[0].rank == 1
        assert all(s.source != "unmarked" for s in token.deconstruction)  # not split into junk


@pytest.mark.data
@pytest.mark.parametrize(
    ("sentence", "word", "first"),
    [
        ("sammodanīyaṃ kathaṃ sāraṇīyaṃ vītisāretvā", "kathaṃ", "kathā 1 fem"),  # a noun and its adjective
        ("Yo na limpati kāmesu", "kāmesu", "kāma 3 masc"),  # a compound-final adjective alone is the noun
        ("desetu me, bhante, bhagavā dhammaṃ", "desetu", "deseti 1 pr"),  # a verb, not "for the teacher"
        ("Sace kho pana atthi paro loko", "atthi", "atthi 1.2 pr"),  # paro is loko's
        ("āyasmantaṃ rāhulaṃ āmantesi", "āmantesi", "āmantesi aor"),  # the third person
        ("Tiṭṭhaṃ caraṃ nisinno va", "caraṃ", "caraṃ prp"),  # DPD's headword of this very form
        ("Santi, bhante, eke samaṇabrāhmaṇā", "santi", "santi 2.1 pr"),  # before DPD's saṃ + iti
        ("Yasmā ca kho, bhikkhave", "yasmā", "yasmā 1 ind"),  # because, not "from which"
        ("divā ca ratto ca", "divā", "divā ind"),  # by day, not "from heaven"
        ("vacattaṃ, ativisā, kaṭukarohiṇī", "ativisā", "ativisā fem"),  # met in the texts, not ativisa nt
        ("imaṃ āhara, iminā attho", "āhara", "āharati 1.1 pr"),  # bring!, not an adjective's vocative
        ("imaṃ jāna, imaṃ dehi", "jāna", "jānāti 1 pr"),  # know!, not jāni's reflexive "I knew"
    ],
)  # fmt: skip
def test_neighbours_and_dpds_own_forms_choose_the_reading(pali_any_edition, sentence, word, first):
    token = next(t for t in pali_any_edition.analyze(sentence).tokens if t.word == word)
    assert token.candidates[0].rank == 1
    assert f"{token.candidates[0].lemma_1} {token.candidates[0].pos}" == first, [
        (c.lemma_1, c.pos, c.rank) for c in token.candidates
    ]


@pytest.mark.data
def test_agreement_stays_within_a_clause(pali_any_edition):
    # With a comma between kathaṃ and the adjective that made it "talk", it is read as it is alone.
    alone = pali_any_edition.analyze("kathaṃ").tokens[0].candidates[0]
    across = next(t for t in pali_any_edition.analyze("sammodanīyaṃ, kathaṃ").tokens if t.word == "kathaṃ")
    assert across.candidates[0].lemma_1 == alone.lemma_1 != "kathā 1"
