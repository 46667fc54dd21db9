"""Long compounds (eight to twelve members: jyā-kṛṣṭi-baddha-khaṭakā-mukha-…, śāstra prose's lists of
dhātus and doṣas) that the bounded left-first search of `sandhi.Segmenter` cannot finish within its
budget, or that are longer than it takes at all.

A dynamic programme over the letters instead: a state is a point of the written word and the initial
sound a junction there restored for the next member (mahā|rṇava: `a` before rṇava); an edge is one
member, its junction undone by the same rules the segmenter uses (`sandhi._RULES_BY_LETTER`: vowel
coalescence, semivowels, consonant assimilation, a doubled nasal, the avagraha); the last part must be a
word (its case ending), the others members (bare stems in their combining forms) or, rarely, words of a
sandhi group (hetor antar-bāṣpaś). Each state keeps its few best paths, scored like the segmenter's
(each part's likeliness, a cost a junction), so the work grows with the word's length, not exponentially:
at most `MAX_TESTS` part tests a word, whatever its length.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass

from pramana import work
from pramana.sanskrit.sandhi import (
    _AVAGRAHA,
    _DOUBLED,
    _JOIN,
    _RULES_BY_LETTER,
    _SEMIVOWEL,
    AVAGRAHA,
    CHANGED_JUNCTION,
    JUNCTION_COST,
    MIN_PART,
    VOWELS,
    Part,
    Split,
)

MIN_LETTERS = 14  # a shorter word is the segmenter's alone
MAX_LETTERS = 120  # SLP1 letters: longer is no compound anyone wrote (the query limit is 200 characters)
REFINE_LETTERS = 8  # a part this long may be a compound the dictionaries list whole (kāmakrodha)
MAX_MEMBER = 18  # letters of one member (the dictionaries' long headwords are compounds themselves)
MAX_TESTS = 3000  # part tests a word, at most
PATHS = 3  # the best paths a state keeps
MEMBER_LETTER = 0.4  # a longer member a little preferred over two short ones of the same likeliness
# the last letters of a word inside a long group (hetor antar-bāṣpaś ciram, jñātīn āgatān): a stem's part
# is not tested as a word too, nor a part ending in a, ā, i, ī, u, ū (a member's ending, mostly): the word
# test is the dear one, and it halves the search's time on a 40-letter compound
INNER_FINALS = "rSszHMmnNdgbtkwqeoEO"

# What a member (a stem of three letters or more) earns in the search for the most members: a member's
# likeliness (about -6 to -14) still decides, so rare short strings do not make a split; words inside
# (na, tu, kaḥ) earn nothing, and the last word is one of at least FINE_LAST letters.
FINE_MEMBER = 12.0
FINE_LAST = 4
_SHORT = {"A": "a", "I": "i", "U": "u"}

State = tuple[int, str]  # (letters of the written word read, the next member's restored initial)


@dataclass(frozen=True)
class _Path:
    score: float
    parts: tuple[Part, ...]
    members: tuple[bool, ...]


class CompoundSplitter:
    """The likeliest splits of a long word into members and words, by dynamic programming over its
    letters; `member`, `word` and `reach` are the segmenter's part tests (`analysis.PartTests`)."""

    def __init__(
        self,
        member: Callable[[Part], float | None],
        word: Callable[[Part], float | None],
        reach: Callable[[Part], int],
    ) -> None:
        self._member = member
        self._word = word
        self._reach = reach
        self.tests = 0

    def split(self, written: str, limit: int = 2) -> list[Split]:
        """Up to `limit` splits of `written` (SLP1) into at least two parts, likeliest first; none when it
        is shorter than MIN_LETTERS or longer than MAX_LETTERS, or no split into known parts exists."""
        return self._search(written)[:limit]

    def finest(self, written: str) -> Split | None:
        """The likeliest split of `written` into the most members: a compound the dictionaries list
        whole (kāmakrodha) into its own members (kāma + krodha), as a reader and the DCS analyse it."""
        found = self._search(written, FINE_MEMBER)
        return found[0] if found else None

    def refine(self, split: Split) -> Split | None:
        """`split` with each part of REFINE_LETTERS or more that is a compound the dictionaries list
        whole split into its members as `finest` does (a member into members, the last word into
        members and a word); None when no part is. The search is over the part alone: a few
        dozen part tests, most of them asked already by the search that made `split`."""
        parts: list[Part] = []
        members: list[bool] = []
        for part, is_member in zip(split.parts, split.members, strict=True):
            inner = []
            if len(part) >= REFINE_LETTERS:
                inner = self._search(part, FINE_MEMBER, last_member=is_member, shortest=REFINE_LETTERS)[:1]
            if inner:
                parts += inner[0].parts
                members += (True,) * (len(inner[0].parts) - 1) + (is_member,)
            else:
                parts.append(part)
                members.append(is_member)
        if len(parts) == len(split.parts):
            return None
        return Split(tuple(parts), tuple(members), split.score)

    def _search(
        self, written: str, member_bonus: float = 0.0, last_member: bool = False, shortest: int = MIN_LETTERS
    ) -> list[Split]:
        """The splits of `written`, best first, each member earning `member_bonus`; the last part a
        member (`last_member`: `written` is a compound's member itself) or a word."""
        if not shortest <= len(written) <= MAX_LETTERS:
            return []
        if written.startswith(AVAGRAHA):
            written = "a" + written[1:]
        self.tests = 0
        paths: dict[State, list[_Path]] = {(0, ""): [_Path(0.0, (), ())]}
        finished: list[_Path] = []
        # states in the order of the letters they have read: every edge reads at least one letter
        pending: list[State] = [(0, "")]
        queued = {(0, "")}
        while pending and self.tests < MAX_TESTS:
            state = heapq.heappop(pending)
            work.check("splitting a compound")
            here = paths.pop(state)
            for part, is_member, following, changed in self._edges(written, state):
                scored = self._score(part, is_member or (last_member and following is None))
                if scored is not None and following is None and last_member and not scored[1]:
                    scored = None  # a member's last member is a stem, not a word
                if scored is None:
                    continue
                score, as_member = scored
                if member_bonus and as_member and len(part) >= 3:
                    score += member_bonus
                elif member_bonus and following is None and len(part) < FINE_LAST:
                    continue
                cost = score - (CHANGED_JUNCTION if changed else 0.0)
                for path in here:
                    joined = _Path(
                        path.score + cost - (JUNCTION_COST if path.parts else 0.0),
                        (*path.parts, part),
                        (*path.members, as_member),
                    )
                    if following is None:
                        finished.append(joined)
                    else:
                        kept = paths.setdefault(following, [])
                        kept.append(joined)
                        kept.sort(key=lambda p: -p.score)
                        del kept[PATHS:]
                        if following not in queued:
                            queued.add(following)
                            heapq.heappush(pending, following)
        finished = [path for path in finished if len(path.parts) > 1]
        finished.sort(key=lambda path: -path.score)
        found: dict[tuple[Part, ...], Split] = {}
        for path in finished:
            # karṇā + akṣi and karṇa + akṣi are one reading: the member's final before a vowel is unknown
            key = tuple(part[:-1] + _SHORT.get(part[-1], part[-1]) for part in path.parts[:-1])
            found.setdefault((*key, path.parts[-1]), Split(path.parts, path.members, path.score))
        return list(found.values())

    def _score(self, part: Part, is_member: bool) -> tuple[float, bool] | None:
        """A part's score as a member (`is_member`) or the group's last word, and whether it is a member
        (a stem, not a word inside the group); None if it is neither."""
        self.tests += 1
        if not is_member:
            last = self._word(part)
            return None if last is None else (last, False)
        member = self._member(part)
        word = None
        if member is None and part[-1] in INNER_FINALS:
            word = self._word(part)  # a word of a sandhi group, before the next (tato, hetor, ca)
            if word is not None:
                word -= JUNCTION_COST  # a word inside a long compound is rarer than a member
        if member is None and word is None:
            return None
        as_member = member is not None and (word is None or member >= word)
        best = member if as_member else word
        assert best is not None
        return best + MEMBER_LETTER * min(len(part), 8), as_member

    def _edges(self, written: str, state: State) -> list[tuple[Part, bool, State | None, bool]]:
        """(part, is a member, the state after it or None when it ends the word, its junction changed)."""
        start, initial = state
        rest = initial + written[start:]
        edges: list[tuple[Part, bool, State | None, bool]] = []
        edges.append((rest, False, None, False))  # the last word: its ending
        # a member is a known stem but for its last letter or two (mano for manas, rāja for rājan)
        reach = self._reach(rest[: MAX_MEMBER + 2])
        last = min(len(written) - MIN_PART, start + reach + 2 - len(initial))
        for cut in range(start + 1, last + 1):
            head = initial + written[start:cut]
            if len(head) >= MIN_PART and not (written[cut - 1] in "aA" and written[cut] in VOWELS):
                edges.append((head, True, (cut, ""), False))
            for surface, kind, undone in _RULES_BY_LETTER.get(written[cut], ()):
                if not written.startswith(surface, cut):
                    continue
                after = cut + len(surface)
                if after >= len(written):
                    continue
                if kind == _JOIN:
                    edges += [(head + left, True, (after, right), True) for left, right in undone]
                elif kind == _SEMIVOWEL and written[after] in VOWELS:
                    edges += [(head + final, True, (after, ""), True) for final, _ in undone]
                elif kind == _DOUBLED and written[after] in VOWELS:
                    edges.append((head + written[cut], True, (after, ""), False))
                elif kind == _AVAGRAHA:
                    edges.append((head, True, (after, "a"), False))
        return [edge for edge in edges if MIN_PART <= len(edge[0]) <= MAX_MEMBER + 2]
