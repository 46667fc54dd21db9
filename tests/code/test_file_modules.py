"""Files that are definitions (an OCaml file is a module, a capitalised Zig file a struct), OCaml's
interface beside its implementation, renamings that define nothing, and C's include guards: what the
structural tools and search say about each, on small files written for these tests."""

from __future__ import annotations

import pytest

from pramana.code.index.indexer import Indexer
from pramana.code.index.tables import FILE_MODULES
from pramana.code.parse import parse_file
from pramana.code.search.paths import is_secondary
from pramana.code.service import CodeService
from pramana.code.store import CodeStore
from tests.code.conftest import indexed_service, reindexed_from_before, symbol_rows

TALLY_ML = """open Printf

(** A tally of counts. *)
type tally = { mutable count : int }

let create () = { count = 0 }

let bump t = t.count <- t.count + 1; printf "%d" t.count
"""
TALLY_MLI = """(**************************************************************)
(* A licence banner: no doc.                                    *)
(**************************************************************)

(** Tallies. *)

module Fmt = Format

type tally

val create : unit -> tally

val bump : tally -> unit
(** Counts one more. *)

module type STORE = sig
  val save : tally -> unit
end

module Store : STORE
"""
# A library's main module re-exporting its modules, as Base's `base.ml` and dune's `lib__.ml` do.
SHOP_ML = """(** The shop library. *)

module Tally = Tally
module Ledger = Shop__Ledger
module Fmt = Stdlib.Format
"""
COUNTER_ZIG = """//! A counter of events.
const std = @import("std");
const Counter = @This();

count: u64 = 0,

pub fn bump(self: *Counter) void {
    self.count += 1;
}

test "bump counts" {
    var c: Counter = .{};
    c.bump();
}
"""
RING_C = """#include "ring.h"

/* Push a value into the ring, in the GNU style: the return type on a line of its own. */
int
ring_push(int value)
{
    return value;
}
"""
RING_H = """#ifndef RING_H
#define RING_H

#define RING_CAPACITY 64

/* Push a value into the ring. */
int ring_push(int value);

#endif /* RING_H */
"""


def test_an_ocaml_interface_declares_its_values_and_renames_define_nothing():
    assert symbol_rows("lib/tally.mli", "ocaml", TALLY_MLI) == {
        ("module", None, "Tally", 1, 20),
        ("type", "Tally", "tally", 9, 9),
        ("function", "Tally", "create", 11, 11),
        ("function", "Tally", "bump", 13, 13),
        ("interface", "Tally", "STORE", 16, 18),
        ("method", "STORE", "save", 17, 17),
        ("module", "Tally", "Store", 20, 20),
    }
    assert symbol_rows("lib/shop.ml", "ocaml", SHOP_ML) == {("module", None, "Shop", 1, 5)}
    docs = {s.name: s.doc for s in parse_file("lib/tally.mli", "ocaml", "root", TALLY_MLI).symbols}
    assert docs["Tally"] == "Tallies." and docs["bump"] == "Counts one more."  # a `(** *)` after a `val`
    assert docs["create"] == "" and docs["STORE"] == ""  # no comment touches them


def test_a_capitalised_zig_file_is_a_struct_and_a_lower_case_one_a_namespace():
    found = symbol_rows("src/Counter.zig", "zig", COUNTER_ZIG)
    assert ("class", None, "Counter", 1, 14) in found
    assert ("method", "Counter", "bump", 7, 9) in found
    assert ("method", "Counter", "bump counts", 11, 14) in found  # a test block, named by its string
    parsed = parse_file("src/Counter.zig", "zig", "root", COUNTER_ZIG)
    assert parsed.symbols[0].doc == "A counter of events."
    lower = symbol_rows("src/counter.zig", "zig", COUNTER_ZIG)
    assert not any(name in ("Counter", "counter") for _, _, name, _, _ in lower)
    assert ("function", None, "bump", 7, 9) in lower


def test_zigs_test_files_are_tests():
    assert is_secondary("lib/std/json/test.zig") and is_secondary("src/parser_test.zig")
    assert not is_secondary("lib/std/json/Scanner.zig") and not is_secondary("lib/std/testing.zig")


def test_a_c_include_guard_is_no_macro():
    found = symbol_rows("src/ring.h", "c", RING_H)
    assert {name for _, _, name, _, _ in found} == {"RING_CAPACITY", "ring_push"}


def test_a_c_functions_signature_runs_to_its_name_and_its_body_comes_before_its_prototype(tmp_path):
    (signature,) = [s.signature for s in parse_file("src/ring.c", "c", "root", RING_C).symbols]
    assert signature == "int ring_push(int value)"
    for path, text in {"src/ring.c": RING_C, "src/ring.h": RING_H}.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text, encoding="utf-8")
    store = CodeStore(tmp_path / "index.db")
    Indexer(tmp_path, store, workers=0).run()
    service = CodeService(store, tmp_path)
    assert [d.filePath for d in service.find_usages("ring_push").definitions] == ["src/ring.c", "src/ring.h"]
    explained = service.explain_code("ring_push").definition
    assert explained is not None and (explained.filePath, explained.startLine) == ("src/ring.c", 4)


@pytest.fixture(scope="module")
def shop(tmp_path_factory) -> CodeService:
    files = {
        "lib/tally.ml": TALLY_ML,
        "lib/tally.mli": TALLY_MLI,
        "lib/shop.ml": SHOP_ML,
        "src/Counter.zig": COUNTER_ZIG,
        "src/main.zig": 'const Counter = @import("Counter.zig");\n\npub fn main() void {\n'
        "    var c: Counter = .{};\n    c.bump();\n}\n",
    }
    return indexed_service(files, tmp_path_factory.mktemp("shop"))


def test_the_definition_of_a_files_module_is_the_file_not_a_renaming(shop):
    tally = shop.find_usages("Tally", limit=10)
    assert sorted(d.filePath for d in tally.definitions) == ["lib/tally.ml", "lib/tally.mli"]
    explained = shop.explain_code("Counter")
    assert explained.definition is not None
    assert (explained.definition.filePath, explained.definition.kind) == ("src/Counter.zig", "class")
    method = shop.explain_code("Counter.bump").definition  # the file's functions are its methods
    assert method is not None and (method.filePath, method.startLine) == ("src/Counter.zig", 7)


def test_a_modules_name_finds_its_implementation_and_interface_before_the_renaming(shop):
    found = [c.metadata.filePath for c in shop.search_code("Tally", limit=5).chunks]
    assert set(found[:2]) == {"lib/tally.ml", "lib/tally.mli"}


def test_an_index_made_before_files_were_modules_parses_its_ocaml_zig_and_c_again(tmp_path):
    files = {
        "lib/tally.ml": TALLY_ML,
        "src/Counter.zig": COUNTER_ZIG,
        "src/ring.h": RING_H,
        "x.py": "y = 1\n",
    }
    report, _, _ = reindexed_from_before(FILE_MODULES, files, tmp_path)
    # Later migrations (NESTED_MEMBERS: every code file) may read more.
    assert {"lib/tally.ml", "src/Counter.zig", "src/ring.h"} <= set(report.changed_paths)
