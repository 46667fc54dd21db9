"""The default verse matcher: phonetic skeletons aligned with rapidfuzz, over one book or several.

Every verse is indexed from its IAST, and from its Devanāgarī read as IAST where that reads differently
(BG 1.20/1.21 split their lines differently), with speaker lines and verse numbers removed. A query is
turned into the same skeleton; an n-gram index (phonetic_index.py) shortlists the verses sharing most
of its consonant n-grams (the rarer a gram, the more it counts), and the query is aligned with those
with `partial_ratio`, which finds the best-matching stretch of the verse, so a quote of one line or half
a line scores as high as the whole verse would. A transcriber who mishears a recitation drops
syllables: the query is also aligned with stretches a consonant or two longer than itself, where a
dropped consonant costs one edit rather than the two `partial_ratio` counts (`_alignment_scores`), and
a syllable said twice in a row is also tried said once (`without_stutters`). The vowels the skeleton
ignores then break ties, aligned the same way. The alignment maps back to the words of the verse that
were quoted.

Verses come with an opaque key (any hashable, printable reference) and a book: a query may be limited
to some books, and of near-equal matches the Gītā's is preferred (BOOK_PRIORS: its verses are quoted far
more often, one by one, than the Bhāgavatam's). Words that several verses hold (a refrain, a verse one
book quotes from another) are credited to the first of them in the order the verses were given, and
every other is listed in `also_in`; a speaker's line ("śrī-śuka uvāca") lists every verse it opens.

Confidence (calibrated on the test sets in tests/gita, see benchmarks/gita_match.py and
benchmarks/scripture_match.py): the best match must score at least CONFIDENT_SCORE, the query must
carry at least MIN_CONFIDENT_KEY consonants (two words are not enough to tell verses apart), and the
next-best verse with different words must trail by MIN_MARGIN, or the best must be near-exact; a quote
of SHORT_CONFIDENT_KEY consonants must be both.
"""

from __future__ import annotations

import re
import string
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np
import numpy.typing as npt
from rapidfuzz import fuzz, process
from rapidfuzz.distance import Levenshtein, ScoreAlignment

from pramana.gita.matcher import IndexedVerse, Match, MatchReport, VerseKey
from pramana.gita.phonetic_index import SHORT_QUERY, GramIndex
from pramana.gita.verse_text import split_verse
from pramana.text.normalize import (
    fold_each,
    fold_word,
    fold_words,
    has_devanagari,
    strip_diacritics,
    unify_anusvara,
)
from pramana.text.phonetic import Skeleton, skeleton, skeleton_key
from pramana.text.transliterate import devanagari_to_iast

MIN_KEY = 4  # consonants; below this there is nothing to match
MIN_CONFIDENT_KEY = 9
# A quote of 8 consonants (a pāda of the Bhāgavatam's: "sa vai puṁsāṁ paro") is confident only when it
# is near-exact and clear of every other verse, not on a near-exact score alone.
SHORT_CONFIDENT_KEY = 8
CONFIDENT_SCORE = 0.86
NEAR_EXACT = 0.97
MIN_MARGIN = 0.08
CANDIDATES = 40
MIN_SCORE = 0.4  # an alignment this poor is no candidate at all
SHORTLIST = 256  # verses the n-gram index hands on to be aligned (see phonetic_index)
# A short quote's few n-grams are in thousands of verses, and aligning it is cheap: more of them are
# aligned, and more of the best are weighed by their vowels too.
SHORT_SHORTLIST = 512
SHORT_CANDIDATES = 160
SPEAKER_QUERY = 14  # consonants: a longer query is no speaker's line ("śrī-bhagavān uvāca" has 8)
MAX_ALSO_IN = 1_000  # verses listed as also holding the matched words ("śrī-śuka uvāca" opens 368)
SAME_WORDS_LETTERS = 25  # letters: two texts of the same words may differ by a slip in this many
# A verse of the Gītā is quoted far more often than one of the Bhāgavatam or the Caitanya-caritāmṛta
# (700 verses against 25,000, in lectures that quote all three): of near-equal matches, the Gītā's.
# Added to the ranking only; a match's score stays its similarity, and its confidence is judged on that.
BOOK_PRIORS: Mapping[str, float] = {"BG": 0.04}
PRIOR_FROM_KEY = 16  # consonants: a shorter quote's prior counts for more (16/length times)
ENGLISH_FROM_BOOKS = ("BG",)  # the books whose translations the English words were read from
RERANK_WINDOW = 0.15
FINE_WEIGHT = 0.25
SHORT_FINE_WEIGHT = 0.5
FINE_WEIGHT_FROM_KEY = 16  # consonants: a shorter quote's vowels count for more than FINE_WEIGHT
# A word at a quote's edge is part of the quote only if it continues the verse where the rest of the
# quote leaves off: its consonants may differ from the verse's there in at most this share of them
# (garbling rarely changes them), and for a short word so may its letters (EDGE_LETTER_EDITS).
EDGE_KEY_EDITS = 0.25
EDGE_LETTER_EDITS = 0.25
MAX_SLACK = 8  # letters a window's end may move, so that a long quote costs no more than a short one
SHORT_EDGE_KEY = 2  # consonants: a word this short is checked on all its letters too
DROPPED_CONSONANTS = (1, 2)  # a quote is also aligned with stretches of a verse this much longer
DROPPED_LETTERS = (2, 4)  # the same for its letters, vowels kept: a syllable is two to four of them
_PAD = "#"  # no skeleton has it
PADDED_BELOW_BEST = 0.2  # a verse this far below the best exact alignment is not aligned padded
DROP_COST = 1.0  # edits a dropped letter costs (partial_ratio: 2, as a changed one)

_TOKEN = re.compile(r"\S+")
# a syllable or two (consonants, then vowels) repeated at once: "prapra", "mandamanda"
_STUTTER = re.compile(r"((?:[^aeiou\s]+[aeiou]+){1,2}?)\1+")
_MARKS = string.punctuation + "«»“”‘’—–।॥"
_ENGLISH_SUFFIXES = ("ed", "d", "ing", "ly", "s", "es", "er", "ers")
_ENGLISH_ENDINGS = (
    "ing",
    "ly",
    "tion",
    "sion",
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
_NOT_LETTER = re.compile(r"[^a-z]+")
_AVAGRAHA = re.compile(r"[a-z][.'’ऽ][a-z]", re.IGNORECASE)  # te.api, so'pi: sandhi, never English
# "śrī-śuka uvāca:", "ṛṣaya ūcuḥ" before the verse a reader goes on to recite: who speaks, not the verse
_SPEAKER_START = re.compile(
    r"^\s*(?:\S+\s+){0,2}?\S*(?:[uo]v[aā]c(?:h)?a|[uū]cu[hḥ]?)[\s.,;:|।]+(?=\S)", re.IGNORECASE
)

# Words so common in English speech that they are never taken for Sanskrit at a quote's edge.
_FUNCTION_WORDS_TEXT = """
a an the and or but if so as of to in on at by for from with into about than then that this these
those there here is are was were be been being am do does did has have had will would can could
shall should may might must not no yes it its he she they we you i me my our your his her their them
us who which what when where why how all any some one two also very just only says said say saying
tells told verse verses means meaning text lord krishna arjuna gita bhagavad chapter quote quotes
quoted like see okay ok now well because therefore thus prabhupada srila swami explain explains
explained would important write writes wrote written state states stated declare declares declared
sing sings sang pray prays prayed describe describes described conclude concludes concluded recite
recites recited instruct instructs instructed
"""
FUNCTION_WORDS = frozenset(_FUNCTION_WORDS_TEXT.split())
# Who a lecturer says is speaking, or the book, before the quote ("Śukadeva Gosvāmī says", "As Mahāprabhu
# said", "In the Bhāgavatam it is said"): dropped from the edges of a query however they are spelt, when
# English words stand between them and the quote (the Sanskrit "bhāgavataṁ dadarśa" stays whole).
QUOTE_INTRODUCERS = frozenset(
    "prabhupada srila sukadeva gosvami goswami mahaprabhu kaviraja kaviraj bhagavatam srimad".split()  # noqa: SIM905
)


@dataclass(frozen=True)
class QuotedPart:
    """The part of a text that recites a verse, and the verse's words for exactly that part."""

    ref: VerseKey
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
    """One text of a verse that a quote is aligned with (its IAST, or its Devanāgarī read as IAST)."""

    verse: IndexedVerse
    position: int  # the verse's place among all verses: of equal matches, the earlier verse is named
    text: str  # lines joined with newlines
    key: str  # the skeleton's consonant classes
    from_iast: bool  # the verse's IAST, not its Devanāgarī read as IAST
    prior: float = 0.0  # its book's BOOK_PRIORS

    @property
    def skeleton(self) -> Skeleton:
        return _skeleton_of(self.text)

    @property
    def fine(self) -> str:
        """Vowels kept (folded), for breaking ties between equal skeletons."""
        return fine_key(self.text)


@dataclass(frozen=True)
class _Line:
    """A line that stands for no one verse: a speaker's ("śrī-śuka uvāca"), matched only as a whole."""

    text: str
    key: str
    fine: str
    units: tuple[_Unit, ...]  # the verses it opens, one unit each, in corpus order


@lru_cache(maxsize=4096)
def _skeleton_of(text: str) -> Skeleton:
    return skeleton(text)


def _prepare(text: str) -> str:
    text = unify_anusvara(text)
    return devanagari_to_iast(text) if has_devanagari(text) else text


def _plain(word: str) -> str:
    return _LETTERS.sub("", strip_diacritics(word))


def _without_speaker(query: str) -> str:
    """The query less a speaker's line it starts with, if the rest is enough to match."""
    found = _SPEAKER_START.match(query)
    if found is None or len(skeleton_key(query[found.end() :])) < MIN_KEY:
        return query
    return query[found.end() :]


def _same_words_key(text: str) -> str:
    """The letters of a text for telling whether two verses hold the same words: editions differ in
    spaces, hyphens, avagrahas and in which nasal they write before a consonant (saṅkalpa, saṁkalpa)."""
    return fine_key(text).replace("m", "n")


class PhoneticMatcher:
    name = "phonetic-skeleton"
    threshold = CONFIDENT_SCORE

    def __init__(
        self,
        verses: Iterable[IndexedVerse],
        english_words: Iterable[str] = (),
        priors: Mapping[str, float] = BOOK_PRIORS,
    ):
        self._prior = dict(priors)
        self._units: list[_Unit] = []
        speakers: dict[str, tuple[str, list[_Unit]]] = {}  # same words -> the line as first written, verses
        for position, verse in enumerate(verses):
            lines, speaker_lines = split_verse(verse.transliteration)
            units = self._texts_of(verse, position, "\n".join(lines))
            self._units.extend(units)
            for line in speaker_lines if units else ():
                speakers.setdefault(_same_words_key(line), (line, []))[1].append(units[0])
        self._keys = [unit.key for unit in self._units]
        self._key_array = np.array(self._keys, dtype=object)
        self._key_length = np.array([len(key) for key in self._keys], dtype=np.int32)
        self._index = GramIndex(self._keys)
        self._book_of = np.array([unit.verse.book for unit in self._units])
        self._unit_prior = np.array([unit.prior for unit in self._units], dtype=np.float32)
        self._favoured = self._unit_prior > 0 if self._unit_prior.any() else None
        self._units_of: dict[VerseKey, list[_Unit]] = {}
        for unit in self._units:
            self._units_of.setdefault(unit.verse.ref, []).append(unit)
        self._lines = [
            _Line(text, skeleton_key(text), fine_key(text), tuple(units)) for text, units in speakers.values()
        ]
        self._line_keys = [line.key for line in self._lines]
        self._verse_words = frozenset(fold_each(set(" ".join(unit.text for unit in self._units).split())))
        # The English words are those of the Gītā's translations, less the Gītā's own words (names such
        # as pāṇḍava or arjuna, which the translations use too). Other books' words are not taken out:
        # the Bengali of CC folds to "name", "more", "care", English far more often in a lecture.
        own = " ".join(unit.text for unit in self._units if unit.verse.book in ENGLISH_FROM_BOOKS)
        english = frozenset(fold_word(word) for word in english_words)
        self._english = english - frozenset(fold_each(set(own.split())))
        self._english_used = english & self._verse_words  # bhakti, karma, dharma, yoga
        self._same_words: dict[int, str] = {}  # unit index -> _same_words_key, filled as needed

    def __len__(self) -> int:
        return len(self._units_of)

    def _texts_of(self, verse: IndexedVerse, position: int, iast: str) -> list[_Unit]:
        """The verse's IAST, the IAST one first, and its Devanāgarī read as IAST where that reads
        differently (BG 1.20 ends with the half-line its IAST puts in 1.21)."""
        prior = self._prior.get(verse.book, 0.0)
        units = [_Unit(verse, position, iast, skeleton_key(iast), True, prior)] if iast else []
        if verse.devanagari:
            text = "\n".join(split_verse(devanagari_to_iast(verse.devanagari))[0])
            read = _Unit(verse, position, text, skeleton_key(text), False, prior)
            if text and all((read.key, read.fine) != (unit.key, unit.fine) for unit in units):
                units.append(read)
        return units

    @property
    def books(self) -> list[str]:
        """The books the verses are in, in the order first given."""
        return list(dict.fromkeys(self._book_of.tolist()))

    @property
    def index_bytes(self) -> int:
        return self._index.nbytes

    def _allowed(self, books: Collection[str] | None) -> npt.NDArray[np.bool_] | None:
        if books is None:
            return None
        return np.isin(self._book_of, list(books))

    # -- the query ---------------------------------------------------------------------------

    def is_english(self, word: str) -> bool:
        """An English word, not Sanskrit: written without diacritics, and a common English word or one
        the translations use that no verse does."""
        plain = _plain(word)
        if not plain or plain != _LETTERS.sub("", word.lower()) or _AVAGRAHA.search(word):
            return False
        if plain in FUNCTION_WORDS or fold_word(plain) in self._english:
            return True
        if fold_word(plain) in self._verse_words:  # "ei", "sei" (Bengali in CC): spelt like no Sanskrit
            return False
        # asked, chanted, finally, teachings: Sanskrit words do not end like this
        for suffix in _ENGLISH_SUFFIXES:
            stem = plain.removesuffix(suffix)
            if stem != plain and len(stem) >= 3 and fold_word(stem) in self._english:
                return True
        # letter pairs within the word's parts: "brahme,īśvare" run together is no "ei"
        parts = _NOT_LETTER.sub(" ", strip_diacritics(word))
        return plain.endswith(_ENGLISH_ENDINGS) or bool(_NOT_SANSKRIT_LETTERS.search(parts))

    def without_english_edges(self, text: str) -> tuple[int, int]:
        """The range of `text` less the words at its edges that the translations write as English and
        verses have too ("bhakti:", "karma"), which a speaker uses as English around a quote."""
        tokens = list(_TOKEN.finditer(text))
        start, end = 0, len(tokens)
        while start < end and fold_word(tokens[start].group()) in self._english_used:
            start += 1
        while end > start and fold_word(tokens[end - 1].group()) in self._english_used:
            end -= 1
        if start >= end:
            return 0, len(text)
        return tokens[start].start(), tokens[end - 1].end()

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
        while start < end and self._is_filler(tokens[start].group()):
            start += 1
        while start > 0 and _plain(tokens[start - 1].group()) in QUOTE_INTRODUCERS:
            start -= 1  # a name next to the quote, with no English between: it may be the quote's
        while end > start and self._is_filler(tokens[end - 1].group()):
            end -= 1
        while end < len(tokens) and _plain(tokens[end].group()) in QUOTE_INTRODUCERS:
            end += 1
        if start >= end:
            return text.strip()
        return text[tokens[start].start() : tokens[end - 1].end()]

    def _is_filler(self, word: str) -> bool:
        plain = _plain(word)
        return not plain or plain in QUOTE_INTRODUCERS or self.is_english(word)

    # -- matching ----------------------------------------------------------------------------

    def quoted_parts(self, text: str, refs: list[VerseKey]) -> list[QuotedPart | None]:
        """For each verse, the words of `text` that recite it and the verse's words for them: an edge word
        that does not continue the verse where the rest leaves off ("bhakti:", "as dharma") is left out."""
        words = [_Word.of(token, self.may_edge_quote(token.group())) for token in _TOKEN.finditer(text)]
        return [self._quoted_part(words, ref) for ref in refs]

    def _quoted_part(self, words: list[_Word], ref: VerseKey) -> QuotedPart | None:
        best: tuple[int, bool] | None = None
        found = None
        for unit in self._units_of.get(ref, []):
            part = _quoted_in(unit, words)
            # of equal alignments, the words as the IAST writes them (not the Devanāgarī read as IAST)
            rank = (-part.edits, unit.from_iast) if part else None
            if rank and (best is None or rank > best):
                best, found = rank, part
        return found

    def match(
        self, text: str, top_n: int, *, trim_filler: bool = True, books: Collection[str] | None = None
    ) -> MatchReport:
        """The `top_n` best verses for `text`; `trim_filler=False` when the quote is already cut out;
        `books` limits the verses to those books."""
        query = _prepare(text)
        if trim_filler:
            query = self.trim_filler(query)
        query = _without_speaker(query)
        key = skeleton_key(query)
        if len(key) < MIN_KEY:
            return MatchReport(
                [], False, query, ("Too little Sanskrit to match: give at least a few words.",)
            )
        allowed = self._allowed(books)
        best = self._ranked_verses(query, key, allowed)
        said = query
        stutter_note: tuple[str, ...] = ()
        fluent = without_stutters(query)
        if fluent != fold_words(query) and len(fluent_key := skeleton_key(fluent)) >= MIN_KEY:
            # a syllable said twice ("prapraprabhu"): the quote without the repeats, if it aligns better
            again = self._ranked_verses(fluent, fluent_key, allowed)
            if again and (not best or again[0][1] > best[0][1]):
                query, key, best = fluent, fluent_key, again
                stutter_note = (f"Matched with the syllables said twice said once: '{fluent}'.",)
        line = self._speaker_line(query, key, best[0][1] if best else 0.0, books)
        if line is not None:
            return line
        matches: list[Match] = []
        holders: set[VerseKey] = set()
        for unit, score in best:
            if len(matches) >= max(top_n, 2):
                break
            if unit.verse.ref in holders:
                continue
            match = self._describe(unit, key, score)
            if not matches:
                match, holders = self._with_holders(match, allowed)
            matches.append(match)
        confident, notes = self._assess(key, matches)
        return MatchReport(matches[:top_n], confident, said, (*stutter_note, *notes))

    def _ranked_verses(
        self, query: str, key: str, allowed: npt.NDArray[np.bool_] | None
    ) -> list[tuple[_Unit, float]]:
        """The best verses for a query and its skeleton: aligned on consonants, then the vowels weighed."""
        boost = prior_boost(key)
        return self._rerank(
            fine_key(query), self._best_per_verse(key, allowed, boost), fine_weight(key), boost
        )

    def _best_per_verse(
        self, key: str, allowed: npt.NDArray[np.bool_] | None, boost: float
    ) -> list[tuple[_Unit, float]]:
        """The CANDIDATES best-aligned verses (a verse's prior counted), each with its best text's score."""
        short = len(key) <= SHORT_QUERY
        limit = SHORT_SHORTLIST if short else SHORTLIST
        shortlist = self._index.shortlist(key, limit, allowed, self._favoured, SHORTLIST)
        if not len(shortlist):
            return []
        keys = self._key_array[shortlist].tolist()
        # aligned as they are, and as if the quote had lost a consonant
        scores = _alignment_scores(key, keys, self._key_length[shortlist], DROPPED_CONSONANTS[:1])
        limit = SHORT_CANDIDATES if short else CANDIDATES
        ranked = np.argsort(-(scores + boost * self._unit_prior[shortlist]), kind="stable")
        if self._favoured is not None:  # a favoured book's best, as many as if it were searched alone
            favoured = ranked[self._favoured[shortlist[ranked]]][:CANDIDATES]
            ranked = np.concatenate((ranked[:limit], favoured[~np.isin(favoured, ranked[:limit])]))
        else:
            ranked = ranked[:limit]
        # the leaders also as if it had lost more
        more = _alignment_scores(
            key,
            [keys[i] for i in ranked],
            self._key_length[shortlist[ranked]],
            DROPPED_CONSONANTS[1:],
            exact=False,
        )
        scores[ranked] = np.maximum(scores[ranked], more)
        best: dict[VerseKey, tuple[_Unit, float]] = {}
        for index in ranked:
            unit, score = self._units[shortlist[index]], float(scores[index])
            if score >= MIN_SCORE and (unit.verse.ref not in best or score > best[unit.verse.ref][1]):
                best[unit.verse.ref] = (unit, score)
        return self._ranked(best.values(), boost)

    @staticmethod
    def _ranked(scored: Iterable[tuple[_Unit, float]], boost: float) -> list[tuple[_Unit, float]]:
        """Best first: by score and the book's prior; of equals, the verse given first."""
        return sorted(scored, key=lambda item: (-item[1] - boost * item[0].prior, item[0].position))

    def _rerank(
        self, fine: str, best: list[tuple[_Unit, float]], weight: float, boost: float
    ) -> list[tuple[_Unit, float]]:
        """Among the leaders, let the vowels and aspirates the skeleton ignores break ties.

        The leaders are the verses within RERANK_WINDOW of the best, the best as ranked once the vowels
        are weighed: weighing them may drop the verses that set the window below others, which must then
        be weighed too, or a verse whose vowels were never weighed outranks one whose were (two SB verses
        with the consonants of "droṇaṁ ca bhīṣmaṁ ca" but other vowels set the window, fell below the
        Gītā's own verse left out of it, and the first Gītā verse with those consonants won a tie)."""
        if not best:
            return best
        rescored = list(best)
        weighed: set[int] = set()
        while True:
            top = max(score + boost * unit.prior for unit, score in rescored)
            leaders = [
                index
                for index, (unit, score) in enumerate(rescored)
                if index not in weighed and score + boost * unit.prior >= top - RERANK_WINDOW
            ]
            if not leaders:
                return self._ranked(rescored, boost)
            fines = [best[index][0].fine for index in leaders]
            lengths = np.array([len(text) for text in fines], dtype=np.int32)
            vowels = _alignment_scores(fine, fines, lengths, DROPPED_LETTERS).tolist()
            for index, vowel in zip(leaders, vowels, strict=True):
                unit, score = best[index]
                rescored[index] = (unit, (1 - weight) * score + weight * vowel)
            weighed.update(leaders)

    def _speaker_line(
        self, query: str, key: str, best_score: float, books: Collection[str] | None
    ) -> MatchReport | None:
        """A query that is a speaker's line ("śrī-śuka uvāca"): the line, and every verse it opens."""
        if not self._lines or len(key) > SPEAKER_QUERY:
            return None
        cutoff = CONFIDENT_SCORE * 100
        found = process.extractOne(key, self._line_keys, scorer=fuzz.ratio, score_cutoff=cutoff)
        if found is None:
            return None
        line = self._lines[found[2]]
        units = [u for u in line.units if books is None or u.verse.book in books]
        fine = fuzz.ratio(fine_key(query), line.fine) / 100
        score = (1 - FINE_WEIGHT) * found[1] / 100 + FINE_WEIGHT * fine
        if not units or score < best_score:
            return None
        first = units[0]
        match = Match(
            ref=first.verse.ref,
            score=round(score, 4),
            transliteration=first.verse.transliteration,
            matched=line.text,
            line=line.text,
            book=first.verse.book,
            also_in=tuple(unit.verse.ref for unit in units[1 : MAX_ALSO_IN + 1]),
            recurs=len(units) - 1,
        )
        note = (
            f"'{line.text}' says who speaks: it opens {len(units)} verses"
            f" ({', '.join(str(u.verse.ref) for u in units[:5])}{', …' if len(units) > 5 else ''});"
            " quote the verse's own words to find one."
        )
        return MatchReport([match], False, query, (note,))

    def _with_holders(self, top: Match, allowed: npt.NDArray[np.bool_] | None) -> tuple[Match, set[VerseKey]]:
        """The best match named by the first verse (in corpus order) that holds its words, and every verse
        that holds them: a refrain, or a verse one book quotes from another (a Gītā verse in the
        Caitanya-caritāmṛta is the Gītā's). The others are listed in the match's `also_in`. Editions
        differ by a letter here and there (the Gītā's data has "mokṣyayiṣyāmi" in 18.66): a verse holds
        the words if its text has them with one slip in SAME_WORDS_LETTERS letters at most."""
        matched_key = skeleton_key(top.matched)
        if len(matched_key) < MIN_KEY:
            return top, {top.ref}
        words = _same_words_key(top.matched)
        slips = len(words) // SAME_WORDS_LETTERS
        # partial_ratio is 1 - Indel distance / (2 x length); a changed letter is two Indel edits
        least = 100 * (1 - 2 * slips / (2 * len(words))) - 1e-9
        holders: dict[VerseKey, _Unit] = {}
        for index in self._index.holding(matched_key, allowed, edits=2 * slips):
            unit = self._units[index]
            if unit.verse.ref in holders:
                continue
            text = self._same_words_of(int(index))
            if words in text or (slips and fuzz.partial_ratio(words, text, score_cutoff=least)):
                holders[unit.verse.ref] = unit
        if top.ref not in holders:  # the matched words run across a line break that another text splits
            return top, {top.ref}
        ordered = sorted(holders.values(), key=lambda unit: unit.position)
        if ordered[0].verse.ref != top.ref:
            top = replace(self._describe(ordered[0], matched_key, top.score), score=top.score)
        others = [unit.verse.ref for unit in ordered if unit.verse.ref != top.ref]
        return replace(top, also_in=tuple(others[:MAX_ALSO_IN]), recurs=len(others)), set(holders)

    def _same_words_of(self, index: int) -> str:
        if (words := self._same_words.get(index)) is None:
            words = self._same_words[index] = _same_words_key(self._units[index].text)
        return words

    def _describe(self, unit: _Unit, key: str, score: float) -> Match:
        unit_key = unit.skeleton.key
        alignment = _alignment(key, unit_key)
        if len(key) <= len(unit_key):
            start, end = alignment.dest_start, alignment.dest_end
        else:  # the verse is shorter than the query: all of it matched
            start, end = 0, len(unit_key)
        span_start, span_end = unit.skeleton.span(start, end)
        matched = _expand_to_words(unit.text, span_start, span_end)
        line = unit.text[: unit.text.find(matched)].count("\n") if matched in unit.text else 0
        return Match(
            ref=unit.verse.ref,
            score=round(score, 4),
            transliteration=unit.verse.transliteration,
            matched=matched.replace("\n", " / "),
            line=unit.text.splitlines()[line] if unit.text else "",
            book=unit.verse.book,
        )

    def _assess(self, key: str, matches: list[Match]) -> tuple[bool, list[str]]:
        if not matches:
            return False, []
        top = matches[0]
        notes = []
        if top.recurs:
            shown = ", ".join(str(ref) for ref in top.also_in[:5])
            more = f" and {top.recurs - 5} more" if top.recurs > 5 else ""
            notes.append(
                f"The matched words also appear in {shown}{more}; quote more of the verse to tell them apart."
            )
        rivals = [m for m in matches[1:] if m.matched != top.matched]
        # the margin in the ranking's terms: a Gītā verse needs less of a lead over an SB verse
        prior = self._prior.get
        boost = prior_boost(key)
        margin = (
            top.score
            + boost * prior(top.book, 0.0)
            - (rivals[0].score + boost * prior(rivals[0].book, 0.0) if rivals else 0.0)
        )
        confident = (
            len(key) >= MIN_CONFIDENT_KEY
            and top.score >= CONFIDENT_SCORE
            and (margin >= MIN_MARGIN or top.score >= NEAR_EXACT)
        ) or (len(key) >= SHORT_CONFIDENT_KEY and top.score >= NEAR_EXACT and margin >= MIN_MARGIN)
        return confident, notes


def _alignment_scores(
    key: str,
    keys: list[str],
    lengths: npt.NDArray[np.int32],
    dropped_letters: Iterable[int],
    *,
    exact: bool = True,
) -> npt.NDArray[np.float32]:
    """How well `key` aligns with its best stretch of each of `keys`, in [0, 1]: one less the Indel edits
    (letters left out or added) between them, over twice the key's length, as `partial_ratio` counts.

    `partial_ratio` compares the key with stretches as long as itself, so a consonant the speaker
    dropped costs it two edits (the stretch lacks the verse's last letter, and has the dropped one), as
    much as a changed consonant. A dropped syllable is the commonest slip of a transcriber who mishears
    a recitation; so the key is also compared with stretches `dropped_letters` longer (the key padded
    with letters no key has), where a dropped letter costs one edit, as it should. `exact=False` skips
    the stretches as long as the key (an exact quote then scores as one that lost a letter), except for
    keys too short for the longer stretches.
    """
    size = len(key)
    scores = np.full(len(keys), -1.0, dtype=np.float32)
    least = 0.0
    if exact:
        scores = process.cdist([key], keys, scorer=fuzz.partial_ratio, dtype=np.float32)[0] / 100
        least = float(scores.max(initial=0.0)) - PADDED_BELOW_BEST  # the rest cannot lead
    for longer in dropped_letters:
        # partial_ratio = 2 x common letters / (2 x window): the letters of the key the window holds
        cutoff = 100 * (2 * size * least + longer) / (2 * (size + longer))
        padded = process.cdist(
            [key + _PAD * longer],
            keys,
            scorer=fuzz.partial_ratio,
            dtype=np.float32,
            score_cutoff=max(0.0, cutoff),
        )[0]
        common = np.minimum(padded / 100 * (size + longer), size)
        fits = (lengths >= size + longer) & (padded > 0)
        scores = np.maximum(scores, np.where(fits, (2 * common - DROP_COST * longer) / (2 * size), -1))
    if not exact and len(short := np.flatnonzero(scores < 0)):  # keys too short to pad
        found = process.cdist([key], [keys[i] for i in short], scorer=fuzz.partial_ratio, dtype=np.float32)
        scores[short] = found[0] / 100
    return scores


def without_stutters(text: str) -> str:
    """The text's folded words with a syllable or two said twice or more in a row said once: a speaker's
    (or a transcriber's) stutter, "prapraprabhu" -> "prabhu", "sabdabdam" -> "sabdam". Words written
    apart ("krame krame") are left alone. The matcher tries it beside the quote as said, and keeps the
    better match: a verse's own repeats ("mama") lose nothing."""
    return " ".join(_STUTTER.sub(r"\1", word) for word in fold_words(text).split())


def prior_boost(key: str) -> float:
    """How much a book's prior counts for this query: a short quote says little about which verse it
    is, and is more likely the Gītā's than any one of 25,000 verses that share its few consonants."""
    return max(1.0, PRIOR_FROM_KEY / max(len(key), 1))


def fine_weight(key: str) -> float:
    """How much the vowels count beside the consonants' skeleton: FINE_WEIGHT, more for a short quote,
    whose few consonants many verses share (up to SHORT_FINE_WEIGHT for 6 consonants or fewer)."""
    shortfall = max(0, FINE_WEIGHT_FROM_KEY - len(key)) / (FINE_WEIGHT_FROM_KEY - 6)
    return FINE_WEIGHT + (SHORT_FINE_WEIGHT - FINE_WEIGHT) * min(1.0, shortfall)


@lru_cache(maxsize=32768)
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
    alignment = _alignment(key, unit.skeleton.key)
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
    alignment = _alignment(query, verse)
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


def _alignment(query: str, target: str) -> ScoreAlignment:
    """rapidfuzz's alignment of `query` within `target`: None only for a None string or a score under a
    cutoff, and neither is passed here."""
    alignment = fuzz.partial_ratio_alignment(query, target)
    assert alignment is not None
    return alignment
