"""The logic of the pali tools: sentences to DPD candidates, word details, meaning search, scripts."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pramana.checks import required_text
from pramana.errors import InvalidInputError
from pramana.pali import results
from pramana.pali.inflect import grammar_pos
from pramana.pali.models import lemma_clean, meaning_combo, unpack
from pramana.pali.sandhi import MAX_CANDIDATES, MAX_SPLITS, Elisions, tokens
from pramana.pali.store import PaliStore
from pramana.store.fts import search_terms, words
from pramana.text.pali import PaliScript, detect_script, from_roman, parse_script, to_roman

MAX_SENTENCE_CHARS = 10_000
MAX_WORD_CHARS = 200
MAX_MEANING_LIMIT = 100
# Elision candidates built per call, shared by its apostrophed tokens (MAX_CANDIDATES each at most):
# a sentence of thousands of apostrophes costs a bounded few hundred milliseconds; tokens past the
# budget are still looked up whole.
MAX_SENTENCE_CANDIDATES = 40_000


def _check_text(value: str, what: str, limit: int) -> str:
    """pramana.checks.required_text, with what to send instead."""
    return required_text(
        value,
        what,
        limit,
        empty_hint="give Pāḷi text, e.g. 'evaṃ me sutaṃ'",
        too_long_hint="send it in parts",
    )


@dataclass
class _Reading:
    """Tokens analysed, with the lookup rows and headwords they were read from."""

    tokens: list[results.TokenAnalysis]
    rows: dict[str, dict]
    headwords: dict[int, dict]


class PaliService:
    def __init__(self, db_path: Path):
        self.store = PaliStore(db_path)

    def close(self) -> None:
        self.store.close()

    # -- sentences ---------------------------------------------------------------------------------

    def analyze(self, sentence: str) -> results.SentenceAnalysis:
        _check_text(sentence, "sentence", MAX_SENTENCE_CHARS)
        script = detect_script(sentence)
        roman = to_roman(sentence, script)
        words_read = tokens(roman)
        if not words_read:
            raise InvalidInputError("the sentence has no words, only punctuation, digits or symbols")
        analyses = _once_each(self._read(words_read).tokens)
        found = sum(1 for a in analyses if a.status == "found")
        return results.SentenceAnalysis(
            sentence=" ".join(words_read), script=script.value, token_count=len(analyses),
            found=found, not_found=len(analyses) - found, tokens=analyses,
        )  # fmt: skip

    def _read(self, words_read: list[str], *, full: bool = False) -> _Reading:
        """Look every token up (batched: tokens, the words their elisions may hide, what those point at,
        headwords) and analyse it."""
        distinct = list(dict.fromkeys(words_read))
        rows = self.store.lookups(_key(word) for word in distinct)
        restored = self._restore_elisions([word for word in distinct if "'" in word], rows)
        # Second round: what the first round points at (corrections, main readings, DPD's splits).
        pointed = {part for splits in restored.values() for split in splits for part in split}
        for word in distinct:
            row = rows.get(_key(word))
            if row:
                pointed.update(unpack(row["spelling"]) + _variant_mains(row["variant"]))
                pointed.update(p for split in unpack(row["deconstructor"]) for p in _split_parts(split))
        rows.update(self.store.lookups(pointed - set(rows)))
        ids = {i for row in rows.values() for i in unpack(row["headwords"])}
        headwords = self.store.headwords(ids, full=full)
        by_word = {word: _token(word, restored.get(word, []), rows, headwords) for word in distinct}
        return _Reading([by_word[word] for word in words_read], rows, headwords)

    def _restore_elisions(self, apostrophed: list[str], rows: dict[str, dict]) -> dict[str, list[list[str]]]:
        """For each apostrophed token, the restored splits to show (one batched query for them all)."""
        graphs, budget = {}, MAX_SENTENCE_CANDIDATES
        for word in apostrophed:
            graphs[word] = Elisions(word, self.store.sandhi_rules, min(MAX_CANDIDATES, budget))
            budget -= graphs[word].explored
        known = self.store.known_forms(form for graph in graphs.values() for form in graph.forms())
        return {
            word: _splits_to_show(graph, known, _dpd_splits(rows[_key(word)]) if _key(word) in rows else [])
            for word, graph in graphs.items()
        }

    # -- one word ------------------------------------------------------------------------------------

    def lookup_word(self, word: str) -> results.WordResult:
        _check_text(word, "word", MAX_WORD_CHARS)
        read = tokens(to_roman(word))
        if len(read) != 1:
            raise InvalidInputError(
                f"give one word (read {len(read)}: {' '.join(read)[:80]!r}); "
                "for a sentence use get_grammatical_details"
            )
        reading = self._read(read, full=True)
        token, row, full = reading.tokens[0], reading.rows.get(_key(read[0])), reading.headwords
        root_keys = unpack(row["roots"]) if row else []  # the word is itself a root (√gam, gam)
        roots = self.store.roots([c.root_key for c in token.candidates] + root_keys)
        details = []
        for candidate in token.candidates:
            record = {k: v for k, v in full[candidate.id].items() if k not in results.Candidate.model_fields}
            root = roots.get(candidate.root_key)
            root_info = results.RootInfo(**root) if root else None
            details.append(
                results.HeadwordDetail(**candidate.model_dump(), **_strings(record), root=root_info)
            )
        abbreviation = json.loads(row["abbrev"]) if row and row["abbrev"] else None
        abbreviation = abbreviation if isinstance(abbreviation, dict) else None
        help_text = json.loads(row["help"]) if row and row["help"] else None
        word_roots = [results.RootInfo(**roots[r]) for r in root_keys if r in roots]
        found = bool(token.status == "found" or word_roots or abbreviation or help_text)
        return results.WordResult(
            word=token.word, status="found" if found else "not_found", lookup_key=token.lookup_key,
            headwords=details, deconstruction=token.deconstruction, spelling=token.spelling,
            variant_of=token.variant_of, roots=word_roots,
            abbreviation={k: str(v) for k, v in abbreviation.items()} if abbreviation else None,
            help=str(help_text) if help_text else None,
        )  # fmt: skip

    # -- English -> Pāḷi -------------------------------------------------------------------------------

    def search_meaning(self, english: str, limit: int = 10) -> results.MeaningSearch:
        _check_text(english, "query", 500)
        if not 1 <= limit <= MAX_MEANING_LIMIT:
            raise InvalidInputError(f"limit must be between 1 and {MAX_MEANING_LIMIT}")
        terms = words(english.lower())
        if not terms:
            raise InvalidInputError("the query has no words to search for")
        pool = min(max(limit * 3, 50), 300)  # BM25 favours short meanings; re-rank a wider pool
        ids, more = self.store.search_meanings(search_terms(english.lower()), pool)
        rows = self.store.headwords(ids)
        hits = [
            results.MeaningHit(
                id=i,
                lemma_1=rows[i]["lemma_1"],
                pos=rows[i]["pos"],
                construction=rows[i]["construction"],
                root_key=rows[i]["root_key"] or "",
                meaning_combo=meaning_combo(
                    rows[i]["meaning_1"], rows[i]["meaning_2"], rows[i]["meaning_lit"]
                ),
            )
            for i in ids
            if i in rows
        ]
        phrase = " ".join(terms)
        hits = sorted(hits, key=lambda hit: _meaning_rank(hit.meaning_combo, phrase, terms))
        truncated = more or len(hits) > limit
        hits = hits[:limit]
        return results.MeaningSearch(query=english, count=len(hits), truncated=truncated, results=hits)


def transliterate_pali(text: str, target: str, source: str | None = None) -> results.PaliTransliteration:
    _check_text(text, "text", MAX_SENTENCE_CHARS)
    try:
        to = parse_script(target)
        source_script = parse_script(source) if source else detect_script(text)
    except ValueError as exc:
        raise InvalidInputError(str(exc)) from exc
    roman = to_roman(text, source_script)
    result = roman if to == PaliScript.ROMAN else from_roman(roman, to)
    return results.PaliTransliteration(text=text, source=source_script.value, target=to.value, result=result)


def _once_each(analyses: list[results.TokenAnalysis]) -> list[results.TokenAnalysis]:
    """Each word's analysis in full at its first occurrence only; a repeat points back to it.

    Sentences repeat words (ca, ti, evaṃ), and the analysis of one can be long: a 10,000-character
    sentence of one apostrophed word repeated made an 11 MB answer, most of a second of the server's
    time to send, for what a few kilobytes say.
    """
    first: dict[str, int] = {}
    once: list[results.TokenAnalysis] = []
    for position, analysis in enumerate(analyses, 1):
        earlier = first.setdefault(analysis.word, position)
        if earlier != position:
            analysis = results.TokenAnalysis(
                word=analysis.word, status=analysis.status, lookup_key=analysis.lookup_key, same_as=earlier
            )
        once.append(analysis)
    return once


def _token(
    word: str, restored: list[list[str]], rows: dict[str, dict], headwords: dict[int, dict]
) -> results.TokenAnalysis:
    key = _key(word)
    row = rows.get(key)
    candidates = _candidates(row, headwords) if row else []
    spelling = unpack(row["spelling"]) if row else []
    variant_of = _variant_mains(row["variant"]) if row else []
    if row and not candidates:  # a misspelling or a variant: answer with the word it stands for
        for other in spelling + variant_of:
            if other in rows:
                candidates = _candidates(rows[other], headwords)
                if candidates:
                    break
    deconstruction = [
        _split(parts, "dpd", rows, headwords) for parts in (_dpd_splits(row) if row else [])
    ] + [_split(parts, "apostrophe", rows, headwords) for parts in restored]
    complete = any(all(part.candidates for part in split.parts) for split in deconstruction)
    found = bool(candidates or complete)
    return results.TokenAnalysis(
        word=word, status="found" if found else "not_found", lookup_key=key if row else None,
        candidates=candidates, deconstruction=deconstruction, spelling=spelling, variant_of=variant_of,
    )  # fmt: skip


def _meaning_rank(meaning: str, phrase: str, terms: list[str]) -> tuple[int, int]:
    """A headword whose meaning is exactly the phrase first, then where in its meanings the words come."""
    segments = [segment.strip().lower() for segment in meaning.split(";")]
    if phrase in segments:
        return 0, segments.index(phrase)
    for index, segment in enumerate(segments):
        if all(term in segment for term in terms):
            return 1, index
    return 2, len(segments)


def _key(word: str) -> str:
    return word.replace("'", "")


def _split_parts(split: str) -> list[str]:
    """The words of a DPD split such as "ca + paraṃ"."""
    return [part.strip() for part in split.split("+")]


def _variant_mains(value: str) -> list[str]:
    if not value:
        return []
    loaded = json.loads(value)
    if isinstance(loaded, dict):  # DPD's releases: {"main reading": [...sources]} and similar shapes
        return [str(k) for k in loaded]
    return [str(v) for v in (loaded if isinstance(loaded, list) else [loaded])]


def _candidates(row: dict, headwords: dict[int, dict]) -> list[results.Candidate]:
    readings: dict[tuple[str, str], list[str]] = {}
    for entry in unpack(row["grammar"]):
        if isinstance(entry, list) and len(entry) >= 3:
            readings.setdefault((str(entry[0]), str(entry[1])), []).append(str(entry[2]))
    out = []
    for hid in unpack(row["headwords"]):
        record = headwords.get(hid)
        if record is None:
            continue
        lemma = lemma_clean(record["lemma_1"])
        pos_label = grammar_pos(record["pos"], record["grammar"] or "")
        out.append(
            results.Candidate(
                id=hid,
                lemma_1=record["lemma_1"],
                pos=record["pos"],
                grammar=record["grammar"] or "",
                meaning_combo=meaning_combo(record["meaning_1"], record["meaning_2"], record["meaning_lit"]),
                family_root=record["family_root"] or "",
                root_key=record["root_key"] or "",
                construction=record["construction"] or "",
                readings=readings.get((lemma, pos_label), []),
            )
        )
    return out


def _splits_to_show(graph: Elisions, known: set[str], dpd_splits: list[list[str]]) -> list[list[str]]:
    """Up to MAX_SPLITS restorations whose every word DPD knows, DPD's own splits of the token aside;
    failing those, the one that gets most words."""
    seen = {" + ".join(split) for split in dpd_splits}
    complete = []
    for split in graph.splits(known):
        if " + ".join(split) not in seen:
            seen.add(" + ".join(split))
            complete.append(split)
            if len(complete) == MAX_SPLITS:
                return complete
    best = None if complete else graph.best_partial(known, skip=seen)
    return complete or ([best] if best else [])


def _dpd_splits(row: dict) -> list[list[str]]:
    """DPD's own splits of a lookup key (lookup.deconstructor), the first MAX_SPLITS."""
    return [_split_parts(split) for split in unpack(row["deconstructor"])[:MAX_SPLITS]]


def _split(
    parts: list[str], source: Literal["dpd", "apostrophe"], rows: dict[str, dict], headwords: dict[int, dict]
) -> results.Split:
    return results.Split(
        split=" + ".join(parts), source=source, parts=[_part(p, rows, headwords) for p in parts]
    )


def _part(form: str, rows: dict[str, dict], headwords: dict[int, dict]) -> results.Part:
    row = rows.get(form)
    return results.Part(form=form, candidates=_candidates(row, headwords) if row else [])


def _strings(record: dict[str, Any]) -> dict[str, str]:
    return {k: "" if v is None else str(v) for k, v in record.items()}
