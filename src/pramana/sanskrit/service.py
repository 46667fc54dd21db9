"""The sanskrit logic: search in four modes, articles, dictionaries, transliteration."""

from __future__ import annotations

import re
from pathlib import Path

from rapidfuzz import fuzz

from pramana.errors import InvalidInputError, NotFoundError, NotReadyError
from pramana.install import command
from pramana.sanskrit import models
from pramana.sanskrit.csl import render_markdown
from pramana.sanskrit.forms import ALWAYS_PAUSA, PRONOUNS, pausa_readings
from pramana.sanskrit.html import sanskrit_to_devanagari
from pramana.sanskrit.sandhi import MAX_SPLIT_CHARS, MAX_SPLITS, Split, split_sandhi
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
MAX_FORM_ROWS = 200
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
    return [f"{key} ({'., '.join(genders)}.)" if genders else key for key, genders in merged.items()]


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
    """'tasya (genitive singular (m., n.) of tad)', 'ca (a headword)', its likeliest reading only."""
    if part.analyses:
        return f"{part.word} ({part.analyses[0].summary.split(': ', 1)[1]})"
    return f"{part.word} (a headword)"


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


class SanskritService:
    def __init__(self, db_path: Path, *, read_only: bool = False):
        self.db_path = db_path
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

    def _check_codes(self, dict_codes: list[str] | None) -> tuple[list[str] | None, dict[str, Dictionary]]:
        installed = self._dictionaries()
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
            hits = self.store.exact(readings, codes, fetch)
            if not hits:
                analyses = self._analyses(readings, codes)
                lemmas = list(dict.fromkeys(_slp1(analysis.lemma) for analysis in analyses))
                hits = self.store.exact(lemmas, codes, fetch)
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

    def analyze(self, word: str, dict_codes: list[str] | None = None) -> models.WordAnalysis:
        """What `word` is a form of (stem or root, case/number/gender or tense/person/number)."""
        word = word.strip() if word else ""
        if not word:
            raise InvalidInputError("word is empty; give an inflected form, e.g. 'rāmeṇa' or 'gacchati'")
        if len(word) > MAX_QUERY_CHARS:
            raise InvalidInputError(f"word is {len(word)} characters; the limit is {MAX_QUERY_CHARS}")
        codes, _ = self._check_codes(dict_codes)
        readings = slp1_readings(word)
        analyses = self._analyses(readings, codes)
        splits = [] if analyses or not self.store.has_forms() else self._splits(readings, codes)
        note = None
        if not analyses and not splits:
            note = (
                f"the form index is empty: run `{command('sanskrit forms')}` to build it"
                if not self.store.has_forms()
                else "no analysis: not a form of an installed stem or a Dhātupāṭha root, nor known words"
                " joined by simple sandhi (a compound or a prefixed verb?); try sanskrit_search in fuzzy mode"
            )
        if not analyses and not splits and any(len(r) > MAX_SPLIT_CHARS for r in readings):
            note = f"{note}; sandhi is split only in words of up to {MAX_SPLIT_CHARS} letters"
        return models.WordAnalysis(
            word=word,
            interpreted_as=readings,
            count=len(analyses),
            analyses=analyses,
            splits=splits,
            note=note,
        )

    def _splits(self, readings: list[str], codes: list[str] | None) -> list[models.SandhiSplit]:
        """The words sandhi may have joined in a word that is no form, each with its analyses."""
        found: dict[tuple[str, ...], tuple[Split, str]] = {}
        for reading in readings:  # `caiva` is read as cEva and as caiva
            for split in split_sandhi(reading, self.store.known_keys):
                found.setdefault(split.parts, (split, reading))
        ranked = sorted(found.values(), key=lambda found: (len(found[0].parts), found[0].by_pausa))
        return [self._split(split, reading, codes) for split, reading in ranked[:MAX_SPLITS]]

    def _split(self, split: Split, reading: str, codes: list[str] | None) -> models.SandhiSplit:
        parts = []
        for part in split.parts:
            # a headword as written (`na`) is not read with its end-of-phrase final (naH of asmad),
            # unless its final rarely ends a phrase (`idaM` idam, `yo` yaH)
            hits = self.store.exact([part], codes, 5)
            analyses = self._analyses([part], codes, pausa_too=not hits or part.endswith(ALWAYS_PAUSA))
            hits = hits or self.store.exact(pausa_readings(part), codes, 5)
            parts.append(
                models.SandhiPart(
                    word=slp1_to_iast(part),
                    analyses=analyses,
                    article_ids=[article_id(hit.dict_code, hit.lnum) for hit in hits],
                )
            )
        summary = " + ".join(_part_summary(part) for part in parts)
        return models.SandhiSplit(parts=parts, summary=f"{slp1_to_iast(reading)}: {summary}")

    def _analyses(
        self, readings: list[str], codes: list[str] | None, pausa_too: bool = True
    ) -> list[models.FormAnalysis]:
        grouped: dict[tuple[str, str, str], list[str]] = {}
        found = self.store.forms(readings, MAX_FORM_ROWS)
        # the word as sandhi left its final sound: `mano` for manaH, `yajYaM` for yajYam, `sa` for saH
        pausa = [r for reading in readings for r in pausa_readings(reading)] if pausa_too else []
        if pausa and (not found or any(reading.endswith(ALWAYS_PAUSA) for reading in readings)):
            found += self.store.forms(pausa, MAX_FORM_ROWS)
        for form in found:
            grouped.setdefault((form.form, form.lemma, form.kind), []).append(form.grammar)
        analyses = []
        for (form, lemma, kind), grammar in grouped.items():
            articles = [article_id(h.dict_code, h.lnum) for h in self.store.exact([lemma], codes, 5)]
            grammar = merge_genders(grammar)
            summary = f"{slp1_to_iast(form)}: {' or '.join(grammar)} of {slp1_to_iast(lemma)}"
            analyses.append(
                models.FormAnalysis(
                    form=slp1_to_iast(form),
                    lemma=slp1_to_iast(lemma),
                    lemma_deva=slp1_to_devanagari(lemma),
                    kind=kind,
                    grammar=grammar,
                    summary=summary,
                    article_ids=articles,
                )
            )
        # Pronouns first (a pronoun's form is that pronoun's far more often than a base's such as MW's
        # `ta`), then lemmas the dictionaries have: a stem no dictionary lists is the less likely reading.
        return sorted(analyses, key=lambda a: (_slp1(a.lemma) not in PRONOUNS, not a.article_ids))

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
