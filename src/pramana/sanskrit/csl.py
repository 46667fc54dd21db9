"""The csl-orig text format of the Cologne Digital Sanskrit Dictionaries.

A record runs from `<L>N<pc>PAGE<k1>KEY1<k2>KEY2[<h>HOM][<e>LEVEL]` to `<LEND>`; `k1` is the
headword in SLP1. Bodies use one of two markup families: braces (`{#slp1#}`, `{%italic%}`,
`{@bold@}`) or MW-style tags (`<s>slp1</s>`, `<s1 slp1="…">IAST</s1>`, `<hom>`, `<ls>`, …).
Both carry corrections as `{{old->new||date|author|issue|}}`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from xml.etree import ElementTree

from pramana.errors import SourceError
from pramana.text.schemes import slp1_to_devanagari, slp1_to_iast


@dataclass(frozen=True)
class Record:
    lnum: str
    page: str
    key1: str  # SLP1
    key2: str
    homonym: str
    body: str  # raw markup, lines joined by "\n"


@dataclass(frozen=True)
class AltHeadword:
    lnum: str
    key1: str  # SLP1
    parent_lnum: str
    parent_key1: str


_META = re.compile(r"^<L>([^<]+)<pc>([^<]*)(?:<k1>([^<]+)<k2>([^<]*))?(.*)$")
_SYNONYMS = re.compile(r"<syns>(.*)")
_FIELD = re.compile(r"<(\w+)>([^<]*)")


def parse_meta(line: str) -> tuple[str, str, str, str, dict[str, str]] | None:
    match = _META.match(line.rstrip("\n"))
    if match is None:
        return None
    extras = dict(_FIELD.findall(match[5]))
    return match[1].strip(), match[2].strip(), (match[3] or "").strip(), (match[4] or "").strip(), extras


def parse_records(lines: Iterable[str]) -> Iterator[Record]:
    """Records in file order; text outside `<L>`…`<LEND>` (page breaks, comments) is skipped."""
    meta: tuple[str, str, str, str, dict[str, str]] | None = None
    body: list[str] = []
    for number, line in enumerate(lines, start=1):
        if line.startswith("<L>"):
            if meta is not None:
                raise SourceError(f"line {number}: record {meta[0]} has no <LEND> before the next <L>")
            meta = parse_meta(line)
            if meta is None:
                raise SourceError(f"line {number}: malformed record header {line[:80]!r}")
            body = []
        elif line.startswith("<LEND>"):
            if meta is None:
                raise SourceError(f"line {number}: <LEND> without a record")
            lnum, page, key1, key2, extras = meta
            yield Record(lnum, page, key1, key2, extras.get("h", ""), "\n".join(body).strip())
            meta = None
        elif meta is not None and not line.startswith(";"):  # ";" lines are editors' comments
            body.append(line.rstrip("\n"))
    if meta is not None:
        raise SourceError(f"the file ends inside record {meta[0]} (truncated?)")


def synonym_keys(body: str) -> list[str]:
    """The SLP1 words of the `<syns>` lines of synonym dictionaries (abch, nmmb…), gender marks removed."""
    keys: list[str] = []
    for line in _SYNONYMS.findall(body):
        for item in _ANY_TAG.sub("", line).split(","):
            word = item.split("-")[0].strip()
            if word and word not in keys:
                keys.append(word)
    return keys


def parse_hwextra(lines: Iterable[str]) -> Iterator[AltHeadword]:
    for line in lines:
        if not line.startswith("<L>"):
            continue
        fields = dict(_FIELD.findall(line))
        if fields.get("L") and fields.get("k1") and fields.get("LP"):
            yield AltHeadword(fields["L"], fields["k1"], fields["LP"], fields.get("k1P", ""))


@dataclass(frozen=True)
class Header:
    title: str
    short_title: str
    year: str
    licence: str
    languages: list[str]


def parse_header(xml_text: str) -> Header:
    """Title, year, licence and languages from a `<code>header.xml` TEI header."""
    try:
        root = ElementTree.fromstring(xml_text)
    except ElementTree.ParseError as exc:
        raise SourceError(f"header XML is not well formed: {exc}") from exc
    for element in root.iter():  # TEI puts everything in a namespace
        if isinstance(element.tag, str):
            element.tag = element.tag.rsplit("}", 1)[-1]

    def text_of(path: str) -> str:
        node = root.find(path)
        return " ".join("".join(node.itertext()).split()) if node is not None else ""

    titles: dict[str, str] = {}
    for title in root.iter("title"):
        titles.setdefault(title.get("type", ""), " ".join("".join(title.itertext()).split()))
    year = ""
    for date in root.iter("date"):
        if date.text and re.fullmatch(r"\d{4}(-\d{2,4})?", date.text.strip()):
            year = date.text.strip()
    licence = text_of(".//availability")
    languages = [lang.get("ident", "") for lang in root.iter("language") if lang.get("ident")]
    return Header(
        title=titles.get("main", "") or titles.get("key", ""),
        short_title=titles.get("key", ""),
        year=year,
        licence=licence_code(licence),
        languages=languages,
    )


def licence_code(availability: str) -> str:
    """'CC BY-NC-SA 3.0', 'CC BY 4.0', 'GPL-3.0' from a header's availability text."""
    text = availability.lower()
    if match := re.search(r"licenses/(by(?:-nc)?(?:-sa)?(?:-nd)?)/(\d\.\d)", text):
        return f"CC {match[1].upper()} {match[2]}"
    if "gpl" in text:
        return "GPL-3.0" if "3" in text else "GPL"
    if "no part of this publication" in text or "all rights reserved" in text:
        return "all rights reserved"
    return availability.strip()[:120] or "not stated"


# -- rendering ---------------------------------------------------------------------------------

_CORRECTION = re.compile(r"\{\{(.*?)->(.*?)\|\|.*?\}\}", re.S)
_BRACE_SANSKRIT = re.compile(r"\{#(.*?)#\}", re.S)
_BRACE_ITALIC = re.compile(r"\{%(.*?)%\}", re.S)
_BRACE_BOLD = re.compile(r"\{@(.*?)@\}", re.S)
_TAG_SANSKRIT = re.compile(r"<s>(.*?)</s>", re.S)
_TAG_S1 = re.compile(r"<s1[^>]*>(.*?)</s1>", re.S)
_HOMONYM = re.compile(r"<hom>(.*?)</hom>", re.S)
_DIVISION = re.compile(r"<div[^>]*>|<P>|<H>|<HI>")
_DROPPED = re.compile(r"<lbinfo[^>]*/>|<info\b.*?/>|<srs1?/>|<pc>[^<]*|\[Page[^\]]*\]|<eid>\d*")
_SYNONYM_LINE = re.compile(r"<syns>(.*)")
_ANY_TAG = re.compile(r"</?[A-Za-z][^>]*>")
_SPACES = re.compile(r"[ \t]+")


def render_markdown(body: str, *, devanagari: bool = False, bare_slp1: bool = False) -> str:
    """A record body as clean markdown: Sanskrit in IAST (or Devanāgarī), emphasis kept.

    `bare_slp1`: the dictionary writes its Sanskrit text in SLP1 without markup (nmmb, armh).
    """
    text = _CORRECTION.sub(lambda m: m[2], body)
    to_script = slp1_to_devanagari if devanagari else slp1_to_iast

    def sanskrit(match: re.Match[str]) -> str:
        return _convert_spans(match[1], to_script)

    text = _DROPPED.sub("", text)
    text = _SYNONYM_LINE.sub(
        lambda m: (
            "*synonyms:* " + _convert_spans(_ANY_TAG.sub("", m[1]).replace(",", ", "), to_script) + "\n\n"
        ),
        text,
    )
    if bare_slp1:
        text = _convert_outside_tags(_ANY_TAG.sub("", _TAG_SANSKRIT.sub(lambda m: m[1], text)), to_script)

    text = _BRACE_SANSKRIT.sub(sanskrit, text)
    text = _TAG_SANSKRIT.sub(sanskrit, text)
    text = _TAG_S1.sub(lambda m: m[1], text)
    text = _HOMONYM.sub(lambda m: f"^{m[1]}^", text)
    text = _BRACE_ITALIC.sub(lambda m: f"*{m[1].strip()}*" if m[1].strip() else "", text)
    text = _BRACE_BOLD.sub(lambda m: f"**{m[1].strip()}**" if m[1].strip() else "", text)
    text = _DROPPED.sub("", text)
    text = _DIVISION.sub("\n\n", text)
    text = _ANY_TAG.sub("", text)
    text = text.replace("¦", " —", 1) if "¦" in text else text
    paragraphs = []
    for paragraph in re.split(r"\n\s*\n", text):
        joined = _SPACES.sub(" ", " ".join(line.strip() for line in paragraph.splitlines())).strip()
        if joined:
            paragraphs.append(joined)
    return "\n\n".join(paragraphs)


_SLP1_RUN = re.compile(r"[A-Za-z'~/\\^]+")
_ACCENTS = str.maketrans("", "", "/\\^")


def _convert_outside_tags(text: str, to_script: Callable[[str], str]) -> str:
    return "\n".join(_convert_spans(line, to_script) for line in text.splitlines())


def _convert_spans(slp1: str, to_script: Callable[[str], str]) -> str:
    # Convert only the SLP1 letters (accents dropped); punctuation and digits pass through.
    return _SLP1_RUN.sub(lambda m: to_script(m[0].translate(_ACCENTS)), slp1)


def plain_text(body: str, *, bare_slp1: bool = False) -> str:
    """The body as searchable text: markdown rendering without the emphasis marks."""
    return render_markdown(body, bare_slp1=bare_slp1).replace("**", "").replace("*", "").replace("^", "")
