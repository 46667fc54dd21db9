"""Markdown renderings of the gita results, as the spec shows them."""

from __future__ import annotations

from pramana.gita.models import (
    Chapter,
    ChapterVerses,
    InstallResult,
    MatchResult,
    SearchResult,
    SeedResult,
    TranscriptCorrection,
    Translation,
    Verse,
)

EXCERPT_CHARS = 240


def excerpt(text: str, limit: int = EXCERPT_CHARS) -> str:
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    return text[:limit].rsplit(" ", 1)[0] + "…"


def _italic_lines(text: str) -> str:
    return "\n".join(f"_{line.strip()}_" for line in text.splitlines() if line.strip())


def _translation_heading(t: Translation) -> str:
    if t.kind == "translation" and t.language == "English":
        return f"**Translation** ({t.author}):"
    return f"**{t.language} {t.kind}** ({t.author}):"


def _notes(notes: list[str]) -> list[str]:
    return [f"> Note: {note}" for note in notes]


def verse_markdown(verse: Verse, *, heading: str = "##") -> str:
    parts = [f"{heading} {verse.ref}", ""]
    if verse.devanagari:
        parts += ["**Sanskrit:**", verse.devanagari, ""]
    if verse.transliteration:
        parts += ["**Transliteration:**", _italic_lines(verse.transliteration), ""]
    if verse.synonyms:
        parts += ["**Synonyms:**", verse.synonyms, ""]
    if verse.translation is not None:
        parts += [_translation_heading(verse.translation), verse.translation.text, ""]
    if verse.notes:
        parts += [*_notes(verse.notes), ""]
    parts.append(f"[Read on Vedabase]({verse.vedabase_url})")
    return "\n".join(parts)


def search_markdown(result: SearchResult) -> str:
    parts = [f'## Search: "{result.query}"', ""]
    if not result.results:
        parts.append(f"No verse matches. ({result.verses_cached} verses cached.)")
    for number, hit in enumerate(result.results, start=1):
        first_line = hit.transliteration.splitlines()[0] if hit.transliteration else ""
        parts.append(f"{number}. **{hit.ref}** — _{first_line}_")
        if hit.translation_excerpt:
            parts.append(f"   {excerpt(hit.translation_excerpt)}")
        if hit.matched_excerpt and hit.matched_excerpt not in (hit.translation_excerpt or ""):
            parts.append(f"   Matched: {hit.matched_excerpt}")
        parts.append(f"   [Vedabase]({hit.vedabase_url})")
    if result.results:
        parts += ["", f"_Ranked {RANKINGS[result.ranking]}._"]
    if result.notes:
        parts += ["", *_notes(result.notes)]
    return "\n".join(parts)


ALSO_IN_SHOWN = 12  # the structured result lists them all

RANKINGS = {
    "model": "by meaning (all-MiniLM-L6-v2) and by words",
    "static": "by meaning (the static embedding table) and by words",
    "words": "by words",
}


def match_markdown(result: MatchResult) -> str:
    parts = [f'## Matches for "{excerpt(result.given or result.query, 120)}"', ""]
    if result.confident and result.matches:
        parts.append(f"**Confident match: {result.matches[0].ref}**")
    else:
        parts.append("**No confident match.** The candidates below are guesses; check them before use.")
    parts.append("")
    if not result.matches:
        parts.append("No verse resembles this text.")
    for number, match in enumerate(result.matches, start=1):
        shown = match.matched or match.transliteration.splitlines()[0]
        parts.append(f"{number}. **{match.ref}** (score {match.score:.2f}) — _{shown}_")
        if match.recurs:
            listed = ", ".join(match.also_in[:ALSO_IN_SHOWN])
            more = f" and {match.recurs - ALSO_IN_SHOWN} more" if match.recurs > ALSO_IN_SHOWN else ""
            parts.append(f"   The same words are also in {listed}{more}.")
    if result.notes:
        parts += ["", *_notes(result.notes)]
    if result.top_match is not None:
        parts += ["", verse_markdown(result.top_match, heading="### Top match:")]
    return "\n".join(parts)


def chapter_markdown(chapter: Chapter) -> str:
    parts = [
        f"## Chapter {chapter.chapter_number}: {chapter.name_translation or chapter.name_transliterated}",
        "",
        f"**Sanskrit name:** {chapter.name} ({chapter.name_transliterated})",
        f"**Meaning:** {chapter.name_meaning}",
        f"**Verses:** {chapter.verses_count}",
        "",
        "**Summary:**",
        chapter.summary,
    ]
    if chapter.source == "cache":
        when = f", fetched {chapter.fetched_at} UTC" if chapter.fetched_at else ""
        age = f", {chapter.age_days:g} days old" if chapter.age_days is not None else ""
        parts += ["", f"_From the cache{when}{age}._"]
    if chapter.notes:
        parts += ["", *_notes(chapter.notes)]
    return "\n".join(parts)


def seed_markdown(result: SeedResult) -> str:
    status = "complete" if result.complete else "incomplete"
    parts = [
        f"## Seed {status}",
        "",
        f"- Verses cached: {result.verses_cached} of {result.verses_expected}",
        f"- Chapters cached: {result.chapters_cached} of 18",
        f"- Fetched this run: {result.fetched_verses} verses, {result.fetched_chapters} chapters"
        f" in {result.seconds:.1f} s from {result.source}",
    ]
    if result.failures:
        parts += ["", f"**{len(result.failures)} failed** (run seed again to retry only these):"]
        parts += [f"- {f.item}: {f.error}" for f in result.failures[:50]]
        if len(result.failures) > 50:
            parts.append(f"- … and {len(result.failures) - 50} more")
    if result.notes:
        parts += ["", *_notes(result.notes)]
    return "\n".join(parts)


def transcript_markdown(result: TranscriptCorrection) -> str:
    """The corrected transcript, then what was changed and what needs a human look."""
    parts = [result.corrected.rstrip(), "", "---", ""]
    parts.append(
        f"**Verse quotes:** {result.replaced} replaced, {result.flagged} flagged as unsure "
        f"({result.words} words in {result.seconds:.2f} s)."
    )
    for span in result.spans:
        if span.status == "replaced":
            parts.append(
                f"- replaced {excerpt(span.original, 80)!r} with {span.ref}: _{span.correct_transliteration}_"
            )
        elif span.status == "flagged":
            parts.append(
                f"- unsure: {excerpt(span.original, 80)!r} may be {', '.join(span.candidates)} "
                f"(best score {span.score:.2f}); left unchanged"
            )
    parts.extend(f"\n{note}" for note in result.notes)
    return "\n".join(parts)


def chapter_verses_markdown(chapter: ChapterVerses) -> str:
    title = f": {chapter.title}" if chapter.title else ""
    parts = [
        f"## {chapter.ref}{title}",
        "",
        f"{chapter.book_name}; {chapter.verse_count} verses"
        + (f" in {chapter.text_count} texts" if chapter.text_count != chapter.verse_count else ""),
        "",
    ]
    for verse in chapter.verses:
        parts.append(f"**{verse.ref}**")
        parts.append(_italic_lines(verse.transliteration) or "(no text in the source)")
        if verse.translation:
            parts.append(verse.translation)
        parts.append("")
    if chapter.notes:
        parts += [*_notes(chapter.notes), ""]
    parts.append(f"[Read on Vedabase]({chapter.vedabase_url})")
    return "\n".join(parts)


def install_markdown(result: InstallResult) -> str:
    parts = ["## Books", ""]
    for book in result.books:
        done = "installed" if book.installed_now else "already installed"
        translations = f", {book.translations:,} with a translation" if book.translations else ""
        parts.append(
            f"- **{book.book}** ({book.name}): {done}, {book.verses:,} verses in {book.texts:,} texts,"
            f" {book.chapters} chapters{translations}"
        )
        if book.fixed and book.installed_now:
            fixed = "; ".join(f"{what} ({count})" for what, count in book.fixed.items())
            parts.append(f"  - upstream quirks repaired: {fixed}")
    downloaded = f", {result.downloaded_bytes:,} bytes downloaded" if result.downloaded_bytes else ""
    parts += ["", f"From {result.source} in {result.seconds:.1f} s{downloaded}."]
    if result.notes:
        parts += ["", *_notes(result.notes)]
    return "\n".join(parts)
