"""Transliteration between Devanāgarī and IAST, through vidyut."""

from __future__ import annotations

from functools import lru_cache

from vidyut.lipi import Scheme, transliterate

from pramana.text.normalize import unify_anusvara


@lru_cache(maxsize=4096)
def devanagari_to_iast(text: str) -> str:
    return transliterate(text, Scheme.Devanagari, Scheme.Iast)


def iast_to_devanagari(text: str) -> str:
    return transliterate(unify_anusvara(text), Scheme.Iast, Scheme.Devanagari)
