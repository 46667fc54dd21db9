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
    matched: str = Field(description="The key that matched, IAST (an alternate spelling, or the headword)")
    snippet: str | None = Field(
        default=None, description="reverse mode: where the words occur, **highlighted**"
    )


class SearchResult(BaseModel):
    query: str
    mode: Literal["exact", "prefix", "fuzzy", "reverse"]
    interpreted_as: list[str] = Field(description="The SLP1 keys the query was read as")
    matched_by: Literal["exact", "loose", "prefix", "substring", "fulltext"] = Field(
        description="How the results matched: loose means no exact match, see did_you_mean"
    )
    count: int
    truncated: bool = Field(description="True when more matches exist than were returned")
    results: list[SearchHit]
    did_you_mean: list[str] = Field(default_factory=list, description="Headwords the loose key found, IAST")


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
    markdown: str = Field(description="The article as markdown; Sanskrit in IAST or Devanāgarī")


class TransliterationResult(BaseModel):
    text: str
    source: str
    target: str
    result: str
