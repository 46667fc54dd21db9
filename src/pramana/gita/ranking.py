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

import numpy as np

from pramana.errors import PramanaError
from pramana.gita.question import QUESTION_WORDS, QuestionIndex, VerseTexts, content_words
from pramana.gita.terms import MatchedWords, TermIndex, VerseTerms, term_keys
from pramana.store.fts import MAX_TERMS
from pramana.store.fts import words as query_words
from pramana.text.normalize import strip_diacritics

# The term ranking's score, scaled to [0, 1], counts this much times the query's share of Sanskrit.
# On the harder set's dev half, with score fusion: 0.5 and 1 gave R@1/R@5 0.70/0.90 and 0.68/0.90
# with the model, 0.67/0.82 and 0.68/0.81 by words; reciprocal-rank fusion, 0.62/0.85 and 0.65/0.82.
TERMS_WEIGHT = 0.5
# A word both English and Sanskrit (`karma`, `Arjuna`) counts this much toward the query's share of
# Sanskrit; a word only Sanskrit, 1. A query all of whose words are the verses' Sanskrit, one at least
# Sanskrit only, is read as Sanskrit whole (share 1): `ye yatha mam prapadyante` (4.11's opening, `ye`
# and `mam` English words too) is a quote for the matcher, not a question about striving. On the 240
# and the harder set's dev half this changed no answer.
BOTH_WEIGHT = 0.25


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

    def __init__(self, questions: QuestionIndex, terms: TermIndex | None):
        """`terms` None: the term index is not built yet, and queries are read as English only."""
        if terms is not None and [str(r) for r in questions.refs] != [str(r) for r in terms.refs]:
            raise ValueError("the question index and the term index must hold the same verses, in order")
        self.questions = questions
        self.terms = terms
        self.refs = questions.refs
        self._positions: dict[Hashable, int] = {ref: i for i, ref in enumerate(self.refs)}

    @classmethod
    def of_book(cls, verses: Sequence[BookVerse], **question_options: object) -> VerseRanking:
        """The ranking of a book's verses; `question_options` go to QuestionIndex (embedder,
        vectors, note)."""
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
        if self.terms is None:
            known = any(
                self.questions.is_english_word(w) or _plain(w) in english_vocabulary() for w in tokens
            )
            return ReadQuery(query, (), 0.0, known)
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
        weight = sum(1.0 if o else BOTH_WEIGHT for o, s in zip(only_sanskrit, sanskrit, strict=True) if s)
        share = weight / len(tokens) if tokens else 0.0
        if tokens and all(sanskrit) and any(only_sanskrit):
            share = 1.0  # every word is the verses' Sanskrit (BOTH_WEIGHT's comment)
        return ReadQuery(text, searched, share, any(english) or any(sanskrit))

    def rank(
        self,
        query: str,
        limit: int,
        boosts: Sequence[tuple[Hashable, float]] = (),
        read: ReadQuery | None = None,
        allowed: np.ndarray | None = None,
    ) -> list[RankedVerse]:
        """The best `limit` verses: the question ranking's score (BM25F scaled to [0, 1], plus the
        model's similarity) plus TERMS_WEIGHT times the share of Sanskrit in the query times the term
        ranking's score scaled to [0, 1], plus the caller's `boosts` (ref, score). `read`: the
        query as `read` read it, if the caller has it; `allowed`: a mask of the verses that may be
        returned (the books a search asks for), all by default. Each score is scaled over every verse."""
        read = read or self.read(query)
        scores = np.zeros(len(self.refs), dtype=np.float64)
        # a query mostly of Sanskrit is asked in English only if its glosses made it read as English;
        # another, whatever words of its the texts lack ("however much I crave")
        by_question = (
            self.questions.scores(read.english, english_only=read.share >= 0.5)
            if read.known and content_words(read.english)
            else None
        )
        if by_question is not None:
            scores += by_question
        matched: Sequence[tuple[str, ...]] | MatchedWords = [()] * len(self.refs)
        if read.sanskrit and read.share and self.terms is not None:
            by_terms, matched = self.terms.scores(read.sanskrit)
            scores += TERMS_WEIGHT * read.share * by_terms / (by_terms.max() or 1.0)
        for ref, boost in boosts:
            if (position := self._positions.get(ref)) is not None:
                scores[position] += boost
        if allowed is not None:
            scores[~allowed] = 0.0
        order = np.argsort(-scores, kind="stable")[:limit]
        return [self._hit(int(i), float(scores[i]), read, matched[i]) for i in order if scores[i] > 0]

    def _hit(self, position: int, score: float, read: ReadQuery, matched: tuple[str, ...]) -> RankedVerse:
        """A query mostly of Sanskrit shows the words of the verse it matched; another, the translation
        with the words it asked about in bold."""
        if matched and read.share >= 0.5:
            return RankedVerse(self.refs[position], score, _bold_words(matched))
        excerpt = self.questions.hit(position, score, read.english).excerpt if read.english else ""
        return RankedVerse(self.refs[position], score, excerpt if "**" in excerpt else _bold_words(matched))


@functools.cache
def english_vocabulary() -> frozenset[str]:
    """Whole English words of all-MiniLM-L6-v2's vocabulary (30,522 pieces) when the embeddings
    extra is installed (its tokenizer.json, read as JSON); empty without it."""
    from pramana.embed import TOKENIZER

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
