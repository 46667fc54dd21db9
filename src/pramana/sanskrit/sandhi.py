"""Splitting a group of words that external sandhi wrote as one (`tasyAham`, `cEva`, `nAsti`, `yo'yam`)
by undoing the common rules at each junction, keeping the splits whose every part is a known word.

vidyut ships `vidyut.sandhi.Splitter`, but only with a rules CSV its package does not carry (it would
have to be downloaded); the rules below are the few a reader meets most, in SLP1.

A junction is undone into (left word, right word): the left word's final sound and the right word's
first as they were before sandhi. Each part is also read with its end-of-phrase final (`pausa_readings`:
`tayor` → tayoH), so a part may end as it was written before the next word.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from pramana import work
from pramana.sanskrit.forms import pausa_readings

VOWELS = frozenset("aAiIuUfFxXeEoO")
# The sounds a word may end in at the end of a phrase; a part ending otherwise (`yaj` of yajjYAtvA, a
# root) is no word as written, only maybe through its end-of-phrase final.
PAUSA_FINALS = VOWELS | frozenset("kwtpNRnmH")
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
# Consonants: a final t assimilates (yaj jYAtvA, tac ca, tan mayaH, tal laBate, tac CrutvA = tat
# SrutvA), a final n doubles before a vowel (viSIdann idam) or becomes MS/Ms before c/t (tAMs tAn),
# a visarga becomes z before w.
CONSONANT_JOINS: dict[str, list[tuple[str, str]]] = {
    "j": [("t", "")], "c": [("t", "")], "n": [("t", "")], "l": [("t", "")], "N": [("k", "")],
    "cC": [("t", "S")], "dD": [("t", "h")], "gG": [("k", "h")],
    "MS": [("n", "")], "Ms": [("n", "")], "Mz": [("n", "")], "z": [("H", "")],
}  # fmt: skip
DOUBLED_BEFORE_VOWEL = ("nn", "NN")
AVAGRAHA = "'"  # yo'yam = yaH ayam, te'dya = te adya: the right word's a is elided
MIN_PART = 2  # letters: no Sanskrit word of one letter is worth a split (`a`, `A`, `u` would split anything)
MAX_SPLIT_CHARS = 48  # SLP1 letters; a longer group is not split (the Gītā's longest is 22)
MAX_PARTS = 3
MAX_EXTENDED = 16  # known first words whose rest is split again for three parts
MAX_SPLITS = 3  # splits returned

Part = str  # SLP1, its final and initial restored
Known = Callable[[set[str]], set[str]]  # of the keys given, those that are forms or headwords


@dataclass(frozen=True)
class Split:
    parts: tuple[Part, ...]
    by_pausa: int  # parts known only through their end-of-phrase final (`tayor` as tayoH)


def part_readings(part: Part) -> list[str]:
    """The keys a part may be known under: as restored, and with its end-of-phrase final."""
    return [part, *pausa_readings(part)]


def junctions(word: str) -> Iterator[tuple[Part, Part]]:
    """Every (left, right) that undoing one junction of `word` gives, both at least MIN_PART long."""
    for i in range(MIN_PART, len(word) - MIN_PART + 1):
        yield word[:i], word[i:]  # no change, or only the left word's final (kept for `readings`)
    for i in range(1, len(word)):
        head = word[:i]
        for surface, joins in VOWEL_JOINS.items():
            if word.startswith(surface, i):
                tail = word[i + len(surface) :]
                yield from ((head + left, right + tail) for left, right in joins)
        for surface, finals in SEMIVOWELS.items():
            tail = word[i + len(surface) :]
            if word.startswith(surface, i) and tail[:1] in VOWELS:
                yield from ((head + final, tail) for final in finals)
        for surface, joins in CONSONANT_JOINS.items():
            if word.startswith(surface, i):
                tail = word[i + len(surface) :]
                yield from ((head + left, right + tail) for left, right in joins)
        if word.startswith(DOUBLED_BEFORE_VOWEL, i) and word[i + 2 : i + 3] in VOWELS:
            yield word[: i + 1], word[i + 2 :]
        if word[i] == AVAGRAHA:
            yield head, "a" + word[i + 1 :]


def _usable(pairs: Iterable[tuple[Part, Part]]) -> list[tuple[Part, Part]]:
    seen = dict.fromkeys(
        (left, right) for left, right in pairs if len(left) >= MIN_PART and len(right) >= MIN_PART
    )
    return [pair for pair in seen if AVAGRAHA not in pair[0] + pair[1]]


def _known_part(part: Part, known: set[str]) -> int | None:
    """0 when `part` is known as it is, 1 when only through its end-of-phrase final, None if unknown."""
    if part in known and part[-1] in PAUSA_FINALS:
        return 0
    return 1 if any(key in known for key in pausa_readings(part)) else None


def _ask(pairs: list[tuple[Part, Part]], known: Known) -> set[str]:
    keys = {key for pair in pairs for part in pair for key in part_readings(part)}
    work.check("splitting sandhi")
    return known(keys)


def split_sandhi(word: str, known: Known) -> list[Split]:
    """The ways of reading SLP1 `word` as two, or else three, known words, best first: fewer parts,
    fewer parts known only through their end-of-phrase final, a longer shortest part."""
    if len(word) > MAX_SPLIT_CHARS:
        return []
    pairs = _usable(junctions(word))
    found = _ask(pairs, known)
    splits: dict[tuple[Part, ...], Split] = {}
    extend: list[tuple[Part, Part, int]] = []  # (known first word, the rest, its by_pausa)
    for left, right in pairs:
        left_pausa, right_pausa = _known_part(left, found), _known_part(right, found)
        if left_pausa is not None and right_pausa is not None:
            splits.setdefault((left, right), Split((left, right), left_pausa + right_pausa))
        elif left_pausa is not None and len(right) >= 2 * MIN_PART:
            extend.append((left, right, left_pausa))
    if not splits and MAX_PARTS >= 3:
        splits = _three_parts(extend, known)
    return sorted(splits.values(), key=_rank)[:MAX_SPLITS]


def _three_parts(extend: list[tuple[Part, Part, int]], known: Known) -> dict[tuple[Part, ...], Split]:
    """Split the rest after the longest known first words once more."""
    extend = sorted(extend, key=lambda known_first: -len(known_first[0]))[:MAX_EXTENDED]
    nested = [(first, first_pausa, _usable(junctions(rest))) for first, rest, first_pausa in extend]
    found = _ask([pair for _, _, pairs in nested for pair in pairs], known)
    splits: dict[tuple[Part, ...], Split] = {}
    for first, first_pausa, pairs in nested:
        for middle, last in pairs:
            middle_pausa, last_pausa = _known_part(middle, found), _known_part(last, found)
            if middle_pausa is not None and last_pausa is not None:
                parts = (first, middle, last)
                splits.setdefault(parts, Split(parts, first_pausa + middle_pausa + last_pausa))
    return splits


def _rank(split: Split) -> tuple[int, int, int]:
    """Ties keep the order of the rules, the commoner join first (cEva: ca eva before ca Eva)."""
    return len(split.parts), split.by_pausa, -min(map(len, split.parts))
