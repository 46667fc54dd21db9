"""Dictionary entries written as HTML (slob editions, the Sanskrit Heritage MW) to markdown."""

from __future__ import annotations

import html
import re
import unicodedata

from pramana.text.schemes import Scheme, convert

_BLOCK = re.compile(r"</?(?:p|div|blockquote|br|hr|li|ul|ol|h\d)\b[^>]*>", re.I)
_BOLD = re.compile(r"<(b|strong)\b[^>]*>(.*?)</\1>", re.I | re.S)
_ITALIC = re.compile(r"<(i|em)\b[^>]*>(.*?)</\1>", re.I | re.S)
_DROP = re.compile(r"<(script|style|head|title)\b.*?</\1>|<link\b[^>]*>|<meta\b[^>]*>", re.I | re.S)
_TAG = re.compile(r"<[^>]+>")
_SPACES = re.compile(r"[ \t\u00a0]+")
_EMPTY_EMPHASIS = re.compile(r"\*\*\s*\*\*|(?<![*\w])\*\s*\*(?![*\w])")


def to_markdown(fragment: str) -> str:
    """Bold and italics kept as markdown, blocks as paragraphs, every other tag dropped."""
    text = _DROP.sub("", fragment)
    text = _BOLD.sub(lambda m: f"**{_inline(m[2])}**", text)
    text = _ITALIC.sub(lambda m: f"*{_inline(m[2])}*", text)
    text = _BLOCK.sub("\n\n", text)
    text = html.unescape(_TAG.sub("", text))
    text = _EMPTY_EMPHASIS.sub(" ", text)
    paragraphs = (_SPACES.sub(" ", " ".join(p.split("\n"))).strip() for p in re.split(r"\n\s*\n", text))
    return "\n\n".join(p for p in paragraphs if p)


def _inline(fragment: str) -> str:
    return " ".join(html.unescape(_TAG.sub("", fragment)).split())


def plain(markdown: str) -> str:
    return markdown.replace("**", "").replace("*", "")


# In the HTML editions (md, cae, Heritage MW) Sanskrit is what is set in italics or bold; English is
# roman. A word is treated as Sanskrit only if it is written entirely in IAST letters, so abbreviations
# like "m." and English words set in bold for emphasis ("Lit.") keep their spelling.
_EMPHASIS = re.compile(r"(\*\*|\*)(?=\S)(.+?)(?<=\S)\1")
_WORD = re.compile(r"(?:[^\W\d_]|[\u0300\u0301])+")
_IAST_WORD = re.compile(r"[abcdeghijklmnoprstuvyāīūṛṝḷḹṃṁḥṅñṭḍṇśṣáíúéóàìùèò\u0301\u0300]+")
_ACCENTS = str.maketrans("áíúéóàìùèò", "aiueoaiueo", "\u0301\u0300")


def sanskrit_to_devanagari(markdown: str) -> str:
    """The emphasised Sanskrit of an HTML-edition article in Devanāgarī (accents dropped)."""

    def word(match: re.Match[str]) -> str:
        if not _IAST_WORD.fullmatch(match[0]):
            return match[0]
        plain_word = unicodedata.normalize("NFC", match[0]).translate(_ACCENTS)
        return convert(plain_word, Scheme.IAST, Scheme.DEVANAGARI)

    def span(match: re.Match[str]) -> str:
        return f"{match[1]}{_WORD.sub(word, match[2])}{match[1]}"

    return _EMPHASIS.sub(span, markdown)
