"""The ranking layer: query shapes, definitions, path priors, file names, diversity; and BM25 itself."""

from __future__ import annotations

import math
import shutil

import numpy as np
import pytest

from pramana.code.index.indexer import Indexer
from pramana.code.index.tables import HEADER_PROTOTYPES, LEXICON, REEXPORT_IMPORTS
from pramana.code.records import Forwarder
from pramana.code.search import gather, paths, rank
from pramana.code.search.lexical import K1, B
from pramana.code.search.paths import (
    headed_folders,
    is_secondary,
    older_version_folders,
    path_kinds,
    path_prior,
    version_prior,
    wanted_kinds,
)
from pramana.code.search.store import Filters
from pramana.code.search.terms import chunk_bag, path_words
from pramana.code.service import CodeService
from pramana.code.store import CodeStore
from pramana.text.stem import stem
from tests.code.conftest import indexed_service, reindexed_from_before

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
    files = {path: text.lstrip() for path, text in RANKING_REPO.items()}
    return indexed_service(files, tmp_path_factory.mktemp("ranking"))


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
        ("session", False, ("session",), None),  # a lone word: a sentence, its definitions a mention
        ("how MapAccess and SeqAccess read collections", False, ("MapAccess", "SeqAccess"), None),
        ("where is safeParse defined", False, ("safeParse",), None),
        ("How does the router work", False, (), None),
        # Words in capitals are the domain's abbreviations, not names (RE2 has a digit: a name).
        ("JSON request binding and validation", False, (), None),
        ("how RE2 picks between the DFA and NFA engines", False, ("RE2",), None),
        ("read characters from a file or URLs", False, (), None),
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
    assert "example" in rank.plan("the man page of the window manager").wanted


def path_match(keywords: frozenset[str], path: str) -> float:
    """How many query words name the path, as the ranking weighs them before rarity and cover."""
    return sum(rank._path_words(keywords, path).values())


def test_every_dotted_part_of_a_file_name_names_it():
    words = frozenset({"building", "escript", "executable"})
    assert rank._stem_parts("lib/mix/tasks/escript.build.ex") == {"escript", "build"}
    assert path_match(words, "lib/mix/tasks/escript.build.ex") == 2
    assert path_match(words, "lib/mix/tasks/escript.install.ex") == 1
    assert rank._stem_parts("src/runtime/PyObject.IConvertible.cs") == {"py", "object", "i", "convertible"}


def test_the_words_naming_a_part_are_those_that_name_it_one_by_one():
    # A prefix, a stem, an abbreviation either way, an irregular participle, a plural `s`, and misses:
    # the per-query shortcut (first letters, abbreviations) must find every pair `_names_part` finds.
    keywords = frozenset({"context", "configuration", "built", "parsing", "ctx", "utils", "s", "errors", "x"})
    parts = ["ctx", "cfg", "context", "contexts", "build", "builder", "parse", "parser", "util", "helper",
             "s", "err", "errs", "error", "x", "xml", "config", "utility", "a", "zeta"]  # fmt: skip
    naming = rank._Naming(keywords)
    for part in parts:
        assert naming.of_part(part) == {k for k in keywords if rank._names_part(k, part)}, part
    assert naming.of_part("cfg") == {"configuration"}
    assert naming.of_part("builder") == {"built"}


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


def test_a_file_defining_the_name_in_several_chunks_is_boosted_once():
    # A long class cut into two chunks, both its definition: the file defines `Ledger` once, and its
    # second piece ranks by its own words, after the file that uses it (which says the name more).
    candidates = {
        "src/ledger.py:1-40": rank.Candidate("src/ledger.py", "Ledger", None, lexical=6.0, definition=1.5),
        "src/ledger.py:41-90": rank.Candidate("src/ledger.py", "Ledger", None, lexical=5.0, definition=1.5),
        "src/books.py:1-30": rank.Candidate("src/books.py", "open_books", None, lexical=8.0),
    }
    ranked = [chunk_id for chunk_id, _ in rank.rank(rank.plan("Ledger"), candidates, limit=3)]
    assert ranked == ["src/ledger.py:1-40", "src/books.py:1-30", "src/ledger.py:41-90"]


def test_a_file_whose_chunks_a_phrase_names_is_boosted_once():
    # No chunk defines what the query names, but its words name two chunks of one file word by word
    # (`settings stored`: `settings_store`, `SettingsStore`): the file is boosted once, by the better
    # of them; the other ranks by its own words, after the file that answers too.
    candidates = {
        "settings/store.py:28-30": rank.Candidate("settings/store.py", "settings_store", None, lexical=10.0),
        "settings/store.py:6-8": rank.Candidate("settings/store.py", "SettingsStore", None, lexical=8.0),
        "settings/defaults.py:1-8": rank.Candidate(
            "settings/defaults.py", "default_settings", None, lexical=2.4
        ),
    }
    query = rank.plan("where are the settings stored on disk")
    assert [rank.names_phrase(query, c.name) for c in candidates.values()] == [rank.LOOSE, rank.LOOSE, None]
    ranked = [chunk_id for chunk_id, _ in rank.rank(query, candidates, limit=3)]
    assert ranked == ["settings/store.py:28-30", "settings/defaults.py:1-8", "settings/store.py:6-8"]


def test_a_stronger_definition_in_the_same_file_keeps_its_own_boost():
    # The file's strongest definition carries the boost; a chunk defining more strongly is that one.
    carriers = rank._definition_carriers(
        [
            rank.Candidate("a.py", "Part", None, lexical=9.0, definition=0.5),
            strong := rank.Candidate("a.py", "Whole", None, lexical=1.0, definition=1.5),
            rank.Candidate("a.py", None, None, lexical=20.0),
        ]
    )
    assert carriers == {"a.py": strong}


def test_a_second_chunk_of_a_file_comes_after_another_file_that_answers():
    # 9.0 is 0.9 of the first file's best; b.py's 4.0 is above 0.4 of it: another file is worth more
    # to the reader than a second look into the first one.
    candidates = {
        "a:1": rank.Candidate("a.py", None, None, lexical=10.0),
        "a:2": rank.Candidate("a.py", None, None, lexical=9.0),
        "b:1": rank.Candidate("b.py", None, None, lexical=4.0),
    }
    ranked = [chunk_id for chunk_id, _ in rank.rank(rank.plan("x y"), candidates, limit=3)]
    assert ranked == ["a:1", "b:1", "a:2"]


ACRONYM_REPO = {
    "render/json.go": """package render

// JSON contains the given interface object.
type JSON struct {
	Data any
}

// Render writes data with a custom content type.
func (r JSON) Render(w Writer) error {
	return WriteJSON(w, r.Data)
}
""",
    "errors.go": """package gin

// JSON creates a properly formatted JSON of an error.
func (msg *Error) JSON() any {
	return msg.Meta
}
""",
    "binding/json.go": """package binding

// decodeJSON reads the request body, binds it into obj and runs its validation.
func decodeJSON(request *Request, obj any) error {
	decoder := NewDecoder(request.Body)
	if err := decoder.Decode(obj); err != nil {
		return err
	}
	return validate(obj)
}
""",
}


def test_a_word_in_capitals_in_a_sentence_does_not_ask_for_the_definitions_so_named(tmp_path):
    service = indexed_service(ACRONYM_REPO, tmp_path)
    # `JSON` is defined twice, but the sentence asks how requests are bound and validated.
    assert top_paths(service, "JSON request binding and validation", limit=1) == ["binding/json.go"]
    # Asked alone, the name is a name: its definitions come first.
    assert top_paths(service, "JSON", limit=1)[0] in {"render/json.go", "errors.go"}


def test_a_file_whose_name_the_query_names_more_of_ranks_first():
    query = rank.plan("how a module definition is assembled from functions, properties and events")
    # Both names hold "module definition": the builder's 2 parts of 3, the extension's 2 of 5. The
    # extension says the words a little more often; the builder is what the words name.
    candidates = {
        "ext:1": rank.Candidate(
            "compose/ModuleDefinitionBuilderComposeExtension.kt", None, None, lexical=1.0
        ),
        "builder:1": rank.Candidate("modules/ModuleDefinitionBuilder.kt", None, None, lexical=0.99),
    }
    assert [chunk_id for chunk_id, _ in rank.rank(query, candidates, limit=2)] == ["builder:1", "ext:1"]
    # A file the words name no part of (only its folder) is weighed as before.
    assert rank._name_cover(frozenset({"module"}), "modules/Other.kt") == 1.0
    assert rank._name_cover(frozenset({"module"}), "modules/Module.kt") == 1.0


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
        ("man/xmonad.hs", {"example"}),  # a manual's sample configuration
        ("typing-examples/mypy.py", {"example"}),  # named for its examples with a word more
        ("examples-js/app.js", {"example"}),
        ("code_samples/tutorial.py", {"example"}),
        ("src/samplers/uniform.py", set()),
        ("src/counterexample.py", set()),
        ("Dapper.Tests/ProcedureTests.cs", {"test"}),
        ("benchmarks/Dapper.Tests.Performance/Program.cs", {"test", "benchmark"}),
        ("src/Foo.UnitTests/Parsing.cs", {"test"}),
        ("src/Foo.Specs/Parsing.cs", {"test"}),
        ("src/Foo.Testing.Abstractions/Clock.cs", set()),  # a library named so: its code
        ("src/Data/Aeson/Types/Internal.hs", set()),  # a Haskell module named Internal: where types live
        ("src/Test/Runner/Core.hs", set()),  # Haskell's Test.* namespace: a test library's own code
        ("src/Test/Runner/Spec.hs", set()),  # a module named Spec is no FooSpec.hs
        ("src/Test/Runner/CoreSpec.hs", {"test"}),
        ("Test/Runner.hs", set()),
        ("test/Test/Runner/CoreSpec.hs", {"test"}),  # its test suite, in the lower-case folder
        ("tests/Helper.hs", {"test"}),
        ("src/Test/Runner.java", {"test"}),  # elsewhere a Test folder holds tests
        ("Test/Runner.cs", {"test"}),
        ("benches/parse.rs", {"benchmark"}),
        ("src/compat/py2.py", {"compat"}),
        ("types/index.d.ts", {"declaration"}),
        ("serde/Cargo.toml", {"config"}),
        (".github/workflows/ci.yml", {"config"}),
        ("pkg/__init__.py", {"reexport"}),
        ("contest/latest.py", set()),
        ("absl/container/internal/raw_hash_set.h", {"private"}),
        ("pydantic/_internal/_fields.py", {"private"}),
        ("serde_derive/src/internals/ast.rs", set()),  # a crate's own module named so: its code
        ("src/internal.go", set()),
        ("include/nlohmann/thirdparty/hedley/hedley.hpp", {"generated"}),  # vendored, as generated
        ("src/3rdparty/zlib/inflate.c", {"generated"}),
    ],
)
def test_path_kinds(path, kinds):
    assert path_kinds(path) == kinds


def test_path_prior_spares_what_the_query_asks_for():
    assert path_prior("src/web.py") == 1.0
    assert path_prior("tests/test_web.py") < 0.5
    assert path_prior("tests/test_web.py", frozenset({"test"})) == 1.0
    assert is_secondary("tests/test_web.py") and not is_secondary("pkg/__init__.py")


def test_a_hyphenated_word_names_no_definition():
    assert rank.plan("parse a D-Bus address list").symbols == ()
    assert rank.plan("client IP from X-Forwarded-For headers").symbols == ()
    assert rank.plan("D-Bus Connection handling").symbols == ("Connection",)
    assert rank.plan("how the Router dispatches").symbols == ("Router",)


HYPHEN_REPO = {
    "src/Bus.cs": "namespace Dbus {\n    // The message bus: names, matches, the daemon's methods.\n"
    "    public class Bus {\n        public void RequestName(string name) {}\n    }\n}\n",
    "src/Address.cs": "namespace Dbus {\n    static class Address {\n"
    "        // Split an address list at its semicolons into entries.\n"
    "        public static string[] Parse(string list) { return list.Split(';'); }\n    }\n}\n",
}


def test_a_compound_of_the_domain_does_not_ask_for_the_class_named_like_its_part(tmp_path):
    service = indexed_service(HYPHEN_REPO, tmp_path)
    query = "parse a D-Bus address list separated by semicolons"
    assert top_paths(service, query, limit=1) == ["src/Address.cs"]


def test_an_irregular_participle_names_the_file_of_its_doer():
    # The words alone favour the attribute; "built" names `MenuBuilder.cs` as "build" would.
    candidates = {
        "attr:1": rank.Candidate("src/Menus/MenuTypeAttribute.cs", "MenuTypeAttribute", None, lexical=10.0),
        "builder:1": rank.Candidate("src/Menus/MenuBuilder.cs", "MenuBuilder", None, lexical=8.0),
    }
    ranked = [chunk_id for chunk_id, _ in rank.rank(rank.plan("how is a menu built"), candidates, limit=2)]
    assert ranked == ["builder:1", "attr:1"]
    assert rank.IRREGULAR_PARTICIPLES["written"] == "write" and "found" not in rank.IRREGULAR_PARTICIPLES


PRIVATE_REPO = {
    # The private implementation repeats the topic's words more often than the public module does.
    "lib/_internal/_fields.py": '"""Internal machinery: collect model fields, field defaults, '
    'field aliases."""\n\n\n'
    "def collect_model_fields(cls):\n    # model fields: each field, its field default and field alias\n"
    "    return {name: field for name, field in vars(cls).items()}\n",
    "lib/fields.py": '"""Model fields: how a field is declared on a model, its default and '
    'alias."""\n\n\n'
    "class FieldInfo:\n    def __init__(self, default=None, alias=None):\n"
    "        self.default, self.alias = default, alias\n",
}


def test_the_public_module_ranks_above_the_private_implementation_unless_asked(tmp_path):
    service = indexed_service(PRIVATE_REPO, tmp_path)
    assert top_paths(service, "how model fields are declared with a default and an alias", limit=2) == [
        "lib/fields.py",
        "lib/_internal/_fields.py",
    ]
    assert top_paths(service, "internal machinery collecting model fields", limit=1) == [
        "lib/_internal/_fields.py"
    ]
    # Asking how a thing is implemented asks for the inside: the private code weighs as the public.
    asked = wanted_kinds({"how", "fields", "are", "implemented"})
    assert path_prior("lib/_internal/_fields.py", asked) == path_prior("lib/fields.py", asked) == 1.0
    assert path_prior("absl/hash/internal/hash.h") < path_prior("absl/hash/hash.h") == 1.0
    assert not is_secondary("absl/hash/internal/hash.h")  # listed with production code by the symbol tools


CODECS_REPO = {
    # The public file registers a codec per format; each format's codec is a private package.
    "settings.go": "package settings\n\n"
    "// init registers the codec of each configuration format, to decode and encode settings.\n"
    "func init() {\n"
    '\tregistry.Register("json", json.Codec{})\n'
    '\tregistry.Register("hcl", hcl.Codec{})\n'
    '\tregistry.Register("toml", toml.Codec{})\n'
    "}\n",
    "internal/format/hcl/codec.go": "package hcl\n\n"
    "// Codec reads and writes configuration in HCL.\n"
    "type Codec struct{}\n\n"
    "func (Codec) Encode(v map[string]any) ([]byte, error) { return hclprinter.Format(v) }\n\n"
    "func (Codec) Decode(b []byte, v map[string]any) error { return hclparser.Unmarshal(b, v) }\n",
    **{
        f"internal/format/{name}/codec.go": f"package {name}\n\n"
        f"// Codec reads and writes configuration in {name.upper()}.\n"
        "type Codec struct{}\n\n"
        f"func (Codec) Encode(v map[string]any) ([]byte, error) {{ return {name}.Marshal(v) }}\n\n"
        f"func (Codec) Decode(b []byte, v map[string]any) error {{ return {name}.Unmarshal(b, v) }}\n"
        for name in ("json", "toml", "yaml")
    },
    "internal/format/registry.go": "package format\n\n"
    "// Registry finds the codec to decode or encode a configuration format with.\n"
    "type Registry struct{ codecs map[string]Codec }\n\n"
    "func (r *Registry) Register(format string, codec Codec) { r.codecs[format] = codec }\n",
}


def test_a_private_package_named_by_a_rare_word_of_the_query_is_the_answer(tmp_path):
    # "HCL" names the private package `internal/format/hcl/` and no public file: that package is what
    # is asked for, not the public code that registers it (which the private prior would put first).
    service = indexed_service(CODECS_REPO, tmp_path)
    asked = "encode and decode HCL configuration"
    assert top_paths(service, asked, limit=1) == ["internal/format/hcl/codec.go"]
    # The public file still comes first where no rare word names a private package.
    assert top_paths(service, "register the codec of each configuration format", limit=1) == ["settings.go"]


def test_which_private_packages_a_query_names():
    keywords = frozenset({"encode", "decode", "hcl", "configuration"})
    rarity = {"encode": 1.0, "decode": 1.0, "hcl": 3.0, "configuration": 1.0}
    shares = {
        "internal/format/hcl/codec.go": 0.25,  # its folder named by "hcl", a rare word
        "internal/format/decoder.go": 0.25,  # named by "decode", a common one
        "internal/hcl.go": 0.25,  # in the private folder itself: no package of its own
    }
    naming = rank._Naming(keywords)
    asked = rank._asked_private_packages(naming, shares, frozenset(), lambda words: rarity)
    assert asked == {"internal/format/hcl/codec.go"}
    # A public file the word names too (`hcl/parser.go`): the word asks for that one, not the private package.
    shares_public = {**shares, "hcl/parser.go": 0.25}
    assert not rank._asked_private_packages(naming, shares_public, frozenset(), lambda words: rarity)


PAIRED_REPO = {
    "src/idna.h": "/* IDNA: internationalized domain name encoding to punycode. */\n"
    "/* Encode an internationalized domain name. */\nlong idna_encode(const char* name, char* out);\n",
    "src/idna.c": '#include "idna.h"\n\nlong idna_encode(const char* s, char* d) {\n'
    "    while (*s) *d++ = *s++;\n    return 0;\n}\n",
    # Says the query's words more often than the implementation does, but is another thing.
    "src/dns.c": "/* domain name lookups: a domain name to an address; name encoding is IDNA's. */\n"
    "int dns_lookup(const char* domain_name) {\n    return domain_name != 0;\n}\n",
}


def test_a_header_and_its_implementation_beside_it_are_read_together(tmp_path):
    service = indexed_service(PAIRED_REPO, tmp_path)
    assert top_paths(service, "internationalized domain name encoding", limit=3) == [
        "src/idna.h",
        "src/idna.c",
        "src/dns.c",
    ]


INLINE_PAIRED_REPO = {
    "include/clock/ticker.h": "#pragma once\n"
    "/* A ticker: counts monotonic clock ticks between two readings. */\n"
    "namespace clock {\nclass ticker {\npublic:\n    long elapsed_ticks() const;\n"
    'private:\n    long started_;\n};\n}\n#include "ticker-inl.h"\n',
    "include/clock/ticker-inl.h": "#pragma once\nnamespace clock {\n"
    "inline long ticker::elapsed_ticks() const {\n    return now() - started_;\n}\n}\n",
    # Says the query's words more often than the inline header does, but is another thing.
    "include/clock/calendar.h": "#pragma once\n/* Calendar dates, not monotonic: readings of the wall clock\n"
    " * where no ticks are counted. */\nnamespace clock {\nstruct calendar_date {\n"
    "    int year, month, day;\n};\n}\n",
}


@pytest.mark.parametrize(
    ("path", "key"),
    [
        ("include/clock/ticker-inl.h", ("include/clock/ticker", False)),
        ("re2/walker_inl.h", ("re2/walker", False)),
        ("include/clock/ticker.h", ("include/clock/ticker", True)),
        ("src/inl.h", ("src/inl", True)),  # a header named `inl` completes no other
        ("src/-inl.h", ("src/-inl", True)),
        ("src/ticker-inl.py", None),
    ],
)
def test_an_inline_header_is_the_implementation_of_the_header_it_completes(path, key):
    assert rank._pair_key(path) == key


def test_an_inline_header_follows_the_header_it_completes(tmp_path):
    service = indexed_service(INLINE_PAIRED_REPO, tmp_path)
    assert top_paths(service, "monotonic clock ticks counted between two readings", limit=3) == [
        "include/clock/ticker.h",
        "include/clock/ticker-inl.h",
        "include/clock/calendar.h",
    ]


def test_an_index_made_before_header_prototypes_were_chunked_parses_its_c_and_cpp_again(tmp_path):
    files = {**PAIRED_REPO, "tools/gen.py": "def gen():\n    return 1\n"}
    report, _, _ = reindexed_from_before(HEADER_PROTOTYPES, files, tmp_path)
    # Later migrations (NESTED_MEMBERS: every code file) may read more.
    assert {"src/dns.c", "src/idna.c", "src/idna.h"} <= set(report.changed_paths)


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
    store = indexed_service({"a.py": "def alpha():\n    return 'zebra'\n"}, tmp_path).store
    assert [c for c, _ in store.keyword_search(["zebra"], Filters(), 5)] == ["a.py:1-2"]
    (root / "a.py").write_text("def alpha():\n    return 'giraffe'\n")
    Indexer(root, store).run()
    assert store.keyword_search(["zebra"], Filters(), 5) == []
    assert [c for c, _ in store.keyword_search(["giraffe"], Filters(), 5)] == ["a.py:1-2"]


def test_a_read_only_index_without_term_counts_still_searches(tmp_path):
    store = indexed_service({"a.py": "def alpha():\n    return 'zebra'\n"}, tmp_path).store
    store._conn.execute("DELETE FROM bags")  # as an index written before bags existed
    store._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    copy = tmp_path / "copy.db"
    shutil.copy(tmp_path / "index.db", copy)
    reader = CodeStore(copy, read_only=True)
    assert [c for c, _ in reader.keyword_search(["zebra"], Filters(), 5)] == ["a.py:1-2"]
    assert int(np.count_nonzero(reader.lexical_index().scores(["alpha"]))) == 1


def test_an_index_from_before_term_counts_loses_its_fts_table_and_still_searches(tmp_path):
    store = indexed_service({"a.py": "def alpha():\n    return 'zebra'\n"}, tmp_path).store
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


# --- files that forward to others -----------------------------------------------------------------

FORWARDING_REPO = {
    # An umbrella header kept for compatibility: it includes the header that defines the API.
    "include/lib/core.h": '#include "base.h"\n\n// core.h is kept for code that includes it.\n'
    '#ifdef LIB_HEAVY_CORE\n#  include "format.h"\n#endif\n',
    "include/lib/base.h": "#pragma once\n\nnamespace lib {\n/** The arguments of one format call. */\n"
    "template <typename Context> class format_args {\n public:\n  int size() const { return 0; }\n};\n}\n",
    "include/lib/format.h": '#include "base.h"\n\nnamespace lib {\n/** Writes a value as text. */\n'
    "int write_text(int value) { return value; }\n}\n",
    # A header that includes base.h but defines its own things is no forwarder.
    "include/lib/color.h": '#include "base.h"\n\nnamespace lib {\n/** Terminal colours. */\n'
    "int color_code(int colour) { return colour; }\n}\n",
    "shop/__init__.py": '"""The shop."""\n\nfrom .engine import Engine\n\n__all__ = ["Engine"]\n',
    "shop/engine.py": 'class Engine:\n    """Runs the checkout of a shop order."""\n\n'
    "    def run(self, order):\n        return order\n",
    # A barrel of many files is a table of contents: it follows none of them.
    "tools/__init__.py": "from .a import *\nfrom .b import *\nfrom .c import *\nfrom .d import *\n",
    "tools/a.py": "def alpha_tool():\n    return 'sharpen the blades'\n",
    "tools/b.py": "def beta_tool():\n    return 1\n",
    "tools/c.py": "def gamma_tool():\n    return 2\n",
    "tools/d.py": "def delta_tool():\n    return 3\n",
    "web/index.ts": 'export * from "./router";\n',
    "web/router.ts": "/** Sends each request to its route handler. */\nexport class RouteTable {\n"
    "  dispatch(path: string): string {\n    return path;\n  }\n}\n",
    "crates/net/src/tcp/mod.rs": "//! TCP sockets.\nmod stream;\npub use self::stream::TcpStream;\n",
    "crates/net/src/tcp/stream.rs": "/// A connected TCP socket.\npub struct TcpStream {\n    fd: i32,\n}\n",
}


@pytest.fixture(scope="module")
def forwarding(tmp_path_factory) -> CodeService:
    return indexed_service(FORWARDING_REPO, tmp_path_factory.mktemp("forwarding"))


@pytest.mark.parametrize(
    ("query", "target", "forwarder"),
    [
        ("format_args", "include/lib/base.h", "include/lib/core.h"),
        ("arguments of one format call", "include/lib/base.h", "include/lib/core.h"),
        ("Engine", "shop/engine.py", "shop/__init__.py"),
        ("RouteTable", "web/router.ts", "web/index.ts"),
        ("TcpStream", "crates/net/src/tcp/stream.rs", "crates/net/src/tcp/mod.rs"),
    ],
)
def test_a_file_forwarding_to_the_answer_follows_it(forwarding, query, target, forwarder):
    paths = top_paths(forwarding, query, limit=4)
    assert paths[:2] == [target, forwarder]


def test_forwarders_are_few_small_files_that_define_nothing(forwarding):
    store = forwarding.store
    found = {(f.path, f.target) for f in store.forwarders(["include/lib/base.h", "tools/a.py"], Filters())}
    assert found == {("include/lib/core.h", "include/lib/base.h")}  # not color.h, not the barrel of four
    assert store.forwarders(["include/lib/base.h"], Filters(languages=("python",))) == []


def test_a_forwarder_of_a_file_outside_the_best_is_not_lifted():
    candidates = {
        "a.h:1-9": rank.Candidate("a.h", None, None, lexical=10.0),
        "b.h:1-9": rank.Candidate("b.h", None, None, lexical=5.0),
    }
    asked: list[list[str]] = []

    def forwarders(paths):
        asked.append(list(paths))
        return [Forwarder(target, f"fwd_{target}", f"fwd_{target}:1-2", None, None) for target in paths]

    ranked = dict(rank.rank(rank.plan("x"), candidates, 1, forwarders=forwarders))
    assert asked == [["a.h"]]
    assert set(ranked) == {"a.h:1-9"}  # limit 1: the forwarder scores below its target
    ranked = dict(
        rank.rank(
            rank.plan("x"),
            {k: rank.Candidate(c.path, None, None, lexical=c.lexical) for k, c in candidates.items()},
            3,
            forwarders=forwarders,
        )
    )
    assert ranked["fwd_a.h:1-2"] == pytest.approx(rank.FORWARD_SHARE * ranked["a.h:1-9"])
    assert ranked["fwd_a.h:1-2"] > ranked["b.h:1-9"]


def test_re_exports_and_rust_module_declarations_are_dependencies(forwarding):
    assert forwarding.get_dependencies("web/index.ts").imports[0].resolved == ["web/router.ts"]
    tcp = forwarding.get_dependencies("crates/net/src/tcp/mod.rs")
    assert [(i.module, i.resolved) for i in tcp.imports] == [
        ("self::stream", ["crates/net/src/tcp/stream.rs"]),
        ("self::stream", ["crates/net/src/tcp/stream.rs"]),
    ]


FORWARDING_EDGES = {
    # Ruby: a file that is one `require_relative` is where `require "lib/rack"` users look.
    "lib/rack.rb": 'require_relative "rack/builder"\n',
    "lib/rack/builder.rb": "module Rack\n  # Builds an application from middleware.\n  class Builder\n"
    "    def call(env)\n      env\n    end\n  end\nend\n",
    # A script that uses what it imports does something of its own: no forwarder.
    "web/main.ts": 'import { RouteTable } from "./router";\n\nconst table = new RouteTable();\n'
    'table.dispatch("/");\n',
    # A named re-export, renamed on the way.
    "web/api.ts": 'export { RouteTable as Routes } from "./router";\n',
    "web/router.ts": "/** Sends each request to its route handler. */\nexport class RouteTable {\n"
    "  dispatch(path: string): string {\n    return path;\n  }\n}\n",
    # `mod net;` in lib.rs is net.rs or net/mod.rs beside it.
    "src/lib.rs": "//! The crate.\nmod net;\npub use net::Socket;\n",
    "src/net/mod.rs": "/// A network socket.\npub struct Socket {\n    fd: i32,\n}\n",
    # An include alone is no forwarder when the file is long (a header of its own, mostly comments).
    "include/base.h": "#pragma once\n/** Arguments. */\nstruct format_args { int size; };\n",
    "include/long.h": '#include "base.h"\n' + "".join(f"// note {i}\n" for i in range(60)),
}


@pytest.fixture(scope="module")
def forwarding_edges(tmp_path_factory) -> CodeService:
    return indexed_service(FORWARDING_EDGES, tmp_path_factory.mktemp("forwarding-edges"))


def test_which_files_forward(forwarding_edges):
    targets = ["lib/rack/builder.rb", "web/router.ts", "src/net/mod.rs", "include/base.h"]
    found = {(f.path, f.target) for f in forwarding_edges.store.forwarders(targets, Filters())}
    assert found == {
        ("lib/rack.rb", "lib/rack/builder.rb"),
        ("web/api.ts", "web/router.ts"),
        ("src/lib.rs", "src/net/mod.rs"),
    }  # not web/main.ts (it calls what it imports), not include/long.h (61 lines)
    assert top_paths(forwarding_edges, "Builder", limit=2) == ["lib/rack/builder.rb", "lib/rack.rb"]


def test_named_re_exports_and_module_folders_are_dependencies(forwarding_edges):
    api = forwarding_edges.get_dependencies("web/api.ts").imports
    assert [(i.module, i.names, i.resolved) for i in api] == [("./router", ["RouteTable"], ["web/router.ts"])]
    lib = forwarding_edges.get_dependencies("src/lib.rs").imports
    assert ("self::net", ["src/net/mod.rs"]) in [(i.module, i.resolved) for i in lib]
    assert "web/api.ts" in forwarding_edges.get_dependencies("web/router.ts").importedBy


def test_an_index_made_before_re_exports_were_read_parses_its_typescript_and_rust_again(tmp_path):
    # As an index of the version before: no re-export read.
    old = "(SELECT id FROM files WHERE path = 'web/api.ts')"
    report, reopened, root = reindexed_from_before(
        REEXPORT_IMPORTS,
        FORWARDING_EDGES,
        tmp_path,
        f"DELETE FROM imports WHERE file_id = {old}",
        f"DELETE FROM dependencies WHERE file_id = {old}",
    )
    assert sorted(report.changed_paths) == [
        "include/base.h",  # and C and C++ files, for the migration after (HEADER_PROTOTYPES)
        "include/long.h",
        "lib/rack.rb",  # and every code file, for NESTED_MEMBERS
        "lib/rack/builder.rb",
        "src/lib.rs",
        "src/net/mod.rs",
        "web/api.ts",
        "web/main.ts",
        "web/router.ts",
    ]
    service = CodeService(reopened, root)
    assert service.get_dependencies("web/api.ts").imports[0].resolved == ["web/router.ts"]


def test_a_marked_name_is_asked_for_beside_the_plain_one():
    assert rank.marked_names(["ZodType"]) == ("$ZodType", "_ZodType")
    assert rank.marked_names(["_Router"]) == ()  # already marked
    plan = rank.plan("ZodType")
    plain = rank.definition_strength(plan, "ZodType", None, "src/schemas.ts")
    assert rank.definition_strength(plan, "$ZodType", None, "src/schemas.ts") == pytest.approx(
        rank.MARKED_SCALE * plain
    )


# --- versions kept side by side, and names marked internal ----------------------------------------


def test_older_version_folders_are_those_with_a_newer_sibling():
    paths = [
        "src/v3/types.ts",
        "src/v4/core/schemas.ts",
        "src/v4/classic/schemas.ts",
        "api/v1/app.go",
        "x.py",
    ]
    assert older_version_folders(paths) == {"src/v3/"}  # api/v1 has no v2 beside it, nor code
    # pydantic keeps v1 beside the current code, which needs no number; a Go module's v2 is newer.
    beside = ["pydantic/main.py", "pydantic/v1/main.py", "mod/go.go", "mod/v2/go.go", "api/v1/app.go"]
    assert older_version_folders(beside) == {"pydantic/v1/"}
    older = older_version_folders(paths)
    assert version_prior("src/v3/types.ts", older, frozenset()) < 1.0
    assert version_prior("src/v4/core/schemas.ts", older, frozenset()) == 1.0
    assert version_prior("src/v3/types.ts", older, frozenset({"v3"})) == 1.0  # "v3 error types"
    assert version_prior("src/v3/types.ts", older, frozenset(), wanted_kinds({"compatibility"})) == 1.0


VERSIONED_REPO = {
    "src/v3/types.ts": "/** The base schema of every type (v3). */\nexport abstract class ZodType {\n"
    "  parse(input: unknown) {\n    return input;\n  }\n}\n",
    "src/v4/core/schemas.ts": "/** The core of every schema. */\n"
    "export interface $ZodType {\n  kind: string;\n}\n",
    "src/v4/classic/schemas.ts": "/** The schema users build. */\n"
    "export interface ZodType {\n  parse(input: unknown): unknown;\n}\n",
}


def test_the_newest_version_and_a_marked_name_come_before_an_older_version(tmp_path):
    service = indexed_service(VERSIONED_REPO, tmp_path)
    assert top_paths(service, "ZodType", limit=3) == [
        "src/v4/classic/schemas.ts",  # the name itself, in the newest version
        "src/v4/core/schemas.ts",  # `$ZodType`: the same name marked
        "src/v3/types.ts",
    ]
    assert top_paths(service, "ZodType in v3", limit=1) == ["src/v3/types.ts"]


# --- a family of types ----------------------------------------------------------------------------

FAMILY_REPO = {
    "tuple/Triple.java": "package tuple;\n\n/** A triple of three elements. */\n"
    "public abstract class Triple<L, M, R> {\n"
    "    public static <L, M, R> Triple<L, M, R> of(L l, M m, R r) {\n"
    "        return new ImmutableTriple<>(l, m, r);\n    }\n}\n",
    "tuple/MutableTriple.java": "package tuple;\n\n/** A mutable triple. */\n"
    "public class MutableTriple<L, M, R> extends Triple<L, M, R> {\n    public L left;\n}\n",
    "tuple/ImmutableTriple.java": "package tuple;\n\n/** An immutable triple. */\n"
    "public final class ImmutableTriple<L, M, R> extends Triple<L, M, R> {\n"
    "    public final L left = null;\n}\n",
    "tuple/Other.java": "package tuple;\n\npublic class Other {\n"
    "    MutableTriple<String, String, String> t;\n}\n",
    # A file named in the plural is named after its type too (`completions.go`: `Completion`).
    "cmd/completions.go": "package cmd\n\n// Completion is one shell completion.\n"
    "type Completion struct {\n\tName string\n}\n",
    "cmd/bash_completions.go": "package cmd\n\nfunc bashCompletion(c Completion) string {\n"
    "\treturn c.Name\n}\n",
}


def test_the_files_of_a_family_refer_to_the_type_they_are_named_after(tmp_path):
    store = indexed_service(FAMILY_REPO, tmp_path).store
    found = set(store.namesake_references(list(FAMILY_REPO), list(FAMILY_REPO)))
    assert {
        ("tuple/Triple.java", "Triple", "tuple/MutableTriple.java"),
        ("tuple/Triple.java", "Triple", "tuple/ImmutableTriple.java"),
        ("tuple/MutableTriple.java", "MutableTriple", "tuple/Other.java"),
        ("cmd/completions.go", "Completion", "cmd/bash_completions.go"),
    } <= found
    assert not any(referrer == path for path, _, referrer in found)


def test_namesake_references_answer_only_for_the_files_asked_about(tmp_path):
    store = indexed_service(FAMILY_REPO, tmp_path).store
    asked = store.namesake_references(
        ["tuple/Triple.java", "cmd/completions.go"], ["tuple/MutableTriple.java"]
    )
    assert asked == [("tuple/Triple.java", "Triple", "tuple/MutableTriple.java")]
    assert store.namesake_references(["tuple/Other.java"], list(FAMILY_REPO)) == []  # no type named after it
    assert store.namesake_references(["tuple/Triple.java"], ["tuple/Other.java"]) == []  # refers to another


def test_the_type_a_family_of_results_builds_on_comes_first():
    def candidates() -> dict[str, rank.Candidate]:
        return {
            f"{name}.java:1-9": rank.Candidate(f"tuple/{name}.java", name, None, lexical=score)
            for name, score in (
                ("MutableTriple", 10.0),
                ("Triple", 9.5),
                ("ImmutableTriple", 9.0),
                ("Other", 8.9),
            )
        }

    references = [
        ("tuple/Triple.java", "Triple", "tuple/MutableTriple.java"),
        ("tuple/Triple.java", "Triple", "tuple/ImmutableTriple.java"),
        ("tuple/ImmutableTriple.java", "ImmutableTriple", "tuple/Triple.java"),  # not of its family
        ("tuple/MutableTriple.java", "MutableTriple", "tuple/Other.java"),  # Other is no MutableTriple
    ]
    plain = [c for c, _ in rank.rank(rank.plan("triple of values"), candidates(), 4)]
    assert plain[0] == "MutableTriple.java:1-9"
    ranked = [
        c
        for c, _ in rank.rank(
            rank.plan("triple of values"),
            candidates(),
            4,
            namesake_references=lambda heads, members: references,
        )
    ]
    assert ranked[0] == "Triple.java:1-9"
    assert ranked[1:] == [c for c in plain if c != "Triple.java:1-9"]


def test_family_members_the_query_names_more_fully_than_their_head_lift_it_no_more():
    names = (
        ("PaletteSelector", 10.0),
        ("Palette", 9.5),
        ("PaletteSelectorDialog", 9.2),
        ("DefaultPaletteSelector", 9.1),
        ("Window", 9.0),
    )
    members = ("PaletteSelector", "PaletteSelectorDialog", "DefaultPaletteSelector")
    references = [("theme/Palette.java", "Palette", f"theme/{member}.java") for member in members]

    def first(query: str) -> str:
        candidates = {
            f"{name}.java:1-9": rank.Candidate(f"theme/{name}.java", name, None, lexical=score)
            for name, score in names
        }
        ranked = rank.rank(
            rank.plan(query), candidates, 5, namesake_references=lambda heads, members: references
        )
        return ranked[0][0]

    # "palette" names the head and its members; "select" names the selectors alone: they are what
    # the query describes, and their references do not carry the head above them.
    assert first("select the palette of a window") == "PaletteSelector.java:1-9"
    # Named no more than their head, the members refer the reader to it as before.
    assert first("the palette of a window") == "Palette.java:1-9"


def test_file_names_match_query_words_by_stem():
    plan = rank.plan("string utility helpers")
    assert path_match(plan.keywords, "lang3/StringUtils.java") == 3  # `Utils`: utilities, helpers
    assert path_match(rank.plan("system property").keywords, "SystemProperties.java") == 2


def test_a_word_names_a_file_by_its_root_beside_another_word_naming_it():
    # `reading` is what a Reader does: with `objects` naming ObjectReader too, it counts.
    keywords = rank.plan("reading JSON into objects").keywords
    assert path_match(keywords, "databind/ObjectReader.java") == 2
    assert path_match(keywords, "databind/ObjectMapper.java") == 1
    # Any part no word names may be the one the root names, not only the first of them.
    assert path_match(keywords, "databind/ObjectStreamReader.java") == 2
    assert path_match(keywords, "databind/ObjectStreamMapper.java") == 1
    assert path_match(rank.plan("json log formatting").keywords, "Formatter/JsonFormatter.php") == 2
    assert path_match(rank.plan("store creation").keywords, "src/createStore.ts") == 2
    # Alone, a root names nothing: `parsing` does not make every parser an answer.
    assert path_match(rank.plan("boolean parsing helpers").keywords, "time/FastDateParser.java") == 0
    # A part already named by one word is not named again by another word's root.
    connectors = rank.plan("queue connection resolution and connectors").keywords
    assert path_match(connectors, "Queue/Connectors/SyncConnector.php") == 1


@pytest.mark.parametrize(
    ("word", "other", "shared"),
    [
        ("reading", "reader", True),
        ("formatting", "formatter", True),
        ("creation", "create", True),
        ("connection", "connector", True),
        ("management", "manager", True),
        ("routing", "router", True),
        ("user", "usage", False),  # `us` is too short to be a root
        ("order", "ordinal", False),
    ],
)
def test_roots_of_agent_and_action_words(word, other, shared):
    assert bool(rank._roots(word) & rank._roots(other)) is shared


ROOTS_REPO = {
    # The mapper says "read" (`reads`, `readValue`); the reader is what reads, and says it otherwise.
    "databind/ObjectMapper.java": "/** Maps objects to JSON and back: readValue reads one value. */\n"
    "public class ObjectMapper {\n    public Object readValue(String json) { return json; }\n}\n",
    "databind/ObjectReader.java": "/** Deserializes JSON documents into objects of a configured type. */\n"
    "public class ObjectReader {\n    public Object with(Class<?> type) { return type; }\n}\n",
}


def test_a_file_named_for_the_doer_of_what_a_query_says_ranks_first(tmp_path):
    service = indexed_service(ROOTS_REPO, tmp_path)
    assert top_paths(service, "reading JSON documents into objects", limit=2) == [
        "databind/ObjectReader.java",
        "databind/ObjectMapper.java",
    ]


def test_a_file_named_by_an_abbreviation_is_named_by_the_word():
    keywords = rank.plan("request context handling").keywords
    assert path_match(keywords, "src/flask/ctx.py") == 1
    assert path_match(rank.plan("websocket client").keywords, "aiohttp/client_ws.py") == 2
    assert path_match(rank.plan("ctx values").keywords, "lib/context.go") == 1
    assert path_match(keywords, "src/flask/cli.py") == 0
    assert path_match(rank.plan("how the command line is dispatched").keywords, "lib/mix/cli.ex") == 1


ABBREVIATED_REPO = {
    "app.py": "class App:\n    def dispatch(self, request):\n"
    "        # handling a request: the request context is pushed, the handler runs, the context is popped\n"
    "        return self.handlers[request.path](request)\n",
    "ctx.py": '"""What is known while a request is handled: the request, its session, its globals."""\n\n\n'
    "class Frame:\n    def push(self):\n        self.stack.append(self)\n",
}


def test_a_file_named_by_an_abbreviation_of_the_topic_ranks_first(tmp_path):
    service = indexed_service(ABBREVIATED_REPO, tmp_path)
    assert top_paths(service, "request context handling", limit=2) == ["ctx.py", "app.py"]


# --- the types a named type builds on ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "name", "types"),
    [
        (
            "/** Applicative: see also Apply. */\n"
            "trait Applicative[F[_]] extends Apply[F] with InvariantMonoidal[F] { self =>\n"
            "  def pure = 1\n}\n",
            "Applicative",
            ["Apply", "InvariantMonoidal"],
        ),
        (
            "public final class ImmutablePair<L, R> extends Pair<L, R> implements Serializable {\n"
            "    private Left left;\n}\n",
            "ImmutablePair",
            ["Pair", "Serializable"],
        ),
        (
            "export interface ZodType<\n  out Output = unknown,\n"
            "  out Internals extends core.$ZodTypeInternals<Output> = core.$ZodTypeInternals<Output>,\n"
            "> extends core.$ZodType<Output, Internals> {\n  def: Internals;\n}\n",
            "ZodType",
            ["$ZodType"],
        ),
        ('class OAuth2(SecurityBase):\n    """Uses Flows."""\n    x: Model\n', "OAuth2", ["SecurityBase"]),
        ("class Session(\n    Base,\n    metaclass=Meta,\n):\n    pass\n", "Session", ["Base", "Meta"]),
        ("class Request < Base\n  attr_reader :env\nend\n", "Request", ["Base"]),
        ("class format_error : public std::runtime_error {\n public:\n  Other x;\n};\n", "format_error", []),
        ("class Table(val rows: Rows) : Base() {\n    val x: Other = 1\n}\n", "Table", ["Rows", "Base"]),
        ("/// `Adapter` is nothing yet\nstruct Adapter;\n", "Adapter", []),
        (
            "class CommandTester extends Base\n{\n    // its state\n    use TesterTrait;\n"
            "    use \\Illuminate\\Support\\Traits\\Macroable, ForwardsCalls {\n"
            "        __call as macroCall;\n    }\n    use Nope;\n}\n",
            "CommandTester",
            ["Base", "TesterTrait", "Macroable", "ForwardsCalls", "Nope"],
        ),
        ("final class Tester {\n    private $x;\n    use Late;\n}\n", "Tester", []),
    ],
)
def test_a_header_names_the_types_a_definition_builds_on(content, name, types):
    assert rank.header_types(content, name) == types


SUPERTYPE_REPO = {
    # Scala: one package, no imports; the supertype is named in the header only.
    "cats/Apply.scala": "package cats\n\ntrait Apply[F[_]] {\n"
    "  def ap[A, B](ff: F[A => B])(fa: F[A]): F[B]\n}\n",
    "cats/Applicative.scala": "package cats\n\n/** Combines independent effects. */\n"
    "trait Applicative[F[_]] extends Apply[F] {\n  def pure[A](a: A): F[A]\n}\n",
    "cats/Effects.scala": "package cats\n\n/** Independent effects are combined here, and effects. */\n"
    "object Effects {\n  def combines(independent: Int): Int = independent\n}\n",
    # TypeScript: the bare name's definition, what it extends (marked, in the core), an older version.
    "src/v4/classic/errors.ts": 'import * as core from "../core/errors.js";\n\n'
    "export interface ZodError<T = unknown> extends core.$ZodError<T> {\n  format(): string;\n}\n",
    "src/v4/core/errors.ts": "export interface $ZodError<T = unknown> extends Error {\n  issues: T[];\n}\n",
    "src/v3/ZodError.ts": "export class ZodError extends Error {\n  issues: string[] = [];\n}\n",
    "src/v3/types.ts": "export const version = 3;\n",
    # Python: two files define the supertype's name; the import says which one.
    "app/security/base.py": "class SecurityBase:\n    scheme_name: str\n",
    "app/openapi/models.py": "class SecurityBase:\n    description: str\n\n\nclass OAuth2(SecurityBase):\n"
    "    flows: dict\n",
    "app/security/oauth2.py": "from app.security.base import SecurityBase\n\n\nclass OAuth2(SecurityBase):\n"
    '    """OAuth2 flows of a security scheme."""\n\n    def __call__(self, request):\n'
    "        return request\n",
}


@pytest.fixture(scope="module")
def supertyped(tmp_path_factory) -> CodeService:
    return indexed_service(SUPERTYPE_REPO, tmp_path_factory.mktemp("supertype"))


def test_a_type_a_sentence_names_brings_what_it_extends(supertyped):
    paths = top_paths(supertyped, "how Applicative combines independent effects", limit=3)
    # Apply.scala says none of the query's words: only Applicative's header leads to it.
    assert paths[0] == "cats/Applicative.scala"
    assert set(paths[1:]) == {"cats/Apply.scala", "cats/Effects.scala"}


def test_a_bare_type_name_is_followed_by_what_it_extends_before_an_older_version(supertyped):
    assert top_paths(supertyped, "ZodError", limit=3) == [
        "src/v4/classic/errors.ts",
        "src/v4/core/errors.ts",  # `$ZodError`, which the classic one extends
        "src/v3/ZodError.ts",
    ]


def test_of_two_definitions_of_a_supertype_the_imported_one_follows(supertyped):
    paths = top_paths(supertyped, "OAuth2", limit=4)
    assert paths[:2] == ["app/security/oauth2.py", "app/security/base.py"]
    # models.py's own OAuth2 extends the SecurityBase beside it: nothing else is lifted for it.
    named = supertyped.store.definition_chunks(["OAuth2"], Filters())
    lifted = gather.supertypes(supertyped.store, named, Filters())
    assert {base.path for bases in lifted.values() for base in bases} == {"app/security/base.py"}


def test_an_import_names_the_file_it_reads():
    assert rank.module_names("app.security.base", "app/security/base.py")
    assert rank.module_names("../core/errors.js", "src/v4/core/errors.ts")
    assert not rank.module_names("app.openapi.models", "app/security/base.py")


def test_neighbouring_words_name_an_identifier_by_stems_and_prefixes():
    plan = rank.plan("how dynamic format arguments are stored")
    assert rank.names_phrase(plan, "dynamic_format_arg_store") == rank.LOOSE
    assert rank.names_phrase(plan, "formatArguments") == rank.EXACT
    assert rank.names_phrase(rank.plan("object utility methods"), "ObjectUtils") == rank.LOOSE
    assert rank.names_phrase(plan, "format_store") is None  # not neighbours
    assert rank.names_phrase(plan, "dynamic") is None  # one word is no phrase


def test_a_sentence_says_which_owner_a_qualified_name_has():
    plan = rank.plan("how fmt::format and fmt::print write to std::ostream")
    assert plan.symbols == ("format", "print")  # `std::ostream` is the standard library's
    assert plan.owners == {"format": "fmt", "print": "fmt"}
    free = rank.definition_strength(plan, "format", None, "format.h")
    method = rank.definition_strength(plan, "format", "formatter", "format.h")
    assert method == pytest.approx(free * rank.OTHER_OWNER_SCALE)
    assert rank.definition_strength(plan, "format", "fmt", "format.h") == free
    assert rank.plan("read index.ts and the e.g. notes").owners == {}  # a dot says no owner in a sentence


QUALIFIED_REPO = {
    "include/lib/format.h": "namespace lib {\n/// Formats the arguments into a string.\n"
    "template <typename... T> std::string format(const char* spec, T&&... args) {\n"
    "  return vformat(spec, args...);\n}\n}  // namespace lib\n",
    "include/lib/chrono.h": "namespace lib {\n/// Formats durations and times into strings at runtime.\n"
    "struct duration_formatter {\n  std::string format(const char* spec) const {\n    return spec;\n  }\n};\n"
    "}  // namespace lib\n",
}


def test_a_qualified_name_in_a_sentence_finds_the_free_function_not_a_namesake_method(tmp_path):
    service = indexed_service(QUALIFIED_REPO, tmp_path)
    # chrono.h says more of the sentence's words; `lib::format` names format.h's free function.
    assert top_paths(service, "durations into strings at runtime", limit=2)[0] == "include/lib/chrono.h"
    assert top_paths(service, "lib::format durations into strings at runtime", limit=2)[0] == (
        "include/lib/format.h"
    )


# --- Ruby's and Go's file and folder conventions --------------------------------------------------


def test_a_folder_is_headed_by_a_file_named_like_it_beside_or_inside_it():
    paths = [
        "lib/shop/rack.rb",  # Ruby: lib/x.rb requires lib/x/*
        "lib/shop/rack/logger.rb",
        "lib/shop/utils/headers.rb",  # no utils.rb: a folder of its own files
        "middleware/middleware.go",  # Go: the package's own file
        "middleware/logger.go",
        "docs/guide.md",
        "docs.md",  # not code
    ]
    assert headed_folders(paths) == {"lib/shop/rack", "middleware"}


HEADED_REPO = {
    "lib/shop/rack.rb": "module Shop\n  # Rack integration: the middleware the shop brings to a Rack stack.\n"
    '  module Rack\n    autoload :Logger, "shop/rack/logger"\n  end\nend\n',
    # Says the query's words as often, but is one part of what the head stands for.
    "lib/shop/rack/logger.rb": "module Shop\n  module Rack\n"
    "    # Logs each Rack request: rack integration for logging.\n"
    "    class Logger\n      def call(env)\n        log(env)\n      end\n    end\n  end\nend\n",
    "lib/shop/engine.rb": "module Shop\n"
    "  # An engine: configuration, load paths, the engine's initializers.\n"
    "  class Engine\n    def config\n      @config ||= Engine::Configuration.new\n    end\n  end\nend\n",
    "lib/shop/engine/configuration.rb": "module Shop\n  class Engine\n"
    "    # What an engine is configured with.\n"
    "    class Configuration\n      def paths\n        @paths\n      end\n    end\n  end\nend\n",
}


def test_a_word_naming_a_folder_names_its_head_before_the_folders_files(tmp_path, monkeypatch):
    service = indexed_service(HEADED_REPO, tmp_path)
    store = service.store
    assert store.headed_folders() == {"lib/shop/rack", "lib/shop/engine"}
    assert top_paths(service, "rack integration", limit=2) == ["lib/shop/rack.rb", "lib/shop/rack/logger.rb"]
    # A file of the folder that another word names by its own name keeps the folder's word whole.
    assert top_paths(service, "engine configuration", limit=2) == [
        "lib/shop/engine/configuration.rb",
        "lib/shop/engine.rb",
    ]
    monkeypatch.setattr(rank, "HEADED_FOLDER_SHARE", 1.0)  # without the rule, the folder's file wins
    assert top_paths(service, "rack integration", limit=1) == ["lib/shop/rack/logger.rb"]


SCAFFOLD_REPO = {
    "lib/shop/generators/app/app_generator.rb": "module Shop\n"
    "  # Generates a new app, its paths and path management.\n"
    "  class AppGenerator\n    def create_paths\n      paths.each { |path| directory(path) }\n"
    "    end\n  end\nend\n",
    "lib/shop/paths.rb": "module Shop\n"
    "  # Path management for the app: a root of named paths, each with its glob.\n  module Paths\n"
    "    class Root\n      def add(path, options)\n        @roots[path] = options\n      end\n    end\n"
    "  end\nend\n",
}


def test_generators_rank_below_the_code_they_set_up_unless_asked(tmp_path, monkeypatch):
    assert path_kinds("railties/lib/rails/generators/rails/app/app_generator.rb") == {"scaffold"}
    assert path_prior("lib/generators/app_generator.rb") < 1.0
    assert path_prior("lib/generators/app_generator.rb", wanted_kinds({"scaffold"})) == 1.0
    assert not is_secondary("lib/generators/app_generator.rb")  # the symbol tools list it as code
    service = indexed_service(SCAFFOLD_REPO, tmp_path)
    assert top_paths(service, "path management for apps", limit=1) == ["lib/shop/paths.rb"]
    generator = "lib/shop/generators/app/app_generator.rb"
    assert top_paths(service, "app generator paths", limit=1) == [generator]
    monkeypatch.setitem(paths._WEIGHTS, "scaffold", 1.0)  # weighed as code, its words win
    rank._kind_prior.cache_clear()  # the rank keeps each path's prior: weighed anew, and after
    try:
        assert top_paths(service, "path management for apps", limit=1) == [generator]
    finally:
        rank._kind_prior.cache_clear()


def _fragmented_class() -> str:
    steps = "\n".join(f"    def step_{i}(value)\n      value + {i}\n    end\n" for i in range(14))
    hooks = "\n".join(f"    def hook_{i}(value)\n      value * {i}\n    end\n" for i in range(14))
    return f"module Shop\n  class Application\n{steps}\n    ## Rack internal API\n\n{hooks}\n  end\nend\n"


FRAGMENT_REPO = {
    "lib/shop/application.rb": _fragmented_class(),
    "lib/shop/adapter.rb": "module Shop\n  class Adapter\n"
    "    # Adapts the shop to Rack: the internal API a Rack server calls.\n    def call(env)\n"
    "      status, headers, body = dispatch(env)\n      [status, headers, body]\n    end\n  end\nend\n",
}


def test_a_few_lines_left_between_a_classs_methods_answer_little(tmp_path, monkeypatch):
    service = indexed_service(FRAGMENT_REPO, tmp_path)
    store = service.store
    ids = [row[0] for row in store._conn.execute("SELECT id FROM chunks")]
    fragments = store.fragments(ids)
    assert len(fragments) == 1
    (fragment,) = fragments
    assert fragment.startswith("lib/shop/application.rb:")
    assert "## Rack internal API" in store.chunks_by_id([fragment])[fragment].content
    expected = ["lib/shop/adapter.rb", "lib/shop/application.rb"]
    assert top_paths(service, "rack internal api", limit=2) == expected
    monkeypatch.setattr(rank, "FRAGMENT_WEIGHT", 1.0)  # without the rule, the stray comment wins
    assert top_paths(service, "rack internal api", limit=1) == ["lib/shop/application.rb"]


def test_a_rare_word_naming_a_file_weighs_more_than_a_common_one():
    query = rank.plan("SSL options for connections")
    # Both names hold two of the three words; `connection` is said all over the repository, `ssl` in
    # a few chunks: the file the rare word names is the one asked for.
    candidates = {
        "conn:1": rank.Candidate("options/connection_options.rb", None, None, lexical=1.0),
        "ssl:1": rank.Candidate("options/ssl_options.rb", None, None, lexical=0.98),
    }
    rarity = {"ssl": 6.0, "options": 2.0, "connections": 1.5}
    ranked = rank.rank(query, candidates, limit=2, rarity=lambda words: {w: rarity[w] for w in words})
    assert [chunk_id for chunk_id, _ in ranked] == ["ssl:1", "conn:1"]
    # Without rarity every word counts alike, and the better words of the other file win.
    assert [chunk_id for chunk_id, _ in rank.rank(query, candidates, limit=2)] == ["conn:1", "ssl:1"]
    # A common word never counts less than before; the rarer ones more, by the root of their ratio.
    weights = rank._rarity_weights({"ssl": 6.0, "options": 2.0})
    assert weights["options"] == 1.0
    assert weights["ssl"] == pytest.approx((6.0 / 4.0) ** rank.RARITY_WEIGHT)


RARE_WORD_REPO = {
    # `connection` is in every file; `ssl` only in one file's path: the repository says which word is rare.
    "lib/options/connection_options.rb": "# Options for connections: each connection's options.\n"
    "# Connection options, options of connections, more options.\n"
    "class ConnectionOptions\n  def initialize(connection_timeout, options)\n"
    "    @connection_timeout = connection_timeout\n    @options = options\n  end\nend\n",
    "lib/options/ssl_options.rb": "# Verify certificates, client keys.\nclass TlsSettings\n"
    "  def initialize(verify, ca_file)\n    @verify = verify\n    @ca_file = ca_file\n  end\nend\n",
    "lib/connection.rb": "# A connection: opens the connection, keeps it alive.\nclass Connection\n"
    "  def open_connection\n    :connection\n  end\nend\n",
    "lib/pool.rb": "# A pool of connections; each connection is reused.\nclass Pool\n"
    "  def checkout_connection\n    :connection\n  end\nend\n",
    "lib/adapter.rb": "# Adapters make a connection per request.\nclass Adapter\n"
    "  def build_connection\n    :connection\n  end\nend\n",
}


def test_the_repository_says_which_words_naming_files_are_rare(tmp_path):
    service = indexed_service(RARE_WORD_REPO, tmp_path)
    store = service.store
    rarity = store.lexical_index().rarity(["ssl", "connections", "absent"])
    assert rarity["ssl"] > rarity["connections"] and "absent" not in rarity
    assert top_paths(service, "SSL options for connections", limit=1) == ["lib/options/ssl_options.rb"]


def test_utils_files_are_named_by_helpers():
    assert path_match(rank.plan("boolean conversion helpers").keywords, "lang3/BooleanUtils.java") == 2
    assert path_match(rank.plan("path helpers").keywords, "src/util.go") == 1


def test_a_forwarder_written_after_a_search_is_found_once_indexed(tmp_path):
    """The targets forwarders forward to are read once per index generation: a new forwarder counts
    after the next index, not only in a fresh process."""
    files = {k: v for k, v in FORWARDING_REPO.items() if k.startswith("web/") and k != "web/index.ts"}
    service = indexed_service(files, tmp_path)
    assert service.store.forwarders(["web/router.ts"], Filters()) == []
    (tmp_path / "repo" / "web" / "index.ts").write_text(FORWARDING_REPO["web/index.ts"])
    Indexer(tmp_path / "repo", service.store, workers=0).run()
    found = service.store.forwarders(["web/router.ts"], Filters())
    assert [(f.path, f.target) for f in found] == [("web/index.ts", "web/router.ts")]
    assert top_paths(service, "RouteTable", limit=4)[:2] == ["web/router.ts", "web/index.ts"]


def test_a_server_reads_the_rank_tables_before_its_first_search(tmp_path):
    """warm_caches (a server's start) reads what the rank keeps per index generation, so the first
    search does not pay for it; a store with nothing indexed is left alone."""
    from pramana.code.runtime import warm_caches

    service = indexed_service(FORWARDING_REPO, tmp_path)
    assert service.store._possible.generation == -1  # nothing read yet
    warm_caches(service)
    generation = service.store.generation()
    assert service.store._possible.generation == generation
    assert service.store._folders[0] == generation
    assert "web/router.ts" in service.store._possible.forwarded
    empty = CodeService(CodeStore(tmp_path / "empty.db"), tmp_path / "repo")
    warm_caches(empty)
    assert empty.store._possible.generation == -1
