"""Building MCP servers: tool results, error translation, transports."""
