"""The logic of the pali tools: sentences to DPD candidates, word details, meaning search, scripts."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pramana.checks import required_text
from pramana.errors import InvalidInputError
from pramana.pali import models, rank
from pramana.pali.inflect import grammar_pos
from pramana.pali.sandhi import MAX_CANDIDATES, MAX_SPLITS, Elisions, clauses, nasal_variant, tokens
from pramana.pali.split import CONNECTORS, Found
from pramana.pali.split import search as split_search
from pramana.pali.store import HeadwordRecord, LookupRecord, Memo, PaliStore
from pramana.pali.tables import lemma_clean, meaning_combo
from pramana.store.fts import search_terms, words
from pramana.text.pali import PaliScript, detect_script, from_roman, parse_script, to_roman

if TYPE_CHECKING:
    from pramana.config import PaliSettings

MAX_SENTENCE_CHARS = 10_000
MAX_WORD_CHARS = 200
MAX_MEANING_LIMIT = 100
# Elision candidates built per call, shared by its apostrophed tokens (MAX_CANDIDATES each at most):
# a sentence of thousands of apostrophes costs a bounded few hundred milliseconds; tokens past the
# budget are still looked up whole.
MAX_SENTENCE_CANDIDATES = 40_000
# Analysed words (and split parts) kept for the next calls: ~15 kB each with their candidates' meanings,
# so a few thousand, the commonest forms of what is being read.
MEMO_TOKENS = 2_000


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
    """Tokens analysed, with the lookup records and headwords they were read from."""

    tokens: list[models.TokenAnalysis]
    rows: dict[str, LookupRecord]
    headwords: dict[int, HeadwordRecord]


class PaliService:
    def __init__(self, db_path: Path, word_weights: Mapping[tuple[str, str], float] | None = None):
        self.store = PaliStore(db_path, word_weights)
        self._tokens: Memo[str, models.TokenAnalysis] = Memo(MEMO_TOKENS)  # shared: never changed
        self._parts: Memo[str, models.Part] = Memo(MEMO_TOKENS)

    def close(self) -> None:
        self.store.close()

    # -- sentences ---------------------------------------------------------------------------------

    def analyze(self, sentence: str) -> models.SentenceAnalysis:
        _check_text(sentence, "sentence", MAX_SENTENCE_CHARS)
        script = detect_script(sentence)
        roman = to_roman(sentence, script)
        words_read = tokens(roman)
        if not words_read:
            raise InvalidInputError("the sentence has no words, only punctuation, digits or symbols")
        numbers = clauses(roman)
        analyses = _once_each(
            self._read(words_read, numbers if len(numbers) == len(words_read) else None).tokens
        )
        found = sum(1 for a in analyses if a.status == "found")
        return models.SentenceAnalysis(
            sentence=" ".join(words_read), script=script.value, token_count=len(analyses),
            found=found, not_found=len(analyses) - found, tokens=analyses,
        )  # fmt: skip

    def _read(
        self, words_read: list[str], clause_of: list[int] | None = None, *, full: bool = False
    ) -> _Reading:
        """Look every token up (batched: tokens, the words their splits may hide, what those point at,
        headwords), split what needs splitting, and rank each token's readings. A word read before is
        answered from memory (a sentence's words come back in the next: ca, ti, evaṃ, a sutta's names),
        so a call pays only for the words it brings first."""
        distinct = list(dict.fromkeys(words_read))
        remembered, fresh = ({}, distinct) if full else self._tokens.known(distinct)
        rows: dict[str, LookupRecord] = {}
        headwords: dict[int, HeadwordRecord] = {}
        by_word = dict(remembered)
        if fresh:
            rows = self.store.lookups(_key(word) for word in fresh)
            self._add_nasal_spellings([word for word in fresh if "'" not in word], rows)
            headwords = self.store.headwords({i for row in rows.values() for i in row.headwords}, full=full)
            restored, cut_short = self._restore_elisions([word for word in fresh if "'" in word], rows)
            # Words DPD does not list whole, or lists only under headwords it is no form of (rūpañca
            # under rūpa, the particle unsaid), are split; a word DPD lists has DPD's own splits, if any.
            unlisted = [w for w in fresh if "'" not in w and not _fits_written(w, rows, headwords)]
            unmarked = self._split_unmarked(unlisted)
            # Second round: what the first points at (corrections, main readings, every split's words).
            pointed = {part for splits in restored.values() for split in splits for part in split}
            pointed.update(part for found in unmarked.values() for split in found for part in split.words)
            for word in fresh:
                row = rows.get(_key(word))
                if row:
                    pointed.update(row.spelling + row.variant_of)
                    pointed.update(p for split in row.deconstructor for p in _split_parts(split))
            rows.update(self.store.lookups(pointed - set(rows)))
            ids = {i for row in rows.values() for i in row.headwords} - set(headwords)
            headwords.update(self.store.headwords(ids, full=full))
            parts = self._parts_of(pointed | CONNECTORS, rows, headwords, full=full)
            read = {
                word: _token(word, restored.get(word, []), unmarked.get(word, []), rows, headwords, parts)
                for word in fresh
            }
            if not full:  # a token whose elisions were cut short by the sentence's budget is not kept
                self._tokens.remember({word: token for word, token in read.items() if word not in cut_short})
            by_word.update(read)
        analysed = [by_word[word] for word in words_read]
        return _Reading(_agree(analysed, clause_of), rows, headwords)

    def _add_nasal_spellings(self, words: list[str], rows: dict[str, LookupRecord]) -> None:
        """A word not listed whole but listed with its other nasal (akathaṃkathī for akathaṅkathī,
        saṅgha for saṃgha: editions differ in writing ṃ or the nasal of the stop after it) is read as
        that spelling: a record of the word that points at it, as DPD's own spelling corrections do."""
        other = {word: variant for word in words if word not in rows and (variant := nasal_variant(word))}
        found = self.store.lookups(other.values())
        rows.update(found)
        for word, variant in other.items():
            if variant in found and found[variant].headwords:
                rows[word] = LookupRecord(key=variant, spelling=(variant,))

    def _parts_of(
        self,
        forms: set[str],
        rows: dict[str, LookupRecord],
        headwords: dict[int, HeadwordRecord],
        *,
        full: bool,
    ) -> dict[str, models.Part]:
        """The parts splits are made of, each with its candidates (remembered: ca, api, iti recur)."""
        remembered, missing = ({}, list(forms)) if full else self._parts.known(forms)
        made = {form: _part(form, rows, headwords) for form in missing}
        if not full:
            self._parts.remember(made)
        return remembered | made

    def _split_unmarked(self, words: list[str]) -> dict[str, list[Found]]:
        """Splits of words written without a mark whose every part DPD lists (one query a round)."""
        return split_search(words, self.store.sandhi_rules, self.store.listed, self.store.split_exceptions)

    def _restore_elisions(
        self, apostrophed: list[str], rows: dict[str, LookupRecord]
    ) -> tuple[dict[str, list[list[str]]], set[str]]:
        """For each apostrophed token, the restored splits to show (one batched query for them all);
        and the tokens the sentence's budget left less than a token's own to explore."""
        graphs, budget, cut_short = {}, MAX_SENTENCE_CANDIDATES, set()
        for word in apostrophed:
            if budget < MAX_CANDIDATES:
                cut_short.add(word)
            graphs[word] = Elisions(word, self.store.sandhi_rules, min(MAX_CANDIDATES, budget))
            budget -= graphs[word].explored
        known = self.store.listed(form for graph in graphs.values() for form in graph.forms())
        restored = {
            word: _splits_to_show(graph, known, _dpd_splits(rows[_key(word)]) if _key(word) in rows else [])
            for word, graph in graphs.items()
        }
        self._split_partial_restorations(restored, known)
        return restored, cut_short

    def _split_partial_restorations(self, restored: dict[str, list[list[str]]], known: set[str]) -> None:
        """Where no restoration of an apostrophed token is all words, the words the best one leaves
        unknown are split as unmarked words are (nisinnosī'ti: nisinnosi + iti, nisinnosi is
        nisinno + asi): the apostrophe marks one junction, sandhi may hide another."""
        partial = {
            word: splits[0]
            for word, splits in restored.items()
            if len(splits) == 1 and any(form not in known for form in splits[0])
        }
        unknown = {form for split in partial.values() for form in split if form not in known}
        found = self._split_unmarked(sorted(unknown)) if unknown else {}
        for word, split in partial.items():
            if all(form in known or form in found for form in split):
                restored[word] = [[p for form in split for p in _parts_or(form, found)]]

    # -- one word ------------------------------------------------------------------------------------

    def lookup_word(self, word: str) -> models.WordResult:
        _check_text(word, "word", MAX_WORD_CHARS)
        read = tokens(to_roman(word))
        if len(read) != 1:
            raise InvalidInputError(
                f"give one word (read {len(read)}: {' '.join(read)[:80]!r}); "
                "for a sentence use get_grammatical_details"
            )
        reading = self._read(read, full=True)
        token, row, full = reading.tokens[0], reading.rows.get(_key(read[0])), reading.headwords
        root_keys = list(row.roots) if row else []  # the word is itself a root (√gam, gam)
        roots = self.store.roots([c.root_key for c in token.candidates] + root_keys)
        details = []
        for candidate in token.candidates:
            details.append(
                models.HeadwordDetail.model_validate(
                    {
                        **candidate.model_dump(),
                        **full[candidate.id].details,
                        "root": roots.get(candidate.root_key),
                    }
                )
            )
        word_roots = [roots[r] for r in root_keys if r in roots]
        abbreviation = row.abbreviation if row else None
        help_text = row.help if row else ""
        found = bool(token.status == "found" or word_roots or abbreviation or help_text)
        return models.WordResult(
            word=token.word, status="found" if found else "not_found", lookup_key=token.lookup_key,
            headwords=details, deconstruction=token.deconstruction, spelling=token.spelling,
            variant_of=token.variant_of, roots=word_roots, abbreviation=abbreviation, help=help_text or None,
        )  # fmt: skip

    # -- English -> Pāḷi -------------------------------------------------------------------------------

    def search_meaning(self, english: str, limit: int = 10) -> models.MeaningSearch:
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
            models.MeaningHit(
                id=i, lemma_1=rows[i].lemma_1, pos=rows[i].pos, construction=rows[i].construction,
                root_key=rows[i].root_key,
                meaning_combo=meaning_combo(rows[i].meaning_1, rows[i].meaning_2, rows[i].meaning_lit),
            )
            for i in ids
            if i in rows
        ]  # fmt: skip
        phrase = " ".join(terms)
        hits = sorted(hits, key=lambda hit: _meaning_rank(hit.meaning_combo, phrase, terms))
        truncated = more or len(hits) > limit
        hits = hits[:limit]
        return models.MeaningSearch(query=english, count=len(hits), truncated=truncated, results=hits)


def transliterate_pali(text: str, target: str, source: str | None = None) -> models.PaliTransliteration:
    _check_text(text, "text", MAX_SENTENCE_CHARS)
    try:
        to = parse_script(target)
        source_script = parse_script(source) if source else detect_script(text)
    except ValueError as exc:
        raise InvalidInputError(str(exc)) from exc
    roman = to_roman(text, source_script)
    result = roman if to == PaliScript.ROMAN else from_roman(roman, to)
    return models.PaliTransliteration(text=text, source=source_script.value, target=to.value, result=result)


def _once_each(analyses: list[models.TokenAnalysis]) -> list[models.TokenAnalysis]:
    """Each word's analysis in full at its first occurrence only; a repeat points back to it.

    Sentences repeat words (ca, ti, evaṃ), and the analysis of one can be long: a 10,000-character
    sentence of one apostrophed word repeated made an 11 MB answer, most of a second of the server's
    time to send, for what a few kilobytes say.
    """
    first: dict[str, int] = {}
    once: list[models.TokenAnalysis] = []
    for position, analysis in enumerate(analyses, 1):
        earlier = first.setdefault(analysis.word, position)
        if earlier != position:
            analysis = models.TokenAnalysis(
                word=analysis.word, status=analysis.status, lookup_key=analysis.lookup_key, same_as=earlier
            )
        once.append(analysis)
    return once


def _token(
    word: str,
    restored: list[list[str]],
    unmarked: list[Found],
    rows: dict[str, LookupRecord],
    headwords: dict[int, HeadwordRecord],
    parts: dict[str, models.Part],
) -> models.TokenAnalysis:
    key = _key(word)
    row = rows.get(key)
    candidates = _candidates(key, row, headwords) if row else []
    spelling = list(row.spelling) if row else []
    variant_of = list(row.variant_of) if row else []
    if row and not candidates:  # a misspelling or a variant: answer with the word it stands for
        for other in spelling + variant_of:
            if other in rows:
                candidates = _candidates(other, rows[other], headwords)
                if candidates:
                    break
    splits = [(_split(forms, "dpd", parts), 0.0) for forms in (_dpd_splits(row) if row else [])]
    first_written = word.split("'")[0]  # a restoration that keeps the first word as written is likelier
    splits += [
        (_split(forms, "apostrophe", parts), 1.0 - 0.1 * (forms[0] == first_written)) for forms in restored
    ]
    shown = {split.split for split, _ in splits}
    for found in unmarked:
        split = _split(list(found.parts), "unmarked", parts)
        if split.split not in shown and _complete(split):
            shown.add(split.split)
            splits.append((split, float(found.cost)))
    candidates, deconstruction = _ranked(
        candidates, _iva_after_niggahita(_short_before_iti(splits), key), form=key
    )
    found_any = bool(candidates or any(_complete(split) for split in deconstruction))
    return models.TokenAnalysis(
        word=word, status="found" if found_any else "not_found", lookup_key=row.key if row else None,
        candidates=candidates, deconstruction=deconstruction, spelling=spelling, variant_of=variant_of,
    )  # fmt: skip


_SHORT = {"ā": "a", "ī": "i", "ū": "u"}
LENGTHENED_COST = 2.0  # a word's vowel read as lengthened before ti (iti) rather than as its own
SHORTENED_BONUS = 0.25


def _short_before_iti(splits: list[tuple[models.Split, float]]) -> list[tuple[models.Split, float]]:
    """A vowel before ti is lengthened (bhikkhūti, garūti, kappentī”ti): where a split keeps the long
    vowel (bhikkhū + iti, bhikkhū + ti) and another restores the short one (bhikkhu + iti), the short
    one is the reading. For ī and ū whatever words the two are: a final i or u (a verb's -ti, -si,
    -mi, -hi, an aorist's -i and -ṃsu, an i- or u-stem) is met before iti far more often than a word of
    its own in ī or ū (kappentī”ti is kappenti + iti, not the participle kappentī; abhinandīti the
    aorist abhinandi, not the adjective abhinandī), and for ā where the short form is an imperative
    (upagacchā”ti, vasā”ti: the command quoted, upagaccha, vasa + iti). Otherwise for ā only where the
    two are one word: a long ā is a word's own ending as often as not (vā”ti: vā + iti, not va + iti;
    lajjāti: lajjā + iti; saggaparāyaṇāti, samāpannā”ti: plurals)."""
    shown = {split.split: split for split, _ in splits}
    costs = {split.split: cost for split, cost in splits}
    for split, _cost in splits:
        *_, before, last = [None, *split.parts]
        if before is None or before.form[-1:] not in _SHORT or last.form not in ("iti", "ti"):
            continue
        stem = split.split.removesuffix(f"{before.form} + {last.form}")
        other = shown.get(stem + before.form[:-1] + _SHORT[before.form[-1]] + " + iti")
        if other is None or not _complete(other):
            continue
        short = other.parts[-2]
        # read short whatever the words are (an imperative: unless the long form is a word's own, lajjā)
        strong = before.form[-1] in "īū" or (_imperative(short) and before.form not in _lemmas(before))
        if (last.form == "iti" or strong) and (strong or _lengthened(before, short)):
            costs[split.split] += LENGTHENED_COST
            if strong:  # and before other restorations of the letters (munaṃ + iti)
                costs[other.split] = min(costs[other.split], _cost - SHORTENED_BONUS)
    return [(split, costs[split.split]) for split, _ in splits]


def _imperative(part: models.Part) -> bool:
    return any("imp 2nd sg" in reading for c in part.candidates for reading in c.readings)


def _lengthened(long: models.Part, short: models.Part) -> bool:
    """Whether a long ā before iti is better read as the short one lengthened (see above)."""
    long_is_a_word = long.form in _lemmas(long)  # lajjā (shame), not lajja lengthened
    return not long_is_a_word and bool(_lemmas(long) & _lemmas(short))


IVA_AFTER_NIGGAHITA = 1.0  # eva read where a niggahita is kept before va


def _iva_after_niggahita(
    splits: list[tuple[models.Split, float]], key: str
) -> list[tuple[models.Split, float]]:
    """A niggahita kept before va (seṭṭhaṃva, kānanaṃva) marks iva, "like": eva after a niggahita is
    written with the consonant it becomes (tameva, taññeva, taṃyeva), so X + eva comes after X + iva."""
    if not key.endswith("ṃva"):
        return splits
    out = []
    for split, cost in splits:
        *_, before, last = [None, *split.parts]
        if last.form == "eva" and before is not None and before.form.endswith("ṃ"):
            cost += IVA_AFTER_NIGGAHITA
        out.append((split, cost))
    return out


def _lemmas(part: models.Part) -> set[str]:
    """The words a part can be (grammatical terms aside: the letter va is no word of vā's)."""
    return {lemma_clean(c.lemma_1) for c in part.candidates if c.pos not in rank.GRAMMAR_TERMS}


def _ranked(
    candidates: list[models.Candidate], splits: list[tuple[models.Split, float]], form: str = ""
) -> tuple[list[models.Candidate], list[models.Split]]:
    """Candidates and splits in the order a reader expects them, each given its rank among all."""
    scored: list[tuple[float, int, models.Candidate | models.Split]] = []
    # the unmarked splits shown: the cheapest complete ones, fewest words first, as the search orders
    # them, but with the costs ranking added (munī + iti, dearer, gives way to muni + iti)
    unmarked = [i for i, (split, _) in enumerate(splits) if split.source == "unmarked" and _complete(split)]
    unmarked.sort(key=lambda i: (sum(not p.connector for p in splits[i][0].parts), splits[i][1]))
    shown = set(unmarked[:MAX_SPLITS])
    for order, (split, cost) in enumerate(splits, len(candidates)):
        if split.source == "unmarked" and order - len(candidates) not in shown:
            continue
        part_weights = [part._weight for part in split.parts if not part.connector]
        complete_bonus = 0.0 if _complete(split) else rank.GRAMMAR_TERM_WEIGHT
        weight = rank.split_weight(part_weights, cost, len(split.parts))
        scored.append((weight + complete_bonus, order, split))
    # A headword DPD made for this very inflected form (its stem marked "!": caraṃ "walking", bhavataṃ
    # "of the sirs", santi "they are") is a use of the form DPD's editors met often enough to list:
    # it comes first, before the other headwords and before any split (santi is not saṃ + iti).
    own_form_weight = max((w for w, _, _ in scored), default=0.0)
    own_form_weight = max([own_form_weight, *(c._weight for c in candidates)]) + rank.OWN_FORM
    adverbial = _adverbial_case(candidates) or _first_own_homonym(candidates)
    particle = _word_before_split(candidates, form) if scored else None
    for candidate in candidates:
        if candidate._own_form or candidate is adverbial:
            extra = rank.OWN_FORM if candidate is adverbial else 0.0
            candidate._weight = max(candidate._weight, own_form_weight + extra)
        elif candidate is particle:
            split_weight = max(w for w, _, _ in scored)
            candidate._weight = max(candidate._weight, split_weight + rank.OWN_FORM)
    for order, candidate in enumerate(candidates):
        scored.append((candidate._weight, order, candidate))
    scored.sort(key=lambda item: (-item[0], item[1]))
    ranked_candidates: list[models.Candidate] = []
    ranked_splits: list[models.Split] = []
    for position, (_, _, reading) in enumerate(scored, 1):
        reading.rank = position
        if isinstance(reading, models.Candidate):
            ranked_candidates.append(reading)
        else:
            ranked_splits.append(reading)
    return ranked_candidates, ranked_splits


def _word_before_split(candidates: list[models.Candidate], form: str) -> models.Candidate | None:
    """A headword of the very form read that comes before DPD's split of the form:
    - where DPD lists the form as a sandhi headword too, an indeclinable of the form numbered before
      it (sudaṃ 1 "indeed", before sudaṃ 2, the sandhi su + idaṃ; sāyaṃ 1.1 "in the evening", before
      sā + ayaṃ); a form whose sandhi headword comes first keeps the split first (nayidaṃ 1: na + idaṃ;
      vāti: vā + iti, though DPD numbers vāti "blows" first);
    - where DPD has no sandhi headword of the form, its first headword whose dictionary form is the form
      (jānāti "knows", a verb's citation form, before the deconstructor's jānaṃ + iti; sudaṃ's particle):
      DPD's editors made the form a word, and its deconstructor splits any form it meets."""
    sandhi = [c for c in candidates if c.pos == "sandhi"]
    own = [c for c in candidates if c._own_form_ind]
    if not sandhi:
        own = [c for c in candidates if lemma_clean(c.lemma_1) == form and c.pos not in rank.GRAMMAR_TERMS]
    first = min(own + sandhi, key=lambda c: _homonym(c.lemma_1), default=None)
    return first if first is not None and first in own else None


def _first_own_homonym(candidates: list[models.Candidate]) -> models.Candidate | None:
    """Where DPD lists the very form read both as an indeclinable and as an inflected form of its own
    (stem "!"), of different parts of speech, the one it numbers first (kiñci 1 ind "anything" before
    kiñci 2 pron; no 1 ind "not" before no 2 pron "us"): DPD numbers the commoner sense first. None
    where there is no such pair."""
    own = [c for c in candidates if c._own_form or c._own_form_ind]
    if not any(c._own_form_ind for c in own) or len({c.pos for c in own}) < 2:
        return None
    return min(own, key=lambda c: _homonym(c.lemma_1))


def _homonym(lemma_1: str) -> float:
    number = lemma_1.partition(" ")[2].split(".")[0]
    return float(number) if number.isdigit() else 0.0


_ADVERBIAL_CASES = frozenset({"abl", "loc"})


def _adverbial_case(candidates: list[models.Candidate]) -> models.Candidate | None:
    """An indeclinable DPD lists for the very form read, where the form is also a declinable word's
    ablative or locative (tato, tasmā: then, therefore, not "from that"; pubbe: before): DPD makes such
    case forms indeclinables for their use as adverbs, which is the commoner one. A form in ṃ is left
    out: it is a neuter's nominative or accusative first, a feminine's locative in ṃ is rare (dukkhaṃ,
    dutiyaṃ: the second)."""
    adverb = next((c for c in candidates if c.pos == "ind" and c._own_form_ind), None)
    if adverb is None or lemma_clean(adverb.lemma_1).endswith("ṃ"):
        return None
    cases = {
        case for c in candidates if c.pos != "ind" for _g, case, _n in rank.case_numbers(tuple(c.readings))
    }
    return adverb if cases & _ADVERBIAL_CASES else None


def _weighed(candidate: models.Candidate, headwords: dict[int, HeadwordRecord]) -> rank.Weighed:
    record = headwords.get(candidate.id)
    return rank.Weighed(
        pos=candidate.pos, frequency=record.frequency if record else 0.0, lemma_1=candidate.lemma_1,
        fits=candidate._fits, readings=tuple(candidate.readings),
        exemplified=record is None or rank.exemplified(record.meaning_1),
    )  # fmt: skip


def _complete(split: models.Split) -> bool:
    return all(part.candidates or part.connector for part in split.parts) and any(
        part.candidates for part in split.parts
    )


def _agree(
    tokens_read: list[models.TokenAnalysis], clause_of: list[int] | None = None
) -> list[models.TokenAnalysis]:
    """Between a token's candidates of about equal weight, the one its neighbours in the same clause
    agree with first (rank.context_bonus)."""
    clause_of = clause_of or [0] * len(tokens_read)
    firsts = [
        _context_reading(token.candidates[0]) if token.candidates and not _split_first(token) else None
        for token in tokens_read
    ]
    for index, token in enumerate(tokens_read):
        if len(token.candidates) < 2 or _split_first(token):
            continue
        best = token.candidates[0]
        top = [c for c in token.candidates if c._weight >= best._weight - rank.TIE]
        if len(top) < 2:
            continue
        neighbours = _neighbours(index, firsts, clause_of)
        before = tokens_read[index - 1].word if index else None
        bonuses = rank.context_bonus([_context_reading(c) for c in top], neighbours, before)
        if max(bonuses) > bonuses[0]:
            # Tokens are shared between calls (remembered): the reordered one is a copy.
            order = sorted(range(len(top)), key=lambda i: -bonuses[i])
            reordered = [top[i] for i in order] + token.candidates[len(top) :]
            ranks = sorted(c.rank for c in token.candidates)
            candidates = [
                c if c.rank == r else c.model_copy(update={"rank": r})
                for c, r in zip(reordered, ranks, strict=True)
            ]
            tokens_read[index] = token.model_copy(update={"candidates": candidates})
    for index, token in enumerate(tokens_read):
        if len(token.candidates) < 2 or _split_first(token):
            continue
        after = [
            reading
            for position in range(index + 1, min(index + 3, len(firsts)))
            if clause_of[position] == clause_of[index] and (reading := firsts[position]) is not None
        ]
        readings = [_context_reading(c) for c in token.candidates]
        near = [
            reading
            for position in range(max(0, index - 2), min(index + 3, len(firsts)))
            if position != index
            and clause_of[position] == clause_of[index]
            and (reading := firsts[position]) is not None
        ]
        chosen = rank.governing(readings, after) or rank.gendered(readings, near)
        chosen = chosen or rank.substantive(readings, near)
        if chosen:
            tokens_read[index] = _first(token, chosen)
    return tokens_read


def _first(token: models.TokenAnalysis, chosen: int) -> models.TokenAnalysis:
    """The token with its candidate at `chosen` moved first, the ranks kept in place (a copy: tokens
    are shared between calls)."""
    reordered = [token.candidates[chosen], *token.candidates[:chosen], *token.candidates[chosen + 1 :]]
    ranks = sorted(c.rank for c in token.candidates)
    candidates = [
        c if c.rank == r else c.model_copy(update={"rank": r}) for c, r in zip(reordered, ranks, strict=True)
    ]
    return token.model_copy(update={"candidates": candidates})


def _parts_or(form: str, found: dict[str, list[Found]]) -> tuple[str, ...]:
    """The parts of the likeliest split of `form`, or the form itself where it has none."""
    return found[form][0].parts if form in found else (form,)


def _neighbours(index: int, firsts: list[rank.Reading | None], clause_of: list[int]) -> list[rank.Reading]:
    """The first readings of the words just before and after `index` in its clause. A modifier that
    agrees with the noun on its other side qualifies that one (atthi paro loko: paro is loko's, not a
    reason to read atthi as a noun): it is left out."""

    def beside(position: int) -> rank.Reading | None:
        same_clause = 0 <= position < len(firsts) and clause_of[position] == clause_of[index]
        return firsts[position] if same_clause else None

    neighbours = []
    for step in (-1, 1):
        reading = beside(index + step)
        if reading is None:
            continue
        farther = beside(index + 2 * step)
        if farther is not None and rank.qualifies(reading, farther):
            continue
        neighbours.append(reading)
    return neighbours


def _split_first(token: models.TokenAnalysis) -> bool:
    return bool(token.deconstruction) and token.deconstruction[0].rank == 1


def _context_reading(candidate: models.Candidate) -> rank.Reading:
    bound = candidate.pos == "adj" and rank.compound_final(candidate.meaning_combo, candidate.construction)
    dependent = rank.needs_a_noun(candidate.pos, candidate.meaning_combo)
    return rank.Reading(
        candidate.pos, lemma_clean(candidate.lemma_1), tuple(candidate.readings), bound, dependent
    )


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


def _fits_written(word: str, rows: dict[str, LookupRecord], headwords: dict[int, HeadwordRecord]) -> bool:
    """Whether DPD lists the word whole (as written, or in the spelling its record points at)."""
    row = rows.get(word)
    if row is not None and not row.headwords and row.spelling:
        return any(_fits(other, rows.get(other), headwords) for other in row.spelling)
    return _fits(word, row, headwords)


def _fits(form: str, row: LookupRecord | None, headwords: dict[int, HeadwordRecord]) -> bool:
    """Whether some headword of the row has `form` as its lemma or a labelled inflection."""
    if row is None:
        return False
    labelled = {(lemma, pos) for lemma, pos, _label in row.grammar}
    for hid in row.headwords:
        record = headwords.get(hid)
        if record is not None:
            lemma = lemma_clean(record.lemma_1)
            if lemma == form or (lemma, grammar_pos(record.pos, record.grammar)) in labelled:
                return True
    return False


def _candidates(
    form: str, row: LookupRecord | None, headwords: dict[int, HeadwordRecord]
) -> list[models.Candidate]:
    if row is None:
        return []
    readings: dict[tuple[str, str], list[str]] = {}
    for lemma, pos, label in row.grammar:
        readings.setdefault((lemma, pos), []).append(label)
    out = []
    for hid in row.headwords:
        record = headwords.get(hid)
        if record is None:
            continue
        lemma = lemma_clean(record.lemma_1)
        these = readings.get((lemma, grammar_pos(record.pos, record.grammar)), [])
        candidate = models.Candidate(
            id=hid, lemma_1=record.lemma_1, pos=record.pos, grammar=record.grammar,
            meaning_combo=meaning_combo(record.meaning_1, record.meaning_2, record.meaning_lit),
            family_root=record.family_root, root_key=record.root_key, construction=record.construction,
            readings=these,
        )  # fmt: skip
        candidate._fits = bool(these) or lemma == form
        candidate._weight = rank.weight(_weighed(candidate, {hid: record}))
        candidate._own_form = lemma == form and record.stem.startswith("!")
        candidate._own_form_ind = lemma == form and record.pos == "ind"
        out.append(candidate)
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


def _dpd_splits(row: LookupRecord) -> list[list[str]]:
    """DPD's own splits of a lookup key (lookup.deconstructor), the first MAX_SPLITS."""
    return [_split_parts(split) for split in row.deconstructor[:MAX_SPLITS]]


def _split(forms: list[str], source: models.SplitSource, parts: dict[str, models.Part]) -> models.Split:
    return models.Split(split=" + ".join(forms), source=source, parts=[parts[form] for form in forms])


def _part(form: str, rows: dict[str, LookupRecord], headwords: dict[int, HeadwordRecord]) -> models.Part:
    if form in CONNECTORS:  # a sandhi consonant (m, d, r, y, v), never a word of its own
        return models.Part(form=form, candidates=[], connector=True)
    candidates = sorted(_candidates(form, rows.get(form), headwords), key=lambda c: -c._weight)
    part = models.Part(form=form, candidates=candidates)
    part._weight = max(
        (rank.weight(_weighed(c, headwords), in_split=True) for c in candidates),
        default=rank.GRAMMAR_TERM_WEIGHT,
    )
    return part


def served(settings: PaliSettings) -> PaliService:
    """The service an MCP server opens."""
    return PaliService(settings.resolved_db_path())
