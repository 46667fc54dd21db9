"""Tools as an agent reads them: descriptions without the docstrings' indentation, and arguments out
of bounds explained in a line instead of pydantic's report.

The SDK publishes a tool's docstring as it is written (every line after the first indented by eight
spaces) and answers an argument its schema refuses with pydantic's text: "1 validation error for
search_versesArguments\\nquery\\n  String should have at most 500 characters [type=string_too_long,
input_value='xxxx…', input_type=str]\\n    For further information visit https://errors.pydantic.dev…".
"""

from __future__ import annotations

import inspect
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.tools.base import Tool
from pydantic import ValidationError

MAX_SHOWN = 40  # characters of a refused value quoted back


def polish_tools(server: MCPServer) -> None:
    """Every tool of `server`: its description dedented, its argument errors readable."""
    for tool in server._tool_manager.list_tools():
        tool.description = inspect.cleandoc(tool.description or "")
        if type(tool) is Tool:
            tool.__class__ = _ReadableArgumentsTool  # same fields, one method more


class _ReadableArgumentsTool(Tool):
    async def run(self, arguments: dict[str, Any], context: Any, convert_result: bool = False) -> Any:
        try:
            return await super().run(arguments, context, convert_result)
        except ToolError as exc:
            if isinstance(exc.__cause__, ValidationError):  # the arguments, refused by their schema
                raise ToolError(f"Error executing tool {self.name}: {explain(exc.__cause__)}") from None
            raise


def explain(error: ValidationError) -> str:
    """pydantic's errors as `name: what is accepted (got …)`, one clause each."""
    return "; ".join(_clause(found) for found in error.errors(include_url=False))


def _shown(value: Any) -> str:
    if isinstance(value, str):
        return f"{len(value):,} characters" if len(value) > MAX_SHOWN else repr(value)
    text = repr(value)
    return text if len(text) <= MAX_SHOWN else type(value).__name__


def _clause(found: Any) -> str:
    where = ".".join(str(part) for part in found["loc"]) or "arguments"
    kind, ctx, value = found["type"], found.get("ctx") or {}, found.get("input")
    accepted = {
        "missing": "is required",
        "string_too_long": f"takes at most {ctx.get('max_length')} characters",
        "string_too_short": f"takes at least {ctx.get('min_length')} characters",
        "less_than_equal": f"must be at most {ctx.get('le')}",
        "less_than": f"must be less than {ctx.get('lt')}",
        "greater_than_equal": f"must be at least {ctx.get('ge')}",
        "greater_than": f"must be greater than {ctx.get('gt')}",
        "int_parsing": "must be a whole number",
        "int_type": "must be a whole number",
        "int_from_float": "must be a whole number",
        "string_type": "must be text",
        "bool_parsing": "must be true or false",
        "bool_type": "must be true or false",
        "literal_error": f"must be {ctx.get('expected')}",
        "list_type": "must be a list",
        "too_long": f"takes at most {ctx.get('max_length')} items",
    }.get(kind, str(found.get("msg", "is not valid")).lower())
    got = "" if kind == "missing" else f" (got {_shown(value)})"
    return f"{where} {accepted}{got}"
