"""An n-gram index over phonetic skeletons, so that matching a quote costs the same over 26,000 verses
as over 700.

Aligning a quote with every verse's skeleton (rapidfuzz's `partial_ratio`) costs ~1 µs a verse: 1 ms
for the Gītā, 25-40 ms for the Gītā, the Bhāgavatam and the Caitanya-caritāmṛta together. The index
shortlists the few hundred verses that share the most consonant n-grams with the quote, and only those
are aligned. A skeleton has 9 letters, so 4-grams (6,561 of them) single out a verse well; a short
quote with a slip in it has few 4-grams left intact, so quotes of up to SHORT_QUERY consonants are
looked up by 3-grams, which survive more of its slips. A gram counts by its rarity (log of the verses
over the verses holding it): a garbled quote keeps few of its grams, and a verse that shares its rare
ones is likelier its verse than one of the thousands sharing as many common ones. Everything is numpy
arrays built in one pass: ~0.1 s and ~10 MB for 26,000 verses.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

ALPHABET = "kctpnsyrl"  # the skeleton's consonant classes (pramana.text.phonetic)
SHORT_QUERY = 16  # consonants: a quote this short is looked up by 3-grams, a longer one by 4-grams
GRAM_SIZES = (3, 4)

_CODES = np.full(256, 255, dtype=np.uint8)
for _code, _letter in enumerate(ALPHABET):
    _CODES[ord(_letter)] = _code

IntArray = npt.NDArray[np.int64]


def _encode(key: str) -> npt.NDArray[np.uint8]:
    return _CODES[np.frombuffer(key.encode("ascii"), dtype=np.uint8)]


def _grams(codes: npt.NDArray[np.uint8], size: int) -> IntArray:
    """Each window of `size` codes as one number; a window holding a separator (255) is -1."""
    if len(codes) < size:
        return np.empty(0, dtype=np.int64)
    windows = np.lib.stride_tricks.sliding_window_view(codes, size)
    numbers = np.zeros(len(windows), dtype=np.int64)
    for column in range(size):
        numbers = numbers * len(ALPHABET) + windows[:, column]
    numbers[(windows == 255).any(axis=1)] = -1
    return numbers


class _Postings:
    """For one gram size: the units holding each gram, as one sorted array and offsets into it, and how
    rare each gram is."""

    def __init__(self, keys: Sequence[str], size: int):
        self.size = size
        count = max(len(keys), 1)
        joined = _encode("\x00".join(keys)) if keys else np.empty(0, dtype=np.uint8)
        grams = _grams(joined, size)
        lengths = np.fromiter((len(key) + 1 for key in keys), dtype=np.int64, count=len(keys))
        owner = np.repeat(np.arange(len(keys), dtype=np.int64), lengths)[: len(grams)]
        keep = grams >= 0
        pairs = np.unique(grams[keep] * count + owner[keep])  # one posting per unit and gram, sorted
        self.units = (pairs % count).astype(np.int32)
        self.offsets = np.searchsorted(pairs // count, np.arange(len(ALPHABET) ** size + 1))
        # how rare each gram is (its inverse document frequency): a verse that shares a quote's rare
        # grams is likelier its verse than one sharing as many grams that thousands of verses hold
        self.weights = np.log((len(keys) + 1) / (np.diff(self.offsets) + 1)).astype(np.float32)

    def units_of(self, gram: int) -> npt.NDArray[np.int32]:
        return self.units[self.offsets[gram] : self.offsets[gram + 1]]

    def weighted_counts(self, grams: Sequence[int], size: int) -> npt.NDArray[np.float64]:
        """For every unit, the summed weights of the grams it shares with `grams`."""
        parts = [self.units_of(gram) for gram in grams]
        weights = np.repeat(self.weights[list(grams)], [len(part) for part in parts])
        # numpy's stub types bincount as integers; with weights it returns float64
        return np.bincount(np.concatenate(parts), weights=weights, minlength=size)  # type: ignore[return-value]

    @property
    def nbytes(self) -> int:
        return int(self.units.nbytes + self.offsets.nbytes + self.weights.nbytes)


def _most(counts: npt.NDArray[np.float64], units: IntArray, limit: int) -> IntArray:
    """Of `units`, the `limit` with the highest counts (of equal counts, the earlier), in unit order."""
    if len(units) <= limit:
        return units
    chosen = counts[units]
    least = np.partition(chosen, len(chosen) - limit)[len(chosen) - limit]  # the limit-th highest count
    above = chosen > least
    level = np.flatnonzero(chosen == least)[: limit - int(above.sum())]  # of equal counts, the earlier
    above[level] = True
    return units[above]


class GramIndex:
    """Which units (verse texts) share the most consonant n-grams with a query."""

    def __init__(self, keys: Sequence[str]):
        self.size = len(keys)
        self._postings = {size: _Postings(keys, size) for size in GRAM_SIZES}

    @property
    def nbytes(self) -> int:
        return sum(postings.nbytes for postings in self._postings.values())

    def _query_grams(self, key: str, size: int) -> list[int]:
        return sorted(set(_grams(_encode(key), size).tolist()))  # a few dozen

    def shortlist(
        self,
        key: str,
        limit: int,
        allowed: npt.NDArray[np.bool_] | None = None,
        favoured: npt.NDArray[np.bool_] | None = None,
        favoured_limit: int = 0,
    ) -> IntArray:
        """The `limit` units sharing the most n-grams with `key`, each gram weighed by its rarity (of equal
        weights, the earlier units), and up to `favoured_limit` more of the `favoured` units, so that a
        small book is searched about as well as if it were alone."""
        postings = self._postings[3 if len(key) <= SHORT_QUERY else 4]
        grams = self._query_grams(key, postings.size)
        if not len(grams) or not self.size:
            return np.empty(0, dtype=np.int64)
        counts = postings.weighted_counts(grams, self.size)
        if allowed is not None:
            counts[~allowed] = 0
        found = _most(counts, np.flatnonzero(counts), limit)
        if favoured is not None and len(found) == limit:
            found = np.union1d(found, _most(counts, np.flatnonzero(counts * favoured), favoured_limit))
        return found

    def holding(self, key: str, allowed: npt.NDArray[np.bool_] | None = None, *, edits: int = 0) -> IntArray:
        """The units that may hold `key` with at most `edits` edits: those holding all its n-grams but the
        few that many edits can break (a superset of those whose skeleton holds it)."""
        postings = self._postings[3 if len(key) <= SHORT_QUERY else 4]
        grams = self._query_grams(key, postings.size)
        holding = np.ones(self.size, dtype=bool) if allowed is None else allowed.copy()
        needed = len(grams) - edits * postings.size
        if needed <= 0:  # too short to have n-grams the edits leave: every unit may hold it
            return np.flatnonzero(holding)
        hits = np.concatenate([postings.units_of(int(gram)) for gram in grams])
        holding &= np.bincount(hits, minlength=self.size) >= needed
        return np.flatnonzero(holding)
