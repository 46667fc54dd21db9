"""Unnamed chunks that are only comments (a license, a file's design essay, code commented out)
weigh less than code (rank.COMMENT_WEIGHT); doc comments of definitions and documentation files do not."""

from __future__ import annotations

from pramana.code.parse.syntax import comment_only
from pramana.code.search import rank
from tests.code.conftest import indexed_service

_ESSAY = "\n".join(
    f"   Promises are resolved once; resolving wakes every callback waiting on it, paragraph {i}."
    for i in range(30)
)
_RESOLVE = """let wake_all p v =
  p.state <- Resolved v;
  List.iter (fun f -> f v) p.waiting

let create () = { state = Pending; waiting = [] }
"""

COMMENT_REPO = {
    # The essay talks about resolving promises at length; the code that does it lives elsewhere.
    "src/core/promise.ml": f"(* Design notes.\n\n{_ESSAY}\n\n"
    "   Cancellation is discussed in cancel.ml. *)\n\ntype 'a state = Pending | Resolved of 'a\n",
    "src/core/wakeup.ml": "(** Resolve a promise: wake the callbacks waiting on it. *)\n" + _RESOLVE,
    "docs/promises.md": "# Promises\n\nResolving a promise wakes every callback waiting on it.\n",
    "src/util/queue.py": "# Copyright 2024 Example Authors. Licensed under the MIT license.\n"
    "# Redistribution allowed: see LICENSE.\n\n\n"
    'def push(queue, item):\n    """Add an item to the queue."""\n    queue.append(item)\n',
}


def test_comment_only_by_the_grammar():
    essay = COMMENT_REPO["src/core/promise.ml"]
    assert comment_only("ocaml", essay.partition("\n\ntype")[0])
    assert not comment_only("ocaml", essay)  # the type after it is code
    assert comment_only("python", COMMENT_REPO["src/util/queue.py"].partition("\n\n\n")[0])
    assert not comment_only("python", "import os  # the system\n")  # a comment beside code
    assert not comment_only("python", 'x = "# not a comment"\n')
    assert not comment_only("ocaml", "   and so the promise resolves.\n   More prose. *)\n")  # mid-comment
    assert not comment_only("markdown", COMMENT_REPO["docs/promises.md"])
    assert not comment_only("ocaml", "\n\n")


def test_doc_comments_are_no_prose_beside_the_code():
    # A doc comment documents a definition or the file's module (OCaml's `(** *)` opening an
    # interface, Zig's and Rust's `//!`): it answers questions about that code. Banners are plain.
    assert not comment_only("ocaml", "(** Association tables over ordered types. *)\n(* A note. *)\n")
    assert comment_only("ocaml", "(* A note. *)\n(*** banner ***)\n")
    assert not comment_only("zig", "//! A JSON scanner.\n// plain\n")
    assert comment_only("zig", "// plain\n// more\n")
    assert not comment_only("rust", "/// Item docs.\n")
    assert comment_only("rust", "// plain\n/* block */\n//// banner\n")
    assert comment_only("java", "/*\n * License.\n */\n")
    assert not comment_only("java", "/** The class. */\n")
    assert not comment_only("haskell", "-- | The module.\n")
    assert comment_only("haskell", "-- plain\n{- block -}\n")


def test_comment_only_chunks_are_told_apart(tmp_path):
    service = indexed_service(COMMENT_REPO, tmp_path)
    rows = service.store._conn.execute(
        "SELECT c.id, c.name FROM chunks c JOIN files f ON f.id = c.file_id"
    ).fetchall()
    ids = [chunk_id for chunk_id, _ in rows]
    found = service.comment_chunks(ids)
    assert found, "the essay's chunks are comment-only"
    # The essay and the license header; not the docs, not wakeup.ml's documented function.
    assert {chunk_id.rpartition(":")[0] for chunk_id in found} == {"src/core/promise.ml", "src/util/queue.py"}
    named = {chunk_id for chunk_id, name in rows if name is not None}
    assert not found & named  # a definition's chunk, its doc comment included, is code
    essay = service.store.chunks_by_id(sorted(found))
    assert all("type 'a state" not in chunk.content for chunk in essay.values())


def test_an_essay_gives_way_to_the_code_it_describes(tmp_path, monkeypatch):
    service = indexed_service(COMMENT_REPO, tmp_path)
    query = "resolve a promise and wake the waiting callbacks"
    top = [c.metadata.filePath for c in service.search_code(query, limit=3).chunks]
    assert top[0] == "src/core/wakeup.ml"
    monkeypatch.setattr(rank, "COMMENT_WEIGHT", 1.0)  # without the rule, the essay's words win
    top = [c.metadata.filePath for c in service.search_code(query, limit=3).chunks]
    assert top[0] == "src/core/promise.ml"


def test_words_only_the_essay_holds_still_find_it(tmp_path):
    service = indexed_service(COMMENT_REPO, tmp_path)
    top = service.search_code("design notes cancellation discussed", limit=1).chunks
    assert top[0].metadata.filePath == "src/core/promise.ml"
