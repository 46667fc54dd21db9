"""Readings of a token in the order a reader of the canon expects them.

A token has two kinds of reading: a headword the whole form belongs to (a candidate) and a split into
words (DPD's, an elision restored, or a sandhi found in an unmarked word). Each is weighed:

- a headword by how often it is met (DPD's `ebt_count`, or how many headwords are built from it; see
  `source.add_headword_frequency`), closed classes (pronouns, particles, DPD's sandhi headwords) a step
  up, grammatical terms (letters, endings, prefixes, roots: "hi 3", "ti 3") at the bottom, and a
  headword the form is not an inflection of (`rūpañca` listed under rūpa, the particle not said) below
  one it is;
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


def weight(candidate: Weighed, *, in_split: bool = False) -> float:
    """How likely the reading is; `in_split`: as a part of a split, where a joined form (DPD's sandhi
    headwords: napi, tañca, riva) would split the same letters twice and counts for little."""
    if candidate.pos in GRAMMAR_TERMS:
        return GRAMMAR_TERM_WEIGHT + candidate.frequency
    if in_split and candidate.pos == "sandhi":
        return SANDHI_PART_WEIGHT
    particle = candidate.pos == "ind" and candidate.lemma_1.split(" ")[0] in PARTICLES
    base = PARTICLE_WEIGHT if particle else candidate.frequency + CLOSED_CLASS.get(candidate.pos, 0.0)
    return base - (0.0 if candidate.fits else NOT_THIS_FORM)


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


def agreement_bonus(
    readings: tuple[str, ...], neighbours: Sequence[tuple[str, ...]], before: str | None
) -> float:
    """AGREEMENT when a reading agrees with a neighbour that can only be read one way (its gender, case
    and number), or a verb's person with the personal pronoun just before it; else 0."""
    if before in _PERSONS and any(_PERSONS[before] in r for r in readings):
        return AGREEMENT
    mine = case_numbers(readings)
    for other in neighbours:
        theirs = case_numbers(other)
        if len(theirs) == 1 and theirs <= mine:
            return AGREEMENT
    return 0.0


@functools.lru_cache(maxsize=16_384)
def case_numbers(readings: tuple[str, ...]) -> frozenset[tuple[str, str, str]]:
    """The (gender, case, number) readings such as "masc nom sg" name (gender "" where none is said)."""
    return frozenset((m[1] or "", m[2], m[3]) for r in readings for m in _CASE_NUMBER.finditer(r))
