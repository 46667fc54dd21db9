"""The 22 authors of the dataset, which of their texts counts as "the translation", and cleaning.

Each author object in a verse document holds some of `et`/`ec` (English translation and
commentary), `ht`/`hc` (Hindi) and `sc` (Sanskrit commentary). An author's translation is
the first of `et`, `ht`, `sc`, `hc` they have: several authors wrote only a commentary.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pramana.errors import InvalidInputError
from pramana.text.normalize import clean_text, strip_diacritics


@dataclass(frozen=True)
class Translator:
    key: str
    name: str
    fields: tuple[str, ...]


TRANSLATORS: dict[str, Translator] = {
    t.key: t
    for t in (
        Translator("prabhu", "A.C. Bhaktivedanta Swami Prabhupada", ("et", "ec")),
        Translator("siva", "Swami Sivananda", ("et", "ec")),
        Translator("purohit", "Shri Purohit Swami", ("et",)),
        Translator("san", "Dr.S.Sankaranarayan", ("et",)),
        Translator("adi", "Swami Adidevananda", ("et",)),
        Translator("gambir", "Swami Gambirananda", ("et",)),
        Translator("raman", "Sri Ramanuja", ("et", "sc")),
        Translator("abhinav", "Sri Abhinav Gupta", ("et", "sc")),
        Translator("sankar", "Sri Shankaracharya", ("et", "ht", "sc")),
        Translator("tej", "Swami Tejomayananda", ("ht",)),
        Translator("rams", "Swami Ramsukhdas", ("ht", "hc")),
        Translator("chinmay", "Swami Chinmayananda", ("hc",)),
        Translator("madhav", "Sri Madhavacharya", ("sc",)),
        Translator("anand", "Sri Anandgiri", ("sc",)),
        Translator("jaya", "Sri Jayatritha", ("sc",)),
        Translator("vallabh", "Sri Vallabhacharya", ("sc",)),
        Translator("ms", "Sri Madhusudan Saraswati", ("sc",)),
        Translator("srid", "Sri Sridhara Swami", ("sc",)),
        Translator("dhan", "Sri Dhanpati", ("sc",)),
        Translator("venkat", "Vedantadeshikacharya Venkatanatha", ("sc",)),
        Translator("puru", "Sri Purushottamji", ("sc",)),
        Translator("neel", "Sri Neelkanth", ("sc",)),
    )
}
DEFAULT_TRANSLATOR = "prabhu"
# When the chosen author has nothing usable for a verse, try these, in order.
FALLBACK_ORDER = ("prabhu", "siva", "gambir", "purohit", "adi", "san", "sankar", "raman", "tej", "rams")
TRANSLATION_FIELDS = ("et", "ht")
COMMENTARY_FIELDS = ("sc", "hc")
# An author's translation is the first of these they have (several wrote only a commentary).
PREFERRED_FIELDS = (*TRANSLATION_FIELDS, *COMMENTARY_FIELDS)
FIELD_LANGUAGE = {"et": "English", "ec": "English", "ht": "Hindi", "hc": "Hindi", "sc": "Sanskrit"}
FIELD_KIND = {
    "et": "translation",
    "ht": "translation",
    "ec": "commentary",
    "hc": "commentary",
    "sc": "commentary",
}


def _key_of(name: str) -> str:
    return re.sub(r"[^a-z]", "", strip_diacritics(name))


def resolve_translator(name_or_key: str | None) -> Translator:
    """Find an author by key ("siva"), full name, or a unique part of the name ("Sivananda")."""
    if name_or_key is None or not name_or_key.strip():
        return TRANSLATORS[DEFAULT_TRANSLATOR]
    wanted = _key_of(name_or_key)
    if wanted in TRANSLATORS:
        return TRANSLATORS[wanted]
    if wanted:
        exact = [t for t in TRANSLATORS.values() if _key_of(t.name) == wanted]
        partial = [t for t in TRANSLATORS.values() if wanted in _key_of(t.name)]
        if len(exact) == 1:
            return exact[0]
        if len(partial) == 1:
            return partial[0]
    choices = ", ".join(f"{t.key} ({t.name})" for t in TRANSLATORS.values())
    raise InvalidInputError(f"unknown translator {name_or_key.strip()[:60]!r}; choose one of: {choices}")


# "2.47 ", "2.47. ", "।।2.47।।", "2.47।।", "1.1 - 1.19", "।। 2.42 -- 2.43।।", "5৷৷7" (a Bengali
# sign for the daṇḍa, once): the number(s) a text carries for itself. Commentaries that cover a
# range repeat on each verse of it.
_NUMBER_PREFIX = re.compile(
    r"""^[\s।|.]*
    (?P<ch>\d{1,2})(?:\.|৷৷)(?P<v>\d{1,3})\.?
    (?:\s*[-–—]+\s*(?:(?P<ch2>\d{1,2})\.)?(?P<v2>\d{1,3})\.?   # 1.1 - 1.19, 2.42-43
      |\s+(?P<ch3>\d{1,2})\.(?P<v3>\d{1,3})\.?(?=[\s।|])      # 1.24  1.25
    )?
    [\s।|.:]*""",
    re.VERBOSE,
)
# What the source puts where an author has no text for a verse: "Sri Madhavacharya did not comment
# on this sloka", "… did not comment upon this sloka" (Abhinavagupta), "See Comment under 1.9" (the
# text of a range sits at its last verse), "No such translation is available for this sloka."
_PLACEHOLDER_ANYWHERE = re.compile(r"did not comment (?:on|upon) this sloka", re.I)
_PLACEHOLDER = re.compile(
    r"""(?:there\ is\ no\ purport\ for\ this\ verse
    |see\ comm?ent(?:ary)?\ under\ \d{1,2}\.\d{1,3}
    |(?:there\ is\ )?no\ (?:such\ )?(?:translation|commentary)(?:\ is\ available)?(?:\ for\ this\ sloka)?
    |this\ sloka\ does\ not\ exis?t\ in\ .*
    )[\s.]*""",
    re.I | re.X,
)


@dataclass(frozen=True)
class CleanText:
    text: str
    numbered_for_other_verse: bool = False


def clean_author_text(raw: str | None, chapter: int, verse: int) -> CleanText | None:
    """Strip the verse-number prefix, drop placeholders; flag text numbered for another verse."""
    if not isinstance(raw, str):
        return None
    text = clean_text(raw)
    if not text or _PLACEHOLDER_ANYWHERE.search(text):
        return None
    match = _NUMBER_PREFIX.match(text)
    body = text if match is None else text[match.end() :].strip()
    if not body or _PLACEHOLDER.fullmatch(body):
        return None
    if match is None:
        return CleanText(body)
    return CleanText(body, numbered_for_other_verse=not _covers(match, chapter, verse))


def _covers(match: re.Match[str], chapter: int, verse: int) -> bool:
    start = (int(match["ch"]), int(match["v"]))
    if match["v3"] is not None:
        end = (int(match["ch3"]), int(match["v3"]))
    elif match["v2"] is not None:
        end = (int(match["ch2"] or match["ch"]), int(match["v2"]))
    else:
        return start == (chapter, verse)
    return start <= (chapter, verse) <= end
