"""prepare()'s rows: a chunk's identifiers are found once, for both its BM25 bag and its static vector;
what it stores must be what each would make from the chunk's own text (every byte of the bag and
of the vector), whatever that text holds."""

from __future__ import annotations

from array import array
from pathlib import Path

import pytest

from pramana.code.index.prepare import embedded_text, prepare
from pramana.code.index.walk import RepoFile
from pramana.code.search.terms import _stemmed_terms, identifiers, path_words
from pramana.text.stem import stem

LONG_BODY = "\n".join(f"    total_{n} = compute_value(total_{n - 1}, offset={n})" for n in range(1, 80))
SOURCE = f'''"""Invoice totals."""

import decimal


class InvoiceTotals:
    """Totals of an invoice: lines, tax, discount."""

    def invoice_total(self, lines):
        total = sum(line.amount for line in lines)
        return self.invoice_tax(total) + total

    def invoice_tax(self, total):
        return total * decimal.Decimal("0.2")

    def label(self):
        return "Rechnungsbetrag für Käufer"  # not ASCII: the tokenizer reads its words otherwise


def long_total(values):
    total_0 = 0
{LONG_BODY}
    return total_79


def size(values):
    return len(values)
'''


def reference_bag(parent: str | None, name: str | None, path: str, content: str) -> tuple[tuple, bytes]:
    """A chunk's bag as BM25 weighs it, counted term by term: its name's terms three times, its text's
    and its path's once, in the order they first come."""
    counts: dict[str, float] = {}
    for identifier in identifiers(f"{parent or ''} {name or ''}"):
        for term in _stemmed_terms(identifier):
            counts[term] = counts.get(term, 0.0) + 3.0
    for identifier in identifiers(content):
        for term in _stemmed_terms(identifier):
            counts[term] = counts.get(term, 0.0) + 1.0
    for word in path_words(path):
        counts[stem(word)] = counts.get(stem(word), 0.0) + 1.0
    return tuple(counts), array("f", counts.values()).tobytes()


@pytest.fixture
def prepared(tmp_path: Path, static):
    (tmp_path / "billing").mkdir()
    path = tmp_path / "billing" / "invoice_totals.py"
    path.write_text(SOURCE, encoding="utf-8")
    stat = path.stat()
    file = RepoFile("billing/invoice_totals.py", "python", "", stat.st_size, stat.st_mtime_ns)
    outcome = prepare(str(tmp_path), file, None, static)
    assert outcome.prepared is not None and outcome.prepared.vectors is not None
    return outcome.prepared


def test_the_chunks_cover_every_case_of_the_shared_pass(prepared):
    contents = [chunk[6] for chunk in prepared.chunks]
    texts = [embedded_text(prepared.file.path, chunk) for chunk in prepared.chunks]
    assert any(content.isascii() for content in contents)
    assert any(not content.isascii() for content in contents)  # the label
    assert any(len(text) < len(chunk[6]) for text, chunk in zip(texts, prepared.chunks, strict=True))
    assert any(chunk[2] is None for chunk in prepared.chunks)  # the module's own lines
    assert any(chunk[2] and chunk[2].startswith("invoice") for chunk in prepared.chunks)


def test_each_chunk_s_bag_is_its_terms_counted_one_by_one(prepared):
    for chunk in prepared.chunks:
        terms, weights = chunk[7]
        assert (terms, weights) == reference_bag(chunk[3], chunk[2], prepared.file.path, chunk[6])


def test_each_chunk_s_vector_is_that_of_its_own_text_byte_for_byte(prepared, static):
    for chunk, vector in zip(prepared.chunks, prepared.vectors, strict=True):
        alone = static.embed([embedded_text(prepared.file.path, chunk)])[0]
        assert vector.tobytes() == alone.tobytes()
        assert abs(float(vector @ vector) - 1.0) < 1e-5


def _ascii_texts() -> list[str]:
    """Every ASCII character alone, beside a letter and between words; the separators str.split()
    takes for white space (\\x1c-\\x1f, \\v, \\f); runs of `_` and digits; random mixes of all 128."""
    import random

    every = [chr(code) for code in range(128)]
    texts = [*every, "".join(every), *(f"a{c}b{c}{c}c_1" for c in every)]
    texts += [
        "",
        "   ",
        "__init__ 12ab x9_ _",
        "a\x1cb\x1dc\x1ed\x1fe\vf\fg",
        "fn main() -> Result<(), E> {}",
    ]
    chosen = random.Random(28)
    texts += ["".join(chosen.choice(every) for _ in range(chosen.randrange(1, 200))) for _ in range(500)]
    return texts


def test_the_words_of_ascii_text_are_those_the_regex_finds():
    """identifiers() and the static table's tokenizer split ASCII text with ascii_words (translate and
    split, in C) in place of re.findall(r"[A-Za-z0-9_]+"): the same words in the same order."""
    import re

    from pramana.embed import WordPieces
    from pramana.text.identifiers import ascii_words

    pattern = re.compile(r"[A-Za-z0-9_]+")
    for text in _ascii_texts():
        assert ascii_words(text) == pattern.findall(text) == identifiers(text), repr(text)
    pieces = WordPieces(["[UNK]", "a", "b", "##b", "c", "##c", "fn", "main", "1", "##2", "_"])
    for text in _ascii_texts():
        words = pattern.findall(text)
        assert pieces.text_ids(text) == [i for word in words for i in pieces[word]], repr(text)
