"""End to end: the SDK's client talks to `pramana serve code` over stdio."""

import asyncio

import pytest

from benchmarks._mcp_client import stdio_session

pytestmark = pytest.mark.anyio
SPEC_TOOLS = {
    "search_code": {"query", "limit", "package", "language"},
    "search_docs": {"query", "limit"},
    "get_file": {"path"},
    "get_chunk_context": {"chunkId", "expandLines"},
    "find_similar": {"code", "limit", "excludeFile"},
    "explain_code": {"query"},
    "list_functions": {"path"},
    "get_dependencies": {"path"},
    "find_usages": {"name", "limit"},
    "search_by_type": {"type", "package", "limit"},
}


@pytest.fixture
def anyio_backend():
    return "asyncio"


async def indexed(session):
    """Wait for the background index: the server answers at once, from what is ready."""
    for _ in range(100):
        listed = await session.call_tool("list_functions", {"path": "."})
        if not listed.is_error and listed.structured_content["totalFound"] >= 25:
            return
        await asyncio.sleep(0.1)
    raise AssertionError("the background index never finished")


def serve(repo, db):
    args = ["-m", "pramana", "serve", "code", "--repo", str(repo), "--db", str(db), "--embedder", "none"]
    return stdio_session(args, {})


async def test_the_ten_tools_over_stdio(fresh_repo, tmp_path):
    async with serve(fresh_repo, tmp_path / "code.db") as s:
        tools = {t.name: t for t in (await s.list_tools()).tools}
        await indexed(s)
        found = await s.call_tool("search_code", {"query": "refund a payment", "limit": 2})
        docs = await s.call_tool("search_docs", {"query": "installer"})
        chunk_id = found.structured_content["chunks"][0]["id"]
        context = await s.call_tool("get_chunk_context", {"chunkId": chunk_id, "expandLines": 2})
        file = await s.call_tool("get_file", {"path": "packages/web/src/api.ts"})
        similar = await s.call_tool("find_similar", {"code": "fetch(url).then(r => r.json())", "limit": 2})
        explained = await s.call_tool("explain_code", {"query": "fetchOrders"})
        listed = await s.call_tool("list_functions", {"path": "packages/api/shop/cart.py"})
        deps = await s.call_tool("get_dependencies", {"path": "packages/web/src/App.tsx"})
        usages = await s.call_tool("find_usages", {"name": "slugify"})
        typed = await s.call_tool("search_by_type", {"type": "interface"})
    assert {name: set(t.input_schema["properties"]) for name, t in tools.items()} == SPEC_TOOLS
    assert all(t.annotations.read_only_hint and t.output_schema for t in tools.values())
    assert tools["search_by_type"].input_schema["properties"]["type"]["enum"] == [
        "function", "class", "interface", "type", "export",
    ]  # fmt: skip
    top = found.structured_content["chunks"][0]
    assert top["metadata"]["name"] == "refund_payment" and set(top) == {"id", "score", "content", "metadata"}
    assert set(top["metadata"]) >= {"filePath", "package", "chunkType", "name", "startLine", "endLine"}
    assert "refund_payment" in found.content[0].text and "semantic search is off" in found.content[0].text
    assert docs.structured_content["chunks"][0]["metadata"]["name"] == "Installing"
    assert context.structured_content["chunk"]["id"] == chunk_id
    assert (
        file.structured_content["language"] == "typescript"
        and "fetchOrders" in file.structured_content["content"]
    )
    assert similar.structured_content["chunks"]
    assert explained.structured_content["definition"]["filePath"] == "packages/web/src/api.ts"
    assert [u["filePath"] for u in explained.structured_content["usages"]] == ["packages/web/src/App.tsx"] * 2
    assert [s["name"] for s in listed.structured_content["symbols"]][:2] == ["Cart", "__init__"]
    assert deps.structured_content["imports"][0]["resolved"] == ["packages/web/src/api.ts"]
    assert {u["filePath"] for u in usages.structured_content["usages"]} == {
        "packages/web/src/util.js",
        "packages/web/src/api.ts",
    }
    assert {s["name"] for s in typed.structured_content["symbols"]} == {"Order", "Stock", "Priced"}


async def test_bad_calls_are_errors_the_agent_can_act_on(fresh_repo, tmp_path):
    async with serve(fresh_repo, tmp_path / "code.db") as s:
        await indexed(s)
        escape = await s.call_tool("get_file", {"path": "../../etc/passwd"})
        secret = await s.call_tool("get_file", {"path": "secrets.env"})
        empty = await s.call_tool("search_code", {"query": "  "})
        huge = await s.call_tool("search_code", {"query": "x" * 3000})
        package = await s.call_tool("search_code", {"query": "cart", "package": "mobile"})
        kind = await s.call_tool("search_by_type", {"type": "module"})
        limit = await s.call_tool("find_usages", {"name": "Cart", "limit": 0})
        chunk = await s.call_tool("get_chunk_context", {"chunkId": "nope"})
    assert escape.is_error and "leaves the repository" in escape.content[0].text
    assert secret.is_error and "not in the index" in secret.content[0].text
    assert empty.is_error and "query is empty" in empty.content[0].text
    assert huge.is_error and "2000" in huge.content[0].text
    assert package.is_error and "unknown package 'mobile'" in package.content[0].text
    assert kind.is_error and limit.is_error
    assert chunk.is_error and "no chunk" in chunk.content[0].text
    assert not any(
        "Traceback" in r.content[0].text for r in (escape, secret, empty, huge, package, kind, chunk)
    )


async def test_an_existing_index_serves_without_the_repo_flag(fresh_repo, tmp_path):
    from pramana.code.index.indexer import Indexer
    from pramana.code.store import CodeStore

    db = tmp_path / "code.db"
    Indexer(fresh_repo, CodeStore(db)).run()
    args = ["-m", "pramana", "serve", "code", "--db", str(db), "--embedder", "none"]
    async with stdio_session(args, {}) as s:
        found = await s.call_tool("find_usages", {"name": "vat"})
    assert {u["filePath"] for u in found.structured_content["usages"]} == {"crates/pricing/src/lib.rs"}
