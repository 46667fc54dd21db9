"""A phonetic skeleton of romanized Sanskrit that survives what transcripts do to it.

Transcripts of recited verses lose diacritics, use popular spellings (sh, ch, ri, x, gy),
split and join words anywhere, drop aspiration and voicing (bh→b, g↔k, d↔t), confuse
retroflex and dental, lengthen, shorten and insert vowels (karma → kārama), and drop final
ḥ/ṃ. The skeleton keeps only consonant classes, in order, with no spaces:

    k: k g q     c: c j     t: t d ṭ ḍ     p: p b v w f ph bh     n: n m ṅ ñ ṇ ṃ (nasals)
    s: s ś ṣ z   y   r: r ṛ ṝ   l: l ḷ      (vowels, h and ḥ dropped)

so "mamaivāṃśo jīvaloke" and "mā mā evaṁ sa jīva-loka" both become "nnpnscplk". Each
skeleton character remembers where it came from, so an alignment on skeletons maps back to
a span of the original text.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache

_CLASSES = {
    "k": "k", "g": "k", "q": "k",
    "c": "c", "j": "c",
    "t": "t", "d": "t",
    "p": "p", "b": "p", "v": "p", "w": "p", "f": "p",
    "n": "n", "m": "n",
    "s": "s", "z": "s",
    "y": "y", "r": "r", "l": "l",
}  # fmt: skip
# Popular spellings whose letters would otherwise map wrongly: x = kṣ, gy = jñ (gyana = jñāna).
_DIGRAPHS = {"x": "ks", "gy": "cn"}


@dataclass(frozen=True)
class Skeleton:
    key: str
    offsets: tuple[int, ...]  # offsets[i]: index in the source text of key[i]

    def span(self, start: int, end: int) -> tuple[int, int]:
        """Source-text [start, end) covered by key[start:end]."""
        if not self.offsets or start >= end:
            return (0, 0)
        return self.offsets[start], self.offsets[min(end, len(self.offsets)) - 1] + 1


@lru_cache(maxsize=8192)
def _base_letter(ch: str) -> str:
    return unicodedata.normalize("NFD", ch)[0].lower()


def skeleton(text: str) -> Skeleton:
    """The consonant-class skeleton of a romanized (IAST, ASCII, Harvard-Kyoto-ish) text."""
    letters = [_base_letter(ch) for ch in text]
    key: list[str] = []
    offsets: list[int] = []
    i = 0
    while i < len(letters):
        pair = "".join(letters[i : i + 2])
        if pair in _DIGRAPHS:
            for out in _DIGRAPHS[pair]:
                key.append(out)
                offsets.append(i)
            i += 2
            continue
        single = letters[i]
        if single in _DIGRAPHS:
            for out in _DIGRAPHS[single]:
                key.append(out)
                offsets.append(i)
        elif single in _CLASSES:
            key.append(_CLASSES[single])
            offsets.append(i)
        i += 1
    return Skeleton("".join(key), tuple(offsets))


class _BaseLetters(dict[int, str]):
    """str.translate table: each character to its lower-case base letter, as `_base_letter` gives it."""

    def __missing__(self, code: int) -> str:
        self[code] = letter = _base_letter(chr(code))
        return letter


_BASE_LETTERS = _BaseLetters()
_KEY_OF_LETTER = {ord(letter): key for letter, key in _CLASSES.items()}


class _ClassKeys(dict[int, str | None]):
    """str.translate table: a base letter to its class, anything else dropped."""

    def __missing__(self, code: int) -> None:
        self[code] = None
        return None


_CLASS_KEYS = _ClassKeys(_KEY_OF_LETTER)


def skeleton_key(text: str) -> str:
    """`skeleton(text).key`, computed without the offsets: a few C-level passes over the text, which
    is what indexing tens of thousands of verses needs."""
    letters = text.translate(_BASE_LETTERS)
    for digraph, keys in _DIGRAPHS.items():
        if digraph in letters:
            letters = letters.replace(digraph, keys)
    return letters.translate(_CLASS_KEYS)
