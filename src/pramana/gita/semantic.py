"""Verse vectors for question search: all-MiniLM-L6-v2 (the `embeddings` extra, int8 ONNX on
onnxruntime, no torch, nothing downloaded) run once over every translation of every verse, one vector
per translator, cached in a file beside the gita cache; a search encodes only the question.

A verse's similarity to a question is a soft maximum over its translators' vectors, its
description's in the reader's subject index (data/topics.json) and its reader's questions'
(data/reader_questions.json): the texts say one thing several ways; the closest wording should count
most, the others a little. (The log of the mean instead of the sum, so that a verse with more texts
gains nothing from their number, ranked the same; so did temperatures 0.02-0.1.) On the dev
questions, alone, it scored as the plain maximum and the mean did (R@1 0.43-0.44, R@5
0.68-0.69), and better than one vector of the joined translations (0.43/0.64).

Seeding builds the vectors (14,069 distinct texts: 4,142 translations, 701 descriptions and 9,226
questions, 12.6 MB; all of them in 56 s on two idle cores, measured 16 minutes for fewer on a machine
loaded six times over; the translations take most of it, the short questions about 20 s); `pramana gita
seed` again builds them for a cache seeded before. A search encodes only a few new texts itself
(a verse a lookup just cached), so it never waits for the whole build, and answers by words alone,
with a note, until then. Each text has its own key, so a cache
whose translations were encoded before the subject index and the questions keeps their vectors: the
next seed encodes only pramana's own texts (about 20 s), and until then search soft-maxes over the
translations alone.

The file holds each text's key (sha256 of the model's name and the text) and its vector as float16:
a text that is cached again unchanged keeps its vector, a changed one is encoded again.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import numpy as np

from pramana import work
from pramana.store.atomic import replacing

if TYPE_CHECKING:
    from pramana.embed import Embedder

log = logging.getLogger(__name__)

VECTORS_VERSION = 1
SOFT_MAX_TEMPERATURE = 0.05  # a verse's score: T·log Σ exp(cos/T) over its translators' vectors
MAX_SEARCH_TEXTS = 64  # texts a search may encode itself (about a second); more wait for a seed
ENCODE_BATCH = 64  # texts per embed() call: progress and the deadline are checked between them
EncodeProgress = Callable[[int, int], None]  # (texts encoded, texts to encode)


@dataclass(frozen=True)
class VerseVectors:
    """Vectors of a verse list's texts, several per verse: row r belongs to verse `verses[r]`."""

    vectors: np.ndarray  # (rows, dimension) float32, L2-normalised
    verses: np.ndarray  # (rows,) the position of each row's verse

    def similarities(self, query: np.ndarray, count: int) -> np.ndarray:
        """Each of `count` verses' soft-max cosine similarity to the (normalised) query vector;
        -1 for a verse without vectors."""
        cosines = self.vectors @ query
        peak = float(cosines.max()) if len(cosines) else 0.0
        sums = np.bincount(
            self.verses, weights=np.exp((cosines - peak) / SOFT_MAX_TEMPERATURE), minlength=count
        )
        with np.errstate(divide="ignore"):
            scores = peak + SOFT_MAX_TEMPERATURE * np.log(sums)
        return np.where(sums > 0, scores, -1.0)


def vectors_path(db_path: Path) -> Path:
    """Where the verse vectors of the cache at `db_path` live: beside it."""
    return db_path.with_name(f"{db_path.name}.question-vectors.npz")


def text_key(model: str, text: str) -> str:
    return hashlib.sha256(f"{VECTORS_VERSION}\0{model}\0{text}".encode()).hexdigest()[:32]


class VectorStorage(Protocol):
    """Where encoded texts' vectors are kept: a file beside the SQLite cache, or a table in
    PostgreSQL (gita/store_postgres.py), shared by every replica."""

    def load_vectors(self, model: str) -> dict[str, np.ndarray]:
        """Text key -> vector (float16) of every text `model` has encoded."""
        ...

    def save_vectors(self, model: str, known: dict[str, np.ndarray], new: Sequence[str]) -> None:
        """Keep `known` (the keys in `new` were encoded since load_vectors)."""
        ...


class VectorFile:
    """The vectors in one .npz file, rewritten whole and renamed into place."""

    def __init__(self, path: Path):
        self.path = path

    def load_vectors(self, model: str) -> dict[str, np.ndarray]:
        try:
            with np.load(self.path, allow_pickle=False) as saved:
                if str(saved["model"]) != model:
                    return {}
                return dict(zip(saved["keys"].tolist(), saved["vectors"], strict=True))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError, KeyError) as exc:
            log.warning("the question vectors at %s are unusable (they are built again): %s", self.path, exc)
            return {}

    def save_vectors(self, model: str, known: dict[str, np.ndarray], new: Sequence[str]) -> None:
        with replacing(self.path) as partial, partial.open("wb") as handle:
            np.savez(
                handle,
                model=np.array(model),
                keys=np.array(list(known), dtype="U32"),
                vectors=np.asarray(list(known.values()), dtype=np.float16),
            )


class VectorCache:
    """The vectors of texts encoded so far by one embedder, in a file beside the gita cache (a path)
    or in another VectorStorage."""

    def __init__(self, storage: Path | VectorStorage, encoder: Embedder):
        self.storage: VectorStorage = VectorFile(storage) if isinstance(storage, Path) else storage
        self.encoder = encoder
        self._lock = threading.Lock()

    def load(self) -> dict[str, np.ndarray]:
        """Text key -> vector (float16) for this embedder; empty if none are stored or they are unusable."""
        return self.storage.load_vectors(self.encoder.name)

    def missing(self, texts: Sequence[str]) -> list[str]:
        known = self.load()
        return [t for t in dict.fromkeys(texts) if text_key(self.encoder.name, t) not in known]

    def build(self, texts: Sequence[str], progress: EncodeProgress | None = None) -> int:
        """Encode the texts not cached yet and save them with the others; returns how many were
        encoded. Stopped by the call's deadline (pramana.work), it saves what it encoded."""
        with self._lock:
            known = self.load()
            todo = [t for t in dict.fromkeys(texts) if text_key(self.encoder.name, t) not in known]
            done = 0
            new: list[str] = []
            try:
                for start in range(0, len(todo), ENCODE_BATCH):
                    batch = todo[start : start + ENCODE_BATCH]
                    rows = self.encoder.embed(batch).astype(np.float16)
                    keys = [text_key(self.encoder.name, text) for text in batch]
                    known.update(zip(keys, rows, strict=True))
                    new += keys
                    done += len(batch)
                    if progress is not None:
                        progress(done, len(todo))
                    work.check(f"encoding for question search stopped after {done} of {len(todo)} texts")
            finally:
                if done:
                    self.storage.save_vectors(self.encoder.name, known, new)
            return done

    def vectors(self, texts_by_verse: Sequence[Sequence[str]]) -> VerseVectors | None:
        """The vectors of every verse's texts, or None while any is missing."""
        known = self.load()
        rows, verses = [], []
        for position, texts in enumerate(texts_by_verse):
            for text in texts:
                row = known.get(text_key(self.encoder.name, text))
                if row is None:
                    return None
                rows.append(row)
                verses.append(position)
        if not rows:
            return None
        return VerseVectors(np.asarray(rows, dtype=np.float32), np.asarray(verses, dtype=np.int64))
