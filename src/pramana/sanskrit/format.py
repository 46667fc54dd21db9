"""Markdown renderings of the sanskrit results."""

from __future__ import annotations

from pramana.install import command
from pramana.sanskrit.models import (
    ArticleResult,
    DictionaryList,
    FormAnalysis,
    SearchResult,
    TransliterationResult,
    WordAnalysis,
)

MAX_LISTED = 100


def search_markdown(result: SearchResult, limit_name: str = "limit", dicts_name: str = "dict_codes") -> str:
    """The hits; a truncated list says which parameters widen or narrow it (the CLI names its flags)."""
    parts = [f'## {result.mode} search: "{result.query}"', ""]
    if result.did_you_mean:
        parts += [f"No exact match. Did you mean: {', '.join(result.did_you_mean)}?", ""]
    if result.analyses:
        parts += [f"{analysis.summary} →" for analysis in result.analyses] + [""]
    if result.splits:
        parts += ["Words joined by sandhi:", *(f"- {split.summary}" for split in result.splits), ""]
    if not result.results:
        parts.append("No matches.")
    for hit in result.results[:MAX_LISTED]:
        homonym = f" ({hit.homonym})" if hit.homonym else ""
        alternate = (
            f" [as {hit.matched}]" if hit.matched != hit.word and result.matched_by != "fulltext" else ""
        )
        senses = f", {hit.senses} senses" if hit.senses > 1 else ""
        loose = " (loose spelling)" if hit.loose else ""
        line = (
            f"- **{hit.word}**{homonym} {hit.word_deva}{alternate}{loose} — {hit.dict_name}"
            f" (`{hit.article_id}`{senses})"
        )
        if hit.snippet:
            line += f": {hit.snippet}"
        elif hit.gloss:
            line += f": {hit.gloss}"
        parts.append(line)
    if len(result.results) > MAX_LISTED:
        parts.append(f"- … {len(result.results) - MAX_LISTED} more in the structured result")
    parts += [
        "",
        f"{result.count} shown"
        + (f" (more exist: raise {limit_name} or narrow {dicts_name})" if result.truncated else ""),
    ]
    return "\n".join(parts)


def article_markdown(article: ArticleResult) -> str:
    """The headword, one line naming the dictionary and page with the article's id and scan, then the
    article (its senses numbered): the headword and the source line once each, whatever the source's
    own text repeats at its start."""
    homonym = f" ({article.homonym})" if article.homonym else ""
    page = f", page {article.page}" if article.page else ""
    source = f"_{article.dict_name}{page}_ · `{article.article_id}` · [scan]({article.citation_url})"
    body = _senses_markdown(article) if article.senses else _body(article.markdown, article)
    return "\n".join([f"## {article.headword}{homonym} {article.headword_deva}", source, "", body])


def _senses_markdown(article: ArticleResult) -> str:
    return "\n\n".join(
        f"**{sense.number}.** (`{sense.article_id}`) {_body(sense.markdown, article)}"
        for sense in article.senses
    )


def _body(markdown: str, article: ArticleResult) -> str:
    """An article's text without a first paragraph that only repeats what the heading and the source
    line say (the slob editions open with the headword in bold; a source line copied into the text)."""
    first, separator, rest = markdown.partition("\n\n")
    repeated = {
        f"**{article.headword}**", f"**{article.headword_deva}**", article.dict_name,
        f"_{article.dict_name}_", f"_{article.dict_name}, page {article.page}_",
    }  # fmt: skip
    if separator and first.strip() in repeated:
        return rest
    return markdown


def dictionaries_markdown(result: DictionaryList) -> str:
    if not result.dictionaries:
        return (
            f"No dictionaries installed: run `{command('sanskrit install ap90')}`"
            f" (see `{command('sanskrit --help')}`)."
        )
    parts = ["| code | name | languages | year | entries | licence |", "|---|---|---|---|---|---|"]
    for d in result.dictionaries:
        parts.append(
            f"| {d.code} | {d.name} | {d.from_lang}→{d.to_lang} | {d.year} | {d.entry_count} | {d.licence} |"
        )
    return "\n".join(parts)


def transliteration_markdown(result: TransliterationResult) -> str:
    return f"{result.result}\n\n_{result.source} → {result.target}_"


def analysis_markdown(result: WordAnalysis) -> str:
    parts = [f'## analysis: "{result.word}"', ""]
    if not result.analyses and not result.splits:
        parts.append(result.note or "No analysis.")
    if result.splits:
        parts.append("No single form; words joined by sandhi, likeliest first:")
    for split in result.splits:
        parts.append(f"- {split.summary}")
        for part in split.parts:
            parts += [f"  - {_analysis_line(analysis)}" for analysis in part.analyses[:3]]
            if part.article_ids and not part.analyses:
                parts.append(f"  - {part.word} (`{'`, `'.join(part.article_ids)}`)")
    parts += [f"- {_analysis_line(analysis)}" for analysis in result.analyses]
    return "\n".join(parts)


def _analysis_line(analysis: FormAnalysis) -> str:
    articles = f" (`{'`, `'.join(analysis.article_ids)}`)" if analysis.article_ids else ""
    return f"{analysis.summary} {analysis.lemma_deva} [{analysis.kind}]{articles}"
