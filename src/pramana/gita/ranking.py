"""Ranking a book's verses for a reader's query: English, Sanskrit in loose spelling, or both.

A query is read word by word (`read_query`): a word of the translations is English, a word that
matches the verses' Sanskrit by loose key (terms.py) is Sanskrit, some are both (`karma`, `yoga`,
`Arjuna`). Two rankings are fused by weighted reciprocal rank:
- the question ranking (question.py: BM25F over the English texts and, when built, the model's
  vectors), asked the query with each word that is Sanskrit only replaced by its English from the
  word-for-word glosses (`sthitha pragnya lakshanam` → "steady wisdom lakshanam"): the verses that
  say in English what the term means;
- the term ranking (terms.py) for the Sanskrit words: the verses that name the term and those whose
  commentaries speak of it; weighed by how much of the query is Sanskrit.

It takes any book: a store hands over each verse's texts as `BookVerse`s (`VerseRanking.of_book`),
the Gītā's with its reader's subject index and questions, the Bhāgavatam's or the
Caitanya-caritāmṛta's with the translation, purport and synonyms a user's cache holds.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from pramana.errors import PramanaError
from pramana.gita.question import QUESTION_WORDS, QuestionIndex, VerseTexts, content_words
from pramana.gita.terms import TermIndex, VerseTerms, term_keys
from pramana.store.fts import MAX_TERMS
from pramana.store.fts import words as query_words
from pramana.text.normalize import strip_diacritics

RANK_OFFSET = 10
TERMS_WEIGHT = 1.5  # the term ranking's share of the fusion for a query of Sanskrit words only
QUESTION_WEIGHT = 1.0


@dataclass(frozen=True)
class BookVerse:
    """One verse's texts, as a store hands them over; `ref` is the caller's key ("SB 1.2.6")."""

    ref: Hashable
    sanskrit: str  # IAST and/or Devanāgarī
    translations: Sequence[str] = ()
    commentaries: Sequence[str] = ()  # English texts about the verse (purports, commentaries)
    glossary: Sequence[tuple[str, str]] = ()  # word-for-word: (Sanskrit word, English)
    mentions: Sequence[str] = ()  # other texts about the verse whose Sanskrit words count (Devanāgarī)
    topic: str = ""  # a reader's description, where a book has one (the Gītā's topics.json)
    questions: Sequence[str] = ()  # reader's questions the verse answers (the Gītā's)

    def texts(self) -> VerseTexts:
        return VerseTexts(self.ref, self.translations, self.commentaries, self.topic, self.questions)  # type: ignore[arg-type]

    def terms(self) -> VerseTerms:
        return VerseTerms(self.ref, self.sanskrit, self.glossary, [*self.commentaries, *self.mentions])


@dataclass(frozen=True)
class ReadQuery:
    """A query read word by word."""

    english: str  # the query with its Sanskrit-only words in English where the glosses know them
    sanskrit: tuple[str, ...]  # the words the term ranking searches
    share: float  # how much of the query is Sanskrit, 0 to 1
    known: bool  # some word is a word of the texts (English or Sanskrit)


@dataclass(frozen=True)
class RankedVerse:
    ref: Hashable
    score: float
    excerpt: str  # matched words in **bold**


class VerseRanking:
    """The question ranking and the term ranking of one book (or the verses of several), fused."""

    def __init__(self, questions: QuestionIndex, terms: TermIndex):
        self.questions = questions
        self.terms = terms

    @classmethod
    def of_book(cls, verses: Sequence[BookVerse], **question_options: object) -> VerseRanking:
        """The ranking of a book's verses; `question_options` go to QuestionIndex (embedder, vectors, note)."""
        return cls(
            QuestionIndex([v.texts() for v in verses], **question_options),  # type: ignore[arg-type]
            TermIndex([v.terms() for v in verses]),
        )

    def read(self, query: str) -> ReadQuery:
        """Which words are English, which Sanskrit: a word of the translations (or of the English
        vocabulary, when the embeddings extra gives one) is English, and Sanskrit too only when it
        is one of the verses' own words as spelt (`karma`, `Arjuna`); another word is Sanskrit when
        it matches the verses' words or their commentaries' by loose key."""
        tokens = [w for w in query_words(query) if _plain(w) not in QUESTION_WORDS][:MAX_TERMS]
        keys = term_keys(tokens)
        common = [_plain(w) in english_vocabulary() for w in tokens]
        english = [c or self.questions.is_english_word(w) for c, w in zip(common, tokens, strict=True)]
        sanskrit = [
            bool(k) and (self.terms.own_key(k, 0 if c else 2) if e else bool(self.terms.matches(k)))
            for k, e, c in zip(keys, english, common, strict=True)
        ]
        only_sanskrit = [s and not e for s, e in zip(sanskrit, english, strict=True)]
        glosses = self.terms.glosses(tokens) if any(only_sanskrit) else [None] * len(tokens)
        replaced = {}
        for position, token in enumerate(tokens):
            if only_sanskrit[position]:
                gloss = glosses[position]
                replaced[token] = token if gloss is None else gloss
        text = _replace_words(query, replaced) if replaced else query
        searched = tuple(t for t, s in zip(tokens, sanskrit, strict=True) if s)
        weight = sum(1.0 if o else 0.5 for o, s in zip(only_sanskrit, sanskrit, strict=True) if s)
        share = weight / len(tokens) if tokens else 0.0
        return ReadQuery(text, searched, share, any(english) or any(sanskrit))

    def rank(self, query: str, limit: int) -> list[RankedVerse]:
        read = self.read(query)
        pool = max(limit, 10)
        by_question = self.questions.search(read.english, pool) if content_words(read.english) else []
        by_terms = self.terms.search(read.sanskrit, pool) if read.sanskrit else []
        fused: dict[Hashable, RankedVerse] = {}
        rankings = (
            (QUESTION_WEIGHT, [(h.ref, h.excerpt) for h in by_question]),
            (TERMS_WEIGHT * read.share, [(h.ref, _bold_words(h.matched)) for h in by_terms]),
        )
        for weight, ranking in rankings:
            if not weight:
                continue
            for rank, (ref, excerpt) in enumerate(ranking):
                seen = fused.get(ref)
                score = weight / (RANK_OFFSET + rank) + (seen.score if seen else 0.0)
                fused[ref] = RankedVerse(
                    ref, score, seen.excerpt if seen and "**" in seen.excerpt else excerpt
                )
        return sorted(fused.values(), key=lambda hit: -hit.score)[:limit]


@functools.cache
def english_vocabulary() -> frozenset[str]:
    """Whole English words of all-MiniLM-L6-v2's vocabulary (30,522 pieces) when the embeddings
    extra is installed (its tokenizer.json, read as JSON); empty without it."""
    from pramana.code.embed import TOKENIZER

    try:
        vocab = json.loads(TOKENIZER.locate().read_text(encoding="utf-8"))["model"]["vocab"]
    except (PramanaError, OSError, ValueError, KeyError, TypeError):
        return frozenset()
    return frozenset(w for w in vocab if w.isascii() and w.isalpha() and len(w) > 1)


def _plain(word: str) -> str:
    return strip_diacritics(word).lower()


def _replace_words(text: str, replaced: dict[str, str]) -> str:
    pattern = re.compile(
        r"\b(" + "|".join(re.escape(w) for w in sorted(replaced, key=len, reverse=True)) + r")\b"
    )
    return re.sub(r"\s+", " ", pattern.sub(lambda m: replaced[m.group(1)], text)).strip()


def _bold_words(words: Sequence[str]) -> str:
    return " ".join(f"**{w}**" for w in words)
