"""Correcting a Bhāgavatam class over all three books: quotes of any book replaced by their verse, the
names a class says all the time (Caitanya Mahāprabhu, Mahārāja Parīkṣit) left alone although verses hold
them, and nothing outside the replaced quotes changed."""

from __future__ import annotations

import pytest

from benchmarks._gita_scripture_cases import Holders, Verse, make_scripture_cases
from pramana.gita import transcript

pytestmark = pytest.mark.data

CLASS = (
    "So in this chapter Sukadeva Gosvami is describing to Maharaja Pariksit how the devotee should live. "
    "Srila Prabhupada would quote, sa vai pumsam paro dharmo yato bhaktir adhokshaje, and he explained it. "
    "Caitanya Mahaprabhu showed by His own example how to chant: trinad api sunicena taror iva sahisnuna, "
    "that is the qualification. And Krishna says, sarva dharman parityajya mam ekam saranam vraja. "
    "Prahlada Maharaja was only five years old. The conclusion is jivera svarupa haya krsnera nitya dasa."
)
REPLACED = {
    "sa vai pumsam paro dharmo yato bhaktir adhokshaje": "SB 1.2.6",
    "trinad api sunicena taror iva sahisnuna": "CC Ādi 17.31",
    "sarva dharman parityajya mam ekam saranam vraja": "BG 18.66",
    "jivera svarupa haya krsnera nitya dasa": "CC Madhya 20.108-109",
}


def kept_outside(text: str, corrected: str, spans: list[transcript.Span]) -> str:
    """The corrected text with each rewrite taken back out: equal to the input less its rewritten spans."""
    rest, pieces, position = corrected, [], 0
    for span in (s for s in spans if s.status != "ignored"):
        kept = text[position : span.start]
        assert rest.startswith(kept), (kept, rest[:80])
        pieces.append(kept)
        rest = rest[len(kept) :]
        top = span.report.matches[0]
        rewrite = f"_{top.matched}_ ({top.ref})" if span.status == "replaced" else f"{span.original} ["
        assert rest.startswith(rewrite), (rewrite, rest[:80])
        rest = rest[len(rewrite) :] if span.status == "replaced" else rest[rest.index("]") + 1 :]
        position = span.end
    return "".join(pieces) + rest


def test_a_bhagavatam_class_is_corrected_from_every_book(every_book):
    corrected, spans = transcript.correct(every_book, CLASS)
    replaced = {span.original: str(span.report.matches[0].ref) for span in spans if span.status == "replaced"}
    assert replaced == REPLACED
    for name in ("Sukadeva Gosvami", "Maharaja Pariksit", "Caitanya Mahaprabhu", "Prahlada Maharaja"):
        assert name in corrected
        assert all(name not in span.original for span in spans if span.status != "ignored")
    assert "_sarvadharmānparityajya māmekaṃ śaraṇaṃ vraja_ (BG 18.66)" in corrected
    assert kept_outside(CLASS, corrected, spans) == _without(CLASS, spans)


def _without(text: str, spans: list[transcript.Span]) -> str:
    kept, position = [], 0
    for span in (s for s in spans if s.status != "ignored"):
        kept.append(text[position : span.start])
        position = span.end
    return "".join(kept) + text[position:]


def test_planted_garbled_quotes_change_nothing_around_them(every_book, scripture):
    verses = [Verse(v.ref, v.text) for v in scripture]
    cases = [c for c in make_scripture_cases(verses, Holders(verses), 3, seed=99) if c.kind != "devanagari"]
    text = " ".join(f"Now listen to this. {case.text} This is the essence, you see." for case in cases)
    corrected, spans = transcript.correct(every_book, text)
    assert kept_outside(text, corrected, spans) == _without(text, spans)
    replaced = [(s.original, str(s.report.matches[0].ref)) for s in spans if s.status == "replaced"]
    quoted = [(original, ref, [c for c in cases if original in c.text]) for original, ref in replaced]
    assert all(any(ref in c.expected for c in of) for _, ref, of in quoted), quoted  # none wrong
    assert len(replaced) >= len(cases) * 0.6, (len(replaced), len(cases))
