"""A lecture transcript to notes: the Gita quotes corrected, the verses quoted given in full.

The vedabase-mcp spec's `lecture_to_notes.py` pipeline, with pramana called in process (no MCP
client, no server): correct the transcript, then look up every verse it quotes or names.

    python examples/lecture_to_notes.py lecture.txt -o notes.md [--translator siva]

Run it with the Python pramana is installed in (`uv run python …` in a checkout). The translations
come from the gita cache (`pramana gita seed` once); without them the verses are given in Sanskrit.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from pramana.api import Gita, TranscriptCorrection
from pramana.errors import PramanaError

# A reference the speaker gave in words that Whisper wrote down, e.g. "BG 2.47" or "Gita 2.47".
NAMED_REF = re.compile(r"\b(?:BG|Gita)\s+(\d{1,2}\.\d{1,2})\b")


def verses_quoted(corrected: TranscriptCorrection) -> list[str]:
    """The verses a transcript quotes (corrected spans) or names, in order of first mention."""
    refs = [span.ref for span in corrected.spans if span.status == "replaced" and span.ref]
    refs += [f"BG {number}" for number in NAMED_REF.findall(corrected.corrected)]
    return list(dict.fromkeys(refs))


def lecture_to_notes(transcript: str, gita: Gita) -> str:
    corrected = gita.correct(transcript)
    parts = ["# Lecture notes", "", corrected.corrected.strip(), "", "## Verses quoted", ""]
    for ref in verses_quoted(corrected):
        verse = gita.lookup(ref)
        parts += [f"### {verse.ref}", "", *(f"_{line}_" for line in verse.transliteration.splitlines()), ""]
        if verse.translation is not None:
            parts += [f"{verse.translation.text} ({verse.translation.author})", ""]
        else:
            parts += ["(translation not cached: run `pramana gita seed` once)", ""]
        parts += [f"[Read on Vedabase]({verse.vedabase_url})", ""]
    unsure = [span for span in corrected.spans if span.status == "flagged"]
    if unsure:
        parts += ["## To check", ""]
        parts += [f"- {span.original!r} may be {', '.join(span.candidates)}" for span in unsure]
    return "\n".join(parts).rstrip() + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("transcript", type=Path)
    parser.add_argument("-o", "--output", type=Path, help="where to write the notes (default: stdout)")
    parser.add_argument("--translator", help="author key or name, e.g. siva (default: Prabhupada)")
    args = parser.parse_args()
    try:
        with Gita(translator=args.translator) as gita:
            notes = lecture_to_notes(args.transcript.read_text(encoding="utf-8"), gita)
    except (PramanaError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.output is None:
        sys.stdout.write(notes)
    else:
        args.output.write_text(notes, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
