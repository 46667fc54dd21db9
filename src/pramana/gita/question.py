"""Ranking verses for a question in a reader's words ("how can I control my restless mind?").

The FTS5 index (store.py) finds Sanskrit, Devanāgarī and exact keywords; a question needs more:
- its function words and question scaffolding ("what", "does", "say", "about", "Krishna says",
  "the Gita", "how should one") are not searched for: they would match most verses;
- words are stemmed (Porter, as code search does), so "detached" meets "detachment";
- BM25F over two fields per verse: the English translations (Prabhupada, Sivananda, Purohit,
  Sankaranarayan, Adidevananda, Gambhirananda) and, weighing COMMENTARY_WEIGHT as much, the English
  texts of Ramanuja, Abhinavagupta and Shankara, which are commentaries: a verse that says what
  the reader asks about outranks one whose commentary mentions it in passing;
- each content word also looks for the translators' words for it (READER_WORDS: "results" finds
  "fruits", "priest" finds "brahmana"), at a discount; a verse scores only the best of a word's
  group. (Words mined from the parallel translations, stems that keep appearing in the same
  verses, were tried too: "results" found "fruits", "soul" found "self", but the dev questions
  scored the same with and without them, so they were left out.)
- a third BM25F field, weighing TOPIC_WEIGHT: the verse's description in the reader's subject
  index (data/topics.json, pramana's own text, written without the test questions): one to three
  plain sentences saying who speaks, what is said, what is named, in everyday words beside the
  translators' ("the twin brothers Nakula and Sahadeva", "no God (atheists)", "results, rewards").
  Its words also count as English for `reads_as_english`. The lexical ranking's R@1/R@5: dev
  0.47/0.79 -> 0.65/0.83, held-out 0.44/0.69 -> 0.63/0.84 (the model's, with this field alone: dev
  0.57/0.79 -> 0.65/0.84, held-out 0.48/0.84 -> 0.69/0.87);
- with the `embeddings` extra, the meaning: all-MiniLM-L6-v2's vectors of each translation and of
  the description (semantic.py, built at seed time), a verse scoring a soft maximum of their cosine
  similarities to the question, added at MODEL_WEIGHT to the BM25F score scaled to [0, 1]. Without
  the model, the static embedding table of code search if it is cached in the data directory (two
  vectors per verse, its joined translations' and its description's, soft-maxed the same way, added
  at DENSE_WEIGHT); without either, search is lexical. The description among the dense texts, on
  top of the BM25F field: the model's R@1/R@5 dev 0.65/0.84 -> 0.67/0.85, held-out 0.69/0.87
  (unchanged); the table's dev 0.67/0.84 -> 0.67/0.85, held-out 0.65/0.84 -> 0.71/0.84.

On all 150 questions the subject index took the model's ranking from R@1 0.53, R@5 0.81 to
0.68/0.86, the table's from 0.50/0.79 to 0.69/0.85 and the lexical one from 0.45/0.74 to 0.64/0.83
(`gita_questions.py --ablations`: "without the subject index").

- a fourth BM25F field, weighing QUESTIONS_WEIGHT: the questions a reader asks that the verse answers
  (data/reader_questions.json, twelve to fifteen a verse, pramana's own text written from the
  translations without the test questions: doc2query), each also a dense text of the verse. On all
  240 questions (dev, held-out, fresh), the first three rounds (nine to twelve a verse) took R@1/R@5
  from 0.66/0.84 to 0.78/0.93 with the model, from 0.66/0.81 to 0.78/0.91 with the table and from
  0.62/0.80 to 0.73/0.91 lexical; on the fresh set alone, the model's from 0.62/0.81 to 0.80/0.93
  (`--ablations`: "without the reader's questions"). More of the same kind gained nothing past six a
  verse (`--per-verse`); the fourth round, three a verse that it answers and its neighbours do not,
  took the model to 0.80/0.94, the table to 0.81/0.93 and lexical to 0.75/0.92.
  The weight (chosen with the first round's three to five a verse): on dev, lexical R@1 0.64-0.67
  from 0.25 to 3 (best at 1), the table's and the model's within one question of each other from
  0.25 to 1.5 (`--weights`). A per-field length normalisation (b 0-0.75) and counting a word once
  however many questions say it were tried: no better.

A query is read word by word before it comes here (ranking.py): its Sanskrit words go to the term
index (terms.py), and reach this index in English, from the word-for-word glosses. Asked on its own
(`search`), a query whose content words are mostly not words of the translations gets no answer.

The index is built in memory from the cached texts (under a second for 701 verses) and rebuilt
when the cache grows. benchmarks/gita_questions.py measures each signal on tests/gita/questions.json.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from pramana import work
from pramana.gita.reference import VerseRef
from pramana.store.fts import MAX_TERMS
from pramana.text.normalize import strip_diacritics
from pramana.text.stem import stem

if TYPE_CHECKING:
    from pramana.embed import Embedder
    from pramana.gita.semantic import VerseVectors

# Authors whose `et` is a translation; the other English texts (raman, abhinav, sankar) are commentaries.
TRANSLATION_AUTHORS = frozenset({"prabhu", "siva", "purohit", "san", "adi", "gambir"})
COMMENTARY_WEIGHT = 0.3  # a commentary's word counts this much of a translation's (BM25F)
# A word of the verse's description in the subject index (data/topics.json) counts this much of a
# translation's: on dev, 1.5 gave the best or tied best R@1 of 0-3 with each ranking (R@1 at 0, 1, 1.5,
# 2: lexical 0.47, 0.61, 0.65, 0.63; the table's 0.55, 0.64, 0.67, 0.67; the model's 0.57, 0.67, 0.67,
# 0.65; R@5 within 0.02 of each other from 1 on; `gita_questions.py --weights`).
TOPIC_WEIGHT = 1.5
TOPIC_DENSE = True  # the description is also one of the verse's texts for the dense signals
# A word of the questions a reader asks that the verse answers (data/reader_questions.json) counts
# this much of a translation's (a fourth BM25F field).
QUESTIONS_WEIGHT = 1.0
QUESTIONS_DENSE = True  # each of those questions is also one of the verse's texts for the dense signals
K1, B = 1.2, 0.75
# The static embedding table's cosine similarity, added to the BM25F score scaled to [0, 1].
DENSE_WEIGHT = 1.0
# The model's soft-max similarity, added the same way. From 0.5 to 3 the first dev questions scored
# within two questions of each other (R@1 0.55-0.59, R@5 0.79-0.83; `gita_questions.py --weights`);
# on the harder set's dev half (questions_hard.json), whose everyday paraphrases BM25 reads word by
# word ("blew up" at the conchs), 2 beat 1 (R@1/R@5 0.66/0.86 -> 0.70/0.90, the first 240 0.80/0.94
# -> 0.81/0.95), 3 did as well as 2.
MODEL_WEIGHT = 2.0

EXCERPT_WORDS = 24
_WORD = re.compile(r"[a-z]+")
_LETTERS = re.compile(r"[^\W\d_]+")


class _LettersKept(dict[int, int]):
    """str.translate table: a letter (a character _LETTERS matches) kept, any other one a space, so
    that split() gives what _LETTERS.findall does, at a fraction of its cost over whole texts."""

    def __missing__(self, code: int) -> int:
        self[code] = kept = code if _LETTERS.fullmatch(chr(code)) else ord(" ")
        return kept


_LETTERS_KEPT = _LettersKept()
# Function words, and the words a question is phrased with rather than what it asks about.
_QUESTION_WORDS = """
a an the of to in on at for from by with about into over under upon as than then that this these
those there here it its is are was were be been being am do does did doing done have has had
having what which who whom whose when where why how whether if so such and or but nor not no
i me my mine myself we us our you your yours he him his she her they them their one ones oneself
someone somebody anyone anybody anything something everyone person people s t
can could should would will shall may might must also even ever only really very too just
say says said saying tell tells told talk talks explain explains describe describes mean means
meant meaning according krishna krishnas krsna gita gitas bhagavad bhagavadgita lord verse verses
chapter book okay ok happen happens happened get gets got make makes way ways thing things
"""
QUESTION_WORDS = frozenset(_QUESTION_WORDS.split())


# A reader's words for what the translations name otherwise (the translators write Sanskrit terms,
# and Krishna speaks of himself as "Me"); searched at GLOSSARY_WEIGHT.
GLOSSARY_WEIGHT = 0.5
READER_WORDS: dict[str, tuple[str, ...]] = {
    "god": ("me", "lord", "supreme"),
    "gods": ("demigods", "devas"),
    "soul": ("self", "embodied", "entity"),
    "souls": ("beings", "entities"),
    "priest": ("brahmana", "brahmanas", "brahmin"),
    "priests": ("brahmanas", "brahmins"),
    "warrior": ("kshatriya", "ksatriya", "kshatriyas"),
    "warriors": ("kshatriyas", "ksatriyas"),
    "merchant": ("vaishya", "vaisya", "trade"),
    "merchants": ("vaishyas", "vaisyas", "trade"),
    "worker": ("sudra", "shudra", "service"),
    "workers": ("sudras", "shudras", "service"),
    "die": ("death", "slain", "body"),
    "dies": ("death", "slain", "body"),
    "dying": ("death", "departing"),
    "atheist": ("demoniac", "demoniacal", "unreal"),
    "atheists": ("demoniac", "demoniacal", "unreal"),
    "results": ("fruits", "fruit"),
    "outcome": ("fruits", "fruit"),
    "reward": ("fruits", "attains"),
    "detachment": ("attachment", "unattached", "dispassion"),
    "detached": ("attachment", "unattached"),
    "incarnation": ("descend", "manifest", "born"),
    "earth": ("world", "descend"),
    "universe": ("worlds", "world"),
    "meditate": ("meditation", "yoga"),
    "heaven": ("heavenly", "svarga"),
    "hell": ("hellish", "demoniac"),
    "sin": ("sinful", "sins"),
    "wicked": ("sinful", "evil"),
    "evil": ("sinful", "demoniac"),
    "fight": ("battle", "war"),
    "war": ("battle", "fight"),
    "rebirth": ("birth", "return"),
    "reincarnation": ("birth", "body"),
    "enlightenment": ("liberation", "realization"),
    "salvation": ("liberation", "deliver"),
    "worship": ("devotion",),
    "love": ("devotion", "dear"),
    "bright": ("effulgence", "splendour", "radiance"),
}


@dataclass(frozen=True)
class VerseTexts:
    """The English texts of one verse, as the index reads them."""

    ref: VerseRef  # or any key a book's store keeps ("SB 1.2.6")
    translations: Sequence[str]
    commentaries: Sequence[str]
    topic: str = ""  # the verse's description in the reader's subject index ("" for none)
    questions: Sequence[str] = ()  # questions a reader asks that the verse answers

    @property
    def dense_texts(self) -> list[str]:
        """The texts whose vectors the model's similarity soft-maxes over: each translation, the
        description and each reader's question."""
        return [*self.translations, *self.described_texts]

    @property
    def described_texts(self) -> list[str]:
        """pramana's own texts about the verse among its dense texts: the description and the questions."""
        return [
            *([self.topic] if self.topic and TOPIC_DENSE else []),
            *(self.questions if QUESTIONS_DENSE else ()),
        ]


@dataclass(frozen=True)
class QuestionHit:
    ref: VerseRef
    score: float
    excerpt: str  # the translation that matches best, its matching words in **bold**


def words(text: str) -> list[str]:
    """Lower-case words without diacritics: Prabhupada writes "kṣatriya", others "Kshatriya"."""
    return [plain for word in _LETTERS.findall(text.lower()) for plain in _plain_words(word)]


@functools.lru_cache(maxsize=131_072)
def _plain_words(word: str) -> tuple[str, ...]:
    return tuple(_WORD.findall(strip_diacritics(word)))


def content_words(question: str) -> list[str]:
    """The words a question asks about: its words less QUESTION_WORDS."""
    return [w for w in words(question) if w not in QUESTION_WORDS and len(w) > 1]


def content_stems(question: str) -> list[str]:
    """The stems a question is searched by, distinct, in order, at most MAX_TERMS."""
    return list(dict.fromkeys(stem(w) for w in content_words(question)))[:MAX_TERMS]


EmbedderFactory = Callable[[], "Embedder | None"]


def lexical_note() -> str | None:
    """Why a question was ranked by its words alone, if the embeddings extra is not installed
    (None if it is: then the settings turned the model off)."""
    from pramana import install_extra_hint
    from pramana.embed import extra_installed

    if extra_installed():
        return None
    return (
        "Ranked by words only: install the embeddings extra"
        f" (`{install_extra_hint('embeddings')}`) to rank questions by meaning too."
    )


def unbuilt_note(missing: int) -> str:
    """Why a question was ranked by its words alone: the translations' vectors are not built."""
    from pramana.install import command

    return (
        f"Ranked by words only: {missing} translations have no vectors for ranking by meaning yet;"
        f" run seed_database (or `{command('gita seed')}`) once to build them (a minute or two)."
    )


def cached_embedder() -> Embedder | None:
    """The static embedding table if it is cached in the data directory (it is built by the
    `embeddings` extra, for code search); None, and search is lexical, if it is not."""
    from pramana.embed import StaticEmbedder

    embedder = StaticEmbedder(packaged=False)  # a table built in the data directory, as before
    return embedder if embedder.is_ready() else None


def question_embedder() -> Embedder | None:
    """all-MiniLM-L6-v2 when the embeddings extra is installed and loads; else the cached static
    table (cached_embedder); else None."""
    from pramana.embed import MiniLMEmbedder, extra_installed

    if extra_installed():
        model = MiniLMEmbedder()
        if model.is_ready():
            return model
    return cached_embedder()


def is_model(embedder: Embedder | None) -> bool:
    """Whether `embedder` runs a model per text (its verse vectors are built once and cached),
    rather than summing a table's rows (cheap enough to embed the verses whenever the index is built)."""
    from pramana.embed import MiniLMEmbedder

    return isinstance(embedder, MiniLMEmbedder)


def split_translations(
    texts: dict[VerseRef, list[tuple[str, str]]],
    topics: dict[VerseRef, str] | None = None,
    questions: dict[VerseRef, tuple[str, ...]] | None = None,
) -> list[VerseTexts]:
    """A store's English texts ({ref: [(author key, text)]}, store.english_texts()) by verse, with
    each verse's description from the subject index (`topics`) and its reader's questions
    (`questions`), by default the packaged ones."""
    from pramana.gita import packaged

    topics = packaged.verse_topics() if topics is None else topics
    questions = packaged.verse_questions() if questions is None else questions
    return [
        VerseTexts(
            ref,
            [text for author, text in by_author if author in TRANSLATION_AUTHORS],
            [text for author, text in by_author if author not in TRANSLATION_AUTHORS],
            topics.get(ref, ""),
            questions.get(ref, ()),
        )
        for ref, by_author in sorted(texts.items())
    ]


def build_index(
    texts: dict[VerseRef, list[tuple[str, str]]], embedder: Embedder | None, note: str | None = None
) -> QuestionIndex:
    """The index over a store's English texts, with the static table's vectors if `embedder` is one."""
    return QuestionIndex(split_translations(texts), embedder, note=note)


class QuestionIndex:
    """BM25F over the verses' English texts, with a reader's glossary and, optionally, embeddings."""

    def __init__(
        self,
        verses: Sequence[VerseTexts],
        embedder: Embedder | None = None,
        vectors: VerseVectors | None = None,
        note: str | None = None,
    ):
        """`embedder` with `vectors`: the model's cached vectors of each translation; `embedder`
        alone: a table's, one vector per verse, computed here. `note` says why search is lexical."""
        self.refs = [v.ref for v in verses]
        self.note = note
        self._embedder = embedder
        self._model = vectors is not None
        if vectors is None and embedder is not None:
            from pramana.gita.semantic import VerseVectors

            # a table's vector of a text is the sum of its words': the joined translations are one
            # text, the description and each question others, and a verse scores their soft maximum
            described = [(i, text) for i, v in enumerate(verses) for text in v.described_texts]
            table = embedder.embed(
                [" ".join(v.translations) for v in verses] + [text for _, text in described]
            )
            rows = np.array([*range(len(verses)), *(i for i, _ in described)], dtype=np.int64)
            vectors = VerseVectors(table, rows)
        self._vectors = vectors
        self._translations = [list(v.translations) for v in verses]
        term_ids: dict[str, int] = {}
        translation_bags, commentary_bags, topic_bags, question_bags = [], [], [], []
        for verse in verses:
            work.check("indexing the verses for question search")
            translation_bags.append(_bag(verse.translations, term_ids))
            commentary_bags.append(_bag(verse.commentaries, term_ids))
            topic_bags.append(_bag([verse.topic], term_ids))
            question_bags.append(_bag(verse.questions, term_ids))
        self._term_ids = term_ids
        self._postings = Postings.build(
            len(term_ids),
            [
                (translation_bags, 1.0),
                (commentary_bags, COMMENTARY_WEIGHT),
                (topic_bags, TOPIC_WEIGHT),
                (question_bags, QUESTIONS_WEIGHT),
            ],
        )
        names = list(term_ids)
        # Not the reader's questions' words: they name verses by their Sanskrit too ("what does
        # karmanye vadhikaraste mean?"), and a Sanskrit query belongs to the transliteration index.
        self._translation_stems = {
            names[i] for bags in (translation_bags, topic_bags) for ids, _ in bags for i in ids.tolist()
        }

    def __len__(self) -> int:
        return len(self.refs)

    @property
    def has_texts(self) -> bool:
        """Whether any verse has an English text (a book installed without translations has none)."""
        return bool(self._translation_stems)

    @property
    def semantic(self) -> bool:
        return self._vectors is not None

    def reads_as_english(self, question: str) -> bool:
        """Whether most of the question's content words are words of the translations: a query in
        Sanskrit ("sarva dharman parityajya") is left to the transliteration index, though Shankara's
        and Ramanuja's commentaries quote some of its words."""
        content = content_words(question)
        known = sum(stem(word) in self._translation_stems for word in content)
        return known * 2 >= len(content) > 0

    def is_english_word(self, word: str) -> bool:
        """Whether a word is a word of the translations or the descriptions (by its stem)."""
        return any(stem(plain) in self._translation_stems for plain in _plain_words(word.lower()))

    def search(self, question: str, limit: int, *, english_only: bool = True) -> list[QuestionHit]:
        """The verses that answer `question`, best first; none for a query that does not read as
        English (`english_only`, the default), which the transliteration index answers."""
        scores = self.scores(question, english_only=english_only)
        if scores is None:
            return []
        order = np.argsort(-scores, kind="stable")[:limit]
        return [self.hit(int(i), float(scores[i]), question) for i in order if scores[i] > 0]

    def scores(self, question: str, *, english_only: bool = True) -> np.ndarray | None:
        """Each verse's score for `question`: its BM25F score scaled to [0, 1] plus, with vectors,
        MODEL_WEIGHT (DENSE_WEIGHT for a table) times its similarity; None for a query that does not
        read as English (`english_only`)."""
        if english_only and not self.reads_as_english(question):
            return None
        scores = np.zeros(len(self.refs), dtype=np.float64)
        for group in self.query_groups(question):
            scores += self._group_scores(group)
        scores /= scores.max() or 1.0
        if self._vectors is not None:
            weight = MODEL_WEIGHT if self._model else DENSE_WEIGHT
            scores += weight * self._similarities(question)
        return scores

    def hit(self, position: int, score: float, question: str) -> QuestionHit:
        """The verse at `position` as a hit, its translation's words the question asks about in bold."""
        groups = self.query_groups(question)
        asked = {term for group in groups for term, weight in group.items() if weight >= GLOSSARY_WEIGHT}
        return QuestionHit(self.refs[position], score, self._excerpt(position, asked))

    def query_groups(self, question: str) -> list[dict[str, float]]:
        """One group of weighted stems per content word of the question: the word's stem (weight 1)
        and its glossary words (GLOSSARY_WEIGHT). A verse scores a group's best stem only, so a verse
        saying "detached", "unattached" and "attachment" counts one idea once."""
        groups: dict[str, dict[str, float]] = {}
        for word in content_words(question):
            term = stem(word)
            if term in groups or len(groups) == MAX_TERMS:
                continue
            group = {term: 1.0} if term in self._term_ids else {}
            for other in READER_WORDS.get(word, ()):
                other_term = stem(other)
                if other_term in self._term_ids:
                    group[other_term] = max(group.get(other_term, 0.0), GLOSSARY_WEIGHT)
            if group:
                groups[term] = group
        return list(groups.values())

    def _group_scores(self, group: dict[str, float]) -> np.ndarray:
        best = np.zeros(len(self.refs), dtype=np.float64)
        for term, weight in group.items():
            docs, term_scores = self._postings.of(self._term_ids[term])
            best[docs] = np.maximum(best[docs], weight * term_scores)  # a term's verses are distinct
        return best

    def _similarities(self, question: str) -> np.ndarray:
        """The question's similarity to each verse: the whole question for the model (trained on
        questions and answers), its content words for the table (a sum of word vectors)."""
        assert self._embedder is not None and self._vectors is not None
        text = question if self._model else " ".join(content_words(question)) or question
        return self._vectors.similarities(self._embedder.embed([text])[0], len(self.refs))

    def _excerpt(self, position: int, stems: set[str]) -> str:
        texts = self._translations[position]
        if not texts:
            return ""
        best = max(texts, key=lambda text: len(stems.intersection(stem(w) for w in words(text))))
        return highlight(best, stems)


def highlight(text: str, stems: set[str], width: int = EXCERPT_WORDS) -> str:
    """Up to `width` words of `text` from just before its first word whose stem is in `stems`,
    those words in **bold** (FTS5's snippet() style: "…" where text was cut)."""
    tokens = text.split()
    matched = [i for i, token in enumerate(tokens) if _matches(token, stems)]
    if not matched:
        return ""
    start = max(0, min(matched[0] - 3, len(tokens) - width))
    shown = [f"**{t}**" if _matches(t, stems) else t for t in tokens[start : start + width]]
    return ("…" if start else "") + " ".join(shown) + ("…" if start + width < len(tokens) else "")


def _matches(token: str, stems: set[str]) -> bool:
    return any(stem(word) in stems for word in words(token))


Bag = tuple[np.ndarray, np.ndarray]  # stem ids, counts


@functools.lru_cache(maxsize=131_072)
def _word_stems(word: str) -> tuple[str, ...]:
    return tuple(stem(plain) for plain in _plain_words(word))


def _bag(texts: Iterable[str], term_ids: dict[str, int]) -> Bag:
    """The stems of some texts and their counts; `term_ids` numbers the stems it has not seen."""
    counts: dict[int, int] = {}
    for word, times in Counter(" ".join(texts).lower().translate(_LETTERS_KEPT).split()).items():
        for term in _word_stems(word):
            term_id = term_ids.setdefault(term, len(term_ids))
            counts[term_id] = counts.get(term_id, 0) + times
    return (
        np.fromiter(counts.keys(), dtype=np.int64, count=len(counts)),
        np.fromiter(counts.values(), dtype=np.float64, count=len(counts)),
    )


@dataclass(frozen=True)
class Postings:
    """Each stem's verses and its BM25F score in each (CSR layout: stem t's are at
    `docs[start[t]:start[t + 1]]`). A stem's score in a verse does not depend on the query,
    so a search only adds these up."""

    start: np.ndarray
    docs: np.ndarray
    scores: np.ndarray

    @classmethod
    def build(cls, stems: int, fields: Sequence[tuple[Sequence[Bag], float]]) -> Postings:
        """`fields`: each field's bags (one per verse, in verse order) and its weight."""
        count = len(fields[0][0]) if fields else 0
        keys, values = [np.zeros(0, np.int64)], [np.zeros(0, np.float64)]
        for bags, weight in fields:
            if not weight:
                continue
            for position, ((ids, counts), norm) in enumerate(zip(bags, _length_norms(bags), strict=True)):
                keys.append(ids * count + position)
                values.append(counts * (weight / norm))
        unique, inverse = np.unique(np.concatenate(keys), return_inverse=True)
        tf = np.bincount(inverse, weights=np.concatenate(values), minlength=len(unique))
        terms, docs = np.divmod(unique, max(count, 1))
        start = np.zeros(stems + 1, dtype=np.int64)
        np.cumsum(np.bincount(terms, minlength=stems), out=start[1:])
        verses = np.diff(start)[terms]
        idf = np.log(1 + (count - verses + 0.5) / (verses + 0.5))
        return cls(start, docs.astype(np.int32), idf * tf * (K1 + 1) / (tf + K1))

    def of(self, term_id: int) -> tuple[np.ndarray, np.ndarray]:
        begin, end = self.start[term_id], self.start[term_id + 1]
        return self.docs[begin:end], self.scores[begin:end]


def _length_norms(bags: Sequence[Bag]) -> list[float]:
    lengths = [float(counts.sum()) for _, counts in bags]
    mean = (sum(lengths) / len(lengths)) if lengths else 0.0
    if not mean:
        return [1.0] * len(bags)
    return [1 - B + B * length / mean for length in lengths]
