"""Code for Windows alone, beside the portable code of the same parts, ranks after it unless asked."""

from __future__ import annotations

import pytest

from pramana.code.search.paths import is_secondary, path_kinds, path_prior, wanted_kinds
from tests.code.conftest import indexed_service

# The Windows file says the topic's words more often (its API is wordier), as such twins do.
TWINS_REPO = {
    "src/unix/fs.c": "/* File system requests: open, read and write a file. */\n"
    "int fs_open(const char* path) {\n    return open(path, 0);\n}\n\n"
    "long fs_read(int fd, char* buf, long len) {\n    return read(fd, buf, len);\n}\n",
    "src/win/fs.c": "/* File system requests on Windows: open, read and write a file with a file handle. */\n"
    "int fs_open(const char* path) {\n"
    "    /* open the file: CreateFileW opens a file handle to read or write */\n"
    "    return open_file_handle(path);\n}\n\n"
    "long fs_read(int fd, char* buf, long len) {\n    /* read the file through its file handle */\n"
    "    return read_file_handle(fd, buf, len);\n}\n",
}


def top_paths(service, query: str, limit: int) -> list[str]:  # type: ignore[no-untyped-def]
    return [c.metadata.filePath for c in service.search_code(query, limit=limit).chunks]


def test_the_portable_twin_ranks_above_the_windows_one(tmp_path):
    service = indexed_service(TWINS_REPO, tmp_path)
    assert top_paths(service, "open and read a file", limit=2) == ["src/unix/fs.c", "src/win/fs.c"]
    # A query that names the platform asks for its code: no demotion then.
    assert top_paths(service, "open and read a file on windows", limit=1) == ["src/win/fs.c"]


@pytest.mark.parametrize(
    "path",
    [
        "src/win/fs.c",
        "tokio/src/net/windows/named_pipe.rs",
        "lib/std/os/windows/kernel32.zig",
        "Source/win32/NSMessagePort.m",
        "prometheus/process_collector_windows.go",
        "evthread_win32.c",
        "command_win.go",
    ],
)
def test_windows_only_code_is_a_platform_kind(path):
    assert "platform" in path_kinds(path)
    assert path_prior(path) < 1.0
    assert path_prior(path, wanted_kinds({"windows", "pipes"})) == 1.0
    assert not is_secondary(path)  # the symbol tools list it with production code


@pytest.mark.parametrize(
    "path", ["src/unix/fs.c", "src/window.c", "ui/windows_list.py", "src/winnow.rs", "src/twin/fs.c"]
)
def test_other_code_is_no_platform_kind(path):
    assert "platform" not in path_kinds(path)
