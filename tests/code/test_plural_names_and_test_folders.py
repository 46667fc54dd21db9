"""A name's plural abbreviation (`args.go`, `impls.rs`) is named by the word it stands for; a folder
named for its tests with a word or a number more (`integration-tests/`, `suite_test2/`) holds tests."""

from __future__ import annotations

import pytest

from pramana.code.search import rank
from pramana.code.search.paths import TEST, path_kinds
from tests.code.conftest import indexed_service


def test_a_plural_abbreviation_is_named_by_the_word_it_stands_for():
    keywords = frozenset({"argument", "implementations", "parameters", "options", "classic"})
    naming = rank._Naming(keywords, plain=keywords)
    assert naming.of_part("args") == {"argument"}
    assert naming.of_part("impls") == {"implementations"}
    assert naming.of_part("params") == {"parameters"}  # by the prefix `param` as before, and still
    assert naming.of_part("opts") == {"options"}
    # Not a plural: a word ending in `ss` keeps it (`class`), and a base under three letters says nothing.
    assert naming.of_part("class") == {"classic"}  # the plain prefix rule, as before
    assert rank._plural_names("class", "classic") is False
    assert rank._plural_names("ids", "identifier") is False


def test_a_glued_identifier_is_named_by_no_plural_folder():
    # `NodeTraversor` asked: its lower-cased whole starts with `node`, the singular of a `nodes/` folder.
    query = "NodeTraversor"
    keywords = rank.plan(query).keywords
    naming = rank._Naming(keywords, rank._plain_words(query))
    assert keywords == {"nodetraversor"}
    assert naming.of_part("nodes") == frozenset()
    # Nor a snake_case one in a sentence: only the sentence's words in lower-case letters are words.
    plan = rank.plan("where is load_levels called")
    naming = rank._Naming(plan.keywords, rank._plain_words(plan.text))
    assert "load_levels" in plan.keywords
    assert naming.of_part("loads") == frozenset()


ARGS_REPO = {
    # The validators, in a file named by the plural abbreviation of "argument".
    "args.go": "package cli\n\n"
    "// ValidateFunc checks what a command was given.\n"
    "type ValidateFunc func(cmd *Command, given []string) error\n\n"
    "// ExactCount checks that exactly n values were given.\n"
    "func ExactCount(n int) ValidateFunc {\n"
    "    return func(cmd *Command, given []string) error {\n"
    "        if len(given) != n {\n            return errCount\n        }\n        return nil\n    }\n}\n",
    # Says "positional" where the validators' file does not, but completes shells' words.
    "completion.go": "package cli\n\n"
    "// MarkPositional marks the positional words of shell completion.\n"
    "func MarkPositional(cmd *Command, words []string) error {\n"
    "    cmd.words = words\n    return nil\n}\n",
}


def test_a_file_named_by_a_plural_abbreviation_answers_the_sentence(tmp_path):
    service = indexed_service(ARGS_REPO, tmp_path)
    chunks = service.search_code("positional argument validators", limit=2).chunks
    assert chunks[0].metadata.filePath == "args.go"


@pytest.mark.parametrize(
    "path",
    [
        "integration-tests/test_server.py",
        "nf_test4/ftst_vars.F",
        "hcl/test-fixtures/basic.hcl",
        "src/tests-net45/RunnerTests.cs",
        "test2/check.c",
        "tests_v2/cases.rb",
    ],
)
def test_a_folder_named_for_its_tests_with_more_holds_tests(path):
    assert TEST in path_kinds(path)


@pytest.mark.parametrize(
    "path",
    [
        "lib/bats-core/test_functions.bash",  # a file's name: the folder rule is for folders
        "src/latest/release.py",
        "src/contest/judge.py",
        "pkg/testify/assert.go",
        "src/attestation/sign.go",
    ],
)
def test_other_names_with_test_in_them_are_not_test_folders(path):
    assert TEST not in path_kinds(path)
