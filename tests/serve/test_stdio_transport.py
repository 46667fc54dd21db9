"""The stdio transport served from the event loop (pramana.mcp.stdio): lines however the pipe cuts
them, answers larger than the pipe holds while the reader is slow, the wire kept apart from fd 0/1,
and the SDK's transport where the loop cannot wait on the descriptors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import anyio
import pytest

from pramana.mcp.stdio import _LineReader, _pollable, _Writer

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="the loop waits on pipes on POSIX only")


def test_lines_cut_anywhere_by_the_pipe_come_whole() -> None:
    read_fd, write_fd = os.pipe()
    os.set_blocking(read_fd, False)
    message = '{"word": "rāmeṇa"}\n{"second": 2}\nlast without newline'.encode()

    def trickle() -> None:  # one byte at a time: a UTF-8 letter split across reads
        for index in range(len(message)):
            os.write(write_fd, message[index : index + 1])
            time.sleep(0.001)
        os.close(write_fd)

    async def read_all() -> list[str]:
        return [line async for line in _LineReader(read_fd)]

    writer = threading.Thread(target=trickle)
    writer.start()
    lines = anyio.run(read_all)
    writer.join()
    os.close(read_fd)
    assert lines == ['{"word": "rāmeṇa"}\n', '{"second": 2}\n', "last without newline"]


def test_an_answer_larger_than_the_pipe_waits_for_a_slow_reader() -> None:
    read_fd, write_fd = os.pipe()
    os.set_blocking(write_fd, False)
    answer = "x" * 1_000_000 + "\n"  # far more than a pipe's buffer (64 KB on Linux)
    received = bytearray()

    def slow_reader() -> None:
        time.sleep(0.2)  # the pipe is full meanwhile: the writer must wait, not fail or drop
        while chunk := os.read(read_fd, 1 << 16):
            received.extend(chunk)

    async def send() -> int:
        writer = _Writer(write_fd)
        await writer.write(answer)
        ticks = 0

        async def tick() -> None:  # the loop goes on running while the writer waits for the pipe
            nonlocal ticks
            while True:
                ticks += 1
                await anyio.sleep(0.01)

        async with anyio.create_task_group() as group:
            group.start_soon(tick)
            await writer.flush()
            group.cancel_scope.cancel()
        return ticks

    reader = threading.Thread(target=slow_reader)
    reader.start()
    ticks = anyio.run(send)
    os.close(write_fd)
    reader.join()
    os.close(read_fd)
    assert received.decode() == answer
    assert ticks > 1


def test_pollable_only_for_pipes_and_sockets(tmp_path: Path) -> None:
    read_fd, write_fd = os.pipe()
    with open(tmp_path / "requests.jsonl", "w") as regular:
        assert _pollable(read_fd) and _pollable(write_fd)
        assert not _pollable(regular.fileno())
    os.close(read_fd)
    os.close(write_fd)
    assert not _pollable(read_fd)  # closed


SERVER = textwrap.dedent(
    """
    import os, sys
    from mcp.server.mcpserver import MCPServer
    from pramana.mcp.stdio import run_stdio

    server = MCPServer(name="t")

    @server.tool()
    def noisy(word: str) -> str:
        print("stray output from a tool")  # fd 1 is stderr while serving: never on the wire
        os.system("echo a child output")
        return word * 2

    run_stdio(server)
    print("after serving: stdout is stdout again")
    """
)


def _requests() -> str:
    init = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}
    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": init},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
         "params": {"name": "noisy", "arguments": {"word": "ab"}}},
    ]  # fmt: skip
    return "".join(json.dumps(message) + "\n" for message in messages)


def _answers(stdout: str) -> dict[int, dict]:
    answers = {}
    for line in stdout.splitlines():
        if line.startswith("{"):
            message = json.loads(line)
            answers[message["id"]] = message
    return answers


def test_the_wire_carries_only_messages(tmp_path: Path) -> None:
    """Tools' and children's output goes to stderr while serving; stdout is restored once stdin ends."""
    script = tmp_path / "server.py"
    script.write_text(SERVER)
    server = subprocess.Popen([sys.executable, str(script)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, bufsize=1)  # fmt: skip
    assert server.stdin is not None and server.stdout is not None
    server.stdin.write(_requests())
    server.stdin.flush()
    lines = []
    while not lines or json.loads(lines[-1]).get("id") != 2:  # the answer before stdin ends
        lines.append(server.stdout.readline())
    server.stdin.close()
    rest = server.stdout.read()
    stderr = server.stderr.read() if server.stderr else ""
    server.wait(timeout=60)
    assert server.returncode == 0, stderr
    assert rest == "after serving: stdout is stdout again\n"
    assert all(line.startswith("{") for line in lines), lines
    assert _answers("".join(lines))[2]["result"]["content"][0]["text"] == "abab"
    assert "stray output from a tool" in stderr and "a child output" in stderr


def test_stdin_from_a_file_is_served_by_the_sdk_transport(tmp_path: Path) -> None:
    script = tmp_path / "server.py"
    script.write_text(SERVER)
    (tmp_path / "in.jsonl").write_text(_requests())
    with open(tmp_path / "in.jsonl") as stdin:
        done = subprocess.run([sys.executable, str(script)], stdin=stdin, capture_output=True, text=True,
                              timeout=60)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert _answers(done.stdout)[1]["result"]["serverInfo"]["name"] == "t"
    assert done.stdout.splitlines()[-1] == "after serving: stdout is stdout again"
