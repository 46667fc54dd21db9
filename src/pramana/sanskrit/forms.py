"""The form index: what a word of a text may be a form of, kept small and built in seconds.

Only what cannot be derived at query time is stored:
- the `lexicon`: every headword of the installed dictionaries with the genders its grammar markers give
  (`m.`, `f.`, `n.`, `mfn.`, `a.`; Apte's cited `DarmaH` is masculine) or `ind.`, and how many articles it
  has (a proxy of how common it is); the built-in indeclinables; the verbal stems (participles,
  gerundives) of the Dhātupāṭha's roots, under their verb. Nominal forms are not stored: a word's
  stem is found by undoing the endings of each class (`paradigms.candidate_stems`) and checked
  against that stem's paradigm, made when asked;
- `verb_forms`: the finite forms of the Dhātupāṭha's roots, generated once by vidyut.prakriya (present,
  imperfect, imperative, optative, future, perfect, aorist, conditional; passive; causative), with the
  gerunds and infinitives. Verbs with preverbs are the bare forms after the preverbs are undone
  (`analysis.preverb_splits`), so every combination is read without being stored.

The lexicon is rebuilt from whatever dictionaries are installed, so the order they were installed in
does not matter; the verb forms depend only on the Dhātupāṭha (shipped: MIT, see data/).
"""

from __future__ import annotations

import csv
import re
import time
import zlib
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from vidyut.prakriya import (
    Antargana,
    Dhatu,
    Gana,
    Krt,
    Lakara,
    Pada,
    Prakriya,
    Pratipadika,
    Prayoga,
    Purusha,
    Sanadi,
    Vacana,
    Vyakarana,
)

from pramana import work
from pramana.errors import SourceError
from pramana.sanskrit.avyaya import INDECLINABLES
from pramana.sanskrit.paradigms import NUMERAL_STEMS, PRONOUN_STEMS
from pramana.sanskrit.stems import cited_stems

if TYPE_CHECKING:
    from pramana.sanskrit.store import SanskritStore

DATA = Path(__file__).with_name("data")
SHIPPED_DHATUPATHA = DATA / "dhatupatha.tsv"
DHATUPATHA_URL = (
    "https://raw.githubusercontent.com/ambuda-org/vidyut/8fb93bb4fb9b362eab4292479cb8a3acf6070cb5/"
    "vidyut-prakriya/data/dhatupatha.tsv"
)
DHATUPATHA_SHA256 = "bb2013ead0ea536dc7f887164c385c703cb0014ccf6e5af35b87e6d3049ba380"  # at that commit
# Bumped when what the index holds changes: a database built by an older version is rebuilt.
INDEX_VERSION = "9"

# nis as it ends before the root: nir (before a vowel or voiced sound), niḥ, niṣ, niś, nis; before r its r is
# dropped and its i lengthened (ro ri, 8.3.14; ḍhralope pūrvasya dīrgho 'ṇaḥ, 6.3.111): nīrabhya, -rabhya
_NIS = re.compile("^(?:ni[HrzSs]|nI(?=r))")

# The Dhātupāṭha's sub-lists that change a root's grammar, by the numbers of the shipped Dhātupāṭha's rows
# (vidyut's own loader finds the same ranges: tests/sanskrit/test_reading_rules.py)
ANTARGANA_RANGES = {("01", 867, 932): Antargana.Ghatadi, ("06", 93, 137): Antargana.Kutadi}

# lexicon.kind
NOMINAL, INDECLINABLE, VERBAL, VERB_LEMMA = 0, 1, 2, 3
PRONOUN, NUMERAL = 4, 5

PERSONS = [(Purusha.Prathama, "3rd"), (Purusha.Madhyama, "2nd"), (Purusha.Uttama, "1st")]
VACANAS = [(Vacana.Eka, "singular"), (Vacana.Dvi, "dual"), (Vacana.Bahu, "plural")]
TENSES = [
    ("present", Prayoga.Kartari, Lakara.Lat), ("imperfect", Prayoga.Kartari, Lakara.Lan),
    ("imperative", Prayoga.Kartari, Lakara.Lot), ("optative", Prayoga.Kartari, Lakara.VidhiLin),
    ("future", Prayoga.Kartari, Lakara.Lrt), ("perfect", Prayoga.Kartari, Lakara.Lit),
    ("aorist", Prayoga.Kartari, Lakara.Lun), ("conditional", Prayoga.Kartari, Lakara.Lrn),
    ("passive present", Prayoga.Karmani, Lakara.Lat), ("passive imperfect", Prayoga.Karmani, Lakara.Lan),
    ("passive imperative", Prayoga.Karmani, Lakara.Lot),
    ("passive optative", Prayoga.Karmani, Lakara.VidhiLin),
]  # fmt: skip
# The periphrastic future (luṭ: bhavitā, kartāsmi): after every other grammar, so that the codes of the
# grammars before it stay what they were.
PERIPHRASTIC_FUTURE = [("periphrastic future", Prayoga.Kartari, Lakara.Lut)]
# The desiderative (san: jigamiṣati, bubhukṣate; its participles bubhukṣita, jigamiṣat): its present only
# (its other tenses are rare, and would take 2 MB more).
DESIDERATIVE_TENSES = [tense for tense in TENSES if tense[0] == "present"]
DESIDERATIVE_PARTICIPLES = ("past participle", "present participle")
CAUSATIVE_TENSES = [tense for tense in TENSES if tense[0] in (
    "present", "imperfect", "imperative", "optative", "future", "passive present"
)]  # fmt: skip
GERUND, GERUND_YA, INFINITIVE = "gerund", "gerund (after a preverb)", "infinitive"
GRAMMARS: list[str] = [
    f"{voice}{tense} {person} {number}"
    for voice in ("", "causative ")
    for tense, _, _ in TENSES
    for _, person in PERSONS
    for _, number in VACANAS
] + [f"{voice}{name}" for voice in ("", "causative ") for name in (GERUND, GERUND_YA, INFINITIVE)]
GRAMMARS += [
    f"{tense} {person} {number}"
    for tense, _, _ in PERIPHRASTIC_FUTURE
    for _, person in PERSONS
    for _, number in VACANAS
]
GRAMMARS += [
    f"desiderative {tense} {person} {number}"
    for tense, _, _ in DESIDERATIVE_TENSES
    for _, person in PERSONS
    for _, number in VACANAS
]
GRAMMAR_CODES = {grammar: code for code, grammar in enumerate(GRAMMARS)}
PARTICIPLES = [
    ("past participle", Krt.kta), ("past active participle", Krt.ktavatu), ("present participle", Krt.Satf),
    ("present participle", Krt.SAnac), ("gerundive", Krt.tavya), ("gerundive", Krt.anIyar),
    ("gerundive", Krt.yat), ("gerundive", Krt.Ryat), ("gerundive", Krt.kyap),
]  # fmt: skip
# after the first ones, so that the codes of those stay what they were
PARTICIPLE_NAMES = [
    *dict.fromkeys(name for name, _ in PARTICIPLES),
    "present passive participle",
    "future participle",
    "perfect participle",
]
GANAS = [
    Gana.Bhvadi, Gana.Adadi, Gana.Juhotyadi, Gana.Divadi, Gana.Svadi, Gana.Tudadi, Gana.Rudhadi,
    Gana.Tanadi, Gana.Kryadi, Gana.Curadi,
]  # fmt: skip
# Grammar markers at the start of an article: `m.`, `f.`, `n.`, `mfn.`, `mf(ā)n.`, `m. f. n.`, `a.`/`adj.`.
_MARKER = re.compile(r"(?<![\w.])(mfn|mf\(\S{1,3}\)n|mf|m|f|n|a|adj)\.(?!\w)")
MARKER_WINDOW = 60  # characters of the gloss where the grammar marker is looked for
_INDECLINABLE = re.compile(r"(?<![\w.])(ind|indecl)\.")
_ROOT_SIGN = "√"
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Root:
    code: str  # gaṇa.number, e.g. 01.0001
    aupadeshika: str  # as the Dhātupāṭha spells it, with accents and markers: `ga\mx~`
    gana: Gana

    @property
    def antargana(self) -> Antargana | None:
        """The sub-list of its gaṇa the root's number falls in, where that sub-list changes its grammar:
        ghaṭādi (01.0867-01.0932: ghaṭādayo mitaḥ, so its causative keeps the root's short vowel, mitāṃ
        hrasvaḥ 6.4.92: prathayati, ghaṭayati, not prāthayati) and kuṭādi (06.0093-06.0137: gāṅkuṭādibhyo
        'ñṇin ṅit, 1.2.1: kuṭitā, not koṭitā). The curādi sub-lists (ākusmīya, āsvadīya, ādhṛṣīya: voice and
        an optional -ay) are not given: they would change the 10th class's lemma and voices."""
        gana, number = self.code.split(".")
        for (its_gana, first, last), antargana in ANTARGANA_RANGES.items():
            if gana == its_gana and first <= int(number) <= last:
                return antargana
        return None


@dataclass(frozen=True)
class LexiconRow:
    stem: str
    kind: int
    lemma: str = ""
    info: int = 0
    genders: str = ""
    weight: int = 0


# -- what the dictionaries say ------------------------------------------------------------------------


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
    first = _MARKER.search(window)
    root = window.find(_ROOT_SIGN)
    if first is None or (0 <= root < first.start()) or _INDECLINABLE.search(window[: first.start()]):
        return ""  # a root's article ("√kṣam"), or an indeclinable's; "f. (√ kan …)" is a noun
    genders: set[str] = set()
    for marker in _MARKER.findall(window):  # all of them: Lanman's "f. devī́, a. heavenly" is mfn
        if marker in ("a", "adj") or (marker.startswith("mf") and marker.endswith("n")):
            marker = "mfn"
        genders.update(marker)
    return "".join(sorted(genders))


def is_indeclinable(opening: str) -> bool:
    return bool(_INDECLINABLE.search(opening[:MARKER_WINDOW]))


def lexicon_of(articles: Iterable[tuple[str, str]]) -> list[LexiconRow]:
    """The headwords of (headword, opening of its article) pairs: every stem once, with the genders of
    all its articles, whether one calls it indeclinable, and its number of articles."""
    genders: dict[str, set[str]] = {}
    weight: Counter[str] = Counter()
    indeclinable: set[str] = set()
    for headword, opening in articles:
        stems = cited_stems(headword) or [headword]
        if headword.endswith(("vant", "mant")) or headword == "mahant":  # Lanman's dhīmant: dhīmat
            stems.append(headword[:-3] + "at")
        found = genders_of(headword, opening)
        for stem in stems:
            genders.setdefault(stem, set()).update(found)
            weight[stem] += 1
        if is_indeclinable(opening):
            indeclinable.add(headword)
    rows = [
        LexiconRow(stem, NOMINAL, genders="".join(sorted(g)), weight=weight[stem])
        for stem, g in genders.items()
    ]
    rows += [
        LexiconRow(stem, INDECLINABLE, weight=weight[stem]) for stem in sorted(indeclinable | INDECLINABLES)
    ]
    rows += [LexiconRow(stem, PRONOUN, weight=weight[stem]) for stem in sorted(PRONOUN_STEMS)]
    rows += [LexiconRow(stem, NUMERAL, weight=weight[stem]) for stem in sorted(NUMERAL_STEMS)]
    return rows


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


# A word's final sound as sandhi before the next word changes it → what it is at the end of a phrase:
# `mano buddhiH` manaH, `sa kOnteyaH` saH, `agnir jyotiH` agniH, `vartanta iti` vartante,
# `balavad dfQam` balavat, `yajYaM` yajYam, `kasmAc ca` kasmAt, `yan mayA` yat, `tAMs tAn` tAn, `AdyAMl loBa-`
# AdyAn (a nasalised l before l, 8.4.60, Whitney §161); an -iH, -uH
# before r: its r dropped, the vowel long (ro ri, 8.3.14; Qhralope pUrvasya dIrGo 'RaH, 6.3.111), `rAjaBI
# rAjamAtrEH` rAjaBiH, `agnI rakzati` agniH.
PAUSA = [
    ("M", ("m",)), ("o", ("aH",)), ("r", ("H",)), ("A", ("AH",)), ("a", ("aH", "e")),
    ("d", ("t",)), ("g", ("k",)), ("q", ("w",)), ("b", ("p",)), ("S", ("H",)), ("s", ("H",)),
    ("z", ("H",)), ("c", ("t",)), ("j", ("t",)), ("l", ("t",)), ("Y", ("n",)), ("n", ("t",)),
    ("N", ("k",)), ("MS", ("n",)), ("Ms", ("n",)), ("Mz", ("n",)), ("Ml", ("n",)), ("Av", ("O",)),
    ("Ay", ("E",)),
    ("y", ("i", "I")), ("v", ("u", "U")), ("nn", ("n",)), ("NN", ("N",)), ("I", ("iH",)), ("U", ("uH",)),
]  # fmt: skip
PAUSA.sort(key=lambda pair: -len(pair[0]))
_PAUSA_BY_LAST: dict[str, list[tuple[str, tuple[str, ...]]]] = {}  # PAUSA by its last letter, in its order
for _final, _endings in PAUSA:
    _PAUSA_BY_LAST.setdefault(_final[-1], []).append((_final, _endings))


@lru_cache(maxsize=65536)
def pausa_readings(word: str) -> tuple[str, ...]:
    """The forms an SLP1 `word` may stand for before the sandhi of its final sound, most likely first."""
    for final, endings in _PAUSA_BY_LAST.get(word[-1:], ()):
        if word.endswith(final) and len(word) > len(final):
            return tuple(word[: -len(final)] + ending for ending in endings)
    return ()


# -- generating the verbs -----------------------------------------------------------------------------


# vā dānta-śānta-pūrṇa-dasta-spaṣṭa-cchanna-jñaptāḥ (Pāṇini 7.2.27): these roots' causatives may make their
# past participle without iṭ and -ay, which vidyut.prakriya does not derive (it makes chādita, not channa);
# under the root, as the DCS lemmatizes channa (chad)
CAUSATIVE_NISHTHA = {"dam": "dAnta", "Sam": "SAnta", "pF": "pUrRa", "das": "dasta", "spaS": "spazwa",
                     "Cad": "Canna", "jYap": "jYapta"}  # fmt: skip


class Generator:
    """The Dhātupāṭha's verb forms and verbal stems, by vidyut.prakriya."""

    def __init__(self) -> None:
        self._vyakarana = Vyakarana(log_steps=False)
        self._nishtha_done: set[str] = set()

    def _texts(self, pada: Pada | Dhatu | Pratipadika) -> list[str]:
        try:
            prakriyas: list[Prakriya] = self._vyakarana.derive(pada)
        except (ValueError, TypeError):
            return []
        return list(dict.fromkeys(p.text for p in prakriyas if p.text))

    def root(self, root: Root) -> tuple[Dhatu | None, str]:
        try:
            dhatu = Dhatu.mula(root.aupadeshika, root.gana, antargana=root.antargana)
        except ValueError:
            return None, ""
        names = self._texts(dhatu)
        return (dhatu, names[0]) if names else (None, "")

    def verb(self, root: Root) -> tuple[list[tuple[str, str, int]], list[LexiconRow]]:
        """(form, lemma, grammar code) of the root's verb forms and its verbal stems; the lemma is the
        root (gam), or for the 10th class the stem in -ay (coray), as the causative's (gamay)."""
        dhatu, name = self.root(root)
        if dhatu is None:
            return [], []
        forms: list[tuple[str, str, int]] = []
        stems: list[LexiconRow] = []
        lemma = self._ay_stem(dhatu) if root.gana == Gana.Curadi else name
        if not lemma:
            return [], []
        voices = [("", dhatu, lemma, TENSES + PERIPHRASTIC_FUTURE)]
        if root.gana != Gana.Curadi:
            causative = dhatu.with_sanadi([Sanadi.Ric])
            causative_lemma = self._ay_stem(causative)
            if causative_lemma:
                voices.append(("causative ", causative, causative_lemma, CAUSATIVE_TENSES))
            desiderative = dhatu.with_sanadi([Sanadi.san])
            desiderative_lemma = self._present_stem(desiderative)
            if desiderative_lemma:
                voices.append(("desiderative ", desiderative, desiderative_lemma, DESIDERATIVE_TENSES))
        if name in CAUSATIVE_NISHTHA and name not in self._nishtha_done:  # channa (chad), 7.2.27
            self._nishtha_done.add(name)
            info = PARTICIPLE_NAMES.index("past participle")
            stems.append(LexiconRow(CAUSATIVE_NISHTHA[name], VERBAL, name, info, "mfn"))
        for voice, verb, verb_lemma, tenses in voices:
            stems.append(LexiconRow(verb_lemma, VERB_LEMMA, lemma=name))
            forms += self._conjugated(verb, verb_lemma, voice, tenses)
            if not voice:
                forms += epic_imperatives(forms, verb_lemma)
            stems += self._verbal_stems(
                verb, verb_lemma, forms, DESIDERATIVE_PARTICIPLES if voice == "desiderative " else None
            )
            if not voice:
                stems += self._perfect_participles(verb, verb_lemma, forms)
            if voice == "causative " or (not voice and root.gana == Gana.Curadi):
                forms, stems = self._own_ay_stems(verb, verb_lemma, name, forms, stems)
        return forms, stems

    def _own_ay_stems(
        self, dhatu: Dhatu, lemma: str, name: str, forms: list[tuple[str, str, int]], stems: list[LexiconRow]
    ) -> tuple[list[tuple[str, str, int]], list[LexiconRow]]:
        """A verb in -ay with two stems (an optional rule, or two senses: ruh's rohay and ropay, 7.3.43;
        duṣ's dūṣay and doṣay, 6.4.90-91; rañj's rañjay and rajay, 6.4.24 vārttika): each form and verbal
        stem under the stem it is made on (rohayati, rohita: rohay), not all under the first."""
        alternatives = self._ay_stems(dhatu)
        if len(alternatives) < 2:
            return forms, stems
        forms = [
            (text, own_ay_stem(text, alternatives) if its == lemma else its, code)
            for text, its, code in forms
        ]
        stems = [
            replace(row, lemma=own_ay_stem(row.stem, alternatives))
            if row.kind == VERBAL and row.lemma == lemma
            else row
            for row in stems
        ]
        stems += [LexiconRow(stem, VERB_LEMMA, lemma=name) for stem in alternatives if stem != lemma]
        return forms, stems

    def _present_stem(self, dhatu: Dhatu) -> str:
        """A derived verb's present stem without its a (jigamiṣati → jigamiṣ, bubhukṣate → bubhukṣ), the
        DCS's lemma of such verbs."""
        pada = Pada.Tinanta(dhatu, Prayoga.Kartari, Lakara.Lat, Purusha.Prathama, Vacana.Eka)
        for text in self._texts(pada):
            if text.endswith(("ati", "ate")):
                return text[:-3]
        return ""

    def _ay_stem(self, dhatu: Dhatu) -> str:
        """The present stem in -ay without its a (corayati → coray), the DCS's lemma of such verbs."""
        stems = self._ay_stems(dhatu)
        return stems[0] if stems else ""

    def _ay_stems(self, dhatu: Dhatu) -> list[str]:
        """Every present stem in -ay of a verb (rohay, ropay of ruh's causative), the grammar's order."""
        pada = Pada.Tinanta(dhatu, Prayoga.Kartari, Lakara.Lat, Purusha.Prathama, Vacana.Eka)
        texts = self._texts(pada)
        return list(dict.fromkeys(text[:-3] for text in texts if text.endswith(("ayati", "ayate"))))

    def _conjugated(
        self, dhatu: Dhatu, lemma: str, voice: str, tenses: list[tuple[str, Prayoga, Lakara]]
    ) -> list[tuple[str, str, int]]:
        forms = []
        for tense, prayoga, lakara in tenses:
            for person, person_name in PERSONS:
                for number, number_name in VACANAS:
                    code = GRAMMAR_CODES[f"{voice}{tense} {person_name} {number_name}"]
                    pada = Pada.Tinanta(dhatu, prayoga, lakara, person, number)
                    forms += [(text, lemma, code) for text in self._texts(pada)]
        if voice + GERUND not in GRAMMAR_CODES:  # the desiderative's: finite forms only
            return forms
        for krt, name in ((Krt.ktvA, GERUND), (Krt.tumun, INFINITIVE)):
            for text in self._texts(Pada.make_avyaya(Pratipadika.krdanta(dhatu, krt))):
                forms.append((text, lemma, GRAMMAR_CODES[voice + name]))
        forms += [(text, lemma, GRAMMAR_CODES[voice + GERUND_YA]) for text in self._gerunds_ya(dhatu)]
        return forms

    def _gerunds_ya(self, dhatu: Dhatu) -> list[str]:
        """The gerund a preverb takes (-gamya, -gatya, -kṛtya), without the preverb: derived after
        nis (nir-itya, nī-rabhya: _NIS), which leaves the root's first sound as it is, and taken off again."""
        prefixed = dhatu.with_prefixes(["nis"])
        texts = self._texts(Pada.make_avyaya(Pratipadika.krdanta(prefixed, Krt.ktvA)))
        return [_NIS.sub("", text) for text in texts if _NIS.match(text)]

    def _perfect_participles(
        self, dhatu: Dhatu, lemma: str, forms: list[tuple[str, str, int]]
    ) -> list[LexiconRow]:
        """kvasu where the perfect is active (cakāra: cakṛvas), kānac where it is middle (cakre: cakrāṇa):
        they stand for the perfect's endings of that voice (3.2.106-107), so a root conjugated in one
        voice only has one of them (āp has no āpāna, which is a noun of its own)."""
        perfect = GRAMMAR_CODES["perfect 3rd singular"]
        voices = {"e" if form.endswith("e") else "a" for form, _, code in forms if code == perfect}
        info = PARTICIPLE_NAMES.index("perfect participle")
        return [
            LexiconRow(text, VERBAL, lemma, info, "mfn")
            for voice, krt in (("a", Krt.kvasu), ("e", Krt.kAnac))
            if voice in voices
            for text in self._texts(Pratipadika.krdanta(dhatu, krt))
        ]

    def _verbal_stems(
        self,
        dhatu: Dhatu,
        lemma: str,
        forms: list[tuple[str, str, int]],
        names: tuple[str, ...] | None = None,
    ) -> list[LexiconRow]:
        stems = []
        for name, krt in PARTICIPLES:
            if names is not None and name not in names:
                continue
            for text in self._texts(Pratipadika.krdanta(dhatu, krt)):
                stems.append(LexiconRow(text, VERBAL, lemma, PARTICIPLE_NAMES.index(name), "mfn"))
        participles = {row.stem for row in stems}
        for form, form_lemma, code in forms:
            if form_lemma != lemma:
                continue
            if code in _PASSIVE_PRESENT and form.endswith("te"):  # kriyate → kriyamāṇa
                info = PARTICIPLE_NAMES.index("present passive participle")
                stems.append(LexiconRow(retroflex_n(form[:-2] + "mAna"), VERBAL, lemma, info, "mfn"))
            elif code in _FUTURE and names is None:  # kariṣyati → kariṣyat
                info = PARTICIPLE_NAMES.index("future participle")
                stems += [LexiconRow(stem, VERBAL, lemma, info, "mfn") for stem in future_participles(form)]
            elif code in _PRESENT and names is None and _active_thematic(form, lemma, participles):
                middle = epic_middle_participle(form)  # bhramati → bhramamāṇa
                if middle not in participles:
                    info = PARTICIPLE_NAMES.index("present participle")
                    stems.append(LexiconRow(middle, VERBAL, lemma, info, "mfn"))
        return list(dict.fromkeys(stems))


# the 3rd singulars the participles are made from (of the verb and of its causative)
def own_ay_stem(text: str, stems: list[str]) -> str:
    """Of a verb's stems in -ay, the one `text` is made on: the longest whose letters before -ay begin it,
    after the augment too (rohayati, arohayat, rohita: rohay; ropita: ropay); the first when none does."""
    best, length = stems[0], 0
    for stem in stems:
        base = stem[:-2]
        for start in (text, text[1:] if text.startswith("a") else ""):
            if start.startswith(base) and len(base) > length:
                best, length = stem, len(base)
    return best


def _third_singulars(tense: str) -> frozenset[int]:
    return frozenset(GRAMMAR_CODES[f"{voice}{tense} 3rd singular"] for voice in ("", "causative "))


_PASSIVE_PRESENT, _FUTURE, _PRESENT = map(_third_singulars, ("passive present", "future", "present"))


def _active_thematic(present: str, lemma: str, participles: set[str]) -> bool:
    """Whether `present` is a thematic active present whose -at participle is the verb's (bhramati:
    bhramat), not a 10th-class verb's present without -ay (vartati of vartay, whose vartamāna is vṛt's)."""
    if lemma.endswith("ay") and not present.endswith("ayati"):
        return False
    return present.endswith("ati") and present[:-1] in participles


_IMPERATIVE_3SG = GRAMMAR_CODES["imperative 3rd singular"]
_IMPERATIVE_2SG = GRAMMAR_CODES["imperative 2nd singular"]


def epic_imperatives(forms: list[tuple[str, str, int]], lemma: str) -> list[tuple[str, str, int]]:
    """The epics' 2nd singular imperative with the ī a root inserts before its strong endings (brūva īṭ,
    7.3.93; tu-ru-stu-śamy-amaḥ, 7.3.95): bravīhi beside the grammar's brūhi (Whitney, Roots: brū,
    "bravīhi E."), made from the 3rd singular (bravītu → bravīhi), hi being no strong ending (3.4.87)."""
    return [
        (text[:-2] + "hi", lemma, _IMPERATIVE_2SG)
        for text, its_lemma, code in forms
        if code == _IMPERATIVE_3SG and its_lemma == lemma and text.endswith("Itu")
    ]


def future_participles(future: str) -> list[str]:
    """The future participle of a future's 3rd singular (lṛṭaḥ sad vā, Pāṇini 3.3.14; Whitney §939-940):
    the active's -syat (bhaviṣyati → bhaviṣyat, hārayiṣyati → hārayiṣyat), the middle's -syamāna
    (kariṣyate → kariṣyamāṇa, with ṇatva)."""
    if future.endswith("yati"):
        return [future[:-1]]
    if future.endswith("yate"):
        return [retroflex_n(future[:-2] + "mAna")]
    return []


def epic_middle_participle(present: str) -> str:
    """The middle participle in -amāna the epics make of a thematic verb the grammar conjugates in the
    active only (bhramati → bhramamāṇa, like their pratipatsyāmi for -patsye: the other voice; Whitney
    §1011 on the epic's voice): the present stem + māna, with ṇatva (8.4.2)."""
    return retroflex_n(present[:-2] + "mAna")


# Between r, ṛ, ṝ or ṣ and an n, these leave the n to become ṇ (Pāṇini 8.4.2: a vowel, h, y, v, r, a guttural,
# a labial, anusvāra); any other sound stops it.
_NATVA_TRIGGERS = frozenset("rfFz")
_NATVA_TRANSPARENT = frozenset("aAiIuUfFxXeEoOhyvrkKgGNpPbBmM")


def retroflex_n(stem: str) -> str:
    """The stem with its last n made ṇ when an r, ṛ, ṝ or ṣ before it calls for it (8.4.1-2): kriyamāna →
    kriyamāṇa, śrūyamāna → śrūyamāṇa, kṛṣyamāna → kṛṣyamāṇa; dṛśyamāna stays."""
    at = stem.rfind("n")
    if at <= 0 or at == len(stem) - 1:
        return stem
    for letter in reversed(stem[:at]):
        if letter in _NATVA_TRIGGERS:
            return stem[:at] + "R" + stem[at + 1 :]
        if letter not in _NATVA_TRANSPARENT:
            return stem
    return stem


def generate_verbs(
    roots: list[Root], progress: Progress | None = None
) -> Iterator[tuple[list[tuple[str, str, int]], list[LexiconRow]]]:
    generator = Generator()
    for done, root in enumerate(roots, start=1):
        work.check("generating verb forms")
        yield generator.verb(root)
        if progress and (done % 50 == 0 or done == len(roots)):
            progress(done, len(roots))


# -- the index ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class FormIndexBuilt:
    stems: int  # lexicon rows from the dictionaries and the built-in lists
    roots: int  # Dhātupāṭha roots whose verbs were generated this time (0: kept from before)
    verb_forms: int
    verbal_stems: int
    seconds: float
    megabytes: float  # what the form index takes in the database


def build_form_index(
    store: SanskritStore, dhatupatha: Path | None = None, progress: Progress | None = None
) -> FormIndexBuilt:
    """Rebuild the lexicon from the installed dictionaries and, when the Dhātupāṭha or this code
    changed (or never ran), the verb forms."""
    started = time.perf_counter()
    dhatupatha = dhatupatha or SHIPPED_DHATUPATHA
    roots = read_dhatupatha(dhatupatha)
    verbs_key = f"{INDEX_VERSION}:{len(roots)}:{roots[0].aupadeshika}:{roots[-1].aupadeshika}"
    lexicon = lexicon_of(store.headword_openings())
    generated = 0
    if store.form_state("verbs") != verbs_key:
        batches = generate_verbs(roots, progress)
        generated = store.replace_verbs(batches, verbs_key)
    store.replace_lexicon(lexicon, INDEX_VERSION)
    from pramana.sanskrit.analysis import known_tables, prefix_table, prefix_words

    stems, stem_bits, stem_weights, verbs = known_tables(store)
    prefixes = zlib.compress(prefix_table(prefix_words(store)), 9)
    store.replace_form_blobs(
        {"stems": stems.tobytes(), "stem_bits": stem_bits.tobytes(), "stem_weights": stem_weights.tobytes(),
         "verbs": verbs.tobytes(), "prefixes": prefixes}
    )  # fmt: skip
    store.settle()
    store.compact()
    counts = store.form_counts()
    return FormIndexBuilt(
        stems=len(lexicon),
        roots=len(roots) if generated else 0,
        verb_forms=counts["verb_forms"],
        verbal_stems=counts["verbal"],
        seconds=round(time.perf_counter() - started, 1),
        megabytes=round(store.form_index_bytes() / 1e6, 1),
    )
