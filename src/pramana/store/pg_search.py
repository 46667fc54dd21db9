"""Full-text search on PostgreSQL that answers as pramana's SQLite FTS5 tables do.

PostgreSQL finds the rows: each row's words are `tsvector`s searched through GIN indexes with
`tsquery`s, AND or OR between query words: `terms` holds the words of every column, unlabelled
(the index answers alone, no row is read to check it); `sanskrit_terms` those of the columns but
the translations, labelled by column (A, C), for a word searched in some columns only.

The ranking is FTS5's bm25(), computed in SQL from each row's word counts per column (a
table of (word, row, counts) whose primary key also counts the rows that hold a word), its length,
with the same column weights: both backends order hits alike. The snippet is FTS5's snippet().

The words are cut here, in Python, not by PostgreSQL's parser: the parser classifies letters by the
database's locale (under `C`, the usual default of container images, "ā" is no letter and
"karmaṇyevādhikāraste" falls apart), and cutting words here needs no extension (`unaccent`,
`pg_trgm`) that a managed server or a read-only role may not have. A word is a run of letters,
digits and combining marks, lower-cased, without Latin diacritics (FTS5's unicode61 with
remove_diacritics 2 does the same, except that it also cuts at combining marks: a Devanāgarī
word is one word here, where FTS5 matches its letters as a phrase). Row lengths are counted as
FTS5 counts them, so the BM25 scores of Latin-script queries are FTS5's.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

# Letters, digits and "_" (split off below), and the combining marks of IAST written decomposed and
# of Devanāgarī (vowel signs, virāma, anusvāra, visarga, nukta, accents).
_TOKEN = re.compile(
    r"[\w\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f"
    r"\u0900-\u0903\u093a-\u093c\u093e-\u094f\u0951-\u0957\u0962\u0963]+"
)
_FTS5_TOKEN = re.compile(r"[^\W_]+")  # how unicode61 cuts: marks are separators
WEIGHT_LABELS = "ABCD"
TRANSLATIONS = 1  # the column of translations, in both tables: the one `sanskrit_terms` leaves out
K1, B = 1.2, 0.75


@lru_cache(maxsize=65_536)
def _plain(token: str) -> str:
    decomposed = unicodedata.normalize("NFD", token.lower())
    stripped = "".join(c for c in decomposed if not ("\u0300" <= c <= "\u036f"))
    return unicodedata.normalize("NFC", stripped)


@dataclass(frozen=True)
class Token:
    word: str  # as searched: lower case, no Latin diacritics
    start: int
    end: int


def tokens(text: str) -> list[Token]:
    """The words of `text` with their offsets."""
    found = []
    for match in _TOKEN.finditer(text):
        piece, start = match.group(), match.start()
        if "_" not in piece:
            if word := _plain(piece):
                found.append(Token(word, start, match.end()))
            continue
        for part in re.finditer(r"[^_]+", piece):
            if word := _plain(part.group()):
                found.append(Token(word, start + part.start(), start + part.end()))
    return found


def words(text: str) -> list[str]:
    return [token.word for token in tokens(text)]


def fts5_tokens(text: str) -> list[Token]:
    """The tokens FTS5's unicode61 cuts `text` into (its snippets count words so)."""
    return [Token(_plain(m.group()), m.start(), m.end()) for m in _FTS5_TOKEN.finditer(text)]


def _ends_sentence(gap: str) -> bool:
    """FTS5's sentence finder: the text between two tokens ends in '.' or ':' then white space."""
    stripped = gap.rstrip(" \t\n\r")
    return stripped != gap and stripped.endswith((".", ":"))


def fts5_length(text: str) -> int:
    """How many tokens FTS5's unicode61 counts in `text` (a row's length for BM25)."""
    return sum(1 for _ in _FTS5_TOKEN.finditer(text))


@dataclass(frozen=True)
class Indexed:
    """One row's search columns as stored: its tsvectors, word counts and length."""

    terms: str  # tsvector literal of the words of every column: 'word' 'other'
    sanskrit_terms: str  # of the columns but the translations (column 1), labelled: 'word':1A,3C
    counts: dict[str, list[int]]  # word -> occurrences per column (rows of the words table)
    length: int


def index_columns(columns: Sequence[str]) -> Indexed:
    counts: dict[str, list[int]] = {}
    for position, text in enumerate(columns):
        for word, count in Counter(words(text)).items():
            counts.setdefault(word, [0] * len(columns))[position] = count
    sanskrit = []
    for word, per in counts.items():
        labels = ",".join(
            f"{i + 1}{WEIGHT_LABELS[i]}" for i, count in enumerate(per) if count and i != TRANSLATIONS
        )
        if labels:
            sanskrit.append(f"{_lexeme(word)}:{labels}")
    terms = " ".join(_lexeme(word) for word in counts)
    return Indexed(terms, " ".join(sanskrit), counts, sum(fts5_length(text) for text in columns))


def _lexeme(word: str) -> str:
    return "'" + word.replace("\\", "\\\\").replace("'", "''") + "'"


@dataclass(frozen=True)
class Phrase:
    """One searched word, in the columns whose weight is not 0 (FTS5: one phrase of the query)."""

    word: str
    weights: tuple[float, ...]

    def condition(self, parameter: str) -> str:
        """SQL true for a row holding the word in its columns: a word of any column is looked up in
        `terms`, one of some columns in `sanskrit_terms` (which has no translations: lexemes of a
        tsvector that small are checked cheaply against their labels)."""
        if all(self.weights):
            return f"terms @@ %({parameter})s::tsquery"
        return f"sanskrit_terms @@ %({parameter})s::tsquery"

    def tsquery(self) -> str:
        if all(self.weights):
            return _lexeme(self.word)
        labels = "".join(WEIGHT_LABELS[i] for i, weight in enumerate(self.weights) if weight)
        return f"{_lexeme(self.word)}:{labels}"


@dataclass(frozen=True)
class Query:
    """A search: clauses, each a choice of options, each option words that must all be there."""

    clauses: list[list[list[Phrase]]]
    every_clause: bool

    @property
    def phrases(self) -> list[Phrase]:
        return [phrase for clause in self.clauses for option in clause for phrase in option]

    def where(self) -> tuple[str, dict[str, str]]:
        """The SQL condition rows must meet (GIN-indexed tsvector matches), and its parameters."""
        parameters: dict[str, str] = {}
        parts = []
        for clause in self.clauses:
            options = []
            for option in clause:
                conditions = []
                for phrase in option:
                    name = f"q{len(parameters)}"
                    parameters[name] = phrase.tsquery()
                    conditions.append(phrase.condition(name))
                if conditions:
                    options.append("(" + " AND ".join(conditions) + ")")
            if options:
                parts.append("(" + " OR ".join(options) + ")")
        return (" AND " if self.every_clause else " OR ").join(parts), parameters


def option(term: str, weights: tuple[float, ...]) -> list[Phrase]:
    """A query word as phrases: one per word the tokenizer finds in it (usually one)."""
    return [Phrase(word, weights) for word in words(term)]


def bm25_sql(table: str, words_table: str, key: str, columns: str, snippet_column: str, stats_sql: str,
             where: str, filter_sql: str = "") -> str:  # fmt: skip
    """The ranking query: the rows of `table` whose `terms` match, ranked by FTS5's bm25() with the
    phrases' column weights. Each row's word counts per column are rows of `words_table` (word,
    `key`, c): PostgreSQL counts the rows that hold a word, and reads a row's counts, from its
    primary key's index. `stats_sql` gives the number of rows and their mean length (as FTS5
    counts them: every row of the table). Parameters: bm25_parameters(), and the filter's."""
    picked = ", ".join(f"t.{column}" for column in columns.split(", "))
    return f"""
WITH stats AS MATERIALIZED ({stats_sql}),
phrase AS MATERIALIZED (
    SELECT p.word, p.w0, p.w1, p.w2,
           (SELECT count(*) FROM {words_table} x WHERE x.word = p.word
                AND ((p.w0 > 0 AND x.c[1] > 0) OR (p.w1 > 0 AND x.c[2] > 0) OR (p.w2 > 0 AND x.c[3] > 0))
           ) AS hits
    FROM unnest(%(words)s::text[], %(w0)s::float8[], %(w1)s::float8[], %(w2)s::float8[])
        AS p(word, w0, w1, w2)
),
idf AS MATERIALIZED (
    SELECT word, w0, w1, w2, greatest(ln((stats.rows - hits + 0.5) / (hits + 0.5)), 1e-6) AS idf
    FROM phrase, stats
),
hit AS MATERIALIZED (
    SELECT {key}, length FROM {table} WHERE ({where}) {filter_sql}
),
scored AS (
    SELECT h.{key}, sum(idf.idf * f.freq * {K1 + 1}
                        / (f.freq + {K1} * (1 - {B} + {B} * h.length / greatest(stats.mean, 1e-9)))) AS score
    FROM hit h CROSS JOIN idf CROSS JOIN stats
    LEFT JOIN LATERAL (  -- one primary-key lookup per row and word
        SELECT w.c FROM {words_table} w WHERE w.word = idf.word AND w.{key} = h.{key} LIMIT 1
    ) x ON true
    CROSS JOIN LATERAL (
        SELECT idf.w0 * coalesce(x.c[1], 0) + idf.w1 * coalesce(x.c[2], 0)
             + idf.w2 * coalesce(x.c[3], 0) AS freq
    ) f
    GROUP BY h.{key}
),
top AS (SELECT {key}, score FROM scored ORDER BY score DESC, {key} LIMIT %(limit)s)
SELECT {picked}, t.{snippet_column} AS snippet_text, top.score
FROM top JOIN {table} t ON t.{key} = top.{key}
ORDER BY top.score DESC, {picked}
"""


def bm25_parameters(query: Query, limit: int) -> dict[str, object]:
    """The parameters of bm25_sql, but the where clause's (Query.where)."""
    phrases = query.phrases
    weights = [tuple(p.weights) + (0.0,) * (3 - len(p.weights)) for p in phrases]
    return {
        "words": [p.word for p in phrases],
        "w0": [w[0] for w in weights],
        "w1": [w[1] for w in weights],
        "w2": [w[2] for w in weights],
        "limit": limit,
    }


# -- FTS5's snippet() -------------------------------------------------------------------------------


def snippet(
    text: str,
    searched: set[str],
    size: int = 24,
    mark: tuple[str, str] = ("**", "**"),
    ellipsis: str = "…",
) -> str:
    """FTS5's snippet(): the `size`-word window of `text` with the most distinct searched words
    (then the most hits), preferring one that starts a sentence; the words marked. Words are cut as
    FTS5 cuts them, so the window is the one SQLite's snippet() shows."""
    found = fts5_tokens(text)
    hits = [i for i, token in enumerate(found) if token.word in searched]
    count = len(found)
    starts = [0] + [i for i in range(1, count) if _ends_sentence(text[found[i - 1].end : found[i].start])]

    def score(at: int) -> tuple[int, int]:
        seen: set[str] = set()
        total, first, last = 0, -1, -1
        for i in hits:
            if at <= i < at + size:
                word = found[i].word
                total += 1 if word in seen else 1000
                seen.add(word)
                if first < 0:
                    first = i
                last = i + 1
        adjusted = first - (size - (last - first)) // 2 if first >= 0 else 0
        adjusted = min(adjusted, count - size)
        return total, max(adjusted, 0)

    best, best_start = 0, 0
    for i in hits:
        total, adjusted = score(i)
        if total > best:
            best, best_start = total, adjusted
        if count > size:
            j = 0
            while j < len(starts) - 1 and starts[j + 1] <= i:
                j += 1
            if starts[j] < i:
                total = score(starts[j])[0] + (120 if starts[j] == 0 else 100)
                if total > best:
                    best, best_start = total, starts[j]
    return _highlight(text, found, set(hits), best_start, size, mark, ellipsis)


def _highlight(
    text: str,
    found: list[Token],
    hits: set[int],
    start: int,
    size: int,
    mark: tuple[str, str],
    ellipsis: str,
) -> str:
    if not found:
        return text
    end = min(start + size, len(found)) - 1
    out = [ellipsis] if start > 0 else []
    offset = 0 if start == 0 else found[start].start
    for i in range(start, end + 1):
        token = found[i]
        if i in hits:
            out += [text[offset : token.start], mark[0], text[token.start : token.end], mark[1]]
            offset = token.end
    out.append(text[offset : found[end].end])
    out.append(text[found[end].end :] if end >= len(found) - 1 else ellipsis)
    return "".join(out)
