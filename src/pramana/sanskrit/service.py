"""The sanskrit logic: search in four modes, articles, dictionaries, transliteration."""

from __future__ import annotations

import os
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from rapidfuzz import fuzz

from pramana import work
from pramana.errors import InvalidInputError, NotFoundError, NotReadyError
from pramana.install import command
from pramana.sanskrit import compound, models, paradigms
from pramana.sanskrit.analysis import (
    VERBAL_STEM,
    Analyzer,
    F,
    M,
    N,
    PartTests,
    Reading,
    combining_stems,
    rank,
)
from pramana.sanskrit.csl import render_markdown
from pramana.sanskrit.forms import INDECLINABLE, NOMINAL, NUMERAL, PRONOUN, VERBAL, pausa_readings
from pramana.sanskrit.frequency import log_probability, slot_log_probability
from pramana.sanskrit.html import sanskrit_to_devanagari
from pramana.sanskrit.sandhi import MAX_SPLIT_CHARS, MAX_SPLITS, VOWELS, Segmenter, Split
from pramana.sanskrit.store import Article, Dictionary, Hit, SanskritStore
from pramana.store.fts import search_terms
from pramana.text.normalize import has_devanagari, strip_diacritics
from pramana.text.schemes import (
    SCHEME_NAMES,
    Scheme,
    convert,
    detect_scheme,
    loose_key,
    loose_key_from_slp1,
    parse_scheme,
    slp1_readings,
    slp1_to_devanagari,
    slp1_to_iast,
)

MODES = ("exact", "prefix", "fuzzy", "reverse")
MAX_LIMIT = 1000
MAX_QUERY_CHARS = 200
GLOSS_CHARS = 100
MAX_SENSES = 500
MAX_ANALYSES = 12
LIKELY_MARGIN = 2.0
# A reading of the letters in a scheme other than the detected one (ITRANS "ch" is c where IAST's is
# ch): kept, after the detected scheme's readings of the same likelihood.
OTHER_SCHEME_PENALTY = 1.0
COMPOUND_STEM = 1.0  # a compound read as one stem (harīśvara) ranks this far below every other reading
# What one more part costs a split (a part's reading scores about this much): two common words (na + iha)
# outrank a rare single reading (neha as a form of nah), a word's own common reading outranks its parts.
# A word is not split when its first reading is this likely and it is short (a compound is long).
CONFIDENT = float(os.environ.get("PRAMANA_CONFIDENT", "-7.5"))
# A word read this well as one form is split with a smaller search (a long compound is rarely a form).
READ_WELL = float(os.environ.get("PRAMANA_READ_WELL", "-11.0"))
READ_WELL_BUDGET = int(os.environ.get("PRAMANA_READ_WELL_BUDGET", "250"))
LONG_WORD = int(os.environ.get("PRAMANA_LONG_WORD", "8"))
ARTICLE_LOOKUPS = 4  # analyses of a word (or a part) whose lemma's articles are looked up
ArticleGroup = tuple[str, str, str, int]  # dictionary, headword, lnum, first entry id (store.article_groups)
ARTICLE_GROUPS_KEPT = 100_000  # keys whose article groups are remembered (~200 bytes each), then forgotten
ANSWERS_KEPT = 512  # analyze's answers remembered (~27 KB of objects each: ~14 MB)
UNKNOWN_PART = -20.0
ABSTRACT_COST = 0.5  # a split with an abstract's suffix apart, beside the split it is made from
SHORTENED_FEMININE = 0.01  # just after the a-stem's reading it is made from (rank orders by score)
# Particles that follow a word and never end a compound (vat does: mātṛvat)
ENCLITICS = frozenset({"api", "iti", "ca", "eva", "tu", "hi", "vA", "iva", "Kalu", "nu", "sma", "vE", "ha"})
FUNCTION_JOIN = 1.0
ANALYSED_SEGMENTS = 5  # the segmenter's best splits whose parts are analysed and ranked
DEEPER_PART = 7  # letters: a part this long that is one compound headword is split again as well
DEEPER_BUDGET = int(os.environ.get("PRAMANA_DEEPER_BUDGET", "800"))  # part tests for splitting it again
# letters: a group this long that the first search could not split within its budget is searched once
# more, with DEEPER_BUDGET part tests (a compound of eight members, vyāyāma-jāgara-adhva-strī-…, needs them)
LONG_COMPOUND = 24
SPLIT_COST = float(
    os.environ.get("PRAMANA_SPLIT_COST", "2.0")
)  # what each part after the first costs a split
MAX_PART_ANALYSES = 4
# a long word the bounded search ran out on is searched again (`compound.CompoundSplitter`) only when its
# best split is poor: its parts' score this low on average (a common member scores about -6 to -10)
POOR_PART = -11.0
MIN_SPLIT_CHARS = 4  # letters: a shorter word is not split (ca + … would split anything)
MAX_TRANSLITERATE_CHARS = 100_000
DIRECTIONS = {
    "iast_to_deva": (Scheme.IAST, Scheme.DEVANAGARI),
    "deva_to_iast": (Scheme.DEVANAGARI, Scheme.IAST),
}
CITATION = (
    "https://www.sanskrit-lexicon.uni-koeln.de/scans/{code}Scan/2020/web/webtc/indexcaller.php?key={key}"
)
INSTALL_HINT = (
    f"Install dictionaries with `{command('sanskrit install mw ap90')}`"
    f" (or `{command('sanskrit import PATH')}`)."
)

if TYPE_CHECKING:
    from pramana.config import SanskritSettings


def article_id(dict_code: str, lnum: str) -> str:
    return f"{dict_code}:{lnum}"


def parse_article_id(value: str) -> tuple[str, str]:
    code, _, lnum = value.strip().partition(":")
    if not code or not lnum or len(value) > 64:
        raise InvalidInputError(
            f"article_id {value.strip()[:64]!r} is not of the form 'CODE:NUMBER', e.g. 'ap90:100'",
            parameter="article_id",
        )
    return code.lower(), lnum


_GENDERED = re.compile(r"^(?P<reading>.*) \((?P<genders>[mfn](?:, [mfn])*)\.\)$")


def merge_genders(grammar: list[str]) -> list[str]:
    """'genitive plural (m.)', 'genitive plural (n.)' → 'genitive plural (m., n.)', in first-seen order."""
    merged: dict[str, list[str]] = {}
    for reading in grammar:
        match = _GENDERED.match(reading)
        key, gender = (match["reading"], match["genders"]) if match else (reading, "")
        genders = merged.setdefault(key, [])
        if gender and gender not in genders:
            genders.append(gender)
    order = {"m": 0, "f": 1, "n": 2}
    return [
        f"{key} ({'., '.join(sorted(genders, key=lambda g: order.get(g, 3)))}.)" if genders else key
        for key, genders in merged.items()
    ]


@lru_cache(maxsize=32768)  # a part's readings recur in each split that has it, and word after word
def _shown(reading: Reading) -> tuple[str, str, str, tuple[str, ...], str, str | None]:
    """What an answer shows of `reading` but its articles: its form, lemma (IAST, Devanagari), grammar,
    one-line summary and root (IAST), made once for the readings that recur."""
    lemma = reading.lemma
    grammar = merge_genders(list(reading.grammar))
    summary = f"{slp1_to_iast(reading.form)}: {' or '.join(grammar[:4])} of {slp1_to_iast(lemma)}"
    if reading.kind == "indeclinable":
        summary = f"{slp1_to_iast(reading.form)}: indeclinable {slp1_to_iast(lemma)}"
    root = slp1_to_iast(reading.root) if reading.root and reading.root != lemma else None
    return (
        slp1_to_iast(reading.form),
        slp1_to_iast(lemma),
        slp1_to_devanagari(lemma),
        tuple(grammar),
        summary,
        root,
    )


def _slp1(iast: str) -> str:
    return convert(iast, Scheme.IAST, Scheme.SLP1)


def loose_keys(query: str, readings: list[str]) -> list[str]:
    """The loose keys of what was typed and of each SLP1 reading of it, each once."""
    keys = [loose_key(query), *(loose_key_from_slp1(reading) for reading in readings)]
    return [key for key in dict.fromkeys(keys) if key]


# Brackets near the start hold Apte's [derivation] or the Heritage MW's [transliteration]; later ones
# hold the Sanskrit words of the definition (MW: "opposed to [śukla]"), which stay.
_LEADING_BRACKET = re.compile(r"^(.{0,40}?)\s*\[[^\]]*\]", re.S)
_SPACE_BEFORE_PUNCTUATION = re.compile(r"\s+([,;:.)])|(\()\s+")
_DASHES = re.compile(r"^[\s—–-]+")
_DEVANAGARI_HEAD = re.compile(r"^[\u0900-\u097f]+\s*")  # the Heritage MW opens with the headword


def gloss(opening: str) -> str:
    """One line from the start of an article: after the headword and its etymology, cut at a word."""
    text = opening
    head, dash, rest = text.partition(" — ")
    if dash and len(head) <= 80:
        text = rest
    else:
        first, _, rest = text.partition("\n\n")
        text = rest if rest and len(first) <= 40 else text  # md, cae: the headword alone on a line
    while (stripped := _LEADING_BRACKET.sub(r"\1", text, count=1)) != text:
        text = stripped
    text = _DASHES.sub("", _DEVANAGARI_HEAD.sub("", text))
    text = _SPACE_BEFORE_PUNCTUATION.sub(lambda m: m[1] or m[2], " ".join(text.split()))
    if len(text) <= GLOSS_CHARS:
        return text
    return text[:GLOSS_CHARS].rsplit(" ", 1)[0].rstrip(",;:") + " …"


def _part_summary(part: models.SandhiPart) -> str:
    """'tasya (genitive singular (m., n.) of tad)', 'rāja (member: rājan)', its likeliest reading only."""
    if not part.analyses:
        return part.word
    first = part.analyses[0]
    if first.kind == "compound member":
        return f"{part.word} (member: {first.lemma})"
    return f"{part.word} ({first.summary.split(': ', 1)[1]})"


def split_lemmas(splits: list[models.SandhiSplit]) -> list[str]:
    """The lemmas (SLP1) of every part of `splits`, in order: a part's analyses', or the part as a
    headword."""
    lemmas = []
    for split in splits:
        for part in split.parts:
            lemmas += [_slp1(analysis.lemma) for analysis in part.analyses]
            if part.article_ids:
                lemmas.append(_slp1(part.word))
    return list(dict.fromkeys(lemmas))


def _closest_first(query: str, hits: list[Hit]) -> list[Hit]:
    """Loose matches, the spelling nearest to what was typed first (krishna: kṛṣṇa before kṛṣṇā)."""
    typed = query.lower()

    def distance(hit: Hit) -> tuple[float, float, str]:
        spelled = slp1_to_iast(hit.matched_key)
        return (-fuzz.ratio(strip_diacritics(spelled), typed), -fuzz.ratio(spelled, typed), hit.matched_key)

    return sorted(hits, key=distance)


ScoredSplit = tuple[float, list[tuple[str, bool, list[Reading]]]]


@dataclass(frozen=True)
class _PartContext:
    """The parts of every split a word has, analysed once: as words, as compound members, and as the
    shortened feminines a compound's last member may be."""

    analysed: dict[str, list[Reading]]
    members: dict[str, list[Reading]]
    shortened: dict[str, list[Reading]]


def _shown_splits(ranked: list[ScoredSplit], always: list[tuple[str, ...]]) -> list[ScoredSplit]:
    """The best MAX_SPLITS splits, then each split of `always` (by its parts) not among them."""
    shown = ranked[:MAX_SPLITS]
    kept = {tuple(part for part, _, _ in parts) for _, parts in shown}
    for wanted in always:
        if wanted not in kept:
            shown.append(next(item for item in ranked if tuple(p for p, _, _ in item[1]) == wanted))
            kept.add(wanted)
    return shown


class SanskritService:
    def __init__(self, db_path: Path, *, read_only: bool = False):
        self.db_path = db_path
        self._analyzer: Analyzer | None = None
        self._segmenter: Segmenter | None = None
        self._compounds: compound.CompoundSplitter | None = None
        self._tests: PartTests | None = None
        # analyze's whole answers by (word, dictionaries), the least recently asked forgotten first, all
        # forgotten when the file changes: running text repeats its words (heldout2: 919 words, 761 distinct)
        self._answers: OrderedDict[tuple[str, tuple[str, ...] | None], models.WordAnalysis] = OrderedDict()
        self._answers_stamp: tuple[int, ...] = ()
        self._answers_lock = threading.Lock()
        # what every analyze call reads and only a change of the file changes, forgotten with the answers:
        # the installed dictionaries, whether the form index is built, each lemma's first articles
        self._installed: dict[str, Dictionary] | None = None
        self._has_forms: bool | None = None
        self._article_groups: dict[tuple[str, tuple[str, ...] | None], list[ArticleGroup]] = {}
        self.analyses_computed = 0  # analyze's answers worked out rather than remembered
        if read_only and not db_path.exists():
            raise NotReadyError(f"no dictionary database at {db_path}. {INSTALL_HINT}")
        self.store = SanskritStore(db_path, read_only=read_only)
        if self.store.outdated():  # a reader never migrates: the newer queries would fail on old tables
            self.store.close()
            raise NotReadyError(
                f"{db_path} was built by an older pramana: run `{command('sanskrit list')}` once (it upgrades"
                " the file in place), then retry"
            )

    def close(self) -> None:
        self.store.close()

    def _dictionaries(self) -> dict[str, Dictionary]:
        return {d.code: d for d in self.store.dictionaries()}

    def _check_codes(
        self, dict_codes: list[str] | None, installed: dict[str, Dictionary] | None = None
    ) -> tuple[list[str] | None, dict[str, Dictionary]]:
        installed = self._dictionaries() if installed is None else installed
        if not installed:
            raise NotReadyError(f"no dictionaries are installed in {self.db_path}. {INSTALL_HINT}")
        if not dict_codes:
            return None, installed
        codes = [code.strip().lower() for code in dict_codes if code.strip()]
        unknown = [code for code in codes if code not in installed]
        if unknown:
            raise InvalidInputError(
                f"unknown dictionary code(s) {', '.join(unknown)}; installed: {', '.join(sorted(installed))}"
            )
        return codes, installed

    # -- search --------------------------------------------------------------------------------

    def search(
        self, query: str, mode: str = "exact", dict_codes: list[str] | None = None, limit: int = 50
    ) -> models.SearchResult:
        query = query.strip() if query else ""
        if not query:
            raise InvalidInputError(
                "query is empty; give a word in any script (e.g. 'kṛṣṇa', 'कृष्ण', 'krishna')"
            )
        if len(query) > MAX_QUERY_CHARS:
            raise InvalidInputError(f"query is {len(query)} characters; the limit is {MAX_QUERY_CHARS}")
        mode = (mode or "exact").strip().lower()
        if mode not in MODES:
            raise InvalidInputError(f"unknown search mode {mode[:20]!r}; use one of: {', '.join(MODES)}")
        if not 1 <= limit <= MAX_LIMIT:
            raise InvalidInputError(f"limit must be between 1 and {MAX_LIMIT}")
        codes, installed = self._check_codes(dict_codes)
        readings = slp1_readings(query) if mode != "reverse" else []
        did_you_mean: list[str] = []
        matched_by = {"exact": "exact", "prefix": "prefix", "fuzzy": "substring", "reverse": "fulltext"}[mode]
        fetch = limit + 1
        hits: list[Hit] = []
        loose: list[Hit] = []
        analyses: list[models.FormAnalysis] = []
        splits: list[models.SandhiSplit] = []
        if mode == "exact":
            self._remembered_stamp()  # its forms and splits name articles from the remembered groups
            hits = self.store.exact(readings, codes, fetch)
            if not hits and self.store.has_forms():
                analyses = self._analyses(readings, codes)
                likely = [a for a in analyses if a.score >= analyses[0].score - LIKELY_MARGIN][:3]
                lemmas = list(dict.fromkeys(_slp1(analysis.lemma) for analysis in likely))
                hits = self.store.exact(lemmas, codes, fetch)
                if not hits:  # a verb with preverbs no dictionary lists: its root's articles
                    roots = [_slp1(analysis.root) for analysis in likely if analysis.root]
                    hits = self.store.exact(list(dict.fromkeys(roots)), codes, fetch)
                matched_by = "form"
            if not hits:
                matched_by = "loose"
                hits = _closest_first(query, self.store.loose(loose_key(query), codes, fetch))
                loose = hits
                did_you_mean = list(dict.fromkeys(slp1_to_iast(hit.matched_key) for hit in hits))[:10]
            if not hits and not analyses:  # after the loose key: `krishna` is no sandhi of kri + shna
                splits = self._splits(readings, codes) if self.store.has_forms() else []
                hits = self.store.exact(split_lemmas(splits), codes, fetch)
                matched_by = "sandhi" if splits else matched_by
        elif mode in ("prefix", "fuzzy"):
            hits, loose = self._prefix_or_substring(mode, query, readings, codes, fetch)
            if loose and len(loose) == len(hits):
                matched_by = "loose"
        else:
            text = convert(query, Scheme.DEVANAGARI, Scheme.IAST) if has_devanagari(query) else query
            terms = search_terms(text)
            if not terms:
                raise InvalidInputError("the query has no words to search for")
            hits = self.store.fulltext(terms, codes, fetch)
        truncated = len(hits) > limit
        hits = hits[:limit]
        only_loose = {(hit.dict_code, hit.key_slp1) for hit in loose}
        return models.SearchResult(
            query=query,
            mode=mode,  # type: ignore[arg-type]
            interpreted_as=readings,
            matched_by=matched_by,  # type: ignore[arg-type]
            count=len(hits),
            truncated=truncated,
            results=[self._hit(hit, installed, (hit.dict_code, hit.key_slp1) in only_loose) for hit in hits],
            did_you_mean=did_you_mean,
            analyses=analyses if matched_by == "form" else [],
            splits=splits if matched_by == "sandhi" else [],
        )

    # -- inflected forms -------------------------------------------------------------------------

    @property
    def analyzer(self) -> Analyzer:
        return self._analysis()[0]

    @property
    def segmenter(self) -> Segmenter:
        """Splits compounds and sandhi groups, testing parts by the analyzer's known words."""
        return self._analysis()[1]

    @property
    def compounds(self) -> compound.CompoundSplitter:
        """Splits long compounds the segmenter's bounded search leaves, by the same part tests."""
        self._analysis()
        assert self._compounds is not None
        return self._compounds

    def _analysis(self) -> tuple[Analyzer, Segmenter]:
        if self._analyzer is None or self._segmenter is None:
            self._analyzer = Analyzer(self.store)
            tests = self._tests = PartTests(self._analyzer.known)
            self._segmenter = Segmenter(tests.member, tests.word)
            self._compounds = compound.CompoundSplitter(tests.member, tests.word, tests.reach)
        return self._analyzer, self._segmenter

    def analyze(self, word: str, dict_codes: list[str] | None = None) -> models.WordAnalysis:
        """What `word` is a form of (stem or root, case/number/gender or tense/person/number), and the
        members or words a compound or sandhi group is made of, ranked together."""
        word = word.strip() if word else ""
        if not word:
            raise InvalidInputError("word is empty; give an inflected form, e.g. 'rāmeṇa' or 'gacchati'")
        if len(word) > MAX_QUERY_CHARS:
            raise InvalidInputError(f"word is {len(word)} characters; the limit is {MAX_QUERY_CHARS}")
        stamp = self._remembered_stamp()
        installed = self._installed
        if installed is None:
            installed = self._installed = self._dictionaries()
        codes, _ = self._check_codes(dict_codes, installed)
        key = (word, tuple(codes) if codes is not None else None)
        with self._answers_lock:
            known = self._answers.get(key)
            if known is not None:
                self._answers.move_to_end(key)
                return known
        answer = self._analyze(word, codes)
        with self._answers_lock:
            self.analyses_computed += 1
            if self._answers_stamp == stamp:
                self._answers[key] = answer
                if len(self._answers) > ANSWERS_KEPT:
                    self._answers.popitem(last=False)
        return answer

    def _analyze(self, word: str, codes: list[str] | None) -> models.WordAnalysis:
        readings = slp1_readings(word)
        if self._has_forms is None:
            self._has_forms = self.store.has_forms()
        if not self._has_forms:
            return models.WordAnalysis(
                word=word, interpreted_as=readings, count=0, analyses=[],
                note=f"the form index is empty: run `{command('sanskrit forms')}` to build it",
            )  # fmt: skip
        analyses = self._analyses(readings, codes)
        best = analyses[0].score if analyses else None
        confident = best is not None and best >= CONFIDENT and len(readings[0]) < LONG_WORD
        budget = Segmenter.BUDGET if best is None or best < READ_WELL else READ_WELL_BUDGET
        splits = [] if confident else self._splits(readings, codes, budget)
        likeliest = None
        if analyses or splits:
            best_analysis = analyses[0].score if analyses else float("-inf")  # a split however unlikely
            likeliest = "split" if splits and splits[0].score > best_analysis else "analysis"
        whole = self._compound_stem(readings[0], splits[0], analyses) if splits else None
        if whole is not None:
            analyses = [*analyses, whole]
        note = None
        if not analyses and not splits:
            note = (
                "no analysis: not a form of an installed stem or a Dhātupāṭha root, nor known words"
                " joined by sandhi; try sanskrit_search in fuzzy mode"
            )
            if any(len(r) > compound.MAX_LETTERS for r in readings):
                note += f"; compounds and sandhi groups are split only up to {compound.MAX_LETTERS} letters"
        # What this call cached (paradigms, part tests) is kept for the process's life: leave it out of
        # the garbage collector's full passes, which would otherwise scan every cached entry (100 ms).
        work.freeze_cached()
        return models.WordAnalysis(
            word=word,
            interpreted_as=readings,
            count=len(analyses),
            analyses=analyses,
            splits=splits,
            likeliest=likeliest,  # type: ignore[arg-type]
            note=note,
        )

    def _remembered_stamp(self) -> tuple[int, ...]:
        """The file's stamp now; what was remembered of it is forgotten when it changed."""
        stamp = self.store.stamp()
        with self._answers_lock:
            if stamp != self._answers_stamp:
                self._answers.clear()
                self._installed = self._has_forms = None
                self._article_groups = {}
                self._answers_stamp = stamp
        return stamp

    def _analyses(self, readings: list[str], codes: list[str] | None) -> list[models.FormAnalysis]:
        found = self.analyzer.analyze_many(readings)
        merged: dict[tuple[str, str], Reading] = {}
        for number, reading in enumerate(readings):
            for analysis in found[reading]:
                if number:  # another scheme's reading (ITRANS ch = c): after the detected scheme's
                    analysis = replace(analysis, score=analysis.score - OTHER_SCHEME_PENALTY)
                merged.setdefault((analysis.lemma, analysis.kind), analysis)
        ranked = sorted(merged.values(), key=rank)[:MAX_ANALYSES]
        articles = self._articles(ranked[:ARTICLE_LOOKUPS], codes)
        return [self._form_analysis(analysis, articles) for analysis in ranked]

    def _articles(self, readings: list[Reading], codes: list[str] | None) -> dict[str, list[str]]:
        """lemma (and root) → its first articles, in one lookup for all `readings`."""
        keys = list(dict.fromkeys(key for r in readings for key in (r.lemma, r.root) if key))
        found: dict[str, list[str]] = {}
        for key, dict_code, lnum in self._first_articles(keys, codes, 5 * len(keys) + 5):
            ids = found.setdefault(key, [])
            if len(ids) < 5:
                ids.append(article_id(dict_code, lnum))
        return found

    def _first_articles(
        self, keys: list[str], codes: list[str] | None, limit: int
    ) -> list[tuple[str, str, str]]:
        """`store.first_articles`, from each key's groups remembered (the same lemmas recur word after
        word), asking the file only for the keys not yet asked. Where two keys meet in one headword's
        group (an alternate spelling and its headword), the query decides which key it names: asked."""
        scope = tuple(codes) if codes is not None else None
        remembered = self._article_groups
        groups = {key: remembered.get((key, scope)) for key in keys}
        missing = [key for key, known in groups.items() if known is None]
        if missing:
            fetched: dict[str, list[ArticleGroup]] = {key: [] for key in missing}
            for key, *group in self.store.article_groups(missing, codes):
                fetched[key].append(tuple(group))  # type: ignore[arg-type]
            if len(remembered) > ARTICLE_GROUPS_KEPT:
                remembered.clear()
            for key, found in fetched.items():
                groups[key] = remembered[key, scope] = found
        merged: dict[tuple[str, str], tuple[int, str, str]] = {}
        for key in keys:
            for dict_code, headword, lnum, first in groups[key] or ():
                if (dict_code, headword) in merged:
                    return self.store.first_articles(keys, codes, limit)
                merged[dict_code, headword] = (first, key, lnum)
        ordered = sorted(merged.items(), key=lambda item: (item[0][0], item[1][0]))
        return [(key, dict_code, lnum) for (dict_code, _), (_, key, lnum) in ordered[:limit]]

    def _compound_stem(
        self, word: str, split: models.SandhiSplit, analyses: list[models.FormAnalysis]
    ) -> models.FormAnalysis | None:
        """A compound is a stem of its own, declined in its last member (kṛt-taddhita-samāsāś ca, 1.2.46):
        the likeliest split's members and last word read as one noun (harīśvaraḥ: hari + īśvara, the stem
        harīśvara, nominative singular), as the lexicons that name a compound by its whole stem do; after
        every other reading and the split, so it never decides what the word is read as first."""
        parts = split.parts
        if (
            len(parts) < 2
            or parts[-1].member
            or not parts[-1].analyses
            or not all(p.member for p in parts[:-1])
        ):
            return None
        last = parts[-1].analyses[0]
        if last.kind != "noun":
            return None
        written = convert(parts[-1].word, Scheme.IAST, Scheme.SLP1)
        lemma = convert(last.lemma, Scheme.IAST, Scheme.SLP1)
        # the last word's first letter may have merged with the member before it (rāja + indraḥ: rājendraḥ)
        shared = next(
            (
                shared
                for shared in (0, 1)
                if len(written) - shared >= 2
                and word.endswith(written[shared:])
                and lemma[:shared] == written[:shared]
            ),
            None,
        )
        if shared is None:
            return None
        head = word[: len(word) - len(written) + shared]
        stem = head + lemma[shared:]
        known = {convert(a.lemma, Scheme.IAST, Scheme.SLP1) for a in analyses}
        if len(stem) <= len(lemma) or stem in known:
            return None
        score = min([split.score, *(a.score for a in analyses)]) - COMPOUND_STEM
        form = head + convert(last.form, Scheme.IAST, Scheme.SLP1)[shared:]  # its final restored: rasāṅkuśaḥ
        return self._form_analysis(Reading(form, stem, "noun", tuple(last.grammar), score), {})

    def _form_analysis(self, reading: Reading, articles: dict[str, list[str]]) -> models.FormAnalysis:
        ids = articles.get(reading.lemma) or articles.get(reading.root, [])
        form, lemma, lemma_deva, grammar, summary, root = _shown(reading)
        return models.FormAnalysis(
            form=form,
            lemma=lemma,
            lemma_deva=lemma_deva,
            kind=reading.kind,  # type: ignore[arg-type]
            grammar=list(grammar),
            summary=summary,
            root=root,
            score=round(reading.score, 2),
            article_ids=ids,
        )

    def _splits(
        self, readings: list[str], codes: list[str] | None, budget: int | None = None
    ) -> list[models.SandhiSplit]:
        """The members of a compound or the words of a sandhi group, each part analysed, likeliest first."""
        found, finest = self._candidate_splits(readings, budget)
        abstract, suffix_parts = self._abstract_splits(readings[0], found)
        if not found:
            return []
        context = self._part_context(found, suffix_parts)
        ranked = sorted((self._scored(split, context) for split in found.values()), key=lambda item: -item[0])
        # a long compound's members one by one (kāma + krodha for kāmakrodha) are shown whatever the
        # coarser splits score, after them: the reader wants every member's meaning; so is the split
        # with an abstract's suffix shown apart
        shown = _shown_splits(ranked, [*finest[:1], *([abstract] if abstract else [])])
        word = slp1_to_iast(readings[0])
        return [
            self._split(word, parts, score, codes if rank == 0 else None, rank == 0)
            for rank, (score, parts) in enumerate(shown)
        ]

    def _candidate_splits(
        self, readings: list[str], budget: int | None
    ) -> tuple[dict[tuple[str, ...], Split], list[tuple[str, ...]]]:
        """Every split the segmenter and the compound splitter find for the two likeliest readings, by
        their parts, and the finest split of a long compound (its members one by one), if any."""
        found: dict[tuple[str, ...], Split] = {}
        finest_parts: list[tuple[str, ...]] = []
        for reading in readings[:2]:
            if len(reading) < MIN_SPLIT_CHARS:
                continue
            segments = self.segmenter.split(reading, budget)[:ANALYSED_SEGMENTS]
            if not segments and len(reading) >= LONG_COMPOUND and self.segmenter.exhausted:  # many members
                segments = self.segmenter.split(reading, DEEPER_BUDGET)[:ANALYSED_SEGMENTS]
            longer, finest = self._long_compound(reading, self.segmenter.exhausted, segments[:1])
            for split in segments + self._deeper(segments[:2]) + longer + finest:
                found.setdefault(split.parts, split)
            finest_parts = finest_parts or [split.parts for split in finest]
        return found, finest_parts

    def _abstract_splits(
        self, reading: str, found: dict[tuple[str, ...], Split]
    ) -> tuple[tuple[str, ...] | None, set[str]]:
        """Adds to `found` the word and its two likeliest splits with an abstract's suffix shown apart
        (-tva, -tā); returns the likeliest of those, to be shown whatever it scores, and the suffixes."""
        abstract = None
        suffix_parts: set[str] = set()
        for split in [Split((reading,), (False,), 0.0), *list(found.values())[:2]]:
            divided = self._abstract(split)
            if divided is not None:
                found.setdefault(divided[0].parts, divided[0])
                abstract = abstract or divided[0].parts
                suffix_parts.add(divided[1])
        return abstract, suffix_parts

    def _part_context(self, found: dict[tuple[str, ...], Split], suffix_parts: set[str]) -> _PartContext:
        """What scoring the splits needs of their parts, each part analysed once."""
        words = {part for split in found.values() for part in split.parts}
        analysed = self.analyzer.analyze_many(words)
        for part in suffix_parts:  # tvāt, tā after the stem: the suffix's readings after the part's first
            its = analysed.get(part, [])
            analysed[part] = [*its[:1], *self._suffix_readings(part), *its[1:]]
        members = self._members(words)
        lasts = {split.parts[-1] for split in found.values() if len(split.parts) > 1 and split.members[-2]}
        shortened = self._shortened_feminines({part: analysed.get(part, []) for part in lasts})
        return _PartContext(analysed, members, shortened)

    def _scored(self, split: Split, context: _PartContext) -> ScoredSplit:
        """A split's score (its parts' likeliest readings, less a cost a join) and its parts' readings."""
        parts: list[tuple[str, bool, list[Reading]]] = []
        score = -SPLIT_COST * (len(split.parts) - 1)
        for index, (part, is_member) in enumerate(zip(split.parts, split.members, strict=True)):
            readings_of, function_word = self._part_readings(split, index, context)
            score += readings_of[0].score if readings_of else UNKNOWN_PART
            if function_word and readings_of and readings_of[0].kind == "indeclinable":
                score += FUNCTION_JOIN  # ca, na, iha, eva, api join their neighbours all the time
            parts.append((part, is_member, readings_of))
        return score, parts

    def _part_readings(self, split: Split, index: int, context: _PartContext) -> tuple[list[Reading], bool]:
        """The readings of a split's part at `index`, likeliest first, and whether it is a function word
        (an indeclinable or a pronoun first)."""
        part, last = split.parts[index], len(split.parts) - 1
        as_word = context.analysed.get(part, [])
        following = split.parts[index + 1] if index < last else ""
        if following[:1] in VOWELS and part[-1:] in VOWELS:
            # a word whose final visarga fell (sa for saḥ) is not joined to a vowel after it; but
            # an -o before an a is -aḥ whose a-initial neighbour lost its a (so 'pi, vikalpo
            # 'smin: ato ror aplutād aplute, eṅaḥ padāntād ati, 6.1.113, 6.1.109)
            own = (part, part[:-1] + "aH") if part[-1] == "o" and following[0] == "a" else (part,)
            as_word = [reading for reading in as_word if reading.form in own]
        as_member = context.members.get(part, []) if index < last else []
        after = context.analysed.get(following, [])[:1]
        if any(r.lemma in ENCLITICS for r in after):
            as_member = []  # before a particle (gatvāpi, devair api) a part is a word
        elif any(r.kind == "pronoun" for r in after):
            # before a pronoun's case a noun's stem is no member: a pronoun is no compound's
            # last member (in a possessive compound it is not declined as a pronoun, na
            # bahuvrīhau, 1.1.29): gopa-te is gopa + te or gopate; an indeclinable's member
            # reading is its word (kiṃca asya)
            as_member = [r for r in as_member if not self._declinable(r.lemma)]
        if index == last and index and split.members[index - 1]:
            as_word = context.shortened.get(part, as_word)
        readings_of = sorted(as_member + as_word, key=rank)
        function_word = any(r.kind in ("indeclinable", "pronoun") for r in as_word[:1])
        if as_member and not function_word:  # before another part, a stem is a member
            readings_of = as_member + [r for r in readings_of if r not in as_member]
        elif function_word:
            readings_of = as_word + [r for r in readings_of if r not in as_word]
        return readings_of, function_word

    def _long_compound(
        self, reading: str, ran_out: bool, best: list[Split]
    ) -> tuple[list[Split], list[Split]]:
        """A long word's likeliest splits by `compound.CompoundSplitter` when the bounded search ran out
        of part tests on it (`ran_out`) or does not take a word this long, and its finest split (the
        members of a long compound, one by one)."""
        if len(reading) < compound.MIN_LETTERS:
            return [], []
        poor = not best or best[0].score / len(best[0].parts) < POOR_PART
        search = (ran_out and poor) or len(reading) > MAX_SPLIT_CHARS
        longer = self.compounds.split(reading) if search else []
        coarsest = (longer or best)[:1]
        refined = self.compounds.refine(coarsest[0]) if coarsest else None
        return longer, [refined] if refined else []

    def _abstract(self, split: Split) -> tuple[Split, str] | None:
        """`split` with a part that is an abstract in -tva or -tā of a stem a member reads shown as that
        stem and the suffix's case (tasya bhāvas tvatalau, Pāṇini 5.1.119; sarvagata-tvāt, siddha-tvāt,
        cāru-tā), as the DCS segments it, and the suffix's part; None if it has none."""
        if self._tests is None:
            return None
        for index, part in enumerate(split.parts):
            if "t" not in part[2:]:
                continue
            for key in (part, *pausa_readings(part)):
                for stem in paradigms.candidate_stems(key):
                    suffix = next((s for s in paradigms.ABSTRACT_SUFFIXES if stem.endswith(s)), "")
                    base = stem[: -len(suffix)] if suffix else ""
                    if len(base) < 2 or not part.startswith(base) or self._tests.member(base) is None:
                        continue
                    stems = self.analyzer.known.stems(combining_stems(base)).values()
                    if not any(value & (M | F | N) for value, _ in stems):
                        continue  # a noun's or adjective's stem (siddha, cāru), not bhrā-tā, cin-tā
                    rest = part[len(base) :]
                    parts = (*split.parts[:index], base, rest, *split.parts[index + 1 :])
                    members = (*split.members[:index], True, *split.members[index:])
                    return Split(parts, members, split.score - ABSTRACT_COST), rest
        return None

    @staticmethod
    def _suffix_readings(part: str) -> list[Reading]:
        """The abstract suffix's readings of a part (tvāt: tva, ablative singular), as `_abstract` splits."""
        found = []
        for suffix in paradigms.ABSTRACT_SUFFIXES:
            for key in (part, *pausa_readings(part)):
                slots = paradigms.suffix_readings(key, suffix)
                if slots:
                    gender = paradigms.ABSTRACT_SUFFIXES[suffix][0]
                    names = tuple(paradigms.slot_name(slot) for slot in slots)
                    grammar = tuple(f"{name} ({gender}.)" for name in names)
                    score = log_probability(suffix, 0, cls="n") + slot_log_probability(grammar, "n")
                    found.append(Reading(key, suffix, "noun", grammar, score, slots=names))
                    break
        return found

    def _deeper(self, splits: list[Split]) -> list[Split]:
        """The splits again with each long part that a dictionary lists as one compound (vyādhipīḍita)
        split into its own members: the reader may want either."""
        deeper = []
        for split in splits:
            for index, part in enumerate(split.parts):
                if len(part) < DEEPER_PART:
                    continue
                inner = self.segmenter.split(part, DEEPER_BUDGET)[:1]
                inner = [s for s in inner if all(len(p) > 1 for p in s.parts)]
                for found in inner:
                    members = (True,) * (len(found.parts) - 1) + (split.members[index],)
                    deeper.append(
                        Split(
                            split.parts[:index] + found.parts + split.parts[index + 1 :],
                            split.members[:index] + members + split.members[index + 1 :],
                            split.score - 0.5,
                        )
                    )
        return deeper

    def _declinable(self, stem: str) -> bool:
        """Whether a member's stem is a noun's with a gender or a verb's (not an indeclinable's): the
        in-memory tables' bits, no query."""
        value = self.analyzer.known.stems([stem]).get(stem, (0, 0))[0]
        return bool(value & (M | F | N | VERBAL_STEM)) or stem in self.analyzer.roots()

    def _shortened_feminines(self, lasts: dict[str, list[Reading]]) -> dict[str, list[Reading]]:
        """A compound's last word read as an a-stem's case also as the feminine ā-stem noun whose ā a
        possessive compound shortens (gostriyor upasarjanasya, Pāṇini 1.2.48; Whitney §1315: kuṅkuma-prabham
        of prabhā, sa-nidraḥ of nidrā), just after that reading (a part's first reading decides the
        split's score, so the split is ranked as before)."""
        wanted = {
            reading.lemma[:-1] + "A"
            for readings in lasts.values()
            for reading in readings[:MAX_PART_ANALYSES]
            if reading.kind == "noun" and reading.lemma.endswith("a") and len(reading.lemma) > 2
        }
        if not wanted:
            return {}
        feminine = {  # a feminine noun's stem and no other gender's (the in-memory tables' bits, no query)
            stem
            for stem, (value, _) in self.analyzer.known.stems(sorted(wanted)).items()
            if value & F and not value & (M | N)
        }
        found: dict[str, list[Reading]] = {}
        for part, readings in lasts.items():
            shown: list[Reading] = []
            for reading in readings:
                shown.append(reading)
                stem = reading.lemma[:-1] + "A"
                if reading.kind == "noun" and stem in feminine and len(shown) <= MAX_PART_ANALYSES:
                    shown.append(replace(reading, lemma=stem, score=reading.score - SHORTENED_FEMININE))
            if len(shown) > len(readings):
                found[part] = shown
        return found

    def _members(self, parts: set[str]) -> dict[str, list[Reading]]:
        """Each part as a compound member: the stems it may stand for (rāja: rājan, rāja)."""
        # a stem may be the combining form of several parts (vātapitta of vātapitta and vātapittā): each
        # part gets its readings, whatever order the set of parts iterates in
        wanted: dict[str, list[str]] = {}
        for part in sorted(parts):
            for stem in combining_stems(part):
                wanted.setdefault(stem, []).append(part)
        # the analyzer's remembered rows (the same stems recur call after call), in the order a query
        # of them all would give: by stem, each stem's in the database's order
        known = self.analyzer.lexicon(sorted(wanted))
        found: dict[str, list[Reading]] = {}
        for row in (row for stem in sorted(known) for row in known[stem]):
            if row.kind not in (NOMINAL, INDECLINABLE, PRONOUN, NUMERAL, VERBAL):
                continue
            lemma = row.lemma if row.kind == VERBAL else row.stem
            root = self.analyzer.roots().get(row.lemma, "") if row.kind == VERBAL else ""
            common = row.kind in (INDECLINABLE, PRONOUN)
            cls = "v" if row.kind == VERBAL else "i" if row.kind == INDECLINABLE else "n"
            prior = log_probability(root or lemma, row.weight, common, cls)
            for part in wanted[row.stem]:
                restored = 0.3 if row.stem != part else 0.0  # rāja for rājan is likelier than rāja itself
                score = prior + restored - (0.5 if row.kind == VERBAL else 0.0)
                found.setdefault(part, []).append(
                    Reading(part, lemma, "compound member", ("compound member",), score, root,
                            prior=(root or lemma, cls, prior))
                )  # fmt: skip
        for part, readings in found.items():
            unique = {reading.lemma: reading for reading in sorted(readings, key=lambda r: r.score)}
            found[part] = sorted(unique.values(), key=rank)
        return found

    def _split(
        self,
        word: str,
        parts: list[tuple[str, bool, list[Reading]]],
        score: float,
        codes: list[str] | None,
        with_articles: bool = True,
    ) -> models.SandhiSplit:
        """One split, its parts' likeliest readings; their articles for the first split only (the
        agent reads those; the others name their lemmas)."""
        shown = [(part, is_member, readings[:MAX_PART_ANALYSES]) for part, is_member, readings in parts]
        wanted = [reading for _, _, readings in shown for reading in readings[:2]] if with_articles else []
        articles = self._articles(wanted, codes) if wanted else {}
        built = [
            models.SandhiPart(
                word=slp1_to_iast(part),
                member=is_member,
                analyses=[self._form_analysis(reading, articles) for reading in readings],
            )
            for part, is_member, readings in shown
        ]
        summary = " + ".join(_part_summary(part) for part in built)
        return models.SandhiSplit(parts=built, summary=f"{word}: {summary}", score=round(score, 2))

    def _prefix_or_substring(
        self, mode: str, query: str, readings: list[str], codes: list[str] | None, fetch: int
    ) -> tuple[list[Hit], list[Hit]]:
        """(all hits, those only the loose spelling found), in this order: the word itself as typed,
        the word itself in loose spelling ('rama' → rāma), then the longer keys as typed, then the
        longer loose keys ('krishn' → kṛṣṇa…, 'kfzR' → kṛṣṇ…), while there is room."""
        lookup = self.store.prefix if mode == "prefix" else self.store.substring
        typed: list[Hit] = []
        for reading in readings:
            typed = lookup(reading, codes, fetch)
            if typed:
                break
        keys = loose_keys(query, readings)
        whole = [hit for hit in typed if hit.matched_key in readings]
        loose_whole = _closest_first(
            query, [hit for key in keys for hit in self.store.loose(key, codes, fetch)]
        )
        loose_longer = (hit for key in keys for hit in lookup(key, codes, fetch, column="loose"))
        ordered: dict[tuple[str, str], Hit] = {}
        loose: list[Hit] = []
        for group, is_loose in ((whole, False), (loose_whole, True), (typed, False), (loose_longer, True)):
            if len(ordered) >= fetch:
                break
            for hit in group:
                if len(ordered) >= fetch:
                    break
                if (hit.dict_code, hit.key_slp1) not in ordered:
                    ordered[hit.dict_code, hit.key_slp1] = hit
                    if is_loose:
                        loose.append(hit)
        return list(ordered.values()), loose

    @staticmethod
    def _hit(hit: Hit, installed: dict[str, Dictionary], loose: bool = False) -> models.SearchHit:
        return models.SearchHit(
            word=slp1_to_iast(hit.key_slp1),
            word_deva=slp1_to_devanagari(hit.key_slp1),
            dict_code=hit.dict_code,
            dict_name=installed[hit.dict_code].name,
            article_id=article_id(hit.dict_code, hit.lnum),
            homonym=hit.homonym or None,
            matched=slp1_to_iast(hit.matched_key),
            gloss=gloss(hit.opening),
            senses=hit.senses,
            loose=loose or None,
            snippet=hit.snippet or None,
        )

    # -- articles and dictionaries -------------------------------------------------------------

    def get_article(self, article_id_value: str, script: str = "iast") -> models.ArticleResult:
        code, lnum = parse_article_id(article_id_value)
        target = parse_scheme(script)
        if target not in (Scheme.IAST, Scheme.DEVANAGARI):
            raise InvalidInputError("script must be 'iast' or 'devanagari'")
        found = self.store.article(code, lnum)
        if found is None:
            raise NotFoundError(f"article {code}:{lnum} not found; take article ids from sanskrit_search")
        installed = self._dictionaries()
        dictionary = installed.get(code)
        senses = self._senses_from(found)
        markdowns = [self._render(sense.markup, dictionary, target) for sense in senses]
        return models.ArticleResult(
            article_id=article_id(code, lnum),
            headword=slp1_to_iast(found.key_slp1),
            headword_deva=slp1_to_devanagari(found.key_slp1),
            original_spelling=slp1_to_iast(found.key2) if found.key2 else "",
            homonym=found.homonym,
            dict_code=code,
            dict_name=installed[code].name if code in installed else code,
            page=found.page,
            citation_url=CITATION.format(code=code.upper(), key=found.key_slp1),
            markdown="\n\n".join(markdowns),
            senses=[
                models.Sense(number=number, article_id=article_id(code, sense.lnum), markdown=text)
                for number, (sense, text) in enumerate(zip(senses, markdowns, strict=True), start=1)
            ]
            if len(senses) > 1
            else [],
        )

    def _senses_from(self, found: Article) -> list[Article]:
        """The article a search hit gives (a headword's first) comes with the headword's other
        articles in the dictionary (MW: its senses), in order; any other article comes alone."""
        senses = self.store.senses(found.dict_code, found.key_slp1, MAX_SENSES)
        return senses if senses and senses[0].entry_id == found.entry_id else [found]

    @staticmethod
    def _render(markup: str, dictionary: Dictionary | None, target: Scheme) -> str:
        fmt = dictionary.format if dictionary else "csl"
        if fmt == "markdown":  # converted from HTML at import; its Sanskrit is IAST, in italics or bold
            return sanskrit_to_devanagari(markup) if target == Scheme.DEVANAGARI else markup
        return render_markdown(markup, devanagari=target == Scheme.DEVANAGARI, bare_slp1=fmt == "csl-slp1")

    def list_dictionaries(self) -> models.DictionaryList:
        infos = [
            models.DictionaryInfo(
                code=d.code,
                name=d.name,
                from_lang=d.from_lang,
                to_lang=d.to_lang,
                description=d.description,
                year=d.year,
                entry_count=d.entry_count,
                licence=d.licence,
            )
            for d in self.store.dictionaries()
        ]
        return models.DictionaryList(count=len(infos), dictionaries=infos)


def transliterate(
    text: str, direction: str | None = None, source: str | None = None, target: str | None = None
) -> models.TransliterationResult:
    """The spec's directions (iast_to_deva, deva_to_iast), or any source/target; source auto-detected."""
    if not text or not text.strip():
        raise InvalidInputError("text is empty")
    if len(text) > MAX_TRANSLITERATE_CHARS:
        raise InvalidInputError(f"text is {len(text)} characters; the limit is {MAX_TRANSLITERATE_CHARS}")
    if direction:
        if direction.strip().lower() not in DIRECTIONS:
            raise InvalidInputError(
                f"unknown direction {direction.strip()[:30]!r}; use iast_to_deva or deva_to_iast, "
                f"or give source and target among: {SCHEME_NAMES}"
            )
        from_scheme, to_scheme = DIRECTIONS[direction.strip().lower()]
    else:
        from_scheme = parse_scheme(source) if source else detect_scheme(text)
        to_scheme = parse_scheme(target) if target else (
            Scheme.IAST if from_scheme == Scheme.DEVANAGARI else Scheme.DEVANAGARI
        )  # fmt: skip
    return models.TransliterationResult(
        text=text,
        source=from_scheme.value,
        target=to_scheme.value,
        result=convert(text, from_scheme, to_scheme),
    )


def served(settings: SanskritSettings) -> SanskritService:
    """The service an MCP server opens: the dictionary database, read-only."""
    return SanskritService(settings.resolved_db_path(), read_only=True)
