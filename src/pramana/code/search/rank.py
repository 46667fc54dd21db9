"""Ranking search candidates the way a developer reads a code base.

BM25 and cosine scores say how well a chunk's words match the query. A developer also knows:
- a bare identifier (`HTTPAdapter`, `parse_config`, `Router.handle`) asks for its definition;
  a sentence asks about behaviour, where meaning counts as much as words;
- identifiers a sentence mentions (`MapAccess`, `safeParse`) point at their definitions;
- a file named like the topic (`completions.go` for "shell completion", `ctx.py` for "request
  context": names abbreviate, ABBREVIATIONS) is likely the answer, and so
  is one named for the doer of what the query says is done, when another word names it too
  (`ObjectReader.java` for "reading JSON into objects", `JsonFormatter.php` for "json log formatting");
- a file with several good chunks is a better answer than one lucky chunk;
- a file that defines what is asked says so once: its other pieces of the definition (a long class cut
  in chunks, a signature beside its module) come after the other files that answer;
- of a family of files among the best (`MutableTriple`, `ImmutableTriple`, `Triple`;
  `bash_completions.go`, `completions.go`), the one the others are named after and refer to (the base
  class, the core type) is where to start reading, after the member the query describes if it ranks
  above (`HtmlReportWriter` for "an HTML report");
- tests, examples, benchmarks, compat shims and stubs are rarely what is asked for (paths.py), but a
  bare name defined in test code alone asks for that code;
- ten chunks from one file hide the other files that answer too;
- a small file that only includes or re-exports the answer (an umbrella header like `fmt/core.h`
  including `base.h`, an `index.ts` of one module) is where users of that code look for it: it
  follows its target, a little below it;
- a C or C++ header and its implementation beside it (`idna.h`, `idna.c`; `status.h`, `status.cc`;
  `os.h`, `os-inl.h`) are one unit read together: when one is among the best files, the other follows it;
- a type the query names is read with the types its header builds on (`trait Applicative extends
  Apply`, `interface ZodError extends $ZodError`, `class Session(Base)`): what the named type
  inherits is half of how it works, so the supertypes follow it, a little below it.

`plan` reads the query once; `rank` combines the evidence into one ordering. Boosts are scaled by the
best base score of the query, so they mean the same whatever the BM25 or cosine magnitudes are.
"""

from __future__ import annotations

import functools
import heapq
import operator
import posixpath
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from pramana.code import languages
from pramana.code.records import DefinitionChunk, Forwarder
from pramana.code.search.paths import (
    PRIVATE,
    TEST,
    declarations_prior,
    in_file_test_prior,
    path_kinds,
    path_prior,
    version_prior,
    wanted_kinds,
)
from pramana.code.search.terms import STOP_WORDS, query_terms
from pramana.text.identifiers import glued_acronyms, split_identifier
from pramana.text.stem import stem

# A whole query that is one identifier, possibly qualified: Foo, fooBar, foo_bar, _private, A.b, a::B.
_SYMBOL_QUERY = re.compile(
    r"^(?:[A-Za-z_$][\w$]*(?:(?:::|\.|->|#)[A-Za-z_$][\w$]*)+"  # qualified
    r"|_[\w$]*"  # leading underscore
    r"|[A-Za-z$][A-Za-z0-9$]*[A-Z_][\w$]*"  # an inner capital or underscore
    r"|[A-Z][\w$]*)$"  # capitalised
)
_QUALIFIER = re.compile(r"::|\.|->|#")
# A qualified name inside a sentence: `fmt::format`, `conn->send` (a dot is also a sentence's or a
# file name's, so only `::` and `->` say so there).
_QUALIFIED = re.compile(r"[A-Za-z_$][\w$]*(?:(?:::|->)[A-Za-z_$][\w$]*)+")
# `std::ostream` is the standard library's (C++, Rust), not a definition of the repository.
STANDARD_ROOTS = frozenset({"std"})
_WORD = re.compile(r"[A-Za-z_$][\w$]*")
# An abbreviation written in capitals, plural or not: JSON, HTTP, URLs, DFA (not RE2, IOError, HTTPClient).
_ACRONYM = re.compile(r"^[A-Z]{2,5}s?$")
_VERSION_WORD = re.compile(r"\bv\d+(?:\.\d+)*\b")
# Identifier-shaped words inside a sentence: camelCase, PascalCase with two humps, snake_case.
_EMBEDDED_IDENTIFIER = re.compile(
    r"^(?:[a-z][a-z0-9]*[A-Z]\w*|[A-Z][a-z0-9]+[A-Z]\w*|[A-Za-z]\w*_\w+|[A-Z]{2,}[a-z]\w*)$"
)

# Weight of the dense (cosine) score against the lexical (BM25) one, by query shape.
DENSE_WEIGHT_SYMBOL = 0.3
DENSE_WEIGHT_SENTENCE = 0.5
DEFINITION_BOOST = 3.0  # a chunk defining the symbol the query is
MENTION_SCALE = 0.5  # a symbol a sentence mentions counts half
PHRASE_SCALE = 0.1  # a chunk named by neighbouring words of a sentence (`parse config`)
# A chunk holding a constant's name a sentence writes out and nothing defines (gather.py): half a mention.
VERBATIM_SCALE = MENTION_SCALE / 2
LOOSE_PHRASE_SCALE = 0.075  # the same word by word, by stems or prefixes ("arguments stored": `arg_store`)
EXACT, LOOSE = "exact", "loose"
OTHER_OWNER_SCALE = 0.3  # `A.b` asked, a `b` of another owner found
STEM_BONUS = 1.5  # the definition sits in a file named after the symbol
MARKED_SCALE = 0.5  # `$ZodType` or `_Router` asked as `ZodType` or `Router`
# A name declared in a chunk of another name (a prototype, an interface block's entry) where another
# file gives it a chunk of its own (its body).
DECLARED_SCALE = 0.8
_MARKS = ("$", "_")
# A name defined in more files than this is a namespace every file reopens (`module Rack`, `namespace
# fmt`, `package main`), not a definition that answers: its boost shrinks in proportion.
COMMON_DEFINITION_FILES = 4
PATH_MATCH_BOOST = 1.0  # a sentence's words naming the file (scaled by the share of words matched)
MIN_PATH_MATCH = 0.1
# A rare word naming a file names it more surely than a common one (`_rarity_weights`): the exponent
# of its rarity over the mean of the words naming candidate files. Chosen on both benchmarks (every
# held-out set and semble's 18): 0.25, 0.5, 0.75, 1.0 (docs/benchmarks.md, "What semble wins").
RARITY_WEIGHT = 0.5
# A file's name is named the more precisely the more of its parts the query names: "module definition"
# names `ModuleDefinitionBuilder` (2 of 3 parts) better than `ModuleDefinitionBuilderComposeExtension`
# (2 of 5). A name match counts (1 - NAME_COVER_SHARE) + NAME_COVER_SHARE x the share of its parts named.
NAME_COVER_SHARE = 0.2
# A word naming a folder that has a head file beside it (`rack/` beside `rack.rb`) names the head: a
# file of the folder named by no other word (`rack/logger.rb`) is named by it this much.
HEADED_FOLDER_SHARE = 0.5
# A few lines left between a definition's members (`private`, an alias, `## Internal API`) embed close to
# many sentences, having few words of their own: alone, they answer little.
FRAGMENT_WEIGHT = 0.5
FRAGMENT_LINES = 3
# A package's documentation written in its code (Rust's crate root `lib.rs` outside its definitions, its
# `//!` guide and `mod` list; Go's `doc.go`) names every part of the package and does none of it:
# weighed as a C header's prototypes are (paths' DECLARATION), after the code that does what it names.
PACKAGE_DOC_WEIGHT = 0.7
COHERENCE_BOOST = 0.2  # a file's best chunk gains by the file's total evidence
# Each further chunk of one file counts this much less: the answer lists the files that answer
# before a second look into one (0.5 before the architecture round; 0.4 to 0.1 all list the same
# files on every set measured, see docs/benchmarks.md).
SAME_FILE_DECAY = 0.4
REFERENCED_BOOST = 0.1  # for each of the best files that refers to a file's namesake type
PASS_MARGIN = 1e-9  # of the top score: a lifted head stays this far below a member the query describes
MAX_REFERRERS = 3
FORWARD_SHARE = 0.8  # a file forwarding to an answer scores this much of its target's score
PAIR_SHARE = 0.9  # a header's implementation beside it (or the implementation's header) follows it
# The module a command's script runs (`lib/Plack/Runner.pm` of `script/plackup`) follows the script: the
# script's documentation says what the module does, the module does it.
COMMAND_SHARE = PAIR_SHARE
# A supertype of a type the query names: for a bare name (`ZodError`) it comes right after that
# type's definition; for a sentence that mentions the type, it is a mention of its own, at half strength.
SUPERTYPE_SHARE = 0.9
SUPERTYPE_SCALE = 0.5
MAX_SUPERTYPES = 3  # per named type: a header naming more lists interfaces, not what it builds on
TYPE_CHUNKS = frozenset({"class", "interface", "type"})
HEADER_LINES = 8  # a definition's header (its name to its body) spans at most this many lines
# Where a header ends: the body's opening brace, Python's colon, Scala's or Kotlin's `=`.
_HEADER_END = re.compile(r"[{]|:\s*(?:#.*)?$|=\s*$")
_COMMENT_STARTS = ("//", "/*", "*", "#", "--", ";", "%")  # a doc comment before the header names it too
_TYPE_ARGUMENTS = re.compile(r"<[^<>]*>|\[[^\[\]]*\]")  # innermost `<...>` or `[...]`
_MODULE_SEPARATORS = re.compile(r"[./:\\]+")
_TYPE_NAME = re.compile(r"(?<![\w$])[$_]*[A-Z][\w$]*")
MIN_PREFIX = 3
LANGUAGE_NAMES = frozenset(
    {"python", "py", "javascript", "js", "typescript", "ts", "go", "golang", "rust", "rs", "node", "nodejs"}
)


@dataclass(frozen=True)
class QueryPlan:
    text: str
    words: tuple[str, ...]  # terms for BM25
    keywords: frozenset[str]  # content words, for matching file names
    symbol_query: bool  # the whole query is one identifier
    symbols: tuple[str, ...]  # names whose definitions the query asks for or mentions
    owner: str | None  # `A` of a qualified `A.b`
    wanted: frozenset[str]  # secondary path kinds the query asks for (paths.py)
    phrases: frozenset[str] = frozenset()  # neighbouring words joined, to match identifiers
    phrase_words: tuple[str, ...] = ()  # the plain words in order, to match identifiers word by word
    versions: frozenset[str] = frozenset()  # versions the query names ("v3"), lower-cased
    # Names a sentence says qualified (`fmt::format`, `Repo->get`): name -> its owner.
    owners: Mapping[str, str] = field(default_factory=dict)
    every_word: frozenset[str] = frozenset()  # the query's words and their parts, lower-cased


@dataclass(slots=True)
class Candidate:
    path: str
    name: str | None
    parent: str | None
    lexical: float = 0.0
    dense: float | None = None
    definition: float = 0.0  # strength of the best definition boost it earned
    score: float = 0.0


_SCORE, _LEXICAL = operator.attrgetter("score"), operator.attrgetter("lexical")
_NO_SCORE = float("-inf")


def _file_score(item: tuple[str, tuple[str, float]]) -> float:
    """A file's (path, (best chunk, its score)): the score."""
    return item[1][1]


def plan(query: str, words: Iterable[str] | None = None) -> QueryPlan:
    """Read a query once: its BM25 terms, its shape and the symbols it names."""
    text = query.strip()
    symbol_query = bool(_SYMBOL_QUERY.match(text))
    owner = None
    owners: dict[str, str] = {}
    if symbol_query and _QUALIFIER.search(text):
        parts = [p for p in _QUALIFIER.split(text) if p]
        symbols: tuple[str, ...] = (parts[-1],)
        owner = parts[-2] if len(parts) > 1 else None
    elif symbol_query:
        symbols = (text,)
    else:
        found = list(_WORD.finditer(text))
        raw = [m.group() for m in found]
        # A word joined to another by a hyphen is part of a compound ("D-Bus", "X-Forwarded-For"):
        # no identifier holds a hyphen, so its capital names no definition.
        compound = {i for i, m in enumerate(found) if _in_compound(text, m.start(), m.end())}
        qualified = (_QUALIFIER.split(q) for q in _QUALIFIED.findall(text))
        owners = {parts[-1]: parts[-2] for parts in qualified if parts[0] not in STANDARD_ROOTS}
        symbols = tuple(
            dict.fromkeys(
                w
                for i, w in enumerate(raw)
                if _EMBEDDED_IDENTIFIER.match(w)
                or (i > 0 and i not in compound and w[:1].isupper())
                or w in owners
            )
        )
        # A word in capitals (JSON, HTTP, DFA) is the domain's abbreviation of ordinary words, not
        # the name of one definition: in a sentence it is searched as a word, not asked for.
        acronyms = {w for w in raw if _ACRONYM.match(w)}
        symbols = tuple(s for s in symbols if s not in acronyms)
        # A leading capitalised word is a symbol only if it is not an ordinary sentence opener.
        opener = raw[0] if raw and 0 not in compound else ""
        if opener[:1].isupper() and opener.lower() not in STOP_WORDS and opener not in acronyms:
            symbols = (raw[0], *[s for s in symbols if s != raw[0]])
        # One lower-case word alone (`deepcompare`, `memoize`: Lua's, C's, Bash's names) may be a
        # name: its definitions count as a mention's.
        if len(raw) == 1 and raw[0] == text and raw[0].lower() not in STOP_WORDS:
            symbols = (raw[0],)
    keywords = frozenset(w.lower() for w in _WORD.findall(text) if len(w) > 2 and w.lower() not in STOP_WORDS)
    search_words = list(words) if words is not None else _search_words(text)
    every_word = {p for w in _WORD.findall(text) for p in [w.lower(), *split_identifier(w)]}
    return QueryPlan(
        text=text,
        words=tuple(search_words),
        keywords=keywords,
        symbol_query=symbol_query,
        symbols=symbols,
        owner=owner,
        wanted=wanted_kinds(every_word),
        phrases=_phrases(text) if words is None else frozenset(),
        phrase_words=_phrase_words(text) if words is None else (),
        versions=frozenset(_VERSION_WORD.findall(text.lower())),
        owners=owners,
        every_word=frozenset(every_word),
    )


def _in_compound(text: str, start: int, end: int) -> bool:
    """Whether the word at text[start:end] is hyphenated to a neighbouring word."""
    before = start >= 2 and text[start - 1] == "-" and text[start - 2].isalnum()
    return before or (text[end : end + 1] == "-" and text[end + 1 : end + 2].isalnum())


def _search_words(text: str) -> list[str]:
    """The query's BM25 terms. A language's name ("python function to read a file") says which
    language, not what the code says, so it is dropped when there is more to search for."""
    found = query_terms(text)
    content = [w for w in found if w not in LANGUAGE_NAMES]
    return content or found


def _phrase_words(text: str) -> tuple[str, ...]:
    """The query's plain words, lower-cased, in order, without stop words."""
    return tuple(w.lower() for w in _WORD.findall(text) if w.isalpha() and w.lower() not in STOP_WORDS)


def _phrases(text: str) -> frozenset[str]:
    """Runs of two or three neighbouring words joined: `parse config` names `parseConfig` and
    `parse_config` (names are compared lower-cased without underscores)."""
    plain = _phrase_words(text)
    return frozenset("".join(plain[i : i + n]) for n in (2, 3) for i in range(len(plain) - n + 1))


def names_phrase(query: QueryPlan, name: str | None) -> str | None:
    """Whether neighbouring words of the query name the identifier: EXACT when `parse config` names
    `parseConfig`; LOOSE when they do word by word allowing a shared stem or prefix ("dynamic
    format arguments are stored" names `dynamic_format_arg_store`); else None."""
    if not name:
        return None
    key, parts = _phrase_form(name)
    if key in query.phrases:
        return EXACT
    return LOOSE if parts is not None and _names_words_of(query.phrase_words, parts) else None


@functools.lru_cache(maxsize=65_536)
def _phrase_form(name: str) -> tuple[str, tuple[str, ...] | None]:
    """An identifier as a phrase names it: lower-cased without underscores (`parseconfig`), and its
    words (two to four, letters only), else None: most candidates' names are not, and need no
    comparing with a query's words. Once per name: a candidate's name is asked of every query."""
    parts = tuple(split_identifier(name))
    worded = 2 <= len(parts) <= 4 and all(part.isalpha() for part in parts)
    return name.lower().replace("_", ""), parts if worded else None


@functools.lru_cache(maxsize=65_536)
def _names_words_of(words: tuple[str, ...], parts: tuple[str, ...]) -> bool:
    return any(
        all(_same_word(part, word) for part, word in zip(parts, words[i : i + len(parts)], strict=True))
        for i in range(len(words) - len(parts) + 1)
    )


def _same_word(part: str, word: str) -> bool:
    if part == word:
        return True
    shorter, longer = (part, word) if len(part) <= len(word) else (word, part)
    return (len(shorter) >= MIN_PREFIX and longer.startswith(shorter)) or stem(part) == stem(word)


def written_name(word: str) -> bool:
    """Whether a sentence's word is a constant's name, capitals joined by underscores (`SPDLOG_LEVEL`,
    `BATS_LIB_PATH`): an environment variable or a key written out where it is read. Not an option's
    snake_case name (`html_input`, written wherever options are passed on), nor a name in prose
    (`JavaScript`, `JUnit`)."""
    return "_" in word.strip("_") and word.upper() == word


def dense_weight(query: QueryPlan, sentence_weight: float | None = None) -> float:
    """The share of the dense score: an embedder may say how far its vectors are trusted for sentences."""
    if query.symbol_query:
        return DENSE_WEIGHT_SYMBOL
    return DENSE_WEIGHT_SENTENCE if sentence_weight is None else sentence_weight


def marked_names(symbols: Iterable[str]) -> tuple[str, ...]:
    """The names of `symbols` with a leading `$` or `_`: `$ZodType` (zod's core), `_Router`."""
    return tuple(f"{mark}{name}" for name in symbols for mark in _MARKS if not name.startswith(_MARKS))


def definition_strength(
    query: QueryPlan, name: str, parent: str | None, path: str, defining_files: int = 1
) -> float:
    """How strongly a definition of `name` (owned by `parent`, in `path`; `defining_files` files
    define the name) answers the query. `$ZodType` answers `ZodType` at MARKED_SCALE: the same name
    marked internal or core, after the definition of the name itself."""
    strength = 1.0 if query.symbol_query else MENTION_SCALE
    if name not in query.symbols and name.lstrip("".join(_MARKS)) in query.symbols:
        strength *= MARKED_SCALE
    if query.owner is not None and not owned_by(parent, query.owner):
        strength *= OTHER_OWNER_SCALE
    elif name in query.owners and parent is not None and not owned_by(parent, query.owners[name]):
        strength *= OTHER_OWNER_SCALE  # `fmt::format` said: a method `format` of a formatter is another
    strength *= min(1.0, COMMON_DEFINITION_FILES / max(defining_files, 1))
    if _stem_matches(PurePosixPath(path).stem, name):
        strength *= STEM_BONUS
    return strength


def owned_by(parent: str | None, owner: str) -> bool:
    """`Repo` owns what `Ecto.Repo` or `shop::Repo` owns: a parent matches by its last part too."""
    if parent is None:
        return False
    return parent == owner or parent.endswith(("." + owner, "::" + owner, ":" + owner))


def rank(
    query: QueryPlan,
    candidates: dict[str, Candidate],
    limit: int,
    *,
    apply_priors: bool = True,
    sentence_weight: float | None = None,
    forwarders: Callable[[Sequence[str]], Iterable[Forwarder]] | None = None,
    supertypes: Mapping[str, Sequence[DefinitionChunk]] | None = None,
    older_versions: frozenset[str] = frozenset(),
    headed: frozenset[str] = frozenset(),
    fragments: Callable[[Sequence[str]], AbstractSet[str]] | None = None,
    package_docs: Callable[[Sequence[str]], AbstractSet[str]] | None = None,
    in_file_tests: Callable[[Sequence[str]], AbstractSet[str]] | None = None,
    command_modules: Mapping[str, str] | None = None,
    namesake_references: Callable[[Sequence[str], Sequence[str]], Iterable[tuple[str, str, str]]]
    | None = None,
    rarity: Callable[[Iterable[str]], Mapping[str, float]] | None = None,
) -> list[tuple[str, float]]:
    """The best `limit` candidates as (chunk id, score), most relevant first. `forwarders` gives the
    files forwarding to some paths (CodeStore.forwarders), so that they follow the best files;
    `supertypes` the definitions each named type's chunk builds on (header_types), which follow it;
    `older_versions` the folders of superseded versions (paths.older_version_folders); `headed` the
    folders with a head file beside or in them (paths.headed_folders); `fragments` which of some
    chunks are left between a definition's members (CodeStore.fragments); `package_docs` which are
    a package's documentation (CodeStore.package_docs); `in_file_tests` which are test code inside a
    source file (CodeStore.in_file_tests); `command_modules` the module each command's
    script runs (CodeStore.command_modules)."""
    if not candidates:
        return []
    if supertypes and not query.symbol_query:
        _mention_supertypes(candidates, supertypes)
    best_lexical = max(map(_LEXICAL, candidates.values()), default=0.0) or 1.0
    dense_scores = [c.dense for c in candidates.values() if c.dense is not None]
    weight = dense_weight(query, sentence_weight) if dense_scores else 0.0
    low, high = (min(dense_scores), max(dense_scores)) if dense_scores else (0.0, 1.0)
    spread = (high - low) or 1.0
    lexical_weight = 1 - weight
    for c in candidates.values():
        dense = (c.dense - low) / spread if c.dense is not None else 0.0
        c.score = weight * dense + lexical_weight * c.lexical / best_lexical
    top = max(map(_SCORE, candidates.values())) or 1.0
    # its per-part look-ups serve the shares and asked_private
    naming = _Naming(query.keywords, _plain_words(query.text))
    shares = _path_shares(query.keywords, {c.path for c in candidates.values()}, headed, rarity, naming)
    definition_boost, path_boost = DEFINITION_BOOST * top, PATH_MATCH_BOOST * top
    _raise_phrase_definitions(query, candidates.values())
    carriers = _definition_carriers(candidates.values())
    for c in candidates.values():
        if carriers.get(c.path) is c:
            c.score += definition_boost * c.definition
        share = shares.get(c.path, 0.0)
        if share >= MIN_PATH_MATCH:
            c.score += path_boost * share
    if fragments is not None:
        _weigh_fragments(candidates, fragments, limit)
    _file_coherence(candidates)
    if apply_priors:
        asked_private = _asked_private_packages(naming, shares, headed, rarity)
        asked_tests = _asked_test_definitions(query, carriers.values())
        _apply_priors(candidates.values(), query, older_versions, asked_private, asked_tests)
        if package_docs is not None:
            for chunk_id in package_docs(list(candidates)):
                candidates[chunk_id].score *= PACKAGE_DOC_WEIGHT
        if in_file_tests is not None:
            _weigh_in_file_tests(candidates, in_file_tests(list(candidates)), query.wanted)
    if namesake_references is not None:
        _lift_referenced(candidates, namesake_references, limit, query.keywords)
    if supertypes and query.symbol_query:
        wanted = query.wanted if apply_priors else None
        _follow_supertypes(candidates, supertypes, wanted, older_versions, query.versions)
    _lift_pairs(candidates, limit)
    if command_modules:
        _lift_command_modules(candidates, command_modules, limit)
    if forwarders is not None:
        _lift_forwarders(candidates, forwarders, limit, query.wanted if apply_priors else None)
    return _diverse_top(candidates, limit)


def _raise_phrase_definitions(query: QueryPlan, candidates: Iterable[Candidate]) -> None:
    """A chunk whose name neighbouring words of the query name (names_phrase) defines what the query
    says at least PHRASE_SCALE (LOOSE_PHRASE_SCALE when loosely named)."""
    phrases: dict[str | None, str | None] = {}  # by name: candidates share names (`parse`, `new`)
    for c in candidates:
        name = c.name
        phrase = phrases[name] if name in phrases else phrases.setdefault(name, names_phrase(query, name))
        if phrase:
            c.definition = max(c.definition, PHRASE_SCALE if phrase is EXACT else LOOSE_PHRASE_SCALE)


def _definition_carriers(candidates: Iterable[Candidate]) -> dict[str, Candidate]:
    """Per file, the chunk that carries its definition boost: the strongest definition of the file
    (of two as strong, the chunk scoring more), phrase matches included. The boost says the file
    defines what the query names; a file that defines it in several chunks (a long class cut into
    pieces, a signature and its module, overloads) or defines several of the names says so once, and
    its other chunks rank by their own words, below the files that answer too."""
    carriers: dict[str, Candidate] = {}
    for c in candidates:
        if c.definition > 0:
            held = carriers.get(c.path)
            if held is None or (c.definition, c.score) > (held.definition, held.score):
                carriers[c.path] = c
    return carriers


def _apply_priors(
    candidates: Iterable[Candidate],
    query: QueryPlan,
    older_versions: frozenset[str],
    asked_private: frozenset[str] = frozenset(),
    asked_tests: frozenset[str] = frozenset(),
) -> None:
    """Each candidate's score times its path's priors (paths.py), worked out once per path; the files
    of `asked_private` (_asked_private_packages) weigh as if the query asked for private code, those
    of `asked_tests` (_asked_test_definitions) as if it asked for tests."""
    version_priors: dict[str, float] = {}
    wanted = query.wanted
    wanted_private = wanted | {PRIVATE}
    wanted_tests = wanted | {TEST}
    for c in candidates:
        kinds = wanted
        if c.path in asked_private:
            kinds = wanted_private
        elif c.path in asked_tests:
            kinds = wanted_tests
        c.score *= _kind_prior(c.path, c.name is not None, kinds)
        if older_versions:
            version = version_priors.get(c.path)
            if version is None:
                version = version_prior(c.path, older_versions, query.versions, query.wanted)
                version_priors[c.path] = version
            c.score *= version


def _asked_private_packages(
    naming: _Naming,
    shares: Mapping[str, float],
    headed: frozenset[str],
    rarity: Callable[[Iterable[str]], Mapping[str, float]] | None,
) -> frozenset[str]:
    """The private files (paths.PRIVATE) among the files a query's words name (`shares`) whose own
    folder, a package inside the private one (`internal/encoding/hcl/`), is named by a word that names
    no public file and is rarer than the query's words are on average (`_rarity_weights`): "encode and
    decode HCL configuration" asks for the `hcl` package, not for the public code that registers it.
    A common word (rxjs' "observables", naming `internal/observable/`, where nearly all the code is
    private) or the private folder itself (`internal/`, named by "intern") asks for no package."""
    if rarity is None or not any(PRIVATE in path_kinds(path) for path in shares):
        return frozenset()
    keywords = naming.keywords
    public_words: set[str] = set()
    for path in shares:
        if PRIVATE not in path_kinds(path):
            public_words.update(_path_words(keywords, path, _folder(path) in headed, naming))
    named: dict[str, frozenset[str]] = {}
    for path in shares:
        if PRIVATE in path_kinds(path) and PurePosixPath(path).parent.name.lstrip("_") != "internal":
            words = naming.of_parts(_folder_parts(path)) - public_words
            if words:
                named[path] = words
    if not named:
        return frozenset()
    weights = _rarity_weights(rarity(keywords))
    return frozenset(path for path, words in named.items() if any(weights.get(w, 1.0) > 1.0 for w in words))


def _asked_test_definitions(query: QueryPlan, carriers: Iterable[Candidate]) -> frozenset[str]:
    """The files of a bare name's strongest definitions when every one of them is test code: a name
    defined only under a test folder (a shipped test helper like Symfony's `Test/Constraint/`, a
    fixture class, a test base class) is asked for by its name, and only that code answers it."""
    if not query.symbol_query:
        return frozenset()
    strongest = max((c.definition for c in carriers), default=0.0)
    if strongest < 1.0:
        return frozenset()
    paths = frozenset(c.path for c in carriers if c.definition == strongest)
    return paths if all(TEST in path_kinds(path) for path in paths) else frozenset()


@functools.lru_cache(maxsize=65_536)
def _kind_prior(path: str, named: bool, wanted: frozenset[str]) -> float:
    """The path's prior for what the query wants (a chunk `named` or not): once per path and wish,
    not once per query."""
    return path_prior(path, wanted) * declarations_prior(path, named, wanted)


def header_types(content: str, name: str) -> list[str]:
    """The type names a definition's header names after its own name, in order: `Apply`,
    `InvariantMonoidal` of `trait Applicative[F[_]] extends Apply[F] with InvariantMonoidal[F] {`,
    `Base` of `class Session(Base):`. The header runs from the first line naming `name` to the
    line that opens the body (HEADER_LINES at most; without such a line, the first line alone).
    Type names are capitalised (after a `$` or `_` mark), as most languages' conventions have them."""
    lines = content.splitlines()
    own = re.compile(rf"(?<![\w$]){re.escape(name)}(?![\w$])")
    for index, line in enumerate(lines):
        found = own.search(line)
        if found is None or line.lstrip().startswith(_COMMENT_STARTS):
            continue
        header = [line[found.end() :]]
        if not _HEADER_END.search(header[0]):
            more = lines[index + 1 : index + HEADER_LINES]
            ends = next((i for i, text in enumerate(more) if _HEADER_END.search(text)), None)
            if ends is not None:
                header.extend(more[: ends + 1])
        text = " ".join(header)
        mixed = _mixed_in(lines[index + len(header) :]) if "{" in text else []
        text = text[: text.index("{")] if "{" in text else text
        # Type parameters and arguments (`<out Output = unknown>`, `[F[_]]`) are not what it builds on.
        text = text.replace("=>", " ").replace("->", " ")
        while True:
            stripped = _TYPE_ARGUMENTS.sub(" ", text)
            if stripped == text:
                break
            text = stripped
        return list(dict.fromkeys(n for n in [*_TYPE_NAME.findall(text), *mixed] if n != name))
    return []


# PHP's traits are used at the top of the class body (`use TesterTrait;`, `use Macroable, ForwardsCalls
# { ... }`): what the class builds on as much as what its header names.
_TRAIT_USE = re.compile(r"^\s*use\s+([\w\\]+(?:\s*,\s*[\w\\]+)*)\s*[;{]")


def _mixed_in(body: list[str]) -> list[str]:
    """The types a body's first statements mix in (_TRAIT_USE), comments and blank lines skipped."""
    mixed: list[str] = []
    in_block = False  # `use A, B { A::x insteadof B; }` resolves conflicts between them
    for line in body[:HEADER_LINES]:
        if in_block:
            in_block = "}" not in line
            continue
        if not line.strip() or line.lstrip().startswith(_COMMENT_STARTS):
            continue
        used = _TRAIT_USE.match(line)
        if used is None:
            break
        in_block = line.rstrip().endswith("{")
        mixed += [name.strip().rpartition("\\")[2] for name in used[1].split(",")]
    return [name for name in mixed if _TYPE_NAME.fullmatch(name)]


def _mention_supertypes(
    candidates: dict[str, Candidate], supertypes: Mapping[str, Sequence[DefinitionChunk]]
) -> None:
    """A sentence naming a type mentions what the type builds on too: each supertype's chunk is a
    definition the query names at SUPERTYPE_SCALE of the named type's strength."""
    for chunk_id, bases in supertypes.items():
        named = candidates.get(chunk_id)
        if named is None or named.definition <= 0:
            continue
        for base in bases:
            if base.id not in candidates:
                candidates[base.id] = Candidate(base.path, base.name, base.parent)
            found = candidates[base.id]
            found.definition = max(found.definition, SUPERTYPE_SCALE * named.definition)


def _follow_supertypes(
    candidates: dict[str, Candidate],
    supertypes: Mapping[str, Sequence[DefinitionChunk]],
    wanted: frozenset[str] | None,
    older_versions: frozenset[str],
    versions: frozenset[str],
) -> None:
    """For a bare name, each supertype's chunk scores SUPERTYPE_SHARE of the named type's chunk
    (and its own path's priors), unless it already scores more: right after the type asked for."""
    for chunk_id, bases in supertypes.items():
        named = candidates.get(chunk_id)
        if named is None or named.definition <= 0:
            continue
        for base in bases:
            lifted = SUPERTYPE_SHARE * named.score
            if wanted is not None:
                lifted *= path_prior(base.path, wanted)
                if older_versions:
                    lifted *= version_prior(base.path, older_versions, versions, wanted)
            if base.id not in candidates:
                candidates[base.id] = Candidate(base.path, base.name, base.parent)
            found = candidates[base.id]
            found.score = max(found.score, lifted)


def _best_files(candidates: Mapping[str, Candidate], limit: int) -> dict[str, str]:
    """The best `limit` files: path -> its best chunk's id."""
    best: dict[str, tuple[str, float]] = {}
    for chunk_id, c in candidates.items():
        held = best.get(c.path)
        if held is None or c.score > held[1]:
            best[c.path] = (chunk_id, c.score)
    return {path: chunk_id for path, (chunk_id, _) in heapq.nlargest(limit, best.items(), key=_file_score)}


def _lift_referenced(
    candidates: Mapping[str, Candidate],
    references: Callable[[Sequence[str], Sequence[str]], Iterable[tuple[str, str, str]]],
    limit: int,
    keywords: frozenset[str] = frozenset(),
) -> None:
    """Of a family among the best files (`MutableTriple.java`, `Triple.java`), the one the others are
    named after gains REFERENCED_BOOST of the top score for each of them that refers to its namesake
    type (the base class they extend, the type they build on). When the query's `keywords` name the
    head's whole name and more of a member's ("select the runtime framework": `RuntimeFramework`,
    `RuntimeFrameworkSelector`), that member is what the query describes, not a sign that the head
    is where to start: it lifts nothing, and the head's lift stops below it (`_described_member_score`)."""
    best = _best_files(candidates, limit)
    stems = {path: _file_stem(path) for path in best}
    family = {
        path: [other for other, longer in stems.items() if len(longer) > len(stem) and stem in longer]
        for path, stem in stems.items()
    }
    heads = [path for path, members in family.items() if members]
    if not heads:
        return
    members = sorted({member for path in heads for member in family[path]})
    top = max(candidates[chunk_id].score for chunk_id in best.values())
    referrers: dict[str, set[str]] = {}
    for path, name, referrer in references(heads, members):
        if (
            referrer in family[path]
            and _stem_matches(stems[path], name)
            and not _named_further(keywords, path, referrer)
        ):
            referrers.setdefault(path, set()).add(referrer)
    for path, found in referrers.items():
        head = candidates[best[path]]
        lifted = head.score + REFERENCED_BOOST * top * min(len(found), MAX_REFERRERS)
        ceiling = _described_member_score(candidates, best, keywords, path, family[path], head.score)
        head.score = lifted if ceiling is None else min(lifted, ceiling - PASS_MARGIN * top)


def _described_member_score(
    candidates: Mapping[str, Candidate],
    best: Mapping[str, str],
    keywords: frozenset[str],
    head: str,
    members: Iterable[str],
    head_score: float,
) -> float | None:
    """The best score, above the head's own, of the members of its family that the query describes:
    named after the head with words more (`HtmlReportWriter` of `ReportWriter`, `ByteBufferParser` of
    `Parser`) that the query names too ("an HTML report", "JSON held in a ByteBuffer"). The family lift
    says where to start reading when the query names the family; when it names one of its members and
    that member already ranks above the head, the lift must not put the head first. None when no such
    member ranks above the head."""
    parts = _stem_parts(head)
    above = [
        candidates[best[member]].score
        for member in members
        if parts <= _stem_parts(member) and _named_further(keywords, head, member)
    ]
    return max((score for score in above if score > head_score), default=None)


def _weigh_in_file_tests(
    candidates: Mapping[str, Candidate], tests: AbstractSet[str], wanted: frozenset[str]
) -> None:
    """Test code inside a source file (`tests`: a Rust `#[cfg(test)] mod tests {}`) weighs what a test
    file's chunk does (paths.in_file_test_prior), and the best production chunk of its file takes the
    score it had, if higher: a file's own unit tests say what the file does (they name its functions,
    the cases it handles), so they still place the file; what is shown for it is its code."""
    if not tests:
        return
    held: dict[str, float] = {}  # path -> the best score of its test chunks, before the prior
    for chunk_id in tests:
        c = candidates[chunk_id]
        prior = in_file_test_prior(c.path, wanted)
        if prior < 1.0:
            held[c.path] = max(held.get(c.path, 0.0), c.score)
            c.score *= prior
    if not held:
        return
    best: dict[str, Candidate] = {}
    for chunk_id, c in candidates.items():
        if c.path in held and chunk_id not in tests and (c.path not in best or c.score > best[c.path].score):
            best[c.path] = c
    for path, c in best.items():
        c.score = max(c.score, held[path])


def _weigh_fragments(
    candidates: Mapping[str, Candidate], fragments: Callable[[Sequence[str]], AbstractSet[str]], limit: int
) -> None:
    """The best `limit` small named chunks that are fragments (left between a definition's members)
    weigh FRAGMENT_WEIGHT: a lower one is no answer to demote. `fragments` filters the chunks it is
    given: asked of every candidate first, a query with none among them (most) is done at once."""
    among = fragments(list(candidates))
    if not among:
        return
    small = [
        chunk_id
        for chunk_id, c in candidates.items()
        if c.name is not None and 0 < _lines(chunk_id) <= FRAGMENT_LINES
    ]
    best = heapq.nlargest(limit, small, key=lambda chunk_id: candidates[chunk_id].score)
    for chunk_id in best:
        if chunk_id in among:
            candidates[chunk_id].score *= FRAGMENT_WEIGHT


@functools.lru_cache(maxsize=262_144)
def _lines(chunk_id: str) -> int:
    """How many lines a chunk spans, from its id (`path:start-end`); 0 when the id says nothing."""
    start, _, end = chunk_id.rpartition(":")[2].partition("-")
    return int(end) - int(start) + 1 if start.isdigit() and end.isdigit() else 0


@functools.lru_cache(maxsize=65_536)
def _file_stem(path: str) -> str:
    """A file's name without its extension, lower case: `tuple/MutableTriple.java` -> `mutabletriple`."""
    return posixpath.splitext(posixpath.basename(path))[0].lower()


# A header of inline definitions named after the header it completes (`os-inl.h` of `os.h`, `walker-inl.h`,
# `format-inl.h`: Google's, folly's, spdlog's, fmt's convention) is that header's implementation.
INLINE_HEADER_SUFFIXES = ("-inl", "_inl")
# It follows below a file forwarding to one of the best (FORWARD_SHARE): the header it completes holds the
# declarations asked for, the inline one their bodies (0.9 as other pairs cost fmt's and spdlog's
# other answers their places; 0.75 and 0.6 measured, docs/benchmarks.md).
INLINE_PAIR_SHARE = 0.75


@functools.lru_cache(maxsize=65_536)
def _pair_key(path: str) -> tuple[str, bool] | None:
    """(the path without its extension, whether it is a header) for a C or C++ file, else None; an
    inline header (INLINE_HEADER_SUFFIXES) is keyed as the implementation of the header it completes."""
    stem, extension = posixpath.splitext(path)
    if extension in languages.header_extensions():
        for suffix in INLINE_HEADER_SUFFIXES:
            base = stem.removesuffix(suffix)
            if base != stem and not base.endswith("/"):
                return base, False
        return stem, True
    if extension in languages.implementation_extensions():
        return stem, False
    return None


def _inline_header(path: str) -> bool:
    """Whether the file is an inline header: _pair_key keys it as the header it completes, not as itself."""
    key = _pair_key(path)
    return key is not None and key[0] != posixpath.splitext(path)[0]


def _lift_pairs(candidates: Mapping[str, Candidate], limit: int) -> None:
    """A header and its implementation in the same folder (`idna.h`, `idna.c`): when one is among
    the best `limit` files, the other's best chunk scores PAIR_SHARE of it, unless it scores more."""
    best: dict[str, str] = {}  # a C or C++ file -> its best chunk
    keys: dict[str, tuple[str, bool]] = {}
    for chunk_id, c in candidates.items():
        key = _pair_key(c.path)
        if key is None:
            continue
        keys[c.path] = key
        if c.path not in best or c.score > candidates[best[c.path]].score:
            best[c.path] = chunk_id
    if len(best) < 2:
        return
    files_of: dict[tuple[str, bool], list[str]] = {}
    for path, key in keys.items():
        files_of.setdefault(key, []).append(path)
    lifted: dict[str, float] = {}
    for path in best.keys() & _best_files(candidates, limit).keys():
        stem, header = keys[path]
        for partner in files_of.get((stem, not header), []):
            share = INLINE_PAIR_SHARE if _inline_header(path) or _inline_header(partner) else PAIR_SHARE
            lifted[partner] = max(lifted.get(partner, 0.0), share * candidates[best[path]].score)
    for partner, score in lifted.items():
        found = candidates[best[partner]]
        found.score = max(found.score, score)


def _lift_command_modules(
    candidates: Mapping[str, Candidate], modules: Mapping[str, str], limit: int
) -> None:
    """When a command's script is among the best `limit` files, the best chunk of the module it runs
    scores COMMAND_SHARE of the script's, unless it scores more."""
    best = _best_files(candidates, limit)
    scripts = [path for path in best if path in modules]
    if not scripts:
        return
    module_best: dict[str, Candidate] = {}
    wanted = {modules[path] for path in scripts}
    for c in candidates.values():
        if c.path in wanted and (c.path not in module_best or c.score > module_best[c.path].score):
            module_best[c.path] = c
    for path in scripts:
        found = module_best.get(modules[path])
        if found is not None:
            found.score = max(found.score, COMMAND_SHARE * candidates[best[path]].score)


def _lift_forwarders(
    candidates: dict[str, Candidate],
    forwarders: Callable[[Sequence[str]], Iterable[Forwarder]],
    limit: int,
    wanted: frozenset[str] | None,
) -> None:
    """A file forwarding to one of the best `limit` files scores FORWARD_SHARE of that file's best
    chunk (and its own path's prior), unless it already scores more."""
    best: dict[str, float] = {}
    for c in candidates.values():
        if c.score > best.get(c.path, _NO_SCORE):
            best[c.path] = c.score
    top = heapq.nlargest(limit, best, key=best.__getitem__)
    for found in forwarders(top):
        lifted = FORWARD_SHARE * best[found.target]
        if wanted is not None:
            lifted *= path_prior(found.path, wanted)
        if found.id not in candidates:
            candidates[found.id] = Candidate(found.path, found.name, found.parent)
        candidate = candidates[found.id]
        candidate.score = max(candidate.score, lifted)


def _file_coherence(candidates: Mapping[str, Candidate]) -> None:
    totals: dict[str, float] = {}
    best: dict[str, Candidate] = {}
    for c in candidates.values():
        path, score = c.path, c.score
        totals[path] = totals.get(path, 0.0) + score
        held = best.get(path)
        if held is None or score > held.score:
            best[path] = c
    boost = COHERENCE_BOOST * max(map(_SCORE, candidates.values()))
    most = max(totals.values()) or 1.0
    for path, c in best.items():
        c.score += boost * totals[path] / most


def _diverse_top(candidates: Mapping[str, Candidate], limit: int) -> list[tuple[str, float]]:
    """Highest scores first, each further chunk of an already chosen file decayed."""
    items = list(candidates.items())
    keys = [-c.score for _, c in items]
    chosen: list[tuple[str, float]] = []
    per_file: dict[str, int] = {}
    floor = float("-inf")
    for position in sorted(range(len(items)), key=keys.__getitem__):  # stable, as items are by score
        chunk_id, c = items[position]
        if len(chosen) >= limit and c.score <= floor:
            break  # decay only lowers scores: nothing further can enter
        seen = per_file.get(c.path, 0)
        per_file[c.path] = seen + 1
        score = c.score * SAME_FILE_DECAY**seen
        if len(chosen) >= limit and score <= floor:
            continue  # it would sort after the chosen `limit` and be cut
        chosen.append((chunk_id, score))
        if len(chosen) >= limit:
            chosen.sort(key=lambda item: -item[1])
            chosen = chosen[:limit]
            floor = chosen[-1][1]
    chosen.sort(key=lambda item: -item[1])
    return chosen[:limit]


@functools.lru_cache(maxsize=65_536)
def _stem_parts(path: str) -> frozenset[str]:
    """The words of a file's name, every dotted part of it (Mix's `escript.build.ex`, the task
    escript.build; C#'s partial `PyObject.IConvertible.cs`; Nest's `user.service.ts`); a folder's head
    file (`telescope/init.lua`) is named by its folder too."""
    pure = PurePosixPath(path)
    parts = frozenset(
        w for part in pure.stem.split(".") for w in (*split_identifier(part), *glued_acronyms(part))
    )
    if pure.name in languages.head_names() and pure.parent.name:
        return parts | frozenset(split_identifier(pure.parent.name))
    return parts


@functools.lru_cache(maxsize=65_536)
def _folder_parts(path: str) -> frozenset[str]:
    folder = PurePosixPath(path).parent.name
    return frozenset(split_identifier(folder)) if folder else frozenset()


@functools.lru_cache(maxsize=65_536)
def _part_initials(path: str) -> tuple[frozenset[str], bool]:
    """The first letters of the parts of a path's file and folder names, and whether one of those
    parts is an abbreviation (ABBREVIATIONS)."""
    parts = _stem_parts(path) | _folder_parts(path)
    return frozenset(part[:1] for part in parts), any(part in ABBREVIATIONS for part in parts)


@functools.lru_cache(maxsize=65_536)
def _folder(path: str) -> str:
    return posixpath.dirname(path)


def _path_shares(
    keywords: frozenset[str],
    paths: Iterable[str],
    headed: frozenset[str],
    rarity: Callable[[Iterable[str]], Mapping[str, float]] | None = None,
    naming: _Naming | None = None,
) -> dict[str, float]:
    """How much of the query each candidate file's path names: the words naming it (`_path_words`),
    each weighed by its rarity (`_rarity_weights`), over the query's number of words, times how much
    of the file's name they cover (`_name_cover`)."""
    if not keywords:
        return {}
    naming = naming if naming is not None and naming.keywords is keywords else _Naming(keywords)
    named = {
        path: _path_words(keywords, path, _folder(path) in headed, naming)
        for path in paths
        if naming.may_name(path)
    }
    naming_words = {keyword for words in named.values() for keyword in words}
    weights = _rarity_weights(rarity(naming_words) if rarity is not None and naming_words else {})
    return {
        path: sum(weights.get(k, 1.0) * share for k, share in words.items())
        / len(keywords)
        * _name_cover(keywords, path)
        for path, words in named.items()
        if words
    }


def _rarity_weights(rarity: Mapping[str, float]) -> dict[str, float]:
    """A weight per word naming some candidate file, from its rarity in the repository's chunks (BM25's
    inverse document frequency): (rarity / the naming words' mean) ** RARITY_WEIGHT, never below 1. A
    rare word naming a file points at it more surely than a common one ("SSL options for connections":
    `ssl_options.rb` before `connection_options.rb`); a common word counts as before."""
    if not rarity:
        return {}
    mean = sum(rarity.values()) / len(rarity)
    return {k: max(1.0, (value / mean) ** RARITY_WEIGHT) for k, value in rarity.items()}


class _Naming:
    """For one query: the words of `keywords` that name each part of a file's or folder's name
    (`_names_part`), worked out once per part. The few hundred candidate paths of a query share most of
    their parts, and every query meets parts no earlier one did (a cache across queries misses)."""

    def __init__(self, keywords: frozenset[str], plain: frozenset[str] = frozenset()) -> None:
        self.keywords = keywords
        self._plain = plain & keywords  # written in lower case: words, not identifiers (`plural_names`)
        self._naming: dict[str, frozenset[str]] = {}
        self._naming_any: dict[frozenset[str], frozenset[str]] = {}
        self._by_initial: dict[str, list[str]] = {}
        for keyword in keywords:
            self._by_initial.setdefault(IRREGULAR_PARTICIPLES.get(keyword, keyword)[:1], []).append(keyword)
        self._abbreviations = [k for k in keywords if IRREGULAR_PARTICIPLES.get(k, k) in ABBREVIATIONS]
        self._initials = frozenset(self._by_initial)

    def may_name(self, path: str) -> bool:
        """Whether a keyword may name a part of the path's file or folder name at all: only one with a
        part's first letter can, or an abbreviation (`of_part`); most paths share none with a query."""
        initials, abbreviated = _part_initials(path)
        return bool(self._abbreviations) or abbreviated or not self._initials.isdisjoint(initials)

    def of_part(self, part: str) -> frozenset[str]:
        """The keywords naming `part`. Only a keyword with the part's first letter can (an equal word, a
        prefix, a shared stem: the stemmer changes endings only), or an abbreviation of or to it."""
        found = self._naming.get(part)
        if found is None:
            suspects = (
                self.keywords
                if part in ABBREVIATIONS
                else [*self._by_initial.get(part[:1], ()), *self._abbreviations]
            )
            found = frozenset(
                keyword
                for keyword in suspects
                if _names_part(keyword, part) or (keyword in self._plain and _plural_names(part, keyword))
            )
            self._naming[part] = found
        return found

    def of_parts(self, parts: frozenset[str]) -> frozenset[str]:
        """The keywords naming any of `parts`: one of them, or naming one (paths share folders)."""
        found = self._naming_any.get(parts)
        if found is None:
            found = (self.keywords & parts).union(*(self.of_part(part) for part in parts))
            self._naming_any[parts] = found
        return found


def _path_words(
    keywords: frozenset[str], path: str, headed: bool = False, naming: _Naming | None = None
) -> dict[str, float]:
    """The query words that name the path's file or folder (a shared prefix: `completion` ~
    `completions`; stem: `utility` ~ `utils`; abbreviation: `context` ~ `ctx`), and the words that name
    a part of its file's name no other word names by root only (`reading` ~ `ObjectReader` beside
    `objects`; see `_roots`) when another word names the file too. A word naming only the folder of
    a `headed` file whose own name no word names counts HEADED_FOLDER_SHARE: the head beside the
    folder is what it names (`rack.rb` for "rack", not `rack/logger.rb`)."""
    naming = naming if naming is not None and naming.keywords is keywords else _Naming(keywords)
    name_parts, folder_parts = _stem_parts(path), _folder_parts(path)
    naming_name, naming_folder = naming.of_parts(name_parts), naming.of_parts(folder_parts)
    if not naming_name and not naming_folder:
        return {}  # most candidates' paths: no word names them
    in_name, in_folder, unnamed = [], [], []
    for keyword in keywords:
        if keyword in naming_name:
            in_name.append(keyword)
        elif keyword in naming_folder:
            in_folder.append(keyword)
        else:
            unnamed.append(keyword)
    matched = dict.fromkeys(in_name, 1.0)
    matched.update(dict.fromkeys(in_folder, HEADED_FOLDER_SHARE if headed and not in_name else 1.0))
    if in_name and unnamed:
        # the roots of the parts no word names: a word sharing one names the file by its root
        free = frozenset().union(*(_roots(part) for part in name_parts if not naming.of_part(part)))
        if free:
            matched.update((keyword, 1.0) for keyword in unnamed if not _roots(keyword).isdisjoint(free))
    return matched


@functools.lru_cache(maxsize=65_536)
def _named_parts(keywords: frozenset[str], path: str) -> int:
    """How many parts of the file's name the query's words name (`runtime`, `framework`, `selector`
    of `RuntimeFrameworkSelector.cs` for "select the runtime framework")."""
    return sum(1 for part in _stem_parts(path) if any(_names_part(keyword, part) for keyword in keywords))


def _named_further(keywords: frozenset[str], head: str, member: str) -> bool:
    """The query names every part of the head file's name and more parts of the member's."""
    named = _named_parts(keywords, head)
    return named == len(_stem_parts(head)) and _named_parts(keywords, member) > named


@functools.lru_cache(maxsize=65_536)
def _name_cover(keywords: frozenset[str], path: str) -> float:
    """The weight of a path match by how much of the file's name the query names (NAME_COVER_SHARE);
    1.0 when no word names a part of the name (a folder's match is weighed as before)."""
    parts = _stem_parts(path)
    named = _named_parts(keywords, path)
    if not named:
        return 1.0
    return 1 - NAME_COVER_SHARE + NAME_COVER_SHARE * named / len(parts)


# Abbreviations programmers name files and folders with that are no prefix of their word (`auth`,
# `conn`, `impl` are, and match as prefixes): the part -> the words it stands for (compared by stem).
ABBREVIATIONS = {
    "ctx": ("context",),
    "cfg": ("config", "configuration"),
    "msg": ("message",),
    "errs": ("error",),
    "mgr": ("manager",),
    "tmpl": ("template",),
    "tpl": ("template",),
    "db": ("database",),
    "fmt": ("format", "formatting"),
    "cmd": ("command",),
    "cli": ("command",),  # a command-line interface: `cli.ex`, `cli.py` for "the command line"
    "ws": ("websocket",),
    "pkg": ("package",),
    "svc": ("service",),
    "srv": ("server",),
    "ctrl": ("control", "controller"),
    "img": ("image",),
    "evt": ("event",),
    "hdr": ("header",),
    "fs": ("filesystem",),
    "util": ("helper",),  # `StringUtils.java`, `utils.py`, `util.go`: a file of helpers
    "utils": ("helper",),
}


@functools.lru_cache(maxsize=65_536)
def _abbreviates(short: str, word: str) -> bool:
    """`ctx` stands for `context`, `contexts`; `cfg` for `configuration`."""
    return short in ABBREVIATIONS and stem(word) in {stem(full) for full in ABBREVIATIONS[short]}


# A query says what was done ("how is a fixture built", "bytes written", "the exception thrown"); a
# file is named for the doer or the doing (`FixtureBuilder`, `Writer`, `ThrowsConstraint`). Regular
# verbs meet by prefix or stem; these irregular ones by their base. Words that are also other words
# ("found", "bound", "left", "read", "set") are not among them.
IRREGULAR_PARTICIPLES = {
    "built": "build", "written": "write", "wrote": "write", "sent": "send", "ran": "run",
    "thrown": "throw", "threw": "throw", "chosen": "choose", "taken": "take", "given": "give",
    "drawn": "draw", "begun": "begin", "began": "begin", "broken": "break", "frozen": "freeze",
    "hidden": "hide", "kept": "keep", "held": "hold", "caught": "catch", "brought": "bring",
    "sold": "sell", "told": "tell", "shown": "show", "known": "know",
}  # fmt: skip


@functools.lru_cache(maxsize=262_144)
def _names_part(keyword: str, part: str) -> bool:
    keyword = IRREGULAR_PARTICIPLES.get(keyword, keyword)
    if keyword == part:
        return True
    # `_abbreviates` only when one of them is an abbreviation: most pairs are not (no cached call then)
    if (part in ABBREVIATIONS and _abbreviates(part, keyword)) or (
        keyword in ABBREVIATIONS and _abbreviates(keyword, part)
    ):
        return True
    shorter, longer = (keyword, part) if len(keyword) <= len(part) else (part, keyword)
    return (len(shorter) >= MIN_PREFIX and longer.startswith(shorter)) or stem(keyword) == stem(part)


def _plain_words(text: str) -> frozenset[str]:
    """The words of a query written in lower-case letters only: words, not identifiers."""
    return frozenset(word for word in _WORD.findall(text) if word.isalpha() and word.islower())


def _plural_names(part: str, word: str) -> bool:
    """A name's plural abbreviation (`args`, `opts`, `attrs`, `params`, `impls`) is a prefix of the
    word it stands for once its `s` is off: `args.go` is named by "argument", `impls.rs` by
    "implementations". Only for a word the query writes in lower-case letters: a glued identifier
    (`NodeTraversor`, `load_levels`) starts with many a folder's singular (`nodes/`, `loads/`) and is no
    word it abbreviates."""
    base = part[:-1]
    return part.endswith("s") and not base.endswith("s") and len(base) >= MIN_PREFIX and word.startswith(base)


# What a file or class is named for is often the doer of what a query says is done: `Reader` of
# "reading", `Formatter` of "formatting", `Connector` of "connection", `createStore` of "creation".
# Porter leaves short words' `-er` and `-ion` alone (`reader`, `creation`), so names and queries meet
# at a root: a plural ending off, then an agent or action ending, then a last `e` or a doubled
# consonant's second.
_PLURAL_ENDINGS = ("es", "s")
_ROOT_ENDINGS = ("ization", "isation", "ation", "ition", "ion", "ment", "ing", "er", "or", "e")
MIN_ROOT = 4  # shorter roots (`us` of "user", `ord` of "order") say nothing


@functools.lru_cache(maxsize=65_536)
def _roots(word: str) -> frozenset[str]:
    """The roots a word may have (`formatting` -> `formatt`, `format`; `creation` -> `creat`)."""
    word = word.lower()
    bases = {word, *(word[: -len(e)] for e in _PLURAL_ENDINGS if word.endswith(e))}
    roots = set()
    for base in bases:
        for ending in _ROOT_ENDINGS:
            if base.endswith(ending):
                roots.add(base[: -len(ending)])
    roots |= {
        r[:-1] for r in roots if len(r) > 2 and (r[-1] == "e" or (r[-1] == r[-2] and r[-1] not in "aeiou"))
    }
    return frozenset(r for r in roots | bases if len(r) >= MIN_ROOT)


def module_names(module: str, path: str) -> bool:
    """An import's module names the file: `fastapi.security.base` or `../security/base.js` names
    `security/base.py` (their last parts agree, the file's extension aside)."""
    module = posixpath.splitext(module)[0] if "/" in module else module  # a path's extension
    parts = [p for p in _MODULE_SEPARATORS.split(module) if p]
    file = posixpath.splitext(path)[0].split("/")
    common = min(len(parts), len(file))
    return common > 0 and parts[-common:] == file[-common:]


def named_after(path: str, name: str) -> bool:
    """The file is named after `name`: `cats/FlatMap.scala` for `FlatMap`, `errors.ts` for `Error`."""
    return _stem_matches(PurePosixPath(path).stem, name.lstrip("".join(_MARKS)))


def _stem_matches(stem: str, name: str) -> bool:
    """`args.go` for `Args`, `http_client.py` for `HTTPClient`, `routers.ts` for `Router`."""
    stem, name = stem.lower().replace("_", "").replace("-", ""), name.lower().replace("_", "")
    return stem == name or stem.rstrip("s") == name.rstrip("s")
