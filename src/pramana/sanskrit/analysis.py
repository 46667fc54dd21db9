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

from array import array
from bisect import bisect_left
from collections.abc import Iterable
from dataclasses import dataclass, field
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
)
from pramana.sanskrit.frequency import log_probability, slot_weight
from pramana.sanskrit.store import SanskritStore

VOWELS = frozenset("aAiIuUfFxXeEoO")
VOICED = frozenset("gGjJqQdDbBnmNYRyrlvh") | VOWELS
# Preverbs (upasargas and the gatis alam, antar, puras, tiras, prādus, āvis) as the dictionaries spell them.
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
]
MAX_PREVERBS = 3


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


FUNCTION_WORD = 1.0  # what a built-in indeclinable gains over a stem whose form it shares (sadā, sad)
FEMININE_LEMMA = 1.5  # kāntā read as the stem kāntā rather than as the feminine of kānta


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
    "tiras": [("tiras", ""), ("tiraH", ""), ("tiraz", "")],
    "alam": [("alam", ""), ("alaM", "")],
    "prAdus": [("prAdur", ""), ("prAduz", ""), ("prAduH", ""), ("prAdus", "")],
    "Avis": [("Avir", ""), ("Aviz", ""), ("AviH", ""), ("Avis", "")],
}  # fmt: skip


@lru_cache(maxsize=1)
def _junctions() -> dict[str, list[tuple[str, str, str]]]:
    """First letter → (preverb, written, restored start of the rest), longest written first."""
    found = []
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


def _rest_variants(preverb: str, rest: str) -> list[str]:
    """The rest as written, and as it was before the preverb's ṇatva or ṣatva (pra-ṇamati, ni-ṣīdati,
    abhy-a-ṣiñcat)."""
    variants = [rest]
    if "r" in preverb and "R" in rest:
        variants.append(rest.replace("R", "n"))
    if preverb[-1] in "iu":
        for start in ("z", "az"):
            if rest.startswith(start):
                after = rest[len(start) :]
                after = {"W": "T", "w": "t"}.get(after[:1], after[:1]) + after[1:]  # ṣṭh → sth
                variants.append(start.replace("z", "s") + after)
    return variants


@lru_cache(maxsize=16384)
def preverb_splits(word: str, depth: int = 0) -> list[tuple[tuple[str, ...], str]]:
    """(preverbs, the rest) for every way `word` may begin with up to three preverbs."""
    if depth >= MAX_PREVERBS:
        return []
    found: list[tuple[tuple[str, ...], str]] = []
    for preverb, written, start in _junctions().get(word[:1], ()):
        if not word.startswith(written) or len(word) - len(written) < 2:
            continue
        rest = start + word[len(written) :]
        following = word[len(written)]
        if not start and written == preverb and preverb[-1] in VOWELS and following in VOWELS:
            continue  # a vowel-final preverb before a vowel is written joined to it
        if not start and written.endswith(("y", "v")) and following not in VOWELS:
            continue
        for variant in _rest_variants(preverb, rest):
            found.append(((preverb,), variant))
            found += [((preverb, *more), inner) for more, inner in preverb_splits(variant, depth + 1)]
    return found


def join_preverb(preverb: str, word: str) -> str:
    """The verb with its preverb, spelt as the dictionaries do (anu + bhuj, ni + sad → niṣad, ud + sthā
    → utthā, sam + kṛ → saṃkṛ, pra + nam → praṇam)."""
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
    if preverb in ("puras", "tiras", "prAdus", "Avis"):
        if first in VOICED:
            return preverb[:-1] + "r" + word
        final = "z" if preverb[-2] in "iu" else "s"
        return preverb[:-1] + final + word
    if preverb == "antar":
        return "antar" + word
    if preverb == "alam":
        return ("alam" if first in VOWELS else "alaM") + word
    last = preverb[-1]
    if first in VOWELS:
        return preverb[:-1] + _join_vowels(last, first) + word[1:]
    if last in "iu" and first == "s" and word[1:2] in VOWELS | set("tTnmyv"):
        word = (
            "z" + word[1:].replace("t", "w", 1).replace("T", "W", 1) if word[1:2] in "tT" else "z" + word[1:]
        )
    elif "r" in preverb and first == "n":
        word = "R" + word[1:]
    return preverb + word


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
    for preverb in reversed(list(preverbs)):
        lemma = join_preverb(preverb, lemma)
    return lemma


# The epics conjugate many verbs in the other voice than the grammar's (pratipatsyāmi for -patsye):
# thematic endings of one voice ↔ the other's, same person and number.
_PADA_PAIRS = [
    ("ati", "ate"), ("ataH", "ete"), ("anti", "ante"), ("asi", "ase"), ("aTaH", "eTe"), ("aTa", "aDve"),
    ("Ami", "e"), ("AvaH", "Avahe"), ("AmaH", "Amahe"), ("at", "ata"), ("atAm", "etAm"), ("an", "anta"),
    ("aH", "aTAH"), ("atam", "eTAm"), ("am", "e"), ("Ava", "Avahi"), ("Ama", "Amahi"), ("atu", "atAm"),
    ("antu", "antAm"), ("a", "asva"), ("Ani", "E"), ("et", "eta"), ("etAm", "eyAtAm"), ("eyuH", "eran"),
    ("eH", "eTAH"), ("etam", "eyATAm"), ("eyam", "eya"), ("eva", "evahi"), ("ema", "emahi"),
]  # fmt: skip
PADA_PENALTY = 0.8


@lru_cache(maxsize=8192)
def pada_swaps(word: str) -> tuple[str, ...]:
    """The form of the other voice with the same person and number (patsyāmi → patsye)."""
    swapped = []
    for one, other in _PADA_PAIRS:
        for ending, replacement in ((one, other), (other, one)):
            if word.endswith(ending) and len(word) > len(ending) + 2:
                swapped.append(word[: -len(ending)] + replacement)
    return tuple(dict.fromkeys(swapped))


# -- what is known, in memory --------------------------------------------------------------------------

# lexicon bits of a stem: its genders as a noun, and its kinds
M, F, N, IND, PRON, NUM, VERBAL_STEM, HEADWORD = 1, 2, 4, 8, 16, 32, 64, 128
_GENDER_BITS = {"m": M, "f": F, "n": N}
_KIND_BITS = {INDECLINABLE: IND, PRONOUN: PRON, NUMERAL: NUM, VERBAL: VERBAL_STEM}


def _hash(key: str) -> int:
    return crc32(key.encode())


def known_tables(store: SanskritStore) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(stem hashes sorted, their bits, verb form hashes sorted), from the lexicon and verb forms."""
    bits: dict[int, int] = {}
    for stem, kind, genders in store.lexicon_keys():
        key = _hash(stem)
        value = _KIND_BITS.get(kind, 0) | (HEADWORD if kind == NOMINAL else 0)
        for gender in genders:
            value |= _GENDER_BITS.get(gender, 0)
        bits[key] = bits.get(key, 0) | value
    order = sorted(bits)
    stems = np.array(order, dtype=np.uint32)
    stem_bits = np.array([bits[key] for key in order], dtype=np.uint16)
    verbs = np.unique(np.array([_hash(form) for form in store.verb_form_keys()], dtype=np.uint32))
    return stems, stem_bits, verbs


class Known:
    """Which stems and verb forms exist, as sorted 32-bit hashes (3 MB for MW + Apte, where Python sets
    would take 60; a collision only costs a lookup that finds nothing): a word's candidates are tested
    here, and only those that exist are fetched. Made at build time, read in milliseconds."""

    def __init__(self, store: SanskritStore) -> None:
        blobs = store.form_blobs()
        if {"stems", "stem_bits", "verbs"} <= blobs.keys():
            tables = (
                np.frombuffer(blobs["stems"], dtype=np.uint32),
                np.frombuffer(blobs["stem_bits"], dtype=np.uint16),
                np.frombuffer(blobs["verbs"], dtype=np.uint32),
            )
        else:  # built before the tables were kept
            tables = known_tables(store)
        # plain arrays: bisect on them costs a microsecond, where numpy's call costs ten
        self._stems = array("I", tables[0].tobytes())
        self._bits = array("H", tables[1].tobytes())
        self._verbs = array("I", tables[2].tobytes())

    def stem_bits(self, keys: Iterable[str]) -> dict[str, int]:
        """The bits of those `keys` that are stems."""
        found = {}
        stems, size = self._stems, len(self._stems)
        for key in keys:
            hashed = _hash(key)
            index = bisect_left(stems, hashed)
            if index < size and stems[index] == hashed:
                found[key] = self._bits[index]
        return found

    def verb_forms(self, keys: Iterable[str]) -> set[str]:
        verbs, size = self._verbs, len(self._verbs)
        found = set()
        for key in keys:
            hashed = _hash(key)
            index = bisect_left(verbs, hashed)
            if index < size and verbs[index] == hashed:
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

    def ranked(self) -> list[Reading]:
        found = []
        for best, grammars, slots in self.readings.values():
            ordered = tuple(sorted(grammars, key=lambda grammar: -grammars[grammar]))
            found.append(
                Reading(
                    best.form,
                    best.lemma,
                    best.kind,
                    ordered,
                    best.score,
                    best.root,
                    best.preverbs,
                    tuple(slots),
                )
            )
        return sorted(found, key=lambda reading: -reading.score)


class Analyzer:
    def __init__(self, store: SanskritStore) -> None:
        self.store = store
        self._roots: dict[str, str] | None = None
        self._known: Known | None = None

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
        """Readings of several words with one lookup of the lexicon and one of the verb forms."""
        plans = {word: _plan(word) for word in dict.fromkeys(words)}
        stems = list(self.known.stem_bits({key for plan in plans.values() for key in plan.stem_keys}))
        verbs = list(self.known.verb_forms({key for plan in plans.values() for key in plan.verb_keys}))
        lexicon: dict[str, list[LexiconRow]] = {}
        for row in self.store.lexicon(stems):
            lexicon.setdefault(row.stem, []).append(row)
        verb_forms: dict[str, list[tuple[str, int]]] = {}
        for form, lemma, code in self.store.verb_forms(verbs):
            verb_forms.setdefault(form, []).append((lemma, code))
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
            for preverbs, _rest in plan.preverb_splits:
                wanted |= {joined(preverbs, root) for root in wanted if len(wanted) < 400}
        missing = [key for key in wanted if key not in weights]
        for row in self.store.lexicon(missing):
            weights[row.stem] = max(weights.get(row.stem, 0), row.weight)
        return weights

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
                        score = _prior(row.stem, weights, kind) - penalty
                        found.add(Reading(key, row.stem, "indeclinable", ("indeclinable",), score))
            self._nominal(key, penalty, (), lexicon, weights, found, verbal_only=False)
            self._verbs(key, (), penalty, verb_forms, roots, weights, found)
        for preverbs, rest in plan.preverb_splits:
            penalty = 0.6 * len(preverbs)
            self._nominal(rest, penalty, preverbs, lexicon, weights, found, verbal_only=True, form=plan.word)
            self._verbs(rest, preverbs, penalty, verb_forms, roots, weights, found, form=plan.word)
        for rest, lemma_suffix, penalty in plan.indefinite:
            self._indefinite(rest, lemma_suffix, penalty, lexicon, weights, found)
        return _conventions(found.ranked())

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
                if verbal_only and row.kind != VERBAL:
                    continue
                if row.kind == NOMINAL:
                    if row.stem in paradigms.PRONOUN_STEMS:
                        continue  # MW's article on tad: the pronoun's own reading says it
                    genders, kind, lemma = row.genders, "noun", row.stem
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
                    slots = paradigms.readings(key, row.stem, gender)
                    if not slots:
                        continue
                    names = [paradigms.slot_name(slot) for slot in slots]
                    label = f" ({gender}.)" if gender else ""
                    prefix = f"{PARTICIPLE_NAMES[row.info]}, " if row.kind == VERBAL else ""
                    grammar = tuple(f"{prefix}{name}{label}" for name in names)
                    prior_of = lemma if row.kind != VERBAL else self.roots().get(row.lemma, row.lemma)
                    score = _prior(prior_of, weights, kind) + max(slot_weight(name) for name in names)
                    score -= penalty + _feminine_penalty(row.stem, gender, key)
                    if row.kind == VERBAL:
                        score += _verbal_bonus(preverbs, lemma, weights) - 0.3
                    root = self.roots().get(row.lemma, row.lemma) if row.kind == VERBAL else ""
                    found.add(Reading(form or key, lemma, kind, grammar, score, root, preverbs, tuple(names)))
                    if gender == "f" and row.kind == NOMINAL and row.stem[-1:] not in "AIUiuf":
                        for feminine in paradigms.feminine_stems(row.stem):  # nitambinī, as its own word
                            if feminine != row.stem and paradigms.readings(key, feminine, "f"):
                                lower = score - FEMININE_LEMMA
                                found.add(Reading(form or key, feminine, kind, grammar, lower, root,
                                                  preverbs, tuple(names)))  # fmt: skip
                                break

    def _verbs(
        self, key: str, preverbs: tuple[str, ...], penalty: float,
        verb_forms: dict[str, list[tuple[str, int]]],
        roots: dict[str, str], weights: dict[str, int], found: _Found, form: str = "",
    ) -> None:  # fmt: skip
        for lemma, code in verb_forms.get(key, []):
            self._verb(form or key, lemma, code, preverbs, penalty, roots, weights, found)
        for swapped in pada_swaps(key):
            for lemma, code in verb_forms.get(swapped, []):
                self._verb(form or key, lemma, code, preverbs, penalty + PADA_PENALTY, roots, weights, found)

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
        score = _prior(root, weights, "verb") + slot_weight(grammar) - penalty
        score += _verbal_bonus(preverbs, full, weights)
        found.add(Reading(key, full, "verb", (grammar,), score, root, preverbs, (grammar,)))

    def _indefinite(
        self, rest: str, suffix: str, penalty: float, lexicon: dict[str, list[LexiconRow]],
        weights: dict[str, int], found: _Found,
    ) -> None:  # fmt: skip
        """kaścit, kiṃcid, kenacit (forms of kim), kadācit, kvacit, kathaṃcana (of its adverbs)."""
        base = _prior("kaScit", weights, "pronoun")
        if rest in INTERROGATIVE_ADVERBS and rest != "kim":
            lemma = rest + suffix
            found.add(Reading(rest + suffix, lemma, "indeclinable", ("indeclinable",), base - penalty))
            return
        for gender in "mfn":
            slots = paradigms.readings(rest, "kim", gender)
            if slots:
                names = tuple(paradigms.slot_name(slot) for slot in slots)
                grammar = tuple(f"{name} ({gender}.)" for name in names)
                score = base + max(slot_weight(name) for name in names) - penalty
                found.add(Reading(rest + suffix, "ka" + _indefinite_lemma(suffix), "pronoun", grammar, score,
                                  slots=names))  # fmt: skip


def _suppletive(lemma: str, form: str) -> str:
    """The grammar's suppletive roots under the root whose forms they are (2.4.52–53): uvāca, ukta,
    vakṣyati are vac's though vidyut derives them from brū; bhaviṣyati is bhū's, not as's."""
    if lemma == "brU" and "br" not in form:
        return "vac"
    if lemma == "as" and ("Bav" in form or "BU" in form):
        return "BU"
    return lemma


def _conventions(readings: list[Reading]) -> list[Reading]:
    """A gerund or verb form the dictionaries also list as an indeclinable (āsthāya, uktvā, syāt), and a
    participle they list as a noun (nimagna, dhṛta), are read first as the verb's form."""
    verbal = {r.form for r in readings if r.kind == "verb" and "participle" not in r.grammar[0]}
    past = {
        r.form
        for r in readings
        if r.kind == "verb" and r.grammar[0].startswith(("past participle", "present participle"))
    }
    nouns = {r.form for r in readings if r.kind == "noun"}
    changed = []
    for reading in readings:
        demote = 0.0
        if reading.kind == "indeclinable" and reading.form in verbal and reading.lemma not in INDECLINABLES:
            demote = 2.0
        elif reading.kind == "noun" and reading.form in past:
            demote = 1.0
        elif reading.kind == "verb" and reading.grammar[0].startswith("gerundive") and reading.form in nouns:
            demote = 1.5
        changed.append(reading if not demote else Reading(
            reading.form, reading.lemma, reading.kind, reading.grammar, reading.score - demote, reading.root,
            reading.preverbs, reading.slots,
        ))  # fmt: skip
    return sorted(changed, key=lambda reading: -reading.score)


def _indefinite_lemma(suffix: str) -> str:
    return "Scana" if suffix == "cana" else "Scit"


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


def _verbal_bonus(preverbs: tuple[str, ...], lemma: str, weights: dict[str, int]) -> float:
    """A verb with preverbs a dictionary lists (anubhuj) before one it does not."""
    if not preverbs:
        return 0.0
    return 0.3 if weights.get(lemma, 0) else -1.0


def _prior(lemma: str, weights: dict[str, int], kind: str) -> float:
    """log P(lemma): its frequency in real text, else a guess from its dictionary articles."""
    bonus = FUNCTION_WORD if kind == "indeclinable" else 0.0  # the built-in particles, adverbs
    return log_probability(lemma, weights.get(lemma, 0), common=kind in ("indeclinable", "pronoun")) + bonus


def _indeclinable_keys(key: str) -> list[str]:
    """An indeclinable as written and as the dictionaries spell it: tataH → tatas, punaH → punar,
    evaM → evam, kaTaM → kaTam."""
    keys = [key]
    if key.endswith("H"):
        keys += [key[:-1] + "s", key[:-1] + "r"]
    elif key.endswith("M"):
        keys.append(key[:-1] + "m")
    elif key.endswith("d"):
        keys.append(key[:-1] + "t")
    elif key.endswith("t"):
        keys.append(key[:-1] + "d")
    return keys


@dataclass(frozen=True)
class _Plan:
    """What to look up for one word: its keys (with a penalty for a restored final), the stems the
    endings may be undone to, the verb forms, the rests after preverbs, the indefinites."""

    word: str
    keys: tuple[tuple[str, float], ...]
    preverb_splits: tuple[tuple[tuple[str, ...], str], ...]
    indefinite: tuple[tuple[str, str, float], ...]
    stem_keys: frozenset[str]
    verb_keys: frozenset[str]


PAUSA_PENALTY = 0.7


@lru_cache(maxsize=4096)
def _plan(word: str) -> _Plan:
    if word.startswith("'"):  # an elided initial a ('pi, 'bravīt)
        word = "a" + word[1:]
    keys: list[tuple[str, float]] = [(word, 0.0)]
    keys += [(reading, PAUSA_PENALTY) for reading in pausa_readings(word)]
    splits: list[tuple[tuple[str, ...], str]] = []
    for key, _ in keys:
        splits += [(p, rest) for p, rest in preverb_splits(key) if len(rest) >= MIN_REST]
    indefinite = []
    for suffix in INDEFINITE_SUFFIXES:
        if word.endswith(suffix) and len(word) > len(suffix) + 1 and suffix not in ("api", "pi"):
            rest = word[: -len(suffix)]
            lemma_suffix = "cana" if suffix == "cana" else "cit"
            indefinite.append((rest, lemma_suffix, 0.0))
            indefinite += [(reading, lemma_suffix, 0.2) for reading in pausa_readings(rest)]
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
    return _Plan(word, tuple(keys), tuple(dict.fromkeys(splits)), tuple(indefinite), frozenset(stem_keys),
                 frozenset(verb_keys))  # fmt: skip


# -- parts of compounds and sandhi groups ---------------------------------------------------------------


def combining_stems(member: str) -> list[str]:
    """The stems a compound's member may be written for: rāja → rājan, mahā → mahat, mano → manas,
    dhanur → dhanus, jagad → jagat, vāg → vāc, hasti → hastin (and the member as it is)."""
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


class PartTests:
    """Whether a string is a compound member or a word, from the in-memory tables alone (no query):
    what the segmenter asks thousands of times for one long group."""

    def __init__(self, known: Known) -> None:
        self.known = known
        self.member = lru_cache(maxsize=65536)(self._member)
        self.word = lru_cache(maxsize=65536)(self._word)

    def _member(self, part: str) -> float | None:
        if len(part) < 3 and part not in SHORT_MEMBERS:
            return None
        bits = self.known.stem_bits(combining_stems(part))
        if any(value & (HEADWORD | VERBAL_STEM | PRON | NUM) for value in bits.values()) or (
            any(value & IND for value in bits.values())
            and (len(part) > SHORT_INDECLINABLE or part in INDECLINABLES)
        ):
            return 0.5 + min(len(part), 6) / 6
        if part[:1] in PREVERB_INITIALS:
            rests = [rest for _, rest in preverb_splits(part) if len(rest) >= MIN_REST]
            if any(value & VERBAL_STEM for value in self.known.stem_bits(rests).values()):
                return 0.4 + min(len(part), 6) / 6
        return None

    def _word(self, word: str) -> float | None:
        """A word's score (0.5 to 2.8), None if it is none; the cheap tests first."""
        if len(word) < 2:
            return None
        if word.startswith("'"):
            word = "a" + word[1:]
        length = min(len(word), 6) / 6
        keys = [(word, 0.0)] + [(reading, PAUSA_PENALTY) for reading in pausa_readings(word)]
        bits = self.known.stem_bits({stem for key, _ in keys for stem in _indeclinable_keys(key)})
        for key, penalty in keys:
            for stem in _indeclinable_keys(key):
                if stem in INDECLINABLES:
                    return 1.8 + length - penalty
                if bits.get(stem, 0) & IND and len(stem) > SHORT_INDECLINABLE:
                    return 0.8 + length - penalty
        if len(word) < 3 and word not in SHORT_WORDS:
            return None
        for key, penalty in keys:
            stems = paradigms.candidate_stems(key)
            if self._declined(key, self.known.stem_bits(stems)):
                return 1.0 + length - penalty
        verbs = self.known.verb_forms({k for key, _ in keys for k in (key, *pada_swaps(key))})
        for key, penalty in keys:
            if key in verbs or any(swap in verbs for swap in pada_swaps(key)):
                return 1.0 + length - penalty
        for rest, _, penalty in _plan(word).indefinite:
            if rest in INTERROGATIVE_ADVERBS or any(paradigms.readings(rest, "kim", g) for g in "mfn"):
                return 1.5 + length - penalty
        if word[:1] in PREVERB_INITIALS:
            plan = _plan(word)
            rests = [rest for _, rest in plan.preverb_splits]
            verbs = self.known.verb_forms(rests)
            for rest in rests:
                if rest in verbs:
                    return 0.8 + length
                if self._declined(
                    rest, self.known.stem_bits(paradigms.candidate_stems(rest)), verbal_only=True
                ):
                    return 0.8 + length
        return None

    @staticmethod
    def _declined(key: str, bits: dict[str, int], verbal_only: bool = False) -> bool:
        for stem in paradigms.candidate_stems(key):
            value = bits.get(stem, 0)
            if not value:
                continue
            genders = "mfn" if value & VERBAL_STEM else ""
            if not verbal_only:
                genders += "".join(g for g, bit in _GENDER_BITS.items() if value & bit)
                if value & PRON:
                    genders += _pronoun_genders(stem) or "_"
                if value & NUM:
                    genders += _numeral_genders(stem) or "_"
            for gender in dict.fromkeys(genders):
                if paradigms.readings(key, stem, "" if gender == "_" else gender):
                    return True
        return False
