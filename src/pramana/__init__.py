"""pramana: grounded-lookup MCP servers."""

__version__ = "0.1.0"
