"""Romanization schemes of Sanskrit: detection, conversion, and a loose key for plain ASCII.

Supported: IAST, Devanāgarī, SLP1, Harvard-Kyoto, ITRANS, Velthuis (vidyut does the
conversions). A query typed by a person may be in any of them, so `slp1_readings` returns
every SLP1 form the text can stand for, the detected scheme's first. Plain ASCII ("krishna")
is not a scheme at all: `loose_key` folds diacritics, vowel length, ś/ṣ/s, ri/ṛ, anusvāra vs
class nasal and doubled consonants, so it meets the headword whichever way it is spelled.
"""

from __future__ import annotations

import re
from enum import StrEnum
from functools import lru_cache

from vidyut.lipi import Scheme as VidyutScheme
from vidyut.lipi import detect, transliterate

from pramana.errors import InvalidInputError
from pramana.text.normalize import fold_word, has_devanagari, unify_anusvara


class Scheme(StrEnum):
    IAST = "iast"
    DEVANAGARI = "devanagari"
    SLP1 = "slp1"
    HK = "hk"
    ITRANS = "itrans"
    VELTHUIS = "velthuis"


_VIDYUT = {
    Scheme.IAST: VidyutScheme.Iast,
    Scheme.DEVANAGARI: VidyutScheme.Devanagari,
    Scheme.SLP1: VidyutScheme.Slp1,
    Scheme.HK: VidyutScheme.HarvardKyoto,
    Scheme.ITRANS: VidyutScheme.Itrans,
    Scheme.VELTHUIS: VidyutScheme.Velthuis,
}
_FROM_VIDYUT = {value: key for key, value in _VIDYUT.items()}
_ALIASES = {
    "iast": Scheme.IAST, "roman": Scheme.IAST,
    "deva": Scheme.DEVANAGARI, "devanagari": Scheme.DEVANAGARI, "devanāgarī": Scheme.DEVANAGARI,
    "slp1": Scheme.SLP1, "slp": Scheme.SLP1,
    "hk": Scheme.HK, "harvard-kyoto": Scheme.HK, "harvardkyoto": Scheme.HK, "harvard_kyoto": Scheme.HK,
    "itrans": Scheme.ITRANS,
    "velthuis": Scheme.VELTHUIS,
}  # fmt: skip
SCHEME_NAMES = "iast, devanagari, slp1, hk (Harvard-Kyoto), itrans, velthuis"
_IAST_MARKS = re.compile(r"[āīūṛṝḷḹṃṁḥṅñṭḍṇśṣĀĪŪṚṜḶṄÑṬḌṆŚṢ]")
_SLP1_WORD = re.compile(r"[a-zA-Z'~]+")
_ASCII_READINGS = (Scheme.SLP1, Scheme.HK, Scheme.ITRANS, Scheme.VELTHUIS, Scheme.IAST)


def parse_scheme(name: str) -> Scheme:
    scheme = _ALIASES.get(name.strip().lower())
    if scheme is None:
        raise InvalidInputError(f"unknown scheme {name.strip()[:40]!r}; use one of: {SCHEME_NAMES}")
    return scheme


def detect_scheme(text: str) -> Scheme:
    """The scheme `text` is most likely written in (IAST when nothing says otherwise)."""
    if has_devanagari(text):
        return Scheme.DEVANAGARI
    if _IAST_MARKS.search(text):
        return Scheme.IAST
    detected = detect(text)
    return _FROM_VIDYUT.get(detected, Scheme.IAST) if detected is not None else Scheme.IAST


def convert(text: str, source: Scheme, target: Scheme) -> str:
    if source == target:
        return text
    if source == Scheme.IAST:
        text = unify_anusvara(text)
    return transliterate(text, _VIDYUT[source], _VIDYUT[target])


@lru_cache(maxsize=200_000)
def slp1_to_iast(slp1: str) -> str:
    return transliterate(slp1, VidyutScheme.Slp1, VidyutScheme.Iast)


@lru_cache(maxsize=200_000)
def slp1_to_devanagari(slp1: str) -> str:
    return transliterate(slp1, VidyutScheme.Slp1, VidyutScheme.Devanagari)


def slp1_readings(text: str) -> list[str]:
    """Every SLP1 form `text` can stand for: the detected scheme's first, then the other ASCII schemes."""
    text = text.strip()
    detected = detect_scheme(text)
    readings = [convert(text, detected, Scheme.SLP1)]
    if detected not in (Scheme.DEVANAGARI, Scheme.IAST):
        readings += [convert(text, scheme, Scheme.SLP1) for scheme in _ASCII_READINGS]
    seen: dict[str, None] = {}
    for reading in readings:
        if _SLP1_WORD.fullmatch(reading.strip()):
            seen.setdefault(reading.strip(), None)
    return list(seen)


_CONSONANTS = "kgcjtdpbnmyrlvszh"
_NASAL_BEFORE_CONSONANT = re.compile(rf"[mn](?=[{_CONSONANTS.replace('h', '').replace('y', '')}])")
_DOUBLED = re.compile(rf"([{_CONSONANTS}])\1+")


def loose_key(text: str) -> str:
    """A forgiving ASCII key: 'kṛṣṇa', 'krishna', 'krsna' and 'KRISHNA' all give 'krsna'.

    The search folding of `fold_word` (diacritics, popular spellings, vowel length), then
    anusvāra vs class nasal and doubled consonants.
    """
    if has_devanagari(text):
        text = convert(text, Scheme.DEVANAGARI, Scheme.IAST)
    folded = "".join(ch for ch in fold_word(text) if "a" <= ch <= "z")
    return _DOUBLED.sub(r"\1", _NASAL_BEFORE_CONSONANT.sub("n", folded))


def loose_key_from_slp1(slp1: str) -> str:
    return loose_key(slp1_to_iast(slp1))
