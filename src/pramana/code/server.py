"""The code server, declared (pramana.servers): the raktamarga spec's tools over a repository's index."""

from __future__ import annotations

from pramana.servers import AnyServer, Server

INSTRUCTIONS = """Search and read one code repository. search_code finds code by meaning and keywords
(search_docs the same for markdown docs); get_file and get_chunk_context read code; list_functions,
get_dependencies, find_usages and search_by_type answer exactly from a symbol table; explain_code
gathers a definition with what it calls, imports and where it is used. Paths are relative to the
repository root."""


SERVER: AnyServer = Server(
    name="code",
    settings="pramana.config:CodeSettings",
    instructions=INSTRUCTIONS,
    install="pramana.code.data:install",
    open="pramana.code.runtime:served",
    tools="pramana.code.tools:tools",
    ready="pramana.code.tools:readiness",
    doctor="pramana.code.data:doctor",
    cli="pramana.code.cli:app",
)
