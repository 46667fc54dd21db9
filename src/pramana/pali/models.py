"""Typed results of the pali tools (the SQLAlchemy models of DPD's tables are in tables.py)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, PrivateAttr

SplitSource = Literal["dpd", "apostrophe", "unmarked"]


class Candidate(BaseModel):
    """One DPD headword a form can belong to."""

    id: int = Field(description="DPD's headword id (stable across DPD versions)")
    lemma_1: str = Field(description="Headword with its homonym number, e.g. 'dhamma 1.01'")
    pos: str
    grammar: str
    meaning_combo: str = Field(description="meaning_1 (+ '; lit. ' meaning_lit), else meaning_2")
    family_root: str
    root_key: str
    construction: str
    readings: list[str] = Field(
        default_factory=list,
        description="What this form is of this headword, e.g. 'masc nom sg' (lookup.grammar)",
    )
    rank: int = Field(
        default=0,
        description="Its place among all the token's readings, candidates and splits together (1 = the"
        " likeliest); 0 where not ranked (a split's part, a word's entry)",
    )
    _fits: bool = PrivateAttr(default=True)  # the form is this headword's lemma or a labelled inflection
    _weight: float = PrivateAttr(default=0.0)
    _own_form: bool = PrivateAttr(default=False)  # a headword of this very form (DPD's stem "!")
    _own_form_ind: bool = PrivateAttr(default=False)  # an indeclinable of this very form


class Part(BaseModel):
    form: str
    candidates: list[Candidate]
    connector: bool = Field(
        default=False, description="A sandhi consonant between two words (m, d, r, y, v), not a word"
    )
    _weight: float = PrivateAttr(default=0.0)  # its likeliest candidate's, as a word of a split


class Split(BaseModel):
    split: str = Field(description="e.g. 'saṃkhittena + api'")
    source: SplitSource = Field(
        description="dpd: lookup.deconstructor; apostrophe: an elision marked in the text (or a closing"
        " quote before ti), restored; unmarked: a compound or sandhi found in a word DPD does not list"
        " whole, every part a DPD word"
    )
    parts: list[Part]
    rank: int = Field(default=0, description="Its place among all the token's readings (1 = the likeliest)")


class TokenAnalysis(BaseModel):
    word: str = Field(description="The token as read from the sentence (lowercase, Roman, ṃ)")
    status: Literal["found", "not_found"]
    lookup_key: str | None = Field(default=None, description="The lookup key that matched the whole token")
    candidates: list[Candidate] = Field(default_factory=list)
    deconstruction: list[Split] = Field(default_factory=list, description="Sandhi / compound splits")
    spelling: list[str] = Field(
        default_factory=list, description="Corrections, when the token is a known misspelling"
    )
    variant_of: list[str] = Field(
        default_factory=list, description="Main readings, when it is a variant reading"
    )
    same_as: int | None = Field(
        default=None,
        description="For a word that came earlier in the sentence: the position (1-based) of its first"
        " occurrence, whose analysis it shares (candidates and splits are given there only)",
    )


class SentenceAnalysis(BaseModel):
    sentence: str = Field(description="The sentence as read: Roman script, lowercase, ṃ")
    script: str = Field(description="The script the input was written in")
    token_count: int
    found: int
    not_found: int
    tokens: list[TokenAnalysis]


class RootInfo(BaseModel):
    root: str
    root_group: int
    root_sign: str
    root_meaning: str
    root_has_verb: str
    sanskrit_root: str
    sanskrit_root_meaning: str
    sanskrit_root_class: str
    root_example: str
    dhatupatha_pali: str
    dhatupatha_english: str
    dhatumanjusa_pali: str
    dhatumanjusa_english: str


class HeadwordDetail(Candidate):
    lemma_2: str = ""
    meaning_1: str = ""
    meaning_2: str = ""
    meaning_lit: str = ""
    derived_from: str = ""
    neg: str = ""
    verb: str = ""
    trans: str = ""
    plus_case: str = ""
    sanskrit: str = ""
    root_base: str = ""
    compound_type: str = ""
    compound_construction: str = ""
    stem: str = ""
    pattern: str = ""
    source_1: str = ""
    sutta_1: str = ""
    example_1: str = ""
    source_2: str = ""
    sutta_2: str = ""
    example_2: str = ""
    antonym: str = ""
    synonym: str = ""
    variant: str = ""
    notes: str = ""
    cognate: str = ""
    root: RootInfo | None = Field(default=None, description="The root (dpd_roots) when the word has one")


class WordResult(BaseModel):
    word: str
    status: Literal["found", "not_found"]
    lookup_key: str | None = None
    headwords: list[HeadwordDetail] = Field(default_factory=list)
    deconstruction: list[Split] = Field(default_factory=list)
    spelling: list[str] = Field(default_factory=list)
    variant_of: list[str] = Field(default_factory=list)
    roots: list[RootInfo] = Field(
        default_factory=list, description="When the word is itself a root, e.g. '√gam'"
    )
    abbreviation: dict[str, str] | None = Field(
        default=None, description="When the word is a DPD abbreviation"
    )
    help: str | None = None


class MeaningHit(BaseModel):
    id: int
    lemma_1: str
    pos: str
    meaning_combo: str
    construction: str
    root_key: str


class MeaningSearch(BaseModel):
    query: str
    count: int
    truncated: bool = Field(description="True when more headwords match than were returned")
    results: list[MeaningHit]


class PaliTransliteration(BaseModel):
    text: str
    source: str
    target: str
    result: str
