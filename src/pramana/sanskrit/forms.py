"""Inflected forms → lemma, offline: every form is generated once, at install time, by vidyut.prakriya
(a generator that follows Pāṇini's rules and needs no data beside the Dhātupāṭha).

- nominal paradigms (8 cases × 3 numbers) of the installed dictionaries' stems, in the genders their
  grammar markers give (`m.`, `f.`, `n.`, `mfn.`, `a.` = adjective) or their cited form implies
  (Apte's `DarmaH` is masculine, `vanaM` neuter);
- the verb forms of the Dhātupāṭha roots: seven tenses and moods of the active, the passive present,
  the gerund (`gatvA`), the infinitive (`gantum`) and the declined past participle (`gata`).
"""

from __future__ import annotations

import csv
import re
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from vidyut.prakriya import (
    Dhatu,
    Gana,
    Krt,
    Lakara,
    Linga,
    Pada,
    Prakriya,
    Pratipadika,
    Prayoga,
    Purusha,
    Vacana,
    Vibhakti,
    Vyakarana,
)

from pramana import work
from pramana.errors import SourceError
from pramana.sanskrit.stems import cited_stems

if TYPE_CHECKING:
    from pramana.sanskrit.store import SanskritStore

DHATUPATHA_URL = (
    "https://raw.githubusercontent.com/ambuda-org/vidyut/8fb93bb4fb9b362eab4292479cb8a3acf6070cb5/"
    "vidyut-prakriya/data/dhatupatha.tsv"
)
DHATUPATHA_SHA256 = "bb2013ead0ea536dc7f887164c385c703cb0014ccf6e5af35b87e6d3049ba380"  # at that commit
NOUN, VERB = "noun", "verb"
GENDERS = {"m": Linga.Pum, "f": Linga.Stri, "n": Linga.Napumsaka}
CASES = [
    (Vibhakti.Prathama, "nominative"), (Vibhakti.Dvitiya, "accusative"), (Vibhakti.Trtiya, "instrumental"),
    (Vibhakti.Caturthi, "dative"), (Vibhakti.Panchami, "ablative"), (Vibhakti.Sasthi, "genitive"),
    (Vibhakti.Saptami, "locative"), (Vibhakti.Sambodhana, "vocative"),
]  # fmt: skip
NUMBERS = [(Vacana.Eka, "singular"), (Vacana.Dvi, "dual"), (Vacana.Bahu, "plural")]
PERSONS = [(Purusha.Prathama, "3rd"), (Purusha.Madhyama, "2nd"), (Purusha.Uttama, "1st")]
TENSES = [
    (Prayoga.Kartari, Lakara.Lat, "present"), (Prayoga.Kartari, Lakara.Lan, "imperfect"),
    (Prayoga.Kartari, Lakara.Lot, "imperative"), (Prayoga.Kartari, Lakara.VidhiLin, "optative"),
    (Prayoga.Kartari, Lakara.Lrt, "future"), (Prayoga.Kartari, Lakara.Lit, "perfect"),
    (Prayoga.Kartari, Lakara.Lun, "aorist"), (Prayoga.Karmani, Lakara.Lat, "passive present"),
]  # fmt: skip
GANAS = [
    Gana.Bhvadi, Gana.Adadi, Gana.Juhotyadi, Gana.Divadi, Gana.Svadi, Gana.Tudadi, Gana.Rudhadi,
    Gana.Tanadi, Gana.Kryadi, Gana.Curadi,
]  # fmt: skip
# Grammar markers at the start of an article: `m.`, `f.`, `n.`, `mfn.`, `mf(ā)n.`, `a.`/`adj.`.
_MARKER = re.compile(r"(?<![\w.])(mfn|mf\(\S{1,3}\)n|mf|m|f|n|a|adj)\.(?!\w)")
MARKER_WINDOW = 60  # characters of the gloss where the grammar marker is looked for
_INDECLINABLE = re.compile(r"(?<![\w.])(ind|indecl)\.")
_ROOT_SIGN = "√"
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Form:
    form: str  # SLP1
    lemma: str  # SLP1: the stem, or the root
    grammar: str  # "instrumental singular (m.)", "present 3rd singular"
    kind: str  # NOUN or VERB


@dataclass(frozen=True)
class Root:
    code: str  # gaṇa.number, e.g. 01.0001
    aupadeshika: str  # as the Dhātupāṭha spells it, with accents and markers: `ga\mx~`
    gana: Gana


# -- what to generate -------------------------------------------------------------------------------


def genders_of(headword: str, opening: str) -> str:
    """The genders to decline `headword` in, sorted ('fmn', 'm', …); '' for none."""
    if headword.endswith("aH") and cited_stems(headword):
        return "m"
    if headword.endswith(("aM", "am")) and cited_stems(headword):
        return "n"
    if headword.endswith(("iH", "uH")) and cited_stems(headword):
        return "fm"
    if headword.endswith(("IH", "UH")) and cited_stems(headword):
        return "f"
    window = opening[:MARKER_WINDOW]
    if _ROOT_SIGN in window or _INDECLINABLE.search(window):
        return ""
    genders: set[str] = set()
    for marker in _MARKER.findall(window):  # all of them: Lanman's "f. devī́, a. heavenly" is mfn
        if marker in ("a", "adj") or (marker.startswith("mf") and marker.endswith("n")):
            marker = "mfn"
        genders.update(marker)
    return "".join(sorted(genders))


def nominal_stems(articles: Iterable[tuple[str, str]]) -> dict[str, str]:
    """stem → genders, from (headword, opening of its article) pairs; the genders of a stem merge."""
    stems: dict[str, set[str]] = {}
    for headword, opening in articles:
        genders = genders_of(headword, opening)
        if not genders:
            continue
        for stem in cited_stems(headword) or [headword]:
            stems.setdefault(stem, set()).update(genders)
    return {stem: "".join(sorted(genders)) for stem, genders in stems.items()}


def read_dhatupatha(path: Path) -> list[Root]:
    """The roots of vidyut's `dhatupatha.tsv` (code, dhatu, artha)."""
    roots = []
    with path.open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            code, dhatu = row.get("code") or "", row.get("dhatu") or ""
            gana = code.split(".")[0]
            if not dhatu or not gana.isdigit() or not 1 <= int(gana) <= len(GANAS):
                raise SourceError(f"{path}: {code!r} {dhatu!r} is not a Dhātupāṭha row (code, dhatu, artha)")
            roots.append(Root(code, dhatu, GANAS[int(gana) - 1]))
    if not roots:
        raise SourceError(f"{path} holds no roots")
    return roots


# -- generating -------------------------------------------------------------------------------------


class Generator:
    def __init__(self) -> None:
        self._vyakarana = Vyakarana(log_steps=False)

    def _texts(self, pada: Pada | Dhatu) -> list[str]:
        try:
            prakriyas: list[Prakriya] = self._vyakarana.derive(pada)
        except (ValueError, TypeError):  # a stem the grammar cannot take (stray letters in a headword)
            return []
        return list(dict.fromkeys(p.text for p in prakriyas if p.text))

    def noun(self, stem: str, genders: str) -> Iterator[Form]:
        try:
            pratipadika = Pratipadika.basic(stem)
        except ValueError:  # letters vidyut does not take (Vedic ḻ `L` in a headword)
            return
        for gender in genders:
            for case, case_name in CASES:
                for number, number_name in NUMBERS:
                    pada = Pada.Subanta(pratipadika, GENDERS[gender], case, number)
                    for text in self._texts(pada):
                        yield Form(text, stem, f"{case_name} {number_name} ({gender}.)", NOUN)

    def verb(self, root: Root) -> Iterator[Form]:
        try:
            dhatu = Dhatu.mula(root.aupadeshika, root.gana)
        except ValueError:
            return
        names = self._texts(dhatu)
        if not names:
            return
        lemma = names[0]
        for prayoga, lakara, tense in TENSES:
            for person, person_name in PERSONS:
                for number, number_name in NUMBERS:
                    pada = Pada.Tinanta(dhatu, prayoga, lakara, person, number)
                    for text in self._texts(pada):
                        yield Form(text, lemma, f"{tense} {person_name} {number_name}", VERB)
        for krt, name in ((Krt.ktvA, "gerund"), (Krt.tumun, "infinitive")):
            for text in self._texts(Pada.make_avyaya(Pratipadika.krdanta(dhatu, krt))):
                yield Form(text, lemma, name, VERB)
        participle = Pratipadika.krdanta(dhatu, Krt.kta)
        for stem in self._texts(participle)[:1]:
            for form in self.noun(stem, "mfn"):
                grammar = f"past participle, {form.grammar}"
                yield Form(form.form, lemma, grammar, VERB)


def generate(
    stems: dict[str, str], roots: list[Root], progress: Progress | None = None, batch: int = 500
) -> Iterator[list[Form]]:
    """Forms in batches, one batch per `batch` stems or roots; `progress(done, total)` after each."""
    generator = Generator()
    jobs = [*((stem, genders) for stem, genders in stems.items()), *roots]
    forms: list[Form] = []
    for done, job in enumerate(jobs, start=1):
        work.check("generating inflected forms")
        forms.extend(generator.verb(job) if isinstance(job, Root) else generator.noun(*job))
        if done % batch == 0 or done == len(jobs):
            yield forms
            forms = []
            if progress:
                progress(done, len(jobs))
    if forms:
        yield forms


# -- the index ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class FormIndexBuilt:
    stems: int  # nominal stems (or new genders of known ones) generated this time
    roots: int
    forms: int  # added this time
    total_forms: int
    seconds: float


def build_form_index(
    store: SanskritStore, dhatupatha: Path | None = None, progress: Progress | None = None
) -> FormIndexBuilt:
    """Add the forms of every stem of the installed dictionaries not generated yet (and of the
    Dhātupāṭha's roots, once): installing another dictionary generates only what it brings."""
    started = time.perf_counter()
    done = store.form_lemmas(NOUN)
    stems = {}
    for stem, genders in nominal_stems(store.headword_openings()).items():
        missing = "".join(g for g in genders if g not in done.get(stem, ""))
        if missing:
            stems[stem] = missing
    roots = read_dhatupatha(dhatupatha) if dhatupatha else []
    if roots and store.form_lemmas(VERB):
        roots = []  # the roots do not change with the dictionaries
    lemmas = [
        (stem, NOUN, "".join(sorted(set(genders + done.get(stem, ""))))) for stem, genders in stems.items()
    ]
    lemmas += [(root.code, VERB, "") for root in roots]
    added = store.add_forms(generate(stems, roots, progress), lemmas)
    return FormIndexBuilt(
        len(stems), len(roots), added, store.form_count(), round(time.perf_counter() - started, 1)
    )
