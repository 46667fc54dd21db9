"""The MCP SDK's floor: an MCPServer with one trivial tool over stdio, nothing of pramana imported.

benchmarks/code_server.py times its start to first answer beside pramana's, in the same run.
"""

from mcp.server.mcpserver import MCPServer

app = MCPServer("bare")


@app.tool()
def search_code(query: str) -> dict:
    """Echo the query (the cheapest tool the SDK can serve)."""
    return {"mode": "bare", "query": query}


if __name__ == "__main__":
    app.run("stdio")
