"""A file whose name says nothing and that opens with `<?php` is PHP (issue 28's second PHP/C# held-out
set: HttpFoundation's test fixtures `common.inc` were text; Drupal keeps its code in `.module`, `.install`
and `.inc` files). Snippets of our own."""

from __future__ import annotations

from pramana.code.index.tables import PHP_OPEN_TAG_FILES
from pramana.code.languages import language_for
from pramana.code.service import CodeService
from tests.code.conftest import indexed_service, reindexed_from_before

CART = """<?php

function cart_total(array $lines): int
{
    return array_sum(array_column($lines, 'price'));
}

class CartStore
{
    public function save(array $lines): void
    {
    }
}
"""


def test_the_open_tag_makes_an_unnamed_file_php():
    assert language_for("modules/cart/cart.module", CART.encode()) == "php"
    assert language_for("Tests/Fixtures/common.inc", b"\xef\xbb\xbf<?php\n$x = 1;\n") == "php"
    assert language_for("Tests/Fixtures/common.inc", b"\n  <?php\n$x = 1;\n") == "php"
    # Other files named so stay as they were: NASM's includes, a note that mentions the tag, a `.txt`.
    assert language_for("boot/macros.inc", b"%macro print 1\n  mov si, %1\n%endmacro\n") == "text"
    assert language_for("NOTES", b"Open each template with <?php and close it.\n") == "text"
    assert language_for("docs/tags.txt", b"<?php echo 1;\n") == "text"


def test_functions_and_classes_of_an_inc_file_are_symbols(tmp_path):
    files = {"includes/cart.inc": CART, "src/Order.php": "<?php\nclass Order {}\n"}
    service = indexed_service(files, tmp_path)
    cart = service.store.file("includes/cart.inc")
    assert cart is not None and cart.language == "php"
    listed = [(s.name, s.kind) for s in service.list_functions("includes/cart.inc").symbols]
    assert listed == [("cart_total", "function"), ("CartStore", "class"), ("save", "method")]
    found = service.explain_code("CartStore.save").definition
    assert found is not None and (found.filePath, found.startLine) == ("includes/cart.inc", 10)


def test_an_index_made_before_reads_php_text_files_again(tmp_path):
    files = {"includes/cart.inc": CART, "notes/todo.inc": "; check the totals\n"}
    as_text = "UPDATE files SET language = 'text' WHERE path = 'includes/cart.inc'"
    report, reopened, root = reindexed_from_before(PHP_OPEN_TAG_FILES, files, tmp_path, as_text)
    assert "includes/cart.inc" in report.changed_paths and "notes/todo.inc" not in report.changed_paths
    cart = reopened.file("includes/cart.inc")
    assert cart is not None and cart.language == "php"
    assert CodeService(reopened, root).explain_code("cart_total").definition is not None
