"""Pāḷi in Roman and in the scripts it is printed in (Sinhala, Thai, Myanmar, Devanāgarī).

vidyut's IAST writes the retroflex lateral ळ as ḻ and has no short e/o; Pāḷi's Roman convention writes
it ḷ and has only one e and one o. These helpers translate between the two so Pāḷi round-trips.
"""

from __future__ import annotations

import re
import unicodedata
from enum import StrEnum

from vidyut.lipi import Scheme as VidyutScheme
from vidyut.lipi import transliterate


class PaliScript(StrEnum):
    ROMAN = "roman"
    SINHALA = "sinhala"
    THAI = "thai"
    MYANMAR = "myanmar"
    DEVANAGARI = "devanagari"


_VIDYUT = {
    PaliScript.SINHALA: VidyutScheme.Sinhala,
    PaliScript.THAI: VidyutScheme.Thai,
    PaliScript.MYANMAR: VidyutScheme.Burmese,
    PaliScript.DEVANAGARI: VidyutScheme.Devanagari,
}
_BLOCKS = {
    PaliScript.DEVANAGARI: re.compile(r"[\u0900-\u097F]"),
    PaliScript.SINHALA: re.compile(r"[\u0D80-\u0DFF]"),
    PaliScript.THAI: re.compile(r"[\u0E00-\u0E7F]"),
    PaliScript.MYANMAR: re.compile(r"[\u1000-\u109F]"),
}
_ALIASES = {"burmese": PaliScript.MYANMAR, "deva": PaliScript.DEVANAGARI, "latin": PaliScript.ROMAN,
            "iast": PaliScript.ROMAN}  # fmt: skip
# Sinhala Pāḷi is written with the short vowel signs; vidyut writes the long ones (Sanskrit ē/ō).
_SINHALA_SHORT = str.maketrans({"ඒ": "එ", "ේ": "ෙ", "ඕ": "ඔ", "ෝ": "ො"})
_FROM_VIDYUT_ROMAN = str.maketrans({"ḻ": "ḷ", "è": "e", "ò": "o", "ṁ": "ṃ"})
_GREAT_SA = ("ဿ", "သ္သ")  # Myanmar writes ss as one letter


def parse_script(name: str) -> PaliScript:
    key = (name or "").strip().lower()
    if key in _ALIASES:
        return _ALIASES[key]
    try:
        return PaliScript(key)
    except ValueError:
        valid = ", ".join(s.value for s in PaliScript)
        raise ValueError(f"unknown script {name[:30]!r}; use one of: {valid}") from None


def detect_script(text: str) -> PaliScript:
    """The script most of the letters are in (Roman when none of the Indic blocks is used)."""
    counts = {script: len(block.findall(text)) for script, block in _BLOCKS.items()}
    script, count = max(counts.items(), key=lambda item: item[1])
    return script if count else PaliScript.ROMAN


def to_roman(text: str, source: PaliScript | None = None) -> str:
    """Pāḷi in any supported script to Roman (ṃ for niggahita, ḷ for the retroflex lateral)."""
    source = source or detect_script(text)
    if source == PaliScript.ROMAN:
        return unicodedata.normalize("NFC", text).replace("ṁ", "ṃ").replace("Ṁ", "Ṃ")
    if source == PaliScript.MYANMAR:
        text = text.replace(*_GREAT_SA)
    roman = transliterate(text, _VIDYUT[source], VidyutScheme.Iast)
    return unicodedata.normalize("NFC", roman).translate(_FROM_VIDYUT_ROMAN)


def from_roman(text: str, target: PaliScript) -> str:
    """Roman Pāḷi to another script."""
    text = unicodedata.normalize("NFC", text).replace("ṁ", "ṃ").replace("ḷ", "ḻ").replace("Ḷ", "Ḻ")
    if target == PaliScript.ROMAN:
        return text.replace("ḻ", "ḷ")
    converted = transliterate(text, VidyutScheme.Iast, _VIDYUT[target])
    if target == PaliScript.SINHALA:
        converted = converted.translate(_SINHALA_SHORT)
    elif target == PaliScript.MYANMAR:
        converted = converted.replace(_GREAT_SA[1], _GREAT_SA[0])
    return converted
