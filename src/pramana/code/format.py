"""Readable markdown for the code tools' results (the structured result carries the same data)."""

from __future__ import annotations

from pramana.code import models

FENCE_LANGUAGES = {"tsx": "tsx", "typescript": "ts", "javascript": "js", "shell": "sh"}


def _fence(language: str, content: str) -> str:
    fence = "````" if "```" in content else "```"
    return f"{fence}{FENCE_LANGUAGES.get(language, language)}\n{content}\n{fence}"


def _where(meta: models.ChunkMetadata) -> str:
    name = f" `{meta.name}`" if meta.name else ""
    return f"{meta.filePath}:{meta.startLine}-{meta.endLine} ({meta.chunkType}{name}, {meta.package})"


def search_markdown(found: models.SearchResult, title: str) -> str:
    lines = [f"# {title}: {len(found.chunks)} of {found.totalFound} ({found.mode} search)"]
    for note in (found.indexing, found.note):
        if note:
            lines.append(f"> {note}")
    if not found.chunks:
        lines.append("No matching code. Try other words, or drop the package/language filter.")
    for number, chunk in enumerate(found.chunks, 1):
        lines += [
            "",
            f"## {number}. {_where(chunk.metadata)}",
            f"id `{chunk.id}` · score {chunk.score:.4f}",
            _fence(chunk.metadata.language, chunk.content),
        ]
    return "\n".join(lines)


def file_markdown(found: models.FileResult) -> str:
    return (
        f"# {found.path}\n{found.language} · {found.lines} lines · modified {found.lastModified}"
        f" · from {found.source}\n\n{_fence(found.language, found.content)}"
    )


def context_markdown(found: models.ChunkContext) -> str:
    stale = (
        "\n> The file changed since it was indexed; re-index for fresh chunks."
        if found.changedSinceIndexed
        else ""
    )
    return (
        f"# {found.path}:{found.startLine}-{found.endLine}\n"
        f"around chunk `{found.chunk.id}` ({_where(found.chunk.metadata)}){stale}\n\n"
        f"{_fence(found.chunk.metadata.language, found.content)}"
    )


def _symbol_line(symbol: models.SymbolInfo, with_path: bool = True) -> str:
    owner = f"{symbol.parent}." if symbol.parent else ""
    where = f"{symbol.filePath}:{symbol.startLine}" if with_path else f"line {symbol.startLine}"
    exported = " · exported" if symbol.exported else ""
    doc = f" · {symbol.doc}" if symbol.doc else ""
    return f"- {symbol.kind} **{owner}{symbol.name}** ({where}){exported}: `{symbol.signature}`{doc}"


def symbols_markdown(found: models.SymbolList) -> str:
    where = found.path or "the repository"
    lines = [f"# Definitions in {where}: {len(found.symbols)} of {found.totalFound}"]
    current = None
    for symbol in found.symbols:
        if symbol.filePath != current:
            current = symbol.filePath
            lines.append(f"\n## {current}")
        lines.append(_symbol_line(symbol, with_path=False))
    if not found.symbols:
        lines.append("No functions, classes or types here.")
    return "\n".join(lines)


def type_markdown(found: models.TypeSearch) -> str:
    scope = f" in package {found.package}" if found.package else ""
    lines = [f"# {found.type} definitions{scope}: {len(found.symbols)} of {found.totalFound}"]
    lines += [_symbol_line(s) for s in found.symbols] or ["None found."]
    return "\n".join(lines)


def _import_line(item: models.ImportInfo) -> str:
    names = f" ({', '.join(item.names)})" if item.names else ""
    target = ", ".join(item.resolved) if item.resolved else "external"
    return f"- line {item.line}: `{item.module}`{names} → {target}"


def dependencies_markdown(found: models.DependencyResult) -> str:
    lines = [f"# Dependencies of {found.path}", f"\n## Imports ({len(found.imports)})"]
    lines += [_import_line(i) for i in found.imports] or ["- none"]
    lines.append(f"\n## Imported by ({len(found.importedBy)})")
    lines += [f"- {p}" for p in found.importedBy] or ["- no file of this repository imports it"]
    return "\n".join(lines)


def _usage_line(usage: models.Usage) -> str:
    inside = f" in `{usage.inSymbol}`" if usage.inSymbol else ""
    return f"- {usage.filePath}:{usage.line} ({usage.kind}{inside}): `{usage.text}`"


def usages_markdown(found: models.UsageResult) -> str:
    lines = [f"# Usages of `{found.name}`: {len(found.usages)} of {found.totalFound}"]
    if found.definitions:
        lines.append("\n## Defined at")
        lines += [_symbol_line(s) for s in found.definitions]
    lines.append("\n## Used at")
    lines += [_usage_line(u) for u in found.usages] or ["- no usages found"]
    return "\n".join(lines)


def explanation_markdown(found: models.Explanation) -> str:
    if found.definition is None:
        lines = [f"# No definition named by {found.query!r}"]
        if found.note:
            lines.append(f"> {found.note}")
        if found.related:
            lines.append("\nClosest code by search:")
            lines += [f"- {_where(c.metadata)} · id `{c.id}`" for c in found.related]
        return "\n".join(lines)
    symbol = found.definition
    lines = [
        f"# {symbol.kind} {symbol.parent + '.' if symbol.parent else ''}{symbol.name}",
        _symbol_line(symbol),
    ]
    if found.code:
        lines += ["", _fence(symbol.language, found.code.content)]
    if found.calls:
        lines.append("\n## Calls")
        lines += [
            f"- `{c.name}` → {', '.join(c.definedIn) if c.definedIn else 'external'}" for c in found.calls
        ]
    if found.imports:
        lines.append("\n## Its file imports")
        lines += [_import_line(i) for i in found.imports]
    lines.append("\n## Used at")
    lines += [_usage_line(u) for u in found.usages] or ["- no usages found"]
    if found.otherDefinitions:
        lines.append("\n## Other definitions with this name")
        lines += [_symbol_line(s) for s in found.otherDefinitions]
    return "\n".join(lines)
