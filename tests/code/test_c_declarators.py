"""C and C++ declarators read to the name inside them, and no function where there is none (issue 28's C
held-out set: libevent, jansson). Typedef names are main's `_declarator_name`; these tests check them
on libevent's shapes too.

Snippets of our own, written in the shapes those libraries use: callback types are function-pointer
typedefs (`typedef void (*event_cb)(int, short, void *);`), and opaque structs are declared with an
empty body that only the documentation generator sees (`struct evbuffer #ifdef DOC {} #endif ;`).
"""

from __future__ import annotations

from pramana.code.index.tables import C_OPAQUE_STRUCTS
from pramana.code.service import CodeService
from tests.code.conftest import indexed_service, reindexed_from_before, symbol_rows

CART_H = """#ifndef CART_H
#define CART_H

/** An open cart. */
struct cart
#ifdef CART_IN_DOXYGEN_
{/* empty: the real one is private */}
#endif
;

/** Called for each line of a cart; non-zero stops the walk. */
typedef int (*cart_visit_cb)(const struct cart *cart, int line, void *arg);
typedef void *(*cart_malloc_fn)(unsigned long size);
typedef char cart_label[32];
typedef struct cart_line *cart_line_ptr;

struct cart *cart_new(void);
int cart_walk(struct cart *cart, cart_visit_cb visit, void *arg);

#endif
"""

CART_C = """#include "cart.h"

int
cart_walk(struct cart *cart, cart_visit_cb visit, void *arg)
{
    int line;
    for (line = 0; line < 3; line++)
        if (visit(cart, line, arg))
            return 1;
    return 0;
}
"""

SIGNALS_HPP = """class Dispatcher {
  public:
    typedef void (Dispatcher::*Handler)(int signal);
    typedef void (*Hook)(int signal);
    void dispatch(int signal);
};
"""


def test_a_typedef_is_named_by_the_name_inside_its_declarator():
    rows = {(kind, parent, name) for kind, parent, name, _, _ in symbol_rows("cart.h", "c", CART_H)}
    assert {
        ("type", None, "cart_visit_cb"),
        ("type", None, "cart_malloc_fn"),
        ("type", None, "cart_label"),
    } <= rows
    assert ("type", None, "cart_line_ptr") in rows  # a pointer to `struct cart_line`, defined elsewhere
    assert not any("(" in name or "*" in name or "[" in name for _, _, name in rows)


def test_an_opaque_struct_broken_by_an_ifdef_is_no_function():
    rows = symbol_rows("cart.h", "c", CART_H)
    names = {name for _, _, name, _, _ in rows}
    assert "CART_IN_DOXYGEN_" not in names
    assert {"cart_new", "cart_walk"} <= names  # the prototypes after it are read as before


def test_cpp_member_and_plain_function_pointer_typedefs():
    rows = {
        (kind, parent, name) for kind, parent, name, _, _ in symbol_rows("signals.hpp", "cpp", SIGNALS_HPP)
    }
    assert ("type", "Dispatcher", "Handler") in rows and ("type", "Dispatcher", "Hook") in rows
    assert ("method", "Dispatcher", "dispatch") in rows


def test_find_the_callback_type_by_its_name(tmp_path):
    service = indexed_service({"include/cart.h": CART_H, "src/cart.c": CART_C}, tmp_path)
    found = service.explain_code("cart_visit_cb").definition
    assert found is not None and (found.filePath, found.startLine) == ("include/cart.h", 12)
    listed = [s.name for s in service.list_functions("include/cart.h").symbols]
    assert "cart_visit_cb" in listed and "CART_IN_DOXYGEN_" not in listed


def test_an_index_made_before_reads_c_and_cpp_again(tmp_path):
    files = {"include/cart.h": CART_H, "src/cart.c": CART_C, "tools/gen.py": "def gen():\n    pass\n"}
    report, reopened, root = reindexed_from_before(C_OPAQUE_STRUCTS, files, tmp_path)
    assert {"include/cart.h", "src/cart.c"} <= set(report.changed_paths)
    assert "tools/gen.py" not in report.changed_paths
    assert CodeService(reopened, root).explain_code("cart_malloc_fn").definition is not None
