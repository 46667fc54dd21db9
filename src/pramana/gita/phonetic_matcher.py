"""The default verse matcher: phonetic skeletons aligned with rapidfuzz.

Every verse is indexed twice, from its IAST and from its Devanāgarī read as IAST (they split
some lines differently, e.g. BG 1.20/1.21), with speaker lines and verse numbers removed. A
query is turned into the same skeleton and aligned against each with `partial_ratio`, which
finds the best-matching stretch of the verse, so a quote of one line or half a line scores
as high as the whole verse would. The alignment maps back to the words of the verse that
were quoted.

Confidence (calibrated on the test set in tests/gita, see benchmarks/gita_match.py): the best
match must score at least CONFIDENT_SCORE, the query must carry at least MIN_CONFIDENT_KEY
consonants (two words are not enough to tell 701 verses apart), and the next-best verse with
different words must trail by MIN_MARGIN, or the best must be near-exact.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from rapidfuzz import fuzz, process
from rapidfuzz.distance import Levenshtein

from pramana.gita.matcher import IndexedVerse, Match, MatchReport
from pramana.gita.reference import VerseRef
from pramana.gita.verse_text import verse_lines
from pramana.text.normalize import fold_word, fold_words, has_devanagari, strip_diacritics, unify_anusvara
from pramana.text.phonetic import Skeleton, skeleton, skeleton_key
from pramana.text.transliterate import devanagari_to_iast

MIN_KEY = 4  # consonants; below this there is nothing to match
MIN_CONFIDENT_KEY = 9
CONFIDENT_SCORE = 0.86
NEAR_EXACT = 0.97
MIN_MARGIN = 0.08
CANDIDATES = 40
RERANK_WINDOW = 0.15
FINE_WEIGHT = 0.25
# A word at a quote's edge is part of the quote only if it continues the verse where the rest of the
# quote leaves off: its consonants may differ from the verse's there in at most this share of them
# (garbling rarely changes them), and for a short word so may its letters (EDGE_LETTER_EDITS).
EDGE_KEY_EDITS = 0.25
EDGE_LETTER_EDITS = 0.25
MAX_SLACK = 8  # letters a window's end may move, so that a long quote costs no more than a short one
SHORT_EDGE_KEY = 2  # consonants: a word this short is checked on all its letters too

_TOKEN = re.compile(r"\S+")
_MARKS = string.punctuation + "«»“”‘’—–।॥"
_ENGLISH_SUFFIXES = ("ed", "d", "ing", "ly", "s", "es", "er", "ers")
_ENGLISH_ENDINGS = (
    "ing",
    "ly",
    "tion",
    "ness",
    "ment",
    "ous",
    "ful",
    "less",
    "able",
    "ible",
    "ity",
    "ism",
    "ize",
)
# Letters and pairs that romanized Sanskrit, even in popular spellings, does not have.
_NOT_SANSKRIT_LETTERS = re.compile(r"[fqz]|ou|ea|ae|ck|wh|ie|oi|ue|ei")
_LETTERS = re.compile(r"[^a-z]")
_AVAGRAHA = re.compile(r"[a-z][.'’ऽ][a-z]", re.IGNORECASE)  # te.api, so'pi: sandhi, never English

# Words so common in English speech that they are never taken for Sanskrit at a quote's edge.
_FUNCTION_WORDS_TEXT = """
a an the and or but if so as of to in on at by for from with into about than then that this these
those there here is are was were be been being am do does did has have had will would can could
shall should may might must not no yes it its he she they we you i me my our your his her their them
us who which what when where why how all any some one two also very just only says said say saying
tells told verse verses means meaning text lord krishna arjuna gita bhagavad chapter quote quotes
quoted like see okay ok now well because therefore thus prabhupada srila swami explain explains
explained would important
"""
FUNCTION_WORDS = frozenset(_FUNCTION_WORDS_TEXT.split())


@dataclass(frozen=True)
class QuotedPart:
    """The part of a text that recites a verse, and the verse's words for exactly that part."""

    ref: VerseRef
    start: int
    end: int
    verse_words: str  # IAST, lines joined with " / "
    consonants: int
    edits: int  # between the part's consonants and the verse's

    @property
    def fit(self) -> int:
        """How much of the verse the part recites, less what it gets wrong."""
        return self.consonants - 2 * self.edits


@dataclass(frozen=True)
class _Unit:
    verse: IndexedVerse
    text: str  # lines joined with newlines
    skeleton: Skeleton
    fine: str  # vowels kept (folded), for breaking ties between equal skeletons
    from_iast: bool  # the verse's IAST, not its Devanāgarī read as IAST


def _prepare(text: str) -> str:
    text = unify_anusvara(text)
    return devanagari_to_iast(text) if has_devanagari(text) else text


def _plain(word: str) -> str:
    return _LETTERS.sub("", strip_diacritics(word))


class PhoneticMatcher:
    name = "phonetic-skeleton"
    threshold = CONFIDENT_SCORE

    def __init__(self, verses: Iterable[IndexedVerse], english_words: Iterable[str] = ()):
        self._units: list[_Unit] = []
        for verse in verses:
            iast = "\n".join(verse_lines(verse.transliteration))
            texts = {iast}
            if verse.devanagari:
                texts.add("\n".join(verse_lines(devanagari_to_iast(verse.devanagari))))
            for text in sorted(texts):
                if text:
                    self._units.append(_Unit(verse, text, skeleton(text), fine_key(text), text == iast))
        self._keys = [unit.skeleton.key for unit in self._units]
        self._units_of: dict[VerseRef, list[_Unit]] = {}
        for unit in self._units:
            self._units_of.setdefault(unit.verse.ref, []).append(unit)
        # Names such as pāṇḍava or arjuna occur in the English translations too: they stay Sanskrit.
        self._verse_words = frozenset(fold_word(word) for unit in self._units for word in unit.text.split())
        self._english = frozenset(fold_word(word) for word in english_words) - self._verse_words

    def __len__(self) -> int:
        return len({unit.verse.ref for unit in self._units})

    # -- the query ---------------------------------------------------------------------------

    def is_english(self, word: str) -> bool:
        """An English word, not Sanskrit: written without diacritics, and a common English word or one
        the translations use that no verse does."""
        plain = _plain(word)
        if not plain or plain != _LETTERS.sub("", word.lower()) or _AVAGRAHA.search(word):
            return False
        if plain in FUNCTION_WORDS or fold_word(plain) in self._english:
            return True
        # asked, chanted, finally, teachings: Sanskrit words do not end like this
        for suffix in _ENGLISH_SUFFIXES:
            stem = plain.removesuffix(suffix)
            if stem != plain and len(stem) >= 3 and fold_word(stem) in self._english:
                return True
        return plain.endswith(_ENGLISH_ENDINGS) or bool(_NOT_SANSKRIT_LETTERS.search(plain))

    def may_edge_quote(self, word: str) -> bool:
        """Whether the word may begin or end a quote: a common English word ("as", "the") only if some
        verse has it too ("man manā")."""
        return word.lower().strip(_MARKS) not in FUNCTION_WORDS or self.is_verse_word(word)

    def is_verse_word(self, word: str) -> bool:
        """A word that stands on its own in some verse ("me", "na", "mām")."""
        return fold_word(word) in self._verse_words

    def trim_filler(self, text: str) -> str:
        """Drop English words before and after the quote ("Krishna says ... which means")."""
        tokens = list(_TOKEN.finditer(text))
        start, end = 0, len(tokens)
        while start < end and (self.is_english(tokens[start].group()) or not _plain(tokens[start].group())):
            start += 1
        while end > start and (
            self.is_english(tokens[end - 1].group()) or not _plain(tokens[end - 1].group())
        ):
            end -= 1
        if start >= end:
            return text.strip()
        return text[tokens[start].start() : tokens[end - 1].end()]

    # -- matching ----------------------------------------------------------------------------

    def quoted_parts(self, text: str, refs: list[VerseRef]) -> list[QuotedPart | None]:
        """For each verse, the words of `text` that recite it and the verse's words for them: an edge word
        that does not continue the verse where the rest leaves off ("bhakti:", "as dharma") is left out."""
        words = [_Word.of(token, self.may_edge_quote(token.group())) for token in _TOKEN.finditer(text)]
        return [self._quoted_part(words, ref) for ref in refs]

    def _quoted_part(self, words: list[_Word], ref: VerseRef) -> QuotedPart | None:
        best: tuple[int, bool] | None = None
        found = None
        for unit in self._units_of.get(ref, []):
            part = _quoted_in(unit, words)
            # of equal alignments, the words as the IAST writes them (not the Devanāgarī read as IAST)
            rank = (-part.edits, unit.from_iast) if part else None
            if rank and (best is None or rank > best):
                best, found = rank, part
        return found

    def match(self, text: str, top_n: int, *, trim_filler: bool = True) -> MatchReport:
        """The `top_n` best verses for `text`; `trim_filler=False` when the quote is already cut out."""
        query = _prepare(text)
        if trim_filler:
            query = self.trim_filler(query)
        key = skeleton(query).key
        if len(key) < MIN_KEY:
            return MatchReport(
                [], False, query, ("Too little Sanskrit to match: give at least a few words.",)
            )
        best = self._rerank(fine_key(query), self._best_per_verse(key))
        matches = [self._describe(unit, key, score) for unit, score in best[: max(top_n, 2)]]
        confident, notes = self._assess(key, matches)
        return MatchReport(matches[:top_n], confident, query, tuple(notes))

    def _best_per_verse(self, key: str) -> list[tuple[_Unit, float]]:
        found = process.extract(key, self._keys, scorer=fuzz.partial_ratio, limit=CANDIDATES, score_cutoff=40)
        best: dict[VerseRef, tuple[_Unit, float]] = {}
        for _, score, index in found:
            unit = self._units[index]
            ref_key = unit.verse.ref
            if ref_key not in best or score > best[ref_key][1]:
                best[ref_key] = (unit, score / 100)
        return sorted(best.values(), key=lambda item: (-item[1], item[0].verse.ref))

    def _rerank(self, fine: str, best: list[tuple[_Unit, float]]) -> list[tuple[_Unit, float]]:
        """Among the leaders, let the vowels and aspirates the skeleton ignores break ties."""
        if not best:
            return best
        leaders = [item for item in best if item[1] >= best[0][1] - RERANK_WINDOW]
        rescored = [
            (unit, (1 - FINE_WEIGHT) * score + FINE_WEIGHT * fuzz.partial_ratio(fine, unit.fine) / 100)
            for unit, score in leaders
        ]
        rest = [
            (unit, (1 - FINE_WEIGHT) * score + FINE_WEIGHT * score) for unit, score in best[len(leaders) :]
        ]
        return sorted(rescored + rest, key=lambda item: (-item[1], item[0].verse.ref))

    def _describe(self, unit: _Unit, key: str, score: float) -> Match:
        alignment = fuzz.partial_ratio_alignment(key, unit.skeleton.key)
        if len(key) <= len(unit.skeleton.key):
            start, end = alignment.dest_start, alignment.dest_end
        else:  # the verse is shorter than the query: all of it matched
            start, end = 0, len(unit.skeleton.key)
        span_start, span_end = unit.skeleton.span(start, end)
        matched = _expand_to_words(unit.text, span_start, span_end)
        line = unit.text[: unit.text.find(matched)].count("\n") if matched in unit.text else 0
        return Match(
            ref=unit.verse.ref,
            score=round(score, 4),
            transliteration=unit.verse.transliteration,
            matched=matched.replace("\n", " / "),
            line=unit.text.splitlines()[line] if unit.text else "",
        )

    def _assess(self, key: str, matches: list[Match]) -> tuple[bool, list[str]]:
        if not matches:
            return False, []
        top = matches[0]
        notes = []
        same_words = [m.ref for m in matches[1:] if m.matched == top.matched and m.score == top.score]
        if same_words:
            notes.append(
                f"The matched words also appear in {', '.join(str(r) for r in same_words)}; "
                "quote more of the verse to tell them apart."
            )
        rivals = [m for m in matches[1:] if m.matched != top.matched]
        margin = top.score - (rivals[0].score if rivals else 0.0)
        confident = (
            len(key) >= MIN_CONFIDENT_KEY
            and top.score >= CONFIDENT_SCORE
            and (margin >= MIN_MARGIN or top.score >= NEAR_EXACT)
        )
        return confident, notes


def fine_key(text: str) -> str:
    """Folded letters with vowels, no spaces: 'mā mā evaṁ' -> 'mamaevam'."""
    return fold_words(text).replace(" ", "")


def _expand_to_words(text: str, start: int, end: int) -> str:
    """text[start:end] widened to whole words (a word never ends inside the span)."""
    while start > 0 and not text[start - 1].isspace():
        start -= 1
    while end < len(text) and not text[end].isspace():
        end += 1
    return text[start:end].strip()


# -- which words of a quote recite the verse -----------------------------------------------------


@dataclass(frozen=True)
class _Word:
    start: int
    end: int
    key: str
    letters: str
    may_be_edge: bool
    punctuated: bool  # ends in a mark that parts clauses ("bhakti:", "kadachana,")

    @classmethod
    def of(cls, token: re.Match[str], may_be_edge: bool) -> _Word:
        word = token.group()
        return cls(
            token.start(), token.end(), skeleton_key(word), fold_word(word), may_be_edge, word[-1] in ",;:.?!"
        )


def _quoted_in(unit: _Unit, words: list[_Word]) -> QuotedPart | None:
    first, last = _narrow_to_verse(unit, words)
    while last - first > 1 and not _continues(unit, words[first + 1 : last], words[first], before=True):
        first += 1
    while last - first > 1 and not _continues(unit, words[first : last - 1], words[last - 1], before=False):
        last -= 1
    key = "".join(word.key for word in words[first:last])
    if len(key) < MIN_KEY:
        return None
    start, end, edits = _align(key, unit.skeleton.key)
    return QuotedPart(
        unit.verse.ref,
        words[first].start,
        words[last - 1].end,
        _verse_words(unit, start, end),
        len(key),
        edits,
    )


def _narrow_to_verse(unit: _Unit, words: list[_Word]) -> tuple[int, int]:
    """The words whose consonants align with the verse, when the text is longer than the verse."""
    key = "".join(word.key for word in words)
    if len(key) <= len(unit.skeleton.key):
        return 0, len(words)
    alignment = fuzz.partial_ratio_alignment(key, unit.skeleton.key)
    ends, position = [], 0
    for word in words:
        position += len(word.key)
        ends.append(position)
    first = next(i for i, end in enumerate(ends) if end > alignment.src_start)
    last = next((i + 1 for i, end in enumerate(ends) if end >= alignment.src_end), len(words))
    return first, max(last, first + 1)


def _continues(unit: _Unit, rest: list[_Word], edge: _Word, *, before: bool) -> bool:
    """Whether `edge`, said just before (or after) `rest`, is the verse's text there: put next to the
    rest, it must add (almost) no edits to the rest's best alignment with the verse."""
    rest_key = "".join(word.key for word in rest)
    if len(rest_key) < max(MIN_KEY, len(edge.key)):
        return True  # the rest is too small to judge the word by: keep it rather than guess
    if not edge.may_be_edge:
        return False
    if _added_edits(unit.skeleton.key, rest_key, edge.key, before) > EDGE_KEY_EDITS * len(edge.key):
        return False
    # "bhakti: madyājī" (after madbhakto) or "yoga" (y k) may meet like consonants by chance: a word set
    # off by punctuation, or short, must agree in its vowels too
    separated = (edge if before else rest[-1]).punctuated
    if len(edge.key) > SHORT_EDGE_KEY and not separated:
        return True
    letter_edits = _added_edits(unit.fine, "".join(word.letters for word in rest), edge.letters, before)
    if separated or not edge.key:  # "he", "a": nothing but vowels to go by
        return letter_edits <= 0
    return letter_edits <= max(1, EDGE_LETTER_EDITS * len(edge.letters))  # one slip even in a short word


def _added_edits(verse: str, rest: str, edge: str, before: bool) -> int:
    """The edits that `edge`, put before (or after) `rest`, adds to the rest's alignment with the verse."""
    joined = edge + rest if before else rest + edge
    return _align(joined, verse)[2] - _align(rest, verse)[2]


@lru_cache(maxsize=4096)  # a quote's edge checks align the same strings more than once
def _align(query: str, verse: str) -> tuple[int, int, int]:
    """The stretch verse[start:end] that `query` aligns with, and the edits between them.

    rapidfuzz finds a window as long as the query; a garbled query has letters more or fewer, so each
    end is moved, by up to a few letters, to where the edits are fewest, and of equals to the shorter
    stretch ("ktcn" in "ktcnnk" ends before the second n: a word the speaker did not say is left out).
    """
    if len(query) >= len(verse):
        return 0, len(verse), Levenshtein.distance(query, verse)
    alignment = fuzz.partial_ratio_alignment(query, verse)
    start, end = alignment.dest_start, alignment.dest_end
    slack = min(2 + len(query) // 8, MAX_SLACK)
    end = min(range(max(start + 1, end - slack), min(len(verse), end + slack) + 1),
              key=lambda e: (Levenshtein.distance(query, verse[start:e]), e))  # fmt: skip
    start = min(range(max(0, start - slack), min(end - 1, start + slack) + 1),
                key=lambda s: (Levenshtein.distance(query, verse[s:end]), -s))  # fmt: skip
    return start, end, Levenshtein.distance(query, verse[start:end])


def _verse_words(unit: _Unit, start: int, end: int) -> str:
    """The verse's whole words that hold its key positions start..end."""
    offsets = unit.skeleton.offsets
    return _expand_to_words(unit.text, offsets[start], offsets[end - 1] + 1).replace("\n", " / ")
