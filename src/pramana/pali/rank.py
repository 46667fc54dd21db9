"""Readings of a token in the order a reader of the canon expects them.

A token has two kinds of reading: a headword the whole form belongs to (a candidate) and a split into
words (DPD's, an elision restored, or a sandhi found in an unmarked word). Each is weighed:

- a headword by how often it is met (DPD's `ebt_count`, or how many headwords are built from it; see
  `source.add_headword_frequency`), closed classes (pronouns, particles, DPD's sandhi headwords) a step
  up, grammatical terms (letters, endings, prefixes, roots: "hi 3", "ti 3") at the bottom, and a
  headword the form is not an inflection of (`rūpañca` listed under rūpa, the particle not said) below
  one it is; and a headword DPD made for the very inflected form read (its stem marked "!": caraṃ
  prp "walking", bhavataṃ masc "of the sirs", santi pr) above the others: DPD lists a form on its own
  where it has a use of its own;
- a split by its weakest word, less a cost for each further word and for the sandhi it assumes, so
  "me + eso" comes before mesa "ram" for meso, while tena stays ta, not te + na.

Then neighbours vote where an agreement test can tell: between candidates of a token, one whose case
and number a next or previous noun or adjective shares (in all its readings) comes first, and a verb
whose person the pronoun before it names (ahaṃ ... karomi).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass

GRAMMAR_TERMS = frozenset({"letter", "suffix", "prefix", "root", "ve", "cs", "abbrev"})
CLOSED_CLASS = {"pron": 3.0, "ind": 2.0, "sandhi": 2.0, "card": 1.0, "ordin": 0.5}
GRAMMAR_TERM_WEIGHT = -10.0
# The particles joined to the word before (issue 30: ca, pi/api, iti/ti, iva/va, eva/va, hi) and vā (or):
# among the commonest words of the canon, which a count of constructions cannot show.
PARTICLES = frozenset(
    {"ca", "vā", "api", "pi", "iti", "ti", "iva", "va", "eva", "hi", "kho", "pana", "nu", "su"}
)
PARTICLE_WEIGHT = 9.0
NOT_THIS_FORM = 8.0  # the form is not one of the headword's inflections
WORD_COST = 3.5  # each word of a split beyond the first
SANDHI_COST = 0.5  # each unit of DPD's rule weight a split assumes
SANDHI_PART_WEIGHT = -1.0  # below a word never met (frequency 0): its letters are split again elsewhere
AGREEMENT = 0.5  # the bonus of a reading that agrees with its neighbour
TIE = 0.25  # candidates this close in weight are ordered by agreement
OWN_FORM = 0.01  # above the heaviest candidate: DPD's headword of the very form read (stem "!": caraṃ)
NOT_EXEMPLIFIED = 1.0  # a headword DPD has not yet met in the texts: e times rarer than its count says
RARE_CELL = 3.0  # a reading only in a cell of its table the canon hardly uses (rare_cells_only)
_HOMONYM = re.compile(r" (\d+(?:\.\d+)?)")
_PERSONS = {"ahaṃ": "1st sg", "mayaṃ": "1st pl", "tvaṃ": "2nd sg", "tumhe": "2nd pl"}
_CASE_NUMBER = re.compile(r"\b(?:(masc|fem|nt) )?(nom|acc|instr|dat|abl|gen|loc|voc) (sg|pl)\b")


@dataclass(frozen=True)
class Weighed:
    """What ranking needs to know of a candidate."""

    pos: str
    frequency: float
    lemma_1: str
    fits: bool  # the form is this headword's lemma or one of its labelled inflections
    readings: tuple[str, ...] = ()
    exemplified: bool = True  # DPD has met it in the texts (meaning_1 given; see `exemplified`)


def weight(candidate: Weighed, *, in_split: bool = False) -> float:
    """How likely the reading is; `in_split`: as a part of a split, where a joined form (DPD's sandhi
    headwords: napi, tañca, riva) would split the same letters twice and counts for little."""
    if candidate.pos in GRAMMAR_TERMS:
        return GRAMMAR_TERM_WEIGHT + candidate.frequency
    if in_split and candidate.pos == "sandhi":
        return SANDHI_PART_WEIGHT
    particle = candidate.pos == "ind" and candidate.lemma_1.split(" ")[0] in PARTICLES
    base = PARTICLE_WEIGHT if particle else candidate.frequency + CLOSED_CLASS.get(candidate.pos, 0.0)
    bound = not in_split and suffix_adjective(candidate)
    # As a part of a split the weakest part decides (split_weight): a part DPD has not met is still a
    # word, and the whole word it would be split from is no likelier for it (karaṇīyamatthakusalena).
    unmet = 0.0 if candidate.exemplified or in_split else NOT_EXEMPLIFIED
    rare = RARE_CELL if not in_split and rare_cells_only(candidate.pos, candidate.readings) else 0.0
    return base - (0.0 if candidate.fits and not bound else NOT_THIS_FORM) - unmet - rare


_MODIFIER_POS = frozenset({"adj", "pp", "prp", "ptp"})


def rare_cells_only(pos: str, readings: Sequence[str]) -> bool:
    """Whether every reading the form has under this headword is one the canon hardly uses: a
    reflexive (attanopada) form, "reflx aor 1st sg" (jāna is jānāti's imperative, not jāni "I knew"),
    or, of an adjective or participle, a vocative, which needs a noun addressed beside it (āhara in
    `imaṃ āhara`, bring this, not "o bringing one"). Its construction count is its word's, not this
    form's; a noun's vocative is common (bhikkhave) and keeps its weight."""
    if not readings:
        return False
    if all(reading.startswith("reflx") for reading in readings):
        return True
    return pos in _MODIFIER_POS and all(_VOCATIVE.search(reading) for reading in readings)


_VOCATIVE = re.compile(r"\bvoc\b")


def exemplified(meaning_1: str, example_1: str = "") -> bool:
    """Whether DPD has met the headword in the texts: its editors give a headword meaning_1 when they
    check it against a passage of the canon, which they quote as its example (example_1); a headword
    with meaning_2 only is carried over from an older dictionary, not yet met (of the 335 headwords of
    DPD's analysis fixtures, the 312 with meaning_1 are "complete", with an example, or "semi-complete";
    22 of the 23 without are "incomplete"). Evidence of the reading itself, not of its form: ativisā fem
    "aconite", met in the Vinaya's list of roots, before ativisa nt, given from an older dictionary."""
    return bool(meaning_1.strip() or example_1.strip())


_VOWELS = frozenset("aāiīuūeo")


def suffix_adjective(candidate: Weighed) -> bool:
    """An adjective of one syllable (da "giving", ja "born (from)", pa "drinking", ga "going"): the last
    member of compounds (annada, kammaja), never a word on its own; the construction count, which
    counts those compounds, makes it look common. Read whole it ranks as a form the word does not
    take (dehi is deti's imperative, not da; passa is passati's, not pa)."""
    lemma = candidate.lemma_1.split(" ")[0]
    return candidate.pos == "adj" and len(lemma) <= 3 and sum(ch in _VOWELS for ch in lemma) == 1


def candidate_order(candidate: Weighed) -> tuple[float, float]:
    """Sort key: heavier first; on a tie, the lower homonym number (DPD numbers the commoner sense first)."""
    match = _HOMONYM.search(candidate.lemma_1)
    return -weight(candidate), float(match[1]) if match else 0.0


def split_weight(part_weights: Sequence[float], cost: float, pieces: int) -> float:
    """A split's weight: its weakest word, less WORD_COST a further piece (a word or a sandhi
    consonant written as a part: d + antehi + api is three pieces, dantehi + api two) and SANDHI_COST a
    unit of cost."""
    if not part_weights:
        return GRAMMAR_TERM_WEIGHT * 2
    return min(part_weights) - WORD_COST * (pieces - 1) - SANDHI_COST * cost


NOUNS = frozenset({"masc", "fem", "nt"})
VERBS = frozenset({"pr", "aor", "opt", "imp", "fut", "cond", "imperf", "perf", "abs", "ger", "inf"})
VERB = 0.05  # a verb form before a noun read only in an oblique case (desetu: let him teach)
SUBSTANTIVE = 0.2  # a noun before a compound-final adjective of the same word standing alone (kāmesu)
THIRD_PERSON = 0.1  # a verb in the 3rd person before one in the 2nd or 1st (āmantesi: addressed)
_PERSON = re.compile(r"\b(?:1st|2nd|3rd)\b")
MODIFIERS = frozenset({"adj", "pp", "prp", "ptp"})  # words that take the gender, case and number of a noun
NUMERALS = frozenset({"card", "ordin"})
QUALIFIERS = MODIFIERS | NUMERALS | {"pron"}  # and those that qualify a noun beside them (paro loko)


@dataclass(frozen=True)
class Reading:
    """A candidate as the neighbours' test sees it: its part of speech, lemma and grammatical readings."""

    pos: str
    lemma: str
    readings: tuple[str, ...]
    bound: bool = False  # an adjective DPD gives as a compound's last member (kāma "wishing (to)")
    dependent: bool = False  # a sense met only beside a noun it qualifies, or in a grammar (needs_a_noun)


def context_bonus(top: Sequence[Reading], neighbours: Sequence[Reading], before: str | None) -> list[float]:
    """For each of a token's likeliest candidates (within TIE of each other), what its neighbours say:

    - AGREEMENT when it agrees with a neighbour that can be read only one way (gender, case and number),
      with a neighbouring noun it can qualify (an adjective, participle or numeral: tatiyaṃ jhānaṃ, the
      third meditation, not tatiyaṃ "for the third time") or with a neighbouring
      adjective or participle that can qualify it (a noun: sammodanīyaṃ kathaṃ, the talk, not "how");
      or when it is a verb whose person the personal pronoun just before it names;
    - SUBSTANTIVE when it is a noun and an adjective of the same word competes with it that DPD
      gives as a compound's last member ("wishing (to)", "with a body; having …": -kāma, -kāya) and
      that no neighbour lets qualify: standing alone, such a word is the noun (kāmesu: in sensual
      pleasures);
    - VERB when it is a verb form (finite, a gerund, absolutive or infinitive) and a noun competes with
      it that can only be read in an oblique case (desetu: let him teach, not "for the teacher";
      anupādāya: not grasping, not "for the succession"): construction counts give verbs no weight;
    - THIRD_PERSON when it is a verb in the third person and another is not (āmantesi: he addressed,
      the aorist, not "you invite"): the canon narrates, and a pronoun beside a verb outweighs this.

    (Tried and left out: a past participle before a noun of the same form, patto "attained" before
    patto "bowl", mūḷho; in the development texts it was wrong more often than right: buddho, sattānaṃ,
    attā, hitāya, anupasampanno.)"""
    # A modifier beside a modifier is a series (kisaṃ dhamanisanthataṃ: lean, vein-covered), not a noun
    # and its adjective: a noun is said to agree with a neighbouring modifier only where the token
    # has no modifier reading of its own.
    modifier = any(candidate.pos in MODIFIERS for candidate in top)
    agrees = [_agrees(candidate, neighbours, before, modifier) for candidate in top]
    persons = [_persons(candidate.readings) for candidate in top]
    verbs = [p for p in persons if p]
    third = bool(verbs) and any("3rd" in p for p in verbs) and any("3rd" not in p for p in verbs)
    oblique_noun = any(c.pos in NOUNS and _oblique(c.readings) for c in top)
    # a word every adjective of which here is compound-final and qualifies no neighbour
    adjectives = [(c, agreed) for c, agreed in zip(top, agrees, strict=True) if c.pos == "adj"]
    unqualifying = {c.lemma for c, _ in adjectives} - {
        c.lemma for c, agreed in adjectives if agreed or not c.bound
    }
    return [
        (AGREEMENT if agreed else 0.0)
        + (SUBSTANTIVE if candidate.pos in NOUNS and candidate.lemma in unqualifying else 0.0)
        + (THIRD_PERSON if third and "3rd" in person else 0.0)
        + (VERB if oblique_noun and candidate.pos in VERBS else 0.0)
        for candidate, agreed, person in zip(top, agrees, persons, strict=True)
    ]


_RELATIONAL = re.compile(r"^(?:with|having) |\((?:to|in|of|for|with|on|about|at|from)\)")


def compound_final(meaning: str, construction: str) -> bool:
    """Whether an adjective is one DPD gives as a compound's last member: its meaning names what it
    is had with or related to ("with a body; having …", "wishing (to)", "fond (of)") and it is no
    compound itself (its construction starts from a root, or is not given)."""
    first_line = construction.split("\n")[0]
    return bool(_RELATIONAL.search(meaning)) and ("√" in first_line or "+" not in first_line)


def _oblique(readings: tuple[str, ...]) -> bool:
    """Whether every reading is in an oblique case (not nominative, accusative or vocative)."""
    cases = {case for _gender, case, _number in case_numbers(readings)}
    return bool(cases) and not cases & {"nom", "acc", "voc"}


def _persons(readings: tuple[str, ...]) -> frozenset[str]:
    """The grammatical persons a verb's readings name ("pr 3rd sg": 3rd); the reflexive forms, rare in
    the canon, aside (maññatha is you think, not the reflexive aorist)."""
    return frozenset(m[0] for r in readings if not r.startswith("reflx") for m in _PERSON.finditer(r))


def _agrees(candidate: Reading, neighbours: Sequence[Reading], before: str | None, modifier: bool) -> bool:
    if before in _PERSONS and any(_PERSONS[before] in r for r in candidate.readings):
        return True
    mine = case_numbers(candidate.readings)
    for other in neighbours:
        theirs = case_numbers(other.readings)
        if len(theirs) == 1 and theirs <= mine:
            return True
        free = (candidate.pos in NOUNS and not modifier) or candidate.pos in MODIFIERS | NUMERALS
        if free and qualifies(candidate, other):
            return True
    return False


def qualifies(one: Reading, other: Reading) -> bool:
    """Whether one of the two is a noun and the other qualifies it (an adjective, participle,
    pronoun or numeral: paro loko): a gender, case and number both can have (a vocative aside: it is
    met beside a vocative, not beside any noun)."""
    pair = {one.pos in NOUNS, other.pos in NOUNS}
    if pair != {True, False} or not (one.pos in QUALIFIERS or other.pos in QUALIFIERS):
        return False
    return any(r[1] != "voc" for r in case_numbers(one.readings) & case_numbers(other.readings))


@functools.lru_cache(maxsize=16_384)
def case_numbers(readings: tuple[str, ...]) -> frozenset[tuple[str, str, str]]:
    """The (gender, case, number) readings such as "masc nom sg" name (gender "" where none is said)."""
    return frozenset((m[1] or "", m[2], m[3]) for r in readings for m in _CASE_NUMBER.finditer(r))


GERUNDS = frozenset({"abs", "ger"})
NOMINAL = NOUNS | {"pp", "ptp", "adj"}  # readings that cannot govern an object in the accusative


def governing(candidates: Sequence[Reading], after: Sequence[Reading]) -> int | None:
    """The position of a gerund (absolutive) among a token's candidates that should come first: where
    the next word after it in its clause, indeclinables aside, is a noun read only in the accusative,
    the object a gerund governs (laddhā … nibbutiṃ: having gained release; not laddha "gained", a
    passive participle, nor a noun, neither of which takes an object), and every candidate ranked
    above it is a noun, adjective or participle. None otherwise (a finite verb ranked first governs
    the object itself)."""
    position = next((i for i, c in enumerate(candidates) if c.pos in GERUNDS), None)
    if not position or not all(c.pos in NOMINAL for c in candidates[:position]):
        return None
    word = next((reading for reading in after if reading.pos != "ind"), None)  # laddhā mudhā nibbutiṃ
    if word is None or word.pos not in NOUNS:
        return None
    cases = {case for _gender, case, _number in case_numbers(word.readings)}
    return position if cases == {"acc"} else None


def gendered(candidates: Sequence[Reading], near: Sequence[Reading]) -> int | None:
    """The position of a participle or adjective among a token's candidates that should come before
    the noun of its word ranked first: where a noun of another gender than that noun's stands in the
    clause (within two words) in a case and number the participle can take in that gender and the
    noun cannot take in its own, the word is that noun's participle (abhabbatā … vuttā, fem: said, not
    the neuter noun "saying"): a noun does not change its gender to agree. A noun that can share the
    case and number may stand in apposition (jetavane … ārāme) and is no evidence. None otherwise."""
    first = candidates[0] if candidates else None
    if first is None or first.pos not in NOUNS:
        return None
    for position, candidate in enumerate(candidates):
        if candidate.pos not in MODIFIERS or candidate.lemma != first.lemma:
            continue
        mine = case_numbers(candidate.readings)
        for other in near:
            shared = {r for r in case_numbers(other.readings) & mine if r[1] != "voc"}
            if other.pos not in NOUNS or other.pos == first.pos or {g for g, _, _ in shared} != {other.pos}:
                continue
            if {(c, n) for _g, c, n in shared} - {(c, n) for _g, c, n in case_numbers(first.readings)}:
                return position
    return None


# An adjective sense met only beside a noun it qualifies: a possessive one ("with a kind mind",
# "having a doctrine": a bahubbīhi, whose meaning lies in another word) or a grammarian's term
# ("(gram) final; ending with").
_POSSESSIVE = re.compile(r"(?:^|; )(?:with|having|holding|possessing) ")
_GRAMMAR_SENSE = "(gram)"


def needs_a_noun(pos: str, meaning: str) -> bool:
    """Whether a reading is a sense a reader of the canon meets only beside the noun it qualifies
    (an adjective's possessive sense) or in a grammar (any part of speech: "(gram) …")."""
    possessive = pos == "adj" and bool(_POSSESSIVE.search(meaning))
    return possessive or meaning.startswith(_GRAMMAR_SENSE)


def substantive(candidates: Sequence[Reading], near: Sequence[Reading]) -> int | None:
    """The position of the noun among a token's candidates that should come before the adjective of
    its word ranked first: where that adjective's sense is one met only beside a noun it qualifies
    (`needs_a_noun`: mettacitta "with a kind mind", vāda "having a doctrine", anta "(gram) final") and
    no noun in the clause within two words lets it qualify, the word stands alone and is its noun
    (mettacittaṃ bhāvetvā: having developed a kind mind; ko pana vādo: what talk is there). The noun
    taken is the first of the same lemma that is no grammarian's sense itself. None otherwise: an
    adjective in its ordinary sense keeps its place (nipako, bālānaṃ: the wise, of fools), and so does
    one a neighbouring noun agrees with."""
    first = candidates[0] if candidates else None
    if first is None or first.pos != "adj" or not first.dependent:
        return None
    if any(qualifies(first, other) for other in near):
        return None
    nouns = (i for i, c in enumerate(candidates) if c.pos in NOUNS and not c.dependent)
    return next((i for i in nouns if candidates[i].lemma == first.lemma), None)
