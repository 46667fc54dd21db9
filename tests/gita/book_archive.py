"""Archives in upstream's layout for the book tests: a small one written from scratch, and the shared
copy with translations added. Every translation, word meaning and purport here was written for these
tests (nothing of the BBT's): the words 'quillwort' and 'lanternfish' mark them."""

from __future__ import annotations

import gzip
import io
import json
import tarfile
from pathlib import Path

TOP = "slides-2460884c17200ac6861bbaa479b1662e416461fe"

# Texts written for the tests, in the fields upstream's files have (translation, synonyms, purport).
OWN_TEXTS: dict[str, dict[str, object]] = {
    "sb/1/2/6": {
        "synonyms": "saḥ—quillwort that; vai—quillwort surely",
        "translation": "A quillwort sentence: the best calling of a person is a steady love that asks for"
        " nothing, and in it the self is content.",
        "purport": [{"type": "normal", "content": "A lanternfish purport that must never be stored."}],
    },
    "sb/10/1/5-7": {
        "translation": "A quillwort sentence for three verses: the grandfathers crossed the army like a"
        " calf's footprint.",
    },
    "cc/adi/17/31": {
        "translation": "A quillwort sentence: be humbler than grass and more patient than a tree, and"
        " chant the names always.",
        "purport": [{"type": "normal", "content": "A lanternfish purport again."}],
    },
}


def write_archive(
    files: dict[str, str | bytes], target: Path, *, top: str = TOP, elsewhere: dict[str, str] | None = None
) -> Path:
    """A .tar.gz holding `files` (paths below `<top>/books/json/`) as upstream's archive lays them out,
    and `elsewhere` (paths below `<top>/`: the repository's other folders)."""
    members = {f"{top}/books/json/{path}": content for path, content in files.items()}
    members.update({f"{top}/{path}": content for path, content in (elsewhere or {}).items()})
    with tarfile.open(target, "w:gz", compresslevel=1) as tar:
        for path, content in members.items():
            data = content if isinstance(content, bytes) else content.encode("utf-8")
            info = tarfile.TarInfo(path)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return target


def write_folder(files: dict[str, str | bytes], root: Path, *, top: str = TOP) -> Path:
    """The same files unpacked: `<root>/<top>/books/json/...`."""
    for path, content in files.items():
        target = root / top / "books" / "json" / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    return root / top


def verse_file(ref_id: str, *stanzas: str, **fields: object) -> str:
    """A verse file as upstream writes them (prevId/nextId deliberately unhelpful)."""
    document = {
        "info": {"id": ref_id, "prevId": "sb/1/1/1", "nextId": None},
        "verses": [{"roman": stanza} for stanza in stanzas],
        **fields,
    }
    return json.dumps(document, ensure_ascii=False, indent=4)


def with_own_translations(shared: Path, target: Path) -> Path:
    """The shared archive with OWN_TEXTS added to their verses' files: same layout, same verses."""
    wanted = {f"/books/json/{key}.json": fields for key, fields in OWN_TEXTS.items()}
    with tarfile.open(shared, "r:gz") as source, tarfile.open(target, "w:gz", compresslevel=1) as out:
        for member in source:
            handle = source.extractfile(member) if member.isfile() else None
            data = handle.read() if handle else None
            extra = next((fields for end, fields in wanted.items() if member.name.endswith(end)), None)
            if data is not None and extra is not None:
                document = json.loads(data)
                document.update(extra)
                data = json.dumps(document, ensure_ascii=False).encode("utf-8")
                member.size = len(data)
            out.addfile(member, io.BytesIO(data) if data is not None else None)
    return target


def truncated(archive: Path, target: Path, keep: float = 0.6) -> Path:
    """The first part of an archive, as an interrupted copy leaves it."""
    data = archive.read_bytes()
    target.write_bytes(data[: int(len(data) * keep)])
    return target


def without(archive: Path, target: Path, *ends: str) -> Path:
    """The archive less the members whose names end with any of `ends` (a short archive)."""
    with tarfile.open(archive, "r:gz") as source, tarfile.open(target, "w:gz", compresslevel=1) as out:
        for member in source:
            if member.name.endswith(ends):
                continue
            out.addfile(member, source.extractfile(member) if member.isfile() else None)
    return target


def gzip_of(text: str) -> bytes:
    return gzip.compress(text.encode("utf-8"))
