"""Reading a Pāḷi sentence into lookup keys, and undoing the elisions its apostrophes mark.

Punctuation becomes a space, never nothing: in `“bhikkhavo”ti` the quote ends one word and `ti`
(iti) is the next, so deleting the quote would give `bhikkhavoti`, which is not a form DPD knows.
An apostrophe between two letters is different: it marks an elided vowel or niggahita (`n'atthi`,
`saṃkhittena'pi`), so it is kept, and the token is tried joined (`natthi`) and split (`na + atthi`).
"""

from __future__ import annotations

import csv
import unicodedata
from dataclasses import dataclass
from pathlib import Path

APOSTROPHES = "'’‘`´ʼ"
# The letters DPD's sandhi rules restore at a split marked by an apostrophe, beyond its rules table:
# an elided initial a/i/e of the second word (pi -> api, ti -> iti, va -> eva) and a final niggahita
# written m or n before it (mattam'pi, vimuccitun'ti), or an elided final a of the first (ten'upa...).
_RIGHT_RESTORE = ("", "a", "i", "e")
_LEFT_RESTORE = {"m": ("ṃ",), "n": ("ṃ", "na"), "": ("a", "ā", "o", "e")}
MAX_SPLITS = 4  # splits shown per token: the likeliest restorations (rules first), not every one


@dataclass(frozen=True)
class SandhiRule:
    left_end: str  # chA: the last letter before the apostrophe
    right_start: str  # chB: the first letter after it
    left_was: str  # ch1: what the first word ended with
    right_was: str  # ch2: what the second word began with


def tokens(sentence: str) -> list[str]:
    """Lowercase tokens; punctuation, digits and symbols are spaces; word-internal apostrophes kept as '."""
    text = unicodedata.normalize("NFC", sentence).lower().replace("ṁ", "ṃ")
    out = []
    for index, char in enumerate(text):
        category = unicodedata.category(char)
        if category[0] in "LM":
            out.append(char)
        elif char in APOSTROPHES and _letter(text, index - 1) and _letter(text, index + 1):
            out.append("'")
        else:
            out.append(" ")
    return "".join(out).split()


def _letter(text: str, index: int) -> bool:
    return 0 <= index < len(text) and unicodedata.category(text[index])[0] in "LM"


def read_rules(path: Path) -> list[SandhiRule]:
    """DPD's deconstructor rules (sandhi_rules.tsv: chA, chB, ch1, ch2)."""
    with path.open(encoding="utf-8", newline="") as handle:
        rows = csv.DictReader(handle, delimiter="\t")
        return [
            SandhiRule(r["chA"], r["chB"], r.get("ch1") or "", r.get("ch2") or "")
            for r in rows
            if r.get("chA") and r.get("chB")
        ]


def apostrophe_splits(token: str, rules: tuple[SandhiRule, ...]) -> list[list[str]]:
    """Every way to restore the words an apostrophed token was made of: [['saṃkhittena', 'api'], ...]."""
    if "'" not in token:
        return [[token]]
    left, right = token.split("'", 1)
    if not left or not right:
        return [[token.replace("'", "")]]
    pairs: dict[tuple[str, str], None] = {}
    for rule in rules:
        if left.endswith(rule.left_end) and right.startswith(rule.right_start):
            pairs[
                (left[: -len(rule.left_end)] + rule.left_was, rule.right_was + right[len(rule.right_start) :])
            ] = None
    lefts = [
        left,
        *(left[:-1] + r for r in _LEFT_RESTORE.get(left[-1], ())),
        *(left + r for r in _LEFT_RESTORE[""]),
    ]
    for first in lefts:
        for restore in _RIGHT_RESTORE:
            pairs[(first, restore + right)] = None
    splits = []
    for first, rest in pairs:
        if first and rest:
            splits.extend([first, *tail] for tail in apostrophe_splits(rest, rules))
    # A one-letter word is almost never what an apostrophe hides (dullabhā'ti is not dullabhā + i).
    return sorted(splits, key=lambda split: any(len(part) == 1 for part in split))
