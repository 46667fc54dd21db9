"""Talking to a real pramana server process over MCP stdio with the SDK's client."""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


@asynccontextmanager
async def stdio_session(
    args: Sequence[str], env: dict[str, str], command: str = sys.executable
) -> AsyncIterator[ClientSession]:
    params = StdioServerParameters(command=command, args=list(args), env={**os.environ, **env})
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session
