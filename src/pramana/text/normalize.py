"""Unicode clean-up and diacritic folding for Sanskrit in IAST and Devanāgarī."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

_DEVANAGARI = re.compile(r"[\u0900-\u097F]")
_SPACES = re.compile(r"\s+")

# Invisible or look-alike characters found in the data and in pasted text.
_INVISIBLES = (("\u00a0", " "), ("\u200c", ""), ("\u200d", ""), ("\ufeff", ""), ("\u200b", ""))


def clean_text(text: str) -> str:
    """NFC, invisible characters removed, NBSP as space, runs of spaces collapsed per line."""
    text = unicodedata.normalize("NFC", text)
    for invisible, replacement in _INVISIBLES:  # str.replace is far faster than translate here
        if invisible in text:
            text = text.replace(invisible, replacement)
    lines = (" ".join(line.split()) for line in text.splitlines())
    return "\n".join(line for line in lines if line).strip()


def has_devanagari(text: str) -> bool:
    return bool(_DEVANAGARI.search(text))


def unify_anusvara(text: str) -> str:
    """Prabhupada's editions write ṁ for anusvāra, the data and vidyut use ṃ."""
    return text.replace("ṁ", "ṃ").replace("Ṁ", "Ṃ")


class _CombiningMarks(dict[int, int | None]):
    """str.translate table: a combining mark dropped, any other character kept."""

    def __missing__(self, code: int) -> int | None:
        self[code] = kept = None if unicodedata.combining(chr(code)) else code
        return kept


_COMBINING_MARKS = _CombiningMarks()


def strip_diacritics(text: str) -> str:
    """Lower-case ASCII-ish letters: ā→a, ṛ→r, ś→s, ṃ→m (NFD, combining marks dropped)."""
    return unicodedata.normalize("NFD", text.lower()).translate(_COMBINING_MARKS)


# Popular spellings of Sanskrit sounds, applied after diacritics are stripped, so that
# "krishna", "kṛṣṇa" and "krsna" fold to one key. Order matters: longer patterns first.
_POPULAR_SPELLINGS: tuple[tuple[str, str], ...] = (
    ("ksh", "ks"),
    ("x", "ks"),
    ("sh", "s"),
    ("chh", "c"),
    ("ch", "c"),
    ("aa", "a"),
    ("ee", "i"),
    ("ii", "i"),
    ("oo", "u"),
    ("uu", "u"),
    ("w", "v"),
    ("ri", "r"),
)


@lru_cache(maxsize=65536)
def fold_word(word: str) -> str:
    """A lossy search key for one romanized word; the same function folds index and query."""
    folded = strip_diacritics(unify_anusvara(word))
    folded = "".join(ch for ch in folded if ch.isalnum())
    for popular, key in _POPULAR_SPELLINGS:
        folded = folded.replace(popular, key)
    return folded


class _NotWordLetters(dict[int, int | None]):
    """str.translate table: a character that is not a letter or digit dropped, the newline kept."""

    def __missing__(self, code: int) -> int | None:
        character = chr(code)
        self[code] = kept = code if character.isalnum() or character == "\n" else None
        return kept


_NOT_WORD_LETTERS = _NotWordLetters()


def fold_each(words: Iterable[str]) -> list[str]:
    """`fold_word` of each word (none holding a newline), in a few passes over all of them at once: tens
    of thousands of verses' words in a fraction of the time one call a word takes."""
    words = list(words)
    if not words:
        return []
    folded = strip_diacritics(unify_anusvara("\n".join(words))).translate(_NOT_WORD_LETTERS)
    for popular, key in _POPULAR_SPELLINGS:
        folded = folded.replace(popular, key)
    return folded.split("\n")


def fold_words(text: str) -> str:
    """Fold every word of a romanized text (see `fold_word`), separated by single spaces."""
    return " ".join(word for word in fold_each(_SPACES.split(text.replace(".", " "))) if word)
