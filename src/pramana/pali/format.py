"""Readable markdown for the pali tools' results."""

from __future__ import annotations

from pramana.pali import models


def _candidate_line(candidate: models.Candidate) -> str:
    reading = f" — {', '.join(candidate.readings)}" if candidate.readings else ""
    grammar = f" ({candidate.grammar})" if candidate.grammar else ""
    root = f" {candidate.root_key}" if candidate.root_key else ""
    construction = f"; [{_one_line(candidate.construction)}]" if candidate.construction else ""
    return (
        f"**{candidate.lemma_1}** `{candidate.id}` {candidate.pos}{grammar}{reading}: "
        f"{candidate.meaning_combo}{root}{construction}"
    )


def _one_line(text: str) -> str:
    """DPD writes a construction's alternatives on separate lines."""
    return " | ".join(line.strip() for line in text.splitlines() if line.strip())


def _split_lines(splits: list[models.Split]) -> list[str]:
    lines = []
    for split in splits:
        lines.append(f"  - split ({split.source}): {split.split}")
        for part in split.parts:
            if not part.candidates:
                lines.append(f"    - {part.form}: not in DPD")
            for candidate in part.candidates[:4]:
                lines.append(f"    - {part.form}: {_candidate_line(candidate)}")
    return lines


def sentence_markdown(found: models.SentenceAnalysis) -> str:
    lines = [f"**{found.sentence}**", f"{found.found} of {found.token_count} words found", ""]
    for index, token in enumerate(found.tokens, 1):
        status = token.status.replace("_", " ")
        if token.same_as is not None:
            lines.append(f"{index}. **{token.word}** — {status}, as at {token.same_as}")
            continue
        lines.append(f"{index}. **{token.word}** — {status}")
        for other in token.spelling:
            lines.append(f"  - a misspelling of {other}")
        for other in token.variant_of:
            lines.append(f"  - a variant reading of {other}")
        lines += [f"  - {_candidate_line(c)}" for c in token.candidates]
        lines += _split_lines(token.deconstruction)
    return "\n".join(lines)


def word_markdown(found: models.WordResult) -> str:
    lines = [f"# {found.word}", ""]
    if found.status == "not_found":
        lines.append("Not in DPD.")
    for headword in found.headwords:
        lines.append(f"## {headword.lemma_1} ({headword.pos}) `{headword.id}`")
        if headword.readings:
            lines.append(f"This form: {', '.join(headword.readings)}")
        for label, value in (
            ("Grammar", headword.grammar), ("Meaning", headword.meaning_combo),
            ("Construction", _one_line(headword.construction)), ("Root", headword.root_key),
            ("Root family", headword.family_root), ("Compound", headword.compound_type),
            ("Sanskrit", headword.sanskrit),
            ("Stem / pattern", f"{headword.stem} {headword.pattern}".strip()),
            ("Example", f"{headword.example_1} ({headword.source_1})" if headword.example_1 else ""),
        ):  # fmt: skip
            if value:
                lines.append(f"- **{label}:** {value}")
        if headword.root:
            root = headword.root
            lines.append(
                f"- **Root meaning:** {root.root_meaning} (group {root.root_group}, {root.sanskrit_root})"
            )
        lines.append("")
    lines += _split_lines(found.deconstruction)
    for root in found.roots:
        lines.append(f"- root {root.root}: {root.root_meaning} (Sanskrit {root.sanskrit_root})")
    if found.abbreviation:
        lines.append(f"- abbreviation: {found.abbreviation.get('meaning', '')}")
    if found.help:
        lines.append(f"- {found.help}")
    return "\n".join(lines).rstrip()


def meaning_markdown(found: models.MeaningSearch) -> str:
    if not found.results:
        return f"No headword's meaning holds all of: {found.query}"
    lines = [
        f"{found.count} headwords for '{found.query}'" + (" (more exist)" if found.truncated else ""),
        "",
    ]
    for hit in found.results:
        lines.append(f"- **{hit.lemma_1}** `{hit.id}` {hit.pos}: {hit.meaning_combo}")
    return "\n".join(lines)


def transliteration_markdown(converted: models.PaliTransliteration) -> str:
    return f"{converted.result}\n\n({converted.source} → {converted.target})"
