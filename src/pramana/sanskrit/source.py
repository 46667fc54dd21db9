"""Getting dictionaries in: csl-orig text (with headers and alternate headwords) from a URL or folder."""

from __future__ import annotations

import functools
import itertools
import json
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from pramana.download import download, file_sha256
from pramana.errors import (
    InvalidInputError,
    NotFoundError,
    PramanaError,
    SourceUnreachableError,
    offline_error,
)
from pramana.install import rerun
from pramana.sanskrit.csl import (
    AltHeadword,
    Header,
    Record,
    parse_header,
    parse_hwextra,
    parse_records,
    plain_text,
    synonym_keys,
)
from pramana.sanskrit.forms import DHATUPATHA_SHA256, DHATUPATHA_URL
from pramana.sanskrit.store import Dictionary, EntryMaker, NewEntry, SanskritStore
from pramana.text.schemes import loose_key_from_slp1

# A csl-orig text this large is read in a second process while the first writes (Apte's: 12 MB).
WORKER_FROM_BYTES = 2_000_000
DEFAULT_CSL_SOURCE = "https://raw.githubusercontent.com/sanskrit-lexicon/csl-orig/master/v02"
Progress = Callable[[str, int, int | None], Awaitable[None]]

# (source language, target language) of the Cologne dictionaries.
LANGUAGES: dict[str, tuple[str, str]] = {
    "abch": ("sa", "sa"), "acc": ("sa", "en"), "acph": ("sa", "sa"), "acsj": ("sa", "sa"), "ae": ("en", "sa"),
    "ap": ("sa", "en"), "ap90": ("sa", "en"), "armh": ("sa", "sa"), "ben": ("sa", "en"), "bhs": ("sa", "en"),
    "bop": ("sa", "la"), "bor": ("en", "sa"), "bur": ("sa", "fr"), "cae": ("sa", "en"), "ccs": ("sa", "de"),
    "fri": ("sa", "en"), "gra": ("sa", "de"), "gst": ("sa", "en"), "ieg": ("sa", "en"), "inm": ("sa", "en"),
    "krm": ("sa", "sa"), "lan": ("sa", "en"), "lrv": ("sa", "en"), "mci": ("sa", "en"), "md": ("sa", "en"),
    "mw": ("sa", "en"), "mw72": ("sa", "en"), "mwe": ("en", "sa"), "nmmb": ("sa", "sa"), "pe": ("sa", "en"),
    "pgn": ("sa", "en"), "pui": ("sa", "en"), "pw": ("sa", "de"), "pwg": ("sa", "de"), "pwkvn": ("sa", "de"),
    "sch": ("sa", "de"), "shs": ("sa", "en"), "skd": ("sa", "sa"), "snp": ("sa", "la"), "stc": ("sa", "fr"),
    "vcp": ("sa", "sa"), "vei": ("sa", "en"), "wil": ("sa", "en"), "yat": ("sa", "en"),
}  # fmt: skip


@dataclass(frozen=True)
class Installed:
    code: str
    entries: int
    alternates: int
    seconds: float


def csl_entries(
    records: Iterable[Record], alternates: Iterable[AltHeadword], *, bare_slp1: bool = False
) -> Iterator[NewEntry]:
    by_parent: dict[str, list[str]] = defaultdict(list)
    for alt in alternates:
        by_parent[alt.parent_lnum].append(alt.key1)
    for record in records:
        keys = [record.key1] if record.key1 else synonym_keys(record.body)
        if not keys:
            continue  # a record with no headword at all cannot be found; skip it
        yield NewEntry(
            lnum=record.lnum,
            key_slp1=keys[0],
            key2=record.key2,
            homonym=record.homonym,
            page=record.page,
            markup=record.body,
            plain=plain_text(record.body, bare_slp1=bare_slp1),
            alt_keys=tuple(keys[1:]) + tuple(by_parent.get(record.lnum, ())),
        )


def csl_file_entries(
    text_path: Path, alternates: list[AltHeadword], bare_slp1: bool, progress: object = None
) -> Iterator[NewEntry]:
    """The entries of a csl-orig text file, read as they are written (`progress` is not reported)."""
    with text_path.open(encoding="utf-8") as lines:
        yield from csl_entries(parse_records(lines), alternates, bare_slp1=bare_slp1)


def writes_bare_slp1(records: list[Record], code: str) -> bool:
    """Sanskrit-Sanskrit dictionaries whose text is SLP1 without any markup (nmmb, armh)."""
    if LANGUAGES.get(code, ("", ""))[1] != "sa":
        return False
    sample = records[:200]
    return bool(sample) and not any("<s>" in r.body or "{#" in r.body for r in sample)


@dataclass(frozen=True)
class Catalogue:
    """What a `dictionaries.json` beside the source says about one dictionary."""

    title: str = ""
    year: str = ""
    from_lang: str = ""
    to_lang: str = ""
    licence: str = ""


def parse_catalogue(text: str) -> dict[str, Catalogue]:
    """Per-code metadata from a `dictionaries.json` ({"dictionaries": [{"code": …, …}]}); junk gives {}."""
    try:
        document = json.loads(text)
    except json.JSONDecodeError:
        return {}
    items = document.get("dictionaries", []) if isinstance(document, dict) else []
    catalogue = {}
    for item in items:
        if isinstance(item, dict) and isinstance(item.get("code"), str):
            catalogue[item["code"]] = Catalogue(
                title=str(item.get("title_main") or item.get("title_key") or ""),
                year=str(item.get("source_year") or ""),
                from_lang=str(item.get("from_lang") or ""),
                to_lang=str(item.get("to_lang") or ""),
                licence=str(item.get("license_from_header") or ""),
            )
    return catalogue


def dictionary_meta(
    code: str,
    header: Header | None,
    source: str,
    name: str | None = None,
    format: str = "csl",
    catalogue: Catalogue | None = None,
) -> Dictionary:
    known = catalogue or Catalogue()
    from_lang, to_lang = LANGUAGES.get(code, ("sa", ""))
    from_lang, to_lang = known.from_lang or from_lang, known.to_lang or to_lang
    title = name or (header.title if header and header.title else "") or known.title or code
    short = header.short_title if header else ""
    year = (header.year if header else "") or known.year
    description = f"{short or title}: {title}" + (f" ({year})" if year else "")
    return Dictionary(
        code=code,
        name=title,
        short_name=short,
        from_lang=from_lang,
        to_lang=to_lang,
        description=description,
        year=year,
        licence=(header.licence if header else "") or known.licence or "not stated",
        source=source,
        format=format,
        entry_count=0,
    )


def import_csl(
    store: SanskritStore, code: str, text_path: Path, header_path: Path | None, hwextra_path: Path | None,
    source: str, name: str | None = None, catalogue: Catalogue | None = None,
) -> Installed:  # fmt: skip
    """Parse a csl-orig text file (+ header, + hwextra) and replace dictionary `code` with it, atomically."""
    started = time.perf_counter()
    header = parse_header(header_path.read_text("utf-8")) if header_path and header_path.is_file() else None
    alternates = []
    if hwextra_path and hwextra_path.is_file():
        with hwextra_path.open(encoding="utf-8") as lines:
            alternates = list(parse_hwextra(lines))
    with text_path.open(encoding="utf-8") as lines:
        bare = writes_bare_slp1(list(itertools.islice(parse_records(lines), 200)), code)
    meta = dictionary_meta(
        code, header, source, name, format="csl-slp1" if bare else "csl", catalogue=catalogue
    )
    entries: EntryMaker | Iterator[NewEntry]
    if text_path.stat().st_size < WORKER_FROM_BYTES:  # a second process would cost more than it saves
        entries = csl_file_entries(text_path, alternates, bare)
    else:
        entries = functools.partial(csl_file_entries, text_path, alternates, bare)
    count = store.replace_dictionary(meta, entries, loose_key_from_slp1)
    return Installed(code, count, len(alternates), round(time.perf_counter() - started, 2))


async def install(
    store: SanskritStore, codes: list[str], base: str, downloads: Path, progress: Progress | None = None
) -> list[Installed]:
    """Fetch `<code>/<code>.txt` (+ header + hwextra) below `base` (URL or folder) and import each."""
    done = []
    catalogue = await _catalogue(base, downloads)
    for code in codes:
        code = code.strip().lower()
        if not code.isalnum() or len(code) > 16:  # the code becomes a path: no "../" tricks
            raise InvalidInputError(f"dictionary code {code[:20]!r} must be letters and digits")
        folder = downloads / code
        files = {
            "text": f"{code}/{code}.txt",
            "header": f"{code}/{code}header.xml",
            "hwextra": f"{code}/{code}_hwextra.txt",
        }
        local: dict[str, Path | None] = {}
        for kind, relative in files.items():
            location = _join(base, relative)

            async def report(written: int, total: int | None, name: str = relative) -> None:
                if progress:
                    await progress(f"downloading {name}", written, total)

            try:
                local[kind] = await download(location, folder / Path(relative).name, progress=report)
            except SourceUnreachableError as exc:
                again = rerun(f"sanskrit install {' '.join(codes)}")
                raise offline_error(
                    "the csl-orig dictionaries", base, exc, retry=again, variable="SANSKRIT_SOURCE_URL",
                    meanwhile="The dictionaries already installed are unchanged.",
                ) from None  # fmt: skip
            except NotFoundError:
                if kind == "text":
                    raise NotFoundError(
                        f"{location} not found: is '{code}' a csl-orig dictionary code?"
                    ) from None
                local[kind] = None
        if progress:
            await progress(f"indexing {code}", 0, None)
        text_path = local["text"]
        assert text_path is not None  # a text that is not found was raised above
        try:
            done.append(
                import_csl(
                    store,
                    code,
                    text_path,
                    local["header"],
                    local["hwextra"],
                    base,
                    catalogue=catalogue.get(code),
                )
            )
        except PramanaError as exc:
            raise type(exc)(
                f"{code}: {exc}; the previously installed '{code}' (if any) is unchanged"
            ) from exc
    return done


async def _catalogue(base: str, downloads: Path) -> dict[str, Catalogue]:
    """The optional `dictionaries.json` at the source's top level (titles, years, languages)."""
    try:
        path = await download(_join(base, "dictionaries.json"), downloads / "dictionaries.json", retries=1)
    except PramanaError:
        return {}
    return parse_catalogue(path.read_text("utf-8", errors="replace"))


def _join(base: str, relative: str) -> str:
    if base.startswith(("http://", "https://")):
        return base.rstrip("/") + "/" + relative
    return str(Path(base).expanduser() / relative)


async def fetch_dhatupatha(base: str, downloads: Path) -> Path | None:
    """vidyut's `dhatupatha.tsv` (MIT; the roots the verb forms are generated from): from
    `<source>/vidyut/` when the source has it (a mirror, a folder), else from vidyut's repository,
    either checked against the pinned commit's sha256; None when neither answers with that file
    (the form index then has nominal forms only)."""
    target = downloads / "vidyut" / "dhatupatha.tsv"
    if target.is_file() and file_sha256(target) == DHATUPATHA_SHA256:
        return target  # fetched by an earlier install: the pinned file never changes
    for location in (_join(base, "vidyut/dhatupatha.tsv"), DHATUPATHA_URL):
        try:
            return await download(location, target, retries=1, sha256=DHATUPATHA_SHA256)
        except PramanaError:
            continue
    return None
