"""Definitions that depend on a choice made where they are written: Zig's `const Impl = switch (os)
{ .linux => struct {...}, ... }` (and `if (c) struct {...} else struct {...}`), whose structs' functions
are the methods of the name bound, and Lua's functions defined per library in a top-level `if`
(symbols, the `if` read whole). What the structural tools and search say about each, on small files
written for these tests."""

from __future__ import annotations

import pytest

from pramana.code.index.tables import CHOSEN_DEFINITIONS
from pramana.code.parse import parse_file
from pramana.code.service import CodeService
from tests.code.conftest import indexed_service, reindexed_from_before, symbol_rows

# A file watcher with one implementation per operating system, chosen at compile time.
WATCHER_ZIG = """const std = @import("std");
const builtin = @import("builtin");

const Backend = switch (builtin.os.tag) {
    .linux => struct {
        inotify_fd: i32,

        fn startInotify(paths: []const []const u8) !Backend {
            _ = paths;
            return .{ .inotify_fd = 3 };
        }
    },
    .windows => if (builtin.single_threaded) struct {
        fn pollDirectoryChanges() void {}
    } else struct {
        fn waitDirectoryChanges() void {}
    },
    else => void,
};

const poll_interval_ms = switch (builtin.os.tag) {
    .linux => 50,
    else => 200,
};

pub fn watchFolders(paths: []const []const u8) !void {
    _ = try Backend.startInotify(paths);
}
"""

# A checksum module that uses whichever bit library the interpreter has.
CHECKSUM_LUA = """local M = {}

if bit32 then
  function M.xor_bytes(a, b) return bit32.bxor(a, b) end
elseif jit then
  local bit = require "bit"
  function M.xor_bytes(a, b) return bit.bxor(a, b) end
else
  M.xor_bytes = function(a, b) return a ~ b end
end

function M.adler32(text)
  local a, b = 1, 0
  for i = 1, #text do
    a = (a + text:byte(i)) % 65521
    b = (b + a) % 65521
  end
  return b * 65536 + a
end

return M
"""


def test_a_zig_binding_chosen_by_switch_or_if_is_a_struct_with_every_arms_functions():
    found = symbol_rows("src/watcher.zig", "zig", WATCHER_ZIG)
    assert ("class", None, "Backend", 4, 19) in found
    assert ("method", "Backend", "startInotify", 8, 11) in found
    assert ("method", "Backend", "pollDirectoryChanges", 14, 14) in found  # an `if` inside a `switch`
    assert ("method", "Backend", "waitDirectoryChanges", 16, 16) in found
    assert ("function", None, "watchFolders", 26, 28) in found
    # A switch choosing numbers defines nothing.
    assert not any(name == "poll_interval_ms" for _, _, name, _, _ in found)


def test_lua_functions_defined_per_library_in_a_top_level_if_are_the_modules():
    found = symbol_rows("lib/checksum.lua", "lua", CHECKSUM_LUA)
    xors = sorted(start for kind, parent, name, start, _ in found if (parent, name) == ("M", "xor_bytes"))
    assert xors == [4, 7, 9]
    assert ("function", "M", "adler32", 12, 19) in found
    assert ("module", None, "M", 1, 1) in found
    # The `if` is read whole: one chunk with the table above it, not a fragment per branch.
    chunks = parse_file("lib/checksum.lua", "lua", "root", CHECKSUM_LUA).chunks
    assert [(c.chunk_type, c.name, c.start_line, c.end_line) for c in chunks][:2] == [
        ("module", None, 1, 10),
        ("function", "adler32", 12, 19),
    ]


def test_a_one_line_lua_table_is_a_symbol_whose_line_stays_with_the_files_head():
    source = (
        '-- Checksums of packets.\nlocal bit = require "bit"\nlocal M = {}\n\n'
        "function M.adler32(s)\n  return 1\nend\n"
    )
    parsed = parse_file("lib/sum.lua", "lua", "root", source)
    assert ("module", "M", 3) in {(s.kind, s.name, s.start_line) for s in parsed.symbols}
    chunks = [(c.chunk_type, c.name, c.start_line, c.end_line) for c in parsed.chunks]
    assert chunks == [("module", None, 1, 3), ("function", "adler32", 5, 7)]
    # A table written over lines keeps its own chunk.
    spread = source.replace("local M = {}", "local M = {\n  version = 2,\n}")
    spread_chunks = parse_file("lib/sum.lua", "lua", "root", spread).chunks
    assert ("module", "M", 3, 5) in [(c.chunk_type, c.name, c.start_line, c.end_line) for c in spread_chunks]


@pytest.fixture(scope="module")
def service(tmp_path_factory) -> CodeService:
    files = {"src/watcher.zig": WATCHER_ZIG, "lib/checksum.lua": CHECKSUM_LUA}
    return indexed_service(files, tmp_path_factory.mktemp("chosen"))


def test_a_method_of_one_platforms_struct_is_found_and_explained(service):
    explained = service.explain_code("Backend.startInotify").definition
    assert explained is not None and (explained.filePath, explained.startLine) == ("src/watcher.zig", 8)
    listed = service.list_functions("src/watcher.zig")
    assert {"startInotify", "pollDirectoryChanges", "waitDirectoryChanges"} <= {
        f.name for f in listed.symbols
    }


def test_a_function_defined_in_a_lua_if_is_found_by_name(service):
    definitions = service.find_usages("xor_bytes").definitions
    assert sorted(d.startLine for d in definitions) == [4, 7, 9]
    top = service.search_code("xor_bytes", limit=3).chunks[0]
    assert top.metadata.filePath == "lib/checksum.lua"


def test_an_index_made_before_reads_its_zig_and_lua_files_again(tmp_path):
    files = {"src/watcher.zig": WATCHER_ZIG, "lib/checksum.lua": CHECKSUM_LUA, "x.py": "y = 1\n"}
    report, _, _ = reindexed_from_before(CHOSEN_DEFINITIONS, files, tmp_path)
    # Later migrations may read more.
    assert {"src/watcher.zig", "lib/checksum.lua"} <= set(report.changed_paths)
