"""Splitting a verse's text (IAST or Devanāgarī, as the dataset writes them) into lines, and the
dataset's IAST marks turned into the proper ones."""

from __future__ import annotations

import re

# "||2-47||", "||२-४७||" at the end of a verse, and the daṇḍas: "|", "।", and " ." in the IAST.
_VERSE_NUMBER = re.compile(r"\|\|\s*[\d०-९]+\s*-\s*[\d०-९]+\s*\|\||॥\s*[\d०-९.\-]+\s*॥")
_DANDA = re.compile(r"\s*(?:\|\||\||॥|।|\s\.)\s*$")
_DANDA_ENDS = ("|", "॥", "।", " .")
# "arjuna uvāca", "śrī bādarāyaṇir uvāca", "devā ūcuḥ", "śrībhagavānuvāca", "śrī-rājovāca", "श्रीभगवानुवाच":
# a short line that ends in "said" (a longer one, "…iti hovāca", is the verse's own words)
_SPEAKER = re.compile(
    r"^(?:\S+\s+){0,2}(?:uvāca|uvaca|ūcuḥ|ucuḥ|उवाच|ऊचुः)\s*[.|।]?\s*$"
    r"|^\S*(?:[uo]vāca|[uo]vaca|[ुो]वाच)\s*[.|।]?\s*$"
)
# The dataset's IAST writes the avagraha as "." plus the elided "a" (saṅgo.astvakarmaṇi), the
# half-verse daṇḍa as " ." and, once (12.5), as " ||" before the verse's end, and the candrabindu
# (ँ, m̐ in IAST) as ".N" (śraddhāvā.Nllabhate).
_DATA_CANDRABINDU = re.compile(r"\.N")
_DATA_AVAGRAHA = re.compile(r"(?<=[^\W\d_])\.a")
_DATA_DANDA = re.compile(r" \.$", re.MULTILINE)
_INNER_DOUBLE_DANDA = re.compile(r" \|\|$", re.MULTILINE)
# An apostrophe between letters in a query: an avagraha (so'pi, saṅgo'stv…), unless what follows is
# an English clitic (one's, don't, we'll).
_QUERY_AVAGRAHA = re.compile(r"(?<=[^\W\d_])['’](?!(?:s|t|d|ll|re|ve|m)\b)(?=[^\W\d_])", re.IGNORECASE)


def is_speaker_line(line: str) -> bool:
    """ "arjuna uvāca .", "श्रीभगवानुवाच |": who speaks, not what is recited."""
    return ("वाच" in line or "vāc" in line or "vac" in line or "cu" in line) and bool(
        _SPEAKER.match(line.strip())
    )


def verse_lines(text: str) -> list[str]:
    """The recited lines of a verse: verse number, daṇḍas and speaker lines removed."""
    return split_verse(text)[0]


def split_verse(text: str) -> tuple[list[str], list[str]]:
    """A verse's recited lines and its speaker lines ("śrī-śuka uvāca"), verse number and daṇḍas removed."""
    recited, speakers = [], []
    if "|" in text or "॥" in text:
        text = _VERSE_NUMBER.sub("", text)
    for raw in text.splitlines():
        line = raw.strip()
        if line.endswith(_DANDA_ENDS):
            line = _DANDA.sub("", line).strip()
        if line:
            (speakers if is_speaker_line(raw) else recited).append(line)
    return recited, speakers


def proper_iast(text: str) -> str:
    """The dataset's IAST with proper marks: "kadācana ." → "kadācana |", "saṅgo.astv…" → "saṅgo'stv…"."""
    text = _DATA_CANDRABINDU.sub("m\u0310", text)
    text = _DATA_AVAGRAHA.sub("'", text)
    text = _DATA_DANDA.sub(" |", text)
    return _INNER_DOUBLE_DANDA.sub(" |", text)


def avagraha_as_data(query: str) -> str:
    """A query's avagraha written as the dataset's IAST writes it: "saṅgo'stv…" → "saṅgo.astv…"."""
    return _QUERY_AVAGRAHA.sub(".a", query)
