"""The ranking layer: query shapes, definitions, path priors, file names, diversity; and BM25 itself."""

from __future__ import annotations

import math
import shutil

import numpy as np
import pytest

from pramana.code.index.indexer import Indexer
from pramana.code.search import rank
from pramana.code.search.lexical import K1, B
from pramana.code.search.paths import is_secondary, path_kinds, path_prior, wanted_kinds
from pramana.code.search.terms import chunk_bag, path_words
from pramana.code.service import CodeService
from pramana.code.store import LEXICON, CodeStore, Filters
from pramana.text.stem import stem

RANKING_REPO = {
    "src/config.py": '''
def parseConfig(text):
    """Read settings from the text of a file."""
    return dict(line.split("=") for line in text.splitlines())


def render_html_table(rows):
    return "<table>" + "".join(rows) + "</table>"
''',
    "src/router.py": '''
class Router:
    """Send each request to the handler registered for its path."""

    def handle(self, request):
        return self.routes[request.path](request)


class Dispatcher:
    def handle(self, event):
        return event
''',
    "src/args.py": """
def no_args(command, args):
    if args:
        raise ValueError("unknown command arguments")


def exact_args(count):
    def check(command, args):
        return len(args) == count
    return check
""",
    "src/interpreter.py": '''
def run_python_code(source):
    """Execute python source code in a fresh namespace."""
    exec(source, {})
''',
    # Tests mention the router far more often than the router itself does.
    "tests/test_router.py": """
from src.router import Router

def test_router_routes_request_to_handler():
    router = Router()
    router.routes = {"/": lambda request: "request handled by the router"}
    assert router.handle(Request("/")) == "request handled by the router"
    assert router.handle(Request("/")) == "request handled by the router"
""",
    "examples/router_demo.py": """
from src.router import Router

router = Router()  # send a request to the router handler: a request router demo
""",
}


@pytest.fixture(scope="module")
def ranking(tmp_path_factory) -> CodeService:
    root = tmp_path_factory.mktemp("ranking-repo")
    for path, text in RANKING_REPO.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text.lstrip())
    store = CodeStore(tmp_path_factory.mktemp("ranking-db") / "index.db")
    Indexer(root, store).run()
    return CodeService(store, root)


def top_paths(service: CodeService, query: str, limit: int = 5) -> list[str]:
    return [c.metadata.filePath for c in service.search_code(query, limit=limit).chunks]


# --- reading the query ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "symbol_query", "symbols", "owner"),
    [
        ("HTTPAdapter", True, ("HTTPAdapter",), None),
        ("parse_config", True, ("parse_config",), None),
        ("Router.handle", True, ("handle",), "Router"),
        ("serde::Serialize", True, ("Serialize",), "serde"),
        ("session", False, (), None),
        ("how MapAccess and SeqAccess read collections", False, ("MapAccess", "SeqAccess"), None),
        ("where is safeParse defined", False, ("safeParse",), None),
        ("How does the router work", False, (), None),
    ],
)
def test_plan_reads_the_shape_of_a_query(query, symbol_query, symbols, owner):
    plan = rank.plan(query)
    assert plan.symbol_query is symbol_query
    assert plan.symbols == symbols
    assert plan.owner == owner


def test_plan_joins_neighbouring_words_so_a_phrase_finds_its_identifier():
    plan = rank.plan("parse config file")
    assert {"parseconfig", "configfile", "parseconfigfile"} <= plan.phrases
    assert rank.names_phrase(plan, "parse_config") and rank.names_phrase(plan, "parseConfig")
    assert not rank.names_phrase(plan, "parser")


def test_a_language_name_is_searched_only_when_it_is_all_there_is():
    assert "python" not in rank.plan("python read a file line by line").words
    assert rank.plan("python").words == ("python",)


def test_plan_notices_a_query_that_asks_for_tests_or_examples():
    assert rank.plan("tests for the router").wanted == wanted_kinds({"tests"})
    assert "test" in rank.plan("tests for the router").wanted
    assert rank.plan("how the router dispatches").wanted == frozenset()


# --- ranking --------------------------------------------------------------------------------------


def test_a_phrase_finds_the_camel_case_function(ranking):
    assert top_paths(ranking, "parse config")[0] == "src/config.py"
    assert ranking.search_code("parse config", limit=1).chunks[0].metadata.name == "parseConfig"


def test_production_code_ranks_above_tests_and_examples_that_repeat_the_words(ranking):
    paths = top_paths(ranking, "router handles a request", limit=3)
    assert paths[0] == "src/router.py"
    assert paths.index("tests/test_router.py") > 0


def test_asking_for_tests_lifts_the_demotion(ranking):
    assert top_paths(ranking, "router request tests", limit=1) == ["tests/test_router.py"]


def test_a_bare_symbol_ranks_its_definition_first(ranking):
    found = ranking.search_code("Router", limit=3).chunks
    assert (found[0].metadata.filePath, found[0].metadata.name) == ("src/router.py", "Router")


def test_a_qualified_method_ranks_its_own_class_first(ranking):
    first = ranking.search_code("Dispatcher.handle", limit=3).chunks[0]
    assert first.metadata.name == "handle" and "def handle(self, event)" in first.content
    first = ranking.search_code("Router.handle", limit=3).chunks[0]
    assert first.metadata.name == "handle" and "def handle(self, request)" in first.content


def test_a_file_named_after_the_topic_ranks_first(ranking):
    assert top_paths(ranking, "command args validation", limit=1) == ["src/args.py"]


def test_domain_words_like_python_are_searchable(ranking):
    assert top_paths(ranking, "python", limit=1) == ["src/interpreter.py"]


def test_results_spread_over_files_before_repeating_one():
    candidates = {
        "a:1": rank.Candidate("a.py", None, None, lexical=10.0),
        "a:2": rank.Candidate("a.py", None, None, lexical=9.5),
        "a:3": rank.Candidate("a.py", None, None, lexical=9.0),
        "b:1": rank.Candidate("b.py", None, None, lexical=6.0),
    }
    ranked = [chunk_id for chunk_id, _ in rank.rank(rank.plan("x y"), candidates, limit=3)]
    assert ranked[:2] == ["a:1", "b:1"]


def test_definition_strength_prefers_the_named_owner_and_a_matching_file_name():
    plan = rank.plan("Router.handle")
    own = rank.definition_strength(plan, "handle", "Router", "src/web.py")
    other = rank.definition_strength(plan, "handle", "Dispatcher", "src/web.py")
    assert own > other
    bare = rank.plan("Router")
    assert rank.definition_strength(bare, "Router", None, "src/router.py") > rank.definition_strength(
        bare, "Router", None, "src/web.py"
    )


# --- paths ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "kinds"),
    [
        ("aiohttp/web.py", set()),
        ("tests/test_web.py", {"test"}),
        ("pkg/web_test.go", {"test"}),
        ("src/app.spec.ts", {"test"}),
        ("src/__tests__/app.ts", {"test"}),
        ("test_suite/tests/test_de.rs", {"test"}),
        ("docs_src/tutorial/main.py", {"example"}),
        ("examples/hello.go", {"example"}),
        ("benches/parse.rs", {"benchmark"}),
        ("src/compat/py2.py", {"compat"}),
        ("types/index.d.ts", {"declaration"}),
        ("serde/Cargo.toml", {"config"}),
        (".github/workflows/ci.yml", {"config"}),
        ("pkg/__init__.py", {"reexport"}),
        ("contest/latest.py", set()),
    ],
)
def test_path_kinds(path, kinds):
    assert path_kinds(path) == kinds


def test_path_prior_spares_what_the_query_asks_for():
    assert path_prior("src/web.py") == 1.0
    assert path_prior("tests/test_web.py") < 0.5
    assert path_prior("tests/test_web.py", frozenset({"test"})) == 1.0
    assert is_secondary("tests/test_web.py") and not is_secondary("pkg/__init__.py")


# --- BM25 -----------------------------------------------------------------------------------------


def test_stemming_folds_word_forms_as_the_porter_stemmer_does():
    assert stem("parses") == stem("parsing") == stem("parse")
    assert stem("handlers") == stem("handler")


def test_bm25_scores_match_the_formula(ranking):
    store = ranking.store
    index = store.lexical_index()
    words = ["router", "request"]
    scores = index.scores(words)
    texts = {
        r[0]: chunk_bag(r[1], r[2], path_words(r[3]), r[4])
        for r in store._conn.execute(
            "SELECT c.rowid, c.parent, c.name, f.path, c.content"
            " FROM chunks c JOIN files f ON f.id = c.file_id"
        )
    }
    lengths = {rowid: sum(counts.values()) for rowid, counts in texts.items()}
    mean = sum(lengths.values()) / len(lengths)
    for position, rowid in enumerate(index.rowids.tolist()):
        expected = 0.0
        for word in words:
            term = stem(word)
            df = sum(1 for counts in texts.values() if term in counts)
            tf = texts[rowid].get(term, 0.0)
            if tf:
                idf = math.log(1 + (len(texts) - df + 0.5) / (df + 0.5))
                expected += idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * lengths[rowid] / mean))
        assert scores[position] == pytest.approx(expected, rel=1e-4)


def test_keyword_search_honours_filters(ranking):
    every = ranking.store.keyword_search(["router"], Filters(), 50)
    only_src = ranking.store.keyword_search(["router"], Filters(exclude_file="src/router.py"), 50)
    assert any(chunk_id.startswith("src/router.py") for chunk_id, _ in every)
    assert only_src and not any(chunk_id.startswith("src/router.py") for chunk_id, _ in only_src)


def test_the_in_memory_index_follows_edits(tmp_path):
    root = tmp_path / "repo"
    root.mkdir()
    (root / "a.py").write_text("def alpha():\n    return 'zebra'\n")
    store = CodeStore(tmp_path / "index.db")
    Indexer(root, store).run()
    assert [c for c, _ in store.keyword_search(["zebra"], Filters(), 5)] == ["a.py:1-2"]
    (root / "a.py").write_text("def alpha():\n    return 'giraffe'\n")
    Indexer(root, store).run()
    assert store.keyword_search(["zebra"], Filters(), 5) == []
    assert [c for c, _ in store.keyword_search(["giraffe"], Filters(), 5)] == ["a.py:1-2"]


def test_a_read_only_index_without_term_counts_still_searches(tmp_path):
    root = tmp_path / "repo"
    root.mkdir()
    (root / "a.py").write_text("def alpha():\n    return 'zebra'\n")
    store = CodeStore(tmp_path / "index.db")
    Indexer(root, store).run()
    store._conn.execute("DELETE FROM bags")  # as an index written before bags existed
    store._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    copy = tmp_path / "copy.db"
    shutil.copy(tmp_path / "index.db", copy)
    reader = CodeStore(copy, read_only=True)
    assert [c for c, _ in reader.keyword_search(["zebra"], Filters(), 5)] == ["a.py:1-2"]
    assert int(np.count_nonzero(reader.lexical_index().scores(["alpha"]))) == 1


def test_an_index_from_before_term_counts_loses_its_fts_table_and_still_searches(tmp_path):
    root = tmp_path / "repo"
    root.mkdir()
    (root / "a.py").write_text("def alpha():\n    return 'zebra'\n")
    store = CodeStore(tmp_path / "index.db")
    Indexer(root, store).run()
    # As an older pramana left it: no bags or lexicon, the chunks' terms in an FTS5 table instead.
    with store._conn:
        store._conn.execute("DROP TABLE bags")
        store._conn.execute("DROP TABLE lexicon")
        store._conn.execute("DROP TABLE snapshots")
        store._conn.execute("CREATE VIRTUAL TABLE chunk_terms USING fts5(name, path, body)")
        store._conn.execute("INSERT INTO chunk_terms VALUES ('alpha', 'a py', 'alpha return zebra')")
        store._conn.execute(f"PRAGMA user_version = {CodeStore.migrations.index(LEXICON)}")
    store.close()
    reopened = CodeStore(tmp_path / "index.db")
    tables = {row[0] for row in reopened._conn.execute("SELECT name FROM sqlite_master")}
    assert "chunk_terms" not in tables and {"bags", "lexicon"} <= tables
    assert [c for c, _ in reopened.keyword_search(["zebra"], Filters(), 5)] == ["a.py:1-2"]
    assert reopened._conn.execute("SELECT count(*) FROM bags").fetchone()[0] == 1  # counted once, kept


def test_an_embedder_says_how_far_a_sentence_leans_on_its_vectors():
    query = rank.plan("send the invoice by email")

    def order(sentence_weight: float | None) -> list[str]:
        candidates = {
            "words.py:1-9": rank.Candidate("words.py", None, None, lexical=10.0, dense=0.50),
            "meaning.py:1-9": rank.Candidate("meaning.py", None, None, lexical=2.0, dense=0.90),
            "neither.py:1-9": rank.Candidate("neither.py", None, None, lexical=1.0, dense=0.10),
        }
        return [c for c, _ in rank.rank(query, candidates, 3, sentence_weight=sentence_weight)]

    assert order(None)[0] == "words.py:1-9"  # equal weighting: 0.5 * 0.5 + 0.5 * 1 beats 0.5 * 1 + 0.5 * 0.2
    assert order(0.8)[0] == "meaning.py:1-9"  # a model trusted for sentences lifts the meaning match
    symbol = rank.plan("InvoiceMailer")
    assert rank.dense_weight(symbol, 0.8) == rank.DENSE_WEIGHT_SYMBOL  # identifiers still lean on words
