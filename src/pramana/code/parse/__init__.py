"""Cutting a source file into chunks and reading its symbols.

Every language of the table (languages.py) with a grammar is parsed with tree-sitter (syntax.py):
each function, method, class, interface, module and type becomes a chunk (with its leading doc
comment), and the file's definitions, imports and identifier references fill the symbol table.
Markdown is cut by section; anything else by windows of lines (text.py).

Chunk types: function, method, class, interface, type, module (a module's or namespace's own lines,
or top-level code outside any definition: then without a name), macro, section (markdown) and lines
(line windows).
"""

from __future__ import annotations

from pramana.code.languages import language
from pramana.code.parse.text import MAX_CHUNK_LINES, line_windows, markdown_sections, text_chunks
from pramana.code.parse.types import Chunk, Import, ParsedFile, Reference, Symbol

__all__ = [
    "MAX_CHUNK_LINES",
    "Chunk",
    "Import",
    "ParsedFile",
    "Reference",
    "Symbol",
    "line_windows",
    "markdown_sections",
    "parse_file",
]


def parse_file(path: str, language_name: str, package: str, text: str) -> ParsedFile:
    """Chunks and symbols of one file's text."""
    if language(language_name).parsed:
        from pramana.code.parse.syntax import SyntaxReader

        return SyntaxReader(path, language_name, package, text).read()
    return ParsedFile(chunks=text_chunks(path, language_name, package, text))
