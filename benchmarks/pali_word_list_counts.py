"""Frequencies from the canon's word list as a ranking signal: derive them, and measure what they do
(issue 30, fifth round).

    uv run python benchmarks/pali_word_list_counts.py [--db DPD_DB]

DPD's `ebt_count` (how often a word is met in the early texts) is not in this project's data, and a
token count of the canon cannot be read here (benchmarks/pali_corpus_counts.py: a few thousand tokens
were within reach). What the data does have is the canon's word list: `lookup_subset.tsv`, the 131,887
forms of SuttaCentral's Mahāsaṅgīti edition (every form met in it at least once, no counts). This
script derives frequencies from it, every form of the canon benchmark's texts removed first (so no
figure below is made from the texts it is measured on), and prints right reading first on the labels
of benchmarks/pali_canon/labels.tsv for each:

- `forms per word`: log(1 + how many of a word's (lemma, part of speech) forms the list has), in place
  of the construction count;
- `construction + forms per lemma`: the construction count plus 0.25 log(1 + the forms of its lemma, all
  parts of speech together), which leaves the order within one lemma as it was;
- `slot prior`: for each reading, how often a form of its inflection pattern, grammatical label and
  ending is in the list (counted over the forms only one word can be: masc nom sg in -o of an a-stem
  noun 56%, of an a-stem adjective 45%), w·log(that / the mean) added to the candidate;
- `EM over the list`: benchmarks/pali_corpus_counts.py's estimate (expectation-maximisation of each
  word's count with label shares) run on the word list, each form counted once, 0.25 log(1 + count)
  added.

The development and first four held-out parts had been seen (they choose); `heldout5` was labelled
before any of this was run and is shown apart. Without --db a database is built from ../shared/data/pali
without SuttaCentral's keys, as benchmarks/pali_canon.py builds `nosc` (the list is read only here).
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import sqlite3
import tempfile
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pali_canon
from pali_canon import SAMPLE, labels_score, shared_pali, without_sc_keys
from pali_corpus_counts import estimate
from pramana.pali import service as pali_service
from pramana.pali.inflect import Template, clean_stem
from pramana.pali.service import PaliService
from pramana.pali.source import build
from pramana.pali.store import PaliStore
from pramana.pali.tables import lemma_clean

Unit = tuple[str, str]  # (lemma_clean, pos)
SEEN = ("dev", "heldout", "heldout2", "heldout3", "heldout4")
UNTOUCHED = ("heldout5",)


def benchmark_forms() -> set[str]:
    """Every token of the canon benchmark's texts (development and held out)."""
    found: set[str] = set()
    for path in SAMPLE.rglob("*.tsv"):
        for line in path.read_text(encoding="utf-8").splitlines():
            if "\t" in line and not line.startswith("#"):
                found.update(pali_canon.tokens(line.split("\t", 1)[1]))
    return found


def word_list(data: Path, leave_out: set[str]) -> dict[str, list[int]]:
    """SuttaCentral's forms (lookup_subset.tsv) with the DPD ids DPD gives each, `leave_out` left out."""
    with (data / "ms-dpd-subset" / pali_canon.SC_KEYS).open(encoding="utf-8") as handle:
        rows = csv.reader(handle, delimiter="\t", quotechar='"')
        next(rows)
        return {key: json.loads(ids) for key, ids in rows if key not in leave_out}


class Forms:
    """The database's headwords and inflection templates, and the list's forms of each word."""

    def __init__(self, db: Path, listed: dict[str, list[int]]):
        with sqlite3.connect(db) as conn:
            self.templates = {
                pattern: Template(pattern, like, json.loads(data))
                for pattern, like, data in conn.execute(
                    "SELECT pattern, like, data FROM inflection_templates"
                )
            }
            self.rows = conn.execute("SELECT id, lemma_1, pos, stem, pattern FROM dpd_headwords").fetchall()
            self.construction = dict(conn.execute("SELECT id, frequency FROM pramana_headword_frequency"))
        self.unit = {hid: (lemma_clean(lemma), pos) for hid, lemma, pos, _stem, _pattern in self.rows}
        self.listed = listed
        self.forms_of: dict[Unit, set[str]] = defaultdict(set)
        for form, ids in listed.items():
            for hid in ids:
                if hid in self.unit:
                    self.forms_of[self.unit[hid]].add(form)

    def per_unit(self, value: Callable[[Unit, int], float]) -> dict[Unit, float]:
        """word_weights for PaliService: value(unit, id) less the construction count it replaces."""
        return {u: value(u, hid) - self.construction.get(hid, 0.0) for hid, u in self.unit.items()}

    def slot_shares(self) -> dict[tuple[str, str, str], float]:
        """(pattern, label, ending) -> the share of such forms the list has, over forms one word only
        can be (add-one smoothed)."""
        cells: list[tuple[str, str, str, str]] = []
        words_of: Counter[str] = Counter()
        for _lemma, stem, pattern in {(lemma_clean(r[1]), r[3], r[4]) for r in self.rows}:
            template = self.templates.get(pattern)
            if not pattern or template is None or stem in ("", "-") or "!" in stem:
                continue
            base = "" if stem == "*" else clean_stem(stem)
            forms = set()
            for ending, label in template.endings(with_in_comps=False):
                if ending and label:
                    cells.append((base + ending, pattern, label, ending))
                    forms.add(base + ending)
            words_of.update(forms)
        listed, total = Counter[tuple[str, str, str]](), Counter[tuple[str, str, str]]()
        for form, pattern, label, ending in cells:
            if words_of[form] == 1:
                total[(pattern, label, ending)] += 1
                listed[(pattern, label, ending)] += form in self.listed
        return {cell: (listed[cell] + 1) / (n + 2) for cell, n in total.items()}


@contextmanager
def slot_prior(db: Path, shares: dict[tuple[str, str, str], float], weight: float) -> Iterator[None]:
    """Every candidate weighs w·log(share / mean) more, its share that of the likeliest of its readings
    of the form read: a change of pali.service made for this measurement only, undone on leaving."""
    mean = sum(shares.values()) / len(shares)
    original = pali_service._candidates
    with sqlite3.connect(db) as conn:
        stems = {hid: (stem, pattern) for hid, stem, pattern in conn.execute(
            "SELECT id, stem, pattern FROM dpd_headwords")}  # fmt: skip

    def candidates(form, row, headwords):  # type: ignore[no-untyped-def]
        found = original(form, row, headwords)
        for candidate in found:
            stem, pattern = stems.get(candidate.id, ("", ""))
            base = "" if stem == "*" else clean_stem(stem)
            if not pattern or not form.startswith(base):
                continue
            ending = form[len(base) :]
            best = max(
                (shares.get((pattern, label, ending), 0.0) for label in candidate.readings), default=0.0
            )
            if best:
                candidate._weight += weight * math.log(best / mean)
        return found

    pali_service._candidates = candidates
    try:
        yield
    finally:
        pali_service._candidates = original


def score(db: Path, weights: dict[Unit, float] | None, parts: tuple[str, ...]) -> dict[str, list[int]]:
    service = PaliService(db, weights)
    try:
        tally: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for key, (right, total) in labels_score(service, heldout=True, quiet=True, parts=parts).items():
            part, kind = key.split()
            group = "untouched" if part in UNTOUCHED else "seen"
            for name in (f"{group} {kind}", f"{part} {kind}"):
                tally[name][0] += right
                tally[name][1] += total
        return tally
    finally:
        service.close()


def show(name: str, tally: dict[str, list[int]]) -> None:
    cells = [f"{k} {r}/{n}" for k, (r, n) in sorted(tally.items()) if k.split()[0] in ("seen", "untouched")]
    print(f"  {name:<44} " + ", ".join(cells), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--db", type=Path, help="a dpd.db built without SuttaCentral's keys")
    args = parser.parse_args()
    data = shared_pali()
    leave_out = benchmark_forms()
    listed = word_list(data, leave_out)
    print(f"word list: {len(listed):,} forms ({len(leave_out):,} forms of the benchmark's texts left out)")
    parts = SEEN + UNTOUCHED
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db
        if db is None:
            db = Path(tmp) / "nosc.db"
            build(without_sc_keys(data, Path(tmp) / "nosc"), db)
        forms = Forms(db, listed)
        per_word = {u: len(f) for u, f in forms.forms_of.items()}
        per_lemma: Counter[str] = Counter()
        for (lemma, _pos), found in forms.forms_of.items():
            per_lemma[lemma] += len(found)
        show("construction count (as shipped)", score(db, None, parts))
        show("forms per word", score(db, forms.per_unit(lambda u, _h: math.log1p(per_word.get(u, 0))), parts))
        show(
            "construction + 0.25 forms per lemma",
            score(db, {u: 0.25 * math.log1p(per_lemma[u[0]]) for u in forms.forms_of}, parts),
        )
        shares = forms.slot_shares()
        for weight in (0.1, 1.0):
            with slot_prior(db, shares, weight):
                show(f"slot prior, w = {weight:g}", score(db, None, parts))
        counts = Counter({form: 1 for form in listed if "'" not in form})
        estimated = estimate(counts, PaliStore(db))
        show(
            "EM over the list, 0.25 log(1 + count)",
            score(db, {u: 0.25 * math.log1p(c) for u, c in estimated.items()}, parts),
        )


if __name__ == "__main__":
    main()
