"""Java's enum constants with bodies, anonymous classes in field initializers, records' compact
constructors and annotation types' elements; Go interfaces' methods; Rust's `impl path::Type` and
`extern "C"` blocks: what the structural tools know of them."""

from __future__ import annotations

import pytest

from pramana.code.index.tables import JAVA_GO_RUST_SHAPES
from pramana.code.parse import parse_file
from pramana.code.service import CodeService
from tests.code.conftest import indexed_service, reindexed_from_before, symbol_rows

STATES = """\
package shop.parse;

enum LexState {
    Text {
        @Override
        void step(Lexer lexer) {
            lexer.emit();
        }
    },
    Tag {
        void step(Lexer lexer) { lexer.skip(); }
    },
    Done;

    void step(Lexer lexer) {}
}
"""

SHAPES = """\
package shop.model;

public record Range(int low, int high) {
    public Range {
        if (low > high) throw new IllegalArgumentException("low > high");
    }

    static Range empty() { return new Range(0, 0); }
}

@interface Audited {
    String by() default "";
}

class Catalog {
    private static final Comparator<Item> BY_PRICE = new Comparator<Item>() {
        @Override
        public int compare(Item a, Item b) {
            return Integer.compare(a.price, b.price);
        }
    };

    private final Item first = new Item(1);

    Item cheapest() {
        return items.stream().min(BY_PRICE).orElse(first);
    }
}
"""

STORE = """\
package stock

// Store keeps the goods.
type Store interface {
	io.Closer
	// Count says how many of one item are left.
	Count(item string) (int, error)
	Reserve(item string, n int) error
}
"""

LIB = """\
pub mod bounded {
    pub struct Semaphore { permits: usize }
}

pub trait Acquire {
    fn acquire(&self) -> bool;
}

impl Acquire for bounded::Semaphore {
    fn acquire(&self) -> bool {
        self.permits > 0
    }
}

impl crate::bounded::Semaphore {
    pub fn permits(&self) -> usize {
        self.permits
    }
}

extern "C" {
    fn sodium_init() -> i32;
}
"""


def test_java_enum_constants_with_bodies_hold_their_own_methods():
    assert symbol_rows("src/main/java/shop/parse/LexState.java", "java", STATES) == {
        ("type", None, "LexState", 3, 16),
        ("method", "Text", "step", 5, 8),  # with its annotation
        ("method", "Tag", "step", 11, 11),
        ("method", "LexState", "step", 15, 15),
    }


def test_java_records_annotation_elements_and_anonymous_classes_in_fields():
    found = symbol_rows("src/main/java/shop/model/Range.java", "java", SHAPES)
    assert found == {
        ("class", None, "Range", 3, 9),
        ("method", "Range", "Range", 4, 6),  # the compact constructor
        ("method", "Range", "empty", 8, 8),
        ("interface", None, "Audited", 11, 13),
        ("method", "Audited", "by", 12, 12),
        ("class", None, "Catalog", 15, 28),
        ("method", "Catalog", "compare", 17, 20),  # the anonymous Comparator's, in the field
        ("method", "Catalog", "cheapest", 25, 27),
    }
    parsed = parse_file("src/main/java/shop/model/Range.java", "java", "root", SHAPES)
    # The anonymous class's method stays in the chunk of the field that holds it.
    assert not [c for c in parsed.chunks if c.name == "compare"]
    field = next(c for c in parsed.chunks if c.start_line <= 17 <= c.end_line)
    assert "BY_PRICE" in field.content and "Integer.compare" in field.content


def test_go_interface_methods_aresymbol_rows():
    assert symbol_rows("stock/store.go", "go", STORE) == {
        ("interface", None, "Store", 4, 9),
        ("method", "Store", "Count", 7, 7),
        ("method", "Store", "Reserve", 8, 8),
    }
    parsed = parse_file("stock/store.go", "go", "root", STORE)
    count = next(s for s in parsed.symbols if s.name == "Count")
    assert count.doc == "Count says how many of one item are left."  # a member of the interface's chunk
    # Declared, without chunks of their own: the interface's one chunk holds them.
    assert [(c.name, c.start_line, c.end_line) for c in parsed.chunks if c.name] == [("Store", 3, 9)]


def test_rust_impl_of_a_path_type_and_extern_blocks():
    assert symbol_rows("src/sync.rs", "rust", LIB) == {
        ("class", None, "Semaphore", 2, 2),
        ("interface", None, "Acquire", 5, 7),
        ("method", "Acquire", "acquire", 6, 6),
        ("method", "Semaphore", "acquire", 10, 12),
        ("method", "Semaphore", "permits", 16, 18),
        ("function", None, "sodium_init", 22, 22),
    }


@pytest.fixture(scope="module")
def service(tmp_path_factory) -> CodeService:
    files = {
        "src/main/java/shop/parse/LexState.java": STATES,
        "src/main/java/shop/model/Range.java": SHAPES,
        "stock/store.go": STORE,
        "src/sync.rs": LIB,
    }
    return indexed_service(files, tmp_path_factory.mktemp("repo"))


def test_structural_tools_find_the_new_shapes(service):
    steps = service.find_usages("step").definitions
    assert sorted((d.parent, d.startLine) for d in steps) == [("LexState", 15), ("Tag", 11), ("Text", 5)]
    compare = service.explain_code("Catalog.compare")
    assert compare.definition is not None
    assert (compare.definition.filePath, compare.definition.startLine, compare.definition.endLine) == (
        "src/main/java/shop/model/Range.java", 17, 20,
    )  # fmt: skip
    count = service.explain_code("Store.Count")
    assert count.definition is not None
    assert (count.definition.filePath, count.definition.startLine) == ("stock/store.go", 7)
    assert count.definition.doc == "Count says how many of one item are left."
    permits = service.find_usages("permits").definitions
    assert [(d.filePath, d.parent, d.startLine) for d in permits] == [("src/sync.rs", "Semaphore", 16)]
    assert [s.name for s in service.list_functions("src/main/java/shop/model/Range.java").symbols] == [
        "Range", "Range", "empty", "Audited", "by", "Catalog", "compare", "cheapest",
    ]  # fmt: skip


def test_an_index_made_before_reads_its_java_go_and_rust_again(tmp_path):
    files = {
        "src/main/java/shop/parse/LexState.java": STATES,
        "stock/store.go": STORE,
        "src/sync.rs": LIB,
        "tools/gen.py": "def gen():\n    pass\n",
    }
    report, reopened, _ = reindexed_from_before(JAVA_GO_RUST_SHAPES, files, tmp_path)
    assert {"src/main/java/shop/parse/LexState.java", "stock/store.go", "src/sync.rs"} <= set(
        report.changed_paths
    )
    assert "tools/gen.py" not in report.changed_paths
    service = CodeService(reopened, tmp_path / "repo")
    assert service.explain_code("Store.Count").definition is not None
