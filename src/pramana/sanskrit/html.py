"""Dictionary entries written as HTML (slob editions, the Sanskrit Heritage MW) to markdown."""

from __future__ import annotations

import html
import re

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
