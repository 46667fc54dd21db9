"""Splitting a compound or a group of words that sandhi wrote as one (`tasyAham`, `cEva`, `nAsti`,
`yo'yam`, `rAjaputreRa`) into known parts, by undoing the common rules at each junction.

vidyut ships `vidyut.sandhi.Splitter`, but only with a rules CSV its package does not carry (it would
have to be downloaded); the rules below are the ones a reader meets most, in SLP1.

A junction is undone into (left part, right part): the left part's final sound and the right part's
first as they were before sandhi. Whether a part is known (a compound's member, or a word, its
end-of-phrase final restored: `tayor` as tayoH) the caller says (`analysis.PartTests`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

from pramana import work

VOWELS = frozenset("aAiIuUfFxXeEoO")
# What a junction written as `surface` may stand for: (left word's final, right word's initial).
VOWEL_JOINS: dict[str, list[tuple[str, str]]] = {
    "A": [("a", "a"), ("a", "A"), ("A", "a"), ("A", "A")],  # tasyAham = tasya aham
    "I": [("i", "i"), ("i", "I"), ("I", "i"), ("I", "I")],
    "U": [("u", "u"), ("u", "U"), ("U", "u"), ("U", "U")],
    "F": [("f", "f")],
    "e": [("a", "i"), ("a", "I"), ("A", "i"), ("A", "I")],  # neha = na iha
    "o": [("a", "u"), ("a", "U"), ("A", "u"), ("A", "U")],  # nodvijet = na udvijet
    "E": [("a", "e"), ("A", "e"), ("a", "E"), ("A", "E")],  # cEva = ca eva
    "O": [("a", "o"), ("A", "o"), ("a", "O"), ("A", "O")],
    "ar": [("a", "f"), ("A", "f")],
}
# Before a vowel: a final i/u/ṛ becomes its semivowel (hyavaSaH = hi avaSaH), E/O become Ay/Av.
SEMIVOWELS: dict[str, list[str]] = {
    "y": ["i", "I"], "v": ["u", "U"], "r": ["f", "F"], "Ay": ["E"], "Av": ["O"],
}  # fmt: skip
# Consonants: a final t assimilates (yaj jYAtvA, tac ca, tan mayaH, tal laBate), before S too, and the S
# becomes C (tac CrutvA = tat SrutvA; so after n, and k, w, p: bfhaY CezaH = bfhan SezaH; Whitney §203),
# a final n doubles before a vowel (viSIdann idam) or becomes MS/Ms before c/t (tAMs tAn) and a nasalised l
# before l (pumAMl loke = pumAn loke, Whitney §161), a visarga becomes z before w.
CONSONANT_JOINS: dict[str, list[tuple[str, str]]] = {
    "j": [("t", "")], "c": [("t", "")], "n": [("t", "")], "l": [("t", "")], "N": [("k", "")],
    "cC": [("t", "S")], "YC": [("n", "S")], "kC": [("k", "S")], "wC": [("w", "S")], "pC": [("p", "S")],
    "dD": [("t", "h")], "gG": [("k", "h")],
    "MS": [("n", "")], "Ms": [("n", "")], "Mz": [("n", "")], "z": [("H", "")],
    "Ml": [("n", "")],
}  # fmt: skip
DOUBLED_BEFORE_VOWEL = ("nn", "NN")
AVAGRAHA = "'"  # yo'yam = yaH ayam, te'dya = te adya: the right word's a is elided
MIN_PART = 2  # letters: no Sanskrit word of one letter is worth a split (`a`, `A`, `u` would split anything)
MAX_SPLIT_CHARS = 48  # SLP1 letters; a longer group is not split (the Gītā's longest is 22)
MAX_PARTS = 8
MAX_SPLITS = 3  # splits returned by the service
MAX_SEGMENTS = 8  # splits the segmenter offers it to analyse and rank
CHANGED_JUNCTION = 0.3  # a junction that changed sounds (rāja + patham as rāj + apatham) costs a little more

Part = str  # SLP1, its final and initial restored


def junctions(word: str) -> Iterator[tuple[Part, Part]]:
    """Every (left, right) that undoing one junction of `word` gives, both at least MIN_PART long."""
    for i in range(MIN_PART, len(word) - MIN_PART + 1):
        if word[i - 1] in "aA" and word[i] in VOWELS:
            continue  # a final a or ā before a vowel always joins with it (cEva is ca eva, never ca iva)
        yield word[:i], word[i:]  # no change, or only the left word's final (kept for `readings`)
    for i in range(1, len(word)):
        head = word[:i]
        for surface, kind, undone in _RULES_BY_LETTER.get(word[i], ()):
            if not word.startswith(surface, i):
                continue
            tail = word[i + len(surface) :]
            if kind == _JOIN:  # the left word's final and the right word's initial restored
                yield from ((head + left, right + tail) for left, right in undone)
            elif kind == _SEMIVOWEL:
                if tail[:1] in VOWELS:
                    yield from ((head + final, tail) for final, _ in undone)
            elif kind == _DOUBLED:
                if tail[:1] in VOWELS:
                    yield word[: i + 1], tail
            else:
                yield head, "a" + tail


# The rules junctions() tries at a letter, by that letter, in the order it yields them (vowels, semivowels,
# consonants, a doubled nasal, the avagraha): one dict lookup a letter instead of every rule's test.
_JOIN, _SEMIVOWEL, _DOUBLED, _AVAGRAHA = range(4)


def _rules_by_letter() -> dict[str, list[tuple[str, int, list[tuple[str, str]]]]]:
    rules: list[tuple[str, int, list[tuple[str, str]]]] = [
        *((surface, _JOIN, joins) for surface, joins in VOWEL_JOINS.items()),
        *((surface, _SEMIVOWEL, [(final, "") for final in finals]) for surface, finals in SEMIVOWELS.items()),
        *((surface, _JOIN, joins) for surface, joins in CONSONANT_JOINS.items()),
        *((surface, _DOUBLED, []) for surface in DOUBLED_BEFORE_VOWEL),
        (AVAGRAHA, _AVAGRAHA, []),
    ]
    by_letter: dict[str, list[tuple[str, int, list[tuple[str, str]]]]] = {}
    for rule in rules:
        by_letter.setdefault(rule[0][0], []).append(rule)
    return by_letter


_RULES_BY_LETTER = _rules_by_letter()


@lru_cache(maxsize=16384)
def usable_junctions(word: str) -> tuple[tuple[Part, Part], ...]:
    """`junctions(word)` without duplicates, parts too short or an avagraha left in; the same string is
    reached at several depths of one search and by several searches."""
    seen = dict.fromkeys(
        (left, right) for left, right in junctions(word) if len(left) >= MIN_PART and len(right) >= MIN_PART
    )
    return tuple(pair for pair in seen if AVAGRAHA not in pair[0] + pair[1])


@dataclass(frozen=True)
class Split:
    parts: tuple[Part, ...]
    members: tuple[bool, ...]  # True: a compound's member (a stem), False: a word of its own
    score: float


# How a split is scored before its parts are analysed (the parts' own scores say how likely they are):
# each junction costs.
JUNCTION_COST = 2.0
LIKELY_MEMBER = float(os.environ.get("PRAMANA_LIKELY_MEMBER", "-9.0"))
LETTER_WEIGHT = float(os.environ.get("PRAMANA_LETTER_WEIGHT", "2.0"))


class Segmenter:
    """Splits a compound or a group of words sandhi joined into known parts: compound members (stems,
    in their combining forms: rāja for rājan, mahā for mahat, mano for manas) and words. A bounded
    search from the left: at each point the junctions undone, the known parts kept (the longest
    first, at most `BEAM`), the rest split again, up to `MAX_PARTS` parts and `BUDGET` part tests."""

    BEAM: ClassVar[int] = int(os.environ.get("PRAMANA_SPLIT_BEAM", "4"))
    # 400 part tests: the longest groups (30-40 letters) in about 15 ms of CPU; 800 read 3 more of the
    # dev sets' 333 multi-word tokens for twice that (benchmarks/sanskrit_text.py, docs/benchmarks.md)
    BUDGET: ClassVar[int] = int(os.environ.get("PRAMANA_SPLIT_BUDGET", "400"))

    def __init__(self, member: Callable[[Part], float | None], word: Callable[[Part], float | None]):
        self._member = member  # a compound member's score, None if it is none
        self._word = word  # a word's score, None if it is no word
        self._tests = 0
        self._budget = self.BUDGET
        # the same first part is scored at many junctions of a search and by search after search
        self._left = lru_cache(maxsize=65536)(self._left_score)

    def _left_score(self, left: Part) -> tuple[float, bool] | None:
        """A first part's score and whether it is a member, None if it is neither; a likely member is
        not tested as a word too (but a short one may be a word: ca, iti)."""
        member = self._member(left)
        word = self._word(left) if member is None or member < LIKELY_MEMBER or len(left) <= 4 else None
        if member is None and word is None:
            return None
        return max((member or -99.0, True), (word or -99.0, False))

    @property
    def exhausted(self) -> bool:
        """Whether the last `split` stopped at its budget (a larger one might find more)."""
        return self._tests >= self._budget

    def split(self, word: str, budget: int | None = None) -> list[Split]:
        """The likeliest splits of `word`, after at most `budget` part tests (BUDGET by default)."""
        if len(word) > MAX_SPLIT_CHARS:
            return []
        self._budget = budget or self.BUDGET
        if word.startswith(AVAGRAHA):  # 'pyabravīt: the group's first word lost its initial a
            word = "a" + word[1:]
        self._tests = 0
        memo: dict[tuple[str, int], list[Split]] = {}
        found = [s for s in self._splits(word, 0, memo) if len(s.parts) > 1]
        for negative in ("an", "a"):  # a-saṃmataḥ, an-anta: the negative prefix (too short for a part)
            rest = word[len(negative) :]
            if word.startswith(negative) and len(rest) >= 3 and (negative == "a" or rest[0] in VOWELS):
                score = self._word(rest)
                if score is not None:
                    found.append(Split((negative, rest), (True, False), score - JUNCTION_COST))
        if not found and AVAGRAHA in word[1:]:
            found = self._at_avagraha(word, budget)
        found.sort(key=lambda split: -split.score)
        return found[:MAX_SEGMENTS]

    def _at_avagraha(self, word: str, budget: int | None) -> list[Split]:
        """A group with an avagraha inside that the search over the whole did not split (indriyaghātān-mano
        'navasthānāt: manaḥ/mano + anavasthānāt, the right word's a elided after o or e): the two sides
        split on their own, the right one with its a restored, and joined at the avagraha."""
        left, right = word.split(AVAGRAHA, 1)
        sides: list[Split] = []
        for side in (left, "a" + right):
            best = self.split(side, budget)[:1]
            score = None if best else self._word(side)
            if not best and score is None:
                return []
            sides.append(best[0] if best else Split((side,), (False,), score or 0.0))
        members = (*sides[0].members[:-1], False, *sides[1].members)
        score = sides[0].score + sides[1].score - JUNCTION_COST
        return [Split(sides[0].parts + sides[1].parts, members, score)]

    def _splits(self, rest: str, depth: int, memo: dict[tuple[str, int], list[Split]]) -> list[Split]:
        key = (rest, depth)
        if key in memo:
            return memo[key]
        memo[key] = []
        # (score, first part, whether a member, the split of the rest): a Split is made only for the
        # BEAM kept, of the dozens a long group's search scores here
        results: list[tuple[float, str, bool, Split | None]] = []
        whole = self._word(rest)
        if whole is not None:
            results.append((whole, rest, False, None))
        if depth + 1 < MAX_PARTS and self._tests < self._budget:
            lefts: dict[tuple[str, str], tuple[float, bool]] = {}
            # once a point of the search: its first parts' tests take microseconds (remembered) to a
            # few milliseconds (first seen), well within a deadline's grain
            work.check("splitting sandhi")
            junctions = usable_junctions(rest)
            self._tests += len(junctions)
            for left, right in junctions:
                scored = self._left(left)
                if scored is None:
                    continue
                best, is_member = scored
                if left + right != rest:
                    best -= CHANGED_JUNCTION
                lefts[left, right] = (best, is_member)
            # the likeliest first parts, a longer one preferred (it leaves less to explain)
            ranked = sorted(lefts.items(), key=lambda item: -(item[1][0] + LETTER_WEIGHT * len(item[0][0])))
            fruitful: set[str] = set()  # known first parts whose rest could be split: at most BEAM of them
            for (left, right), (score, is_member) in ranked:
                if len(fruitful) >= self.BEAM and left not in fruitful:
                    continue  # the other junctions of a first part taken are tried too (sa + iva, sa + īva)
                tails = self._splits(right, depth + 1, memo)[: self.BEAM]
                if tails:
                    fruitful.add(left)
                for tail in tails:
                    results.append((score + tail.score - JUNCTION_COST, left, is_member, tail))
        results.sort(key=lambda result: -result[0])  # stable: equal scores keep the order found
        memo[key] = [
            Split((first,), (is_member,), score)
            if tail is None
            else Split((first, *tail.parts), (is_member, *tail.members), score)
            for score, first, is_member, tail in results[: self.BEAM]
        ]
        return memo[key]
