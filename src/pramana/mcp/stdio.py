"""MCP over stdin/stdout served from the event loop itself, without a thread per read and per write.

The SDK's stdio transport reads each line in a worker thread and writes and flushes each answer in two
more: with the tool's own worker thread, four thread round trips a call, each a wake-up that waits for
a core on a busy machine (a bare server answered in 0.72-0.87 ms p50 that way, 0.44-0.46 ms here, p99
11 against 6-8 ms, at load 8; benchmarks/sanskrit_text.py, docs/benchmarks.md). Here the pipes are
non-blocking and the loop waits for them as for sockets. Everything else is the SDK's: `stdio_server`
takes the two streams, parses and serialises the messages.

As the SDK does, the wire gets private descriptors and fd 0 and 1 are pointed at the null device and at
stderr while serving, so that a child process or a stray print reads EOF and misses the wire; both are
restored at exit. Where the loop cannot wait on the descriptors (Windows, a terminal, a regular file),
the SDK's transport is used as it is.
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.stdio import stdio_server

READ_CHUNK = 1 << 16


class _LineReader:
    """Lines (text, newline kept) of a non-blocking descriptor, read when the loop says it is readable."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._buffer = bytearray()

    def __aiter__(self) -> AsyncIterator[str]:
        return self

    async def __anext__(self) -> str:
        while True:
            end = self._buffer.find(b"\n")
            if end >= 0:
                line = bytes(self._buffer[: end + 1])
                del self._buffer[: end + 1]
                return line.decode("utf-8", errors="replace")
            try:
                chunk = os.read(self._fd, READ_CHUNK)
            except BlockingIOError:
                await anyio.wait_readable(self._fd)
                continue
            if not chunk:  # end of input: a last line without its newline, then the end
                if self._buffer:
                    line = bytes(self._buffer)
                    self._buffer.clear()
                    return line.decode("utf-8", errors="replace")
                raise StopAsyncIteration
            self._buffer += chunk


class _Writer:
    """What the SDK's transport writes (`write`, then `flush`), sent when the pipe takes it; while the
    reader is slow, the loop waits for the pipe, not a thread."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._pending = bytearray()

    async def write(self, text: str) -> None:
        self._pending += text.encode("utf-8")

    async def flush(self) -> None:
        while self._pending:
            try:
                sent = os.write(self._fd, self._pending)
            except BlockingIOError:
                await anyio.wait_writable(self._fd)
                continue
            del self._pending[:sent]


def _pollable(fd: int) -> bool:
    """Whether the event loop can wait on `fd` (a pipe or a socket, not on Windows)."""
    if sys.platform == "win32":
        return False
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


@contextmanager
def _claimed() -> Iterator[tuple[int, int]]:
    """Private non-blocking descriptors for the wire (stdin's, stdout's); fd 0 reads the null device and
    fd 1 writes to stderr meanwhile; everything as it was at exit."""
    sys.stdout.flush()
    wire_in, wire_out = os.dup(0), os.dup(1)
    saved_in, saved_out = os.dup(0), os.dup(1)
    blocking = os.get_blocking(wire_in), os.get_blocking(wire_out)
    null = os.open(os.devnull, os.O_RDONLY)
    try:
        os.dup2(null, 0)
        os.dup2(2, 1)
        os.set_blocking(wire_in, False)
        os.set_blocking(wire_out, False)
        yield wire_in, wire_out
    finally:
        # the flags belong to the pipe's open file, which the client's side of it may share
        os.set_blocking(wire_in, blocking[0])
        os.set_blocking(wire_out, blocking[1])
        os.dup2(saved_in, 0)
        os.dup2(saved_out, 1)
        for fd in (null, wire_in, wire_out, saved_in, saved_out):
            os.close(fd)


async def _serve(server: MCPServer) -> None:
    lowlevel = server._lowlevel_server
    with _claimed() as (wire_in, wire_out):
        streams = stdio_server(_LineReader(wire_in), _Writer(wire_out))  # type: ignore[arg-type]
        async with streams as (read_stream, write_stream):
            await lowlevel.run(read_stream, write_stream, lowlevel.create_initialization_options())


def run_stdio(server: MCPServer) -> None:
    """Serve `server` on this process's stdin and stdout until stdin ends."""
    if not (_pollable(0) and _pollable(1)):
        server.run("stdio")
        return
    anyio.run(_serve, server)
