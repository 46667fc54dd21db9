"""Ranking the installed books' verses (the Śrīmad-Bhāgavatam, the Caitanya-caritāmṛta) for search_verses.

The books are ranked as the Gītā is (ranking.py): a question ranking over the English a user's cache
holds for each verse (its translation, when the archive installed had them; upstream's has), with the
model's vectors of those translations once they are encoded, and a term ranking over the verse's own
words and the Sanskrit words of its word-for-word meanings (the synonyms), whose English also turns a
loose Sanskrit term of a query into the words a translation uses. One ranking holds every installed
book, in catalogue order; a search limits it to the books it asks for (`BooksRanking.rank`).

Its term index is saved beside the cache (`<cache>.book-terms.npz`, 13 MB for SB and CC with the verse
texts alone) with the installed books' signature, and built again after an install; its vectors are
kept in `<cache>.book-vectors.npz` (a text's key is its hash, as the Gītā's: semantic.py).

The Gītā keeps a ranking of its own: its texts are of another kind (22 translators and commentators, a
reader's subject index and questions), and its scores are what the question sets were measured on. A
search of several books adds each ranking's scores as they are; each is scaled within its own book
(BM25 to [0, 1], the term ranking by its best), so the best verse of a book that answers only weakly
still scores less than one that matches the meaning or the words better.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from pathlib import Path

import numpy as np

from pramana.gita.ranking import BookVerse, RankedVerse, ReadQuery, VerseRanking
from pramana.gita.store import StoredBookVerse
from pramana.gita.terms import TermIndex, synonyms_glossary


def book_terms_path(db_path: Path) -> Path:
    """Where the term index of the books installed in the cache at `db_path` is saved: beside it."""
    return db_path.with_name(f"{db_path.name}.book-terms.npz")


def book_vectors_path(db_path: Path) -> Path:
    """Where the vectors of the books' translations are kept: beside the cache."""
    return db_path.with_name(f"{db_path.name}.book-vectors.npz")


def book_entries(stored: Sequence[StoredBookVerse]) -> list[BookVerse]:
    """Each installed text as the ranking reads it: its IAST, its translation and its word-for-word
    meanings where the cache has them."""
    return [
        BookVerse(
            verse.ref,
            verse.transliteration,
            translations=(verse.translation,) if verse.translation else (),
            glossary=synonyms_glossary(verse.synonyms) if verse.synonyms else (),
        )
        for verse in stored
    ]


class BooksRanking:
    """The ranking of every installed book's verses, and the book each verse is in."""

    def __init__(self, ranking: VerseRanking, books: Sequence[str]):
        self.ranking = ranking
        self._book_of = np.array(books)
        self.books = list(dict.fromkeys(books))
        self.translated = ranking.questions.has_texts

    @property
    def semantic(self) -> bool:
        return self.ranking.questions.semantic

    @property
    def terms(self) -> TermIndex | None:
        return self.ranking.terms

    def read(self, query: str) -> ReadQuery:
        return self.ranking.read(query)

    def rank(
        self,
        query: str,
        limit: int,
        boosts: Sequence[tuple[Hashable, float]],
        read: ReadQuery,
        codes: Sequence[str],
    ) -> list[RankedVerse]:
        """The best `limit` verses of the books `codes` (VerseRanking.rank)."""
        allowed = None if set(self.books) <= set(codes) else np.isin(self._book_of, list(codes))
        return self.ranking.rank(query, limit, boosts, read, allowed=allowed)
