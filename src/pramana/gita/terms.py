"""Sanskrit terms in a reader's loose spelling: `sthitha pragnya lakshanam`, `swadharma vs paradharma`,
`gyan yog`, `nishkam karma`, reaching the verses that name the term and the verses that explain it.

Readers write Sanskrit as they hear it: aspirates or not (`sthitha`, `sthita`, `stita`), ś and ṣ as
`sh` or `s`, v as `w`, long vowels doubled or not (`aa`, `ee`), jñ as `gn`, `gy`, `gny` or `dny`, kṣ
as `ksh` or `x`, ṛ as `ri`, and the final `a` dropped (`yog`, `dhyan`). Every word is reduced to one
key that all of these share (`term_keys`): the folding of `text.schemes.loose_key` (diacritics,
popular spellings, class nasals, doubled consonants), then aspirates dropped and jñ's spellings made
one. A query word matches every indexed word whose key begins with its stem (its key without final
vowels and `m`), at most EXTENSION letters longer (the endings of inflection: `svadharma` finds
`svadharmo`, `svadharmāt`); two or three query words written apart also match as one
(`sthitha pragnya` finds `sthitaprajñasya`).

Each verse is indexed from three kinds of text (`VerseTerms`), none of them a hand list:
- its own words (the IAST and, read as IAST, the Devanāgarī) and the Sanskrit words of its
  word-for-word gloss when the book has one (Sivananda's for the Gītā, the synonyms for the
  Bhāgavatam and the Caitanya-caritāmṛta): the verse that *names* the term;
- the Sanskrit words of the texts about the verse (the Sanskrit and Hindi commentaries of the
  Gītā, a purport's IAST words), at MENTION_WEIGHT: the verses whose commentators speak of the
  term, which are the verses that *explain* it (Shankara's and Madhusudana's commentaries on
  2.55-2.72 each speak of the sthitaprajña, on 3.35 and 18.47 of svadharma);
- the word-for-word glosses also give each Sanskrit word its English (`glosses`): the question
  ranking then reads `sthitha pragnya` as "steady wisdom" and finds the verses that say so in
  English, in every book that has such glosses.

BM25 over the two fields, one index per book, built in memory from the texts a store hands over.
"""

from __future__ import annotations

import bisect
import json
import logging
import os
import re
import threading
import unicodedata
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from pramana import work
from pramana.gita.question import Bag, Postings

log = logging.getLogger(__name__)

TERMS_VERSION = "1"  # of the saved index's layout and of term_keys: another version is built again
MENTION_WEIGHT = 0.4  # a word in a commentary about the verse counts this much of one in the verse
EXTENSION = 4  # an indexed word may be this many letters longer than the query word's stem
MIN_STEM = 3  # shorter stems ("ma", "na") match too much to mean anything
COMPOUND_WEIGHT = 0.7  # words written apart that match as one count this much more than one word
SKELETON_WEIGHT = 0.6  # a word matched by its consonants alone (a vowel dropped inside it)
SKELETON_MIN = 6  # letters a query word needs to be matched so

_DEVANAGARI_WORD = re.compile(r"[\u0900-\u0963\u0966-\u097F]+")
_ROMAN_WORD = re.compile(r"[A-Za-z\u00c0-\u024f\u1e00-\u1eff]+(?:['’-][A-Za-z\u00c0-\u024f\u1e00-\u1eff]+)*")
_COMBINING = re.compile(r"[\u0300-\u036f]")


def _single(match: re.Match[str]) -> str:
    return match.group()[0]


# Applied in order to lower-case ASCII letters, one word a line: the popular spellings of one sound
# become one key. Longer patterns first.
_FOLDS: tuple[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]], ...] = tuple(
    (re.compile(pattern), replacement)
    for pattern, replacement in (
        (r"[^a-z\n]", ""),
        (r"ksh|x", "ks"),
        (r"chh", "c"),
        (r"(?:[gjd]ny|gy|gn)", "jn"),  # jñ: pragnya, pragya, dnyan, agni (both sides alike)
        (r"sh", "s"),
        (r"ch", "c"),
        (r"(?<=[kgcjtdpbr])h", ""),  # aspirates: sthitha, dharma, bhakti
        (r"w", "v"),
        (r"aa", "a"),
        (r"ee|ii", "i"),
        (r"oo|uu", "u"),
        (r"ri", "r"),  # ṛ: krishna, prakriti, hriday (as fold_word has it)
        (r"[mn](?=[kgcjtdpbszlv])", "n"),  # anusvāra before a consonant: samkalpa, sankalpa
        (r"kk+|gg+|cc+|jj+|tt+|dd+|pp+|bb+|nn+|mm+|yy+|rr+|ll+|vv+|ss+|zz+", _single),  # sannyasa, sattva
        (r"h$", ""),  # visarga
    )
)
_FINAL_VOWELS = re.compile(r"(?:[aeiou]+|m)$")


def term_keys(words: Sequence[str]) -> list[str]:
    """The loose key of each word (IAST, ASCII or Devanāgarī), folded all at once: a commentary's
    hundred thousand words take a fraction of a second."""
    if not words:
        return []
    text = "\n".join(w.replace("\n", " ") for w in words)
    if _DEVANAGARI_WORD.search(text):
        text = _iast(text)
    text = unicodedata.normalize("NFD", text.lower())
    text = _COMBINING.sub("", text)
    for pattern, replacement in _FOLDS:
        text = pattern.sub(replacement, text) if "$" not in pattern.pattern else _per_line(pattern, text)
    keys = text.split("\n")
    return keys if len(keys) == len(words) else [term_keys([w])[0] for w in words]


def _per_line(pattern: re.Pattern[str], text: str) -> str:
    return re.sub(pattern.pattern.replace("$", r"(?=\n|$)"), "", text)


def _iast(text: str) -> str:
    from vidyut.lipi import Scheme, transliterate

    return transliterate(text, Scheme.Devanagari, Scheme.Iast)


_NO_VOWELS = str.maketrans("", "", "aeiou")


def _text_bytes(lines: Sequence[str]) -> np.ndarray:
    """Lines of text as UTF-8 bytes (numpy's fixed-width strings would pad every key to the longest)."""
    return np.frombuffer("\n".join(lines).encode(), dtype=np.uint8)


def _text_lines(stored: np.ndarray) -> list[str]:
    text = stored.tobytes().decode()
    return text.split("\n") if text else []


def terms_path(db_path: Path) -> Path:
    """Where the term index of the cache at `db_path` is saved: beside it."""
    return db_path.with_name(f"{db_path.name}.terms.npz")


def _skeleton(key: str) -> str:
    return key.translate(_NO_VOWELS)


def _skeletons(keys: Sequence[str]) -> list[str]:
    return "\n".join(keys).translate(_NO_VOWELS).split("\n")


def term_key(word: str) -> str:
    return term_keys([word])[0]


def term_stem(key: str) -> str:
    """The part of a key a query matches by: without its final vowels or `m` (`yoga`, `yog`;
    `lakshanam`, `lakshan`), whatever the inflection or the dropped final `a`."""
    stripped = _FINAL_VOWELS.sub("", key)
    stripped = _FINAL_VOWELS.sub("", stripped) if stripped.endswith("m") or key.endswith("m") else stripped
    return stripped if len(stripped) >= MIN_STEM else key


def sanskrit_words(text: str) -> list[str]:
    """The words of a Sanskrit text (IAST or Devanāgarī), split at spaces and daṇḍas; a compound
    written with hyphens (`sthita-prajñasya`) counts whole and as its members."""
    found = _DEVANAGARI_WORD.findall(text)
    for word in _ROMAN_WORD.findall(text):
        pieces = [piece for piece in re.split(r"['’-]", word) if piece]
        found += pieces if len(pieces) == 1 else [*pieces, "".join(pieces)]
    return found


def looks_sanskrit(word: str) -> bool:
    """A word of an English text that is Sanskrit by its letters: IAST marks (ā ī ū ṛ ṅ ñ ṭ ḍ ṇ ś ṣ ṃ ḥ)."""
    return any(ch in _IAST_MARKED for ch in word.lower())


_IAST_MARKED = frozenset("āīūṛṝḷṅñṭḍṇśṣṃṁḥ")
_LATIN = r"A-Za-z\u00c0-\u024f\u1e00-\u1eff"
_MARKED_WORD = re.compile(rf"[{_LATIN}'’-]*[āīūṛṝḷṅñṭḍṇśṣṃṁḥĀĪŪṚṜḶṄÑṬḌṆŚṢṂṀḤ][{_LATIN}'’-]*")


@dataclass(frozen=True)
class VerseTerms:
    """What a verse's Sanskrit terms are read from. `ref` is any key the caller keeps (a Gītā
    VerseRef, "SB 1.2.6")."""

    ref: Hashable
    sanskrit: str  # the verse, IAST and/or Devanāgarī
    glossary: Sequence[tuple[str, str]] = ()  # word-for-word: (Sanskrit word, its English)
    mentions: Sequence[str] = ()  # texts about the verse: commentaries, purports


MAX_QUERY_WORDS = 62  # a verse's matched query words are the bits of an int64


@dataclass(frozen=True)
class MatchedWords:
    """Which query words matched each verse's own words, read for the verses shown only."""

    words: tuple[str, ...]
    masks: np.ndarray  # per verse: bit p set when query word p matched

    def __getitem__(self, position: int) -> tuple[str, ...]:
        mask = int(self.masks[position])
        return tuple(word for p, word in enumerate(self.words) if mask >> p & 1)


@dataclass(frozen=True)
class TermHit:
    ref: Hashable
    score: float
    matched: tuple[str, ...]  # the query words that matched the verse's own words


class TermIndex:
    """BM25 over each verse's Sanskrit words (own and word-for-word) and, at MENTION_WEIGHT, the
    Sanskrit words of its commentaries, matched by loose key; and the word-for-word glosses."""

    _held: Sequence[Hashable] | None  # the last list `holds` found the same

    def holds(self, refs: Sequence[Hashable]) -> bool:
        """Whether this index holds exactly these verses, in this order (remembered for the last list)."""
        if refs is getattr(self, "_held", None):
            return True
        same = [str(r) for r in refs] == [str(r) for r in self.refs]
        if same:
            self._held = refs
        return same

    def __init__(self, verses: Sequence[VerseTerms]):
        self.refs = [v.ref for v in verses]
        self._held = None
        own_words, mention_words, glossaries = [], [], []
        for verse in verses:
            work.check("indexing the verses' Sanskrit terms")
            pairs = [(word, gloss) for word, gloss in verse.glossary if word.strip()]
            glossaries.append(pairs)
            own_words.append(
                sanskrit_words(verse.sanskrit) + [w for word, _ in pairs for w in sanskrit_words(word)]
            )
            mention_words.append(_mention_words(verse.mentions))
        # each distinct word folded once: the commentaries repeat their words many times over
        distinct = list(
            {w: None for words in (*own_words, *mention_words) for w in words}
            | {word: None for pairs in glossaries for word, _ in pairs}
        )
        key_ids: dict[str, int] = {}
        word_ids = {
            word: key_ids.setdefault(key, len(key_ids)) if key else -1
            for word, key in zip(distinct, term_keys(distinct), strict=True)
        }
        own, mentioned = (
            _bags(own_words, word_ids, len(key_ids)),
            _bags(mention_words, word_ids, len(key_ids)),
        )
        names = list(key_ids)
        gloss_counts: dict[int, Counter[str]] = {}
        for pairs in glossaries:
            for word, gloss in pairs:
                if (key_id := word_ids[word]) >= 0 and (english := _clean_gloss(gloss)):
                    gloss_counts.setdefault(key_id, Counter())[english] += 1
        del names
        self._key_ids = key_ids
        self._sorted_keys = sorted(key_ids)
        self._own_keys = frozenset(int(i) for ids, _ in own for i in ids.tolist())
        own_sorted = [key for key in self._sorted_keys if key_ids[key] in self._own_keys]
        self._skeletons = sorted(zip(_skeletons(own_sorted), own_sorted, strict=True))
        self._postings = Postings.build(len(key_ids), [(own, 1.0), (mentioned, MENTION_WEIGHT)])
        self._own = Postings.build(len(key_ids), [(own, 1.0)])
        self._glosses = {key: counts.most_common(3) for key, counts in gloss_counts.items()}

    def save(self, path: Path, signature: str) -> None:
        """Write the index beside a cache (atomically), with the `signature` of what it was built from."""
        arrays = {
            "version": np.array(TERMS_VERSION),
            "signature": np.array(signature),
            "refs": _text_bytes([str(ref) for ref in self.refs]),
            "keys": _text_bytes(list(self._key_ids)),
            "own_keys": np.fromiter(self._own_keys, dtype=np.int64, count=len(self._own_keys)),
            "glosses": np.array(json.dumps({str(k): v for k, v in self._glosses.items()})),
        }
        for name, postings in (("all", self._postings), ("own", self._own)):
            arrays |= {
                f"{name}_start": postings.start,
                f"{name}_docs": postings.docs,
                f"{name}_scores": postings.scores,
            }
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f".{path.name}.{os.getpid()}-{threading.get_ident()}.part")
        try:
            with partial.open("wb") as handle:
                np.savez(handle, **arrays)  # type: ignore[arg-type]
            partial.replace(path)
        finally:
            partial.unlink(missing_ok=True)

    @staticmethod
    def saved_signature(path: Path) -> str | None:
        """The signature of the index saved at `path` (of this layout), without loading it; or None."""
        try:
            with np.load(path, allow_pickle=False) as saved:
                return str(saved["signature"]) if str(saved["version"]) == TERMS_VERSION else None
        except (OSError, ValueError, KeyError):
            return None

    @classmethod
    def load(cls, path: Path, refs: Sequence[Hashable], signature: str) -> TermIndex | None:
        """The index saved at `path` if it was built from the same texts (`signature`) for these
        `refs`; None if it is missing, stale or unreadable (then it is built again)."""
        try:
            with np.load(path, allow_pickle=False) as saved:
                if (
                    str(saved["version"]) != TERMS_VERSION
                    or str(saved["signature"]) != signature
                    or _text_lines(saved["refs"]) != [str(ref) for ref in refs]
                ):
                    return None
                index = cls.__new__(cls)
                index.refs = list(refs)
                keys = _text_lines(saved["keys"])
                index._key_ids = {key: i for i, key in enumerate(keys)}
                index._own_keys = frozenset(saved["own_keys"].tolist())
                index._postings, index._own = (
                    Postings(saved[f"{name}_start"], saved[f"{name}_docs"], saved[f"{name}_scores"])
                    for name in ("all", "own")
                )
                index._glosses = {
                    int(k): [tuple(g) for g in v] for k, v in json.loads(str(saved["glosses"])).items()
                }
        except FileNotFoundError:
            return None
        except (OSError, ValueError, KeyError, TypeError) as exc:
            log.warning("the term index at %s is unusable (it is built again): %s", path, exc)
            return None
        index._sorted_keys = sorted(index._key_ids)
        own_sorted = [key for key in index._sorted_keys if index._key_ids[key] in index._own_keys]
        index._skeletons = sorted(zip(_skeletons(own_sorted), own_sorted, strict=True))
        return index

    def __len__(self) -> int:
        return len(self.refs)

    def matches(self, word_key: str) -> list[tuple[str, float]]:
        """The indexed keys a query word's key matches, each with its weight: the key itself 1,
        a longer one (an inflected form) a little less the more letters it adds."""
        stem = term_stem(word_key)
        if len(stem) < MIN_STEM:
            return [(word_key, 1.0)] if word_key in self._key_ids else []
        found = []
        for key in _prefixed(self._sorted_keys, stem):
            extra = len(key) - len(stem)
            if extra <= EXTENSION:
                found.append((key, 1.0 if key == word_key else 1.0 - 0.05 * extra))
        if found:
            return found
        # a vowel dropped inside a long word (sthitpragya, bhagwan): a verse's own word with the same
        # first letter and consonants, at a discount
        skeleton = _skeleton(stem)
        if len(stem) >= SKELETON_MIN and len(skeleton) >= SKELETON_MIN - 2:
            for key_skeleton, key in _prefixed(self._skeletons, (skeleton, ""), lambda item: item[0]):
                if len(key_skeleton) - len(skeleton) <= 1 and key[0] == stem[0]:
                    found.append((key, SKELETON_WEIGHT))
        return found

    def has_key(self, key: str) -> bool:
        return key in self._key_ids

    def own_match(self, word_key: str) -> bool:
        """Whether a query word's key matches one of the verses' own words (not only a commentary's)."""
        return any(self._key_ids[key] in self._own_keys for key, _ in self.matches(word_key))

    def own_key(self, word_key: str, extension: int = 0) -> bool:
        """Whether a query word is one of the verses' own words as spelt (`karma`, `Arjuna`), or
        with at most `extension` more letters (an ending: `moksha`, `mokṣaḥ`)."""
        stem = term_stem(word_key)
        keys: Iterable[str] = (word_key, stem + "a")
        if extension:
            longer = _prefixed(self._sorted_keys, stem)
            keys = (*keys, *(k for k in longer if len(k) - len(stem) <= extension))
        return any(self._key_ids[key] in self._own_keys for key in keys if key in self._key_ids)

    def known(self, word: str) -> bool:
        """Whether a query word matches any indexed Sanskrit word."""
        return bool(self.matches(term_key(word)))

    def search(self, words: Sequence[str], limit: int) -> list[TermHit]:
        """The verses for a query's Sanskrit words, best first (`scores`)."""
        scores, matched = self.scores(words)
        order = np.argsort(-scores, kind="stable")[:limit]
        return [TermHit(self.refs[i], float(scores[i]), matched[i]) for i in order if scores[i] > 0]

    def scores(self, words: Sequence[str]) -> tuple[np.ndarray, MatchedWords]:
        """Each verse's score for a query's Sanskrit words, and the words that matched its own words:
        each word (and each run of two or three words joined, a compound written apart) scores its
        best-matching key in a verse."""
        keys = term_keys(list(words))
        scores = np.zeros(len(self.refs), dtype=np.float64)
        # bit p of a verse's mask: query word p matched one of its own words (no Python per verse: the
        # books hold 25,000 verses, a query's common word thousands of them)
        matched = np.zeros(len(self.refs), dtype=np.int64)
        for position, key in enumerate(keys[:MAX_QUERY_WORDS]):
            if not key:
                continue
            scores += self._scores(key, matched, position)
            for span in (2, 3):
                if position + span <= len(keys) and all(keys[position : position + span]):
                    joined = "".join(keys[position : position + span])
                    scores += COMPOUND_WEIGHT * self._scores(joined, matched, position, exact_only=True)
        return scores, MatchedWords(tuple(words), matched)

    def _scores(self, key: str, matched: np.ndarray, position: int, exact_only: bool = False) -> np.ndarray:
        best = np.zeros(len(self.refs), dtype=np.float64)
        candidates = self.matches(key)
        if exact_only:  # a joined run counts only where it is one of the verse's words, or begins one
            candidates = [(k, w) for k, w in candidates if k.startswith(key) or k == key]
        for candidate, weight in candidates:
            term = self._key_ids[candidate]
            docs, values = self._postings.of(term)
            best[docs] = np.maximum(best[docs], weight * values)
            own_docs, _ = self._own.of(term)
            matched[own_docs] |= 1 << position
        return best

    def glosses(self, words: Sequence[str]) -> list[str | None]:
        """Each query word's English from the word-for-word glosses (the commonest gloss of the
        closest glossed word), a run of two or three words written apart glossed once as the
        compound it spells when the glosses know it (`sthita pragnya`: "steady wisdom", then "");
        None for a word the glosses do not know."""
        keys = term_keys(list(words))
        out: list[str | None] = [None] * len(words)
        position = 0
        while position < len(words):
            for span in (3, 2, 1):
                if position + span > len(words):
                    continue
                gloss = self._gloss("".join(keys[position : position + span]), compound=span > 1)
                if gloss:
                    out[position : position + span] = [gloss] + [""] * (span - 1)
                    position += span
                    break
            else:
                position += 1
        return out

    def _gloss(self, key: str, compound: bool) -> str | None:
        best: tuple[float, int, str] | None = None
        stem = term_stem(key) if key else ""
        for candidate, weight in self.matches(key) if key else ():
            glosses = self._glosses.get(self._key_ids[candidate])
            if not glosses or (compound and not candidate.startswith(stem)):
                continue
            gloss, count = glosses[0]
            # the word's own a-stem first (yog: yoga, gyan: jñāna), as Hindi drops the final a
            rank = weight + (0.1 if candidate in (key, stem + "a") else 0.0)
            if best is None or (rank, count) > best[:2]:
                best = (rank, count, gloss)
        return best[2] if best else None


def _prefixed(items: Sequence[Any], prefix: Any, text: Callable[[Any], str] = str) -> Iterator[Any]:
    """The items of a sorted sequence that begin with `prefix` (items compared as `text(item)`)."""
    start = bisect.bisect_left(items, prefix)
    wanted = text(prefix) if not isinstance(prefix, str) else prefix
    for position in range(start, len(items)):
        if not text(items[position]).startswith(wanted):
            return
        yield items[position]


def _clean_gloss(gloss: str) -> str:
    """A word-for-word gloss as a few plain English words: "of the (sage of) steady wisdom?" →
    "sage of steady wisdom"."""
    text = re.sub(r"[()\[\]?;:,.!\"“”]", " ", gloss)
    words = text.split()
    while words and words[0].lower() in {"of", "the", "a", "an", "to", "by", "in", "with", "for", "o"}:
        words = words[1:]
    return " ".join(words[:6])


def _mention_words(texts: Iterable[str]) -> list[str]:
    """The Sanskrit words of texts about a verse: every Devanāgarī word, and the IAST-marked
    words of English text (a purport's `sthita-prajña`), split at hyphens."""
    found: list[str] = []
    for text in texts:
        found += _DEVANAGARI_WORD.findall(text)
        for word in _MARKED_WORD.findall(text):
            found += sanskrit_words(word)
    return found


def _bags(word_lists: Sequence[Sequence[str]], word_ids: dict[str, int], keys: int) -> list[Bag]:
    """Each verse's key ids and their counts, counted all at once with numpy."""
    ids = np.fromiter((word_ids[w] for words in word_lists for w in words), dtype=np.int64)
    verse = np.repeat(np.arange(len(word_lists), dtype=np.int64), [len(words) for words in word_lists])
    kept = ids >= 0
    pairs, counts = np.unique(verse[kept] * max(keys, 1) + ids[kept], return_counts=True)
    owners, key_ids = np.divmod(pairs, max(keys, 1))
    bounds = np.searchsorted(owners, np.arange(len(word_lists) + 1))
    return [
        (key_ids[bounds[i] : bounds[i + 1]], counts[bounds[i] : bounds[i + 1]].astype(np.float64))
        for i in range(len(word_lists))
    ]


_GLOSS_PAIR = re.compile(
    r"([\u0900-\u0963\u0966-\u097F]+(?:\s+[\u0900-\u0963\u0966-\u097F]+)*)([^\u0900-\u097F]*)"
)


def devanagari_glossary(text: str) -> list[tuple[str, str]]:
    """A word-for-word gloss written as Devanāgarī words each followed by its English ("प्रजहाति
    casts off? यदा when? …", Sivananda's), up to where the commentary proper begins."""
    text = re.split(r"\bCommentary\b", text, maxsplit=1)[0]
    return [(word, gloss.strip()) for word, gloss in _GLOSS_PAIR.findall(text) if gloss.strip()]


def synonyms_glossary(text: str) -> list[tuple[str, str]]:
    """A word-for-word gloss in the Bhaktivedanta books' style: "sthita-prajñaḥ — one fixed in
    transcendental consciousness; kā — what; …" (an em dash, en dash or " - " between a word and its
    English, semicolons between pairs)."""
    pairs = []
    for part in re.split(r"[;\n]", text):
        pieces = re.split(r"\s*[—–]\s*|\s-\s", part.strip(), maxsplit=1)
        if len(pieces) == 2 and pieces[0] and pieces[1]:
            pairs.append((pieces[0].strip(), pieces[1].strip()))
    return pairs
