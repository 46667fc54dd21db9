"""The hand-checked labels of the canon benchmark (benchmarks/pali_canon/labels.tsv) name real tokens
of real lines: a label whose token or line is not in the sample would be scored as a miss, or crash
the benchmark, without anyone noticing (issue 30)."""

import csv
import unicodedata
from collections import Counter
from pathlib import Path

from pramana.pali.sandhi import tokens

SAMPLE = Path(__file__).resolve().parents[2] / "benchmarks" / "pali_canon"


def _lines() -> dict[str, tuple[str, str]]:
    """reference -> (part, line) for every line of the sample."""
    found = {}
    for path in SAMPLE.rglob("*.tsv"):
        if path.name == "labels.tsv":
            continue
        part = "dev" if path.parent == SAMPLE else path.parent.name
        for row in csv.reader(path.open(encoding="utf-8"), delimiter="\t", quoting=csv.QUOTE_NONE):
            if len(row) == 2:
                found[row[0]] = (part, row[1])
    return found


def _labels() -> list[dict[str, str]]:
    with (SAMPLE / "labels.tsv").open(encoding="utf-8") as handle:
        rows = (line for line in handle if not line.startswith("#"))
        return list(csv.DictReader(rows, delimiter="\t"))


def test_every_label_is_a_token_of_its_line_in_its_part():
    lines = _lines()
    labels = _labels()
    assert labels
    for label in labels:
        part, line = lines[label["reference"]]
        assert part == label["part"], label
        assert unicodedata.normalize("NFC", label["token"]) in tokens(line), label
        assert label["kind"] in {"ordinary", "sandhi"}, label
        for reading in label["expected"].split("|"):
            assert reading.startswith("split:") or len(reading.split(" ")) == 2, label


def test_each_part_is_labelled_once_a_token_and_the_newest_have_200():
    labels = _labels()
    assert len({(lab["part"], lab["token"]) for lab in labels}) == len(labels)
    per_part = Counter(lab["part"] for lab in labels)
    assert per_part["heldout5"] >= 200
    assert per_part["heldout6"] >= 200
    assert per_part["heldout7"] >= 150
    assert per_part["heldout8"] >= 250
    assert per_part["heldout9"] >= 280
    assert sum(lab["kind"] == "ordinary" for lab in labels if lab["part"] == "heldout9") >= 200
