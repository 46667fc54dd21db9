"""Cutting text without a grammar: markdown by section, anything else by windows of lines."""

from __future__ import annotations

import re
from collections.abc import Iterator

from pramana.code.parse.types import Chunk

MAX_CHUNK_LINES = 150  # a longer definition or section is cut into overlapping windows
WINDOW_LINES = 60
WINDOW_OVERLAP = 10


def text_chunks(path: str, language: str, package: str, text: str) -> list[Chunk]:
    lines = text.splitlines()
    sections = markdown_sections(lines) if language == "markdown" else None
    if sections is None:
        sections = [(None, start, end) for start, end in line_windows(1, len(lines))]
    kind = "section" if language == "markdown" else "lines"
    return [
        make_chunk(path, language, package, kind, name, start, end, lines) for name, start, end in sections
    ]


def line_windows(start: int, end: int) -> Iterator[tuple[int, int]]:
    """Windows of WINDOW_LINES lines overlapping by WINDOW_OVERLAP, covering start..end."""
    if end < start:
        return
    position = start
    while True:
        stop = min(end, position + WINDOW_LINES - 1)
        yield position, stop
        if stop >= end:
            return
        position = stop - WINDOW_OVERLAP + 1


def split_long(start: int, end: int) -> Iterator[tuple[int, int]]:
    if end - start + 1 <= MAX_CHUNK_LINES:
        yield start, end
    else:
        yield from line_windows(start, end)


# No quantifiers that can trade characters with each other: `(.+?)\s*#*\s*$` took minutes on one
# 4,000-character line of spaces (cubic backtracking); the closing #s are stripped in Python.
_HEADING = re.compile(r"^#{1,6}\s+(.+)$")
_FENCE = re.compile(r"^\s*(```|~~~)")


def markdown_sections(lines: list[str]) -> list[tuple[str | None, int, int]]:
    """(heading, first line, last line) of each section; long sections become windows."""
    starts: list[tuple[int, str | None]] = []
    in_fence = False
    for number, line in enumerate(lines, 1):
        if _FENCE.match(line):
            in_fence = not in_fence
            continue
        heading = None if in_fence else _heading(line)
        if heading is not None:
            starts.append((number, heading))
    if not starts or starts[0][0] != 1:
        starts.insert(0, (1, None))
    sections = []
    for index, (start, name) in enumerate(starts):
        end = starts[index + 1][0] - 1 if index + 1 < len(starts) else len(lines)
        for window_start, window_end in split_long(start, end):
            sections.append((name, window_start, window_end))
    return [s for s in sections if any(lines[i - 1].strip() for i in range(s[1], s[2] + 1))]


def _heading(line: str) -> str | None:
    """The text of an ATX heading ('## Title ##' -> 'Title'), None if the line is none."""
    match = _HEADING.match(line)
    if match is None:
        return None
    text = match[1]
    return text.rstrip().rstrip("#").rstrip() or text[:1]


def make_chunk(
    path: str, language: str, package: str, kind: str, name: str | None, start: int, end: int,
    lines: list[str],
    parent: str | None = None,
) -> Chunk:  # fmt: skip
    return Chunk(path, language, package, kind, name, start, end, "\n".join(lines[start - 1 : end]), parent)
