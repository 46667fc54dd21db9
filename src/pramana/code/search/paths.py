"""What kind of code a file holds, read from its path: production, or tests, examples and the like.

A developer asking "where is X done" means the code that does it, not its tests, its examples, a
compatibility shim or a type declaration stub; and the public module of a library before its private
`internal/` implementation, a little. Search demotes those (`path_prior`) and the symbol
tools list them after production code (`is_secondary`), unless the question asks for them
(`wants_secondary`). Search also puts the portable code before its Windows-only twin (`src/unix/fs.c`
before `src/win/fs.c`) unless the query names Windows; the symbol tools list both as production code.
"""

from __future__ import annotations

import functools
import posixpath
import re
from collections.abc import Iterable, Sequence
from pathlib import PurePosixPath

from pramana.code import languages

# Test files and folders by each ecosystem's conventions: the table of languages has them
# (`FooTest.java`, `foo_test.go`, `foo_spec.rb`, `test_foo.py`, `src/test/java`, `FooTests/`).
_TEST_FILE = languages.test_file_pattern()
_ECOSYSTEM_TEST_DIR = languages.test_dir_pattern()
# A folder named for its tests with a word or a number more (`integration-tests/`, netcdf's `nf_test4/`,
# hcl's `test-fixtures/`, NUnit's `tests-net45/`) holds tests as well.
_TEST_DIR = re.compile(
    r"(?:^|/)(?:tests?|__tests__|__mocks__|spec|specs|testing|testdata|test_?utils)(?:/|$)"
    r"|(?:^|/)(?:[\w.-]+[-_]tests?\d*|tests?\d*[-_][\w.-]+|tests?\d+)/"
)
_FIXTURE_DIR = re.compile(r"(?:^|/)(?:fixtures?|mocks?|stubs?)(?:/|$)")
# `man/`: a manual's folder; code in it is the manual's example (xmonad's man/xmonad.hs, a sample config).
# A folder named for its examples with a word more (attrs' `typing-examples/`, `code_samples/`,
# `examples-js/`) holds examples as well.
_EXAMPLE_DIR = re.compile(
    r"(?:^|/)(?:_?examples?|samples?|demos?|docs?_src|tutorials?|man"
    r"|[\w.-]+[-_](?:examples?|samples?|demos?)|(?:examples?|samples?|demos?)[-_][\w.-]+)(?:/|$)"
)
_BENCH = re.compile(r"(?:^|/)(?:benches|benchmarks?|bench)(?:/|$)|(?:^|/)bench_[^/]*$|_bench\.\w+$")
_COMPAT = re.compile(r"(?:^|/)(?:_?compat|legacy|deprecated|polyfills?)(?:/|\.\w+$|$)")
_DECLARATION = re.compile(r"\.d\.[cm]?ts$|\.pyi$")
# Generated code, and code copied in from elsewhere under a folder the walk does not skip (C and C++
# projects' `thirdparty/`, `3rdparty/`: nlohmann-json's `thirdparty/hedley`): not the project's own.
# Sphinx's `_static/` holds the scripts and styles of a documentation site (jQuery, Sphinx's own
# searchtools.js and doctools.js, copied into a built site such as lxml's doc/html/apidoc, or a
# project's site customizations): not the project's code either.
_GENERATED = re.compile(
    r"(?:^|/)(?:generated|gen|_generated|thirdparty|3rdparty|_static)(?:/|$)|[._-]generated\.\w+$|_pb2\.py$"
)
_REEXPORT = languages.reexport_names()
_MODULE_FOLDERS = languages.module_folder_languages()
_C_HEADERS = languages.language("c").headers + languages.language("cpp").headers
# A library's private implementation folder (absl's `container/internal/`, pydantic's `_internal/`, Go's
# `internal/` packages): the public module beside it (`hash/hash.h`, `fields.py`) is where a user of
# the library reads how a thing works, and it names what the internal one implements.
_PRIVATE = re.compile(r"(?:^|/)_?internal/")
# Code that writes code into the user's project (Rails' and Thor's `generators/`, Yeoman's): its templates
# and prompts name every part of the framework it sets up, but it is not where that part works.
_SCAFFOLD = re.compile(r"(?:^|/)generators/")
# A command's script: a file right inside a folder of commands (`bin/plackup`, `script/morbo`,
# `exe/rspec`, `libexec/rbenv-exec`). Its code hands the work to a module of the library (`use
# Plack::Runner`), its documentation (Perl's POD) says what that module does.
_COMMAND = re.compile(r"(?:^|/)(?:bin|exe|scripts?|libexec)/[^/]+$")
# Code for Windows alone, beside the portable or POSIX code of the same parts (libuv's `src/win/` beside
# `src/unix/`, tokio's `net/windows/`, Go's `process_collector_windows.go`, libevent's `evthread_win32.c`):
# written against another API, it says every part's words again (files, pipes, handles) at more length,
# and a reader asking how a part works reads the common code first.
_PLATFORM = re.compile(r"(?:^|/)(?:win|win32|win64|windows)(?:/|$)|[_-](?:win|win32|win64|windows)\.\w+$")
# Configuration and data next to the code (manifests, CI workflows): code search wants code first.
_CONFIG = re.compile(r"\.(?:json|jsonc|toml|ya?ml|ini|cfg|conf|lock|xml|plist|properties)$|(?:^|/)\.[^/]+/")

# Words in a query that ask for what is otherwise demoted.
_ASKS_FOR_TESTS = frozenset(
    {"test", "tests", "testing", "spec", "specs", "fixture", "fixtures", "mock", "mocks"}
)
_ASKS_FOR_EXAMPLES = frozenset(
    {"example", "examples", "sample", "samples", "demo", "tutorial", "man", "manpage", "manpages"}
)
_ASKS_FOR_BENCH = frozenset({"benchmark", "benchmarks", "bench"})
_ASKS_FOR_COMPAT = frozenset({"compat", "compatibility", "legacy", "deprecated", "polyfill"})
# "how the tables implement probing" asks how it is done inside: the private code is an answer as good.
_ASKS_FOR_PRIVATE = frozenset(
    {"internal", "internals", "private", "implement", "implements", "implemented", "implementation"}
)
_ASKS_FOR_SCAFFOLD = frozenset(
    {"generator", "generators", "generate", "generates", "generating", "scaffold", "scaffolding", "scaffolds"}
)
_ASKS_FOR_PLATFORM = frozenset({"windows", "win", "win32", "win64", "winapi", "msvc"})
_ASKS_FOR_CONFIG = frozenset(
    {"config", "configuration", "manifest", "dependency", "dependencies", "ci", "workflow", "settings",
     "json", "toml", "yaml", "yml", "package", "cargo"}
)  # fmt: skip

TEST, EXAMPLE, BENCH, COMPAT, DECLARATION, GENERATED, REEXPORT, CONFIG, PRIVATE, SCAFFOLD, PLATFORM = (
    "test", "example", "benchmark", "compat", "declaration", "generated", "reexport", "config", "private",
    "scaffold", "platform",
)  # fmt: skip
# How much each kind is worth next to production code, when the query does not ask for it.
_WEIGHTS = {
    TEST: 0.3,
    EXAMPLE: 0.35,
    BENCH: 0.35,
    COMPAT: 0.4,
    GENERATED: 0.4,
    DECLARATION: 0.7,
    REEXPORT: 0.7,
    CONFIG: 0.5,
    PRIVATE: 0.8,
    SCAFFOLD: 0.7,
    PLATFORM: 0.7,
}


@functools.lru_cache(maxsize=65_536)
def path_kinds(path: str) -> frozenset[str]:
    """The secondary kinds a repository path belongs to (empty for production code)."""
    path = path.replace("\\", "/")
    lowered = path.lower()
    kinds = set()
    # Where folders are module names, `Test/` is a namespace (Haskell's Test.Hspec): test folders
    # are the lower-case ones only.
    folders = path if languages.language_of(path) in _MODULE_FOLDERS else lowered
    tests = _TEST_FILE.fullmatch(posixpath.basename(path)) or _ECOSYSTEM_TEST_DIR.search(path)
    if tests or _TEST_DIR.search(folders) or _FIXTURE_DIR.search(folders):
        kinds.add(TEST)
    if _EXAMPLE_DIR.search(lowered):
        kinds.add(EXAMPLE)
    if _BENCH.search(lowered):
        kinds.add(BENCH)
    if _COMPAT.search(lowered):
        kinds.add(COMPAT)
    if _DECLARATION.search(lowered):
        kinds.add(DECLARATION)
    if _GENERATED.search(lowered):
        kinds.add(GENERATED)
    if PurePosixPath(path).name in _REEXPORT:
        kinds.add(REEXPORT)
    if _CONFIG.search(lowered):
        kinds.add(CONFIG)
    if _PRIVATE.search(lowered):
        kinds.add(PRIVATE)
    if _SCAFFOLD.search(lowered):
        kinds.add(SCAFFOLD)
    if _PLATFORM.search(lowered):
        kinds.add(PLATFORM)
    return frozenset(kinds)


_VERSION_FOLDER = re.compile(r"v(\d+(?:\.\d+)*)", re.IGNORECASE)


def older_version_folders(paths: Iterable[str]) -> frozenset[str]:
    """Folders of a repository that keep an older version, each ending with '/': a `vN/` with a
    sibling `vM/`, M > N (zod's `v3/` beside `v4/`; a documentation site's `v1.5/` beside `v1.6/`), and
    a `v1/` beside the code of its folder (pydantic's `v1/` beside `main.py`: the current version needs
    no number there)."""
    versions: dict[str, dict[tuple[int, ...], str]] = {}  # parent folder -> {N: the vN folder}
    folders: set[str] = set()
    code_folders: set[str] = set()
    for path in paths:
        folder = posixpath.dirname(path)
        folders.add(folder)
        if languages.language_of(path) in languages.PARSED_LANGUAGES:
            code_folders.add(folder)
    for folder in folders:
        parts = folder.split("/")
        for depth, part in enumerate(parts):
            found = _VERSION_FOLDER.fullmatch(part)
            if found:
                number = tuple(int(n) for n in found[1].split("."))
                versions.setdefault("/".join(parts[:depth]), {})[number] = "/".join(parts[: depth + 1])
    return frozenset(
        folder + "/"
        for parent, siblings in versions.items()
        for number, folder in siblings.items()
        if number < max(siblings) or (siblings.keys() == {(1,)} and parent in code_folders)
    )


def headed_folders(paths: Iterable[str]) -> frozenset[str]:
    """Folders of code with a head file named like the folder, beside it (`rack/` beside `rack.rb`:
    Ruby's `lib/x.rb` requiring `lib/x/*`; `ecto/query/` beside `query.ex`, `task/` beside `task.rs`)
    or inside it (Go's `middleware/middleware.go`), or named as its language names a folder's module
    (Lua's `telescope/init.lua`). The head is the folder's entry point: what the folder's name stands
    for."""
    code = [path for path in paths if languages.language_of(path) in languages.PARSED_LANGUAGES]
    stems = {posixpath.splitext(path)[0] for path in code}
    heads = languages.head_names()
    folders = {posixpath.dirname(path) for path in code} - {""}
    headed = {posixpath.dirname(path) for path in code if posixpath.basename(path) in heads} - {""}
    return frozenset(
        folder
        for folder in folders
        if folder in stems or posixpath.join(folder, posixpath.basename(folder)) in stems or folder in headed
    )


def version_prior(
    path: str, older: frozenset[str], named: frozenset[str], wanted: frozenset[str] = frozenset()
) -> float:
    """An older major version kept beside the newer one (`v3/` beside `v4/`) is kept for
    compatibility: weighed as compat code, unless the query asks for compat code or names that
    version (`named`: the query's words like "v3", lower-cased)."""
    if COMPAT in wanted:
        return 1.0
    for folder in older:
        if path.startswith(folder) and folder.rstrip("/").rsplit("/", 1)[-1].lower() not in named:
            return _WEIGHTS[COMPAT]
    return 1.0


def is_command(path: str) -> bool:
    """Whether the path is a command's script (_COMMAND)."""
    return bool(_COMMAND.search(path))


def command_module(script: str, targets: Iterable[str]) -> str | None:
    """The module a command's script runs, of the repository files it uses (`targets`): the one named
    like the script (`script/morbo` runs `Mojo/Server/Morbo.pm` beside `Mojo/Base.pm`), else the only
    one (`script/plackup` uses `Plack/Runner.pm` alone); never another command (`libexec/rbenv-exec`
    sourcing `libexec/rbenv-version-name` is one command calling another, not a library)."""
    modules = [target for target in dict.fromkeys(targets) if not is_command(target)]
    named = _command_key(script)
    for module in modules:
        if _command_key(module) == named:
            return module
    return modules[0] if len(modules) == 1 else None


def _command_key(path: str) -> str:
    return posixpath.splitext(posixpath.basename(path))[0].lower().replace("_", "").replace("-", "")


def is_secondary(path: str) -> bool:
    """Tests, fixtures, examples, benchmarks, compat code, stubs or generated code."""
    return bool(path_kinds(path) - {REEXPORT, CONFIG, PRIVATE, SCAFFOLD, PLATFORM})


# Each kind and the words that ask for it.
_ASKED_KINDS = (
    (TEST, _ASKS_FOR_TESTS),
    (EXAMPLE, _ASKS_FOR_EXAMPLES),
    (BENCH, _ASKS_FOR_BENCH),
    (COMPAT, _ASKS_FOR_COMPAT),
    (CONFIG, _ASKS_FOR_CONFIG),
    (PRIVATE, _ASKS_FOR_PRIVATE),
    (SCAFFOLD, _ASKS_FOR_SCAFFOLD),
    (PLATFORM, _ASKS_FOR_PLATFORM),
)


def wanted_kinds(words: set[str]) -> frozenset[str]:
    """The kinds a query asks for by name ("tests for the router" wants tests)."""
    return frozenset(kind for kind, asking in _ASKED_KINDS if words & asking)


# A word that asks for tests ("tests", "spec", "fixture") which a repository's own code says in a
# fifth or more of its production chunks is that repository's subject, not a request for its test
# suite: a test framework's "test" (ExUnit 0.50, bats-core 0.48, mocha 0.37, busted 0.24; hspec's
# "test" 0.94, its "spec" 0.19). 60 other projects of every language measured say "test" in 0.17 of
# their production chunks at most (regex-syntax; jinja2 0.15, zig's std 0.15). There "the slowest
# tests" or "a failed test" name what the code does, and test files stay weighed as tests.
TESTS_AS_SUBJECT = 0.2


def test_words(words: Iterable[str]) -> frozenset[str]:
    """The words of a query that ask for tests (`wanted_kinds`)."""
    return frozenset(words) & _ASKS_FOR_TESTS


def production_chunks(chunk_paths: Iterable[str], in_file_tests: Iterable[bool] | None = None) -> list[bool]:
    """Whether each chunk (`chunk_paths`: each chunk's path; `in_file_tests`: whether each is test code
    inside a source file, none if not given) is production code, not a test."""
    production = [TEST not in path_kinds(path) for path in chunk_paths]
    if in_file_tests is None:
        return production
    return [kept and not test for kept, test in zip(production, in_file_tests, strict=True)]


def in_file_test_prior(path: str, wanted: frozenset[str] = frozenset()) -> float:
    """A chunk of test code inside a source file (a Rust `#[cfg(test)] mod tests {}`) weighed as a
    test file's chunk is (path_prior), unless the query asks for tests or the file is a test already."""
    if TEST in wanted or TEST in path_kinds(path):
        return 1.0
    return _WEIGHTS[TEST]


def production_share(production: Sequence[bool], holding: Iterable[int]) -> float:
    """The share of the production chunks (`production`: production_chunks) that hold a word
    (`holding`: the positions of the chunks that do); 0 when there is no production code."""
    count = sum(production)
    return sum(1 for position in set(holding) if production[position]) / count if count else 0.0


def declarations_prior(path: str, named: bool, wanted: frozenset[str] = frozenset()) -> float:
    """A C or C++ header's lines outside every definition are its prototypes, the declarations of
    what its implementation defines: weighed as a type stub is, unless the query asks for stubs. Its
    definitions (a struct, an inline function, a template) are code. (An OCaml interface's `val`s
    are not weighed so: its documentation lives there, where the `.ml` has little.)"""
    if named or DECLARATION in wanted or posixpath.splitext(path)[1] not in _C_HEADERS:
        return 1.0
    return _WEIGHTS[DECLARATION]


def path_prior(path: str, wanted: frozenset[str] = frozenset()) -> float:
    """A multiplier in (0, 1]: 1 for production code, less for each unasked-for secondary kind."""
    weight = 1.0
    for kind in path_kinds(path):
        if kind not in wanted:
            weight *= _WEIGHTS[kind]
    return weight
