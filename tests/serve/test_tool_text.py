"""What an agent reads of every tool: descriptions without docstring indentation, argument errors
in a line that says what is accepted (not pydantic's report)."""

from __future__ import annotations

import asyncio

import pytest
from mcp.server.mcpserver.exceptions import ToolError

from pramana.config import CodeSettings
from pramana.mcp.servers import SERVER_NAMES, build


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    repo = tmp_path_factory.mktemp("repo")
    (repo / "cart.py").write_text("def total(items):\n    return sum(items)\n")
    data = tmp_path_factory.mktemp("data")
    code = CodeSettings.load(repo=repo, db_path=data / "code.db", embedder="none")
    return build(list(SERVER_NAMES), {"code": code}, worker_processes=False).server


def test_descriptions_have_no_docstring_indentation(served):
    tools = served._tool_manager.list_tools()
    assert len(tools) >= 25
    for tool in tools:
        assert tool.description and tool.description == tool.description.strip(), tool.name
        indented = [line for line in tool.description.splitlines() if line[:1].isspace()]
        assert not indented, (tool.name, indented)


@pytest.mark.parametrize(
    ("tool", "arguments", "message"),
    [
        ("search_verses", {"query": "x" * 600}, "query takes at most 500 characters (got 600 characters)"),
        ("search_verses", {"query": "mind", "max_results": 0}, "max_results must be at least 1 (got 0)"),
        ("sanskrit_search", {"query": "yoga", "limit": "many"}, "limit must be a whole number (got 'many')"),
        ("lookup_verse", {}, "reference is required"),
        ("search_code", {"query": "total", "limit": 51}, "limit must be at most 50 (got 51)"),
    ],
)
def test_argument_errors_say_what_is_accepted_in_one_line(served, tool, arguments, message):
    async def call() -> str:
        try:
            await served._tool_manager.call_tool(tool, arguments, context=None)
        except ToolError as exc:
            return str(exc)
        raise AssertionError(f"{tool} accepted {arguments}")

    text = asyncio.run(call())
    assert text == f"Error executing tool {tool}: {message}"
