"""What the tests of pramana's own gita texts (data/topics.json, data/reader_questions.json) share:
the copyright guard's word runs of the mirror's English, and a seeded cache's English texts."""

import functools
import json
import re
import unicodedata
from collections.abc import Iterable
from pathlib import Path

from pramana.config import GitaSettings
from pramana.gita.reference import VerseRef, all_refs
from pramana.gita.service import GitaService

SHARED_RUN = 8  # words in a row pramana's own text may not share with any translation or commentary
Run = tuple[str, ...]


def words(text: str) -> list[str]:
    """Lower-case letters-only words, diacritics folded ("Kṛṣṇa" reads as "krsna")."""
    folded = unicodedata.normalize("NFKD", text.lower())
    return re.findall(r"[a-z]+", "".join(ch for ch in folded if not unicodedata.combining(ch)))


def runs_of(text: str) -> list[Run]:
    """Every SHARED_RUN words in a row of `text`."""
    found = words(text)
    return [tuple(found[i : i + SHARED_RUN]) for i in range(len(found) - SHARED_RUN + 1)]


@functools.cache
def mirror_runs(mirror: Path) -> frozenset[Run]:
    """The runs of every English translation and commentary (`et`, `ec`) of every author and verse
    in the mirror; read once for all the tests that guard against copying."""
    runs: set[Run] = set()
    for ref in all_refs():
        path = mirror / "slok" / str(ref.chapter) / str(ref.verse) / "index.json"
        verse = json.loads(path.read_text(encoding="utf-8"))
        for fields in verse.values():
            if isinstance(fields, dict):
                for field in ("et", "ec"):
                    runs.update(runs_of(fields.get(field, "")))
    return frozenset(runs)


def copied(texts: Iterable[tuple[VerseRef, str]], runs: frozenset[Run]) -> dict[str, str]:
    """{ref: the first run it shares with `runs`} of each of `texts` that shares one."""
    found: dict[str, str] = {}
    for ref, text in texts:
        shared = next((" ".join(run) for run in runs_of(text) if run in runs), None)
        if shared is not None:
            found[str(ref)] = shared
    return found


def english_texts(seeded_db: Path) -> dict[VerseRef, list[tuple[str, str]]]:
    """A seeded cache's English texts by verse, as question search reads them."""
    service = GitaService(
        GitaSettings(db_path=seeded_db, api_url="http://127.0.0.1:9"), embedder_factory=lambda: None
    )
    try:
        return service.store.english_texts()
    finally:
        service.close()
