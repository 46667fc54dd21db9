"""Inflected forms → lemma, offline: every form is generated once, at install time, by vidyut.prakriya
(a generator that follows Pāṇini's rules and needs no data beside the Dhātupāṭha).

- nominal paradigms (8 cases × 3 numbers) of the installed dictionaries' stems, in the genders their
  grammar markers give (`m.`, `f.`, `n.`, `mfn.`, `a.` = adjective) or their cited form implies
  (Apte's `DarmaH` is masculine, `vanaM` neuter);
- the pronouns (`tad`, `asmad`…: dictionaries give them no gender), with the enclitic `me`, `te`, `mA`…
  of 8.1.20–22 that vidyut leaves out;
- the verb forms of the Dhātupāṭha roots: seven tenses and moods of the active, the passive present,
  the gerund (`gatvA`), the infinitive (`gantum`) and the declined past participle (`gata`);
- of the roots a dictionary lists as a headword (MW lists most): the declined present participles
  (`gacCat`, `vartamAna`) and the causative's present system, future, participle, gerund and
  infinitive (`GAtayati`, `boDayat`);
- the verbs with prefixes the dictionaries list (MW `praRaS` "[pra-ṇaś] ( Preverb [√ naś ] )",
  `samADA` "[sam-ā-√ dhā ]"), under that headword: tenses, gerund in -ya (`pretya`), infinitive.
Generating every prefix with every root would multiply the index; the dictionaries' list keeps it to
the verbs that occur.
"""

from __future__ import annotations

import csv
import re
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import partial
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
    Sanadi,
    Vacana,
    Vibhakti,
    Vyakarana,
)

from pramana import work
from pramana.errors import SourceError
from pramana.sanskrit.stems import cited_stems
from pramana.text.schemes import Scheme, convert

if TYPE_CHECKING:
    from pramana.sanskrit.store import SanskritStore

DHATUPATHA_URL = (
    "https://raw.githubusercontent.com/ambuda-org/vidyut/8fb93bb4fb9b362eab4292479cb8a3acf6070cb5/"
    "vidyut-prakriya/data/dhatupatha.tsv"
)
DHATUPATHA_SHA256 = "bb2013ead0ea536dc7f887164c385c703cb0014ccf6e5af35b87e6d3049ba380"  # at that commit
# Kinds of form_lemmas (forms are NOUN or VERB): the roots' participles and causatives, and the verbs
# with prefixes, are done for what the dictionaries list, so a new dictionary may bring more.
NOUN, VERB, DERIVED, PREFIXED = "noun", "verb", "participles and causative", "prefixed verb"
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
CAUSATIVE_TENSES = TENSES[:5]
PARTICIPLES = (Krt.Satf, Krt.SAnac)  # present participles, active and middle
PRONOUNS = ("tad", "yad", "idam", "etad", "kim", "adas", "asmad", "yuzmad", "enad", "Bavat")
# 8.1.20–22: the enclitic forms of the personal pronouns (vidyut derives only the full ones).
ENCLITICS = [
    ("me", "asmad", "dative singular"), ("me", "asmad", "genitive singular"),
    ("mA", "asmad", "accusative singular"), ("nO", "asmad", "accusative dual"),
    ("nO", "asmad", "dative dual"), ("nO", "asmad", "genitive dual"), ("naH", "asmad", "accusative plural"),
    ("naH", "asmad", "dative plural"), ("naH", "asmad", "genitive plural"),
    ("te", "yuzmad", "dative singular"), ("te", "yuzmad", "genitive singular"),
    ("tvA", "yuzmad", "accusative singular"), ("vAm", "yuzmad", "accusative dual"),
    ("vAm", "yuzmad", "dative dual"), ("vAm", "yuzmad", "genitive dual"),
    ("vaH", "yuzmad", "accusative plural"), ("vaH", "yuzmad", "dative plural"),
    ("vaH", "yuzmad", "genitive plural"),
]  # fmt: skip
# MW's preverb articles: "[sam-ā-√ dhā ]", "[pra-ṇaś] ( Preverb.:1 [√ naś ] )", "( Preverb. [vi-√ īkṣ] )".
_PREVERB = re.compile(
    r"\[((?:[a-zāīūṛṝḷṃḥṅñṭḍṇśṣ]+-)+)(?:√ ?[^\]]*|[^\]√]*)\][^\[]{0,30}\[[^\]]*√ ?(?:\d\. ?)?([^\] ]+) ?\]"
    r"|\[((?:[a-zāīūṛṝḷṃḥṅñṭḍṇśṣ]+-)+)√ ?(?:\d\. ?)?([^\] ]+) ?\]"
)
# Prefixes as MW writes them before a root, by their vidyut (upadeśa) names.
UPASARGAS = {
    "pra": "pra", "parā": "parA", "apa": "apa", "sam": "sam", "saṃ": "sam", "saṅ": "sam", "anu": "anu",
    "anv": "anu", "ava": "ava", "nis": "nis", "nir": "nis", "niḥ": "nis", "niś": "nis", "niṣ": "nis",
    "dus": "dus", "dur": "dus", "duḥ": "dus", "duṣ": "dus", "vi": "vi", "vy": "vi", "ā": "AN", "ni": "ni",
    "ny": "ni", "adhi": "aDi", "adhy": "aDi", "api": "api", "ati": "ati", "aty": "ati", "su": "su",
    "ud": "ud", "ut": "ud", "abhi": "aBi", "abhy": "aBi", "prati": "prati", "praty": "prati",
    "pari": "pari", "pary": "pari", "upa": "upa",
}  # fmt: skip
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
class PrefixedVerb:
    headword: str  # SLP1, as the dictionary lists it: `praRaS`
    prefixes: tuple[str, ...]  # vidyut's names: ("pra",)
    root: str  # SLP1: `naS`


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


def prefixed_verb(headword: str, opening: str) -> PrefixedVerb | None:
    """The prefixes and root of a dictionary's article on a verb with prefixes (MW's `[sam-ā-√ dhā ]`)."""
    found = _PREVERB.search(opening[: MARKER_WINDOW * 2])
    if not found:
        return None
    written, root = (found[1], found[2]) if found[1] else (found[3], found[4])
    names = [UPASARGAS.get(part) for part in written.strip("-").split("-")]
    root = re.sub("[^A-Za-z]", "", convert(root, Scheme.IAST, Scheme.SLP1))  # "2. naś" → naS
    if None in names or not root:
        return None
    return PrefixedVerb(headword, tuple(name for name in names if name), root)


def prefixed_verbs(articles: Iterable[tuple[str, str]]) -> dict[str, PrefixedVerb]:
    """headword → its prefixes and root, for the dictionaries' articles on verbs with prefixes."""
    verbs: dict[str, PrefixedVerb] = {}
    for headword, opening in articles:
        verb = prefixed_verb(headword, opening) if _ROOT_SIGN in opening[: MARKER_WINDOW * 2] else None
        if verb:
            verbs.setdefault(headword, verb)
    return verbs


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


# A word's final sound as sandhi before the next word changes it → what it is at the end of a phrase
# (the form the index holds): `mano buddhiH` manaH, `sa kOnteyaH` saH, `agnir jyotiH` agniH,
# `vartanta iti` vartante, `balavad dfQam` balavat, `yajYaM` yajYam.
PAUSA = [
    ("M", ("m",)), ("o", ("aH",)), ("r", ("H",)), ("A", ("AH",)), ("a", ("aH", "e")),
    ("d", ("t",)), ("g", ("k",)), ("q", ("w",)), ("b", ("p",)), ("S", ("H",)), ("s", ("H",)),
]  # fmt: skip


# Finals that end a phrase only rarely (`o`: the vocative guro; `r`: punar; `M` never): their readings
# are tried beside the word as written; the others only when the word as written is no form.
ALWAYS_PAUSA = ("M", "o", "r")


def pausa_readings(word: str) -> list[str]:
    """The forms an SLP1 `word` may stand for before the sandhi of its final sound, most likely first."""
    for final, endings in PAUSA:
        if word.endswith(final) and len(word) > 1:
            return [word[: -len(final)] + ending for ending in endings]
    return []


# -- generating -------------------------------------------------------------------------------------


class Generator:
    def __init__(self, roots: Iterable[Root] = ()) -> None:
        self._vyakarana = Vyakarana(log_steps=False)
        self._roots_named: dict[str, list[Dhatu]] = {}  # a root's name (`gam`) → its Dhātupāṭha entries
        for root in roots:
            dhatu, name = self._named(root)
            if dhatu:
                self._roots_named.setdefault(name, []).append(dhatu)

    @staticmethod
    def _dhatu(root: Root) -> Dhatu | None:
        try:
            return Dhatu.mula(root.aupadeshika, root.gana)
        except ValueError:
            return None

    def _texts(self, pada: Pada | Dhatu | Pratipadika) -> list[str]:
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
        yield from self._declined(pratipadika, stem, genders)
        if stem in PRONOUNS:
            for form, _, grammar in (e for e in ENCLITICS if e[1] == stem):
                yield Form(form, stem, f"{grammar}, enclitic", NOUN)

    def _declined(self, pratipadika: Pratipadika, stem: str, genders: str) -> Iterator[Form]:
        for gender in genders:
            for case, case_name in CASES:
                for number, number_name in NUMBERS:
                    pada = Pada.Subanta(pratipadika, GENDERS[gender], case, number)
                    for text in self._texts(pada):
                        yield Form(text, stem, f"{case_name} {number_name} ({gender}.)", NOUN)

    def verb(self, root: Root) -> Iterator[Form]:
        dhatu, lemma = self._named(root)
        if dhatu:
            yield from self._conjugated(dhatu, lemma, TENSES, "")
            yield from self._participle(Pratipadika.krdanta(dhatu, Krt.kta), lemma, "past participle")

    def derived(self, root: Root) -> Iterator[Form]:
        """The present participles and the causative of `root`."""
        dhatu, lemma = self._named(root)
        if not dhatu:
            return
        for krt in PARTICIPLES:
            yield from self._participle(Pratipadika.krdanta(dhatu, krt), lemma, "present participle")
        causative = dhatu.with_sanadi([Sanadi.Ric])
        yield from self._conjugated(causative, lemma, CAUSATIVE_TENSES, "causative ")
        participle = Pratipadika.krdanta(causative, Krt.Satf)
        yield from self._participle(participle, lemma, "causative present participle")

    def _named(self, root: Root) -> tuple[Dhatu | None, str]:
        dhatu = self._dhatu(root)
        names = self._texts(dhatu) if dhatu else []
        return (dhatu, names[0]) if names else (None, "")

    def root_name(self, root: Root) -> str:
        return self._named(root)[1]

    def has_root(self, name: str) -> bool:
        return name in self._roots_named

    def prefixed(self, verb: PrefixedVerb) -> Iterator[Form]:
        """The forms of a verb with prefixes, under the dictionary's headword; only when what vidyut
        derives from those prefixes and a root of that name begins with the headword: its name
        (`praRaS`), gerund (`pretya` for `pre`) or infinitive (`prahantum` for `prahan`); a noun
        citing its root (MW `praBAva`, "[√ bhū]") is not a verb."""
        for dhatu in self._roots_named.get(verb.root, []):
            prefixed = dhatu.with_prefixes(list(verb.prefixes))
            spellings = self._texts(prefixed) + [
                text
                for krt in (Krt.ktvA, Krt.tumun)
                for text in self._texts(Pada.make_avyaya(Pratipadika.krdanta(prefixed, krt)))
            ]
            if any(spelling.startswith(verb.headword) for spelling in spellings):
                yield from self._conjugated(prefixed, verb.headword, TENSES, "")
                return

    def _conjugated(
        self, dhatu: Dhatu, lemma: str, tenses: list[tuple[Prayoga, Lakara, str]], voice: str
    ) -> Iterator[Form]:
        for prayoga, lakara, tense in tenses:
            for person, person_name in PERSONS:
                for number, number_name in NUMBERS:
                    pada = Pada.Tinanta(dhatu, prayoga, lakara, person, number)
                    for text in self._texts(pada):
                        yield Form(text, lemma, f"{voice}{tense} {person_name} {number_name}", VERB)
        for krt, name in ((Krt.ktvA, "gerund"), (Krt.tumun, "infinitive")):
            for text in self._texts(Pada.make_avyaya(Pratipadika.krdanta(dhatu, krt))):
                yield Form(text, lemma, f"{voice}{name}", VERB)

    def _participle(self, participle: Pratipadika, lemma: str, name: str) -> Iterator[Form]:
        """Declined as a kṛdanta (gacCat → gacCantaH); the grammar names no stem, so that the grammars
        stay a few hundred strings for millions of forms."""
        for stem in self._texts(participle)[:1]:
            for form in self._declined(participle, stem, "mfn"):
                yield Form(form.form, lemma, f"{name}, {form.grammar}", VERB)


def generate(
    stems: dict[str, str],
    roots: list[Root],
    progress: Progress | None = None,
    batch: int = 500,
    prefixed: Iterable[PrefixedVerb] = (),
    derived: Iterable[Root] = (),
    generator: Generator | None = None,
) -> Iterator[list[Form]]:
    """Forms in batches, one batch per `batch` stems or roots; `progress(done, total)` after each.
    The verbs with prefixes are made of the roots `generator` was given."""
    generator = generator or Generator()
    jobs: list[Callable[[], Iterator[Form]]] = [
        *(partial(generator.noun, stem, genders) for stem, genders in stems.items()),
        *(partial(generator.verb, root) for root in roots),
        *(partial(generator.prefixed, verb) for verb in prefixed),
        *(partial(generator.derived, root) for root in derived),
    ]
    forms: list[Form] = []
    for done, job in enumerate(jobs, start=1):
        work.check("generating inflected forms")
        forms.extend(job())
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
    derived: int  # roots whose participles and causative were generated
    prefixed: int  # verbs with prefixes the dictionaries list
    forms: int  # added this time
    total_forms: int
    seconds: float


def build_form_index(
    store: SanskritStore, dhatupatha: Path | None = None, progress: Progress | None = None
) -> FormIndexBuilt:
    """Add the forms of every stem of the installed dictionaries not generated yet, and, given the
    Dhātupāṭha, of its roots (once), of the participles and causatives of the roots the dictionaries
    list and of the verbs with prefixes they list (those not generated yet): installing another
    dictionary generates only what it brings."""
    started = time.perf_counter()
    done = store.form_lemmas(NOUN)
    found = nominal_stems(store.headword_openings()) | {pronoun: "fmn" for pronoun in PRONOUNS}
    stems = {}
    for stem, genders in found.items():
        missing = "".join(g for g in genders if g not in done.get(stem, ""))
        if missing:
            stems[stem] = missing
    all_roots = read_dhatupatha(dhatupatha) if dhatupatha else []
    roots = all_roots if not store.form_lemmas(VERB) else []  # the roots do not change
    generator = Generator(all_roots)
    headwords = store.headwords()
    derived_done = store.form_lemmas(DERIVED)
    derived = [
        root for root in all_roots if root.code not in derived_done and generator.root_name(root) in headwords
    ]
    prefixed_done = store.form_lemmas(PREFIXED)
    prefixed = [
        verb
        for headword, verb in prefixed_verbs(store.headword_openings()).items()
        if headword not in prefixed_done and generator.has_root(verb.root)
    ]
    lemmas = [
        (stem, NOUN, "".join(sorted(set(genders + done.get(stem, ""))))) for stem, genders in stems.items()
    ]
    lemmas += [(root.code, VERB, "") for root in roots]
    lemmas += [(root.code, DERIVED, "") for root in derived]
    lemmas += [(verb.headword, PREFIXED, "") for verb in prefixed]
    batches = generate(stems, roots, progress, prefixed=prefixed, derived=derived, generator=generator)
    added = store.add_forms(batches, lemmas)
    seconds = round(time.perf_counter() - started, 1)
    return FormIndexBuilt(
        len(stems), len(roots), len(derived), len(prefixed), added, store.form_count(), seconds
    )
