"""Splitting a verse's text (IAST or Devanāgarī, as the dataset writes them) into lines."""

from __future__ import annotations

import re

# "||2-47||", "||२-४७||" at the end of a verse, and the daṇḍas: "|", "।", and " ." in the IAST.
_VERSE_NUMBER = re.compile(r"\|\|\s*[\d०-९]+\s*-\s*[\d०-९]+\s*\|\||॥\s*[\d०-९.\-]+\s*॥")
_DANDA = re.compile(r"\s*(?:\|\||\||॥|।|\s\.)\s*$")
_SPEAKER = re.compile(r"(?:uvāca|uvaca|[उु]वाच)\s*(?:\.|\||।)?\s*$")


def is_speaker_line(line: str) -> bool:
    """ "arjuna uvāca .", "श्रीभगवानुवाच |": who speaks, not what is recited."""
    return bool(_SPEAKER.search(line))


def verse_lines(text: str) -> list[str]:
    """The recited lines of a verse: verse number, daṇḍas and speaker lines removed."""
    lines = []
    for raw in _VERSE_NUMBER.sub("", text).splitlines():
        line = _DANDA.sub("", raw.strip()).strip()
        if line and not is_speaker_line(raw.strip()):
            lines.append(line)
    return lines
