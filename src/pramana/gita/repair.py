"""Undoing the scraping damage in the dataset's texts: the lost "qu", and commas turned into "?".

Upstream, every lower-case "qu" was dropped from the English of all authors but Prabhupada and
Purohit: "these alities" for "these qualities", "eal" for "equal", "Conseently". A capital "Qu"
survived ("Quickly he becomes righteous"), so a word is only given back a lower-case "qu".
In Sivananda's commentaries (`siva.ec`) every comma became "?" and the real question marks were
dropped ("How can I describe him"), so there every "?" is a comma; elsewhere the letters "comma"
became "?" ("My ?ndments"). `repair_words` says which words count as damaged.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from dataclasses import dataclass

from pramana.gita.repair_words import Q_WORDS, RARE_WORDS_WITHOUT_QU, WORDS_WITHOUT_QU

# A run of ASCII letters that is a whole word: not part of "Kṛṣṇa" or of a Devanāgarī word.
_WORD = re.compile(r"(?<![^\W\d_])[A-Za-z]+(?![^\W\d_])")
# "?nd", "?nder", "?ndments": "command…" with its "comma" turned into "?".
_LOST_COMMA_WORD = re.compile(r"(?<!\w)\?(nd(?:s|ed|ing|ers?|ments?)?)(?!\w)")
_COMMAS_AS_QUESTION_MARKS = {("siva", "ec")}
# Their texts kept every "qu" (hundreds of "qu" words), so a rare word there is what it says.
_KEPT_QU = {"prabhu", "purohit"}
_MAX_NOTE_EXAMPLES = 3


def _lost_qu_index() -> dict[str, tuple[tuple[str, int], ...]]:
    """{a Q word less one "qu": ((the Q word, where the "qu" goes), …)}."""
    index: dict[str, list[tuple[str, int]]] = defaultdict(list)
    for word in Q_WORDS:
        at = word.find("qu")
        while at >= 0:
            index[word[:at] + word[at + 2 :]].append((word, at))
            at = word.find("qu", at + 1)
    return {damaged: tuple(sorted(found)) for damaged, found in index.items()}


_LOST_QU = _lost_qu_index()


@dataclass(frozen=True)
class Repairs:
    """What was done to one text: words given back their letters, commas restored, and words
    that may still be damaged but were left as they are."""

    restored: tuple[tuple[str, str], ...] = ()  # (as in the source, as shown)
    commas: int = 0
    suspects: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.restored or self.commas or self.suspects)

    def to_json(self) -> str | None:
        if not self:
            return None
        return json.dumps(
            {"restored": self.restored, "commas": self.commas, "suspects": self.suspects}, ensure_ascii=False
        )

    @classmethod
    def from_json(cls, stored: str | None) -> Repairs:
        if not stored:
            return cls()
        data = json.loads(stored)
        return cls(
            restored=tuple((found, shown) for found, shown in data.get("restored", ())),
            commas=int(data.get("commas", 0)),
            suspects=tuple(data.get("suspects", ())),
        )


@dataclass(frozen=True)
class RepairedText:
    text: str
    repairs: Repairs


def restore_lost_qu(word: str) -> str | None:
    """`word` with its lost "qu" back, or None if it is not one that lost it ("eal" → "equal")."""
    lower = word.lower()
    if lower in WORDS_WITHOUT_QU or lower in RARE_WORDS_WITHOUT_QU:
        return None
    # Only a lower-case "qu" was lost: "Eanimity" had one inside, "Alities" never had a "Qu".
    found = {(q, at) for q, at in _LOST_QU.get(lower, ()) if at > 0 or word[0].islower()}
    if len({q for q, _ in found}) != 1:
        return None
    (_, at), *_ = found
    letters = "QU" if len(word) > 1 and word.isupper() else "qu"
    return word[:at] + letters + word[at:]


def may_have_lost_qu(word: str) -> bool:
    """A real word that a lost "qu" explains as well ("ake": "quake"), or one with two ways back."""
    lower = word.lower()
    if lower in WORDS_WITHOUT_QU:
        return False
    return lower in RARE_WORDS_WITHOUT_QU or len({q for q, _ in _LOST_QU.get(lower, ())}) > 1


def repair_text(text: str, author_key: str, field: str) -> RepairedText:
    """`text` (one author's field of one verse) with the source's damage undone, and a count."""
    restored: list[tuple[str, str]] = []
    suspects: list[str] = []

    def fix_word(match: re.Match[str]) -> str:
        word = match.group()
        repaired = restore_lost_qu(word)
        if repaired is not None:
            restored.append((word, repaired))
            return repaired
        if author_key not in _KEPT_QU and may_have_lost_qu(word):
            suspects.append(word)
        return word

    def fix_comma_word(match: re.Match[str]) -> str:
        repaired = "comma" + match.group(1)
        restored.append((match.group(), repaired))
        return repaired

    candidates = {word for word in set(_WORD.findall(text)) if word.lower() in _LOST_QU}
    if candidates:  # substituting only these is 3x faster than a callback for every word
        text = _whole_words(candidates).sub(fix_word, text)
    text = _LOST_COMMA_WORD.sub(fix_comma_word, text)
    commas = 0
    if (author_key, field) in _COMMAS_AS_QUESTION_MARKS:
        commas = text.count("?")
        text = text.replace("?", ",")
    return RepairedText(text, Repairs(tuple(restored), commas, tuple(suspects)))


def _whole_words(words: set[str]) -> re.Pattern[str]:
    alternatives = "|".join(re.escape(word) for word in sorted(words, key=len, reverse=True))
    return re.compile(rf"(?<![^\W\d_])(?:{alternatives})(?![^\W\d_])")


def repair_notes(author: str, repairs: Repairs) -> list[str]:
    """Short notes for a shown text: what was restored, and what may still be damaged."""
    notes = []
    if repairs.restored:
        distinct = list(dict.fromkeys(repairs.restored))
        examples = ", ".join(f"'{found}' → '{shown}'" for found, shown in distinct[:_MAX_NOTE_EXAMPLES])
        more = " and others" if len(distinct) > _MAX_NOTE_EXAMPLES else ""
        count = len(repairs.restored)
        notes.append(
            f"The source data had lost letters in {count} word{'s' if count != 1 else ''} of {author}'s"
            f" text, restored here: {examples}{more}."
        )
    if repairs.commas:
        notes.append(f"{repairs.commas} commas that the source data turned into '?' are restored.")
    if repairs.suspects:
        words = list(dict.fromkeys(repairs.suspects))[:_MAX_NOTE_EXAMPLES]
        listed = ", ".join(f"'{word}' (or {_with_qu(word)}?)" for word in words)
        notes.append(f"Possibly damaged in the source data (a lost 'qu'), left as they are: {listed}.")
    return notes


def _with_qu(word: str) -> str:
    return " or ".join(f"'{q}'" for q in dict.fromkeys(q for q, _ in _LOST_QU.get(word.lower(), ())))
