"""Finding the Sanskrit in a lecture transcript and correcting each quote to its verse.

A transcript is English with garbled Sanskrit in it. Words are classed as English (common
English, or used by the English translations and by no verse of the Gītā) or not; runs of
non-English words long enough to be a quote, and no name ("Caitanya Mahāprabhu"), are matched
against the verses of every book the matcher holds. A confident match replaces the quote with the
verse's words in IAST and the reference; a plausible but unsure one is flagged in place and left
as it was; anything weaker is left alone (it is not a quote of these books).
Only the quote changes: a run is cut down to the words that recite the verse (an English
"bhakti:" or ", as dharma" beside it stays), and the verse's words put in are those quoted.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass, replace

from pramana import work
from pramana.errors import InvalidInputError
from pramana.gita.matcher import MatchReport
from pramana.gita.phonetic_matcher import PhoneticMatcher, QuotedPart
from pramana.text.normalize import has_devanagari
from pramana.text.phonetic import skeleton_key

MIN_SPAN_KEY = 8  # consonants: shorter runs are single words, names, or noise
MIN_COMPOUND_KEY = 12  # a single word this long is a Sanskrit compound, not an English word
FLAG_SCORE = 0.8  # below this a span is not taken for a Gita quote at all
BRIDGE_MAX_LETTERS = 3  # "ma", "hi", "man", "te", "so" inside a quote are Sanskrit, not English
MAX_NAME_WORDS = 3  # capitalized words: "Śrīla Bhaktisiddhānta Sarasvatī" is a name, a longer run a quote
# Matching one quote costs about 1 ms over the Gītā, 2-5 ms over all three books (the index keeps it
# from growing with the corpus), more for a long quote. A run longer than MAX_QUOTE_CHARS
# (fuzzy_match_verse's limit too) is matched in pieces of that size, and one call matches at most
# MAX_MATCH_WORK distinct quotes, a quote counting once per WORK_KEY_LENGTH consonants: a few seconds
# of CPU at most (~7 s over all three books), where 1 MB of dense fragments took a minute.
MAX_QUOTE_CHARS = 2_000
MAX_MATCH_WORK = 2_000
CHECK_EVERY = 200  # tokens or quotes between two work.check()s: a few milliseconds
WORK_KEY_LENGTH = 32
TRIM_ROUNDS = 2  # a quote cut down is matched again, and cut once more at most

_TOKEN = re.compile(r"\S+")
_SPACE = re.compile(r"\s")
TOKEN_WINDOW = 16_384  # characters of transcript read by one C call (a few ms at most)
_EDGE_PUNCTUATION = ".,;:!?\"'()[]«»“”‘’—–-|।॥"
_WORDLIKE = re.compile(r"[^\W\d_]|[\u0900-\u097F]")
_WORDS = re.compile(r"[^\s\-–—]+")


@dataclass(frozen=True)
class Span:
    start: int
    end: int
    original: str
    report: MatchReport

    @property
    def status(self) -> str:
        if self.report.confident:
            return "replaced"
        return "flagged" if self.report.matches and self.report.matches[0].score >= FLAG_SCORE else "ignored"


def _tokens(text: str) -> list[re.Match[str]]:
    """The transcript's words (runs of non-space), found a window of text at a time.

    One finditer over a megabyte, consumed by C code, holds the interpreter lock for ~0.1 s: the
    server's event loop, /health and every other call would wait that long. Windows end at a space,
    so no word is cut.
    """
    tokens: list[re.Match[str]] = []
    start = 0
    while start < len(text):
        space = _SPACE.search(text, min(start + TOKEN_WINDOW, len(text)))
        end = space.start() if space else len(text)
        tokens.extend(_TOKEN.finditer(text, start, end))
        start = end
        work.check("reading the transcript for Sanskrit quotes")
    return tokens


def find_spans(matcher: PhoneticMatcher, text: str) -> list[tuple[int, int]]:
    """Character ranges of the runs of words that may be Sanskrit."""
    tokens = _tokens(text)
    kinds = []
    kind_of: dict[str, str] = {}  # a transcript says most of its words many times
    for i, token in enumerate(tokens):
        if i % CHECK_EVERY == 0:  # a megabyte of transcript is seconds of work before any matching
            work.check("reading the transcript for Sanskrit quotes")
        word = token.group()
        if (kind := kind_of.get(word)) is None:
            kind = kind_of[word] = _kind(matcher, word)
        kinds.append(kind)
    # A short English-looking word inside a quote is part of it ("ma te", "ca me na"); at a quote's
    # edge only if it is no common English word or is a word of the verses ("man manā").
    for i, token in enumerate(tokens):
        if kinds[i] != "english" or not _short(token.group()):
            continue
        before = kinds[i - 1] if i > 0 else "english"
        after = kinds[i + 1] if i + 1 < len(kinds) else "english"
        sanskrit_like = matcher.may_edge_quote(token.group())
        # after a clause's end, or a comma, an English word joins no quote to what follows ("prapadyante?
        # Yes, māyā"; "dvija-vara-śreṣṭha, as dharma teaches", where the verse goes on "dharmas te")
        previous = tokens[i - 1].group() if i > 0 else ""
        after_clause = (_ends_clause(previous) or previous.endswith(",")) and not sanskrit_like
        inside = before in ("sanskrit", "bridge") and after == "sanskrit" and not after_clause
        at_edge = "sanskrit" in (before, after) and sanskrit_like
        if (inside or at_edge) and not _ends_clause(token.group() if after == "sanskrit" else ""):
            kinds[i] = "bridge"
    spans, start = [], None
    for i, kind in enumerate([*kinds, "english"]):
        if kind in ("sanskrit", "bridge") and start is None:
            start = i
        elif kind in ("english", "break") and start is not None:
            first, last = tokens[start], tokens[i - 1]
            spans.append(_without_edge_punctuation(text, first.start(), last.end()))
            start = None
    pieces = [piece for s, e in spans for piece in _pieces(text, s, e)]
    long_enough = []
    for i, (s, e) in enumerate(pieces):
        if i % CHECK_EVERY == 0:
            work.check("reading the transcript for Sanskrit quotes")
        if _long_enough(text[s:e]) and not _is_name(text[s:e]):
            long_enough.append((s, e))
    return long_enough


def _pieces(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The run cut at spaces into pieces of at most MAX_QUOTE_CHARS (a longer word is cut anywhere)."""
    pieces = []
    while end - start > MAX_QUOTE_CHARS:
        cut = text.rfind(" ", start + 1, start + MAX_QUOTE_CHARS + 1)
        cut = cut if cut > start else start + MAX_QUOTE_CHARS
        pieces.append(_without_edge_punctuation(text, start, cut))
        start = cut
        while start < end and text[start].isspace():
            start += 1
    return [*pieces, (start, end)]


def _plain_word(token: str) -> str:
    return token.strip(_EDGE_PUNCTUATION).lower()


def _short(token: str) -> bool:
    return 0 < len(_plain_word(token)) <= BRIDGE_MAX_LETTERS


def _ends_clause(token: str) -> bool:
    return token.rstrip().endswith((".", "?", "!", ";", ":"))


def _without_edge_punctuation(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start] in _EDGE_PUNCTUATION:
        start += 1
    while end > start and text[end - 1] in _EDGE_PUNCTUATION:
        end -= 1
    return start, end


def _kind(matcher: PhoneticMatcher, token: str) -> str:
    if not _WORDLIKE.search(token):
        return "break" if any(ch.isdigit() for ch in token) else "punctuation"
    if has_devanagari(token):
        return "sanskrit"
    return "english" if matcher.is_english(token) else "sanskrit"


def _is_name(span: str) -> bool:
    """A name or a title said in the English, not a quote: "Caitanya Mahaprabhu", "Maharaja Pariksit was"
    (every word but a short one capitalized, three at most). The Bhāgavatam's verses hold most such
    names, so they would match one."""
    words = [word for word in _WORDS.findall(span) if len(_plain_word(word)) > BRIDGE_MAX_LETTERS]
    return 0 < len(words) <= MAX_NAME_WORDS and all(word[:1].isupper() for word in words)


def _long_enough(span: str) -> bool:
    """Two words or more with enough consonants, or one long compound (uddharedātmanātmānaṃ); words
    joined by hyphens count as words, as the Bhāgavatam writes them (mada-vihvala-locanaḥ)."""
    if has_devanagari(span):
        return len(span.split()) >= 2 or len(span) >= 8
    key = len(skeleton_key(span))
    return key >= MIN_COMPOUND_KEY or (len(_WORDS.findall(span)) >= 2 and key >= MIN_SPAN_KEY)


def correct(
    matcher: PhoneticMatcher, text: str, books: Collection[str] | None = None
) -> tuple[str, list[Span]]:
    """The transcript with confident quotes replaced and unsure ones flagged, and every span found;
    `books` limits the verses quotes are matched to."""
    ranges = find_spans(matcher, text)
    quotes = list(dict.fromkeys(text[s:e] for s, e in ranges))  # a quote said twice is matched once
    _check_work(quotes, len(text))
    found = {}
    for quote in quotes:
        work.check("matching the transcript's quotes to the verses")
        found[quote] = _match_quote(matcher, quote, books)
    spans = [_span(text, start, *found[text[start:end]]) for start, end in ranges]
    pieces, position = [], 0
    for span in spans:
        if span.status == "ignored":
            continue
        pieces.append(text[position : span.start])
        pieces.append(_rewrite(span))
        position = span.end
    pieces.append(text[position:])
    return "".join(pieces), spans


def _span(text: str, offset: int, start: int, end: int, report: MatchReport) -> Span:
    """The span of the quote's part that `report` is about, the quote starting at `offset` in `text`."""
    return Span(offset + start, offset + end, text[offset + start : offset + end], report)


def _match_quote(
    matcher: PhoneticMatcher, quote: str, books: Collection[str] | None = None
) -> tuple[int, int, MatchReport]:
    """The quote's best verses, and the part of it that recites the best one (English neighbours
    such as "bhakti:" or ", as dharma" cut off), with the verse's words for exactly that part.

    Words the translations write as English that verses have too (bhakti, karma, dharma, yoga) at the
    run's edges may be either: with 26,000 verses some verse holds them beside the quote's other words,
    so the run is matched without them too, and the better answer kept (a confident one, or the closer).
    """
    found = _match_run(matcher, quote, books)
    start, end = matcher.without_english_edges(quote)
    if (start, end) != (0, len(quote)) and _long_enough(quote[start:end]):
        inner_start, inner_end, report = _match_run(matcher, quote[start:end], books)
        inner = (start + inner_start, start + inner_end, report)
        if _rank(inner[2]) > _rank(found[2]):
            return inner
    return found


def _rank(report: MatchReport) -> tuple[bool, float]:
    return report.confident, report.matches[0].score if report.matches else 0.0


def _match_run(
    matcher: PhoneticMatcher, quote: str, books: Collection[str] | None
) -> tuple[int, int, MatchReport]:
    """`_match_quote` of the whole run."""
    start, end = 0, len(quote)
    report = matcher.match(quote, 3, trim_filler=False, books=books)
    for round_ in range(TRIM_ROUNDS + 1):
        if not report.matches:
            break
        part = _best_part(matcher, quote[start:end], report, rivals=round_ < TRIM_ROUNDS)
        if part is None:
            break
        trimmed = _without_edge_punctuation(quote, start + part.start, start + part.end)
        if part.ref == report.matches[0].ref and (trimmed == (start, end) or round_ == TRIM_ROUNDS):
            words = replace(report.matches[0], matched=part.verse_words)
            return *trimmed, replace(report, matches=[words, *report.matches[1:]])
        start, end = trimmed
        if not _long_enough(quote[start:end]) or _is_name(quote[start:end]):  # no quote is left
            return start, end, MatchReport([], False, quote[start:end])
        report = matcher.match(quote[start:end], 3, trim_filler=False, books=books)  # without the English
    return start, end, report


def _best_part(
    matcher: PhoneticMatcher, quote: str, report: MatchReport, *, rivals: bool
) -> QuotedPart | None:
    """The part of the quote the top verse recites; or a runner-up's, if it leaves out other words and
    fits better: English in a quote ("yoga, saṃyamāgniṣu juhvati karma") can put a wrong verse on top."""
    refs = [match.ref for match in (report.matches if rivals else report.matches[:1])]
    top, *others = matcher.quoted_parts(quote, refs)
    best = top
    for part in others:
        if part is None or (top is not None and (part.start, part.end) == (top.start, top.end)):
            continue
        if best is None or part.fit > best.fit:
            best = part
    return best


def _check_work(quotes: list[str], text_length: int) -> None:
    """Refuse, before matching any, a transcript with more quotes than one call may match."""
    needed = 0
    for i, quote in enumerate(quotes):
        if i % CHECK_EVERY == 0:
            work.check("counting the transcript's possible quotes")
        needed += 1 + len(skeleton_key(quote)) // WORK_KEY_LENGTH
    if needed > MAX_MATCH_WORK:
        part = max(1_000, text_length * MAX_MATCH_WORK // needed // 1_000 * 1_000)
        raise InvalidInputError(
            f"the transcript has {len(quotes):,} possible Sanskrit quotes"
            f" ({sum(map(len, quotes)):,} characters), more than one call matches:"
            f" send it in parts of about {part:,} characters"
        )


def _rewrite(span: Span) -> str:
    top = span.report.matches[0]
    if span.status == "replaced":
        return f"_{top.matched}_ ({top.ref})"
    return f"{span.original} [unsure: {top.ref}? score {top.score:.2f}]"
