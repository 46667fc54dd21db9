"""English stemming (Porter), shared by code search and the gita's question search."""

from __future__ import annotations

import functools
import threading

import Stemmer

# PyStemmer (Snowball's C stemmers) stems ~40x faster than snowballstemmer's pure Python, with the
# same output; its stemmer objects are not thread-safe, and searches run in worker threads.
_stemmer = Stemmer.Stemmer("porter")
_stemmer_lock = threading.Lock()


@functools.lru_cache(maxsize=262_144)
def stem(term: str) -> str:
    """`term`'s Porter stem: "parsing", "parses", "parse" → "pars"."""
    with _stemmer_lock:
        return _stemmer.stemWord(term)
