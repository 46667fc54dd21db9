"""Finding translations the source data filed under a verse they do not translate.

Prabhupada's text at 11.41 is his translation of 11.33 in other words, at 11.42 of 10.36, at 16.11 that
of 16.10 again; Sankaranarayan's 1.23 repeats his 1.24. These texts carry no verse number, so the
number check in translators.py cannot see them.

Two witnesses can. The author's own texts: a misfiled one reads like the author's text of another
verse (tf-idf cosine of stemmed content words above SAME_WORDING). And the other authors, who wrote
in their own words what each verse says: the misfiled text agrees with what they wrote for that other
verse more than MISFILED_AGREEMENT times as well as with what they wrote for its own. A verse
repeated over a range, or two verses that say alike things (1.26 and 1.34 both list Arjuna's
kinsmen), fail the second test: the other authors agree with each text where it is.

A third witness finds runs of texts shifted by a verse or two, as a scrape that slipped leaves
them (Sankaranarayan's 5.20-5.28 are each his next verse's, his 1.28-1.34 and Prabhupada's 1.44-1.46
too): the other authors' texts of a neighbouring verse (SHIFT_REACH either way, same chapter) agree
with the text at least SHIFTED_COSINE and SHIFTED_AGREEMENT times as well as those of its own verse.
Only neighbours: over all verses, the others' agreement alone also flags correct free renderings
(Purohit's 1.44 reads like 6.30 to it), and a shifted run is the slip this data shows.

A verse is judged only where at least MIN_WITNESSES other authors have a text for it. Commentaries
are witnesses (their first WITNESS_WORDS words, where they restate the verse) but are not judged.
It needs every verse, so it runs once the cache holds all 701: after a seed, and when a cache seeded
before it is opened. The thresholds were read off the one dataset there is, so it is kept strict:
it finds 25 texts there (8 by the first two witnesses, 17 shifted), each one that readers of every
translation found misfiled (README).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence

import numpy as np

from pramana.gita.question import QUESTION_WORDS, TRANSLATION_AUTHORS
from pramana.gita.reference import VerseRef
from pramana.text.stem import stem

SAME_WORDING = 0.6
MISFILED_AGREEMENT = 2.0
# A run of one author's texts shifted by a verse or two (a scraping slip): the other authors agree
# with a text SHIFTED_AGREEMENT times as well on a neighbouring verse as on its own, and clearly.
SHIFT_REACH = 2
SHIFTED_AGREEMENT = 3.0
SHIFTED_COSINE = 0.25
MIN_WITNESSES = 2
WITNESS_WORDS = 120

_WORD = re.compile(r"[a-z]+")
EnglishTexts = Mapping[VerseRef, Sequence[tuple[str, str]]]


def misfiled_texts(english: EnglishTexts) -> dict[tuple[VerseRef, str], VerseRef]:
    """(verse, author key) of each misfiled translation → the verse whose translation it is.

    `english` holds each verse's (author key, English text) pairs.
    """
    space = _Space(english)
    everyone = sum(space.counts(author) for author in space.authors)
    misfiled: dict[tuple[VerseRef, str], VerseRef] = {}
    for author in sorted(TRANSLATION_AUTHORS & space.authors):
        counts = space.counts(author)
        own = space.unit_columns(counts)
        others = space.unit_columns(everyone - counts)
        judged = own.any(axis=0) & (space.texts_per_verse - 1 >= MIN_WITNESSES)
        for column in np.nonzero(judged)[0].tolist():
            # The text's cosines with the author's other texts and with the others' texts of each
            # verse, over its own terms only (tens of the space's thousands).
            terms = space.terms_of(author, column)
            weights = own[terms, column]
            wording = weights @ own[terms]
            wording[column] = 0.0
            agreement = weights @ others[terms]
            alike = np.nonzero(wording > SAME_WORDING)[0]
            if len(alike):
                best = alike[np.argmax(agreement[alike])]
                if agreement[best] > MISFILED_AGREEMENT * agreement[column]:
                    misfiled[(space.refs[column], author)] = space.refs[best]
                    continue
            if (shifted := _shifted_to(space.refs, column, agreement)) is not None:
                misfiled[(space.refs[column], author)] = shifted
    return misfiled


def _shifted_to(refs: Sequence[VerseRef], row: int, agreement: np.ndarray) -> VerseRef | None:
    """The neighbouring verse (same chapter, SHIFT_REACH either way) a text belongs to, if the others'
    texts of it agree with the text clearly and SHIFTED_AGREEMENT times as well as its own verse's."""
    own = refs[row]
    near = [
        column
        for column in range(max(0, row - SHIFT_REACH), min(len(refs), row + SHIFT_REACH + 1))
        if column != row and refs[column].chapter == own.chapter
    ]
    if not near:
        return None
    best = max(near, key=lambda column: agreement[column])
    if agreement[best] >= SHIFTED_COSINE and agreement[best] > SHIFTED_AGREEMENT * agreement[row]:
        return refs[best]
    return None


def _terms(text: str) -> Counter[str]:
    words = _WORD.findall(" ".join(text.lower().split()[:WITNESS_WORDS]))
    return Counter(stem(w) for w in words if len(w) > 2 and w not in QUESTION_WORDS)


class _Space:
    """tf-idf over the verses: each author's texts as their terms' rows and weights, and as a term ×
    verse matrix made when asked for (each is a few MB)."""

    def __init__(self, english: EnglishTexts):
        self.refs = sorted(english)
        bags = {(ref, author): _terms(text) for ref in self.refs for author, text in english[ref]}
        self.authors = {author for _, author in bags}
        document_frequency = Counter(term for bag in bags.values() for term in bag)
        # A word of one text cannot tie two verses together.
        terms = [term for term, n in document_frequency.items() if n > 1]
        rows = {term: i for i, term in enumerate(terms)}
        frequencies = np.array([document_frequency[t] for t in terms], dtype=np.float32)
        self._idf = np.log(len(bags) / frequencies)[:, np.newaxis]
        # author → verse column → (the rows of the text's terms, 1 + log(term count) of each)
        self._texts: dict[str, dict[int, tuple[np.ndarray, np.ndarray]]] = {a: {} for a in self.authors}
        column_of = {ref: column for column, ref in enumerate(self.refs)}
        for (ref, author), bag in bags.items():
            found = [(rows[term], count) for term, count in bag.items() if term in rows]
            self._texts[author][column_of[ref]] = (
                np.array([row for row, _ in found], dtype=np.intp),
                np.array([1 + math.log(count) for _, count in found], dtype=np.float32),
            )
        verse_texts = Counter(ref for ref, _ in bags)
        self.texts_per_verse = np.array([verse_texts[ref] for ref in self.refs])

    def counts(self, author: str) -> np.ndarray:
        """A column of 1 + log(term count) per verse for the author's texts (zeros where none)."""
        matrix = np.zeros((len(self._idf), len(self.refs)), dtype=np.float32)
        for column, (rows, values) in self._texts[author].items():
            matrix[rows, column] = values
        return matrix

    def terms_of(self, author: str, column: int) -> np.ndarray:
        """The rows of the terms of the author's text of the verse in `column`."""
        return self._texts[author][column][0]

    def unit_columns(self, counts: np.ndarray) -> np.ndarray:
        weighted = counts * self._idf
        norms = np.linalg.norm(weighted, axis=0, keepdims=True)
        return np.divide(weighted, norms, out=np.zeros_like(weighted), where=norms > 0)
