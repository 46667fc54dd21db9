"""The tools' logic over the sample repository's index (keyword search: no embedder here)."""

import pytest

from pramana.code.service import CodeService
from pramana.errors import InvalidInputError, NotFoundError, NotReadyError


def names(found):
    """The names of the chunks found; small neighbouring methods share a chunk ("a, b, c")."""
    return [name for c in found.chunks for name in (c.metadata.name or "").split(", ") if name]


def test_search_code_finds_the_function_by_words(service):
    found = service.search_code("refund a payment", limit=3)
    assert found.mode == "keyword" and found.chunks[0].metadata.name == "refund_payment"
    first = found.chunks[0]
    assert first.id == f"{first.metadata.filePath}:{first.metadata.startLine}-{first.metadata.endLine}"
    assert first.metadata.package == "api" and first.metadata.language == "python"
    assert first.content.startswith("def refund_payment")
    assert found.totalFound >= len(found.chunks)


def test_identifiers_are_split_both_ways(service):
    assert "fetchOrders" in names(service.search_code("fetch orders"))
    assert "add_item" in names(service.search_code("addItem"))
    assert "NewServer" in names(service.search_code("new server"))


def test_search_code_leaves_docs_out_and_search_docs_keeps_only_them(service):
    assert all(c.metadata.language != "markdown" for c in service.search_code("refund money card", 10).chunks)
    docs = service.search_docs("refund money card")
    assert docs.chunks[0].metadata.filePath == "README.md" and docs.chunks[0].metadata.name == "Refunds"
    assert {c.metadata.language for c in docs.chunks} <= {"markdown", "text", "rst", "asciidoc"}


def test_filters_by_package_and_language(service):
    web = service.search_code("order", limit=10, package="web")
    assert web.chunks and {c.metadata.package for c in web.chunks} == {"web"}
    tsx = service.search_code("orders", limit=10, language="tsx")
    assert tsx.chunks and {c.metadata.language for c in tsx.chunks} == {"tsx"}
    with pytest.raises(InvalidInputError, match=r"unknown package 'mobile'.*api.*web"):
        service.search_code("order", package="mobile")
    with pytest.raises(InvalidInputError, match="unknown language"):
        service.search_code("order", language="cobol")


def test_keyword_only_is_said_once(sample_store, sample_repo):
    fresh = CodeService(sample_store, sample_repo)
    first = fresh.search_code("cart")
    assert "semantic search is off" in first.note and "embeddings" in first.note
    assert fresh.search_code("cart").note is None


@pytest.mark.parametrize(
    "query", ['"unbalanced', "NEAR(cart total)", "cart* OR -total", "a:b", "'; DROP TABLE chunks; --", "))))"]
)
def test_query_syntax_is_searched_as_text(service, query):
    service.search_code(query)  # no FTS5 syntax error, no injection
    assert service.store.counts()["chunks"] > 30


def test_bad_search_input(service):
    with pytest.raises(InvalidInputError, match="query is empty"):
        service.search_code("   ")
    with pytest.raises(InvalidInputError, match="limit"):
        service.search_code("cart", limit=0)
    with pytest.raises(InvalidInputError, match="limit"):
        service.search_code("cart", limit=51)
    with pytest.raises(InvalidInputError, match="characters"):
        service.search_code("cart " * 1000)
    assert service.search_code("zzzqqq nothingmatches").chunks == []


def test_get_file_reads_indexed_files(service):
    found = service.get_file("packages/api/shop/cart.py")
    assert found.content.startswith('"""Shopping carts."""') and found.language == "python"
    assert found.lines == found.content.count("\n") and found.lastModified.endswith("+00:00")
    assert service.get_file("./packages/api/shop/cart.py").path == "packages/api/shop/cart.py"


@pytest.mark.parametrize(
    ("path", "error", "message"),
    [
        ("../repo-outside.py", InvalidInputError, "leaves the repository"),
        ("/etc/passwd", InvalidInputError, "absolute"),
        ("escape.py", InvalidInputError, "outside the repository"),
        ("secrets.env", NotFoundError, "ignored by .gitignore"),
        ("logo.png", NotFoundError, "not in the index"),
        ("packages/api/shop/carts.py", NotFoundError, "did you mean packages/api/shop/cart.py"),
    ],
)
def test_get_file_refuses_what_it_must_not_serve(service, path, error, message):
    with pytest.raises(error, match=message):
        service.get_file(path)


def test_chunk_context_expands_around_the_chunk(service):
    chunk = next(
        c for c in service.search_code("apply discount").chunks if c.metadata.name == "apply_discount"
    )
    context = service.get_chunk_context(chunk.id, expand_lines=3)
    assert context.startLine == chunk.metadata.startLine - 3
    assert context.endLine == chunk.metadata.endLine  # the file ends there
    assert "return amount * (100 - percent) / 100" in context.content
    assert not context.changedSinceIndexed
    assert service.get_chunk_context(chunk.id, expand_lines=0).content == chunk.content
    with pytest.raises(NotFoundError, match="no chunk"):
        service.get_chunk_context("packages/api/shop/cart.py:1-999")
    with pytest.raises(InvalidInputError, match="expandLines"):
        service.get_chunk_context(chunk.id, expand_lines=501)


def test_chunk_context_says_when_the_file_changed(fresh_repo, tmp_path):
    from pramana.code.index.indexer import Indexer
    from pramana.code.store import CodeStore

    store = CodeStore(tmp_path / "code.db")
    Indexer(fresh_repo, store).run()
    service = CodeService(store, fresh_repo)
    chunk = service.search_code("vat tax").chunks[0]
    (fresh_repo / chunk.metadata.filePath).write_text(
        "// rewritten\n" + service.get_file(chunk.metadata.filePath).content
    )
    assert service.get_chunk_context(chunk.id).changedSinceIndexed


def test_find_similar_excludes_the_given_file(service):
    snippet = "def total(self):\n    return sum(price * quantity for _, price, quantity in self.items)"
    found = service.find_similar(snippet, limit=3)
    assert "total" in names(found)[:3] and found.chunks[0].metadata.filePath == "packages/api/shop/cart.py"
    others = service.find_similar(snippet, limit=3, exclude_file="packages/api/shop/cart.py")
    assert all(c.metadata.filePath != "packages/api/shop/cart.py" for c in others.chunks)
    with pytest.raises(InvalidInputError, match="no identifiers"):
        service.find_similar("+-*/ ()")


def test_list_functions_of_a_file_a_folder_and_everything(service):
    cart = service.list_functions("packages/api/shop/cart.py")
    assert [(s.kind, s.name) for s in cart.symbols] == [
        ("class", "Cart"),
        ("method", "__init__"),
        ("method", "add_item"),
        ("method", "total"),
        ("function", "apply_discount"),
    ]
    folder = service.list_functions("packages/web/")
    assert {s.filePath for s in folder.symbols} == {
        "packages/web/src/api.ts",
        "packages/web/src/App.tsx",
        "packages/web/src/util.js",
    }
    everything = service.list_functions(".")
    assert everything.totalFound == len(everything.symbols) >= 25
    with pytest.raises(NotFoundError, match="neither an indexed file nor a folder"):
        service.list_functions("packages/mobile")
    with pytest.raises(NotFoundError):
        service.list_functions("packages/a%")  # LIKE wildcards are matched literally


def test_find_usages_is_exact(service):
    found = service.find_usages("apply_discount")
    assert [(d.filePath, d.startLine) for d in found.definitions] == [("packages/api/shop/cart.py", 23)]
    where = {(u.filePath, u.kind, u.inSymbol) for u in found.usages}
    assert ("packages/api/shop/payments.py", "call", "charge_card") in where
    assert ("packages/api/shop/payments.py", "import", None) in where
    assert found.totalFound == len(found.usages) == 2
    call = next(u for u in found.usages if u.kind == "call")
    assert call.text == "amount = apply_discount(cart.total(), discount)"
    assert service.find_usages("Cart.total").name == "total"  # qualified names look up the member
    assert service.find_usages("apply").usages == []  # no partial matches
    with pytest.raises(InvalidInputError, match="not an identifier"):
        service.find_usages("drop table;")


def test_search_by_type(service):
    classes = service.search_by_type("class")
    assert {s.name for s in classes.symbols} == {"Cart", "OrderClient", "Server", "Price"}
    interfaces = service.search_by_type("interface")
    assert {s.name for s in interfaces.symbols} == {"Order", "Stock", "Priced"}
    assert {s.name for s in service.search_by_type("type").symbols} == {"OrderId"}
    functions = service.search_by_type("function", package="web", limit=100)
    assert {s.name for s in functions.symbols} == {
        "fetchOrders",
        "constructor",
        "send",
        "App",
        "slugify",
        "debounce",
    }
    exports = service.search_by_type("export", package="web")
    assert {s.name for s in exports.symbols} == {"Order", "OrderId", "fetchOrders", "OrderClient", "App"}
    limited = service.search_by_type("function", limit=2)
    assert len(limited.symbols) == 2 and limited.totalFound > 2
    with pytest.raises(InvalidInputError, match="type must be one of"):
        service.search_by_type("module")


def test_explain_code_gathers_definition_calls_imports_and_usages(service):
    found = service.explain_code("charge_card")
    assert (
        found.definition.name == "charge_card"
        and found.definition.filePath == "packages/api/shop/payments.py"
    )
    assert found.code.content.startswith("def charge_card")
    calls = {c.name: c.definedIn for c in found.calls}
    assert calls["apply_discount"] == ["packages/api/shop/cart.py:23"]
    assert calls["info"] == []  # log.info: not defined here
    assert {i.module for i in found.imports} == {"logging", ".cart"}
    method = service.explain_code("Server.Start")
    assert method.definition.parent == "Server" and method.definition.language == "go"
    concept = service.explain_code("value added tax on a price")
    assert concept.definition is not None and concept.related
    nothing = service.explain_code("zzzqqq")
    assert nothing.definition is None and nothing.related == []


def test_empty_index_says_how_to_fill_it(tmp_path, sample_repo):
    from pramana.code.store import CodeStore

    service = CodeService(CodeStore(tmp_path / "empty.db"), sample_repo)
    with pytest.raises(NotReadyError, match="pramana code index"):
        service.search_code("cart")
