"""Lemma and form counts from the Digital Corpus of Sanskrit (src/pramana/sanskrit/data/frequencies_dcs.tsv,
forms_dcs.tsv).

    uv run python benchmarks/sanskrit_dcs_counts.py --base benchmarks/data/sanskrit_dcs_windows_counts.tsv
        # the shipped tables: WINDOWS' counts as counted before, and the windows of TRANSCRIBED
    uv run python benchmarks/sanskrit_dcs_counts.py --dcs DCS/dcs/data/conllu/files  # WINDOWS, a checkout
    uv run python benchmarks/sanskrit_dcs_counts.py [--set dev ...] [--conllu DIR|FILE|FILE@OFFSET+LENGTH ...]
        [--out FILE]   # other samples (the dev sets, whole texts of a DCS checkout), for experiments

From what: hand-annotated sentences of the DCS (Oliver Hellwig, CC BY 4.0,
github.com/OliverHellwig/sanskrit, dcs/data/conllu/files/<text>/<chapter>.conllu). The shipped table
counts the words of WINDOWS below: thirteen 16,000-character windows of twelve chapters of six texts
(Harivaṃśa, Kūrmapurāṇa, Liṅgapurāṇa, Matsyapurāṇa, Rāmāyaṇa, Hitopadeśa), 1,682 words, read through
the search tool's read_file (which gives a file 16,000 characters at a time) and written out as
lemma and part of speech, nothing else; `--dcs` recounts them from a checkout (a word cut at a
window's edge may differ). None of these chapters is in a benchmark set, and no text of the held-out
sets is ever counted: a token or file of the texts of sanskrit_dcs_heldout.tsv, _heldout2.tsv and
_heldout3.tsv, _heldout4.tsv and _heldout5.tsv (Buddhacarita, Mahābhārata, Pañcatantra,
Suśrutasaṃhitā, Saundarananda, Agnipurāṇa, Yājñavalkyasmṛti, Śukasaptati, Aṣṭāṅgahṛdayasaṃhitā,
Bodhicaryāvatāra, Kirātārjunīya, Arthaśāstra, Garuḍapurāṇa, Rasaratnasamuccaya, Kālikāpurāṇa, Kāmasūtra,
Meghadūta, Nāradasmṛti, heldout6's Vetālapañcaviṃśatikā, Viṣṇusmṛti, Śivapurāṇa, Amaruśataka,
Rasārṇava, heldout7's Yogasūtrabhāṣya, Bhāratamañjarī, Bhāvaprakāśa, heldout8's Kāvyādarśa,
Śatakatraya, Daśakumāracarita, Sāṃkhyakārikā, and heldout9's Ṛtusaṃhāra, Nāṭyaśāstra, Vaiśeṣikasūtra,
Avadānaśataka, heldout10's Carakasaṃhitā and Kumārasaṃbhava, with its Mahābhārata, and heldout11's
Mahābhārata, Carakasaṃhitā and Agnipurāṇa chapters and heldout12's Mahābhārata, Kumārasaṃbhava and
Carakasaṃhitā chapters, and heldout13's Tantrākhyāyikā and its Buddhacarita and Agnipurāṇa chapters,
texts held out already but the Tantrākhyāyikā, which no window reads) is skipped,
whatever is asked. (Rāmāyaṇa and Hitopadeśa are also texts of the dev sets, other chapters.)
How: every DCS word (each member of a compound and of a sandhi group too) is counted under its lemma,
folded as `pramana.sanskrit.frequency.dcs_key` folds the analyzer's, in its class: a verb (the DCS's
VERB: finite forms, participles, gerunds, infinitives, under the root with its preverbs), an
indeclinable (ADV, PART, CONJ, CCONJ, SCONJ, ADP, INTJ) or a nominal stem (the rest). Only counts are
stored, no text.

The form table (forms_dcs.tsv): fourteen further windows (Rāmāyaṇa, Harivaṃśa, Bhāgavatapurāṇa,
Skandapurāṇa, Kathāsaritsāgara, Manusmṛti, Hitopadeśa; no chapter of a benchmark set), read the same way
and written out one word a line (the form as the DCS unsandhies it, its lemma, its class) in TRANSCRIBED;
their words are counted in the lemma table too. A form is counted under its lemma, except a compound's
non-final member (its form is "-") and the DCS's suffix lemmas (SUFFIXES: sraṣṭṛ-tvam is no yuṣmad). A
window of a held-out text is refused there as well.
"""

from __future__ import annotations

import argparse
import re
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from pramana.sanskrit.frequency import DCS_CONVENTIONS, dcs_key, form_key
from pramana.text.schemes import Scheme, convert
from sanskrit_text import SETS, Token, read_conllu, read_set

DATA = Path(__file__).resolve().parent.parent / "src" / "pramana" / "sanskrit" / "data"
OUT = DATA / "frequencies_dcs.tsv"
FORMS_OUT = DATA / "forms_dcs.tsv"
# Further windows written out through the search tool's read_file as form, lemma and class, one word a line
# (a compound's non-final member has the form "-"): what the form table is counted from.
TRANSCRIBED = Path(__file__).with_name("data") / "sanskrit_dcs_counted.tsv"
INDECLINABLE = {"ADV", "PART", "CONJ", "CCONJ", "SCONJ", "ADP", "INTJ"}
# The held-out sets' texts: as their chapter column abbreviates them and as the DCS names their files.
WINDOWS = (
    "Harivaṃśa/Harivaṃśa-0050-HV, 51-17349.conllu@0+16000",
    "Harivaṃśa/Harivaṃśa-0050-HV, 51-17349.conllu@32000+16000",
    "Harivaṃśa/Harivaṃśa-0079-HV, 80-17441.conllu@0+16000",
    "Kūrmapurāṇa/Kūrmapurāṇa-0010-KūPur, 1, 11-5737.conllu@0+16000",
    "Kūrmapurāṇa/Kūrmapurāṇa-0061-KūPur, 2, 11-7611.conllu@0+16000",
    "Liṅgapurāṇa/Liṅgapurāṇa-0069-LiPur, 1, 70-5441.conllu@0+16000",
    "Matsyapurāṇa/Matsyapurāṇa-0045-MPur, 47-2327.conllu@0+16000",
    "Matsyapurāṇa/Matsyapurāṇa-0098-MPur, 100-2439.conllu@0+16000",
    "Hitopadeśa/Hitopadeśa-0002-Hitop, 2-2251.conllu@40000+16000",
    "Hitopadeśa/Hitopadeśa-0003-Hitop, 3-8303.conllu@80000+16000",
    "Hitopadeśa/Hitopadeśa-0004-Hitop, 4-8311.conllu@30000+16000",
    "Rāmāyaṇa/Rāmāyaṇa-0085-Rām, Ay, 10-1170.conllu@0+16000",
    "Rāmāyaṇa/Rāmāyaṇa-0060-Rām, Bā, 61-1138.conllu@0+16000",
)
HELD_OUT_SETS = (
    "heldout",
    "heldout2",
    "heldout3",
    "heldout4",
    "heldout5",
    "heldout6",
    "heldout7",
    "heldout8",
    "heldout9",
    "heldout10",
    "heldout11",
    "heldout12",
    "heldout13",
)
HELD_OUT_SOURCES = ("BCar", "MBh", "Pañcat", "Su,", "SaundĀ", "AgniPur", "YāSmṛ", "Śusa", "AHS", "BoCA",
                    "Kir,", "ArthaŚ", "GarPur", "RRS", "KālPur", "KāSū", "Megh,", "NāSmṛ",
                    "VetPV", "ViSmṛ", "ŚivaPur", "AmaruŚ", "RArṇ", "YSBhā", "BhāMañj", "BhPr",
                    "KāvĀ", "ŚTr", "DKCar", "SāṃKār", "ṚtuS", "NāṭŚ", "VaiśSū", "AvŚat", "Ca,",
                    "KumSaṃ", "TAkhy")  # fmt: skip
HELD_OUT_TEXTS = ("Buddhacarita", "Mahābhārata", "Pañcatantra", "Suśrutasaṃhitā", "Saundarananda",
                  "Agnipurāṇa", "Yājñavalkyasmṛti", "Śukasaptati", "Aṣṭāṅgahṛdayasaṃhitā",
                  "Bodhicaryāvatāra", "Kirātārjunīya", "Arthaśāstra", "Garuḍapurāṇa",
                  "Rasaratnasamuccaya", "Kālikāpurāṇa", "Kāmasūtra", "Meghadūta", "Nāradasmṛti",
                  "Vetālapañcaviṃśatikā", "Viṣṇusmṛti", "Śivapurāṇa", "Amaruśataka", "Rasārṇava",
                  "Yogasūtrabhāṣya", "Bhāratamañjarī", "Bhāvaprakāśa", "Kāvyādarśa", "Śatakatraya",
                  "Daśakumāracarita", "Sāṃkhyakārikā", "Ṛtusaṃhāra", "Nāṭyaśāstra",
                  "Vaiśeṣikasūtra", "Avadānaśataka", "Carakasaṃhitā", "Kumārasaṃbhava",
                  "Tantrākhyāyikā")  # fmt: skip


def held_out_sources() -> set[str]:
    """The text abbreviations of the held-out sets' chapters (so that a new held-out text is excluded too)."""
    sources = set()
    for name in HELD_OUT_SETS:
        for line in SETS[name].read_text("utf-8").splitlines():
            if line.strip() and not line.startswith("#"):
                sources.add(line.split("\t")[0].split(",")[0])
    return sources


def is_held_out(source: str, extra: set[str]) -> bool:
    text = source.split(",")[0]
    return (
        source.startswith(HELD_OUT_SOURCES) or text in extra or any(name in source for name in HELD_OUT_TEXTS)
    )


def lemma_class(pos: str) -> str:
    if pos == "VERB":
        return "v"
    return "i" if pos in INDECLINABLE else "n"


def count(tokens: list[Token], counts: Counter[tuple[str, str]], extra: set[str]) -> int:
    used = 0
    for token in tokens:
        if is_held_out(token.source, extra):
            continue
        used += 1
        for word in token.words:
            lemma = convert(word.lemma, Scheme.IAST, Scheme.SLP1)
            counts[dcs_key(DCS_CONVENTIONS.get(lemma, lemma)), lemma_class(word.pos)] += 1
    return used


# The DCS's lemmas for suffixes it writes as a compound's last member (sraṣṭṛ-tvam, vibhu-tvam): their forms
# are no words of their own (tvam is yuṣmad's), so they are not counted as forms.
SUFFIXES = {"tva", "tā", "tas", "vat", "maya", "mātra"}


@dataclass(frozen=True)
class Counted:
    """One DCS word: its form as the DCS unsandhies it (IAST; "-" for a compound's non-final member), its
    lemma (IAST) and class (v, n, i)."""

    form: str
    lemma: str
    cls: str


def read_transcribed(path: Path, extra: set[str]) -> tuple[list[str], list[Counted]]:
    """The windows (headers `# TEXT/FILE@OFFSET+LENGTH`) and words of a file like TRANSCRIBED; a window of
    a held-out text is skipped whole."""
    windows: list[str] = []
    words: list[Counted] = []
    skip = False
    for line in path.read_text("utf-8").splitlines():
        if line.startswith("# window "):
            window = line.removeprefix("# window ").strip()
            skip = any(name in window for name in HELD_OUT_TEXTS) or is_held_out(window, extra)
            if not skip:
                windows.append(window)
        elif line.strip() and not line.startswith("#") and not skip:
            form, lemma, cls = line.split()
            words.append(Counted(form, lemma, cls))
    return windows, words


def conllu_words(path: Path, offset: int, length: int | None) -> list[Counted]:
    """The words of a CoNLL-U file (or of the complete lines of a window of it) as Counted."""
    text = path.read_text("utf-8")
    lines = text.splitlines() if length is None else text[offset : offset + length].split("\n")
    if length is not None:
        lines = lines[1:] if offset else lines
        lines = lines[:-1] if offset + length < len(text) else lines
    words = []
    for line in lines:
        cells = line.split("\t")
        if len(cells) < 10 or line.startswith("#") or "-" in cells[0]:
            continue
        misc = dict(item.split("=", 1) for item in cells[9].split("|") if "=" in item)
        form = misc.get("Unsandhied", "_")
        form = cells[1] if form == "_" else form
        words.append(Counted("-" if "Case=Cpd" in cells[5] else form, cells[2], lemma_class(cells[3])))
    return words


def form_key_iast(form: str) -> str:
    return form_key(convert(form.replace("'", ""), Scheme.IAST, Scheme.SLP1))


def lemma_key_iast(lemma: str) -> str:
    slp1 = convert(lemma, Scheme.IAST, Scheme.SLP1)
    return dcs_key(DCS_CONVENTIONS.get(slp1, slp1))


def conllu_files(specs: list[str]) -> list[tuple[Path, int, int | None]]:
    """(file, offset, length) for each --conllu: a folder (every .conllu under it), a file, or a file with a
    window of characters (FILE@OFFSET+LENGTH: the part the search tool's read_file gives)."""
    files = []
    for spec in specs:
        window = re.fullmatch(r"(.+)@(\d+)\+(\d+)", spec)
        path = Path(window.group(1)) if window else Path(spec)
        found = sorted(path.rglob("*.conllu")) if path.is_dir() else [path]
        for file in found:
            if not any(name in str(file) for name in HELD_OUT_TEXTS):
                files.append(
                    (file, int(window.group(2)), int(window.group(3))) if window else (file, 0, None)
                )
    return files


def read_window(path: Path, offset: int, length: int | None) -> list[Token]:
    """A CoNLL-U file, or the complete lines of a window of it (a word cut at its edges is left out)."""
    if length is None:
        return read_conllu(path)
    text = path.read_text("utf-8")
    lines = text[offset : offset + length].split("\n")
    if offset:
        lines = lines[1:]
    if offset + length < len(text):
        lines = lines[:-1]
    with tempfile.NamedTemporaryFile("w", suffix=".conllu", encoding="utf-8", delete=False) as handle:
        handle.write("\n".join(lines) + "\n")
    try:
        return read_conllu(Path(handle.name))
    finally:
        Path(handle.name).unlink()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", action="append", help="a benchmark set (dev, dev2) or a .tsv like them")
    parser.add_argument(
        "--conllu", action="append", default=[], help="a DCS CoNLL-U folder or file, or FILE@OFFSET+LENGTH"
    )
    parser.add_argument("--dcs", type=Path, help="a checkout's dcs/data/conllu/files: count WINDOWS there")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--forms-out", type=Path, default=FORMS_OUT)
    parser.add_argument(
        "--transcribed", type=Path, default=TRANSCRIBED, help="windows written out (TRANSCRIBED)"
    )
    parser.add_argument("--forms-only", action="store_true", help="write the form table only")
    parser.add_argument("--base", type=Path, help="a lemma table counted before, whose counts are added")
    args = parser.parse_args()
    sets = args.set or []
    if args.dcs:
        args.conllu += [str(args.dcs / window) for window in WINDOWS]
    extra = held_out_sources()
    counts: Counter[tuple[str, str]] = Counter()
    used = sum(count(read_set(name), counts, extra) for name in sets if name not in HELD_OUT_SETS)
    files = conllu_files(args.conllu)
    used += sum(count(read_window(*file), counts, extra) for file in files)
    sources = ", ".join([*sets, *(args.conllu if not args.dcs else ["WINDOWS"])])
    if args.base:  # a table counted before (the shipped one's WINDOWS part), its counts added
        for line in args.base.read_text("utf-8").splitlines()[1:]:
            lemma, cls, n = line.split("\t")
            counts[lemma, cls] += int(n)
        sources += f"{', ' if sources else ''}the counts of {args.base.name}"
    if args.transcribed:
        windows, words = read_transcribed(args.transcribed, extra)
        for word in words:
            counts[lemma_key_iast(word.lemma), word.cls] += 1
        sources += f", {len(windows)} windows of {args.transcribed.name} ({len(words):,} words)"
    lines = [
        "# lemma (the DCS's, folded as pramana.sanskrit.frequency.dcs_key folds it; SLP1), its class (v: a"
        " verb, under its root; n: a nominal stem; i: an indeclinable) and its count in hand-annotated"
        " sentences"
        " of the Digital Corpus of Sanskrit (Oliver Hellwig, CC BY 4.0, github.com/OliverHellwig/sanskrit);"
        " derived by"
        " benchmarks/sanskrit_dcs_counts.py (see its docstring) from: " + sources + f" ({used:,} tokens,"
        f" {sum(counts.values()):,} words; the held-out sets' texts excluded); nothing but counts stored",
        *(f"{lemma}\t{cls}\t{n}" for (lemma, cls), n in sorted(counts.items(), key=lambda x: (-x[1], x[0]))),
    ]
    if not args.forms_only:
        args.out.write_text("\n".join(lines) + "\n", "utf-8")
        print(f"{used:,} tokens, {sum(counts.values()):,} words, {len(counts):,} lemmas → {args.out}")
    write_forms(args, files, extra)


def write_forms(args: argparse.Namespace, files: list[tuple[Path, int, int | None]], extra: set[str]) -> None:
    """The form table: which lemma each form (not a compound's member) is how often, from TRANSCRIBED and
    the CoNLL-U files given."""
    windows, words = read_transcribed(args.transcribed, extra) if args.transcribed else ([], [])
    for file in files:
        words += conllu_words(*file)
    forms: Counter[tuple[str, str, str]] = Counter()
    for word in words:
        if word.form != "-" and word.lemma not in SUFFIXES:
            forms[form_key_iast(word.form), lemma_key_iast(word.lemma), word.cls] += 1
    sources = [f"{len(windows)} windows of {args.transcribed.name}"] if args.transcribed else []
    sources += ["WINDOWS" if args.dcs else spec for spec in args.conllu][:1] if files else []
    header = (
        "# form (as the DCS unsandhies it, folded as pramana.sanskrit.frequency.form_key folds it; SLP1), its"
        " lemma (folded as dcs_key), the lemma's class (v, n, i) and how often the form is that lemma in"
        " hand-annotated sentences of the Digital Corpus of Sanskrit (Oliver Hellwig, CC BY 4.0,"
        " github.com/OliverHellwig/sanskrit); derived by benchmarks/sanskrit_dcs_counts.py from: "
        + ", ".join(sources)
        + f" ({sum(forms.values()):,} words; the held-out sets' texts excluded); nothing but counts stored"
    )
    rows = sorted(forms.items(), key=lambda item: (item[0][0], -item[1], item[0][1:]))
    lines = [header, *(f"{form}\t{lemma}\t{cls}\t{n}" for (form, lemma, cls), n in rows)]
    args.forms_out.write_text("\n".join(lines) + "\n", "utf-8")
    print(f"{sum(forms.values()):,} words, {len({k[0] for k in forms}):,} forms → {args.forms_out}")


if __name__ == "__main__":
    main()
