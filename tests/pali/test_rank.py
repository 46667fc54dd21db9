"""Ranking a token's readings: the neighbours' tie-break, split weights, nasal spellings (issue 30)."""

from pramana.pali import models, rank
from pramana.pali.sandhi import clauses, nasal_variant
from pramana.pali.service import _adverbial_case, _agree, _iva_after_niggahita, _ranked, _short_before_iti


def _candidate(
    hid: int, lemma: str, pos: str, readings: list[str], weight: float, position: int, meaning: str = ""
):
    candidate = models.Candidate(
        id=hid, lemma_1=lemma, pos=pos, grammar="", meaning_combo=meaning, family_root="", root_key="",
        construction="", readings=readings, rank=position,
    )  # fmt: skip
    candidate._weight = weight
    return candidate


def _token(word: str, *candidates: models.Candidate) -> models.TokenAnalysis:
    return models.TokenAnalysis(word=word, status="found", candidates=list(candidates))


def _bonus(readings: tuple[str, ...], neighbours: list[tuple[str, ...]], before: str | None = None) -> float:
    """The context bonus of an adjective reading beside neighbours that are verbs (no pos of interest)."""
    mine = rank.Reading("adj", "x", readings)
    return rank.context_bonus([mine], [rank.Reading("pr", "y", r) for r in neighbours], before)[0]


def test_agreement_needs_a_neighbour_read_one_way_and_the_same_gender_case_and_number():
    acc = ("masc acc sg",)
    assert _bonus(("masc acc sg", "nt nom sg"), [acc]) == rank.AGREEMENT
    assert _bonus(("masc acc sg",), [acc]) == rank.AGREEMENT  # one reading is enough
    assert _bonus(("nt acc sg",), [acc]) == 0.0  # another gender
    assert _bonus(("masc acc pl",), [acc]) == 0.0  # another number
    assert _bonus(("masc acc sg",), [("masc acc sg", "masc nom pl")]) == 0.0  # ambiguous
    assert _bonus(("pr 1st sg",), [], "ahaṃ") == rank.AGREEMENT  # ahaṃ ... karomi
    assert _bonus(("pr 3rd sg",), [], "ahaṃ") == 0.0


def test_a_noun_and_the_adjective_beside_it_agree_even_when_either_could_be_read_several_ways():
    talk = rank.Reading("fem", "kathā", ("fem acc sg",))
    how = rank.Reading("ind", "kathaṃ", ())
    pleasant = rank.Reading("adj", "sammodanīya", ("nt nom sg", "masc acc sg", "fem acc sg", "nt acc sg"))
    assert rank.context_bonus([how, talk], [pleasant], None) == [0.0, rank.AGREEMENT]
    # the same gender, case and number are needed: a noun in the dative does not
    to_talk = rank.Reading("fem", "kathā", ("fem dat sg",))
    assert rank.context_bonus([how, to_talk], [pleasant], None) == [0, 0]
    # an adjective beside an adjective is a series, not a noun and its adjective (kisaṃ dhamanisanthataṃ)
    lean = rank.Reading("adj", "kisa", ("masc acc sg", "nt acc sg"))
    name = rank.Reading("masc", "kisa", ("masc acc sg",))
    veined = rank.Reading("pp", "dhamanisanthata", ("masc acc sg", "nt nom sg"))
    assert rank.context_bonus([name, lean], [veined], None) == [0.0, 0.0]


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


def _part(form: str, *lemmas: str) -> models.Part:
    return models.Part(
        form=form, candidates=[_candidate(i, lemma, "ind", [], 1.0, 0) for i, lemma in enumerate(lemmas)]
    )


def _split(*parts: models.Part, source: str = "unmarked") -> models.Split:
    return models.Split(split=" + ".join(p.form for p in parts), source=source, parts=list(parts))


def test_a_vowel_lengthened_before_iti_is_read_short_when_it_is_the_same_word():
    iti = _part("iti", "iti")
    long, short = _split(_part("bhikkhū", "bhikkhu"), iti), _split(_part("bhikkhu", "bhikkhu"), iti)
    costs = dict((split.split, cost) for split, cost in _short_before_iti([(long, 1.0), (short, 2.0)]))
    assert costs["bhikkhu + iti"] < costs["bhikkhū + iti"]
    # vā (or) is not va (as if) lengthened: the word as written stays first.
    written, other = _split(_part("vā", "vā"), iti), _split(_part("va", "va"), iti)
    assert _short_before_iti([(written, 0.0), (other, 1.0)]) == [(written, 0.0), (other, 1.0)]


def test_a_long_i_or_u_before_iti_is_read_short_even_where_the_long_form_is_another_word():
    iti, ti = _part("iti", "iti"), _part("ti", "ti")
    # kappentī”ti: the verb kappenti + iti, not the participle kappentī (another headword)
    participle = _split(_part("kappentī", "kappenta"), iti)
    participle_ti = _split(_part("kappentī", "kappenta"), ti)
    verb = _split(_part("kappenti", "kappeti"), iti)
    costs = dict(
        (s.split, c) for s, c in _short_before_iti([(participle, 0.0), (participle_ti, 0.0), (verb, 1.0)])
    )
    assert (
        costs["kappenti + iti"] < costs["kappentī + iti"] and costs["kappenti + iti"] < costs["kappentī + ti"]
    )
    # munīti: muni + iti also before another restoration of the same letters at the same cost
    other = _split(_part("munaṃ", "muni"), iti)
    long, short = _split(_part("munī", "muni"), iti), _split(_part("muni", "muni"), iti)
    costs = dict((s.split, c) for s, c in _short_before_iti([(long, 2.0), (other, 3.0), (short, 3.0)]))
    assert costs["muni + iti"] < costs["munaṃ + iti"] < costs["munī + iti"]
    # a long ā of a word of its own stays, and so does ā before ti (samāpannā”ti: a plural)
    plural, single = _split(_part("samāpannā", "samāpanna"), ti), _split(_part("samāpanna", "samāpanna"), iti)
    assert _short_before_iti([(plural, 0.0), (single, 1.0)]) == [(plural, 0.0), (single, 1.0)]


def _weighed_part(form: str, lemma: str, weight: float) -> models.Part:
    part = _part(form, lemma)
    part._weight = weight
    return part


def _own_form(hid: int, lemma: str, pos: str, weight: float) -> models.Candidate:
    candidate = _candidate(hid, lemma, pos, [], weight, 0)
    candidate._own_form_ind = pos == "ind"
    return candidate


def test_an_indeclinable_that_is_the_forms_first_homonym_comes_before_dpds_split_of_it():
    split = _split(_weighed_part("su", "su", 9.0), _weighed_part("idaṃ", "idaṃ", 7.8), source="dpd")
    particle, sandhi = _own_form(1, "sudaṃ 1", "ind", 3.4), _own_form(2, "sudaṃ 2", "sandhi", 3.4)
    candidates, splits = _ranked([particle, sandhi], [(split, 0.0)])
    assert candidates[0].lemma_1 == "sudaṃ 1" and candidates[0].rank == 1 and splits[0].rank == 2
    # nayidaṃ: DPD's first homonym is the sandhi (na + idaṃ), so the split keeps its place
    split = _split(_weighed_part("na", "na", 9.0), _weighed_part("idaṃ", "idaṃ", 7.8), source="dpd")
    sandhi, particle = _own_form(3, "nayidaṃ 1", "sandhi", 2.0), _own_form(4, "nayidaṃ 2", "ind", 2.0)
    candidates, splits = _ranked([sandhi, particle], [(split, 0.0)])
    assert splits[0].rank == 1


def test_a_headword_whose_dictionary_form_is_the_form_comes_before_dpds_split_where_no_sandhi_is_listed():
    split = _split(_weighed_part("jānaṃ", "jānanta", 3.0), _weighed_part("iti", "iti", 9.0), source="dpd")
    verb = _candidate(1, "jānāti 1", "pr", ["pr 3rd sg"], 0.7, 0)
    candidates, splits = _ranked([verb], [(split, 0.0)], form="jānāti")
    assert candidates[0].rank == 1 and splits[0].rank == 2
    # vāti: DPD lists the sandhi (vā + iti) as a headword after the verb "blows"; the split stays first
    blows = _candidate(2, "vāti 1.1", "pr", ["pr 3rd sg"], 0.7, 0)
    sandhi = _candidate(3, "vāti 2.1", "sandhi", [], 2.0, 0)
    split = _split(_weighed_part("vā", "vā", 9.0), _weighed_part("iti", "iti", 9.0), source="dpd")
    candidates, splits = _ranked([blows, sandhi], [(split, 0.0)], form="vāti")
    assert splits[0].rank == 1


def test_of_an_indeclinable_and_a_pronoun_dpd_lists_for_the_very_form_its_first_homonym_comes_first():
    pronoun = _own_form(1, "kiñci 2", "pron", 5.5)
    pronoun._own_form = True  # DPD's stem "!": the form is a headword of its own
    particle = _own_form(2, "kiñci 1", "ind", 4.5)
    plain = _candidate(3, "kaci", "pron", ["nt nom sg"], 3.0, 0)
    candidates, _ = _ranked([pronoun, particle, plain], [])
    assert [c.lemma_1 for c in candidates] == ["kiñci 1", "kiñci 2", "kaci"]
    # with no indeclinable of the form, the own-form pronoun stays first
    pronoun, plain = (
        _own_form(1, "kiñci 2", "pron", 5.5),
        _candidate(3, "kaci", "pron", ["nt nom sg"], 3.0, 0),
    )
    pronoun._own_form = True
    candidates, _ = _ranked([pronoun, plain], [])
    assert candidates[0].lemma_1 == "kiñci 2"


def test_an_ordinal_agreeing_with_the_noun_beside_it_comes_before_the_adverb_of_its_form():
    adverb = rank.Reading("ind", "tatiyaṃ", ())
    ordinal = rank.Reading("ordin", "tatiya", ("nt nom sg", "masc acc sg", "nt acc sg"))
    meditation = rank.Reading("nt", "jhāna", ("nt nom sg", "nt acc sg"))
    assert rank.context_bonus([adverb, ordinal], [meditation], None) == [0.0, rank.AGREEMENT]
    # beside no noun it can agree with, neither is favoured
    assert rank.context_bonus([adverb, ordinal], [rank.Reading("pr", "hoti", ("pr 3rd sg",))], None) == [
        0.0,
        0.0,
    ]


def test_a_one_syllable_adjective_ranks_low_read_whole_but_not_as_a_compounds_member():
    giving = rank.Weighed(pos="adj", frequency=3.1, lemma_1="da 1.1", fits=True)
    gives = rank.Weighed(pos="pr", frequency=0.0, lemma_1="deti 1", fits=True)
    assert rank.weight(gives) > rank.weight(giving)  # dehi: give!, not "giving"
    assert rank.weight(giving, in_split=True) > rank.weight(gives, in_split=True)  # annada: anna + da
    longer = rank.Weighed(pos="adj", frequency=3.1, lemma_1="jāna", fits=True)  # two syllables: a word
    assert rank.weight(longer) > rank.weight(gives)


def test_a_headword_dpd_has_not_met_in_the_texts_weighs_less_read_whole():
    assert rank.exemplified("wish; desire", "") and rank.exemplified("", "sabbe saṅkhārā aniccā")
    assert not rank.exemplified("", "") and not rank.exemplified("  ", "")
    met = rank.Weighed(pos="fem", frequency=0.7, lemma_1="ativisā", fits=True)
    unmet = rank.Weighed(pos="nt", frequency=0.7, lemma_1="ativisa", fits=True, exemplified=False)
    assert rank.weight(met) - rank.weight(unmet) == rank.NOT_EXEMPLIFIED
    # as a part of a split it is still a word: the split is weighed by its words, met or not
    assert rank.weight(met, in_split=True) == rank.weight(unmet, in_split=True)


def test_a_reading_only_in_a_cell_the_canon_hardly_uses_ranks_low():
    assert rank.rare_cells_only("aor", ["reflx aor 1st sg"])  # jāni, for jāna
    assert not rank.rare_cells_only("opt", ["reflx opt 3rd sg", "opt 2nd pl"])  # sikkhetha
    assert rank.rare_cells_only("adj", ["masc voc sg", "nt voc sg"])  # āhara "bringing"
    assert not rank.rare_cells_only("masc", ["masc voc pl"])  # bhikkhave: a noun is addressed
    assert not rank.rare_cells_only("adj", ["masc voc sg", "masc nom sg"])
    assert not rank.rare_cells_only("adj", [])
    bringing = rank.Weighed(pos="adj", frequency=0.7, lemma_1="āhara", fits=True, readings=("masc voc sg",))
    brings = rank.Weighed(pos="pr", frequency=0.0, lemma_1="āharati 1.1", fits=True, readings=("imp 2nd sg",))
    assert rank.weight(brings) > rank.weight(bringing)
    assert rank.weight(bringing, in_split=True) > rank.weight(brings, in_split=True)


def test_a_long_a_before_ti_is_an_imperative_lengthened_unless_the_long_form_is_a_word_of_its_own():
    iti, ti = _part("iti", "iti"), _part("ti", "ti")
    command = _part("upagaccha", "upagacchati")
    command.candidates[0].readings = ["imp 2nd sg"]
    written = _split(_part("upagacchā", "upagacchanta"), ti)  # the long form, another word's form
    restored = _split(command, iti)
    costs = dict((s.split, c) for s, c in _short_before_iti([(written, 0.0), (restored, 1.0)]))
    assert costs["upagaccha + iti"] < costs["upagacchā + ti"]
    # lajjā”ti: lajjā (shame) is a word of its own, though lajja is lajjati's imperative
    blush = _part("lajja", "lajjati")
    blush.candidates[0].readings = ["imp 2nd sg"]
    shame, restored = _split(_part("lajjā", "lajjā"), iti), _split(blush, iti)
    assert _short_before_iti([(shame, 0.0), (restored, 1.0)]) == [(shame, 0.0), (restored, 1.0)]


def test_a_verb_in_the_third_person_before_one_in_the_second_unless_a_pronoun_says_otherwise():
    addressed = rank.Reading("aor", "āmantesi", ("aor 3rd sg",))
    you_invite = rank.Reading("pr", "āmanteti", ("pr 2nd sg",))
    assert rank.context_bonus([you_invite, addressed], [], None) == [0.0, rank.THIRD_PERSON]
    bonuses = rank.context_bonus([you_invite, addressed], [], "tvaṃ")
    assert bonuses[0] > bonuses[1]  # tvaṃ āmantesi: you invite
    # a reflexive third person (rare) does not count: maññatha is "you think"
    reflexive = rank.Reading("aor", "maññi", ("reflx aor 3rd sg",))
    assert rank.context_bonus([rank.Reading("pr", "maññati", ("pr 2nd pl",)), reflexive], [], None) == [0, 0]


def test_words_agree_within_a_clause_only():
    assert clauses("Dhamme bhāsite therā, bhikkhū yathāvihāraṁ; gacchanti.") == [0, 0, 0, 1, 1, 2]
    assert clauses("“bhikkhavo”ti") == [0]  # a quote before ti joins, it ends no clause
    noun = _candidate(1, "sūriya", "masc", ["masc loc sg", "masc acc pl"], 3.0, 1)
    participle = _candidate(2, "anupasampanna 1", "pp", ["masc loc sg", "nt loc sg"], 2.0, 2)
    person = _candidate(3, "anupasampanna 2", "masc", ["masc loc sg"], 2.0, 1)
    word = _token("anupasampanne", person, participle)
    sun = _token("sūriye", noun)
    assert [c.id for c in _agree([sun, word], [0, 1])[1].candidates] == [3, 2]  # a comma between
    assert [c.id for c in _agree([sun, word], [0, 0])[1].candidates] == [2, 3]


def test_a_word_that_qualifies_the_noun_on_its_other_side_says_nothing_of_this_one():
    verb = _candidate(1, "atthi 1.1", "pr", ["pr 3rd sg", "pr 3rd pl"], 3.31, 1)
    seeker = _candidate(2, "atthi 2.1", "masc", ["masc nom sg", "masc voc sg"], 3.30, 2)
    other = _token("paro", _candidate(3, "para", "pron", ["masc nom sg"], 5.0, 1))
    world = _token("loko", _candidate(4, "loka", "masc", ["masc nom sg", "masc acc pl"], 5.0, 1))
    assert [c.id for c in _agree([_token("atthi", verb, seeker), other, world])[0].candidates] == [1, 2]
    # paro alone beside atthi: its one reading agrees with the noun's
    assert [c.id for c in _agree([_token("atthi", verb, seeker), other])[0].candidates] == [2, 1]


def test_a_verb_form_before_a_noun_read_only_in_an_oblique_case():
    teacher = rank.Reading("masc", "desetar", ("masc dat sg", "masc gen sg"))
    teach = rank.Reading("pr", "deseti", ("imp 3rd sg",))
    assert rank.context_bonus([teacher, teach], [], None) == [0.0, rank.VERB]
    sage = rank.Reading("masc", "muni", ("masc nom sg", "masc voc sg"))  # muni: a sage, not "knew"
    assert rank.context_bonus([sage, rank.Reading("aor", "muni", ("aor 3rd sg",))], [], None)[1] < rank.VERB


def test_a_compound_final_adjective_standing_alone_is_read_as_the_noun():
    assert rank.compound_final("wishing (to); wanting (to)", "√kam > kām + *a")
    assert rank.compound_final("with a body; having (a certain) body", "")
    assert not rank.compound_final("healthy; beneficial; useful", "")
    assert not rank.compound_final("with a calm mind", "santa + citta")  # a compound of its own
    wishing = rank.Reading("adj", "kāma", ("masc loc pl", "nt loc pl"), bound=True)
    pleasures = rank.Reading("masc", "kāma", ("masc loc pl",))
    assert rank.context_bonus([wishing, pleasures], [], None) == [0.0, rank.SUBSTANTIVE]
    # beside a noun it can qualify it stays an adjective (saggaṃ lokaṃ: the heavenly world)
    world = rank.Reading("masc", "loka", ("masc loc pl", "masc acc sg"))
    bonuses = rank.context_bonus([wishing, pleasures], [world], None)
    assert bonuses[0] > bonuses[1]
    # and where the word has an adjective that is not compound-final, nothing is said (kusala)
    healthy = rank.Reading("adj", "kāma", ("masc loc pl",))
    assert rank.context_bonus([wishing, healthy, pleasures], [], None) == [0.0, 0.0, 0.0]


def test_va_after_a_kept_niggahita_is_iva():
    word, iva, eva = _part("kaṭṭhaṃ", "kaṭṭha"), _part("iva", "iva"), _part("eva", "eva")
    splits = [(_split(word, eva), 0.0), (_split(word, iva), 0.0)]
    costs = {split.split: cost for split, cost in _iva_after_niggahita(splits, "kaṭṭhaṃva")}
    assert costs["kaṭṭhaṃ + iva"] < costs["kaṭṭhaṃ + eva"]
    # a vowel before va says nothing (ekova: eko + eva; muttova: mutto + iva)
    vowel = [(_split(_part("eko", "eka"), eva), 0.0), (_split(_part("eko", "eka"), iva), 0.0)]
    assert _iva_after_niggahita(vowel, "ekova") == vowel


def _own(hid: int, lemma: str, pos: str, readings: list[str]) -> models.Candidate:
    candidate = _candidate(hid, lemma, pos, readings, 1.0, 0)
    candidate._own_form_ind = pos == "ind"
    return candidate


def test_an_indeclinable_of_the_very_form_comes_before_an_ablative_or_locative_of_it():
    adverb = _own(1, "yasmā 1", "ind", [])
    assert _adverbial_case([_own(2, "ya 2.1", "pron", ["masc abl sg", "nt abl sg"]), adverb]) is adverb
    assert _adverbial_case([_own(3, "dūra 1", "adj", ["masc loc sg"]), _own(4, "dūre 1", "ind", [])]).id == 4
    # not before a nominative or accusative only, nor in a form in ṃ (a neuter's first)
    assert _adverbial_case([_own(5, "so", "pron", ["masc nom sg"]), _own(6, "so", "ind", [])]) is None
    in_m = [_own(7, "dutiya", "ordin", ["nt acc sg", "fem loc sg"]), _own(8, "dutiyaṃ", "ind", [])]
    assert _adverbial_case(in_m) is None


def test_a_gerund_comes_first_before_the_accusative_it_governs_and_only_then():
    # laddhā mudhā nibbutiṃ: "having gained release for nothing", not laddha "gained" (a passive
    # participle takes no object), however much heavier the participle is
    gained = _candidate(1, "laddha 1", "pp", ["masc nom pl", "fem nom sg"], 2.6, 1)
    having_gained = _candidate(2, "laddhā", "abs", [], 0.7, 2)
    freely = _token("mudhā", _candidate(8, "mudhā", "ind", [], 2.0, 1))
    release = _token("nibbutiṃ", _candidate(9, "nibbuti", "fem", ["fem acc sg"], 2.0, 1))
    read = _agree([_token("laddhā", gained, having_gained), freely, release])
    assert [c.id for c in read[0].candidates] == [2, 1]
    assert [c.rank for c in read[0].candidates] == [1, 2]
    # a word that may be a nominative is no object; nor is one in the next clause
    either = _token("nibbuti", _candidate(9, "nibbuti", "fem", ["fem nom sg", "fem acc sg"], 2.0, 1))
    assert [c.id for c in _agree([_token("laddhā", gained, having_gained), either])[0].candidates] == [1, 2]
    apart = _agree([_token("laddhā", gained, having_gained), release], [0, 1])
    assert [c.id for c in apart[0].candidates] == [1, 2]
    # a finite verb ranked first governs the object itself: the gerund stays where it is
    gets = _candidate(3, "labhati", "pr", ["pr 3rd sg"], 3.0, 1)
    assert [c.id for c in _agree([_token("x", gets, having_gained), release])[0].candidates] == [3, 2]


def test_a_participle_agreeing_with_a_noun_of_another_gender_comes_before_the_noun_of_its_word():
    # abhabbatā diṭṭhapadassa vuttā: vuttā (fem nom sg, "said") agrees with abhabbatā; vutta nt
    # ("saying") has no nom sg in this form and cannot be feminine
    saying = _candidate(1, "vutta 2.4", "nt", ["nt nom pl", "nt instr sg", "nt abl sg"], 2.4, 1)
    said = _candidate(2, "vutta 1.1", "pp", ["masc nom pl", "fem nom sg", "fem nom pl"], 2.4, 2)
    inability = _token("abhabbatā", _candidate(8, "abhabbatā", "fem", ["fem nom sg", "fem nom pl"], 3.0, 1))
    seen = _token("diṭṭhapadassa", _candidate(9, "diṭṭhapada", "adj", ["masc gen sg"], 3.0, 1))
    read = _agree([inability, seen, _token("vuttā", saying, said)])
    assert [c.id for c in read[2].candidates] == [2, 1]
    # apposition is no evidence: a noun that can share the case and number (jetavane … ārāme)
    monastery = rank.Reading("masc", "ārāma", ("masc loc sg", "masc acc pl"))
    belonging = rank.Reading("adj", "ārāma", ("masc loc sg", "nt loc sg"))
    grove = rank.Reading("nt", "jetavana", ("nt loc sg",))
    assert rank.gendered([monastery, belonging], [grove]) is None
    assert rank.gendered([monastery, belonging], [rank.Reading("nt", "vana", ("nt nom sg",))]) is None
    # three words off is too far
    far = _agree([inability, seen, seen, _token("vuttā", saying, said)])
    assert [c.id for c in far[3].candidates] == [1, 2]


def test_a_sense_met_only_beside_a_noun_is_a_possessive_adjective_or_a_grammarians_term():
    assert rank.needs_a_noun("adj", "with friendly heart; with kind mind")
    assert rank.needs_a_noun("adj", "holding a belief; having a doctrine")
    assert rank.needs_a_noun("adj", "(gram) final; ending with")
    assert rank.needs_a_noun("masc", "(gram) end (of); last letter (of)")
    assert not rank.needs_a_noun("adj", "intelligent; wise; discerning")
    assert not rank.needs_a_noun("nt", "friendly heart; kind mind; benevolence")
    assert not rank.needs_a_noun("masc", "with a view to")  # only an adjective is possessive


def _kind_mind(hid: int = 1) -> tuple[models.Candidate, models.Candidate]:
    readings = ["nt nom sg", "masc acc sg", "nt acc sg"]
    possessive = "with friendly heart; with kind mind"
    adjective = _candidate(hid, "mettacitta 1", "adj", readings, 0.0, 1, possessive)
    noun = _candidate(hid + 1, "mettacitta 2", "nt", ["nt nom sg", "nt acc sg"], 0.0, 2, "friendly heart")
    adjective.construction = noun.construction = "metta + citta"  # a compound: no compound's last member
    return adjective, noun


def test_the_noun_comes_before_a_possessive_adjective_of_its_word_standing_alone():
    # satta vassāni mettacittaṃ bhāvetvā: having developed a kind mind (the noun), not "with a kind mind"
    having_developed = _token("bhāvetvā", _candidate(9, "bhāvetvā", "abs", [], 3.0, 1))
    read = _agree([_token("mettacittaṃ", *_kind_mind()), having_developed])
    assert [c.id for c in read[0].candidates] == [2, 1]
    assert [c.rank for c in read[0].candidates] == [1, 2]
    # beside a noun it can qualify (…ṃ puggalaṃ: a person with a kind mind) the adjective stays first
    person = _token("puggalaṃ", _candidate(8, "puggala", "masc", ["masc acc sg"], 3.0, 1))
    beside = _agree([_token("mettacittaṃ", *_kind_mind()), person])
    assert [c.id for c in beside[0].candidates] == [1, 2]
    # ... within two words, in its clause; three words off, or in the next clause, it stands alone
    filler = _token("ca", _candidate(7, "ca", "ind", [], 9.0, 1))
    far = _agree([_token("mettacittaṃ", *_kind_mind()), filler, filler, person])
    assert [c.id for c in far[0].candidates] == [2, 1]
    apart = _agree([_token("mettacittaṃ", *_kind_mind()), person], [0, 1])
    assert [c.id for c in apart[0].candidates] == [2, 1]


def test_an_adjective_in_its_ordinary_sense_keeps_its_place_and_a_grammarians_noun_is_passed_over():
    # nipako: "wise" (the adjective, used of a person) before nipaka "chief": no possessive sense
    wise = _candidate(1, "nipaka 1", "adj", ["masc nom sg"], 1.1, 1, "intelligent; wise; discerning")
    chief = _candidate(2, "nipaka 2", "masc", ["masc nom sg"], 1.1, 2, "chief; master")
    assert [c.id for c in _agree([_token("nipako", wise, chief)])[0].candidates] == [1, 2]
    # ante: anta "(gram) final" first; the noun taken is "end; side", not the grammarian's "last letter"
    forms = ["masc acc pl", "masc loc sg"]
    final = _candidate(1, "anta 8", "adj", forms, 5.2, 1, "(gram) final; ending with")
    letter = _candidate(2, "anta 9", "masc", forms, 5.2, 2, "(gram) end (of)")
    end = _candidate(3, "anta 2", "masc", forms, 5.2, 3, "end; side; extreme")
    assert [c.id for c in _agree([_token("ante", final, letter, end)])[0].candidates] == [3, 1, 2]
    # a word with no noun of its own lemma is left alone
    other = _candidate(4, "antara", "masc", ["masc acc pl"], 5.2, 2, "gap")
    assert [c.id for c in _agree([_token("ante", final, other)])[0].candidates] == [1, 4]
