"""BM25 over every chunk, in memory, scored with numpy.

SQLite's FTS5 computes bm25() row by row, a few microseconds each: a query whose common words
match most of a 40k-chunk index spends tens of milliseconds there. Here each chunk's terms are
counted once at indexing time (a "bag": term ids and weighted counts, stored beside the chunk),
and a search adds up the postings of the query's few terms for all chunks at once.

Terms are the index terms of terms.py (identifiers split, whole identifiers kept), stemmed with
the Porter stemmer as FTS5's `porter` tokenizer does, so `parses`, `parsing` and `parse` meet.
A chunk's name counts three times, as it did in FTS5 (BM25F-style weighted term frequency).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from pramana.text.stem import stem

K1, B = 1.2, 0.75


@dataclass(frozen=True)
class LexicalIndex:
    """Postings by term (CSC layout): chunks `docs[start[t]:start[t + 1]]` hold term t."""

    generation: int
    rowids: np.ndarray  # chunk rowid of each document position
    ids: list[str]  # chunk id of each document position
    heads: dict[str, tuple[str, str | None, str | None]]  # chunk id -> (path, name, parent)
    term_ids: dict[str, int]
    start: np.ndarray  # len(terms) + 1 offsets into docs/weights
    docs: np.ndarray  # document positions, int32
    weights: np.ndarray  # weighted term counts, float32
    norms: np.ndarray  # k1 * (1 - b + b * length / mean length), per document

    @classmethod
    def build(
        cls,
        generation: int,
        rowids: Sequence[int],
        ids: Sequence[str],
        heads: dict[str, tuple[str, str | None, str | None]],
        bags: Sequence[tuple[np.ndarray, np.ndarray]],
        term_ids: dict[str, int],
    ) -> LexicalIndex:
        count = len(bags)
        sizes = np.fromiter((len(t) for t, _ in bags), dtype=np.int64, count=count)
        terms = np.concatenate([t for t, _ in bags]) if count else np.zeros(0, np.int32)
        weights = np.concatenate([w for _, w in bags]) if count else np.zeros(0, np.float32)
        return cls.from_bags(generation, rowids, ids, heads, sizes, terms, weights, term_ids)

    @classmethod
    def from_bags(
        cls,
        generation: int,
        rowids: Sequence[int],
        ids: Sequence[str],
        heads: dict[str, tuple[str, str | None, str | None]],
        sizes: np.ndarray,
        terms: np.ndarray,
        weights: np.ndarray,
        term_ids: dict[str, int],
    ) -> LexicalIndex:
        """`build`, from every bag's terms and weights end to end (int32, float32) and its size."""
        count = len(sizes)
        docs = np.repeat(np.arange(count, dtype=np.int32), sizes)
        # Stable: each term's postings in chunk order. With fewer than 65,536 term ids (a repository's
        # lexicon mostly is) the same order comes from a radix sort of 16-bit keys, twice as fast.
        small = len(terms) and int(terms.min()) >= 0 and int(terms.max()) < 1 << 16
        keys = terms.astype(np.uint16) if small else terms
        order = np.argsort(keys, kind="stable")
        vocabulary = max(term_ids.values(), default=-1) + 1
        start = np.zeros(vocabulary + 1, dtype=np.int64)
        np.cumsum(np.bincount(terms, minlength=vocabulary), out=start[1:])
        lengths = np.bincount(docs, weights=weights, minlength=count).astype(np.float32)
        mean = float(lengths.mean()) if count else 1.0
        norms = (K1 * (1 - B + B * lengths / (mean or 1.0))).astype(np.float32)
        return cls(
            generation, np.asarray(rowids, dtype=np.int64), list(ids), heads, term_ids, start,
            docs[order], weights[order], norms,
        )  # fmt: skip

    def parts(self) -> dict[str, np.ndarray]:
        """The index as arrays (see `pack_arrays`), to be loaded again by `from_parts`."""
        heads = [self.heads[chunk_id] for chunk_id in self.ids]
        return {
            "rowids": self.rowids, "start": self.start, "docs": self.docs, "weights": self.weights,
            "norms": self.norms, "ids": join_strings(self.ids),
            "paths": join_strings([h[0] for h in heads]),
            "names": join_strings([h[1] for h in heads]),
            "parents": join_strings([h[2] for h in heads]),
            "terms": join_strings(list(self.term_ids)),
            "term_ids": np.fromiter(self.term_ids.values(), dtype=np.int64, count=len(self.term_ids)),
        }  # fmt: skip

    @classmethod
    def from_parts(cls, generation: int, parts: dict[str, np.ndarray]) -> LexicalIndex:
        """The index `parts()` gave; ValueError if the parts do not fit together."""
        ids = split_names(parts["ids"])
        heads = [split_strings(parts[name]) for name in ("paths", "names", "parents")]
        terms = split_names(parts["terms"])
        term_numbers = parts["term_ids"].tolist()
        rowids, start, docs = parts["rowids"], parts["start"], parts["docs"]
        if not (len(rowids) == len(ids) == len(parts["norms"]) and all(len(h) == len(ids) for h in heads)):
            raise ValueError("the saved chunks do not match")
        if len(terms) != len(term_numbers) or len(docs) != len(parts["weights"]) or start[-1] != len(docs):
            raise ValueError("the saved postings do not match")
        if len(start) != max(term_numbers, default=-1) + 2 or (len(docs) and int(docs.max()) >= len(ids)):
            raise ValueError("the saved postings point outside the index")
        return cls(
            generation, rowids, ids, dict(zip(ids, zip(*heads, strict=True), strict=True)),
            dict(zip(terms, term_numbers, strict=True)), start, docs, parts["weights"], parts["norms"],
        )  # fmt: skip

    def __len__(self) -> int:
        return len(self.ids)

    def scores(self, words: Iterable[str]) -> np.ndarray:
        """BM25 of every document for these query terms (0 where none occurs)."""
        total = np.zeros(len(self.ids), dtype=np.float32)
        seen: set[int] = set()
        for word in words:
            postings = self._postings(word)
            if postings is None or postings[0] in seen:
                continue
            term, lo, hi = postings
            seen.add(term)
            if lo == hi:
                continue
            docs, tf = self.docs[lo:hi], self.weights[lo:hi]
            total[docs] += self._idf(hi - lo) * tf * (K1 + 1) / (tf + self.norms[docs])
        return total

    def rarity(self, words: Iterable[str]) -> dict[str, float]:
        """Each word's BM25 inverse document frequency (stemmed as `scores` does); a word no chunk
        holds is left out."""
        found = {}
        for word in words:
            postings = self._postings(word)
            if postings is not None and postings[2] > postings[1]:
                found[word] = float(self._idf(postings[2] - postings[1]))
        return found

    def holding(self, word: str) -> list[int]:
        """The positions of the documents that hold the word (stemmed as `scores` does)."""
        postings = self._postings(word)
        return [] if postings is None else self.docs[postings[1] : postings[2]].tolist()

    def _postings(self, word: str) -> tuple[int, int, int] | None:
        """The word's term (stemmed as BM25 stems) and the span of its postings in `docs`; None when no
        document was indexed with it."""
        term = self.term_ids.get(stem(word.lower()))
        if term is None or term + 1 >= len(self.start):
            return None
        return term, self.start[term], self.start[term + 1]

    def _idf(self, df: int) -> float:
        """BM25's inverse document frequency of a term held by `df` documents."""
        return np.log1p((len(self.ids) - df + 0.5) / (df + 0.5))

    def top(
        self, words: Iterable[str], limit: int, mask: np.ndarray | None = None
    ) -> list[tuple[str, float]]:
        """The best `limit` documents as (chunk id, score), among those `mask` allows."""
        scores = self.scores(words)
        if mask is not None:
            scores = np.where(mask, scores, 0.0)
        matched = int(np.count_nonzero(scores))
        count = min(limit, matched)
        if count == 0:
            return []
        best = np.argpartition(-scores, count - 1)[:count]
        best = best[np.argsort(-scores[best], kind="stable")]
        ids = self.ids
        return [(ids[i], score) for i, score in zip(best.tolist(), scores[best].tolist(), strict=True)]


# --- saving arrays in SQLite blobs (search/store.py's snapshots) ------------------------------------------

_NONE = "\x01"  # stands for None among joined strings (identifiers and paths never hold it)
_SAVED_KINDS = frozenset("iuf")  # numbers only: an object array could not come back from bytes


def join_strings(items: Sequence[str | None]) -> np.ndarray:
    """Strings (or None) as one NUL-separated UTF-8 buffer; `split_strings` reverses it."""
    text = "\x00".join(_NONE if item is None else item for item in items)
    return np.frombuffer(text.encode("utf-8", "surrogatepass"), dtype=np.uint8)


def split_strings(buffer: np.ndarray) -> list[str | None]:
    if not len(buffer):
        return []
    text = buffer.tobytes().decode("utf-8", "surrogatepass")
    return [None if item == _NONE else item for item in text.split("\x00")]


def split_names(buffer: np.ndarray) -> list[str]:
    """`split_strings` of strings that are never None (ids, terms); ValueError if one is."""
    names = split_strings(buffer)
    if None in names:
        raise ValueError("the saved names hold an empty one")
    return [name for name in names if name is not None]


def pack_arrays(parts: dict[str, np.ndarray]) -> dict[str, bytes]:
    """Each array's bytes, and a `layout` part with every dtype and shape."""
    layout = {name: [array.dtype.str, list(array.shape)] for name, array in parts.items()}
    packed = {name: np.ascontiguousarray(array).tobytes() for name, array in parts.items()}
    return {**packed, "layout": json.dumps(layout).encode()}


def unpack_arrays(packed: dict[str, bytes]) -> dict[str, np.ndarray]:
    """The arrays `pack_arrays` packed (read-only views of the bytes); ValueError if malformed."""
    layout = json.loads(packed["layout"])
    arrays = {}
    for name, (dtype_text, shape) in layout.items():
        dtype = np.dtype(dtype_text)
        if dtype.kind not in _SAVED_KINDS:
            raise ValueError(f"unexpected dtype {dtype} for {name}")
        arrays[name] = np.frombuffer(packed[name], dtype=dtype).reshape(shape)
    return arrays
