"""Reading one word of a text: every analysis it may have, ranked by how likely it is in real text.

A word (SLP1) is read
- as an indeclinable (a dictionary's `ind.` headword or a built-in particle: iti, api, tatas as tataḥ);
- as a case of a stem: the endings of every class are undone (`paradigms.candidate_stems`), the stems
  looked up in the lexicon, and kept when the stem's paradigm in one of its genders has the word;
- as a verb form of a Dhātupāṭha root, or as a case of one of its participles;
- after its preverbs are undone (anv-abhuṅkta, ny-avedayanta, pra-viṣṭaḥ, ut-thāpayāmi): the rest is
  a bare verb form (the augment included) or participle, and the lemma the verb with its preverbs,
  as the dictionaries and the DCS name it (anubhuj, niveday, praviś);
- with its final sound as it is before a pause, when sandhi changed it (rāmo → rāmaḥ, kasmāc → kasmāt);
- as an indefinite (kaścit, kiṃcid, kadācit, kathaṃcana).
Readings are ranked by the frequency of their lemma in real text (`frequency.py`; for a lemma it does
not know, the number of dictionary articles on it) and of their grammatical slot.
"""

from __future__ import annotations

import math
import re
import zlib
from array import array
from bisect import bisect_left
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from enum import Enum
from functools import lru_cache
from zlib import crc32

import numpy as np

from pramana.sanskrit import paradigms
from pramana.sanskrit.avyaya import INDECLINABLES, INDEFINITE_SUFFIXES, INTERROGATIVE_ADVERBS
from pramana.sanskrit.forms import (
    GERUND,
    GERUND_YA,
    GRAMMARS,
    INDECLINABLE,
    NOMINAL,
    NUMERAL,
    PARTICIPLE_NAMES,
    PRONOUN,
    VERBAL,
    LexiconRow,
    pausa_readings,
    retroflex_n,
)
from pramana.sanskrit.frequency import (
    FORM_PRIOR,
    case_log_probability,
    dcs_key,
    form_counts,
    lemma_class,
    log_probability,
    slot_log_probability,
)
from pramana.sanskrit.store import SanskritStore

VOWELS = frozenset("aAiIuUfFxXeEoO")
VOICED = frozenset("gGjJqQdDbBnmNYRyrlvh") | VOWELS
# Preverbs (upasargas and the gatis alam, antar, puras, tiras, prādus, āvis, namas) as the dictionaries
# spell them.
PREVERBS = [
    "pra",
    "parA",
    "apa",
    "sam",
    "anu",
    "ava",
    "nis",
    "dus",
    "vi",
    "A",
    "ni",
    "aDi",
    "api",
    "ati",
    "su",
    "ud",
    "aBi",
    "prati",
    "pari",
    "upa",
    "antar",
    "puras",
    "tiras",
    "alam",
    "prAdus",
    "Avis",
    "Srad",  # the gati of śraddhā (śrad-dadhāti, śrad-dadhāna: Whitney §1092)
    "namas",  # a gati with kṛ (sākṣātprabhṛtīni ca, 1.4.74): namas-kṛtya, namas-kṛta
]
MAX_PREVERBS = 3
PREVERB_COST = 0.6  # what each preverb a reading undoes costs it (the cvi gati counts as one, with CVI)


@dataclass(frozen=True)
class Reading:
    form: str  # the word as read (SLP1), its final before a pause restored when sandhi changed it
    lemma: str  # SLP1: the stem, the root, the verb with its preverbs, or the causative's stem in -ay
    kind: str  # noun, pronoun, numeral, verb, indeclinable
    grammar: tuple[str, ...]
    score: float
    root: str = ""  # verbs: the bare root
    preverbs: tuple[str, ...] = ()
    slots: tuple[str, ...] = field(default=(), compare=False)  # 'nominative singular', '3rd singular'
    # what the score owes to how common the lemma is: (lemma counted, its class), log P (frequency.py)
    prior: tuple[str, str, float] = field(default=("", "", 0.0), compare=False)


FUNCTION_WORD = 1.0  # what a built-in indeclinable gains over a stem whose form it shares (sadā, sad)
FEMININE_LEMMA = 1.5  # kāntā read as the stem kāntā rather than as the feminine of kānta
# An a-stem's feminine is in -ā (ajādyataṣ ṭāp, 4.1.4); one in -ī is made by rules for nouns (ṭiḍḍhāṇañ…,
# 4.1.15: khecarī of khe-cara, 3.2.16; ṣidgaurādibhyaś ca, 4.1.41: gaurī; puṃyogād ākhyāyām, 4.1.48), and
# the DCS names it a noun of its own: khecarī read as khecarī before the feminine of khecara.
I_FEMININE_LEMMA = 0.1
ADVERB = 3.0  # an adjective's -am, -āt read as an adverb of its own (niyatam), after its case
ABLATIVE_ADVERB = 1.5  # … and one in -āt later still: most are the ablative (lobhāt), some adverbs (kramāt)
INSTRUMENTAL_ADVERB = 1.5  # … and one in -ena as late: mostly the instrumental (kālena), some not (acireṇa)
# a noun's ablative in -tas (prayatnataḥ, 5.4.44), as the DCS reads the productive -tas: before a dictionary's
# adverb of that form that real text does not count (prayatnatas), after one it does (samantatas, sarvatas);
# after the nominative of a headword in -ta (bharataḥ: bharata, not bhara-tas), and as a part of a sandhi
# group or compound, where the splitter weighs it, as before (its ablative in -āt first)
TASIL = -2.0
TASIL_AFTER = 1.0
TASIL_SLOT = ("ablative singular",)
# A preverb before an agent or action noun of the kṛt suffixes ṇini, lyuṭ, ṇvul, tṛc (pari-pālin, pra-vartana,
# ni-vāraka, anu-gantṛ) makes a noun of its own, the DCS's lemma, which no dictionary may list (paripālinī)
KRT_SUFFIXES = ("in", "ana", "aRa", "aka", "tf")
KRT_NOUN = 1.5
POSSESSIVE_IN = 2.0  # an a-stem's possessive in -in (āmayin) no dictionary lists, when nothing else reads it
# a feminine ā-stem's case as a possessive compound's last member, when nothing else reads it
SHORTENED_LAST = 2.0
POSSESSIVE_GENDER = 1.5  # a neuter in -as declined as the masculine a possessive compound makes of it (tejāḥ)
AGENT_NOUN = 1.0  # the periphrastic future's 3rd person read as its agent noun's nominative (patitāraḥ)
# the periphrastic future's 3rd person is the nominative of the agent noun in -tṛ (Whitney §942-944):
# its ending, the noun's, the number
_AGENT_NOMINATIVES = (("tA", "tf", "singular"), ("tArO", "tf", "dual"), ("tAraH", "tf", "plural"))
PERIPHRASTIC = 0.5
NEGATIVE = 3.0  # a- + a headword's case read as a negative compound no dictionary lists
# a noun in -ī/-ū as the gati of kṛ, bhū no dictionary lists (nimittī-kṛtya): a second preverb's cost
CVI = 1.0
TVA_ENDINGS = ("tvA", "wvA", "DvA")  # the gerund's -tvā (dṛṣṭvā, labdhvā)
NOMINAL_INDECLINABLE = 1.5  # a dictionary's indeclinable that is also a noun's or a participle's stem
GENDERLESS = 2.0  # a headword no gender marker names, declined all the same
IMPLIED_GENDER = 0.3  # … and one in -ā, -ī, -ū, declined as the feminine its article does not name
CLOSED_FORM = 1.5  # a headword's case that is a pronoun's or numeral's form too
FEMININE_HEADWORD = 2.0
ORDINAL_FORM = 3.0  # dvādaśa read as the ordinal ("twelfth"), where it is written as the cardinal dvādaśan
# the stem finals whose feminines (-ā/-ī, -vī, -inī, -vatī) may be headwords of their own (purī, kariṇī)
FEMININE_STEM_FINALS = ("a", "u", "in", "vat", "mat")
NEUTER_DUAL_AS_FEMININE = ("in", "vat", "mat")  # their neuter dual is their feminine's nominative
IN_NOMINATIVE = 3.5  # an a-stem's feminine in -ī (yogī: yoga's) where an -in stem's nominative (yogin's)
GERUND_TVA = 3.0  # a case of a stem in -tva (neuter abstracts; 5.1.119) that is a verb's gerund in -tvā too
# a form in -ya that is a gerund after a preverb (sampūjya, āmantrya, abhivādya: mostly the gerund, the DCS
# says) read before a gerundive or a headword of the same form
GERUND_FORM = 2.0  # an adjective's feminine whose feminine stem is a headword of its own
# bhū's present participle where it is a form of the pronoun bhavat, "your honour" (bhavatu is in the
# sarvādi list of 1.1.27, declined like a -vat stem: bhavān, bhavantaḥ, bhavatām): read after the pronoun.
# The DCS names these forms bhavat (9 tokens of the sets, none bhū's participle).
PRONOMINAL_PARTICIPLES = frozenset({"Bavat"})
PRONOMINAL_PARTICIPLE = 4.0
# the numerals whose number their meaning fixes (dvi dual; tri, catur, ṣaṣ, the -an numerals plural:
# 1.4.21-22): their slots are weighed by case alone, so that trayaḥ is tri's nominative before traya's
FIXED_NUMBER_NUMERALS = paradigms.NUMERAL_STEMS - {"eka"}


# -- preverbs ---------------------------------------------------------------------------------------


def _vowel_joins(preverb: str) -> list[tuple[str, str]]:
    """(how the preverb is written, what the rest then starts with) before a vowel."""
    head, last = preverb[:-1], preverb[-1]
    if last in "aA":
        return [
            (head + "A", "a"), (head + "A", "A"), (head + "e", "i"), (head + "e", "I"), (head + "o", "u"),
            (head + "o", "U"), (head + "E", "e"), (head + "E", "E"), (head + "O", "o"), (head + "O", "O"),
            (head + "Ar", "f"),
        ]  # fmt: skip
    if last in "iI":
        return [(head + "y", ""), (head + "I", "i"), (head + "I", "I")]
    if last in "uU":
        return [(head + "v", ""), (head + "U", "u"), (head + "U", "U")]
    return []


_CONSONANT_PREVERBS: dict[str, list[tuple[str, str]]] = {
    "sam": [("sam", ""), ("saM", ""), ("saN", ""), ("saY", ""), ("saR", ""), ("san", ""), ("saMs", "")],
    "ud": [("ud", ""), ("ut", ""), ("uc", ""), ("uj", ""), ("un", ""), ("ul", ""), ("udD", "h"),
           ("utT", "sT"),
           ("ucC", "S")],
    "nis": [("nis", ""), ("niH", ""), ("nir", ""), ("niz", ""), ("niS", ""), ("nI", "r")],
    "dus": [("dus", ""), ("duH", ""), ("dur", ""), ("duz", ""), ("duS", ""), ("dU", "r")],
    "antar": [("antar", ""), ("antaH", "")],
    "puras": [("puras", ""), ("puraH", ""), ("puraz", "")],
    "namas": [("namas", ""), ("namaH", "")],
    "tiras": [("tiras", ""), ("tiraH", ""), ("tiraz", "")],
    "alam": [("alam", ""), ("alaM", "")],
    "prAdus": [("prAdur", ""), ("prAduz", ""), ("prAduH", ""), ("prAdus", "")],
    "Avis": [("Avir", ""), ("Aviz", ""), ("AviH", ""), ("Avis", "")],
    "Srad": [("Srad", ""), ("Srat", "")],
}  # fmt: skip


# upasargasyāyatau (Pāṇini 8.2.19): the r of a preverb is l before the root ay (parā-ayate → palāyate, pra →
# plāyate, pari → palyayate); only before ay, which `preverb_splits` checks.
_AYATI_JUNCTIONS = [("parA", "palA", "a"), ("pra", "plA", "a"), ("pari", "paly", "")]
_AYATI_WRITTEN = frozenset(written for _, written, _ in _AYATI_JUNCTIONS)


@lru_cache(maxsize=1)
def _junctions() -> dict[str, list[tuple[str, str, str]]]:
    """First letter → (preverb, written, restored start of the rest), longest written first."""
    found = list(_AYATI_JUNCTIONS)
    for preverb in PREVERBS:
        if preverb in _CONSONANT_PREVERBS:
            found += [(preverb, written, start) for written, start in _CONSONANT_PREVERBS[preverb]]
        else:
            found.append((preverb, preverb, ""))
            found += [(preverb, written, start) for written, start in _vowel_joins(preverb)]
    by_letter: dict[str, list[tuple[str, str, str]]] = {}
    for junction in sorted(found, key=lambda junction: -len(junction[1])):
        by_letter.setdefault(junction[1][0], []).append(junction)
    return by_letter


def _takes_tuk(preverb: str) -> bool:
    """che ca, āṅmāṅoś ca (Pāṇini 6.1.73-74): ch after a short vowel, or after the preverb ā, is cch (pari +
    chid → paricchid, vi + chid → vicchid, ā + chad → ācchad)."""
    return preverb[-1] in "aiu" or preverb == "A"


@lru_cache(maxsize=4096)
def _junctions_at(start: str) -> tuple[tuple[str, str, str], ...]:
    """`_junctions()` of the first letter of `start` (a word's first two letters) that may begin a word
    starting so, in the same order: the search tests a few instead of all of a letter's dozens."""
    return tuple(
        junction
        for junction in _junctions().get(start[:1], ())
        if len(junction[1]) < 2 or junction[1][1] == start[1:2]
    )


def _rest_variants(preverb: str, rest: str) -> list[str]:
    """The rest as written, and as it was before the preverb's ṇatva or ṣatva (pra-ṇamati, ni-ṣīdati,
    abhy-a-ṣiñcat)."""
    variants = [rest]
    if rest.startswith("cC") and _takes_tuk(preverb):
        variants.append(rest[1:])  # pari-c-chinna: the c 6.1.73-74 add before ch undone
    if "r" in preverb and "R" in rest:
        variants.append(rest.replace("R", "n"))
    if preverb[-1] in "iu":
        for start in ("z", "az"):
            if rest.startswith(start):
                after = rest[len(start) :]
                after = {"W": "T", "w": "t"}.get(after[:1], after[:1]) + after[1:]  # ṣṭh → sth
                variants.append(start.replace("z", "s") + after)
    return variants


@lru_cache(maxsize=65536)
def preverb_splits(word: str, depth: int = 0) -> list[tuple[tuple[str, ...], str]]:
    """(preverbs, the rest) for every way `word` may begin with up to three preverbs."""
    if depth >= MAX_PREVERBS:
        return []
    found: list[tuple[tuple[str, ...], str]] = []
    for preverb, written, start in _junctions_at(word[:2]):
        if not word.startswith(written) or len(word) - len(written) < 2:
            continue
        rest = start + word[len(written) :]
        following = word[len(written)]
        if written in _AYATI_WRITTEN and not rest.startswith("ay"):
            continue
        if not start and written == preverb and preverb[-1] in VOWELS and following in VOWELS:
            continue  # a vowel-final preverb before a vowel is written joined to it
        if not start and written.endswith(("y", "v")) and following not in VOWELS:
            continue
        if not start and preverb in ("nis", "dus") and not _sibilant_final_agrees(written[-1], following):
            continue  # niś-vasya is no nis + vasya: nis is nir before v
        for variant in _rest_variants(preverb, rest):
            found.append(((preverb,), variant))
            found += [((preverb, *more), inner) for more, inner in preverb_splits(variant, depth + 1)]
    return found


# What the s of nis, dus becomes before a sound (8.3.34-36, 8.3.41, 8.4.40, 8.2.66): ś before a palatal,
# ṣ before a guttural or labial, s before a dental, r before a vowel or voiced sound (puras and namas keep
# their s before k and p, 8.3.40: puraskṛtya, namaskṛta).
_SIBILANT_BEFORE = {"S": "cCS", "z": "kKpPwWz", "s": "tTs"}
_VOICELESS = frozenset("kKcCwWtTpPSzs")


def _sibilant_final_agrees(final: str, following: str) -> bool:
    """Whether a preverb's s written as `final` may stand before `following` (niś-cita, niṣ-kram, nis-tṛ,
    nir-gam; not niś-vas, which is nir-vas)."""
    if final in _SIBILANT_BEFORE:
        return following in _SIBILANT_BEFORE[final]
    if final == "r":
        return following not in _VOICELESS
    return True


def join_preverb(preverb: str, word: str, root: bool = True) -> str:
    """The verb with its preverb, spelt as the dictionaries do (anu + bhuj, ni + sad → niṣad, ud + sthā
    → utthā, sam + kṛ → saṃkṛ, pra + nam → praṇam). `root`: whether `word` begins with the root (and not
    with another preverb: a root's s takes ṣ after i or u, 8.3.65-70, a preverb's does not: abhi-saṃdhā)."""
    first = word[:1]
    if preverb == "sam":
        return ("sam" if first in VOWELS or first in "pPbBm" else "saM") + word
    if preverb == "ud":
        if word.startswith("sT"):
            return "utT" + word[2:]
        if first == "h":
            return "udD" + word[1:]
        for letters, written in (("cC", "uc"), ("jJ", "uj"), ("l", "ul"), ("nm", "un"), ("kKtTpPsS", "ut")):
            if first in letters:
                return written + word
        return "ud" + word
    if preverb in ("nis", "dus"):
        head = preverb[:-1]
        if first in VOICED:
            return head + "r" + word
        for letters, final in (("kKpP", "z"), ("cC", "S"), ("tT", "s")):
            if first in letters:
                return head + final + word
        return head + "H" + word
    if preverb in ("puras", "tiras", "prAdus", "Avis", "namas"):
        if first in VOICED:
            return preverb[:-1] + "r" + word
        final = "z" if preverb[-2] in "iu" else "s"
        return preverb[:-1] + final + word
    if preverb == "antar":
        return "antar" + word
    if preverb == "Srad":
        return ("Srad" if first in VOICED else "Srat") + word
    if preverb == "alam":
        return ("alam" if first in VOWELS else "alaM") + word
    last = preverb[-1]
    if word.startswith("ay") and preverb in ("parA", "pra", "pari"):  # palāy, plāy, palyay (8.2.19)
        return preverb[:-1].replace("r", "l") + _join_vowels(last, first) + word[1:]
    if first in VOWELS:
        return preverb[:-1] + _join_vowels(last, first) + word[1:]
    if first == "C" and _takes_tuk(preverb):
        return preverb + "c" + word
    if root and last in "iu" and first == "s" and word[1:2] in VOWELS | set("tTnmyv"):
        word = (
            "z" + word[1:].replace("t", "w", 1).replace("T", "W", 1) if word[1:2] in "tT" else "z" + word[1:]
        )
    elif "r" in preverb and first == "n" and (root or _ni_takes_natva(word)):
        word = "R" + word[1:]
    return preverb + word


# ner gada-nada-pata-pada-ghu-mā-syati-hanti-yāti-vāti-drāti-psāti-vapati-vahati-śāmyati-cinoti-degdhiṣu ca
# (Pāṇini 8.4.17): the preverb ni takes ṇ after a preverb with r only before these roots (ghu: dā, dhā and
# their kin, 1.1.20), and their causatives (praṇipātayati); before any other root it is optional (8.4.18) and
# the dictionaries write n (pratinivṛt, parinivṛt, pratinirdiś). nis's n never turns (8.4.14 is the root's n).
_NI_NATVA_ROOTS = frozenset((
    "gad", "nad", "pat", "pad", "dA", "DA", "do", "de", "De", "mA", "me", "so", "zo", "han", "yA", "vA",
    "drA", "psA", "vap", "vah", "Sam", "ci", "dih",
    "gAday", "nAday", "pAtay", "pAday", "dApay", "DApay", "mApay", "GAtay", "yApay", "vApay", "drApay",
    "psApay", "vAhay", "Samay", "SAmay", "cAyay", "cApay", "dehay",
))  # fmt: skip


def _ni_takes_natva(word: str) -> bool:
    """Whether `word`, ni + a root as `join_preverb` wrote it, takes ṇ after a preverb with r (8.4.17)."""
    return word.startswith("ni") and word[2:] in _NI_NATVA_ROOTS


def _join_vowels(left: str, right: str) -> str:
    if left in "aA":
        return {"a": "A", "A": "A", "i": "e", "I": "e", "u": "o", "U": "o", "e": "E", "E": "E", "o": "O",
                "O": "O", "f": "Ar"}.get(right, left + right)  # fmt: skip
    if left in "iI":
        return "I" if right in "iI" else "y" + right
    if left in "uU":
        return "U" if right in "uU" else "v" + right
    return left + right


def joined(preverbs: Iterable[str], lemma: str) -> str:
    for number, preverb in enumerate(reversed(list(preverbs))):
        lemma = join_preverb(preverb, lemma, root=not number)
    return lemma


# The epics conjugate many verbs in the other voice than the grammar's (pratipatsyāmi for -patsye):
# thematic endings of one voice ↔ the other's, same person and number, each pair in the tenses whose endings
# it is: the primary endings (present, future: laṭ, lṛṭ), the secondary (imperfect, conditional, aorist:
# laṅ, lṛṅ, luṅ), the imperative's (loṭ) and the optative's (liṅ; Whitney §541-553). The same letters are
# other forms elsewhere: padyam is no present (the present's 1st singular is padye, the imperfect's -am ↔ -e).
_PRIMARY, _SECONDARY, _IMPERATIVE, _OPTATIVE = "primary", "secondary", "imperative", "optative"
_PADA_PAIRS = [
    ("ati", "ate", _PRIMARY), ("ataH", "ete", _PRIMARY), ("anti", "ante", _PRIMARY), ("asi", "ase", _PRIMARY),
    ("aTaH", "eTe", _PRIMARY), ("aTa", "aDve", _PRIMARY), ("Ami", "e", _PRIMARY), ("AvaH", "Avahe", _PRIMARY),
    ("AmaH", "Amahe", _PRIMARY),
    ("at", "ata", _SECONDARY), ("an", "anta", _SECONDARY), ("aH", "aTAH", _SECONDARY),
    ("am", "e", _SECONDARY), ("Ava", "Avahi", _SECONDARY), ("Ama", "Amahi", _SECONDARY),
    ("atAm", "etAm", _SECONDARY + _IMPERATIVE), ("atam", "eTAm", _SECONDARY + _IMPERATIVE),
    ("atu", "atAm", _IMPERATIVE), ("antu", "antAm", _IMPERATIVE), ("a", "asva", _IMPERATIVE),
    ("Ani", "E", _IMPERATIVE),
    ("u", "uzva", _IMPERATIVE), ("uhi", "uzva", _IMPERATIVE),  # the 5th and 8th classes': śṛṇu, śṛṇuṣva
    ("et", "eta", _OPTATIVE), ("etAm", "eyAtAm", _OPTATIVE), ("eyuH", "eran", _OPTATIVE),
    ("eH", "eTAH", _OPTATIVE), ("etam", "eyATAm", _OPTATIVE), ("eyam", "eya", _OPTATIVE),
    ("eva", "evahi", _OPTATIVE), ("ema", "emahi", _OPTATIVE),
]  # fmt: skip
# A form in the other voice is outside the grammar (śeṣāt kartari parasmaipadam, 1.3.78: a root the Dhātupāṭha
# gives one voice takes that voice's endings), an epic licence (pratipatsyāmi): read after a case of a noun
# of the same form (vasante, the locative of vasanta, not vas's middle 3rd plural)
PADA_PENALTY = 3.0
# A tense's endings (the first word of its name that is a tense: "causative passive present" → present).
_ENDINGS_OF = {
    "present": _PRIMARY, "future": _PRIMARY, "imperfect": _SECONDARY, "conditional": _SECONDARY,
    "aorist": _SECONDARY, "imperative": _IMPERATIVE, "optative": _OPTATIVE,
}  # fmt: skip


_PADA_BY_LAST: dict[str, list[tuple[str, str, str]]] = {}
for _one, _other, _endings in _PADA_PAIRS:
    for _ending, _replacement in ((_one, _other), (_other, _one)):
        _PADA_BY_LAST.setdefault(_ending[-1], []).append((_ending, _replacement, _endings))


@lru_cache(maxsize=65536)
def pada_swaps_with_endings(word: str) -> tuple[tuple[str, str], ...]:
    """The form of the other voice with the same person and number (patsyāmi → patsye), with the endings
    (primary, secondary, imperative, optative) the swap belongs to."""
    swapped: dict[str, str] = {}
    for ending, replacement, endings in _PADA_BY_LAST.get(word[-1:], ()):
        if word.endswith(ending) and len(word) > len(ending) + 2:
            form = word[: -len(ending)] + replacement
            swapped[form] = swapped.get(form, "") + endings
    return tuple(swapped.items())


@lru_cache(maxsize=65536)
def pada_swaps(word: str) -> tuple[str, ...]:
    """The form of the other voice with the same person and number (patsyāmi → patsye)."""
    return tuple(form for form, _ in pada_swaps_with_endings(word))


@lru_cache(maxsize=512)
def takes_endings(grammar: str, endings: str) -> bool:
    """Whether a finite form's `grammar` ("causative optative 3rd singular") is of a tense whose endings are
    among `endings` (a swap's: see _PADA_PAIRS)."""
    tense = next((word for word in grammar.split() if word in _ENDINGS_OF), None)
    return tense is not None and _ENDINGS_OF[tense] in endings


# -- what is known, in memory --------------------------------------------------------------------------

# lexicon bits of a stem: its genders as a noun, and its kinds
M, F, N, IND, PRON, NUM, VERBAL_STEM, HEADWORD = 1, 2, 4, 8, 16, 32, 64, 128
_GENDER_BITS = {"m": M, "f": F, "n": N}
_KIND_BITS = {INDECLINABLE: IND, PRONOUN: PRON, NUMERAL: NUM, VERBAL: VERBAL_STEM}


def _hash(key: str) -> int:
    return crc32(key.encode())


def known_tables(store: SanskritStore) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(stem hashes sorted, their bits, their number of dictionary articles up to 255, verb form hashes
    sorted), from the lexicon and verb forms."""
    bits: dict[int, int] = {}
    weights: dict[int, int] = {}
    for stem, kind, genders, weight in store.lexicon_keys():
        key = _hash(stem)
        value = _KIND_BITS.get(kind, 0) | (HEADWORD if kind == NOMINAL else 0)
        for gender in genders:
            value |= _GENDER_BITS.get(gender, 0)
        bits[key] = bits.get(key, 0) | value
        weights[key] = max(weights.get(key, 0), min(255, weight))
    order = sorted(bits)
    stems = np.array(order, dtype=np.uint32)
    stem_bits = np.array([bits[key] for key in order], dtype=np.uint16)
    stem_weights = np.array([weights[key] for key in order], dtype=np.uint8)
    verbs = np.unique(np.array([_hash(form) for form in store.verb_form_keys()], dtype=np.uint32))
    return stems, stem_bits, stem_weights, verbs


# -- which strings begin a known word ------------------------------------------------------------------

# A bitset of 2**PREFIX_BITS bits (2 MB) with a bit for every prefix of every stem, verb form and closed
# form (FNV-1a of its letters, the top bits): 1.6 M prefixes for MW + Apte set 9% of it, so a string that
# begins no known word passes for one 9% of the time, which costs a test, never a reading.
PREFIX_BITS = 24
_FNV_PRIME = 16777619
_FNV_START = 2166136261


def prefix_table(words: Iterable[str], bits: int = PREFIX_BITS) -> bytes:
    """The bitset of every prefix of `words` (SLP1, ASCII), packed, first bit the highest."""
    table = np.zeros(1 << bits, dtype=bool)
    shift = np.uint32(32 - bits)
    ordered = sorted(set(words), key=len)
    for start in range(0, len(ordered), 100_000):
        chunk = ordered[start : start + 100_000]
        width = len(chunk[-1])
        letters = np.frombuffer(b"".join(word.encode().ljust(width, b"\0") for word in chunk), dtype=np.uint8)
        letters = letters.reshape(len(chunk), width).astype(np.uint32)
        lengths = np.array([len(word) for word in chunk])
        hashed = np.full(len(chunk), _FNV_START, dtype=np.uint32)
        for column in range(width):
            hashed = (hashed ^ letters[:, column]) * np.uint32(_FNV_PRIME)  # wraps at 32 bits
            table[hashed[lengths > column] >> shift] = True
    return np.packbits(table).tobytes()


def prefix_words(store: SanskritStore) -> Iterator[str]:
    """What the prefix table is made of: the lexicon's stems, the verb forms, the closed forms (pronouns,
    numerals, irregular nouns), the built-in indeclinables."""
    for stem, *_ in store.lexicon_keys():
        yield stem
    yield from store.verb_form_keys()
    yield from paradigms.closed_forms()
    yield from INDECLINABLES
    yield from INTERROGATIVE_ADVERBS


FILTER_BITS = 23  # a hash filter's size: 2**23 bits (1 MB)
FILTER_SHIFT = 32 - FILTER_BITS


def hash_filter(hashes: np.ndarray) -> bytes:
    """A bit for the top FILTER_BITS bits of each of `hashes` (32-bit), packed, first bit the highest."""
    table = np.zeros(1 << FILTER_BITS, dtype=bool)
    table[np.asarray(hashes, dtype=np.uint32) >> FILTER_SHIFT] = True
    return np.packbits(table).tobytes()


class _Missing(Enum):
    MISSING = 0


MISSING = _Missing.MISSING  # a string not looked up yet (None: looked up, not a stem)
SEEN_STEMS = 200_000  # strings whose lookup is remembered (a few MB), then forgotten at once
SEEN_ANALYSES = 5_000  # words whose readings are remembered (~3.6 KB each: ~18 MB), then forgotten at once
SEEN_ROWS = 50_000  # stems whose lexicon rows are remembered (~300 bytes each), then forgotten at once


class Known:
    """Which stems and verb forms exist, as sorted 32-bit hashes (3 MB for MW + Apte, where Python sets
    would take 60; a collision only costs a lookup that finds nothing), with each stem's kinds and number
    of articles: a word's candidates are tested here, and only those that exist are fetched. Made at
    build time, read in milliseconds."""

    def __init__(self, store: SanskritStore) -> None:
        blobs = store.form_blobs()
        if {"stems", "stem_bits", "verbs"} <= blobs.keys():
            stems = np.frombuffer(blobs["stems"], dtype=np.uint32)
            bits = np.frombuffer(blobs["stem_bits"], dtype=np.uint16)
            verbs = np.frombuffer(blobs["verbs"], dtype=np.uint32)
            if "stem_weights" in blobs:
                weights = np.frombuffer(blobs["stem_weights"], dtype=np.uint8)
            else:  # built before the weights were kept
                by_hash = {_hash(stem): min(255, weight) for stem, weight in store.lexicon_weights()}
                weights = np.array([by_hash.get(int(key), 0) for key in stems], dtype=np.uint8)
        else:  # built before the tables were kept
            stems, bits, weights, verbs = known_tables(store)
        # plain arrays: bisect on them costs a microsecond, where numpy's call costs ten
        self._stems = array("I", stems.tobytes())
        self._bits = array("H", bits.tobytes())
        self._weights = array("B", weights.tobytes())
        self._verbs = array("I", verbs.tobytes())
        # most strings asked about are no stem or verb form: a bit per hash's top bits says so without
        # the bisection (a set bit, 3-5% of them for MW + Apte, only means: bisect to be sure)
        self._stem_filter = hash_filter(stems)
        self._verb_filter = hash_filter(verbs)
        self._seen: dict[str, tuple[int, int] | None] = {}  # the strings looked up, and what they are
        self._seen_verbs: dict[str, bool] = {}
        # built before the table was kept: every string may begin a word (slower, the same answers)
        self.use_prefixes(zlib.decompress(blobs["prefixes"]) if "prefixes" in blobs else None)

    def use_prefixes(self, table: bytes | None) -> None:
        """Read known prefixes from `table` (`prefix_table`), None: every string may begin a word."""
        self._prefixes = table
        # the table's size says how many bits a hash keeps
        self._prefix_shift = 33 - (len(table or b"") * 8).bit_length()
        self._reaches: dict[str, int] = {}  # strings whose known prefix was measured (the part tests ask
        # for a string's, its keys' and the rests after its preverbs', often the same strings)

    def known_prefix(self, word: str) -> int:
        """How many letters of `word` begin a known stem, verb form or closed form (a few more, rarely,
        where the table's hashes collide); all of them when the database has no prefix table."""
        reach = self._reaches.get(word)
        if reach is None:
            reach = self._known_prefix(word)
            if len(self._reaches) >= SEEN_STEMS:
                self._reaches.clear()
            self._reaches[word] = reach
        return reach

    def _known_prefix(self, word: str) -> int:
        table = self._prefixes
        if table is None:
            return len(word)
        shift = self._prefix_shift
        hashed = _FNV_START
        codes = word.encode() if word.isascii() else map(ord, word)  # SLP1 is ASCII: a byte a letter
        for index, code in enumerate(codes):
            hashed = ((hashed ^ code) * _FNV_PRIME) & 0xFFFFFFFF
            bit = hashed >> shift
            if not table[bit >> 3] & (0x80 >> (bit & 7)):
                return index
        return len(word)

    def stem_bits(self, keys: Iterable[str]) -> dict[str, int]:
        """The bits of those `keys` that are stems."""
        return {key: bits for key, (bits, _) in self.stems(keys).items()}

    def stems(self, keys: Iterable[str]) -> dict[str, tuple[int, int]]:
        """(bits, number of dictionary articles) of those `keys` that are stems."""
        found: dict[str, tuple[int, int]] = {}
        seen = self._seen
        stems, size, bit_filter = self._stems, len(self._stems), self._stem_filter
        for key in keys:
            hashed = crc32(key.encode())  # _hash, inline: this runs a hundred thousand times a second
            bit = hashed >> FILTER_SHIFT
            if not bit_filter[bit >> 3] & (0x80 >> (bit & 7)):
                continue  # no stem (most strings asked): cheaper than remembering that it is none
            known = seen.get(key, MISSING)
            if known is MISSING:
                index = bisect_left(stems, hashed)
                known = (
                    (self._bits[index], self._weights[index])
                    if index < size and stems[index] == hashed
                    else None
                )
                if len(seen) >= SEEN_STEMS:
                    seen.clear()
                seen[key] = known
            if known is not None:
                found[key] = known
        return found

    def verb_forms(self, keys: Iterable[str]) -> set[str]:
        verbs, size, bit_filter = self._verbs, len(self._verbs), self._verb_filter
        seen = self._seen_verbs
        found = set()
        for key in keys:
            hashed = crc32(key.encode())
            bit = hashed >> FILTER_SHIFT
            if not bit_filter[bit >> 3] & (0x80 >> (bit & 7)):
                continue
            known = seen.get(key)
            if known is None:
                index = bisect_left(verbs, hashed)
                known = index < size and verbs[index] == hashed
                if len(seen) >= SEEN_STEMS:
                    seen.clear()
                seen[key] = known
            if known:
                found.add(key)
        return found


# -- the analyzer -----------------------------------------------------------------------------------


# Nothing shorter is read as the rest of a word after its preverbs (a-dyati would be ad-yati…).
MIN_REST = 3


@dataclass
class _Found:
    """Readings by (lemma, kind), each grammar with its best score."""

    readings: dict[tuple[str, str], tuple[Reading, dict[str, float], dict[str, None]]] = field(
        default_factory=dict
    )

    def add(self, reading: Reading) -> None:
        key = (reading.lemma, reading.kind)
        best, grammars, slots = self.readings.get(key, (reading, {}, {}))
        if reading.score > best.score:
            best = reading
        for grammar in reading.grammar:
            grammars[grammar] = max(grammars.get(grammar, -99.0), reading.score)
        slots.update(dict.fromkeys(reading.slots))
        self.readings[key] = (best, grammars, slots)

    def lower(self, key: tuple[str, str], cost: float) -> None:
        """The readings of (lemma, kind) `cost` lower."""
        if key in self.readings:
            best, grammars, slots = self.readings[key]
            lowered = {grammar: score - cost for grammar, score in grammars.items()}
            self.readings[key] = (replace(best, score=best.score - cost), lowered, slots)

    def first_kind(self) -> str | None:
        """The kind of `ranked()`'s first reading, without making the readings (keys are unique)."""
        if not self.readings:
            return None
        return min((best for best, _, _ in self.readings.values()), key=rank).kind

    def ranked(self) -> list[Reading]:
        found = []
        for best, grammars, slots in self.readings.values():
            ordered = tuple(sorted(grammars, key=lambda grammar: -grammars[grammar]))
            # dataclasses.replace, spelt out: replace looks up the class's fields again at each call
            found.append(
                Reading(
                    best.form,
                    best.lemma,
                    best.kind,
                    ordered,
                    best.score,
                    best.root,
                    best.preverbs,
                    slots=tuple(slots),
                    prior=best.prior,
                )
            )
        return sorted(found, key=rank)


# SLP1's letters in the order of the Sanskrit alphabet (a ā i ī … ṃ ḥ k kh … h), as dictionaries sort
_ALPHABET = "aAiIuUfFxXeEoOMHkKgGNcCjJYwWqQRtTdDnpPbBmyrlvSzsh"
_DICTIONARY_ORDER = str.maketrans({letter: chr(0x100 + index) for index, letter in enumerate(_ALPHABET)})


def rank(reading: Reading) -> tuple[float, str, str]:
    """The order readings are given in: likeliest first, and equally likely ones by lemma in dictionary
    order, then kind (never in the order some set or dict was filled in: that may change with the hash
    seed)."""
    return -reading.score, reading.lemma.translate(_DICTIONARY_ORDER), reading.kind


class Analyzer:
    def __init__(self, store: SanskritStore) -> None:
        self.store = store
        self._roots: dict[str, str] | None = None
        self._known: Known | None = None
        # each stem's lexicon rows as read (none: an empty tuple), for the service's life like `known`:
        # the parts of sandhi groups and compounds (ca, iti, eva, common members) are read call after call
        self._rows: dict[str, tuple[LexiconRow, ...]] = {}
        self._verb_rows: dict[str, tuple[tuple[str, int], ...]] = {}  # each verb form's, as `_rows`
        self._analysed: dict[str, tuple[Reading, ...]] = {}  # analyze_many's words, their readings

    @property
    def known(self) -> Known:
        if self._known is None:
            self._known = Known(self.store)
        return self._known

    def roots(self) -> dict[str, str]:
        """verb lemma (gam, coray, gamay) → its root (gam, cur, gam)."""
        if self._roots is None:
            self._roots = self.store.verb_lemmas()
        return self._roots

    def analyze(self, word: str) -> list[Reading]:
        """Every reading of SLP1 `word`, likeliest first."""
        return self.analyze_many([word])[word]

    def analyze_many(self, words: Iterable[str]) -> dict[str, list[Reading]]:
        """Readings of several words with one lookup of the lexicon and one of the verb forms; each
        word's read once (a sandhi group's parts, ca, iti, tasya, recur word after word)."""
        words = list(dict.fromkeys(words))
        known = self._analysed
        missing = [word for word in words if word not in known]
        if missing:
            if len(known) + len(missing) > SEEN_ANALYSES:  # forgotten at once, as the stem lookups are
                known.clear()
                missing = words
            known.update((word, tuple(readings)) for word, readings in self._analyze_many(missing).items())
        return {word: list(known[word]) for word in words}

    def _analyze_many(self, words: list[str]) -> dict[str, list[Reading]]:
        plans = {word: _plan(word) for word in words}
        stems = list(self.known.stem_bits({key for plan in plans.values() for key in plan.stem_keys}))
        verbs = list(self.known.verb_forms({key for plan in plans.values() for key in plan.verb_keys}))
        lexicon = self.lexicon(stems)
        verb_forms = self.verb_forms(verbs)
        weights = self._weights(lexicon, verb_forms, plans)
        return {word: self._readings(plan, lexicon, verb_forms, weights) for word, plan in plans.items()}

    def _weights(
        self, lexicon: dict[str, list[LexiconRow]], verb_forms: dict[str, list[tuple[str, int]]], plans: dict
    ) -> dict[str, int]:
        """Number of dictionary articles on each lemma met (verbs: on the root or the prefixed verb)."""
        weights = {stem: max(row.weight for row in rows) for stem, rows in lexicon.items()}
        roots = self.roots()
        wanted = {roots.get(lemma, lemma) for rows in verb_forms.values() for lemma, _ in rows}
        wanted |= {row.lemma for rows in lexicon.values() for row in rows if row.kind == VERBAL}
        wanted = {roots.get(lemma, lemma) for lemma in wanted}
        for plan in plans.values():
            for preverbs, rest in plan.preverb_splits:  # the verbs with preverbs it may be a form of
                its_roots = {roots.get(lemma, lemma) for lemma, _ in verb_forms.get(rest, ())}
                for form in (rest, *pada_swaps(rest)):
                    its_roots |= {roots.get(lemma, lemma) for lemma, _ in verb_forms.get(form, ())}
                for stem in paradigms.candidate_stems(rest):
                    its_roots |= {
                        roots.get(row.lemma, row.lemma) for row in lexicon.get(stem, ()) if row.kind == VERBAL
                    }
                wanted |= {joined(preverbs, _suppletive(root, rest)) for root in its_roots}
        missing = [key for key in wanted if key not in weights]
        for stem, rows in self.lexicon(missing).items():
            weights[stem] = max(0, *(row.weight for row in rows))
        return weights

    def lexicon(self, stems: Iterable[str]) -> dict[str, list[LexiconRow]]:
        """The lexicon's rows of those `stems` it has, each stem's in the database's order; read once."""
        cached = self._rows
        stems = list(dict.fromkeys(stems))
        missing = [stem for stem in stems if stem not in cached]
        if missing:
            if len(cached) + len(missing) > SEEN_ROWS:  # forgotten at once, as the stem lookups are
                cached.clear()
                missing = stems
            read: dict[str, list[LexiconRow]] = {stem: [] for stem in missing}
            for row in self.store.lexicon(missing):
                read[row.stem].append(row)
            cached.update((stem, tuple(rows)) for stem, rows in read.items())
        found = {}
        for stem in stems:
            rows = cached.get(stem)
            if rows:
                found[stem] = list(rows)
        return found

    def verb_forms(self, forms: Iterable[str]) -> dict[str, list[tuple[str, int]]]:
        """(lemma, grammar code) of those verb `forms` there are, each form's in the database's order;
        read once, as `lexicon`'s rows."""
        cached = self._verb_rows
        forms = list(dict.fromkeys(forms))
        missing = [form for form in forms if form not in cached]
        if missing:
            if len(cached) + len(missing) > SEEN_ROWS:
                cached.clear()
                missing = forms
            read: dict[str, list[tuple[str, int]]] = {form: [] for form in missing}
            for form, lemma, code in self.store.verb_forms(missing):
                read[form].append((lemma, code))
            cached.update((form, tuple(rows)) for form, rows in read.items())
        return {form: list(cached[form]) for form in forms if cached[form]}

    def _readings(
        self,
        plan: _Plan,
        lexicon: dict[str, list[LexiconRow]],
        verb_forms: dict[str, list[tuple[str, int]]],
        weights: dict[str, int],
    ) -> list[Reading]:
        found = _Found()
        roots = self.roots()
        for key, penalty in plan.keys:
            for stem in _indeclinable_keys(key):
                for row in lexicon.get(stem, []):
                    if row.kind == INDECLINABLE:
                        kind = "indeclinable" if row.stem in INDECLINABLES else "rare indeclinable"
                        prior = _prior(row.stem, weights, kind)
                        score = prior[2] + _bonus(kind) - penalty
                        if kind == "rare indeclinable" and (
                            any(
                                other.kind == VERBAL or (other.kind == NOMINAL and other.genders)
                                for other in lexicon.get(row.stem, [])
                            )
                            or row.stem in paradigms.closed_forms()
                        ):  # a dictionary's ind. sat, manas: its forms are mostly the stem's own cases; and
                            # tasmāt, kasmāt: a pronoun's ablative used as an adverb (Whitney §1114), its case
                            score -= NOMINAL_INDECLINABLE
                        found.add(
                            Reading(key, row.stem, "indeclinable", ("indeclinable",), score, prior=prior)
                        )
            self._nominal(key, penalty, (), lexicon, weights, found, verbal_only=False)
            self._verbs(key, (), penalty, verb_forms, roots, weights, found)
        if plan.word in paradigms.ORDINALS_LIKE_CARDINALS:  # dvādaśa: the cardinal dvādaśan's, then "twelfth"
            found.lower((plan.word, "noun"), ORDINAL_FORM)
        for preverbs, rest in plan.preverb_splits:
            penalty = PREVERB_COST * len(preverbs)
            self._nominal(rest, penalty, preverbs, lexicon, weights, found, verbal_only=True, form=plan.word)
            self._verbs(rest, preverbs, penalty, verb_forms, roots, weights, found, form=plan.word)
        for rest, lemma_suffix, penalty in plan.indefinite:
            self._indefinite(rest, lemma_suffix, penalty, lexicon, weights, found)
        for gati, rest, nouns in plan.cvi:
            self._cvi(plan.word, gati, rest, nouns, lexicon, verb_forms, roots, weights, found)
        for key, penalty in plan.keys:
            self._adverbs(key, penalty, lexicon, weights, found)
            self._tasil(key, penalty, lexicon, weights, found)
            self._periphrastic(key, penalty, verb_forms, roots, weights, found)
        if found.first_kind() not in ("noun", "verb"):
            for key, penalty in plan.keys:  # apariśrānto: its -o the -aḥ it is before a voiced sound
                for negative, rest in _negatives(key):
                    self._negative(negative, rest, penalty, lexicon, weights, found)
                    self._negative_gerund(negative, rest, penalty, verb_forms, roots, weights, found)
        if not found.readings:
            for key, penalty in plan.keys:
                self._possessive_in(key, penalty, lexicon, weights, found)
                self._shortened(key, penalty, lexicon, weights, found)
        return _by_form(_conventions(found.ranked()))

    def _cvi(
        self, word: str, gati: str, rest: str, nouns: tuple[str, ...], lexicon: dict[str, list[LexiconRow]],
        verb_forms: dict[str, list[tuple[str, int]]], roots: dict[str, str], weights: dict[str, int],
        found: _Found,
    ) -> None:  # fmt: skip
        """A form of kṛ or bhū after a cvi gati made of a noun the dictionaries have (`cvi_splits`)."""
        if not any(row.kind == NOMINAL for noun in nouns for row in lexicon.get(noun, ())):
            return
        forms = {
            rest: [
                (lemma, code)
                for lemma, code in verb_forms.get(rest, ())
                if roots.get(lemma, lemma) in CVI_ROOTS
            ]
        }
        stems = {
            stem: [
                row
                for row in lexicon.get(stem, ())
                if row.kind == VERBAL and roots.get(row.lemma, row.lemma) in CVI_ROOTS
            ]
            for stem in paradigms.candidate_stems(rest)
        }
        penalty = PREVERB_COST + CVI
        self._nominal(rest, penalty, (gati,), stems, weights, found, verbal_only=True, form=word)
        self._verbs(rest, (gati,), penalty, forms, roots, weights, found, form=word)

    def _possessive_in(
        self, key: str, penalty: float, lexicon: dict[str, list[LexiconRow]], weights: dict[str, int],
        found: _Found,
    ) -> None:  # fmt: skip
        """A word nothing else reads, as the possessive in -in of an a-stem noun no dictionary lists it
        for (āmaya → āmayin, "diseased": ata iniṭhanau, Pāṇini 5.2.115; Whitney §1230)."""
        for stem, noun in possessive_in_stems(key):
            if not any(row.kind == NOMINAL and row.genders for row in lexicon.get(noun, ())):
                continue
            prior = _prior(noun, weights, "noun")
            _add_cases(key, stem, "mfn", stem, prior, POSSESSIVE_IN, penalty, found)

    def _shortened(
        self, key: str, penalty: float, lexicon: dict[str, list[LexiconRow]], weights: dict[str, int],
        found: _Found,
    ) -> None:  # fmt: skip
        """A word nothing else reads, as a feminine ā-stem noun's last-member form, its ā shortened and
        declined as the a-stem of a possessive compound's gender (sa-nidraḥ, sa-līlam: nidrā, līlā;
        gostriyor upasarjanasya, Pāṇini 1.2.48; Whitney §1315)."""
        for stem, feminine in shortened_stems(key):
            if not any(row.kind == NOMINAL and row.genders == "f" for row in lexicon.get(feminine, ())):
                continue
            prior = _prior(feminine, weights, "noun")
            _add_cases(key, stem, "mn", feminine, prior, SHORTENED_LAST, penalty, found)

    def _adverbs(
        self, key: str, penalty: float, lexicon: dict[str, list[LexiconRow]], weights: dict[str, int],
        found: _Found,
    ) -> None:  # fmt: skip
        """An adjective's or noun's accusative in -am, ablative in -āt or instrumental in -ena as an adverb of
        its own, as the DCS lemmatizes it (niyatam, sukham, kramāt, acireṇa), after the case reading."""
        for adverb, stem in _adverb_stems(key):
            rows = [
                row
                for row in lexicon.get(stem, ())
                if row.kind == NOMINAL and ("n" in row.genders or "m" in row.genders)
            ]
            if rows:
                prior = _prior(stem, weights, "noun")
                later = {"t": ABLATIVE_ADVERB, "a": INSTRUMENTAL_ADVERB}.get(adverb[-1], 0.0)
                score = prior[2] - ADVERB - later - penalty
                found.add(Reading(key, adverb, "indeclinable", ("indeclinable",), score, prior=prior))

    def _tasil(
        self, key: str, penalty: float, lexicon: dict[str, list[LexiconRow]], weights: dict[str, int],
        found: _Found,
    ) -> None:  # fmt: skip
        """A noun's or adjective's ablative singular in -tas (prayatnataḥ: prayatna, śleṣmataḥ: śleṣman), as
        the DCS lemmatizes it, before a dictionary's adverb of the same form real text does not count
        (prayatnatas); a pronominal's -tas is the adverb (sarvatas, anyatas: 5.3.7, 1.1.38)."""
        for stem in tasil_stems(key):
            if stem in paradigms.SARVADI:
                continue
            for row in lexicon.get(stem, ()):
                if row.kind != NOMINAL or not row.genders or row.stem in paradigms.PRONOUN_STEMS:
                    continue  # a headword no gender names (moghīkṛ, a verb) is no noun to take -tas
                prior = _prior(stem, weights, "noun")
                nominative = any(other.kind == NOMINAL for other in lexicon.get(key[:-1], ()))
                for gender in row.genders:
                    grammar = (f"ablative singular ({gender}.)",)
                    cost = TASIL_AFTER if nominative else TASIL
                    score = prior[2] + slot_log_probability(grammar, prior[1]) - cost - penalty
                    found.add(Reading(key, stem, "noun", grammar, score, slots=("ablative singular",),
                                      prior=prior))  # fmt: skip

    def _periphrastic(
        self, key: str, penalty: float, verb_forms: dict[str, list[tuple[str, int]]], roots: dict[str, str],
        weights: dict[str, int], found: _Found,
    ) -> None:  # fmt: skip
        """The periphrastic perfect (sādhayāmāsa, īkṣāṃcakre): the verb whose present the stem makes."""
        for grammar, present in _periphrastic(key):
            for form in present:
                for lemma, _ in verb_forms.get(form, ()):
                    root = roots.get(lemma, lemma)
                    prior = _prior(root, weights, "verb")
                    score = prior[2] + slot_log_probability((grammar,), "v") - penalty - PERIPHRASTIC
                    found.add(Reading(key, lemma, "verb", (grammar,), score, root, (), (grammar,), prior))

    def _negative(
        self, negative: str, rest: str, penalty: float, lexicon: dict[str, list[LexiconRow]],
        weights: dict[str, int], found: _Found,
    ) -> None:  # fmt: skip
        """A negative compound no dictionary lists (an-upadrava): its own lemma, as the DCS names it; the
        word as written or as its pausa (apariśrānto: a + pariśrāntaḥ, the -aḥ written -o before a voiced
        sound, 6.1.114; nañ, 2.2.6, na- as a- before a consonant, 6.3.73, an- before a vowel, 6.3.74)."""
        inner = _Found()
        self._nominal(rest, 0.0, (), lexicon, weights, inner, verbal_only=False)
        for reading in inner.ranked()[:2]:
            if reading.kind == "noun":
                found.add(replace(reading, form=negative + reading.form, lemma=negative + reading.lemma,
                                  score=reading.score - NEGATIVE - penalty))  # fmt: skip

    def _negative_gerund(
        self, negative: str, rest: str, penalty: float, verb_forms: dict[str, list[tuple[str, int]]],
        roots: dict[str, str], weights: dict[str, int], found: _Found,
    ) -> None:  # fmt: skip
        """A gerund in -tvā with the negative (a-dṛṣṭvā, a-kṛtvā, "without seeing": nañ with the gerund,
        2.2.6; Whitney §990), an indeclinable of its own, as the DCS names it."""
        if not rest.endswith(TVA_ENDINGS):
            return
        inner = _Found()
        self._verbs(rest, (), 0.0, verb_forms, roots, weights, inner)
        for reading in inner.ranked():
            if reading.kind == "verb" and GERUND in reading.grammar:
                found.add(Reading(negative + rest, negative + rest, "indeclinable", ("indeclinable",),
                                  reading.score - NEGATIVE - penalty, prior=reading.prior))  # fmt: skip
                return

    def _nominal(
        self,
        key: str,
        penalty: float,
        preverbs: tuple[str, ...],
        lexicon: dict[str, list[LexiconRow]],
        weights: dict[str, int],
        found: _Found,
        verbal_only: bool,
        form: str = "",
    ) -> None:
        for stem in paradigms.candidate_stems(key):
            for row in lexicon.get(stem, []):
                krt_noun = bool(preverbs) and row.kind == NOMINAL and row.stem.endswith(KRT_SUFFIXES)
                if verbal_only and row.kind != VERBAL and not krt_noun:
                    continue
                if row.kind == NOMINAL:
                    if row.stem in paradigms.PRONOUN_STEMS:
                        continue  # MW's article on tad: the pronoun's own reading says it
                    genders, kind, lemma = row.genders or implied_genders(row.stem), "noun", row.stem
                    genders += possessive_genders(row.stem, genders)
                    if krt_noun:
                        lemma = joined(preverbs, row.stem)
                elif row.kind == PRONOUN:
                    genders, kind, lemma = _pronoun_genders(row.stem), "pronoun", row.stem
                elif row.kind == NUMERAL:
                    genders, kind, lemma = _numeral_genders(row.stem), "numeral", row.stem
                elif row.kind == VERBAL:
                    genders, kind, lemma = "mfn", "verb", joined(preverbs, _suppletive(row.lemma, row.stem))
                else:
                    continue
                for gender in genders or "_":
                    gender = "" if gender == "_" else gender
                    if row.kind == NOMINAL:
                        slots = paradigms.noun_readings(key, row.stem, gender)
                    else:
                        slots = paradigms.readings(key, row.stem, gender)
                    if row.kind == VERBAL and _possessive_nominative(key, row):
                        slots = tuple(s for s in slots if paradigms.slot_name(s) != "nominative singular")
                    own = row.genders or implied_genders(row.stem)
                    possessive = row.kind == NOMINAL and gender not in own
                    if slots and possessive:
                        neuter = paradigms.readings(key, row.stem, "n")  # only what the neuter is not (tejāḥ)
                        slots = tuple(slot for slot in slots if slot not in neuter)
                    if not slots:
                        continue
                    names = [paradigms.slot_name(slot) for slot in slots]
                    label = f" ({gender}.)" if gender else ""
                    prefix = f"{PARTICIPLE_NAMES[row.info]}, " if row.kind == VERBAL else ""
                    grammar = tuple(f"{prefix}{name}{label}" for name in names)
                    prior_of = lemma if row.kind != VERBAL else self.roots().get(row.lemma, row.lemma)
                    prior = _prior(prior_of, weights, kind)
                    fixed_number = row.kind == NUMERAL and row.stem in FIXED_NUMBER_NUMERALS
                    slot_score = case_log_probability if fixed_number else slot_log_probability
                    score = prior[2] + slot_score(grammar, prior[1])
                    score -= penalty + _feminine_penalty(row.stem, gender, key)
                    if row.kind == NOMINAL:
                        score -= self._nominal_penalty(key, row, gender, lexicon) + (
                            KRT_NOUN if krt_noun else 0.0
                        )
                        if possessive:
                            score -= POSSESSIVE_GENDER
                    if row.kind == VERBAL:
                        score += _verbal_bonus(preverbs, lemma, weights, self.roots()) - 0.3
                        if row.stem in PRONOMINAL_PARTICIPLES and not preverbs:
                            score -= PRONOMINAL_PARTICIPLE
                    root = self.roots().get(row.lemma, row.lemma) if row.kind == VERBAL else ""
                    found.add(Reading(form or key, lemma, kind, grammar, score, root, preverbs, tuple(names),
                                      prior))  # fmt: skip
                    if gender == "f" and row.kind == NOMINAL and row.stem[-1:] not in "AIUiuf":
                        for feminine in map(retroflex_n, paradigms.feminine_stems(row.stem)):  # nitambinī
                            if feminine != row.stem and paradigms.readings(key, feminine, "f"):
                                lower = score - FEMININE_LEMMA
                                if feminine.endswith("I") and row.stem.endswith("a"):
                                    lower = score + I_FEMININE_LEMMA
                                its_lemma = joined(preverbs, feminine) if krt_noun else feminine
                                found.add(Reading(form or key, its_lemma, kind, grammar, lower, root,
                                                  preverbs, tuple(names), prior))  # fmt: skip
                                break

    @staticmethod
    def _nominal_penalty(
        key: str, row: LexiconRow, gender: str, lexicon: dict[str, list[LexiconRow]]
    ) -> float:
        """What a dictionary headword's case costs beside likelier words of the same form: a headword
        with no gender (a title, a root, an adverb no marker names), a form of a pronoun or numeral
        (dvau: dvi, not the stem dva), an adjective's feminine whose feminine is a headword of its own
        (purī: purī, not pura's; kariṇī: kariṇī, neither karin's feminine nor its neuter dual, which the
        consonant stems in -in, -vat, -mat share with their feminine)."""
        cost = 0.0
        if not row.genders:
            cost += IMPLIED_GENDER if implied_genders(row.stem) else GENDERLESS
        closed = paradigms.closed_forms().get(key)
        if closed and row.stem not in closed:
            cost += CLOSED_FORM
        if (
            (gender == "f" or (gender == "n" and row.stem.endswith(NEUTER_DUAL_AS_FEMININE)))
            and row.stem.endswith(FEMININE_STEM_FINALS)
            and any(
                "f" in (other.genders or implied_genders(other.stem))
                for feminine in map(retroflex_n, paradigms.feminine_stems(row.stem))
                if feminine != row.stem and paradigms.readings(key, feminine, "f")
                for other in lexicon.get(feminine, ())
                if other.kind == NOMINAL
            )
        ):
            cost += FEMININE_HEADWORD
        if gender == "f" and row.stem.endswith("a") and _in_nominative(key, lexicon):
            cost += IN_NOMINATIVE
        return cost

    def _verbs(
        self, key: str, preverbs: tuple[str, ...], penalty: float,
        verb_forms: dict[str, list[tuple[str, int]]],
        roots: dict[str, str], weights: dict[str, int], found: _Found, form: str = "",
    ) -> None:  # fmt: skip
        for lemma, code in verb_forms.get(key, []):
            self._verb(form or key, lemma, code, preverbs, penalty, roots, weights, found)
        for swapped, endings in pada_swaps_with_endings(key):
            for lemma, code in verb_forms.get(swapped, []):
                if takes_endings(GRAMMARS[code], endings):
                    cost = penalty + PADA_PENALTY
                    self._verb(form or key, lemma, code, preverbs, cost, roots, weights, found)

    def _verb(
        self,
        key: str,
        lemma: str,
        code: int,
        preverbs: tuple[str, ...],
        penalty: float,
        roots: dict[str, str],
        weights: dict[str, int],
        found: _Found,
    ) -> None:
        grammar = GRAMMARS[code]
        lemma = _suppletive(lemma, key)
        if grammar.endswith(GERUND_YA) and not preverbs:
            penalty += 4
        elif grammar.endswith(GERUND) and preverbs:
            penalty += 2
        root = roots.get(lemma, lemma)
        full = joined(preverbs, lemma)
        prior = _prior(root, weights, "verb")
        score = prior[2] + slot_log_probability((grammar,), "v") - penalty
        score += _verbal_bonus(preverbs, full, weights, roots)
        found.add(Reading(key, full, "verb", (grammar,), score, root, preverbs, (grammar,), prior))
        if grammar.startswith("periphrastic future 3rd"):  # patitāraḥ: also the agent noun patitṛ
            for ending, stem_ending, number in _AGENT_NOMINATIVES:
                if key.endswith(ending) and grammar.endswith(number):
                    noun = key[: -len(ending)] + stem_ending
                    slot = f"nominative {number}"
                    found.add(Reading(key, noun, "noun", (f"{slot} (m.)",), score - AGENT_NOUN, slots=(slot,),
                                      prior=prior))  # fmt: skip

    def _indefinite(
        self, rest: str, suffix: str, penalty: float, lexicon: dict[str, list[LexiconRow]],
        weights: dict[str, int], found: _Found,
    ) -> None:  # fmt: skip
        """kaścit, kiṃcid, kenacit (forms of kim), kadācit, kvacit, kathaṃcana (of its adverbs)."""
        prior = _prior("kaScit", weights, "pronoun")
        base = prior[2]
        if rest in INTERROGATIVE_ADVERBS and rest != "kim":
            lemma = rest + suffix
            found.add(Reading(rest + suffix, lemma, "indeclinable", ("indeclinable",), base - penalty,
                              prior=prior))  # fmt: skip
            return
        for gender in "mfn":
            slots = paradigms.readings(rest, "kim", gender)
            if slots:
                names = tuple(paradigms.slot_name(slot) for slot in slots)
                grammar = tuple(f"{name} ({gender}.)" for name in names)
                score = base + slot_log_probability(names, "n") - penalty
                found.add(Reading(rest + suffix, "ka" + _indefinite_lemma(suffix), "pronoun", grammar, score,
                                  slots=names, prior=prior))  # fmt: skip


def _suppletive(lemma: str, form: str) -> str:
    """The grammar's suppletive roots under the root whose forms they are (2.4.52–53): uvāca, ukta,
    vakṣyati are vac's though vidyut derives them from brū; bhaviṣyati is bhū's, not as's; avadhīt is
    vadh's, agāt gā's, kṣīṇa kṣi's (the DCS and MW cite them so)."""
    if (
        lemma == "brU" and "br" not in form
    ):  # āha, āhuḥ, āttha (3.4.84): the root ah, as MW and the DCS cite them
        return "ah" if re.search("A(h|tT)", form) else "vac"
    if lemma == "as" and ("Bav" in form or "BU" in form):
        return "BU"
    if lemma == "han" and "vaD" in form:  # avadhīt, vadhyāt: vadh's (hano vadha liṅi, luṅi ca, 2.4.42–43)
        return "vaD"
    if lemma == "i" and "gA" in form:  # agāt, aguḥ: gā's (iṇo gā luṅi, 2.4.45)
        return "gA"
    if lemma == "kzI" and "kzIR" in form:  # kṣīṇa: kṣi's (kṣiyo dīrghāt, 8.2.46, with 6.4.60), as MW has it
        return "kzi"
    return lemma


def _conventions(readings: list[Reading]) -> list[Reading]:
    """A gerund or verb form the dictionaries also list as an indeclinable (āsthāya, uktvā, syāt), and a
    participle they list as a noun (nimagna, dhṛta), are read first as the verb's form."""
    verbal = {r.form for r in readings if r.kind == "verb" and "participle" not in r.grammar[0]}
    past = {
        r.form
        for r in readings
        if r.kind == "verb"
        and r.grammar[0].startswith(
            ("past participle", "past active participle", "present participle", "perfect participle")
        )
    }
    nouns = {r.form for r in readings if r.kind == "noun"}
    gerunds = {r.form for r in readings if r.kind == "verb" and any(map(_is_gerund_ya, r.grammar))}
    gerunds_tva = {r.form for r in readings if r.kind == "verb" and GERUND in r.grammar}
    changed = []
    for reading in readings:
        demote = 0.0
        if reading.kind == "verb" and reading.grammar[0].startswith("gerundive") and reading.preverbs:
            own = tuple(filter(_is_gerund_ya, reading.grammar))
            if own:  # pratipādya, saṃkalpya: the (causative's) gerund after a preverb, before its gerundive
                rest = tuple(grammar for grammar in reading.grammar if grammar not in own)
                changed.append(replace(reading, grammar=own + rest))
                continue
        if reading.kind == "indeclinable" and reading.form in verbal and reading.lemma not in INDECLINABLES:
            demote = 2.0
        elif reading.kind == "noun" and reading.form in past:
            demote = 1.0
        elif reading.kind == "noun" and reading.form in gerunds_tva:
            demote = GERUND_TVA  # snātvā: the gerund, not a feminine of a (Vedic) gerundive snātva
        elif reading.kind == "noun" and gerunds & {reading.form, reading.form[:-1], reading.lemma}:
            # (form[:-1]: a case whose pausa final sandhi dropped, saṃkalpyaḥ written saṃkalpya)
            demote = GERUND_FORM
        elif reading.kind == "verb" and reading.grammar[0].startswith("gerundive"):
            demote = GERUND_FORM if reading.form in gerunds else 1.5 if reading.form in nouns else 0.0
        changed.append(reading if not demote else replace(reading, score=reading.score - demote))
        dual = tuple(g for g in reading.grammar if " dual" in g) if reading.lemma in DUAL_OF else ()
        if reading.kind == "noun" and dual:  # ubhayoḥ: ubha's, and the word ubhaya's
            slots = tuple(slot for slot in reading.slots if slot.endswith(" dual"))
            score = reading.score - demote - DUAL_NAME
            changed.append(
                replace(reading, lemma=DUAL_OF[reading.lemma], grammar=dual, slots=slots, score=score)
            )
    return sorted(changed, key=rank)


# "Both" is one word of two stems: ubha has only the dual, ubhaya no dual (ubhaśabdo nityaṃ dvivacanāntaḥ,
# ubhayaśabdasya dvivacanaṃ nāsti: Siddhāntakaumudī on 1.1.27; Whitney §525), so a lemmatizer that names the
# word by one stem files ubha's duals under ubhaya (the DCS's ubhayos, ubhayor); ubha's reading stays first.
DUAL_OF = {"uBa": "uBaya"}
DUAL_NAME = 0.5


def _add_cases(
    key: str, stem: str, genders: str, lemma: str, prior: tuple[str, str, float], cost: float, penalty: float,
    found: _Found,
) -> None:  # fmt: skip
    """`key` as a case of `stem` in each of `genders`, read as the noun `lemma` at its `prior` less `cost`
    and `penalty` (`Analyzer._possessive_in`, `Analyzer._shortened`)."""
    for gender in genders:
        slots = paradigms.readings(key, stem, gender)
        if slots:
            names = tuple(paradigms.slot_name(slot) for slot in slots)
            grammar = tuple(f"{name} ({gender}.)" for name in names)
            score = prior[2] + slot_log_probability(grammar, prior[1]) - cost - penalty
            found.add(Reading(key, lemma, "noun", grammar, score, slots=names, prior=prior))


def _is_gerund_ya(grammar: str) -> bool:
    return grammar.endswith(GERUND_YA)


def _by_form(readings: list[Reading]) -> list[Reading]:
    """The readings reweighed by how often the DCS reads their form as their lemma (te: tad's nominative
    plural or yuṣmad's enclitic), the analyzer's own ranking counting for FORM_PRIOR occurrences: each
    (form, lemma) gets (its count + FORM_PRIOR × its share of the readings' probability) / (the counts +
    FORM_PRIOR). The readings' total probability is kept, so splits are ranked against them as before."""
    if len(readings) < 2:
        return readings
    keys = [(r.form, r.lemma, lemma_class(r.kind)) for r in readings]
    if not any(form_counts(form) for form in {key[0] for key in keys}):
        return readings
    seen = {key: form_counts(key[0]).get((dcs_key(key[1]), key[2]), 0.0) for key in keys}
    counted = sum(seen.values())
    if not counted:
        return readings
    top = readings[0].score
    mass: dict[tuple[str, str, str], float] = {}
    for key, reading in zip(keys, readings, strict=True):
        mass[key] = mass.get(key, 0.0) + math.exp(reading.score - top)
    whole = sum(mass.values())
    factor = {
        key: (seen[key] + FORM_PRIOR * share) / (counted + FORM_PRIOR) / share
        for key, share in ((key, m / whole) for key, m in mass.items())
    }
    changed = [
        replace(r, score=r.score + math.log(factor[key])) for key, r in zip(keys, readings, strict=True)
    ]
    return sorted(changed, key=rank)


def _indefinite_lemma(suffix: str) -> str:
    return "Scana" if suffix == "cana" else "Scit"


GERUND_ENDINGS = ("tvA", "wvA", "DvA", "QvA")  # gatvā, dṛṣṭvā, buddhvā: gerunds, which MW lists too


def implied_genders(stem: str) -> str:
    """The gender of a headword whose article names none (MW's īrṣyā, under īrṣya): a stem in -ā, -ī,
    -ū that is no particle or gerund is a feminine."""
    if stem[-1:] in ("A", "I", "U") and stem not in INDECLINABLES and not stem.endswith(GERUND_ENDINGS):
        return "f"
    return ""


def _pronoun_genders(stem: str) -> str:
    return "".join(gender for (name, gender) in paradigms.PRONOUNS if name == stem)


def _numeral_genders(stem: str) -> str:
    if stem in paradigms.NUMERALS_AN or stem == "zaz" or stem == "azwan":
        return ""
    if stem == "eka":
        return "mfn"
    return "".join(gender for (name, gender) in paradigms.NUMERALS if name == stem) or "mfn"


def _feminine_penalty(stem: str, gender: str, word: str) -> float:
    """An adjective in -a whose feminine is in -ī (kāntī) is rarer than in -ā."""
    if gender == "f" and stem.endswith("a") and "A" not in word[len(stem) - 1 : len(stem) + 1]:
        return 1.5 if not word.endswith(("e", "AH", "Am", "ayA")) else 0.0
    return 0.0


def _in_nominative(key: str, lexicon: dict[str, list[LexiconRow]]) -> bool:
    """Whether `key` in -ī is the nominative singular masculine of an -in stem a dictionary lists (yogī:
    yogin; 6.4.13 sau ca, 8.2.7): an a-stem's feminine takes -ā unless a rule names -ī (ajādyataṣ ṭāp,
    4.1.4, before 4.1.5 ff.; Whitney §332, §1223), so yoga's "yogī" is the rarer reading."""
    if not key.endswith("I") or len(key) < 4:
        return False
    return any(row.kind == NOMINAL for row in lexicon.get(key[:-1] + "in", ()))


def _possessive_nominative(key: str, row: LexiconRow) -> bool:
    """Whether `key` is the -vān a present participle in -vat never makes: its nominative singular
    masculine is -van (bhavan; Whitney §447), the lengthened -vān being the possessive -vat's and the
    pronoun bhavat's (bhavān; atvasantasya cādhātoḥ, 6.4.14, lengthens -vat(up), not -at(ṛ))."""
    return (
        key.endswith("vAn")
        and row.stem.endswith("vat")
        and PARTICIPLE_NAMES[row.info] in ("present participle", "present passive participle")
    )


def _verbal_bonus(
    preverbs: tuple[str, ...], lemma: str, weights: dict[str, int], roots: dict[str, str] | None = None
) -> float:
    """A verb with preverbs a dictionary lists (anubhuj) before one it does not. A combination spelt like
    another root (ā + as: ās, "sit") is not listed by that root's articles."""
    if not preverbs:
        return 0.0
    listed = weights.get(lemma, 0) and not (roots and lemma in roots)
    return 0.3 if listed else -1.0


def _prior(lemma: str, weights: dict[str, int], kind: str) -> tuple[str, str, float]:
    """(lemma, class, log P(lemma)): its frequency in real text as a verb (its root), a nominal stem or an
    indeclinable (vac the verb is not vāc's stem vac), smoothed by its number of dictionary articles."""
    cls = lemma_class(kind)
    common = kind in ("indeclinable", "pronoun")
    return lemma, cls, log_probability(lemma, weights.get(lemma, 0), common=common, cls=cls)


def _bonus(kind: str) -> float:
    return FUNCTION_WORD if kind == "indeclinable" else 0.0  # the built-in particles, adverbs


@lru_cache(maxsize=65536)  # a part's keys are asked by the part test, then again by its analysis
def _indeclinable_keys(key: str) -> tuple[str, ...]:
    """An indeclinable as written and as the dictionaries spell it: tataH → tatas, punaH → punar,
    evaM → evam, kaTaM → kaTam."""
    last = key[-1:]
    if last == "H":
        return key, key[:-1] + "s", key[:-1] + "r"
    if last in _INDECLINABLE_FINALS:
        return key, key[:-1] + _INDECLINABLE_FINALS[last]
    return (key,)


_INDECLINABLE_FINALS = {"M": "m", "d": "t", "t": "d"}


@dataclass(frozen=True)
class _Plan:
    """What to look up for one word: its keys (with a penalty for a restored final), the stems the
    endings may be undone to, the verb forms, the rests after preverbs, the indefinites."""

    word: str
    keys: tuple[tuple[str, float], ...]
    preverb_splits: tuple[tuple[tuple[str, ...], str], ...]
    indefinite: tuple[tuple[str, str, float], ...]
    cvi: tuple[tuple[str, str, tuple[str, ...]], ...]
    stem_keys: frozenset[str]
    verb_keys: frozenset[str]


PAUSA_PENALTY = 0.7
# an -ī, -ū read as the -iḥ, -uḥ it is before r (8.3.14, 6.3.111: rājabhī rājamātraiḥ): only before a word in
# r-, 52 of the 1,762 words of the counted DCS windows (benchmarks/data/sanskrit_dcs_counted.tsv): -ln 0.030
BEFORE_R = 3.5


def _pausa_cost(written: str, reading: str) -> float:
    lengthened = written.endswith(("I", "U")) and reading.endswith(("iH", "uH"))
    return PAUSA_PENALTY + (BEFORE_R if lengthened else 0.0)


def _adverb_stems(key: str) -> list[tuple[str, str]]:
    """(the adverb, the a-stem it is a case of): niyatam → niyata, kramāt → krama, and the instrumental
    used as an adverb (Whitney §1112: acireṇa → acira, viśeṣeṇa → viśeṣa)."""
    if key.endswith("am") and len(key) > 4:
        return [(key, key[:-2] + "a")]
    if key.endswith("At") and len(key) > 4:
        return [(key, key[:-2] + "a")]
    if key.endswith(("ena", "eRa")) and len(key) > 5:
        return [(key, key[:-3] + "a")]
    return []


def possessive_genders(stem: str, genders: str) -> str:
    """The genders a neuter in -as takes as a possessive compound's last member (mahā-tejāḥ, su-manāḥ:
    m. f. -āḥ; Whitney §418), which its dictionary article does not name."""
    return "m" if stem.endswith("as") and len(stem) > 3 and "n" in genders and "m" not in genders else ""


def possessive_in_stems(key: str) -> list[tuple[str, str]]:
    """(a stem in -in `key` may be a case of, the a-stem noun it is made from): āmayī → (āmayin, āmaya)."""
    stems = paradigms.candidate_stems(key)
    return [(stem, stem[:-2] + "a") for stem in stems if stem.endswith("in") and len(stem) > 4]


def shortened_stems(key: str) -> list[tuple[str, str]]:
    """(an a-stem `key` may be a case of, the feminine ā-stem it may shorten): nidraḥ → (nidra, nidrā)."""
    return [
        (stem, stem[:-1] + "A")
        for stem in paradigms.candidate_stems(key)
        if stem.endswith("a") and len(stem) > 2
    ]


def tasil_stems(key: str) -> list[str]:
    """The stems a word in -tas may be the ablative of: the taddhita tasi(l) makes an ablative of any noun
    (pratiyoge pañcamyās tasiḥ, Pāṇini 5.4.44; Whitney §1098), on the stem as it ends before a consonant
    (prayatna-tas, śleṣma-tas of śleṣman, agni-tas, manas-tas)."""
    if not key.endswith(("tas", "taH")) or len(key) < 6:
        return []
    return [stem for stem in combining_stems(key[:-3]) if len(stem) > 2]


# the periphrastic perfect's auxiliary, its grammar
_PERIPHRASTIC = {
    "Asa": "perfect 3rd singular", "AsatuH": "perfect 3rd dual", "AsuH": "perfect 3rd plural",
    "cakAra": "perfect 3rd singular", "cakratuH": "perfect 3rd dual", "cakruH": "perfect 3rd plural",
    "cakre": "perfect 3rd singular", "cakrire": "perfect 3rd plural", "baBUva": "perfect 3rd singular",
    "baBUvuH": "perfect 3rd plural",
}  # fmt: skip


_PERIPHRASTIC_ENDINGS = tuple(join + auxiliary for auxiliary in _PERIPHRASTIC for join in ("Am", "AM"))


def _periphrastic(key: str) -> list[tuple[str, tuple[str, ...]]]:
    """(grammar, the present forms whose verb it is of) for sādhayāmāsa (sādhayati), īkṣāṃcakre
    (īkṣate)."""
    found: list[tuple[str, tuple[str, ...]]] = []
    if not key.endswith(_PERIPHRASTIC_ENDINGS):
        return found
    for auxiliary, grammar in _PERIPHRASTIC.items():
        for join in ("Am", "AM"):
            if key.endswith(join + auxiliary) and len(key) > len(join + auxiliary) + 1:
                stem = key[: -len(join + auxiliary)]
                found.append((grammar, (stem + "ati", stem + "ate", stem + "ayati")))
    return found


def _negatives(word: str) -> list[tuple[str, str]]:
    """(a or an, the rest) of a word that may be a negative compound."""
    if word.startswith("an") and word[2:3] in VOWELS and len(word) > 5:
        return [("an", word[2:])]
    if word.startswith("a") and word[1:2] not in VOWELS and len(word) > 5:
        return [("a", word[1:])]
    return []


def _indefinites(word: str) -> list[tuple[str, str, float]]:
    """(the interrogative, cit or cana, a penalty) for kaścit, kiṃcid, kadācana…"""
    indefinite = []
    for suffix in INDEFINITE_SUFFIXES:
        if word.endswith(suffix) and len(word) > len(suffix) + 1 and suffix not in ("api", "pi"):
            rest = word[: -len(suffix)]
            lemma_suffix = "cana" if suffix == "cana" else "cit"
            indefinite.append((rest, lemma_suffix, 0.0))
            indefinite += [(reading, lemma_suffix, 0.2) for reading in pausa_readings(rest)]
    return indefinite


# A word-initial ch may be the ś of a word after a final t or n, which sandhi made c or ñ and the ś ch (tac
# chrutvā = tat śrutvā, svapañ chete = svapan śete: Whitney §203): the word is also read with its ś, after
# the readings with ch. An initial cch is the ch doubled after a short vowel (§227).
CH_FOR_S = 1.5


def _initials(word: str) -> list[tuple[str, float]]:
    """`word`, and what its initial cch or ch may stand for (with a penalty)."""
    found = [(word, 0.0)]
    if word.startswith("cC") and len(word) > 3:
        word = word[1:]
        found.append((word, 0.0))
    if word.startswith("C") and len(word) > 2:
        found.append(("S" + word[1:], CH_FOR_S))
    return found


# A nasal of the class of the consonant after it (saṅgama, sampūrṇa, santāna), which the dictionaries
# mostly write as anusvāra (saṃgama, saṃpūrṇa, saṃtāna); a dental or labial one only in sam- (elsewhere
# they write it as the text does: gacchanti, kampa), which keeps the extra keys few
_CLASS_NASAL = re.compile(r"N(?=[kKgG])|Y(?=[cCjJ])|R(?=[wWqQ])|(?<=^sa)n(?=[tTdD])|(?<=^sa)m(?=[pPbB])")
CLASS_NASAL_PENALTY = 0.1
_CLASS_NASALS = frozenset("NYR")  # the letters _CLASS_NASAL finds but after sa-


# A consonant after r is doubled or not at the writer's choice (aco rahābhyāṃ dve, 8.4.46; a stop before
# its aspirate: mūrcchā), and so is one before r or y after a vowel (anaci ca, 8.4.47): manuscripts and
# older editions write bharttā, dharmma, arddha, mittra, pattra, which the dictionaries list mostly (not
# always: MW's pattra, mūrcchā) single. The undoubled spelling is read too, after the written one.
_DOUBLED = re.compile(
    r"(?<=[aAiIuUfFeEoO]r)([kgcjwqtdpbnmRyvlSzs])(?=\1|(?<=k)K|(?<=g)G|(?<=c)C|(?<=j)J|(?<=w)W|(?<=q)Q"
    r"|(?<=t)T|(?<=d)D|(?<=p)P|(?<=b)B)"
    r"|(?<=[aAiIuUfeEoO])([kgcjwqtdpb])(?=\2[ry])"
)
UNDOUBLED_PENALTY = 0.3


def undoubled(word: str) -> str:
    """`word` with the optional doublings of 8.4.46–47 undone (bharttā: bhartā, mittra: mitra)."""
    return _DOUBLED.sub("", word)


def _keys(word: str) -> list[tuple[str, float]]:
    """What `word` is read as: itself, its pausa finals, an initial ch as ś, its class nasals as
    anusvāra and its optional doublings undone (penalised)."""
    keys: list[tuple[str, float]] = []
    for written, penalty in _initials(word):
        variants = [(written, penalty)]
        # the substitutions only where they can match (a class nasal; an r or y after a doubling): most
        # strings a split search tests have none
        nasal = not _CLASS_NASALS.isdisjoint(written) or written.startswith(("san", "sam"))
        anusvara = _CLASS_NASAL.sub("M", written) if nasal else written
        if anusvara != written:
            variants.append((anusvara, penalty + CLASS_NASAL_PENALTY))
        single = undoubled(written) if "r" in written or "y" in written else written
        if single != written:
            variants.append((single, penalty + UNDOUBLED_PENALTY))
        for variant, cost in variants:
            keys.append((variant, cost))
            keys += [(reading, cost + _pausa_cost(variant, reading)) for reading in pausa_readings(variant)]
    return keys


@lru_cache(maxsize=4096)
def _plan(word: str) -> _Plan:
    if word.startswith("'"):  # an elided initial a ('pi, 'bravīt)
        word = "a" + word[1:]
    keys = _keys(word)
    splits: list[tuple[tuple[str, ...], str]] = []
    for key, _ in keys:
        splits += [(p, rest) for p, rest in preverb_splits(key) if len(rest) >= MIN_REST]
    indefinite = _indefinites(word)
    stem_keys: set[str] = set()
    verb_keys: set[str] = set()
    for key, _ in keys:
        stem_keys.update(_indeclinable_keys(key))
        stem_keys.update(paradigms.candidate_stems(key))
        verb_keys.add(key)
        verb_keys.update(pada_swaps(key))
    for _, rest in splits:
        stem_keys.update(paradigms.candidate_stems(rest))
        verb_keys.add(rest)
        verb_keys.update(pada_swaps(rest))
    stem_keys.update(rest for rest, _, _ in indefinite)
    stem_keys.add("kim")
    for key, _ in keys:
        for adverb in _adverb_stems(key):
            stem_keys.add(adverb[1])
        stem_keys.update(tasil_stems(key))
        stem_keys.update(noun for _, noun in possessive_in_stems(key))
        stem_keys.update(feminine for _, feminine in shortened_stems(key))
        for _, present in _periphrastic(key):
            verb_keys.update(present)
    for key, _ in keys:
        for _, rest in _negatives(key):
            stem_keys.update(paradigms.candidate_stems(rest))
            if rest.endswith(TVA_ENDINGS):
                verb_keys.add(rest)
    cvi = tuple(dict.fromkeys(split for key, _ in keys for split in cvi_splits(key)))
    for _, rest, nouns in cvi:
        stem_keys.update(nouns)
        stem_keys.update(paradigms.candidate_stems(rest))
        verb_keys.add(rest)
    return _Plan(word, tuple(keys), tuple(dict.fromkeys(splits)), tuple(indefinite), cvi,
                 frozenset(stem_keys), frozenset(verb_keys))  # fmt: skip


# abhūtatadbhāve kṛbhvastiyoge sampadyakartari cviḥ (Pāṇini 5.4.50): a noun joined to kṛ or bhū in the sense
# of becoming (making) what it was not, its final a, ā, i lengthened to ī (7.4.32 asya cvau, 7.4.26 cvau ca),
# u to ū, an's n dropped (rājī-bhū); the cvi word is a gati (1.4.61), written before the verb as a preverb is:
# nimittī-kṛtya, bhasmī-bhūta (Whitney §1091-1094). The DCS names the verb with it (nimittīkṛ, śekharībhū).
CVI_ROOTS = frozenset(("kf", "BU"))
_CVI_JUNCTION = re.compile(r"(?<=..)[IU](?=k|B)")
_CVI_STEMS = {"I": ("a", "A", "i", "an"), "U": ("u",)}


def cvi_splits(word: str) -> list[tuple[str, str, tuple[str, ...]]]:
    """(the cvi gati, the rest, the nouns it may be made of) at each -ī/-ū of `word` before a k or bh."""
    found = []
    for match in _CVI_JUNCTION.finditer(word):
        at = match.start()
        gati, rest = word[: at + 1], word[at + 1 :]
        if len(rest) >= MIN_REST:
            found.append((gati, rest, tuple(word[:at] + ending for ending in _CVI_STEMS[word[at]])))
    return found


# -- parts of compounds and sandhi groups ---------------------------------------------------------------


def combining_stems(member: str) -> list[str]:
    """The stems a compound's member may be written for: rāja → rājan, mahā → mahat, mano → manas,
    dhanur → dhanus, jagad → jagat, vāg → vāc, hasti → hastin, pūr → pur (Whitney §392), and the member
    as it is."""
    stems = [member]
    last = member[-1:]
    if last == "a":
        stems.append(member + "n")
    elif last == "A":
        stems += [member[:-1] + "at", member[:-1] + "a"]
    elif last == "i":
        stems.append(member + "n")
    elif last == "o":
        stems.append(member[:-1] + "as")
    elif last in "Hr":
        stems += [member[:-1] + "s", member[:-1] + "r"]
        if member[-2:-1] in ("I", "U"):  # gīr, pūr: the stems gir, pur, whose vowel a consonant lengthens
            stems.append(member[:-2] + {"I": "i", "U": "u"}[member[-2]] + "r")
    elif last == "z":
        stems.append(member[:-1] + "s")
    elif last in "dt":
        stems += [member[:-1] + "t", member[:-1] + "d", member[:-1] + "D", member[:-1] + "T"]
    elif last in "gk":
        stems += [member[:-1] + ending for ending in ("c", "j", "k", "S", "h")]
    elif last in "qw":
        stems += [member[:-1] + ending for ending in ("S", "z", "j", "h", "w")]
    elif last in "bp":
        stems += [member[:-1] + "p", member[:-1] + "B"]
    elif last == "M":
        stems.append(member[:-1] + "m")
    elif last in "NYRn":
        stems += [member[:-1] + "n", member[:-1] + "m"]
    return stems


# Short parts are mostly noise (MW has hundreds of two-letter headwords); these are real.
SHORT_MEMBERS = frozenset({"sa", "su", "ku", "a", "an", "dus", "nis"})
SHORT_WORDS = frozenset({"sa", "te", "me", "tO", "yo", "so", "ye", "sA", "yA", "ka", "kA", "ko", "tu", "eza"})
SHORT_INDECLINABLE = 3  # letters: an indeclinable this short is a word only when it is a built-in one
PREVERB_INITIALS = frozenset(p[0] for p in PREVERBS) | {"'"}


# A part's score in the segmenter approximates its likeliest reading's (log P of its lemma and slot), so
# that the splits it proposes are those the analysis ranks first: common members (karṇa + akṣi) before
# rare ones that happen to be longer (karṇā + kṣit).
FINAL_LETTERS = 2  # a word's last letters a pausa final or a spelling may change (tayor, tayoḥ)
BASE_LETTERS = 3  # a feminine stem's letters its adjective's stem does not share (gacchantī, gacchat)
VERBAL_MEMBER = -9.0  # a participle's stem as a member (gata-, kṛta-): its root's counts are not at hand
VERB_WORD = -9.0  # a finite verb form or gerund
PREVERB_WORD = -11.0  # a form read after undoing its preverbs
NO_COUNT = -30.0
COMMON_WORD = -9.0  # an indeclinable this likely is not looked for as a case of some stem as well


class PartTests:
    """Whether a string is a compound member or a word, and how likely, from the in-memory tables alone
    (no query): what the segmenter asks thousands of times for one long group."""

    def __init__(self, known: Known) -> None:
        self.known = known
        self.member = lru_cache(maxsize=65536)(self._member)
        self.word = lru_cache(maxsize=65536)(self._word)
        self.reach = lru_cache(maxsize=65536)(self._reach)
        # a key is asked for as a part, as the key of a part's spelling and as the rest after preverbs
        self._declinable = lru_cache(maxsize=65536)(self._is_declinable)

    def _reach(self, part: str) -> int:
        """How many letters of `part` begin a known stem or form, also after its preverbs (up-a-gata)."""
        reach = self.known.known_prefix(part)
        if part[:1] in PREVERB_INITIALS and reach < len(part):
            for _, inner in preverb_splits(part):
                # the preverbs' letters, and one more where undoing their sandhi added one (ud-dhṛ: ud-hṛ)
                offset = len(part) - len(inner) + 1
                reach = max(reach, min(len(part), offset + self.known.known_prefix(inner)))
        return reach

    def _may_be_word(self, word: str) -> bool:
        """False when `word` can be no word: no stem it may be a case of and no verb form begins with the
        letters it starts with (`Known.known_prefix`). A form shares all but its ending with its stem or
        form: the stem's last letter or two when a pausa final is restored or a member combines (rājan
        as rāja), an ending of the declension's inverted endings (`paradigms.ending_rules`: dev-ābhyām)
        from at most 3 letters after what it shares (a feminine's base: gacchantyāḥ, gacchat), a verb
        form's ending of the other voice (patsyāmi, patsye), an indefinite's suffix. The test takes a
        few microseconds, the full one 30: most parts a long compound's search tries are no word."""
        reach = self.reach(word)
        if len(word) - reach <= FINAL_LETTERS:
            return True
        rules = paradigms.ending_rules()
        for key in (word, *pausa_readings(word)):
            last = min(len(key), reach + BASE_LETTERS)
            for start in range(max(0, len(key) - paradigms.MAX_ENDING), last + 1):
                if key[start:] in rules:
                    return True
            for ending, _, _ in _PADA_BY_LAST.get(key[-1:], ()):
                if key.endswith(ending) and len(key) - len(ending) <= reach:
                    return True
            for suffix in INDEFINITE_SUFFIXES:
                if key.endswith(suffix) and len(key) - len(suffix) - FINAL_LETTERS <= reach:
                    return True
        return False

    def _is_declinable(self, key: str) -> bool:
        """False when `key` can be no case of a known stem and no verb form (as `_may_be_word`, for one
        key: no preverbs, no pausa final), so that its candidate stems need not be made."""
        reach = self.known.known_prefix(key)
        if reach == len(key):
            return True
        rules = paradigms.ending_rules()
        last = min(len(key), reach + BASE_LETTERS)
        return any(key[start:] in rules for start in range(max(0, len(key) - paradigms.MAX_ENDING), last + 1))

    def _member(self, part: str) -> float | None:
        if len(part) < 3 and part not in SHORT_MEMBERS:
            return None
        if len(part) - self.reach(part) > 1:  # a member is its stem but for the last letter (mano, manas)
            return None
        best = None
        for stem, (value, weight) in self.known.stems(combining_stems(part)).items():
            scores = []
            if value & (HEADWORD | PRON | NUM):
                scores.append(log_probability(stem, weight, common=bool(value & PRON), cls="n"))
            if value & VERBAL_STEM:
                scores.append(VERBAL_MEMBER)
            if value & IND and (len(part) > SHORT_INDECLINABLE or part in INDECLINABLES):
                scores.append(log_probability(stem, weight, cls="i"))
            if scores:
                best = max(scores) if best is None else max(best, *scores)
        if best is not None:
            return best
        if part[:1] in PREVERB_INITIALS:
            rests = [rest for _, rest in preverb_splits(part) if len(rest) >= MIN_REST]
            if any(value & VERBAL_STEM for value in self.known.stem_bits(rests).values()):
                return VERBAL_MEMBER - 1.0
        return None

    def _word(self, word: str) -> float | None:
        """A word's score (about its likeliest reading's), None if it is none; the cheap tests first."""
        if len(word) < 2:
            return None
        if word.startswith("'"):
            word = "a" + word[1:]
        if not any(self._may_be_word(written) for written, _ in _initials(word)):
            return None
        keys = _keys(word)
        spellings = [(stem, penalty) for key, penalty in keys for stem in _indeclinable_keys(key)]
        found = self.known.stems({stem for stem, _ in spellings})
        best = None
        for stem, penalty in spellings:
            if stem not in found and stem not in INDECLINABLES:
                continue  # most parts tested: no stem, no particle
            value, weight = found.get(stem, (0, 0))
            score = None
            if stem in INDECLINABLES:
                score = log_probability(stem, weight, common=True, cls="i") + FUNCTION_WORD - penalty
            elif value & IND and len(stem) > SHORT_INDECLINABLE:
                score = log_probability(stem, weight, cls="i") - penalty
            if score is not None:
                best = score if best is None else max(best, score)
        if best is not None and best > COMMON_WORD:
            return best
        if len(word) < 3 and word not in SHORT_WORDS:
            return best
        for key, penalty in keys:
            if not self._declinable(key):
                continue
            score = self._declined(key, self.known.stems(paradigms.candidate_stems(key)))
            if score is not None:
                best = max(best if best is not None else NO_COUNT, score - penalty)
        if best is not None:
            return best
        verbs = self.known.verb_forms({k for key, _ in keys for k in (key, *pada_swaps(key))})
        for key, penalty in keys:
            if key in verbs or any(swap in verbs for swap in pada_swaps(key)):
                return VERB_WORD - penalty
        for rest, _, penalty in _indefinites(word):
            if rest in INTERROGATIVE_ADVERBS or any(paradigms.readings(rest, "kim", g) for g in "mfn"):
                return log_probability("kaScit", 0, common=True) - penalty
        if word[:1] in PREVERB_INITIALS:
            rests = list(
                dict.fromkeys(
                    rest
                    for key, _ in keys
                    for _, rest in preverb_splits(key)
                    if len(rest) >= MIN_REST and self._declinable(rest)
                )
            )
            verbs = self.known.verb_forms(rests)
            for rest in rests:
                if rest in verbs:
                    return PREVERB_WORD
                if (
                    self._declined(rest, self.known.stems(paradigms.candidate_stems(rest)), verbal_only=True)
                    is not None
                ):
                    return PREVERB_WORD
        if word.startswith("a") and word.endswith(TVA_ENDINGS):  # a-dṛṣṭvā (`Analyzer._negative_gerund`)
            negated = [rest for key, _ in keys for _, rest in _negatives(key) if rest.endswith(TVA_ENDINGS)]
            if negated and self.known.verb_forms(negated):
                return VERB_WORD - 1.0
        last = [score - penalty for key, penalty in keys if (score := self._last_resort(key)) is not None]
        return max(last) if last else None  # vyāyāma-taḥ, āmay-ī: when it is nothing else

    def _last_resort(self, key: str) -> float | None:
        """The score of `key` as a noun's ablative in -tas or an a-stem's possessive in -in (`Analyzer`)."""
        tests = (self._tasil(key), self._possessive_in(key), self._shortened(key))
        scores = [score for score in tests if score is not None]
        return max(scores) if scores else None

    def _shortened(self, key: str) -> float | None:
        """The score of `key` as a feminine's shortened last member (`Analyzer._shortened`)."""
        return self._derived(key, shortened_stems(key), "mn", F, M | N | PRON, SHORTENED_LAST)

    def _possessive_in(self, key: str) -> float | None:
        """The score of `key` as an a-stem's possessive in -in (`Analyzer._possessive_in`)."""
        return self._derived(key, possessive_in_stems(key), "mfn", M | F | N, PRON, POSSESSIVE_IN)

    def _derived(
        self, key: str, found: list[tuple[str, str]], genders: str, wanted: int, unwanted: int, cost: float
    ) -> float | None:
        """The score of `key` as the likeliest case in one of `genders` of a stem of `found` (a stem, the
        noun it is made from) whose noun has a bit of `wanted` and none of `unwanted`, less `cost`."""
        if not found:
            return None
        nouns = self.known.stems({noun for _, noun in found})
        best = None
        for stem, noun in found:
            value, weight = nouns.get(noun, (0, 0))
            if value & wanted and not value & unwanted:
                for gender in genders:
                    slots = paradigms.readings(key, stem, gender)
                    if slots:
                        names = _slot_names(slots)
                        score = log_probability(noun, weight, cls="n") + slot_log_probability(names, "n")
                        score -= cost
                        best = score if best is None else max(best, score)
        return best

    def _tasil(self, key: str) -> float | None:
        """The score of `key` as a noun's ablative in -tas (`Analyzer._tasil`), None if it is none."""
        stems = tasil_stems(key)
        if not stems:
            return None
        best = None
        for stem, (value, weight) in self.known.stems(stems).items():
            if value & (M | F | N) and not value & PRON and stem not in paradigms.SARVADI:
                score = log_probability(stem, weight, cls="n") + slot_log_probability(TASIL_SLOT, "n")
                score -= TASIL_AFTER
                best = score if best is None else max(best, score)
        return best

    @staticmethod
    def _declined(key: str, found: dict[str, tuple[int, int]], verbal_only: bool = False) -> float | None:
        """The score of `key` as the likeliest case of one of the stems `found`, None if of none."""
        best = None
        for stem, (value, weight) in found.items():  # the candidate stems that are stems, in their order
            if not value:
                continue
            for genders, as_noun in _stem_classes(stem, value, verbal_only):
                prior = None  # made when a slot is found: most parts a search tests are no case of the stem
                for gender in genders:
                    slots = paradigms.readings(key, stem, gender)
                    if slots:
                        if prior is None:
                            # a noun's prior from the counts, which may change (frequency.clear_caches):
                            # not remembered
                            prior = (
                                log_probability(stem, weight, common=bool(value & PRON), cls="n")
                                if as_noun
                                else VERBAL_MEMBER
                            )
                        score = prior + slot_log_probability(_slot_names(slots), "n")
                        best = score if best is None else max(best, score)
        return best


@lru_cache(maxsize=65536)  # a stem is a candidate of many of the parts a split search tests
def _stem_classes(stem: str, value: int, verbal_only: bool) -> tuple[tuple[tuple[str, ...], bool], ...]:
    """(the genders `stem` is declined in, whether as a noun) for each way `PartTests._declined` reads
    it: as a participle's stem (its root's counts not at hand) and, unless `verbal_only`, as a noun,
    pronoun or numeral ("": declined without gender)."""
    classes = [("mfn", False)] if value & VERBAL_STEM else []
    if not verbal_only:
        genders = "".join(g for g, bit in _GENDER_BITS.items() if value & bit)
        if not genders and value & HEADWORD:
            genders = implied_genders(stem)
        genders += possessive_genders(stem, genders)
        if value & PRON:
            genders += _pronoun_genders(stem) or "_"
        if value & NUM:
            genders += _numeral_genders(stem) or "_"
        classes.append((genders, True))
    return tuple(
        (tuple("" if gender == "_" else gender for gender in dict.fromkeys(genders)), as_noun)
        for genders, as_noun in classes
    )


@lru_cache(maxsize=4096)
def _slot_names(slots: tuple[paradigms.Slot, ...]) -> tuple[str, ...]:
    """The names of `slots` (a few hundred combinations recur)."""
    return tuple(paradigms.slot_name(slot) for slot in slots)
