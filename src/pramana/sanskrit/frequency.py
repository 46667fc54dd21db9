"""How common a lemma and a grammatical slot are in real text, for ranking readings.

`data/frequencies.tsv` holds counts derived (see `benchmarks/sanskrit_frequencies.py`, which says from
what) and nothing else: lemma (SLP1) and count, one a line. `data/frequencies_dcs.tsv` holds lemma counts
of hand-annotated sentences of the Digital Corpus of Sanskrit (texts of several kinds; see
`benchmarks/sanskrit_dcs_counts.py`), keyed by the DCS's lemma folded as `dcs_key` folds the analyzer's;
a lemma's count is the first table's plus the second's, scaled to the first's size and weighted by
DCS_WEIGHT. The slot weights are log-odds of the cases, numbers, persons and tenses in running text.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from pathlib import Path

FREQUENCIES = Path(__file__).with_name("data") / "frequencies.tsv"
DCS_COUNTS = Path(__file__).with_name("data") / "frequencies_dcs.tsv"
# Which lemma a form is how often in the DCS sample (form, lemma, class, count; both folded as below).
FORM_COUNTS = Path(__file__).with_name("data") / "forms_dcs.tsv"
# How many occurrences the analyzer's own ranking of a form's readings counts for against the DCS's
# counts of that form (chosen on the dev sets: docs/benchmarks.md).
FORM_PRIOR = 2.0
# How much the DCS counts weigh against the first table's, both taken as corpora of the same size
# (chosen on the dev sets, each scored with counts from the other: docs/benchmarks.md).
DCS_WEIGHT = 1.5


CLASSES = ("v", "n", "i")  # a verb (its root), a nominal stem (noun, pronoun, numeral), an indeclinable
# A lemma's count is smoothed by this many occurrences for each of its dictionary articles (eight times
# that for a built-in function word), so a lemma the counts have not met still ranks by its articles.
PSEUDO_COUNT = 0.11
COMMON_FACTOR = 8.0


def lemma_class(kind: str) -> str:
    """The class a reading's lemma is counted in: 'verb' → v, an indeclinable → i, anything else → n."""
    if kind == "verb":
        return "v"
    return "i" if kind.endswith("indeclinable") else "n"


@lru_cache(maxsize=1)
def _frequencies() -> dict[tuple[str, str], float]:
    """(lemma, class) → count; a line without a class (lemma, count) counts in every class."""
    if not FREQUENCIES.is_file():
        return {}
    counts: dict[tuple[str, str], float] = {}
    for line in FREQUENCIES.read_text("utf-8").splitlines():
        if line and not line.startswith(("#", "=")):
            cells = line.split("\t")
            if len(cells) == 2:
                for cls in CLASSES:
                    counts[cells[0], cls] = float(cells[1])
            else:
                counts[cells[0], cells[1]] = float(cells[2])
    return counts


_NASAL = re.compile(r"[NYRnm](?=[kKgGcCjJwWqQtTdDpPbBSzsh])")
# The DCS's own lemmas for what the analyzer names otherwise (its counts are keyed by the analyzer's name:
# applied to the DCS's lemmas only, so that the analyzer's mad, "intoxication", is not counted as asmad).
DCS_CONVENTIONS = {
    "mad": "asmad", "tvad": "yuzmad", "ka": "kim", "paS": "dfS", "aham": "asmad", "tvam": "yuzmad",
}  # fmt: skip


@lru_cache(maxsize=65536)
def dcs_key(lemma: str) -> str:
    """A lemma (SLP1) as the DCS counts are keyed: the spellings folded (jagant = jagat, gai = gā, a nasal
    before a consonant as anusvāra, a final d as t). A DCS lemma is first renamed by DCS_CONVENTIONS."""
    key = lemma
    if key.endswith("ant") and len(key) > 4:
        key = key[:-3] + "at"
    key = _NASAL.sub("M", key)
    if key.endswith("E"):
        key = key[:-1] + "A"
    if key.endswith("F"):
        key = key[:-1] + "f"
    return key[:-1] + "t" if key.endswith("d") else key


@lru_cache(maxsize=1)
def _dcs_counts() -> dict[tuple[str, str], float]:
    """(dcs_key(lemma), class) → count in the DCS sample; empty when none is installed."""
    counts: dict[tuple[str, str], float] = {}
    if DCS_COUNTS.is_file():
        for line in DCS_COUNTS.read_text("utf-8").splitlines():
            if line and not line.startswith(("#", "=")):
                key, cls, count = line.split("\t")
                counts[key, cls] = float(count)
    return counts


@lru_cache(maxsize=1)
def _dcs_scale() -> float:
    """What one DCS occurrence counts for: the first table's size over the DCS sample's, times DCS_WEIGHT."""
    sample = sum(_dcs_counts().values())
    base = sum(_frequencies().values()) or 200_000.0
    return DCS_WEIGHT * base / sample if sample else 0.0


@lru_cache(maxsize=1)
def _mixed() -> dict[tuple[str, str], float]:
    """The first table's lemmas with the DCS counts mixed in (the lemmas only the DCS has are looked up as
    they come, in `_dcs_only`)."""
    own, scale = _frequencies(), _dcs_scale()
    if not scale:
        return own
    dcs = _dcs_counts()
    return {
        (lemma, cls): (count + scale * dcs.get((dcs_key(lemma), cls), 0.0)) / (1.0 + DCS_WEIGHT)
        for (lemma, cls), count in own.items()
    }


@lru_cache(maxsize=65536)
def _dcs_only(lemma: str, cls: str) -> float:
    scale = _dcs_scale()
    return scale * _dcs_counts().get((dcs_key(lemma), cls), 0.0) / (1.0 + DCS_WEIGHT) if scale else 0.0


def lemma_frequency(lemma: str, cls: str = "n") -> float:
    """The lemma's count in a corpus of `total()` words: the first table's and the DCS sample's (scaled to
    the same size) mixed in the proportion 1 : DCS_WEIGHT."""
    count = _mixed().get((lemma, cls))
    return count if count is not None else _dcs_only(lemma, cls)


@lru_cache(maxsize=1)
def total() -> float:
    """The counts' sum (a corpus of this many words); 200,000 when no counts are installed."""
    return sum(_frequencies().values()) or 200_000.0


@lru_cache(maxsize=65536)
def form_key(form: str) -> str:
    """A form (SLP1) as the form counts are keyed: as `dcs_key` folds it, a final s or r as visarga (the
    DCS's tatas, punar are the analyzer's tataH, punaH)."""
    key = dcs_key(form)
    return key[:-1] + "H" if key.endswith(("s", "r")) else key


@lru_cache(maxsize=1)
def _form_counts() -> dict[str, dict[tuple[str, str], float]]:
    """form_key(form) → {(dcs_key(lemma), class): count} in the DCS sample; empty when none is installed."""
    counts: dict[str, dict[tuple[str, str], float]] = {}
    if FORM_COUNTS.is_file():
        for line in FORM_COUNTS.read_text("utf-8").splitlines():
            if line and not line.startswith("#"):
                form, lemma, cls, count = line.split("\t")
                counts.setdefault(form, {})[lemma, cls] = float(count)
    return counts


def form_counts(form: str) -> dict[tuple[str, str], float]:
    """How often the DCS sample reads `form` (SLP1) as which lemma ((dcs_key(lemma), class) → count)."""
    return _form_counts().get(form_key(form), {})


def clear_caches() -> None:
    """Forget the tables read (after FREQUENCIES, DCS_COUNTS, FORM_COUNTS or DCS_WEIGHT changed)."""
    for cached in (
        _frequencies, _dcs_counts, _dcs_scale, _mixed, _dcs_only, total, slot_probabilities, _form_counts,
        _slot_log_probability,
    ):  # fmt: skip
        cached.cache_clear()


def pseudo_count(articles: int, common: bool = False) -> float:
    return PSEUDO_COUNT * (1 + articles) * (COMMON_FACTOR if common else 1.0)


def log_probability(lemma: str, articles: int, common: bool = False, cls: str = "n") -> float:
    """log P(lemma) in running text: its count as a verb, a nominal stem or an indeclinable (`cls`),
    smoothed by its number of dictionary articles."""
    return math.log((lemma_frequency(lemma, cls) + pseudo_count(articles, common)) / total())


# Rough shares in epic and śāstra prose and verse (log-odds relative to the commonest).
_CASE = {"nominative": 0.0, "accusative": -0.3, "instrumental": -0.6, "dative": -1.4, "ablative": -1.1,
         "genitive": -0.5, "locative": -0.6, "vocative": -1.3}  # fmt: skip
_NUMBER = {"singular": 0.0, "plural": -0.5, "dual": -1.5}
_PERSON = {"3rd": 0.0, "2nd": -0.8, "1st": -0.8}
_TENSE = {
    "present": 0.0, "imperfect": -0.4, "imperative": -0.5, "optative": -0.4, "future": -0.8, "perfect": -0.4,
    "aorist": -1.5, "conditional": -2.5, "passive present": -0.5, "passive imperfect": -1.5,
    "passive imperative": -1.0, "passive optative": -1.2, "gerund": 0.0, "gerund (after a preverb)": 0.0,
    "infinitive": -0.2, "periphrastic future": -2.0,
}  # fmt: skip


# A participle's kind: the past participle is everywhere, the gerundive and the rest rarer.
_PARTICIPLE = {"past participle": 0.0, "present participle": -0.3, "gerundive": -1.0,
               "past active participle": -1.5, "present passive participle": -1.0,
               "future participle": -2.0, "perfect participle": -2.0}  # fmt: skip


@lru_cache(maxsize=4096)
def slot_weight(grammar: str) -> float:
    """'instrumental singular', 'participle, genitive plural (m.)', 'causative present 3rd singular'."""
    text = grammar.split(", ")[-1].split(" (")[0]
    words = text.split()
    weight = _PARTICIPLE.get(grammar.split(", ")[0], 0.0) if ", " in grammar else 0.0
    if words and words[0] == "causative":
        weight -= 0.7
        words = words[1:]
    if words and words[0] == "desiderative":
        weight -= 2.0
        words = words[1:]
    if len(words) >= 2 and words[0] in _CASE:
        return weight + _CASE[words[0]] + _NUMBER.get(words[1], 0.0)
    if len(words) >= 2 and words[-2] in _PERSON:
        tense = " ".join(words[:-2])
        return weight + _TENSE.get(tense, -1.0) + _PERSON[words[-2]] + _NUMBER.get(words[-1], 0.0)
    return weight + _TENSE.get(" ".join(words), 0.0)


# How many genders a participle's forms are spread over, on average (the masculine and neuter commonest).
PARTICIPLE_GENDERS = 2.0
_NONFINITE = ("gerund", "gerund (after a preverb)", "infinitive")
_GENDER = re.compile(r" \([mfn](?:, [mfn])*\.\)$")


def slot_key(grammar: str) -> str:
    """A reading's grammatical slot without its gender: 'past participle, nominative singular (m.)' →
    'past participle, nominative singular'."""
    return _GENDER.sub("", grammar)


@lru_cache(maxsize=1)
def hand_slots() -> dict[str, dict[str, float]]:
    """P(slot | class) from the weights above: every slot of a noun (case, number), of a verb (tense,
    person, number, causative too; the participles declined; gerunds, infinitive)."""
    from pramana.sanskrit.forms import GRAMMARS, PARTICIPLE_NAMES

    nominal = {
        f"{case} {number}": math.exp(_CASE[case] + _NUMBER[number]) for case in _CASE for number in _NUMBER
    }
    verbal = {grammar: math.exp(slot_weight(grammar)) for grammar in GRAMMARS}
    verbal |= {name: math.exp(_TENSE[name]) for name in _NONFINITE}
    for kind in dict.fromkeys(PARTICIPLE_NAMES):
        for slot, weight in nominal.items():
            verbal[f"{kind}, {slot}"] = math.exp(_PARTICIPLE.get(kind, 0.0)) * weight * PARTICIPLE_GENDERS
    return {cls: _normalized(table) for cls, table in (("n", nominal), ("v", verbal))}


def _normalized(table: dict[str, float]) -> dict[str, float]:
    total = sum(table.values())
    return {key: value / total for key, value in table.items()}


@lru_cache(maxsize=1)
def slot_probabilities() -> dict[str, dict[str, float]]:
    """P(slot | class): as estimated from real text with the lemma counts (`=` lines of the counts
    file), else from the weights above."""
    estimated: dict[str, dict[str, float]] = {}
    if FREQUENCIES.is_file():
        for line in FREQUENCIES.read_text("utf-8").splitlines():
            if line.startswith("="):
                _, cls, slot, probability = line.split("\t")
                estimated.setdefault(cls, {})[slot] = float(probability)
    tables = {cls: estimated.get(cls) or table for cls, table in hand_slots().items()}
    if estimated.get("v"):  # the weights give the persons their ratio already
        tables["v"] = _participle_vocatives_capped(_passive_persons_capped(tables["v"]), tables["n"])
    return tables


_PARTICIPLE_VOCATIVE = re.compile(r"^([a-z ]+participle|gerundive), vocative (singular|dual|plural)$")


def _participle_vocatives_capped(table: dict[str, float], nominal: dict[str, float]) -> dict[str, float]:
    """A participle's vocative at most as common beside its nominative as a noun's vocative is beside the
    noun's nominative (a participle, an adjective, is addressed no more often than a noun): the estimate
    from the Bhāgavatam cannot tell the vocative of a present participle in -an (rājan as rāj's) from the
    vocative of the -an stems it is written like (rājan, the Bhāgavatam's address to Parīkṣit), and credits
    the participle with nearly a noun's share of vocatives."""
    capped = dict(table)
    for slot, probability in table.items():
        match = _PARTICIPLE_VOCATIVE.match(slot)
        nominative = match and table.get(f"{match[1]}, nominative {match[2]}")
        noun_nominative = match and nominal.get(f"nominative {match[2]}")
        if match and nominative and noun_nominative:
            ratio = nominal.get(f"vocative {match[2]}", 0.0) / noun_nominative
            capped[slot] = min(probability, nominative * ratio)
    return capped


_PASSIVE_PERSON = re.compile(r"^(passive [a-z]+) (1st|2nd) (singular|dual|plural)$")


def _passive_persons_capped(table: dict[str, float]) -> dict[str, float]:
    """The passive's 1st and 2nd persons at most the share the rough weights give them beside its 3rd
    person (exp of _PERSON): real text's passive is the 3rd person's (the DCS windows counted have 9
    passive forms, every one 3rd person: kriyate, dṛśyate, rakṣyante), but the estimate from the
    Bhāgavatam cannot tell a passive 1st singular in -ye (japye) from the cases in -e it shares its form
    with (japye: japya's nominative dual or locative), and credits it with more than the 3rd singular."""
    capped = dict(table)
    for slot, probability in table.items():
        match = _PASSIVE_PERSON.match(slot)
        third = match and table.get(f"{match[1]} 3rd {match[3]}")
        if match and third:
            capped[slot] = min(probability, third * math.exp(_PERSON[match[2]]))
    return capped


def slot_log_probability(grammars: list[str] | tuple[str, ...], cls: str) -> float:
    """log P(the form | its lemma) from its slots (a form may fill several: nominative and accusative),
    in the lemma's class."""
    if cls == "i" or not grammars:
        return 0.0
    return _slot_log_probability(tuple(grammars), cls)


@lru_cache(maxsize=16384)  # a few thousand combinations of slots recur across every word a search tests
def _slot_log_probability(grammars: tuple[str, ...], cls: str) -> float:
    table = slot_probabilities()[cls]
    floor = SLOT_FLOOR
    return math.log(sum(table.get(slot_key(grammar), floor) for grammar in dict.fromkeys(grammars)))


SLOT_FLOOR = 1e-5
NUMBERS = ("singular", "dual", "plural")


def case_log_probability(grammars: list[str] | tuple[str, ...], cls: str) -> float:
    """log P(the form | its lemma) from its cases alone, each case's share summed over the three numbers:
    for a word whose number its meaning fixes (dvi dual, tri and the numerals after it plural; 1.4.21-22
    bahuṣu bahuvacanam, dvyekayor dvivacanaikavacane), which number it takes is no choice a text makes."""
    if cls == "i" or not grammars:
        return 0.0
    table = slot_probabilities()[cls]
    cases = dict.fromkeys(slot_key(grammar).split(" ")[0] for grammar in grammars)
    return math.log(sum(table.get(f"{case} {number}", SLOT_FLOOR) for case in cases for number in NUMBERS))
