"""A reproducible test set of garbled Gita quotes: what transcripts do to recited verses.

Cases are made at run time from the cached verses (the texts stay out of the repository) by
seeded corruptions, one kind each, plus a mixed kind that combines them as real transcripts do.
The hand-written cases (real lecture-style quotes) and the non-Gita negatives are in
`match_cases.py`.
"""

from __future__ import annotations

import random
import re
import unicodedata
from dataclasses import dataclass

from pramana.gita.reference import VerseRef
from pramana.gita.verse_text import verse_lines
from pramana.text.phonetic import skeleton_key
from pramana.text.transliterate import devanagari_to_iast


@dataclass(frozen=True)
class Case:
    kind: str
    text: str
    expected: frozenset[str]  # every verse whose text contains the quoted unit
    source: str


def strip_marks(text: str) -> str:
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFC", "".join(c for c in decomposed if not unicodedata.combining(c)))


POPULAR = [
    ("ś", "sh"),
    ("ṣ", "sh"),
    ("c", "ch"),
    ("ṛ", "ri"),
    ("jñ", "gy"),
    ("kṣ", "ksh"),
    ("ā", "aa"),
    ("ī", "ee"),
]
SLIPS = [("bh", "b"), ("dh", "d"), ("th", "t"), ("gh", "g"), ("kh", "k"), ("ph", "p"),
         ("k", "g"), ("g", "k"), ("t", "d"), ("d", "t"), ("p", "b"), ("b", "p"), ("v", "b"), ("v", "w"),
         ("ṭ", "t"), ("ḍ", "d"), ("ṇ", "n"), ("ś", "s"), ("ṣ", "s")]  # fmt: skip
VOWEL_FLIPS = [("ā", "a"), ("a", "ā"), ("ī", "i"), ("i", "ī"), ("ū", "u"), ("u", "ū"), ("e", "i"), ("o", "u"),
               ("a", "e"), ("i", "e")]  # fmt: skip
FILLERS = [
    ("Krishna says", "which means you should act"),
    ("As the Lord says in the Gita,", "so this is very important."),
    ("There is a verse,", "you see."),
    ("Prabhupada would quote", "and then explain it."),
    ("In the Bhagavad Gita we read", ""),
]
VOWELS = "aāiīuūṛeo"


def _replace_some(text: str, pairs: list[tuple[str, str]], rate: float, rng: random.Random) -> str:
    out, i = [], 0
    while i < len(text):
        for old, new in pairs:
            if text.startswith(old, i) and rng.random() < rate:
                out.append(new)
                i += len(old)
                break
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def no_diacritics(text: str, rng: random.Random) -> str:
    return strip_marks(text)


def popular_ascii(text: str, rng: random.Random) -> str:
    spelled = _replace_some(text, [*POPULAR, ("x", "x")], 0.9, rng).replace("kṣ", rng.choice(["ksh", "x"]))
    return strip_marks(spelled)


def random_diacritics(text: str, rng: random.Random) -> str:
    """Diacritics kept at random, dropped, or put on the wrong vowel (namāskuru)."""
    plain = strip_marks(text)
    out = []
    for ch in plain:
        if ch in "aiu" and rng.random() < 0.15:
            out.append({"a": "ā", "i": "ī", "u": "ū"}[ch])
        else:
            out.append(ch)
    return "".join(out)


def resegmented(text: str, rng: random.Random) -> str:
    """Sandhi-joined words split at the wrong places and re-joined, with hyphens."""
    letters = [c for c in random_diacritics(text, rng) if c != " "]
    out = []
    for index, ch in enumerate(letters):
        out.append(ch)
        if index < len(letters) - 1 and rng.random() < 0.25:
            out.append(rng.choice([" ", " ", "-"]))
    return "".join(out)


def consonant_slips(text: str, rng: random.Random) -> str:
    return strip_marks(_replace_some(text, SLIPS, 0.3, rng))


def vowel_slips(text: str, rng: random.Random) -> str:
    flipped = _replace_some(text, VOWEL_FLIPS, 0.3, rng)
    # epenthetic vowels between consonants: karma -> kārama
    out = []
    for index, ch in enumerate(flipped):
        out.append(ch)
        following = flipped[index + 1] if index + 1 < len(flipped) else " "
        cluster = ch.isalpha() and ch not in VOWELS and following.isalpha() and following not in VOWELS + "h"
        if cluster and rng.random() < 0.3:
            out.append(rng.choice("aā"))
    return strip_marks("".join(out)) if rng.random() < 0.5 else "".join(out)


def dropped_finals(text: str, rng: random.Random) -> str:
    return strip_marks(re.sub(r"[ḥṃmn](?=\s|$)", "", text))


def syllables(text: str, rng: random.Random) -> str:
    """A syllable or two dropped or stuttered."""
    parts = re.findall(r"[^aāiīuūṛeo\s]*[aāiīuūṛeo]+|\s+|[^aāiīuūṛeo\s]+$", text)
    for _ in range(rng.choice([1, 2])):
        spots = [i for i, p in enumerate(parts) if p.strip()]
        if len(spots) < 4:
            break
        spot = rng.choice(spots[1:-1])
        if rng.random() < 0.5:
            parts[spot] = ""
        else:
            parts[spot] = parts[spot] + parts[spot]
    return strip_marks("".join(parts))


def mixed(text: str, rng: random.Random) -> str:
    """What a real transcript does: several of the above at once."""
    garbled = _replace_some(text, SLIPS, 0.15, rng)
    garbled = _replace_some(garbled, VOWEL_FLIPS, 0.15, rng)
    garbled = re.sub(r"[ḥṃ](?=\s|$)", "", garbled)
    garbled = _replace_some(garbled, POPULAR, 0.5, rng)
    return resegmented(garbled, rng)


TRANSFORMS = {
    "no_diacritics": no_diacritics,
    "popular_ascii": popular_ascii,
    "random_diacritics": random_diacritics,
    "resegmented": resegmented,
    "consonant_slips": consonant_slips,
    "vowel_slips": vowel_slips,
    "dropped_finals": dropped_finals,
    "syllables": syllables,
    "mixed": mixed,
}
KINDS = [*TRANSFORMS, "partial_quote", "english_filler", "devanagari"]


def half_lines(line: str) -> list[str]:
    words = line.split()
    if len(words) < 2:
        return [line]
    middle = len(words) // 2
    return [" ".join(words[:middle]), " ".join(words[middle:])]


def make_cases(verses: list[tuple[VerseRef, str, str]], per_kind: int = 40, seed: int = 108) -> list[Case]:
    """`per_kind` cases of every kind in KINDS from (ref, IAST, Devanāgarī) verses."""
    rng = random.Random(seed)
    skeletons = {str(ref): skeleton_key(iast) + " " + skeleton_key(devanagari_to_iast(deva))
                 for ref, iast, deva in verses}  # fmt: skip

    def expected_for(unit: str) -> frozenset[str]:
        key = skeleton_key(unit)
        return frozenset(ref for ref, keys in skeletons.items() if key in keys)

    cases: list[Case] = []
    for kind in KINDS:
        made = 0
        while made < per_kind:
            ref, iast, deva = rng.choice(verses)
            lines = verse_lines(iast)
            if not lines:
                continue
            line = rng.choice(lines)
            unit = rng.choice(half_lines(line)) if kind != "mixed" else line
            if kind == "devanagari":
                deva_lines = verse_lines(deva)
                if not deva_lines:
                    continue
                unit_deva = rng.choice(deva_lines)
                cases.append(
                    Case(kind, unit_deva, expected_for(devanagari_to_iast(unit_deva)) | {str(ref)}, unit_deva)
                )
            elif kind == "partial_quote":
                words = line.split()
                if len(words) < 3:
                    continue
                size = rng.choice([2, 3, 4])
                start = rng.randrange(0, max(1, len(words) - size + 1))
                quote = " ".join(words[start : start + size])
                if len(skeleton_key(quote)) < 6:
                    continue
                cases.append(Case(kind, strip_marks(quote), expected_for(quote) | {str(ref)}, quote))
            elif kind == "english_filler":
                if len(skeleton_key(unit)) < 8:
                    continue
                before, after = rng.choice(FILLERS)
                text = f"{before} {no_diacritics(unit, rng)} {after}".strip()
                cases.append(Case(kind, text, expected_for(unit) | {str(ref)}, unit))
            else:
                if len(skeleton_key(unit)) < 8:
                    continue
                garbled = TRANSFORMS[kind](unit, rng)
                cases.append(Case(kind, garbled, expected_for(unit) | {str(ref)}, unit))
            made += 1
    return cases
