"""Corpus counts of DPD's words as a ranking signal: derive them, and measure what they do (issue 30).

    uv run python benchmarks/pali_corpus_counts.py CORPUS_DIR [--db DPD_DB] [--weights 0 0.5 1 2]
        [--out counts.tsv]

CORPUS_DIR holds Pāḷi texts: SuttaCentral's bilara-data root files (`*_root-pli-ms.json`; a clone's
`root/pli/ms` tree, read recursively) or plain text (`*.txt`, named by SuttaCentral id: `mn26~2.txt`
for a part of MN 26). Texts of the canon benchmark's sample (benchmarks/pali_canon) are refused: the
ranking is measured on them. Without --db, a database is built from ../shared/data/pali without
SuttaCentral's lookup keys, as benchmarks/pali_canon.py builds `nosc`.

It prints, for each weight w (a word's count c adds w·log(1 + c) to its headwords' frequency, see
PaliStore's `word_weights`), the right reading first on the development labels of
benchmarks/pali_canon/labels.tsv (never the held-out ones). pramana ships no counts: on the corpus
this issue could read (see docs/benchmarks.md) they made the ranking worse.

How the counts are made: a form such as `kāmesu` belongs to several words (kāma adj, kāma masc), so a
word's count is estimated, not read. Every token's count is shared among the words it can be, in
proportion to how likely each is to be met (π, the estimate being made) and to take that form (θ, how
often a word of its part of speech takes that grammatical form: masc nom sg is common, masc voc pl
rare; counted from the tokens only one word can be), and π is re-estimated until it settles
(expectation-maximisation, with a light prior). A word's own forms (caranta's `caranto`) anchor the
estimate; a word whose forms all belong to another as well keeps the share they leave it. DPD's senses
of one word (kāma 3 and kāma 4, masc) share one count. Tokens with an elision mark, forms DPD does not
list whole, and grammatical terms (letters, endings, roots) are not counted.
"""

from __future__ import annotations

import argparse
import json
import math
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

from _common import REPO_ROOT
from pali_canon import labels_score, shared_pali, without_sc_keys
from pramana.pali.inflect import grammar_pos
from pramana.pali.rank import GRAMMAR_TERMS
from pramana.pali.sandhi import tokens
from pramana.pali.service import PaliService
from pramana.pali.source import build
from pramana.pali.store import HeadwordRecord, LookupRecord, PaliStore
from pramana.pali.tables import lemma_clean

SAMPLE = REPO_ROOT / "benchmarks" / "pali_canon"
MIN_COUNT = 0.5
ROUNDS = 200
PRIOR = 0.5
LEMMA = "="  # the analysis "the form is the headword itself" (an indeclinable, a dictionary form)
Unit = tuple[str, str]  # (lemma_clean, pos)
GENDERS = frozenset({"masc", "nt", "fem"})
# Pronouns and numerals: each has a paradigm of its own (ahaṃ's is not ta's), so one spread of labels
# for the class would misjudge them; each of their forms counts whole.
CLOSED = frozenset({"pron", "card", "ordin"})
SKIP = frozenset({"pe", "pa"})  # "…pe…", "…pa…": the abbreviation of a repeated passage, not a word


def read_corpus(folder: Path) -> Counter[str]:
    """Token counts of the texts in `folder` (named by SuttaCentral id: `mn26_root-pli-ms.json`, or
    `mn26~2.txt` for a part of one)."""
    sample = {
        line.split("\t", 1)[0].split(":")[0]
        for path in SAMPLE.rglob("*.tsv")
        for line in path.read_text(encoding="utf-8").splitlines()
        if "\t" in line and not line.startswith("#")
    }
    counts: Counter[str] = Counter()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        text_id = path.name.split("_root")[0].split("~")[0].removesuffix(".txt").removesuffix(".json")
        if _texts(text_id) & sample:
            raise SystemExit(f"{path.name} is a text of the benchmark's sample ({SAMPLE}); leave it out")
        if path.suffix == ".json":
            text = "\n".join(json.loads(path.read_text(encoding="utf-8")).values())
        elif path.suffix == ".txt":
            text = path.read_text(encoding="utf-8")
        else:
            continue
        counts.update(t for t in tokens(text) if "'" not in t and t not in SKIP)
    return counts


def _texts(text_id: str) -> set[str]:
    """The ids a file id stands for: itself, or each number of a range (dhp1-20: dhp1 … dhp20)."""
    head, _, last = text_id.rpartition("-")
    stem = head.rstrip("0123456789")
    first = head[len(stem) :]
    if stem and first.isdigit() and last.isdigit() and int(first) <= int(last):
        return {text_id} | {f"{stem}{n}" for n in range(int(first), int(last) + 1)}
    return {text_id}


def analyses(
    form: str, row: LookupRecord, headwords: dict[int, HeadwordRecord]
) -> dict[Unit, tuple[str, ...]]:
    """What `form` can be: each unit (a lemma and part of speech: DPD's senses of one word, kāma 3 and
    kāma 4, share their forms and their count) with the grammatical labels the form has for it.
    Grammatical terms (letters, endings, roots) are not words of a text and are left out."""
    out = {}
    for hid in row.headwords:
        record = headwords.get(hid)
        if record is None or record.pos in GRAMMAR_TERMS:
            continue
        lemma = lemma_clean(record.lemma_1)
        pos = grammar_pos(record.pos, record.grammar)
        labels = tuple(label for lem, p, label in row.grammar if lem == lemma and p == pos)
        if record.pos in GENDERS:  # DPD lists a lemma's nouns of each gender under one part of speech
            labels = tuple(label for label in labels if label.startswith(record.pos + " "))
        if labels:
            out[(lemma, record.pos)] = labels
        elif lemma == form:
            out[(lemma, record.pos)] = (LEMMA,)
    return out


def label_shares(readings: dict[str, dict[Unit, tuple[str, ...]]], counts: Counter[str]):
    """θ: for each part of speech, how its tokens spread over grammatical labels, counted from the forms
    only one unit can be (add-one smoothed over the labels seen for that part of speech)."""
    seen: dict[str, Counter[str]] = defaultdict(Counter)
    labels_of: dict[str, set[str]] = defaultdict(set)
    for form, options in readings.items():
        for (_lemma, pos), labels in options.items():
            labels_of[pos].update(labels)
        if len(options) == 1:
            (((_lemma, pos), labels),) = options.items()
            for label in labels:
                seen[pos][label] += counts[form] / len(labels)
    theta = {}
    for pos, labels in labels_of.items():
        total = sum(seen[pos].values()) + len(labels)
        theta[pos] = {label: (seen[pos][label] + 1) / total for label in labels}
    return theta


def _likelihood(unit: Unit, labels: tuple[str, ...], theta: dict[str, dict[str, float]]) -> float:
    """P(form | word): the shares of the labels the form has for it; 1 for a form that is the word
    itself, and for pronouns and numerals, whose paradigms are their own."""
    if labels == (LEMMA,) or unit[1] in CLOSED:
        return 1.0
    return sum(theta[unit[1]][label] for label in labels)


def estimate(counts: Counter[str], store: PaliStore) -> dict[Unit, float]:
    """Each unit's expected count: expectation-maximisation of π (how often a unit is met) with a
    light prior (PRIOR tokens each), so that a unit whose forms all belong to a likelier one as well
    keeps a share instead of none."""
    rows = store.lookups(counts)
    headwords = store.headwords({i for row in rows.values() for i in row.headwords})
    readings = {form: a for form, row in rows.items() if (a := analyses(form, row, headwords))}
    theta = label_shares(readings, counts)
    likelihood = {
        form: {unit: _likelihood(unit, labels, theta) for unit, labels in options.items()}
        for form, options in readings.items()
    }
    pi: dict[Unit, float] = defaultdict(lambda: 1.0)
    for _round in range(ROUNDS):
        expected: dict[Unit, float] = defaultdict(float)
        for form, options in likelihood.items():
            weights = {unit: pi[unit] * p for unit, p in options.items()}
            total = sum(weights.values())
            for unit, weight in weights.items():
                expected[unit] += counts[form] * weight / total
        updated = defaultdict(float, {unit: count + PRIOR for unit, count in expected.items()})
        change = sum(abs(updated[u] - pi[u]) for u in updated)
        pi = updated
        if change < 0.01:
            break
    return {unit: pi[unit] - PRIOR for unit in pi if pi[unit] - PRIOR >= MIN_COUNT}


def write(estimated: dict[Unit, float], total: int, out: Path) -> None:
    with out.open("w", encoding="utf-8") as handle:
        handle.write(f"# estimated counts of DPD words (lemma, pos) in {total:,} tokens\n")
        handle.write("lemma\tpos\tcount\n")
        for (lemma, pos), count in sorted(estimated.items(), key=lambda kv: (-kv[1], kv[0])):
            handle.write(f"{lemma}\t{pos}\t{count:.1f}\n")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--db", type=Path, help="a dpd.db (built without SuttaCentral's keys if omitted)")
    parser.add_argument("--weights", type=float, nargs="+", default=[0.0, 0.5, 1.0, 2.0])
    parser.add_argument("--out", type=Path, help="also write the counts here (TSV)")
    args = parser.parse_args()
    counts = read_corpus(args.corpus)
    total = sum(counts.values())
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db
        if db is None:
            db = Path(tmp) / "nosc.db"
            build(without_sc_keys(shared_pali(), Path(tmp) / "nosc"), db)
        estimated = estimate(counts, PaliStore(db))
        print(f"{len(estimated):,} words counted from {total:,} tokens ({len(counts):,} forms)")
        if args.out:
            write(estimated, total, args.out)
        for weight in args.weights:
            service = PaliService(db, {unit: weight * math.log1p(c) for unit, c in estimated.items()})
            scores = labels_score(service, heldout=False, quiet=True)
            shown = ", ".join(f"{kind} {r}/{n} = {r / n:.1%}" for kind, (r, n) in sorted(scores.items()))
            print(f"  weight {weight:g}: right reading first, {shown}")
            service.close()


if __name__ == "__main__":
    main()
