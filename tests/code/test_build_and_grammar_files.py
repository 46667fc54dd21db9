"""sbt's build files are Scala and the sources of lexer and parser generators are code (issue 28's
OCaml/C#/Scala/Dart held-out set: Jawn's `build.sbt` files and OCamlGraph's `dot_lexer.mll` and
`dot_parser.mly` were text, that is documentation, which search_code leaves out: a query for "where is
the dot format lexed and parsed" could not find them). Snippets of our own."""

from __future__ import annotations

from pramana.code.index.tables import BUILD_AND_GRAMMAR_FILES
from pramana.code.languages import DOC_LANGUAGES, language_of
from pramana.code.parse import parse_file
from pramana.code.service import CodeService
from tests.code.conftest import indexed_service, reindexed_from_before

BUILD_SBT = """name := "orchard-core"

libraryDependencies ++= Seq(
  "org.example" %% "pickers" % "1.2" % "test"
)

lazy val core = project.in(file("core")).settings(orchardSettings)

def orchardSettings = Seq(scalacOptions += "-deprecation")
"""

FRUIT_LEXER = """{
  open Fruit_parser
  exception Bad_crate of string
}

let digit = ['0'-'9']
let ident = ['a'-'z' '_']+

rule crate_token = parse
  | [' ' '\\t' '\\n'] { crate_token lexbuf }
  | digit+ as weight { WEIGHT (int_of_string weight) }
  | "apple" { APPLE }
  | ident as name { BASKET name }
  | eof { EOF }
  | _ { raise (Bad_crate (Lexing.lexeme lexbuf)) }
"""

FRUIT_PARSER = """%token <int> WEIGHT
%token <string> BASKET
%token APPLE EOF
%start <Fruit.crate> crate
%%
crate:
  | BASKET fruits EOF { Fruit.make_crate $1 $2 }
fruits:
  | { [] }
  | APPLE WEIGHT fruits { Fruit.apple $2 :: $3 }
"""

C_GRAMMAR = """%{
#include "orchard.h"
%}
%token PEAR PLUM
%%
harvest: PEAR PLUM { orchard_pick($1, $2); } ;
"""

FRUIT_MODULE = """type crate = { basket : string; fruits : int list }
let make_crate b f = { basket = b; fruits = f }
"""

FILES = {
    "build.sbt": BUILD_SBT,
    "core/src/main/scala/orchard/Crate.scala": "package orchard\n\nclass Crate(val weight: Int)\n",
    "src/fruit_lexer.mll": FRUIT_LEXER,
    "src/fruit_parser.mly": FRUIT_PARSER,
    "cgrammar/harvest.y": C_GRAMMAR,
    "cgrammar/scan.l": '%%\n"pear" { return PEAR; }\n',
    "src/fruit.ml": FRUIT_MODULE,
}


def test_the_files_are_code_in_their_language():
    assert language_of("build.sbt") == "scala" and language_of("project/plugins.sbt") == "scala"
    assert {language_of(p) for p in ("src/fruit_lexer.mll", "cgrammar/scan.l")} == {"lex"}
    assert {language_of(p) for p in ("src/fruit_parser.mly", "cgrammar/harvest.y", "x/parse.yy")} == {"yacc"}
    assert not {"scala", "lex", "yacc"} & DOC_LANGUAGES
    assert language_of("notes/fruit.txt") in DOC_LANGUAGES  # text stays documentation


def test_an_sbt_build_file_has_its_scala_definitions():
    parsed = parse_file("build.sbt", "scala", "root", BUILD_SBT)
    assert {(s.name, s.kind) for s in parsed.symbols} >= {("orchardSettings", "function")}


def test_search_code_finds_the_lexer_and_the_parser(tmp_path):
    service = indexed_service(FILES, tmp_path)
    lexed = [
        c.metadata.filePath
        for c in service.search_code("crate_token lexer rule for the apple keyword", limit=5).chunks
    ]
    assert lexed[0] == "src/fruit_lexer.mll"
    parsed = [
        c.metadata.filePath
        for c in service.search_code("tokens APPLE and WEIGHT in the fruits grammar rule", limit=5).chunks
    ]
    assert parsed[0] == "src/fruit_parser.mly"
    built = [
        c.metadata.filePath
        for c in service.search_code("libraryDependencies of orchard-core", limit=5).chunks
    ]
    assert built[0] == "build.sbt"


def test_an_index_made_before_reads_them_again(tmp_path):
    was_text = (
        "UPDATE files SET language = 'text' WHERE path LIKE '%.sbt' OR path LIKE '%.mll' OR path LIKE '%.mly'"
        " OR path LIKE '%.y' OR path LIKE '%.l'"
    )
    report, reopened, root = reindexed_from_before(BUILD_AND_GRAMMAR_FILES, FILES, tmp_path, was_text)
    again = set(report.changed_paths)
    assert {
        "build.sbt",
        "src/fruit_lexer.mll",
        "src/fruit_parser.mly",
        "cgrammar/harvest.y",
        "cgrammar/scan.l",
    } <= again
    assert "src/fruit.ml" not in again and "core/src/main/scala/orchard/Crate.scala" not in again
    languages = {r.path: r.language for r in (reopened.file(p) for p in FILES) if r is not None}
    assert languages["build.sbt"] == "scala" and languages["src/fruit_parser.mly"] == "yacc"
    found = CodeService(reopened, root).search_code("crate_token lexer rule for the apple keyword", limit=3)
    assert found.chunks[0].metadata.filePath == "src/fruit_lexer.mll"
