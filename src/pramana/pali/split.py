"""Splitting words written without a mark: compounds, particles and sandhi, as DPD's deconstructor does.

A word DPD does not list whole (`rūpañca`, `tenupasaṅkami`, `kulesvananugiddho`) is tried at every
letter: joined as it stands (a compound's members, or a word before a consonant: `saccaṃ + ca`), by
DPD's sandhi rules for the two letters around the place (`ñ|c` was `ṃ + c`, `v|a` was `u + a`,
`ī|t` was `i + it`), and with a sandhi consonant between two words (`mā + y + āyusā`). A split is
kept only when every part is a word DPD knows. The search runs in rounds (one more part a round), each
round asking the store about every new form of the whole sentence at once, and is bounded: at most
MAX_PARTS parts and MAX_STATES open splits a word, so a long word costs a few hundred look-ups.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from pramana import work
from pramana.pali.sandhi import SandhiRules

# Sandhi consonants DPD writes as a part of their own between two words ("m + anubrūhaye"): they
# avoid a hiatus (mā + y + āyusā, idha + m + āhu) and are not words.
CONNECTORS = frozenset("mdryv")
VOWELS = frozenset("aāiīuūeo")
MAX_PARTS = 4
MAX_STATES = 60  # open (unfinished) splits kept a word each round, cheapest first
MAX_FOUND = 12  # complete splits kept a word
MIN_WORD = 4  # shorter words are not split (ca, me, pana): DPD lists them all
PLAIN_COST = 1  # joined as written: compound members, a word before a consonant-initial word
CONNECTOR_COST = 3  # inside a word
LEADING_CONNECTOR_COST = 3  # written on this word: the last letter of the word before (m + āyusā)
# Particles whose vowel verse lengthens at the end of a word (pupphamivā: pupphaṃ + iva), read short
# where the long form is no word of its own (vā is "or", not va lengthened).
LENGTHENED_PARTICLES = {"ivā": "iva", "cā": "ca", "pī": "pi", "hī": "hi", "evā": "eva"}
LENGTHENED_COST = 2


class Junction(NamedTuple):
    first: str
    rest: str
    connector: str  # "" or the sandhi consonant written between the two
    cost: int


@dataclass(frozen=True)
class Found:
    """A complete split: its parts (connectors included, as DPD writes them) and its junctions' cost."""

    parts: tuple[str, ...]
    cost: int
    connectors: frozenset[int] = field(default_factory=frozenset)  # indexes of connector parts

    @property
    def words(self) -> list[str]:
        return [p for i, p in enumerate(self.parts) if i not in self.connectors]


@functools.lru_cache(maxsize=1_024)
def junctions(word: str, rules: SandhiRules) -> tuple[Junction, ...]:
    """Every (first word, remainder) a place in `word` may hide, cheapest first (remembered a while:
    the remainders of one word's splits recur, and so do a sentence's particles)."""
    best: dict[tuple[str, str, str], int] = {}

    def add(first: str, rest: str, connector: str, cost: int) -> None:
        if len(first) > 1 and len(rest) > 1:  # one-letter words (a, ā, i) are prefixes and letters here
            key = (first, rest, connector)
            best[key] = min(cost, best.get(key, cost))

    for index in range(1, len(word)):
        left, right = word[:index], word[index:]
        add(left, right, "", PLAIN_COST)
        for rule in rules.matching(left, right):
            first = left[: len(left) - len(rule.left_end)] + rule.left_was
            changed = rule.left_was != rule.left_end  # a restoration that keeps the letters is likelier
            add(first, rule.right_was + right[len(rule.right_start) :], "", rule.weight - 1 + changed)
        if left[-1] in VOWELS and right[0] in CONNECTORS and len(right) > 1 and right[1] in VOWELS:
            add(left, right[1:], right[0], CONNECTOR_COST)
    return tuple(Junction(*key, cost) for key, cost in sorted(best.items(), key=lambda kv: kv[1]))


@dataclass
class _State:
    word: str
    parts: tuple[str, ...]
    connectors: frozenset[int]
    cost: int
    remainder: str


def search(
    words: Iterable[str],
    rules: SandhiRules,
    known: Callable[[set[str]], set[str]],
    excluded: frozenset[str] = frozenset(),
) -> dict[str, list[Found]]:
    """Splits of each word whose every part `known` accepts (it is asked about a set of forms a round)."""
    found: dict[str, list[Found]] = {}
    states = [_State(w, (), frozenset(), 0, w) for w in dict.fromkeys(words) if len(w) >= MIN_WORD]
    # The sandhi consonant of the word before, written on this one: māyusā is m + āyusā.
    states += [
        _State(s.word, (s.word[0],), frozenset({0}), LEADING_CONNECTOR_COST, s.word[1:])
        for s in list(states)
        if s.word[0] in CONNECTORS and s.word[1] in VOWELS
    ]
    checked: dict[str, bool] = {}
    for _round in range(MAX_PARTS):
        if not states:
            break
        work.check("splitting words written without a mark")
        options = {remainder: junctions(remainder, rules) for remainder in {s.remainder for s in states}}
        wanted = {s.remainder for s in states if s.parts} | {j.first for js in options.values() for j in js}
        wanted |= {LENGTHENED_PARTICLES[s.remainder] for s in states if s.remainder in LENGTHENED_PARTICLES}
        wanted -= checked.keys()
        answered = known(wanted) if wanted else set()
        checked.update((form, form in answered) for form in wanted)
        usable = {form for form, ok in checked.items() if ok and form not in excluded}
        following: list[_State] = []
        for state in states:
            if state.parts and state.remainder in usable:
                found.setdefault(state.word, []).append(
                    Found((*state.parts, state.remainder), state.cost, state.connectors)
                )
            elif state.parts and LENGTHENED_PARTICLES.get(state.remainder) in usable:
                short = LENGTHENED_PARTICLES[state.remainder]
                found.setdefault(state.word, []).append(
                    Found((*state.parts, short), state.cost + LENGTHENED_COST, state.connectors)
                )
            if len(state.parts) + 1 >= MAX_PARTS:
                continue
            for junction in options[state.remainder]:
                if junction.first not in usable:
                    continue
                parts = (*state.parts, junction.first)
                connectors = state.connectors
                if junction.connector:
                    connectors = connectors | {len(parts)}
                    parts = (*parts, junction.connector)
                cost = state.cost + junction.cost
                following.append(_State(state.word, parts, connectors, cost, junction.rest))
        states = _cheapest(following)
    return {word: sorted(splits, key=_order)[:MAX_FOUND] for word, splits in found.items()}


def _order(split: Found) -> tuple[int, int]:
    return len(split.words), split.cost


def _cheapest(states: list[_State]) -> list[_State]:
    by_word: dict[str, list[_State]] = {}
    for state in states:
        by_word.setdefault(state.word, []).append(state)
    kept = []
    for group in by_word.values():
        group.sort(key=lambda s: (len(s.parts), s.cost, -len(s.parts[-1])))
        kept.extend(group[:MAX_STATES])
    return kept
