"""Stems of cited forms: some dictionaries print a noun in its nominative (Apte: `DarmaH`, `agniH`,
`vanaM`), which a reader looks up by its stem (`Darma`, `agni`, `vana`)."""

from __future__ import annotations

import re

# A nominative singular ending after at least three letters of stem: -aḥ/-iḥ/-uḥ/-īḥ/-ūḥ (masculine or
# feminine), -āḥ (an ā-root noun, or the plural of a people's name), -am/-aṃ (a neuter a-stem).
_CITED = re.compile(r"^(?P<stem>.{3,}?)(?:(?P<vowel>[aiuIUA])H|a[mM])$")
MIN_NEUTER_CHARS = 5  # `kram`, `Bram` are roots, not neuters of `kra`, `Bra`


def cited_stems(headword: str) -> list[str]:
    """The stems `headword` (SLP1) is a nominative of; [] when it does not look like one."""
    match = _CITED.match(headword)
    if match is None:
        return []
    vowel = match["vowel"]
    if vowel is None:
        return [match["stem"] + "a"] if len(headword) >= MIN_NEUTER_CHARS else []
    if vowel == "A":
        return [match["stem"] + "A", match["stem"] + "a"]
    return [match["stem"] + vowel]


def cited_gender(headword: str) -> str | None:
    """The gender a cited a-stem form says: -aḥ masculine, -am neuter; None when it says none."""
    if headword.endswith("aH") and cited_stems(headword):
        return "m"
    if headword.endswith(("aM", "am")) and cited_stems(headword):
        return "n"
    return None
