# ruff: noqa: E501 (the tables are one case a line, as the grammars print them)
"""Nominal paradigms (SLP1), written from the grammars' tables (Whitney, Kale, Macdonell), and their
inversion: which stems a form may be a case of.

Nothing here is stored: a stem's paradigm is made when a word is analysed (`decline`, cached), and
`candidate_stems` undoes the endings of every class to find the stems to look up. The stem classes:
a (deva, phala; the pronominal sarva, anya), ā (senā; sarvā), i, u (m, f, n), ī and ū (nadī, vadhū;
the root nouns dhī, śrī, bhū), ṛ (agent kartṛ, kin pitṛ, mātṛ), the diphthong stems (go, nau, rai),
consonant stems (marut, vāc, diś), -at (participles; mahat), -vat/-mat, -an (rājan, ātman, nāman),
-in, -as, -is/-us, the comparatives in -yas, the perfect participles in -vas, the irregular nouns
(pati, sakhi, strī, nṛ, ap, puṃs, pathin, ahan, śvan, yuvan, maghavan), the pronouns and the numerals.
An adjective's feminine is made from its stem (kānta → kāntā, balavat → balavatī, balin → balinī,
kartṛ → kartrī, garīyas → garīyasī).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import lru_cache

CASES = ("nominative", "accusative", "instrumental", "dative", "ablative", "genitive", "locative", "vocative")
NUMBERS = ("singular", "dual", "plural")
Slot = tuple[int, int]  # (case, number) indexes into CASES, NUMBERS
Table = dict[Slot, tuple[str, ...]]
VOWELS = frozenset("aAiIuUfFxXeEoO")
LONG = {"a": "A", "i": "I", "u": "U", "f": "F"}


@lru_cache(maxsize=256)
def _endings(endings: str) -> tuple[tuple[Slot, tuple[str, ...]], ...]:
    rows = [row.split() for row in endings.split("|")]
    return tuple(
        ((case, number), tuple(ending.replace("-", "") for ending in cell.split("/")))
        for case, row in enumerate(rows)
        for number, cell in enumerate(row)
    )


def _table(base: str, endings: str) -> Table:
    """'aH O AH | am O An | …' (8 cases of 3 numbers, '/' between variants) on `base`."""
    return {slot: tuple(base + ending for ending in cell) for slot, cell in _endings(endings)}


def _with(table: Table, changes: Table) -> Table:
    return {**table, **changes}


# -- vowel stems: the endings after the stem's final vowel is taken off ----------------------------------

A_M = "aH O AH | am O An | ena AByAm EH | Aya AByAm eByaH | At AByAm eByaH | asya ayoH AnAm | e ayoH ezu | a O AH"
A_N = "am e Ani | am e Ani | ena AByAm EH | Aya AByAm eByaH | At AByAm eByaH | asya ayoH AnAm | e ayoH ezu | a e Ani"
PRON_M = (
    "aH O e | am O An | ena AByAm EH | asmE AByAm eByaH | asmAt AByAm eByaH | asya ayoH ezAm | asmin ayoH ezu"
    " | a O e"
)
PRON_N = (
    "am e Ani | am e Ani | ena AByAm EH | asmE AByAm eByaH | asmAt AByAm eByaH | asya ayoH ezAm"
    " | asmin ayoH ezu | a e Ani"
)
AA_F = "A e AH | Am e AH | ayA AByAm ABiH | AyE AByAm AByaH | AyAH AByAm AByaH | AyAH ayoH AnAm | AyAm ayoH Asu | e e AH"
PRON_F = (
    "A e AH | Am e AH | ayA AByAm ABiH | asyE AByAm AByaH | asyAH AByAm AByaH | asyAH ayoH AsAm | asyAm ayoH Asu"
    " | e e AH"
)
I_M = "iH I ayaH | im I In | inA iByAm iBiH | aye iByAm iByaH | eH iByAm iByaH | eH yoH InAm | O yoH izu | e I ayaH"
I_F = (
    "iH I ayaH | im I IH | yA iByAm iBiH | aye/yE iByAm iByaH | eH/yAH iByAm iByaH | eH/yAH yoH InAm"
    " | O/yAm yoH izu | e I ayaH"
)
I_N = "i inI Ini | i inI Ini | inA iByAm iBiH | ine iByAm iByaH | inaH iByAm iByaH | inaH inoH InAm | ini inoH izu | i/e inI Ini"
U_M = "uH U avaH | um U Un | unA uByAm uBiH | ave uByAm uByaH | oH uByAm uByaH | oH voH UnAm | O voH uzu | o U avaH"
U_F = (
    "uH U avaH | um U UH | vA uByAm uBiH | ave/vE uByAm uByaH | oH/vAH uByAm uByaH | oH/vAH voH UnAm"
    " | O/vAm voH uzu | o U avaH"
)
U_N = "u unI Uni | u unI Uni | unA uByAm uBiH | une uByAm uByaH | unaH uByAm uByaH | unaH unoH UnAm | uni unoH uzu | u/o unI Uni"
II_F = "I yO yaH | Im yO IH | yA IByAm IBiH | yE IByAm IByaH | yAH IByAm IByaH | yAH yoH InAm | yAm yoH Izu | i yO yaH"
II_ROOT = (
    "IH iyO iyaH | iyam iyO iyaH | iyA IByAm IBiH | iye/iyE IByAm IByaH | iyaH/iyAH IByAm IByaH"
    " | iyaH/iyAH iyoH iyAm/InAm | iyi/iyAm iyoH Izu | IH iyO iyaH"
)
UU_F = "UH vO vaH | Um vO UH | vA UByAm UBiH | vE UByAm UByaH | vAH UByAm UByaH | vAH voH UnAm | vAm voH Uzu | u vO vaH"
UU_ROOT = (
    "UH uvO uvaH | uvam uvO uvaH | uvA UByAm UBiH | uve/uvE UByAm UByaH | uvaH/uvAH UByAm UByaH"
    " | uvaH/uvAH uvoH uvAm/UnAm | uvi/uvAm uvoH Uzu | UH uvO uvaH"
)
F_AGENT = "A ArO AraH | Aram ArO Fn | rA fByAm fBiH | re fByAm fByaH | uH fByAm fByaH | uH roH FnAm | ari roH fzu | aH ArO AraH"
F_KIN = "A arO araH | aram arO Fn | rA fByAm fBiH | re fByAm fByaH | uH fByAm fByaH | uH roH FnAm | ari roH fzu | aH arO araH"
F_N = (
    "f fnI Fni | f fnI Fni | fnA/rA fByAm fBiH | fne/re fByAm fByaH | fnaH/uH fByAm fByaH"
    " | fnaH/uH fnoH/roH FnAm | fni/ari fnoH/roH fzu | f/aH fnI Fni"
)
KIN = frozenset({"pitf", "mAtf", "BrAtf", "duhitf", "jAmAtf", "devf", "nanAndf", "yAtf"})
# The feminines in -ṛ that take no -ī (na ṣaṭsvasrādibhyaḥ, Pāṇini 4.1.10: svasṛ, duhitṛ, nanāndṛ, yātṛ, mātṛ;
# tisṛ and catasṛ are the numerals'); any other -ṛ stem's feminine is in -rī (ṛnnebhyo ṅīp, 4.1.5; Whitney §376:
# kartṛ, f. kartrī; dātṛ, f. dātrī), an agent noun's feminine not declined like svasṛ.
SVASRADI = frozenset({"svasf", "duhitf", "nanAndf", "yAtf", "mAtf", "tisf", "catasf"})
# Pronominal a-stems (sarvādi): sarvasmai, sarvasmāt, sarvasmin, sarve, sarveṣām; those of the second
# list have -at in the neuter nominative (anyat).
SARVADI = frozenset(
    [
        "sarva",
        "viSva",
        "uBaya",
        "katara",
        "katama",
        "itara",
        "anya",
        "anyatara",
        "ekatara",
        "yatara",
        "tatara",
        "yatama",
        "tatama",
        "eka",
        "tva",
        "nema",
        "sama",
        "sima",
        "pUrva",
        "para",
        "avara",
        "dakziRa",
        "uttara",
        "apara",
        "aDara",
        "sva",
        "antara",
    ]
)
NEUTER_AT = frozenset(
    {"anya", "anyatara", "itara", "katara", "katama", "ekatara", "yatara", "yatama", "tatara"}
)
# ī-stems whose nominative keeps -s (lakṣmīḥ); monosyllabic ī/ū root nouns.
II_NOMINATIVE_S = frozenset({"lakzmI", "tarI", "tantrI", "avI", "starI", "hrI", "DI", "SrI", "BI"})


# -- consonant stems ---------------------------------------------------------------------------------


def _pausa(stem: str) -> list[str]:
    """How a consonant stem ends at the end of a word (nominative singular): one consonant, voiceless."""
    while len(stem) > 1 and stem[-1] not in VOWELS and stem[-2] not in VOWELS and stem[-2] != "r":
        stem = stem[:-1]  # one consonant of a final cluster stays (ūrj keeps its r: ūrk)
    base, last = stem[:-1], stem[-1]
    if last in "kKgGc":
        return [base + "k"]
    if last == "j":  # vāc-like (sṛj → sṛk) or rāj-like (rāj → rāṭ)
        return [base + "k", base + "w"]
    if last == "S":
        return [base + "k"] if base.endswith(("di", "dF", "df", "spf")) else [base + "w", base + "k"]
    if last in "zwWqQ":
        return [base + "w"]
    if last == "h":
        return [base + "w", base + "k"]
    if last in "tTdD":
        return [base + "t"]
    if last in "pPbB":
        return [base + "p"]
    if last == "s":
        return [base + "H"]
    if last == "r":  # gir → gīḥ, pur → pūḥ
        return [base[:-1] + LONG.get(base[-1:], base[-1:]) + "H"] if base else ["H"]
    if last == "m":
        return [base + "n"]
    return [stem]


_VOICED = {"k": "g", "w": "q", "t": "d", "p": "b"}


def _middle(pausa: str) -> tuple[str, str]:
    """(stem before -bhis/-bhyām, stem before -su) of a word ending as `pausa`."""
    last = pausa[-1]
    if last == "H":  # gīḥ → gīr-bhiḥ, gīr-ṣu
        return pausa[:-1] + "r", pausa[:-1] + "r"
    return pausa[:-1] + _VOICED.get(last, last), pausa


def _su(middle: str) -> str:
    """-su after a stem: ṣ after k, r and i/u (vākṣu, gīrṣu)."""
    return middle + ("zu" if middle[-1:] in "kriuIUfeEoO" else "su")


def _consonant(
    gender: str, strong: str, weak: str, bh: str, su: list[str], nom: list[str], voc: list[str],
    neuter: list[str] | None = None, neuter_dual: list[str] | None = None, neuter_plural: list[str] | None = None,
) -> Table:  # fmt: skip
    """A consonant stem's table from its stems: strong (nom./acc. sg. du., nom. pl. of m./f.),
    weak (before the other vowel endings), middle (before -bh-, -su)."""
    table: Table = {
        (0, 0): tuple(nom), (0, 1): (strong + "O",), (0, 2): (strong + "aH",),
        (1, 0): (strong + "am",), (1, 1): (strong + "O",), (1, 2): (weak + "aH",),
        (2, 0): (weak + "A",), (2, 1): (bh + "ByAm",), (2, 2): (bh + "BiH",),
        (3, 0): (weak + "e",), (3, 1): (bh + "ByAm",), (3, 2): (bh + "ByaH",),
        (4, 0): (weak + "aH",), (4, 1): (bh + "ByAm",), (4, 2): (bh + "ByaH",),
        (5, 0): (weak + "aH",), (5, 1): (weak + "oH",), (5, 2): (weak + "Am",),
        (6, 0): (weak + "i",), (6, 1): (weak + "oH",), (6, 2): tuple(su),
        (7, 0): tuple(voc), (7, 1): (strong + "O",), (7, 2): (strong + "aH",),
    }  # fmt: skip
    if gender == "n":
        singular = tuple(neuter or nom)
        dual = tuple(neuter_dual or [weak + "I"])
        plural = tuple(neuter_plural or [strong + "i"])
        for case in (0, 1, 7):
            table[case, 0], table[case, 1], table[case, 2] = singular, dual, plural
    return table


def _simple_consonant(stem: str, gender: str) -> Table:
    """marut, vāc, diś, suhṛd, gir: one stem, its final changed at the end and before -bh-, -su."""
    pausa = _pausa(stem)
    bh, su_stem = _middle(pausa[0])
    if stem[-1] == "r":
        bh = su_stem = pausa[0][:-1] + "r"
    plural = [stem[:-1] + "M" + stem[-1] + "i"] if stem[-1] in "sSz" else [stem + "i"]
    # n. pl. of a stem in a stop takes a nasal before it (-nti, -nci is rare): jagat → jaganti
    if stem[-1] in "tdD":
        plural = [stem[:-1] + "n" + stem[-1] + "i", stem + "i"]
    return _consonant(gender, stem, stem, bh, [_su(su_stem)], pausa, pausa, neuter_plural=plural)


# present participles of three letters: as's sat (san, santam), i's yat (yan, yantam), and those of the
# 2nd-class roots in ā (yāt: yān, yāntam; bhāt, vāt, pāt), which are otherwise declined as root nouns
SHORT_PARTICIPLES = frozenset({"sat", "yat"})


def _participle_at(stem: str, gender: str) -> Table:
    """gacchat (gacchan, gacchantam; n. gacchat, gacchantī/gacchatī, gacchanti), and the reduplicated
    ones without the nasal (dadat)."""
    base = stem[:-1]  # gacchat → gacchan-, yāt → yān-
    strong = base + "nt"
    table = _consonant(
        gender, strong, stem, base + "d", [base + "tsu"], [base + "n", stem], [base + "n", stem],
        neuter=[stem], neuter_dual=[stem + "I", strong + "I"], neuter_plural=[strong + "i", stem + "i"],
    )  # fmt: skip
    if gender != "n" and _reduplicated(stem):  # dadat: the strong cases without the nasal too
        for slot in ((0, 1), (0, 2), (1, 0), (1, 1), (7, 1), (7, 2)):
            table[slot] += tuple(form.replace(strong, stem, 1) for form in table[slot])
    return table


# a reduplication's consonant for a root's first consonant (Whitney §590: an aspirate by its unaspirated
# sound, a guttural or h by its palatal)
_REDUPLICATED_AS = {"k": "c", "K": "c", "g": "j", "G": "j", "h": "j", "C": "c", "J": "j", "W": "w", "Q": "q",
                    "T": "t", "D": "d", "P": "p", "B": "b"}  # fmt: skip


def _reduplicated(stem: str) -> bool:
    """Whether a participle's stem begins with a reduplication (dadat, juhvat, bibhrat, jāgrat): only
    those keep their strong cases without the nasal (dadatam; Whitney §444), not gacchat or bhavat."""
    if len(stem) < 5 or stem[0] in VOWELS or stem[1] not in VOWELS or stem[2] in VOWELS:
        return False
    return _REDUPLICATED_AS.get(stem[2], stem[2]) == stem[0]


def _possessive(stem: str, gender: str) -> Table:
    """-vat/-mat (bhagavān, bhagavantam, bhagavatā, bhagavadbhiḥ, voc. bhagavan) and mahat."""
    base = stem[:-2]
    strong = base + ("Ant" if stem == "mahat" else "ant")
    nom = base + "An"
    return _consonant(
        gender, strong, stem, base + "ad", [base + "atsu"], [nom], [base + "an"],
        neuter=[stem], neuter_dual=[stem + "I"], neuter_plural=[base + "anti"],
    )  # fmt: skip


def _an(stem: str, gender: str) -> Table:
    """rājan (rājñā), ātman (ātmanā: m/v after a consonant keeps the a), nāman, karman; loc. -ani/-ni."""
    base = stem[:-2]
    keeps_a = len(base) >= 2 and base[-1] in "mv" and base[-2] not in VOWELS
    weak = base + ("an" if keeps_a else ("Y" if base.endswith(("j", "c")) else "n"))
    table = _consonant(
        gender, base + "An", weak, base + "a", [base + "asu"], [base + "A"], [stem],
        neuter=[base + "a"], neuter_dual=[weak + "I", stem + "I"], neuter_plural=[base + "Ani"],
    )  # fmt: skip
    table[6, 0] = tuple(dict.fromkeys((weak + "i", stem + "i")))
    if gender == "n":
        table[7, 0] = (base + "a", stem)
    return table


def _in(stem: str, gender: str) -> Table:
    """balin: balī, balinam, balinā, balibhiḥ, baliṣu; n. bali, balinī, balīni."""
    base = stem[:-2]
    return _consonant(
        gender, stem, stem, base + "i", [base + "izu"], [base + "I"], [stem],
        neuter=[base + "i"], neuter_dual=[stem + "I"], neuter_plural=[base + "Ini"],
    )  # fmt: skip


def _as(stem: str, gender: str) -> Table:
    """manas (n.: manaḥ, manasī, manāṃsi, manasā, manobhiḥ); sumanas, apsaras (m./f.: sumanāḥ)."""
    base = stem[:-2]
    return _consonant(
        gender, stem, stem, base + "o", [base + "aHsu", base + "assu"], [base + "AH"], [base + "aH"],
        neuter=[base + "aH"], neuter_dual=[stem + "I"], neuter_plural=[base + "AMsi"],
    )  # fmt: skip


def _is_us(stem: str, gender: str) -> Table:
    """havis, dhanus, jyotis, āyus: haviḥ, haviṣī, havīṃṣi, haviṣā, havirbhiḥ, haviḥṣu/haviṣṣu."""
    base, vowel = stem[:-2], stem[-2]
    weak = base + vowel + "z"
    return _consonant(
        gender, weak, weak, base + vowel + "r", [base + vowel + "Hzu", weak + "zu"], [base + vowel + "H"],
        [base + vowel + "H"], neuter=[base + vowel + "H"], neuter_dual=[weak + "I"],
        neuter_plural=[base + LONG[vowel] + "Mzi"],
    )  # fmt: skip


def _comparative(stem: str, gender: str) -> Table:
    """garīyas: garīyān, garīyāṃsam, garīyasā, garīyobhiḥ; n. garīyaḥ, garīyasī, garīyāṃsi."""
    base = stem[:-2]
    return _consonant(
        gender, base + "AMs", stem, base + "o", [base + "aHsu", base + "assu"], [base + "An"], [base + "an"],
        neuter=[base + "aH"], neuter_dual=[stem + "I"], neuter_plural=[base + "AMsi"],
    )  # fmt: skip


def _perfect_participle(stem: str, gender: str) -> Table:
    """vidvas: vidvān, vidvāṃsam, viduṣā, vidvadbhiḥ; n. vidvat, viduṣī, vidvāṃsi."""
    base = stem[:-3]
    weak = (base[:-1] if base.endswith("i") else base) + "uz"
    return _consonant(
        gender, base + "vAMs", weak, base + "vad", [base + "vatsu"], [base + "vAn"], [base + "van"],
        neuter=[base + "vat"], neuter_dual=[weak + "I"], neuter_plural=[base + "vAMsi"],
    )  # fmt: skip


# -- irregular nouns, pronouns and numerals: whole tables ----------------------------------------------

IRREGULAR: dict[tuple[str, str], str] = {
    ("go", "m"): "gOH gAvO gAvaH | gAm gAvO gAH | gavA goByAm goBiH | gave goByAm goByaH | goH goByAm goByaH"
    " | goH gavoH gavAm | gavi gavoH gozu | gOH gAvO gAvaH",
    # div, sky (Whitney §361): dyauḥ in the nominative (diva aut, 7.1.84), dyu- before a consonant ending
    ("div", "f"): "dyOH divO divaH | divam/dyAm divO divaH | divA dyuByAm dyuBiH | dive dyuByAm dyuByaH"
    " | divaH dyuByAm dyuByaH | divaH divoH divAm | divi divoH dyuzu | dyOH divO divaH",
    ("div", "m"): "dyOH divO divaH | divam/dyAm divO divaH | divA dyuByAm dyuBiH | dive dyuByAm dyuByaH"
    " | divaH dyuByAm dyuByaH | divaH divoH divAm | divi divoH dyuzu | dyOH divO divaH",
    ("nO", "f"): "nOH nAvO nAvaH | nAvam nAvO nAvaH | nAvA nOByAm nOBiH | nAve nOByAm nOByaH"
    " | nAvaH nOByAm nOByaH | nAvaH nAvoH nAvAm | nAvi nAvoH nOzu | nOH nAvO nAvaH",
    ("rE", "m"): "rAH rAyO rAyaH | rAyam rAyO rAyaH | rAyA rAByAm rABiH | rAye rAByAm rAByaH"
    " | rAyaH rAByAm rAByaH | rAyaH rAyoH rAyAm | rAyi rAyoH rAsu | rAH rAyO rAyaH",
    (
        "dyo",
        "f",
    ): "dyOH dyAvO dyAvaH | dyAm/divam dyAvO dyAH/divaH | divA dyuByAm dyuBiH | dive dyuByAm dyuByaH"
    " | divaH dyuByAm dyuByaH | divaH divoH divAm | divi divoH dyuzu | dyOH dyAvO dyAvaH",
    ("strI", "f"): "strI striyO striyaH | striyam/strIm striyO striyaH/strIH | striyA strIByAm strIBiH"
    " | striyE strIByAm strIByaH | striyAH strIByAm strIByaH | striyAH striyoH strIRAm | striyAm striyoH strIzu"
    " | stri striyO striyaH",
    (
        "saKi",
        "m",
    ): "saKA saKAyO saKAyaH | saKAyam saKAyO saKIn | saKyA saKiByAm saKiBiH | saKye saKiByAm saKiByaH"
    " | saKyuH saKiByAm saKiByaH | saKyuH saKyoH saKInAm | saKyO saKyoH saKizu | saKe saKAyO saKAyaH",
    ("pati", "m"): "patiH patI patayaH | patim patI patIn | patyA/patinA patiByAm patiBiH"
    " | patye/pataye patiByAm patiByaH | patyuH/pateH patiByAm patiByaH | patyuH/pateH patyoH patInAm"
    " | patyO patyoH patizu | pate patI patayaH",
    ("nf", "m"): "nA narO naraH | naram narO nFn | nrA nfByAm nfBiH | nre nfByAm nfByaH | nuH nfByAm nfByaH"
    " | nuH nroH nFRAm/nfRAm | nari nroH nfzu | naH narO naraH",
    # akṣi, asthi, dadhi, sakthi: their weak cases from a stem in -an (Whitney §431)
    (
        "akzi",
        "n",
    ): "akzi akziRI akzIRi | akzi akziRI akzIRi | akzRA akziByAm akziBiH | akzRe akziByAm akziByaH"
    " | akzRaH akziByAm akziByaH | akzRaH akzRoH akzRAm | akzRi/akzaRi akzRoH akzizu | akzi/akze akziRI akzIRi",
    (
        "asTi",
        "n",
    ): "asTi asTinI asTIni | asTi asTinI asTIni | asTnA asTiByAm asTiBiH | asTne asTiByAm asTiByaH"
    " | asTnaH asTiByAm asTiByaH | asTnaH asTnoH asTnAm | asTni/asTani asTnoH asTizu | asTi/asTe asTinI asTIni",
    (
        "daDi",
        "n",
    ): "daDi daDinI daDIni | daDi daDinI daDIni | daDnA daDiByAm daDiBiH | daDne daDiByAm daDiByaH"
    " | daDnaH daDiByAm daDiByaH | daDnaH daDnoH daDnAm | daDni/daDani daDnoH daDizu | daDi/daDe daDinI daDIni",
    ("sakTi", "n"): "sakTi sakTinI sakTIni | sakTi sakTinI sakTIni | sakTnA sakTiByAm sakTiBiH"
    " | sakTne sakTiByAm sakTiByaH | sakTnaH sakTiByAm sakTiByaH | sakTnaH sakTnoH sakTnAm"
    " | sakTni/sakTani sakTnoH sakTizu | sakTi/sakTe sakTinI sakTIni",
    ("ap", "f"): "- - ApaH | - - apaH | - - adBiH | - - adByaH | - - adByaH | - - apAm | - - apsu | - - ApaH",
    ("puMs", "m"): "pumAn pumAMsO pumAMsaH | pumAMsam pumAMsO puMsaH | puMsA pumByAm pumBiH"
    " | puMse pumByAm pumByaH | puMsaH pumByAm pumByaH | puMsaH puMsoH puMsAm | puMsi puMsoH puMsu"
    " | puman pumAMsO pumAMsaH",
    ("paTin", "m"): "panTAH panTAnO panTAnaH | panTAnam panTAnO paTaH | paTA paTiByAm paTiBiH"
    " | paTe paTiByAm paTiByaH | paTaH paTiByAm paTiByaH | paTaH paToH paTAm | paTi paToH paTizu"
    " | panTAH panTAnO panTAnaH",
    (
        "ahan",
        "n",
    ): "ahaH ahnI/ahanI ahAni | ahaH ahnI/ahanI ahAni | ahnA ahoByAm ahoBiH | ahne ahoByAm ahoByaH"
    " | ahnaH ahoByAm ahoByaH | ahnaH ahnoH ahnAm | ahni/ahani ahnoH ahaHsu/ahassu | ahaH ahnI/ahanI ahAni",
    ("Svan", "m"): "SvA SvAnO SvAnaH | SvAnam SvAnO SunaH | SunA SvaByAm SvaBiH | Sune SvaByAm SvaByaH"
    " | SunaH SvaByAm SvaByaH | SunaH SunoH SunAm | Suni SunoH Svasu | Svan SvAnO SvAnaH",
    (
        "yuvan",
        "m",
    ): "yuvA yuvAnO yuvAnaH | yuvAnam yuvAnO yUnaH | yUnA yuvaByAm yuvaBiH | yUne yuvaByAm yuvaByaH"
    " | yUnaH yuvaByAm yuvaByaH | yUnaH yUnoH yUnAm | yUni yUnoH yuvasu | yuvan yuvAnO yuvAnaH",
    ("maGavan", "m"): "maGavA maGavAnO maGavAnaH | maGavAnam maGavAnO maGonaH | maGonA maGavaByAm maGavaBiH"
    " | maGone maGavaByAm maGavaByaH | maGonaH maGavaByAm maGavaByaH | maGonaH maGonoH maGonAm"
    " | maGoni maGonoH maGavasu | maGavan maGavAnO maGavAnaH",
}
# Personal and demonstrative pronouns (the genders of tad, etad, yad, kim, idam, adas; none for the
# personal ones, whose readings carry no gender).
PRONOUNS: dict[tuple[str, str], str] = {
    ("tad", "m"): "saH/sa tO te | tam tO tAn | tena tAByAm tEH | tasmE tAByAm teByaH | tasmAt tAByAm teByaH"
    " | tasya tayoH tezAm | tasmin tayoH tezu | - - -",
    ("tad", "n"): "tat te tAni | tat te tAni | tena tAByAm tEH | tasmE tAByAm teByaH | tasmAt tAByAm teByaH"
    " | tasya tayoH tezAm | tasmin tayoH tezu | - - -",
    ("tad", "f"): "sA te tAH | tAm te tAH | tayA tAByAm tABiH | tasyE tAByAm tAByaH | tasyAH tAByAm tAByaH"
    " | tasyAH tayoH tAsAm | tasyAm tayoH tAsu | - - -",
    ("yad", "m"): "yaH yO ye | yam yO yAn | yena yAByAm yEH | yasmE yAByAm yeByaH | yasmAt yAByAm yeByaH"
    " | yasya yayoH yezAm | yasmin yayoH yezu | - - -",
    ("yad", "n"): "yat ye yAni | yat ye yAni | yena yAByAm yEH | yasmE yAByAm yeByaH | yasmAt yAByAm yeByaH"
    " | yasya yayoH yezAm | yasmin yayoH yezu | - - -",
    ("yad", "f"): "yA ye yAH | yAm ye yAH | yayA yAByAm yABiH | yasyE yAByAm yAByaH | yasyAH yAByAm yAByaH"
    " | yasyAH yayoH yAsAm | yasyAm yayoH yAsu | - - -",
    ("kim", "m"): "kaH kO ke | kam kO kAn | kena kAByAm kEH | kasmE kAByAm keByaH | kasmAt kAByAm keByaH"
    " | kasya kayoH kezAm | kasmin kayoH kezu | - - -",
    ("kim", "n"): "kim ke kAni | kim ke kAni | kena kAByAm kEH | kasmE kAByAm keByaH | kasmAt kAByAm keByaH"
    " | kasya kayoH kezAm | kasmin kayoH kezu | - - -",
    ("kim", "f"): "kA ke kAH | kAm ke kAH | kayA kAByAm kABiH | kasyE kAByAm kAByaH | kasyAH kAByAm kAByaH"
    " | kasyAH kayoH kAsAm | kasyAm kayoH kAsu | - - -",
    ("idam", "m"): "ayam imO ime | imam imO imAn | anena AByAm eBiH | asmE AByAm eByaH | asmAt AByAm eByaH"
    " | asya anayoH ezAm | asmin anayoH ezu | - - -",
    ("idam", "n"): "idam ime imAni | idam ime imAni | anena AByAm eBiH | asmE AByAm eByaH | asmAt AByAm eByaH"
    " | asya anayoH ezAm | asmin anayoH ezu | - - -",
    ("idam", "f"): "iyam ime imAH | imAm ime imAH | anayA AByAm ABiH | asyE AByAm AByaH | asyAH AByAm AByaH"
    " | asyAH anayoH AsAm | asyAm anayoH Asu | - - -",
    ("adas", "m"): "asO amU amI | amum amU amUn | amunA amUByAm amIBiH | amuzmE amUByAm amIByaH"
    " | amuzmAt amUByAm amIByaH | amuzya amuyoH amIzAm | amuzmin amuyoH amIzu | - - -",
    ("adas", "n"): "adaH amU amUni | adaH amU amUni | amunA amUByAm amIBiH | amuzmE amUByAm amIByaH"
    " | amuzmAt amUByAm amIByaH | amuzya amuyoH amIzAm | amuzmin amuyoH amIzu | - - -",
    ("adas", "f"): "asO amU amUH | amUm amU amUH | amuyA amUByAm amUBiH | amuzyE amUByAm amUByaH"
    " | amuzyAH amUByAm amUByaH | amuzyAH amuyoH amUzAm | amuzyAm amuyoH amUzu | - - -",
    ("asmad", ""): "aham AvAm vayam | mAm/mA AvAm/nO asmAn/naH | mayA AvAByAm asmABiH"
    " | mahyam/me AvAByAm/nO asmaByam/naH | mat AvAByAm asmat | mama/me AvayoH/nO asmAkam/naH"
    " | mayi AvayoH asmAsu | - - -",
    ("yuzmad", ""): "tvam yuvAm yUyam | tvAm/tvA yuvAm/vAm yuzmAn/vaH | tvayA yuvAByAm yuzmABiH"
    " | tuByam/te yuvAByAm/vAm yuzmaByam/vaH | tvat yuvAByAm yuzmat | tava/te yuvayoH/vAm yuzmAkam/vaH"
    " | tvayi yuvayoH yuzmAsu | - - -",
}


def _etad(text: str) -> str:
    """etad's forms are tad's with e- before them, s as ṣ (eṣaḥ, etasya)."""
    return " ".join(
        "/".join(
            "-" if form == "-" else "e" + ("z" + form[1:] if form[0] == "s" else form)
            for form in word.split("/")
        )
        if word != "|"
        else word
        for word in text.split()
    )


for _gender in "mfn":
    PRONOUNS["etad", _gender] = _etad(PRONOUNS["tad", _gender])
PRONOUNS["enad", "m"] = "- - - | enam enO enAn | enena - - | - - - | - - - | - enayoH - | - enayoH - | - - -"
PRONOUNS["enad", "f"] = "- - - | enAm ene enAH | enayA - - | - - - | - - - | - enayoH - | - enayoH - | - - -"
PRONOUNS["enad", "n"] = "- - - | enat ene enAni | enena - - | - - - | - - - | - enayoH - | - enayoH - | - - -"
NUMERALS: dict[tuple[str, str], str] = {
    (
        "dvi",
        "m",
    ): "- dvO - | - dvO - | - dvAByAm - | - dvAByAm - | - dvAByAm - | - dvayoH - | - dvayoH - | - dvO -",
    (
        "dvi",
        "f",
    ): "- dve - | - dve - | - dvAByAm - | - dvAByAm - | - dvAByAm - | - dvayoH - | - dvayoH - | - dve -",
    (
        "tri",
        "m",
    ): "- - trayaH | - - trIn | - - triBiH | - - triByaH | - - triByaH | - - trayARAm | - - trizu | - - trayaH",
    (
        "tri",
        "n",
    ): "- - trIRi | - - trIRi | - - triBiH | - - triByaH | - - triByaH | - - trayARAm | - - trizu | - - trIRi",
    (
        "tri",
        "f",
    ): "- - tisraH | - - tisraH | - - tisfBiH | - - tisfByaH | - - tisfByaH | - - tisfRAm | - - tisfzu"
    " | - - tisraH",
    ("catur", "m"): "- - catvAraH | - - caturaH | - - caturBiH | - - caturByaH | - - caturByaH | - - caturRAm"
    " | - - caturzu | - - catvAraH",
    ("catur", "n"): "- - catvAri | - - catvAri | - - caturBiH | - - caturByaH | - - caturByaH | - - caturRAm"
    " | - - caturzu | - - catvAri",
    (
        "catur",
        "f",
    ): "- - catasraH | - - catasraH | - - catasfBiH | - - catasfByaH | - - catasfByaH | - - catasfRAm"
    " | - - catasfzu | - - catasraH",
    (
        "zaz",
        "",
    ): "- - zaw | - - zaw | - - zaqBiH | - - zaqByaH | - - zaqByaH | - - zaRRAm | - - zaws/zawsu | - - zaw",
    ("azwan", ""): "- - azwO/azwa | - - azwO/azwa | - - azwABiH/azwaBiH | - - azwAByaH/azwaByaH"
    " | - - azwAByaH/azwaByaH | - - azwAnAm | - - azwAsu/azwasu | - - azwO/azwa",
}
NUMERALS[("dvi", "n")] = NUMERALS[("dvi", "f")]
# pañcan, saptan, navan, daśan and the teens: pañca, pañcabhiḥ, pañcānām, pañcasu (no gender)
_NUMERAL_AN = ("a", "a", "aBiH", "aByaH", "aByaH", "AnAm", "asu", "a")
NUMERALS_AN = frozenset(
    [
        "paYcan",
        "saptan",
        "navan",
        "daSan",
        "ekAdaSan",
        "dvAdaSan",
        "trayodaSan",
        "caturdaSan",
        "paYcadaSan",
        "zoqaSan",
        "saptadaSan",
        "azwAdaSan",
        "navadaSan",
    ]
)
# The ordinals tasya pūraṇe ḍaṭ (5.2.48) makes of the -an numerals that begin with a numeral (ekādaśa,
# dvādaśa, "twelfth"; the others take maṭ, 5.2.49: pañcama, daśama) are written as those numerals'
# nominative and accusative (dvādaśa, "twelve": ṣaḍbhyo luk, 7.1.22, and the n dropped, 8.2.7).
ORDINALS_LIKE_CARDINALS = frozenset(
    stem[:-1] for stem in NUMERALS_AN if stem.endswith("daSan") and stem != "daSan"
)
PRONOUN_STEMS = frozenset(stem for stem, _ in PRONOUNS)
NUMERAL_STEMS = frozenset(stem for stem, _ in NUMERALS) | NUMERALS_AN | {"eka"}


def _parse(text: str) -> Table:
    table = _table("", text)
    return {slot: tuple(f for f in forms if f) for slot, forms in table.items() if any(forms)}


# -- declining ---------------------------------------------------------------------------------------


def feminine_stems(stem: str) -> list[str]:
    """The feminine stems of an adjective's stem (kānta → kāntā, kāntī), likeliest first."""
    if stem.endswith("vat") or stem.endswith("mat") or stem == "mahat":
        return [stem + "I"]
    if stem.endswith("at"):  # participles: gacchantī (1st, 4th, 10th classes), kurvatī
        return [stem[:-2] + "antI", stem + "I"]
    if len(stem) == 3 and stem.endswith("At"):  # yāt: yātī, yāntī (Whitney §449)
        return [stem + "I", stem[:-1] + "ntI"]
    if stem.endswith("in"):
        return [stem + "I"]
    if stem.endswith("tf"):
        return [stem[:-1] + "rI"]
    if stem.endswith("yas"):
        return [stem + "I"]
    if stem.endswith("vas"):
        return [stem[:-3].removesuffix("i") + "uzI"]
    if stem.endswith("a"):
        return [stem[:-1] + "A", stem[:-1] + "I"]
    if stem.endswith("u") and len(stem) > 2:  # laghu → laghvī, or laghu itself
        return [stem, stem[:-1] + "vI"]
    return [stem]


def base_stems(feminine: str) -> list[str]:
    """The adjective stems a feminine stem may be made of (`feminine_stems` undone)."""
    found = []
    if feminine.endswith("A"):
        found.append(feminine[:-1] + "a")
    if feminine.endswith("I"):
        found.append(feminine[:-1] + "a")
        found.append(feminine[:-1])  # balavatī → balavat, balinī → balin, garīyasī → garīyas
        if feminine.endswith("antI"):
            found.append(feminine[:-4] + "at")
        if feminine.endswith("rI"):
            found.append(feminine[:-2] + "f")
        if feminine.endswith("vI"):
            found.append(feminine[:-2] + "u")
        if feminine.endswith("uzI"):
            found += [feminine[:-3] + "vas", feminine[:-3] + "ivas"]
    return found


@lru_cache(maxsize=50_000)
def decline(stem: str, gender: str) -> Table:
    """Every case form of `stem` in `gender` ('m', 'f', 'n'; '' for the personal pronouns and the
    numerals without gender); an adjective's feminine is its feminine stem's."""
    if (stem, gender) in PRONOUNS:
        return _parse(PRONOUNS[stem, gender])
    if (stem, gender) in NUMERALS:
        return _parse(NUMERALS[stem, gender])
    if stem in NUMERALS_AN:
        base = stem[:-2]
        return {(case, 2): (base + ending,) for case, ending in enumerate(_NUMERAL_AN)}
    if (stem, gender) in IRREGULAR:
        return _parse(IRREGULAR[stem, gender])
    if gender == "f":
        return _feminine(stem)
    return _masculine_or_neuter(stem, gender)


def _feminine(stem: str) -> Table:
    last = stem[-1:]
    if last == "A":
        return _table(stem[:-1], PRON_F if stem[:-1] + "a" in SARVADI else AA_F)
    if last == "I":
        if _monosyllabic(stem):
            return _table(stem[:-1], II_ROOT)
        table = _table(stem[:-1], II_F)
        if stem in II_NOMINATIVE_S:
            table[0, 0] += (stem + "H",)
        return table
    if last == "U":
        return _table(stem[:-1], UU_ROOT if _monosyllabic(stem) else UU_F)
    if last == "i":
        return _table(stem[:-1], I_F)
    if last == "u":
        return _table(stem[:-1], U_F)
    if last == "f":
        if stem not in SVASRADI:
            return decline(stem[:-1] + "rI", "f")
        table = _table(stem[:-1], F_KIN if stem in KIN else F_AGENT)
        table[1, 2] = (stem[:-1] + "FH",)
        return table
    if last == "a":  # an adjective: its feminine stems
        return _merged(decline(feminine, "f") for feminine in feminine_stems(stem))
    if (stem.endswith(("at", "in", "yas", "vas")) and stem not in ("jagat",)) or (
        len(stem) == 3 and stem.endswith("At")
    ):
        tables = [decline(feminine, "f") for feminine in feminine_stems(stem)]
        if stem.endswith("as") and not stem.endswith(("yas", "vas")):
            tables.append(_as(stem, "f"))
        return _merged(tables)
    return _masculine_or_neuter(stem, "f")


def _monosyllabic(stem: str) -> bool:
    return sum(letter in VOWELS for letter in stem) == 1


def _merged(tables: Iterable[Table]) -> Table:
    merged: Table = {}
    for table in tables:
        for slot, forms in table.items():
            before = merged.get(slot)
            if before is not None:
                merged[slot] = tuple(dict.fromkeys(before + forms))
            else:  # most slots have one form: nothing to merge (a stem's first paradigm is made per search)
                merged[slot] = forms if len(forms) < 2 else tuple(dict.fromkeys(forms))
    return merged


def _masculine_or_neuter(stem: str, gender: str) -> Table:
    last = stem[-1:]
    neuter = gender == "n"
    if last == "a":
        if stem in SARVADI:
            table = _table(stem[:-1], PRON_N if neuter else PRON_M)
            if neuter and stem in NEUTER_AT:
                for case in (0, 1):
                    table[case, 0] = (stem[:-1] + "at",)
            if stem in ("pUrva", "para", "avara", "dakziRa", "uttara", "apara", "aDara", "sva", "antara"):
                return _merged([table, _table(stem[:-1], A_N if neuter else A_M)])  # pūrvāt, pūrve
            return table
        return _table(stem[:-1], A_N if neuter else A_M)
    if last == "A":  # a masculine ā-stem (gopā, viśvapā): rare; declined as the feminine
        return _table(stem[:-1], AA_F)
    if last == "i":
        return _table(stem[:-1], I_N if neuter else I_M)
    if last == "u":
        return _table(stem[:-1], U_N if neuter else U_M)
    if last in "IU":
        return _feminine(stem)
    if last == "f":
        if neuter:
            return _table(stem[:-1], F_N)
        return _table(stem[:-1], F_KIN if stem in KIN else F_AGENT)
    if last == "o":
        return _parse(IRREGULAR["go", "m"].replace("g", stem[:-1] or "g")) if stem.endswith("go") else {}
    if last in VOWELS:
        return {}
    return _consonant_stem(stem, gender)


def _consonant_stem(stem: str, gender: str) -> Table:
    tables: list[Table] = []
    if stem.endswith(("vat", "mat")) or stem == "mahat":
        tables.append(_possessive(stem, gender))
        if stem.endswith("vat") and stem != "mahat":
            tables.append(_participle_at(stem, gender))  # bhavat: bhavān (your honour) and bhavan
    elif (stem.endswith("at") and (len(stem) > 3 or stem in SHORT_PARTICIPLES)) or (
        len(stem) == 3 and stem.endswith("At")
    ):
        tables.append(_participle_at(stem, gender))
    elif stem.endswith("an") and len(stem) > 3:
        tables.append(_an(stem, gender))
    elif stem.endswith("in") and len(stem) > 3:
        tables.append(_in(stem, gender))
    elif stem.endswith(("is", "us")) and len(stem) > 3:
        tables.append(_is_us(stem, gender))
    elif stem.endswith("as") and len(stem) > 3:
        tables.append(_as(stem, gender))
        if stem.endswith("yas"):
            tables.append(_comparative(stem, gender))
        if stem.endswith("vas"):
            tables.append(_perfect_participle(stem, gender))
    if not tables:
        tables.append(_simple_consonant(stem, gender))
    return _merged(tables)


def forms_of(stem: str, gender: str) -> Iterator[tuple[str, Slot]]:
    for slot, forms in decline(stem, gender).items():
        for form in forms:
            yield form, slot


# -- the inversion: which stems may a word be a case of ---------------------------------------------


def fold(word: str) -> str:
    """ṇ and ṣ, which internal sandhi makes of n and s (rāmeṇa, agniṣu), as n and s."""
    return word.replace("R", "n").replace("z", "s")


# Stems of every class, with their letters before the ending varied, whose paradigms teach the
# inversion which endings replace which stem finals (rājñā: -ñā for -an; manobhiḥ: -obhiḥ for -as).
_SAMPLES: list[tuple[str, str]] = [
    *((s, g) for s in ("deva", "rAma", "sarva", "anya", "pUrva") for g in "mn"),
    *((s, "f") for s in ("senA", "sarvA", "nadI", "lakzmI", "DI", "vaDU", "BU", "mati", "Denu", "mAtf", "svasf")),
    *((s, g) for s in ("agni", "vAri", "guru", "maDu", "kartf", "pitf", "nf") for g in "mn"),
    *((s, g) for s in ("marut", "vAc", "diS", "viS", "suhfd", "kzuD", "gir", "vipad", "rAj", "dviz", "lih", "Urj")
      for g in "mn"),
    *((s, g) for s in ("gacCat", "dadat", "Bagavat", "SrImat", "mahat", "rAjan", "Atman", "brahman", "nAman",
                       "karman", "mUrDan", "balin", "manas", "sumanas", "havis", "Danus", "garIyas", "vidvas",
                       "jagmivas") for g in "mnf"),
    *((s, g) for s, g in IRREGULAR),
]  # fmt: skip


@lru_cache(maxsize=1)
def _inversion() -> dict[str, frozenset[str]]:
    """form ending → the stem endings it may replace, learnt from the sample paradigms."""
    rules: dict[str, set[str]] = {}
    for stem, gender in _SAMPLES:
        for form, _ in forms_of(stem, gender):
            common = 0
            while common < min(len(stem), len(form)) and stem[common] == form[common]:
                common += 1
            common = min(common, len(stem) - 1)  # at least the stem's last letter is replaced
            for start in range(max(0, common - 1), common + 1):
                rules.setdefault(form[start:], set()).add(stem[start:])
    for ending in list(rules):  # the same endings after ṇatva and ṣatva
        for variant in {
            ending.replace("n", "R"),
            ending.replace("s", "z"),
            ending.replace("n", "R").replace("s", "z"),
        }:
            rules.setdefault(variant, set()).update(rules[ending])
    return {ending: frozenset(stems) for ending, stems in rules.items()}


MAX_ENDING = 9


def ending_rules() -> dict[str, frozenset[str]]:
    """Form ending → the stem endings it may replace (rājñā: -ñā for -an), every class's."""
    return _inversion()


@lru_cache(maxsize=1)
def closed_forms() -> dict[str, frozenset[str]]:
    """form → the pronouns, numerals and irregular nouns it is a form of (saḥ → tad, asau → adas)."""
    forms: dict[str, set[str]] = {}
    for stem, gender in [*PRONOUNS, *NUMERALS, *IRREGULAR, *((stem, "") for stem in NUMERALS_AN)]:
        for form, _ in forms_of(stem, gender):
            forms.setdefault(form, set()).add(stem)
    return {form: frozenset(stems) for form, stems in forms.items()}


@lru_cache(maxsize=65536)
def candidate_stems(word: str) -> tuple[str, ...]:
    """Stems `word` may be a case form of (their own stems and, for a feminine, its adjective's), in
    alphabetical order: readings are made in this order, and those of equal score keep it, so it must
    not be a set's (which changes with the process's hash seed)."""
    rules = _inversion()
    found: set[str] = set(closed_forms().get(word, ()))
    for start in range(max(1, len(word) - MAX_ENDING), len(word) + 1):
        stem_endings = rules.get(word[start:])
        if not stem_endings:  # most of a word's last letters are no ending
            continue
        head = word[:start]
        for stem_ending in stem_endings:
            stem = head + stem_ending
            found.add(stem)
            if stem[-1:] in ("A", "I"):  # a feminine's (base_stems has none for the others)
                found.update(base_stems(stem))
    return tuple(sorted(found))


@lru_cache(maxsize=50_000)
def _inverse(stem: str, gender: str) -> dict[str, tuple[Slot, ...]]:
    """Each form of `stem` in `gender` (folded) → its slots, in the table's order. A split search asks
    for the paradigm of thousands of candidate stems, each once: the loop is written out (a slot's form
    seen already has that slot last) rather than a generator and a dict a slot, a third of the time."""
    inverse: dict[str, list[Slot]] = {}
    for slot, forms in decline(stem, gender).items():
        for form in forms:
            folded = fold(form)
            slots = inverse.get(folded)
            if slots is None:
                inverse[folded] = [slot]
            elif slots[-1] != slot:
                slots.append(slot)
    return {form: tuple(slots) for form, slots in inverse.items()}


@lru_cache(maxsize=65536)  # the segmenter's part tests and the analysis of the parts ask the same again
def readings(word: str, stem: str, gender: str) -> tuple[Slot, ...]:
    """The slots of `stem` in `gender` whose form is `word` (ṇ/n, ṣ/s folded). A stem of a regular vowel
    class is read from its class's inverted endings (the first sight of a stem costs no paradigm); the
    others from their paradigm, made once. An adjective in -u has its feminine in -vī too (gurvī, bahvī,
    sādhvī: Whitney §344)."""
    found = _readings(word, stem, gender)
    if gender == "f" and len(stem) > 2 and stem.endswith("u") and word.startswith(stem[:-1] + "v"):
        found = tuple(dict.fromkeys((*found, *_readings(word, stem[:-1] + "vI", "f"))))
    return found


def noun_readings(word: str, stem: str, gender: str) -> tuple[Slot, ...]:
    """`readings` of a dictionary's noun: a sarvādi word's feminine that is a noun of its own (dakṣiṇā "the
    fee", samā "year", uttarā) is no pronoun and is declined as an ā-stem (dakṣiṇāyām, samāyām), not as the
    adjective's pronominal feminine (dakṣiṇasyām diśi: pūrvaparāvara… vyavasthāyām asaṃjñāyām, Pāṇini 1.1.34;
    Whitney §522 ff.)."""
    if gender == "f" and stem.endswith("A") and stem[:-1] + "a" in SARVADI:
        return _by_endings(word, stem, AA_F)
    return readings(word, stem, gender)


# tasya bhāvas tvatalau (5.1.119): -tva n., -tal (-tā) f.: each suffix's gender and the endings it takes
ABSTRACT_SUFFIXES: dict[str, tuple[str, str]] = {"tva": ("n", A_N), "tA": ("f", AA_F)}


def suffix_readings(word: str, suffix: str) -> tuple[Slot, ...]:
    """The slots of the abstract suffix `suffix` (tva, tā) whose form is `word`, declined as the noun it makes
    (an a-stem neuter, an ā-stem feminine), not as the pronoun tva or tad's tā."""
    known = ABSTRACT_SUFFIXES.get(suffix)
    return () if known is None else _by_endings(word, suffix, known[1])


def _readings(word: str, stem: str, gender: str) -> tuple[Slot, ...]:
    endings = _class_endings(stem, gender)
    if endings is None:
        if gender == "f" and stem.endswith("a") and stem not in SARVADI and (stem, gender) not in IRREGULAR:
            found: dict[Slot, None] = {}
            for feminine in feminine_stems(stem):  # an adjective's feminine: its feminine stems'
                found.update(dict.fromkeys(readings(word, feminine, "f")))
            return tuple(found)
        return _inverse(stem, gender).get(fold(word), ())
    return _by_endings(word, stem, endings)


def _by_endings(word: str, stem: str, endings: str) -> tuple[Slot, ...]:
    """The slots whose form is `word` of `stem` declined with `endings` (its class's, in place of its last
    letter), ṇ/n, ṣ/s folded."""
    base, folded = fold(stem[:-1]), fold(word)
    if not folded.startswith(base):
        return ()
    return _ending_inverse(endings).get(folded[len(base) :], ())


@lru_cache(maxsize=65536)  # asked for each candidate stem of each part a split search tests
def _class_endings(stem: str, gender: str) -> str | None:
    """The endings of a stem of a regular vowel class (what `decline` would put on stem[:-1]), None for
    any other stem."""
    if not stem or (stem, gender) in PRONOUNS or (stem, gender) in NUMERALS or (stem, gender) in IRREGULAR:
        return None
    if stem in NUMERALS_AN:
        return None
    last = stem[-1]
    if gender == "f":
        if last == "A":
            return PRON_F if stem[:-1] + "a" in SARVADI else AA_F
        if last == "I":
            return None if _monosyllabic(stem) or stem in II_NOMINATIVE_S else II_F
        if last == "U":
            return UU_ROOT if _monosyllabic(stem) else UU_F
        return {"i": I_F, "u": U_F}.get(last)
    if gender in ("m", "n"):
        neuter = gender == "n"
        if last == "a":
            return None if stem in SARVADI else (A_N if neuter else A_M)
        if last == "i":
            return I_N if neuter else I_M
        if last == "u":
            return U_N if neuter else U_M
    return None


@lru_cache(maxsize=64)
def _ending_inverse(endings: str) -> dict[str, tuple[Slot, ...]]:
    inverse: dict[str, list[Slot]] = {}
    for slot, cell in _endings(endings):
        for ending in dict.fromkeys(fold(ending) for ending in cell):
            inverse.setdefault(ending, []).append(slot)
    return {ending: tuple(slots) for ending, slots in inverse.items()}


def slot_name(slot: Slot) -> str:
    return f"{CASES[slot[0]]} {NUMBERS[slot[1]]}"
