"""Inflection templates and the forms they generate: DPD's recipe for `lookup.headwords` and `lookup.grammar`.

A template is a table: row 0 is the header, column 0 the row label ("nom", "pr 3rd", "in comps"), odd
columns hold endings and the even column after each holds the grammatical label of that cell
("masc nom sg"). A headword's forms are its stem plus every ending of its pattern.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from pramana.errors import InvalidInputError

IN_COMPS = "in comps"
NOUN_POS = {"masc", "fem", "nt"}
VERB_POS = {"aor", "cond", "fut", "imp", "imperf", "opt", "perf", "pr"}
GRAMMAR_OVERRIDES = ("adv", "excl", "prep", "emph", "interr")
_CELL_RANGE = re.compile(r"^([A-Z]+)(\d+):([A-Z]+)(\d+)$")


@dataclass(frozen=True)
class Template:
    pattern: str
    like: str
    data: list[list[list[str]]]

    def endings(self, *, with_in_comps: bool = True) -> Iterator[tuple[str, str]]:
        """(ending, label) for every cell below the header; labels are '' where the sheet has none."""
        for row in self.data[1:]:
            if not with_in_comps and row and row[0] and row[0][0] == IN_COMPS:
                continue
            for column in range(1, len(row), 2):
                label = row[column + 1][0] if column + 1 < len(row) and row[column + 1] else ""
                for ending in row[column]:
                    yield ending, label


def niggahita(text: str) -> str:
    """DPD writes niggahita as ṃ; some editions (and the ms-dpd export of old versions) use ṁ."""
    return text.replace("ṁ", "ṃ").replace("Ṁ", "Ṃ")


def load_templates(path: Path) -> dict[str, Template]:
    """Templates from DPD's `inflection_templates.xlsx` or the JSON made from it ([{pattern, like, data}])."""
    if path.suffix.lower() == ".xlsx":
        rows = _templates_from_xlsx(path)
    else:
        try:
            rows = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise InvalidInputError(f"cannot read inflection templates {path}: {exc}") from exc
    templates = {}
    for row in rows:
        if not isinstance(row, dict) or "pattern" not in row or not isinstance(row.get("data"), list):
            raise InvalidInputError(f"{path}: each template needs 'pattern' and 'data' (a table)")
        data = [[[niggahita(str(x)) for x in cell] for cell in line] for line in row["data"]]
        pattern = niggahita(row["pattern"])
        templates[pattern] = Template(pattern, row.get("like", ""), data)
    return templates


def _templates_from_xlsx(path: Path) -> list[dict]:
    from openpyxl import load_workbook  # only needed for the xlsx

    try:
        book = load_workbook(path, read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises several unrelated types for a bad file
        raise InvalidInputError(f"cannot read {path} as an xlsx workbook: {exc}") from exc
    if "index" not in book.sheetnames or "declensions" not in book.sheetnames:
        raise InvalidInputError(f"{path} has no 'index' and 'declensions' sheets")
    sheet = list(book["declensions"].iter_rows(values_only=True))
    templates = []
    for pattern, cells, like, *_ in book["index"].iter_rows(min_row=2, values_only=True):
        if not pattern or not cells:
            continue
        match = _CELL_RANGE.match(str(cells).strip())
        if not match:
            raise InvalidInputError(f"{path}: template {pattern!r} has a bad cell range {cells!r}")
        first_col, first_row, last_col, last_row = (
            _column_index(match[1]), int(match[2]), _column_index(match[3]), int(match[4])
        )  # fmt: skip
        data = [
            [str(value or "").split("\n") for value in line[first_col : last_col + 1]]
            for line in sheet[first_row - 1 : last_row]
        ]
        data[0][0] = [""]
        templates.append({"pattern": pattern, "like": like or "", "data": data})
    return templates


def _column_index(letters: str) -> int:
    index = 0
    for letter in letters:
        index = index * 26 + ord(letter) - ord("A") + 1
    return index - 1


def clean_stem(stem: str) -> str:
    return stem.replace("!", "").replace("*", "")


def _inflects(stem: str, pattern: str, templates: dict[str, Template]) -> bool:
    """False for indeclinables (no pattern, stem "-") and headwords that are themselves a form ("!")."""
    return bool(pattern) and "!" not in stem and stem != "-" and pattern in templates


def inflections(lemma_clean: str, stem: str, pattern: str, templates: dict[str, Template]) -> list[str]:
    """Every form of a headword: its clean lemma, plus stem + ending for each cell (in comps included)."""
    if not _inflects(stem, pattern, templates):
        return [lemma_clean]
    base = clean_stem(stem)
    forms = dict.fromkeys([lemma_clean])
    for ending, _label in templates[pattern].endings():
        if ending:
            forms[base + ending] = None
    return list(forms)


def grammar_pos(pos: str, headword_grammar: str) -> str:
    """The part of speech DPD writes in `lookup.grammar`: noun/verb for inflected classes, with overrides."""
    words = set(re.split(r"[ ,]+", headword_grammar))
    for override in GRAMMAR_OVERRIDES:
        if override in words and not (override == "adv" and pos == "sandhi"):
            return override
    if pos in NOUN_POS:
        return "noun"
    if pos in VERB_POS:
        return "verb"
    return pos


def grammar_entries(
    lemma_clean: str, stem: str, pattern: str, pos: str, headword_grammar: str, templates: dict[str, Template]
) -> Iterable[tuple[str, list[str]]]:
    """(form, [lemma_clean, pos', label]) for each labelled cell, "in comps" excepted."""
    if not _inflects(stem, pattern, templates):
        return
    base = "" if stem == "*" else clean_stem(stem)
    pos_label = grammar_pos(pos, headword_grammar)
    for ending, label in templates[pattern].endings(with_in_comps=False):
        if ending and label:
            yield base + ending, [lemma_clean, pos_label, label]
