"""Unicode clean-up and diacritic folding for Sanskrit in IAST and Devanāgarī."""

from __future__ import annotations

import re
import unicodedata
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


def strip_diacritics(text: str) -> str:
    """Lower-case ASCII-ish letters: ā→a, ṛ→r, ś→s, ṃ→m (NFD, combining marks dropped)."""
    decomposed = unicodedata.normalize("NFD", text.lower())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


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


def fold_words(text: str) -> str:
    """Fold every word of a romanized text (see `fold_word`), separated by single spaces."""
    words = (fold_word(word) for word in _SPACES.split(text.replace(".", " ")))
    return " ".join(word for word in words if word)
