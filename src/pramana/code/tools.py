"""The `code` MCP server: the raktamarga spec's ten tools over a local repository index."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp_types import CallToolResult
from pydantic import Field

from pramana.code import format, models
from pramana.code.service import (
    MAX_EXPAND_LINES,
    MAX_LIMIT,
    MAX_QUERY_CHARS,
    MAX_SNIPPET_CHARS,
    MAX_SYMBOL_LIMIT,
    CodeService,
)
from pramana.errors import PramanaError
from pramana.mcp.calls import tool_call
from pramana.mcp.tools import READ_ONLY, Readiness, result

Query = Annotated[str, Field(description="Natural language search query", max_length=MAX_QUERY_CHARS)]
Path = Annotated[str, Field(description="File path relative to repo root", max_length=1000)]
Package = Annotated[str | None, Field(description="Filter by package (web, api, db, etc.)", max_length=200)]


def tools(server: MCPServer, service: Callable[[], CodeService]) -> None:
    """Add the code tools to `server`, and open the service at once: it starts indexing the
    repository and loading the model now, not on the first call."""
    with contextlib.suppress(PramanaError):  # a problem is reported to the agent on its first call
        service()
    _register(server, service)


def readiness(opened: CodeService) -> Readiness:
    """Ready with files indexed; says how far a background index has come."""
    files = opened.store.counts("files")["files"]
    state = opened.progress.describe()
    if files == 0:
        return Readiness(ready=False, detail=state or "the code index is empty")
    return Readiness(ready=True, detail=f"{files} files indexed" + (f"; {state}" if state else ""))


def _register(server: MCPServer, service: Callable[[], CodeService]) -> None:
    @server.tool(annotations=READ_ONLY)
    @tool_call()
    def search_code(
        query: Query,
        limit: Annotated[int, Field(ge=1, le=MAX_LIMIT, description="Max results")] = 5,
        package: Package = None,
        language: Annotated[str | None, Field(description="Filter by language", max_length=50)] = None,
    ) -> Annotated[CallToolResult, models.SearchResult]:
        """Search codebase for relevant code snippets: BM25 keywords fused with semantic vectors when an
        embedder is installed. Each chunk is a function, method, class or other definition with its
        file, lines and id (for get_chunk_context). Markdown docs are left out unless language says so."""
        found = service().search_code(query, limit, package, language)
        return result(format.search_markdown(found, f"Code for {query!r}"), found)

    @server.tool(annotations=READ_ONLY)
    @tool_call()
    def search_docs(
        query: Query,
        limit: Annotated[int, Field(ge=1, le=MAX_LIMIT)] = 5,
    ) -> Annotated[CallToolResult, models.SearchResult]:
        """Search markdown documentation only (also .rst, .txt): sections by heading."""
        found = service().search_docs(query, limit)
        return result(format.search_markdown(found, f"Docs for {query!r}"), found)

    @server.tool(annotations=READ_ONLY)
    @tool_call()
    def get_file(path: Path) -> Annotated[CallToolResult, models.FileResult]:
        """Get complete file content from the repository (indexed files only; paths that leave the
        repository are refused)."""
        found = service().get_file(path)
        return result(format.file_markdown(found), found)

    @server.tool(annotations=READ_ONLY)
    @tool_call()
    def get_chunk_context(
        chunkId: Annotated[str, Field(description="Chunk ID from search results", max_length=2000)],
        expandLines: Annotated[
            int, Field(ge=0, le=MAX_EXPAND_LINES, description="Lines before and after")
        ] = 20,
    ) -> Annotated[CallToolResult, models.ChunkContext]:
        """Get expanded context around a code chunk: its lines plus expandLines before and after."""
        found = service().get_chunk_context(chunkId, expandLines)
        return result(format.context_markdown(found), found)

    @server.tool(annotations=READ_ONLY)
    @tool_call()
    def find_similar(
        code: Annotated[
            str, Field(description="Code snippet to find similar code for", max_length=MAX_SNIPPET_CHARS)
        ],
        limit: Annotated[int, Field(ge=1, le=MAX_LIMIT)] = 5,
        excludeFile: Annotated[
            str | None, Field(description="Exclude results from this file", max_length=1000)
        ] = None,
    ) -> Annotated[CallToolResult, models.SearchResult]:
        """Find code similar to the provided snippet (shared identifiers, and meaning with an embedder)."""
        found = service().find_similar(code, limit, excludeFile)
        return result(format.search_markdown(found, "Similar code"), found)

    @server.tool(annotations=READ_ONLY)
    @tool_call()
    def explain_code(
        query: Annotated[
            str, Field(description="What to explain (function name, concept)", max_length=MAX_QUERY_CHARS)
        ],
    ) -> Annotated[CallToolResult, models.Explanation]:
        """Get code with context to explain a function or concept: the definition (by exact name, e.g.
        'parse' or 'Client.send', else the best search hit), what it calls (and where those are defined),
        what its file imports, and where it is used."""
        found = service().explain_code(query)
        return result(format.explanation_markdown(found), found)

    @server.tool(annotations=READ_ONLY)
    @tool_call()
    def list_functions(
        path: Annotated[
            str, Field(description="File or directory path ('.' for everything)", max_length=1000)
        ],
    ) -> Annotated[CallToolResult, models.SymbolList]:
        """List all functions and exports in a file or module: functions, methods, classes, interfaces
        and types with kind, lines, signature, first doc line and whether exported."""
        found = service().list_functions(path)
        return result(format.symbols_markdown(found), found)

    @server.tool(annotations=READ_ONLY)
    @tool_call()
    def get_dependencies(path: Path) -> Annotated[CallToolResult, models.DependencyResult]:
        """Get imports and dependencies for a file: each import with the repository files it resolves to
        (or external), and the files that import this one."""
        found = service().get_dependencies(path)
        return result(format.dependencies_markdown(found), found)

    @server.tool(annotations=READ_ONLY)
    @tool_call()
    def find_usages(
        name: Annotated[str, Field(description="Function or export name", max_length=200)],
        limit: Annotated[int, Field(ge=1, le=MAX_SYMBOL_LIMIT)] = 10,
    ) -> Annotated[CallToolResult, models.UsageResult]:
        """Find all usages of a function or export by exact name: calls, imports and other references,
        each with its line and the definition it sits in; plus where the name is defined."""
        found = service().find_usages(name, limit)
        return result(format.usages_markdown(found), found)

    @server.tool(annotations=READ_ONLY)
    @tool_call()
    def search_by_type(
        type: Annotated[
            Literal["function", "class", "interface", "type", "export"],
            Field(description="Type of code element to find"),
        ],
        package: Package = None,
        limit: Annotated[int, Field(ge=1, le=MAX_SYMBOL_LIMIT)] = 20,
    ) -> Annotated[CallToolResult, models.TypeSearch]:
        """Find all elements of a specific type (function includes methods; export: every exported
        definition). Structs count as classes, traits as interfaces, enums as types."""
        found = service().search_by_type(type, package, limit)
        return result(format.type_markdown(found), found)
