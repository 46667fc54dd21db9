"""Make src/pramana/gita/data/gita_text.json.gz from a mirror of the vedicscriptures data.

    uv run python scripts/make_gita_text.py ../shared/data/gita/mirror

Reads slok/{chapter}/{verse}/index.json for the 701 verses (the 18 chapter colophons are skipped):
the `slok` (Devanāgarī) and `transliteration` (IAST) fields, cleaned as the seed cleans them
(pramana.text.normalize.clean_text) and the IAST given proper marks (pramana.gita.verse_text.proper_iast);
and the English words of Prabhupada's and Purohit Swami's translations (the two the scraping left
intact), which tell English from Sanskrit in transcripts. The output is the same for the same mirror.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
from pathlib import Path

from pramana.gita.reference import all_refs
from pramana.gita.verse_text import proper_iast
from pramana.text.normalize import clean_text

OUTPUT = Path(__file__).resolve().parent.parent / "src" / "pramana" / "gita" / "data" / "gita_text.json.gz"
ENGLISH_AUTHORS = ("prabhu", "purohit")
# A lower-case word standing alone: no capital or accented letter joined to it (so no "Arjuna",
# no piece of "Kṛṣṇa").
_LOWER_WORD = re.compile(
    r"(?<![A-Za-z\u00C0-\u024F\u1E00-\u1EFF])[a-z]+(?![A-Za-z\u00C0-\u024F\u1E00-\u1EFF])"
)


def _verse_document(mirror: Path, chapter: int, verse: int) -> dict:
    return json.loads((mirror / "slok" / str(chapter) / str(verse) / "index.json").read_text("utf-8"))


def build(mirror: Path) -> dict:
    """The packaged document: [[chapter, verse, devanagari, iast], ...] and the English words."""
    verses, english = [], set()
    for ref in all_refs():
        doc = _verse_document(mirror, ref.chapter, ref.verse)
        devanagari, iast = clean_text(doc["slok"]), proper_iast(clean_text(doc["transliteration"]))
        verses.append([ref.chapter, ref.verse, devanagari, iast])
        for author in ENGLISH_AUTHORS:
            block = doc.get(author)
            if isinstance(block, dict) and isinstance(block.get("et"), str):
                english.update(_LOWER_WORD.findall(clean_text(block["et"])))
    return {"verses": verses, "english_words": sorted(english)}


def encode(document: dict) -> bytes:
    """Gzipped JSON with no timestamp: the same document gives the same bytes."""
    text = json.dumps(document, ensure_ascii=False, separators=(",", ":"))
    return gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("mirror", type=Path, help="the mirror directory (it holds slok/)")
    parser.add_argument("--output", type=Path, default=OUTPUT)
    args = parser.parse_args()
    data = encode(build(args.mirror))
    args.output.write_bytes(data)
    print(f"wrote {args.output} ({len(data):,} bytes)")


if __name__ == "__main__":
    main()
