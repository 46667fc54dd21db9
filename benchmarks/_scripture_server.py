"""A stand-in MCP server over the Gītā, the Śrīmad-Bhāgavatam and the Caitanya-caritāmṛta, for the
benchmarks: `fuzzy_match_verse` and `correct_transcript` as the gita server runs them (the same matcher
and transcript code, a worker thread per call), over stdio.

Until pramana installs SB and CC itself, the gita server knows only the Gītā; this one builds its
matcher at start from the packaged Gītā and the shared archive (benchmarks/_gita_scripture.py reads it).

    python benchmarks/_scripture_server.py PATH/TO/slides-2460884c-verses.tar.gz
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

from mcp.server.mcpserver import MCPServer
from pydantic import Field

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._gita_scripture import read_scripture
from pramana.gita import packaged, transcript
from pramana.gita.matcher import IndexedVerse
from pramana.gita.phonetic_matcher import PhoneticMatcher


def all_books(archive: Path) -> list[IndexedVerse]:
    """The Gītā's verses, then SB's and CC's, as the matcher indexes them."""
    others = [IndexedVerse(v.ref, v.text, "", v.book) for v in read_scripture(archive)]
    return [*packaged.indexed_verses(), *others]


def main() -> None:
    matcher = PhoneticMatcher(all_books(Path(sys.argv[1])), packaged.english_words())
    app = MCPServer("scripture-bench")

    @app.tool()
    def fuzzy_match_verse(
        garbled_sanskrit: Annotated[str, Field(max_length=2_000)],
        top_n: Annotated[int, Field(ge=1, le=5)] = 3,
        books: list[str] | None = None,
    ) -> dict:
        """Match garbled Sanskrit to the verses of every book (or of `books`)."""
        report = matcher.match(garbled_sanskrit, top_n, books=books)
        return {
            "query": report.query,
            "confident": report.confident,
            "notes": list(report.notes),
            "matches": [
                {
                    "ref": str(m.ref),
                    "book": m.book,
                    "score": m.score,
                    "matched": m.matched,
                    "also_in": [str(ref) for ref in m.also_in],
                    "recurs": m.recurs,
                }
                for m in report.matches
            ],
        }

    @app.tool()
    def correct_transcript(text: Annotated[str, Field(max_length=1_000_000)]) -> dict:
        """Replace the confident quotes of a transcript, from any book."""
        corrected, spans = transcript.correct(matcher, text)
        return {
            "corrected": corrected,
            "spans": [
                {
                    "start": s.start,
                    "end": s.end,
                    "status": s.status,
                    "ref": str(s.report.matches[0].ref) if s.report.matches else None,
                }
                for s in spans
            ],
        }

    app.run("stdio")


if __name__ == "__main__":
    main()
