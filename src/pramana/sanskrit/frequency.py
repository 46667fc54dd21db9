"""How common a lemma and a grammatical slot are in real text, for ranking readings.

`data/frequencies.tsv` holds counts derived (see `benchmarks/sanskrit_frequencies.py`, which says from
what) and nothing else: lemma (SLP1) and count, one a line. The slot weights are log-odds of the
cases, numbers, persons and tenses in running text.
"""

from __future__ import annotations

import math
from functools import lru_cache
from pathlib import Path

FREQUENCIES = Path(__file__).with_name("data") / "frequencies.tsv"


@lru_cache(maxsize=1)
def _frequencies() -> dict[str, int]:
    if not FREQUENCIES.is_file():
        return {}
    counts = {}
    for line in FREQUENCIES.read_text("utf-8").splitlines():
        if line and not line.startswith("#"):
            lemma, _, count = line.partition("\t")
            counts[lemma] = int(count)
    return counts


def lemma_frequency(lemma: str) -> int:
    return _frequencies().get(lemma, 0)


@lru_cache(maxsize=1)
def total() -> int:
    """The counts' sum (a corpus of this many words); 200,000 when no counts are installed."""
    return sum(_frequencies().values()) or 200_000


def log_probability(lemma: str, articles: int, common: bool = False) -> float:
    """log P(lemma) in running text: from its count, else from its number of dictionary articles (a
    lemma the counts do not know is rarer than one they know once), a built-in common word higher."""
    count = lemma_frequency(lemma)
    if count:
        return math.log((count + 0.5) / total())
    guess = 0.3 * (1 + articles) * (8.0 if common else 1.0)
    return math.log(guess / total()) - 1.0


# Rough shares in epic and śāstra prose and verse (log-odds relative to the commonest).
_CASE = {"nominative": 0.0, "accusative": -0.3, "instrumental": -0.6, "dative": -1.4, "ablative": -1.1,
         "genitive": -0.5, "locative": -0.6, "vocative": -1.3}  # fmt: skip
_NUMBER = {"singular": 0.0, "plural": -0.5, "dual": -1.5}
_PERSON = {"3rd": 0.0, "2nd": -0.8, "1st": -0.8}
_TENSE = {
    "present": 0.0, "imperfect": -0.4, "imperative": -0.5, "optative": -0.4, "future": -0.8, "perfect": -0.4,
    "aorist": -1.5, "conditional": -2.5, "passive present": -0.5, "passive imperfect": -1.5,
    "passive imperative": -1.0, "passive optative": -1.2, "gerund": 0.0, "gerund (after a preverb)": 0.0,
    "infinitive": -0.2,
}  # fmt: skip


# A participle's kind: the past participle is everywhere, the gerundive and the rest rarer.
_PARTICIPLE = {"past participle": 0.0, "present participle": -0.3, "gerundive": -1.0,
               "past active participle": -1.5, "present passive participle": -1.0}  # fmt: skip


@lru_cache(maxsize=4096)
def slot_weight(grammar: str) -> float:
    """'instrumental singular', 'participle, genitive plural (m.)', 'causative present 3rd singular'."""
    text = grammar.split(", ")[-1].split(" (")[0]
    words = text.split()
    weight = _PARTICIPLE.get(grammar.split(", ")[0], 0.0) if ", " in grammar else 0.0
    if words and words[0] == "causative":
        weight -= 0.7
        words = words[1:]
    if len(words) >= 2 and words[0] in _CASE:
        return weight + _CASE[words[0]] + _NUMBER.get(words[1], 0.0)
    if len(words) >= 2 and words[-2] in _PERSON:
        tense = " ".join(words[:-2])
        return weight + _TENSE.get(tense, -1.0) + _PERSON[words[-2]] + _NUMBER.get(words[-1], 0.0)
    return weight + _TENSE.get(" ".join(words), 0.0)


def log_count(count: int) -> float:
    return math.log(count) if count > 0 else 0.0
