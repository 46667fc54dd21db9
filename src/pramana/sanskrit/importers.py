"""Importing dictionaries that are not csl-orig text: slob files and the Sanskrit Heritage MW."""

from __future__ import annotations

import functools
import html
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from pramana.errors import InvalidInputError, SourceError
from pramana.sanskrit.html import plain, to_markdown
from pramana.sanskrit.slob import SlobFile
from pramana.sanskrit.source import LANGUAGES, Installed
from pramana.sanskrit.store import Dictionary, NewEntry, SanskritStore
from pramana.text.normalize import has_devanagari
from pramana.text.schemes import Scheme, convert, loose_key_from_slp1, slp1_readings

FORMATS = ("auto", "csl", "slob", "stardict", "heritage-mw")
_SLOB_KEY = re.compile(r'<div class="k">(.*?)</div>', re.S)
_SLOB_HEADWORD = re.compile(r"<b>(.*?)</b>", re.S)
_SLOB_BODY = re.compile(r"<blockquote>(.*)</blockquote>", re.S)
_SLP1 = re.compile(r"[A-Za-z~'|]+")

Progress = Callable[[int, int | None], None]


def detect_format(path: Path) -> str:
    if path.is_dir():
        if (path / "1.html").is_file():
            return "heritage-mw"
        raise InvalidInputError(f"{path} is a folder but not the Heritage MW edition (no 1.html)")
    with path.open("rb") as handle:
        start = handle.read(64)
    if start.startswith(b"!-1SLOB"):
        return "slob"
    if path.suffix == ".ifo":
        return "stardict"
    if b"<L>" in start or path.suffix == ".txt":
        return "csl"
    raise InvalidInputError(f"cannot tell the format of {path}; give --format ({', '.join(FORMATS[1:])})")


def _meta(code: str, name: str, fmt: str, source: str, year: str = "", licence: str = "") -> Dictionary:
    from_lang, to_lang = LANGUAGES.get(code, ("sa", "en"))
    return Dictionary(
        code=code, name=name, short_name=name, from_lang=from_lang, to_lang=to_lang,
        description=f"{name} (imported from {fmt})", year=year, licence=licence or "CC BY-NC-SA 3.0 (CDSL)",
        source=source, format="markdown", entry_count=0,
    )  # fmt: skip


# -- slob ------------------------------------------------------------------------------------------


def slob_entries(path: Path) -> Iterator[NewEntry]:
    number = 0
    for entry in SlobFile(path).entries():
        if not entry.content_type.startswith("text/html"):
            continue  # stylesheets and scripts
        # The `k` div holds a Harvard-Kyoto key (kRSNa), not SLP1; the <b> headword is IAST.
        headword = _SLOB_HEADWORD.search(entry.content)
        key_match = _SLOB_KEY.search(entry.content)
        if headword:
            key = convert(_letters(html.unescape(headword[1])), Scheme.IAST, Scheme.SLP1)
        elif key_match:
            key = convert(_letters(html.unescape(key_match[1])), Scheme.HK, Scheme.SLP1)
        else:
            key = convert(_letters(entry.keys[0]), Scheme.HK, Scheme.SLP1)
        if not key:
            continue
        body_match = _SLOB_BODY.search(entry.content)
        markdown = to_markdown(body_match[1] if body_match else entry.content)
        number += 1
        alternates = tuple(
            alt
            for alt in (convert(_letters(k), Scheme.HK, Scheme.SLP1) for k in entry.keys)
            if alt and alt != key
        )
        yield NewEntry(str(number), key, "", "", "", markdown, plain(markdown), alternates)


def _letters(word: str) -> str:
    """A headword without hyphens, numbers, spaces and punctuation ('a-', '1. a')."""
    return "".join(ch for ch in word if ch.isalpha() or ch in "'~")


def slob_name(path: Path, fallback: str) -> tuple[str, str]:
    label = SlobFile(path).tags.get("label", "")
    year = re.search(r"\((\d{4})\)", label)
    return (label or fallback), (year[1] if year else "")


# -- StarDict (through pyglossary) ----------------------------------------------------------------


def stardict_entries(path: Path) -> Iterator[NewEntry]:
    """Entries of a StarDict dictionary (`.ifo` + `.idx` + `.dict[.dz]`), read with pyglossary."""
    from pyglossary.glossary_v2 import Glossary

    Glossary.init()
    glossary = Glossary()
    if not glossary.directRead(str(path), formatName="Stardict"):
        raise SourceError(f"pyglossary could not read {path} as StarDict")
    number = 0
    for entry in glossary:
        if entry.isData():
            continue  # embedded resources (images, css)
        words = [w for w in entry.l_word if w.strip()]
        keys = [_slp1_key(word) for word in words]
        keys = [key for key in keys if key]
        if not keys:
            continue
        definition = entry.defi
        markdown = to_markdown(definition) if entry.defiFormat in ("h", "x") else definition.strip()
        number += 1
        yield NewEntry(
            str(number), keys[0], "", "", "", markdown, plain(markdown), tuple(dict.fromkeys(keys[1:]))
        )
    glossary.cleanup()


def _slp1_key(word: str) -> str:
    """A headword in whatever script a StarDict author used, as an SLP1 key."""
    readings = slp1_readings(_letters(word) if not has_devanagari(word) else word.strip())
    return readings[0] if readings else ""


def stardict_name(path: Path, fallback: str) -> str:
    for line in path.read_text("utf-8", errors="replace").splitlines():
        if line.startswith("bookname="):
            return line.split("=", 1)[1].strip() or fallback
    return fallback


# -- Sanskrit Heritage edition of Monier-Williams ---------------------------------------------------

# A headword block opens with `<div class = "her">` (after an `<hr>`, except the first of a page, which
# follows the page header); a sense paragraph with `<p xmlns="">`.
_UNIT = re.compile(r'<hr xmlns="">|<div class = "her">|<p xmlns="">')
_DEVA = re.compile(r'<span class="Deva">(.*?)</span>', re.S)
_HEADWORD_IAST = re.compile(r'\[<i><a class="Blue">\s*(.*?)\s*</a>', re.S)
_HOMONYM = re.compile(r"\]\s*(\d+)")
_PAGE_END = re.compile(r"</body>.*", re.S)


def heritage_entries(folder: Path, progress: Progress | None = None) -> Iterator[NewEntry]:
    pages = sorted(folder.glob("*.html"), key=lambda p: int(p.stem) if p.stem.isdigit() else -1)
    pages = [p for p in pages if p.stem.isdigit()]
    if not pages:
        raise SourceError(f"{folder} holds no numbered pages (1.html … 317.html)")
    number = 0
    key = ""
    for index, page in enumerate(pages, start=1):
        text = _PAGE_END.sub("", page.read_text("utf-8"))
        starts = [m.start() for m in _UNIT.finditer(text)]
        for start, end in zip(starts, [*starts[1:], len(text)], strict=True):
            unit = text[start:end]
            homonym = ""
            if unit.startswith(("<hr", "<div")):
                deva = _DEVA.search(unit)
                if deva is None:
                    continue
                key = convert(html.unescape(deva[1]).strip(), Scheme.DEVANAGARI, Scheme.SLP1)
                iast = _HEADWORD_IAST.search(unit)
                after = unit[iast.end() :] if iast else ""
                second = after.find("]", after.find("[") + 1) if "[" in after else -1
                homonym_match = _HOMONYM.match(after[second:]) if second >= 0 else None
                homonym = homonym_match[1] if homonym_match else ""
            elif not key:
                continue
            markdown = to_markdown(unit)
            if not markdown:
                continue
            number += 1
            yield NewEntry(str(number), key, "", homonym, f"{page.stem}.html", markdown, plain(markdown))
        if progress:
            progress(index, len(pages))


# -- the import command ----------------------------------------------------------------------------


def import_path(
    store: SanskritStore, path: Path, code: str, name: str | None = None, fmt: str = "auto",
    progress: Progress | None = None,
) -> Installed:  # fmt: skip
    """Import a local dictionary file or folder as dictionary `code`, atomically."""
    from pramana.sanskrit.source import import_csl

    path = path.expanduser()
    if not path.exists():
        raise InvalidInputError(f"{path} does not exist")
    code = code.strip().lower()
    if not code.isalnum() or len(code) > 16:
        raise InvalidInputError(f"dictionary code {code[:20]!r} must be letters and digits")
    fmt = detect_format(path) if fmt == "auto" else fmt
    if fmt not in FORMATS:
        raise InvalidInputError(f"unknown format {fmt!r}; use one of: {', '.join(FORMATS)}")
    started = time.perf_counter()
    if fmt == "csl":
        return import_csl(
            store, code, path, path.with_name(f"{code}header.xml"), path.with_name(f"{code}_hwextra.txt"),
            str(path), name,
        )  # fmt: skip
    if fmt == "slob":
        label, year = slob_name(path, code)
        meta = _meta(code, name or label, "slob", str(path), year)
        count = store.replace_dictionary(meta, slob_entries(path), loose_key_from_slp1)
    elif fmt == "stardict":
        meta = _meta(code, name or stardict_name(path, code), "StarDict", str(path))
        count = store.replace_dictionary(meta, stardict_entries(path), loose_key_from_slp1)
    else:
        title = name or "Monier-Williams Sanskrit-English Dictionary"
        meta = _meta(code, title, "the Sanskrit Heritage XHTML edition", str(path), "1899")
        maker = functools.partial(heritage_entries, path)
        count = store.replace_dictionary(meta, maker, loose_key_from_slp1, progress)
    return Installed(code, count, 0, round(time.perf_counter() - started, 2))
