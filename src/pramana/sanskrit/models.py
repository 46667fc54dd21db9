"""Typed results of the sanskrit tools."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field


class SearchHit(BaseModel):
    word: str = Field(description="Headword of the article, IAST")
    word_deva: str = Field(description="Headword in Devanāgarī")
    dict_code: str
    dict_name: str
    article_id: str = Field(description="Pass to sanskrit_get_article, e.g. 'ap90:100'")
    homonym: str | None = Field(default=None, description="Homonym number, when the dictionary has one")
    matched: str = Field(
        description="The key that matched, IAST (the headword, an alternate spelling, or its stem)"
    )
    gloss: str = Field(default="", description="The start of the article, one line, to choose by")
    senses: int = Field(
        default=1,
        description="Articles of this headword in this dictionary (MW: one per sense); "
        "sanskrit_get_article on article_id returns them all, in order",
    )
    loose: bool | None = Field(
        default=None, description="True when only the loose spelling matched (ranked after the rest)"
    )
    snippet: str | None = Field(
        default=None, description="reverse mode: where the words occur, **highlighted**"
    )


class FormAnalysis(BaseModel):
    form: str = Field(description="The word as read, IAST (its final before a pause restored: rāmo → rāmaḥ)")
    lemma: str = Field(
        description="Its stem, root, indeclinable, or verb with its preverbs (anubhuj) or causative stem "
        "(niveday), IAST: search this for the articles"
    )
    lemma_deva: str
    kind: Literal["noun", "pronoun", "numeral", "verb", "indeclinable", "compound member"]
    grammar: list[str] = Field(
        description="Every reading of the form, likeliest first, e.g. 'instrumental singular (m.)'"
    )
    summary: str = Field(description="One line: 'rāmeṇa: instrumental singular (m.) of rāma'")
    root: str | None = Field(default=None, description="Verbs: the bare root (bhuj of anubhuj)")
    score: float = Field(
        description="How likely this reading is in real text (higher is likelier; comparable with the "
        "splits' scores)"
    )
    article_ids: list[str] = Field(default_factory=list, description="Articles of the lemma (the first few)")


class SandhiPart(BaseModel):
    word: str = Field(description="One word of the group, IAST, with the sounds sandhi changed restored")
    member: bool = Field(default=False, description="True for a compound's member (a stem, not a word)")
    analyses: list[FormAnalysis] = Field(default_factory=list, description="What it is a form of")
    article_ids: list[str] = Field(
        default_factory=list, description="Its own articles, when it is a headword (ca, eva, iha)"
    )


class SandhiSplit(BaseModel):
    parts: list[SandhiPart]
    summary: str = Field(
        description="One line: 'tasyāham: tasya (genitive singular (m., n.) of tad) + aham (…)'"
    )
    score: float = Field(description="How likely this split is (comparable with the analyses' scores)")


class WordAnalysis(BaseModel):
    word: str
    interpreted_as: list[str] = Field(description="The SLP1 keys the word was read as")
    count: int
    analyses: list[FormAnalysis]
    splits: list[SandhiSplit] = Field(
        default_factory=list,
        description="The compound's members or the words sandhi joined in it, likeliest first (also when a "
        "rarer single reading exists: compare the scores)",
    )
    likeliest: Literal["analysis", "split"] | None = Field(
        default=None, description="Which is likelier: the first analysis or the first split"
    )
    note: str | None = Field(default=None, description="Why there are none, when there are none")


class SearchResult(BaseModel):
    query: str
    mode: Literal["exact", "prefix", "fuzzy", "reverse"]
    interpreted_as: list[str] = Field(description="The SLP1 keys the query was read as")
    matched_by: Literal["exact", "form", "sandhi", "loose", "prefix", "substring", "fulltext"] = Field(
        description="How the results matched: form means the query is an inflected form of the results'"
        " headwords (see analyses); sandhi that it is words sandhi joined, the results those words'"
        " lemmas (see splits); loose means no exact match, see did_you_mean"
    )
    count: int
    truncated: bool = Field(description="True when more matches exist than were returned")
    results: list[SearchHit]
    did_you_mean: list[str] = Field(default_factory=list, description="Headwords the loose key found, IAST")
    splits: list[SandhiSplit] = Field(
        default_factory=list, description="When the query is words sandhi joined: the words (see matched_by)"
    )
    analyses: list[FormAnalysis] = Field(
        default_factory=list, description="When the query is an inflected form: what it is a form of"
    )


class DictionaryInfo(BaseModel):
    code: str
    name: str
    from_lang: str
    to_lang: str
    description: str
    year: str
    entry_count: int
    licence: str


class DictionaryList(BaseModel):
    count: int
    dictionaries: list[DictionaryInfo]


class Sense(BaseModel):
    number: int
    article_id: str
    markdown: str


class ArticleResult(BaseModel):
    article_id: str
    headword: str = Field(description="IAST")
    headword_deva: str
    original_spelling: str = Field(description="The source's own spelling (accents, compound dividers), IAST")
    homonym: str
    dict_code: str
    dict_name: str
    page: str = Field(description="Page and column in the printed source, where known")
    citation_url: str
    markdown: str = Field(
        description="The article as markdown; Sanskrit in IAST or Devanāgarī. For a headword's first "
        "article (what search returns), every article of the headword in this dictionary, in order"
    )
    senses: list[Sense] = Field(
        default_factory=list, description="Those articles one by one, when there are several (MW: senses)"
    )


class TransliterationResult(BaseModel):
    text: str
    source: str
    target: str
    result: str
