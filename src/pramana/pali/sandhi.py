"""Reading a Pāḷi sentence into lookup keys, and undoing the elisions its apostrophes mark.

Punctuation becomes a space, never nothing: in `“bhikkhavo”ti` the quote ends one word and `ti`
(iti) is the next, so deleting the quote would give `bhikkhavoti`, which is not a form DPD knows.
An apostrophe between two letters is different: it marks an elided vowel or niggahita (`n'atthi`,
`saṃkhittena'pi`), so it is kept, and the token is tried joined (`natthi`) and split (`na + atthi`).
"""

from __future__ import annotations

import csv
import re
import unicodedata
from collections import deque
from collections.abc import Callable, Collection, Container, Iterable, Iterator
from dataclasses import dataclass
from itertools import islice
from pathlib import Path

from pramana import work

APOSTROPHES = "'’‘`´ʼ"
# Marks that join two words when written between letters: apostrophes, closing quotes and brackets.
_JOINING_MARKS = APOSTROPHES + '"”»›)]}'
# The letters DPD's sandhi rules restore at a split marked by an apostrophe, beyond its rules table:
# an elided initial a/i/e of the second word (pi -> api, ti -> iti, va -> eva) and a final niggahita
# written m or n before it (mattam'pi, vimuccitun'ti), or an elided final a of the first (ten'upa...).
_RIGHT_RESTORE = ("", "a", "i", "e")
_LEFT_RESTORE = {"m": ("ṃ",), "n": ("ṃ", "na"), "": ("a", "ā", "o", "e")}
MAX_SPLITS = 4  # splits shown per token: the likeliest restorations (rules first), not every one
# (first word, remainder) candidates built per token. An elision offers about 20-80 of them and real
# tokens have one to four elisions; the cap stops a token of hundreds of apostrophes (a sentence is
# 10,000 characters) from spending more than a dozen elisions' worth of work.
MAX_CANDIDATES = 1_000


@dataclass(frozen=True)
class SandhiRule:
    left_end: str  # chA: the last letter before the apostrophe
    right_start: str  # chB: the first letter after it
    left_was: str  # ch1: what the first word ended with
    right_was: str  # ch2: what the second word began with
    weight: int = 3  # DPD's weight: 3 for most rules, 4 for rarer ones, 2 for the likeliest


class SandhiRules:
    """DPD's rules, found by the letters around an apostrophe (not by trying all 600 on each)."""

    def __init__(self, rules: Iterable[SandhiRule] = ()):
        self.rules = tuple(rules)
        self._by_letters: dict[tuple[str, str], list[int]] = {}
        for index, rule in enumerate(self.rules):
            self._by_letters.setdefault((rule.left_end, rule.right_start), []).append(index)
        self._lengths = {(len(rule.left_end), len(rule.right_start)) for rule in self.rules}

    def __len__(self) -> int:
        return len(self.rules)

    def matching(self, left: str, right: str) -> list[SandhiRule]:
        """The rules whose letters end `left` and start `right`, in the table's order."""
        found = []
        for left_length, right_length in self._lengths:
            if left_length <= len(left) and right_length <= len(right):
                letters = (left[len(left) - left_length :], right[:right_length])
                found.extend(self._by_letters.get(letters, ()))
        return [self.rules[index] for index in sorted(found)]


def tokens(sentence: str) -> list[str]:
    """Lowercase tokens; punctuation, digits and symbols are spaces; word-internal apostrophes kept as '.

    Closing quotes and brackets written between two letters (`lokasmin”ti`, `vuttan”ti`, `hotī’”ti`)
    stand where the words were joined: the quote closes the speech and `ti` (iti) is joined to its last
    word, whose ending is the sandhi form (lokasmin, not lokasmiṃ). They are read as one elision mark,
    so the token is looked up joined (lokasminti) and split (lokasmiṃ + iti).
    """
    text = unicodedata.normalize("NFC", sentence).lower().replace("ṁ", "ṃ")
    out = []
    index = 0
    while index < len(text):
        char = text[index]
        if unicodedata.category(char)[0] in "LM":
            out.append(char)
            index += 1
            continue
        end = index
        while end < len(text) and text[end] in _JOINING_MARKS:
            end += 1
        if end > index and _letter(text, index - 1) and _letter(text, end):
            out.append("'")
            index = end
            continue
        out.append(" ")
        index += 1
    return "".join(out).split()


_CLAUSE_END = re.compile(r"[,;:.?!—–…|।॥]+")


def clauses(sentence: str) -> list[int]:
    """The clause each of `tokens(sentence)` belongs to (0, 1, …): a comma, semicolon, colon, full
    stop, question or exclamation mark, dash or daṇḍa ends one. Words agree within a clause."""
    numbers = []
    for number, piece in enumerate(_CLAUSE_END.split(sentence)):
        numbers += [number] * len(tokens(piece))
    return numbers


def _letter(text: str, index: int) -> bool:
    return 0 <= index < len(text) and unicodedata.category(text[index])[0] in "LM"


# The nasal each stop takes before it (a vagga's own nasal): ṃ before k is ṅ in another edition.
_NASAL_OF = {**dict.fromkeys("kg", "ṅ"), **dict.fromkeys("cj", "ñ"), **dict.fromkeys("ṭḍ", "ṇ"),
             **dict.fromkeys("td", "n"), **dict.fromkeys("pb", "m")}  # fmt: skip
_NIGGAHITA_BEFORE_STOP = re.compile("ṃ(?=[kgcjṭḍtdpb])")
_NASAL_BEFORE_STOP = re.compile("ṅ(?=[kg])|ñ(?=[cj])|ṇ(?=[ṭḍ])|n(?=[td])|m(?=[pb])")


def nasal_variant(word: str) -> str | None:
    """The word with its other spelling of a nasal before a stop: ṃ as the stop's own nasal
    (akathaṃkathī -> akathaṅkathī, saṃgha -> saṅgha), or if it has no ṃ there, such nasals as ṃ
    (saṅgha -> saṃgha); None if it has neither."""
    if _NIGGAHITA_BEFORE_STOP.search(word):
        return _NIGGAHITA_BEFORE_STOP.sub(lambda m: _NASAL_OF[word[m.end()]], word)
    if _NASAL_BEFORE_STOP.search(word):
        return _NASAL_BEFORE_STOP.sub("ṃ", word)
    return None


def read_rules(path: Path) -> list[SandhiRule]:
    """DPD's deconstructor rules (sandhi_rules.tsv: chA, chB, ch1, ch2)."""
    with path.open(encoding="utf-8", newline="") as handle:
        rows = csv.DictReader(handle, delimiter="\t")
        return [
            SandhiRule(r["chA"], r["chB"], r.get("ch1") or "", r.get("ch2") or "", _weight(r.get("weight")))
            for r in rows
            if r.get("chA") and r.get("chB")
        ]


def _weight(value: str | None) -> int:
    return int(value) if value and value.strip().isdigit() else 3


class Elisions:
    """The ways to undo a token's elisions, as a graph: each distinct remainder is split once.

    Splitting `a'b'c` at its first apostrophe gives (first word, remainder) candidates; the remainders
    only differ in the letters restored at the start of `b`, so each elision adds a handful of them
    (saṃkhittena'pi'ti'va'pi'ti: 21 remainders, 340 candidates). Listing every split (the paths
    through the graph) is exponential in the elisions; the graph is not. The splits wanted are read
    from it lazily, a branch whose first word the dictionary does not know never entered; the graph
    keeps those words all the same, for the best partial split when no split is wholly known.
    """

    def __init__(self, token: str, rules: SandhiRules, limit: int = MAX_CANDIDATES):
        self.token = token
        self.words: dict[str, str] = {}  # remainder that is a single word -> that word
        self.choices: dict[str, list[tuple[str, str]]] = {}  # remainder -> (first word, rest), best first
        self.explored = 0  # candidates built, at most `limit`
        self.truncated = False  # True when the cap left remainders unsplit (they yield no split)
        self._build(rules, limit)

    def _build(self, rules: SandhiRules, limit: int) -> None:
        queue = deque([self.token])  # breadth first: a cap cuts the last elisions, not the first
        while queue:
            remainder = queue.popleft()
            if remainder in self.words or remainder in self.choices:
                continue
            work.check("restoring the words an apostrophed token was made of")
            left, _, right = remainder.partition("'")
            if not right or not left:
                self.words[remainder] = remainder.replace("'", "")
                continue
            choices = _choices(left, right, rules)
            if self.explored + len(choices) > limit:
                self.truncated = True
                break
            self.explored += len(choices)
            self.choices[remainder] = choices
            queue.extend(rest for _, rest in choices)

    def forms(self) -> set[str]:
        """Every word some split holds: what to look up before asking for splits."""
        return {first for choices in self.choices.values() for first, _ in choices} | set(self.words.values())

    def splits(self, known: Container[str] | None = None) -> Iterator[list[str]]:
        """Splits whose every word is `known` (None: any), likeliest first: rules before restorations,
        and splits with a one-letter word last (dullabhā'ti is not dullabhā + i)."""
        is_known: Callable[[str], bool] = (lambda _: True) if known is None else known.__contains__
        reader = _Reader(self, is_known)
        yield from reader.walk(self.token, False)
        yield from reader.walk(self.token, True)

    def best_partial(self, known: Container[str], skip: Collection[str] = ()) -> list[str] | None:
        """The first split (in `splits` order) with the most known words, of two words or more and not
        in `skip` (splits written "a + b"); None when no word of any split is known."""
        scorer = _Scorer(self, known.__contains__, keep=len(skip) + 1)
        ranked = [
            (count, (group, *order), split)
            for group in (False, True)
            for count, order, split in scorer.best(self.token, group)
        ]
        for count, _, split in sorted(ranked, key=_rank):
            if count and len(split) > 1 and " + ".join(split) not in skip:
                return split
        return None


def apostrophe_splits(token: str, rules: Iterable[SandhiRule], limit: int = 1_000) -> list[list[str]]:
    """The first `limit` ways (likeliest first) to restore the words of an apostrophed token."""
    if "'" not in token:
        return [[token]]
    return list(islice(Elisions(token, SandhiRules(rules)).splits(), limit))


def _choices(left: str, right: str, rules: SandhiRules) -> list[tuple[str, str]]:
    """(first word, remainder) for the apostrophe between `left` and `right`: DPD's rules first."""
    pairs: dict[tuple[str, str], None] = {}
    for rule in rules.matching(left, right):
        first = left[: len(left) - len(rule.left_end)] + rule.left_was
        pairs[(first, rule.right_was + right[len(rule.right_start) :])] = None
    lefts = [
        left,
        *(left[:-1] + r for r in _LEFT_RESTORE.get(left[-1], ())),
        *(left + r for r in _LEFT_RESTORE[""]),
    ]
    for first in lefts:
        for restore in _RIGHT_RESTORE:
            pairs[(first, restore + right)] = None
    return [(first, rest) for first, rest in pairs if first and rest]


def _one_letter(word: str) -> bool:
    return len(word) == 1


def _tail_groups(first: str, with_one_letter: bool) -> tuple[bool, ...]:
    """Which groups of the remainder's splits continue `first` into a split of the wanted group."""
    if not with_one_letter:
        return () if _one_letter(first) else (False,)
    return (False, True) if _one_letter(first) else (True,)


class _Reader:
    """Splits of known words read from an Elisions graph, in order, skipping dead branches."""

    def __init__(self, graph: Elisions, is_known: Callable[[str], bool]):
        self.graph, self.is_known = graph, is_known
        self._live: dict[tuple[str, bool], bool] = {}

    def live(self, remainder: str, with_one_letter: bool) -> bool:
        """Whether `walk(remainder, with_one_letter)` yields anything."""
        key = (remainder, with_one_letter)
        if key not in self._live:
            self._live[key] = next(self.walk(remainder, with_one_letter), None) is not None
        return self._live[key]

    def walk(self, remainder: str, with_one_letter: bool) -> Iterator[list[str]]:
        """The remainder's splits of known words that have a one-letter word (or have none)."""
        word = self.graph.words.get(remainder)
        if word is not None:
            if _one_letter(word) == with_one_letter and self.is_known(word):
                yield [word]
            return
        for first, rest in self.graph.choices.get(remainder, ()):
            if not self.is_known(first):
                continue  # a split whose first word is unknown is never expanded
            for group in _tail_groups(first, with_one_letter):
                if self.live(rest, group):
                    for tail in self.walk(rest, group):
                        yield [first, *tail]


# (known words, where the split comes in `splits` order as (choice, group) steps, the split)
_Scored = tuple[int, tuple, list[str]]


def _rank(scored: _Scored) -> tuple[int, tuple]:
    return -scored[0], scored[1]


class _Scorer:
    """For each remainder, its `keep` splits with the most known words, the first on a tie (over all
    splits, known words or not). The best of a remainder continue the best of what it leaves."""

    def __init__(self, graph: Elisions, is_known: Callable[[str], bool], keep: int):
        self.graph, self.is_known, self.keep = graph, is_known, keep
        self._best: dict[tuple[str, bool], list[_Scored]] = {}

    def best(self, remainder: str, with_one_letter: bool) -> list[_Scored]:
        key = (remainder, with_one_letter)
        if key not in self._best:
            self._best[key] = self._score(remainder, with_one_letter)
        return self._best[key]

    def _score(self, remainder: str, with_one_letter: bool) -> list[_Scored]:
        word = self.graph.words.get(remainder)
        if word is not None:
            matches = _one_letter(word) == with_one_letter
            return [(int(self.is_known(word)), (), [word])] if matches else []
        scored = []
        for index, (first, rest) in enumerate(self.graph.choices.get(remainder, ())):
            count = int(self.is_known(first))
            for group in _tail_groups(first, with_one_letter):
                scored.extend(
                    (count + tail_count, (index, group, *order), [first, *tail])
                    for tail_count, order, tail in self.best(rest, group)
                )
        return sorted(scored, key=_rank)[: self.keep]
