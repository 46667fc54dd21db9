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
from collections.abc import Iterable
from dataclasses import dataclass

from rapidfuzz import fuzz, process

from pramana.gita.matcher import IndexedVerse, Match, MatchReport
from pramana.gita.verse_text import verse_lines
from pramana.text.normalize import fold_word, fold_words, has_devanagari, strip_diacritics, unify_anusvara
from pramana.text.phonetic import Skeleton, skeleton
from pramana.text.transliterate import devanagari_to_iast

MIN_KEY = 4  # consonants; below this there is nothing to match
MIN_CONFIDENT_KEY = 9
CONFIDENT_SCORE = 0.86
NEAR_EXACT = 0.97
MIN_MARGIN = 0.08
CANDIDATES = 40
RERANK_WINDOW = 0.15
FINE_WEIGHT = 0.25

_TOKEN = re.compile(r"\S+")
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
class _Unit:
    verse: IndexedVerse
    text: str  # lines joined with newlines
    skeleton: Skeleton
    fine: str  # vowels kept (folded), for breaking ties between equal skeletons


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
            texts = {"\n".join(verse_lines(verse.transliteration))}
            if verse.devanagari:
                texts.add("\n".join(verse_lines(devanagari_to_iast(verse.devanagari))))
            for text in sorted(texts):
                if text:
                    self._units.append(_Unit(verse, text, skeleton(text), fine_key(text)))
        self._keys = [unit.skeleton.key for unit in self._units]
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
        best: dict[VerseRefKey, tuple[_Unit, float]] = {}
        for _, score, index in found:
            unit = self._units[index]
            ref_key = (unit.verse.ref.chapter, unit.verse.ref.verse)
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


VerseRefKey = tuple[int, int]


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
