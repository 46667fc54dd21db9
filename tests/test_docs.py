"""The docs tell the truth about the CLI: every `pramana …` command in the README's (and docs')
code blocks is one the CLI accepts, every file they run exists, and docs/configuration.md is what
the settings generate, naming every variable the code reads."""

from __future__ import annotations

import io
import re
import shlex
import tokenize

import pytest
import typer

from pramana.cli import app
from pramana.settings_reference import render
from tests.conftest import REPO_ROOT

DOCS = [REPO_ROOT / "README.md", *sorted((REPO_ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```(\S*)\s*$")
SHELL = {"", "bash", "sh", "shell", "console"}
# typer carries its own click: its usage errors are this class (BadParameter's base).
UsageError = typer.BadParameter.__bases__[0]


def shell_commands(markdown: str) -> list[str]:
    """Each command line of the markdown's shell code blocks (continuations joined, comments cut)."""
    blocks: list[list[str]] = []
    inside: str | None = None
    for line in markdown.splitlines():
        fence = FENCE.match(line)
        if fence and inside is None:
            inside = fence[1]
            blocks.append([])
        elif fence:
            if inside not in SHELL:
                blocks.pop()
            inside = None
        elif inside is not None:
            blocks[-1].append(line)
    commands = []
    for block in blocks:
        for line in re.sub(r"\\\n\s*", " ", "\n".join(block)).splitlines():
            words = shlex.split(line, comments=True)
            if words:
                commands.append(shlex.join(words))
    return commands


def accepted(words: list[str]) -> None:
    """Parse `pramana WORDS` as the CLI does (commands, options, argument types), running nothing;
    raises UsageError for what it would refuse."""
    command = typer.main.get_command(app)
    name, args = "pramana", list(words)
    while True:
        ctx = command.make_context(name, args)
        if not hasattr(command, "resolve_command"):
            return
        rest = [*ctx._protected_args, *ctx.args]
        if not rest:
            return
        name, command, args = command.resolve_command(ctx, rest)


@pytest.mark.parametrize("page", DOCS, ids=lambda path: path.name)
def test_every_pramana_command_in_the_docs_is_one_the_cli_accepts(page):
    checked = 0
    for line in shell_commands(page.read_text()):
        words = shlex.split(line)
        if words[:1] == ["pramana"]:
            try:
                accepted(words[1:])
            except UsageError as exc:
                pytest.fail(f"{page.name}: `{line}`: {exc.format_message()}")
            checked += 1
        elif words[0] in ("scripts/test", "scripts/new_user.sh"):
            assert (REPO_ROOT / words[0]).is_file(), line
        elif words[:2] == ["python", "examples/lecture_to_notes.py"] or words[:3] == ["uv", "run", "python"]:
            script = next(word for word in words if word.endswith(".py"))
            assert (REPO_ROOT / script).is_file(), line
    if page.name == "README.md":
        assert checked >= 25, checked  # the README's quickstarts are mostly pramana commands


def test_a_command_the_cli_refuses_fails_the_check():
    wrong = [["gita", "serach", "x"], ["gita", "match"], ["serve", "gita", "--transport"],
             ["sanskrit", "search", "x", "--limit", "many"],
             ["config", "cursor", "--repos", "."]]  # fmt: skip
    for words in wrong:
        with pytest.raises(UsageError):
            accepted(words)


def test_configuration_md_is_what_the_settings_generate():
    page = (REPO_ROOT / "docs" / "configuration.md").read_text()
    assert page == render(), (
        "docs/configuration.md is stale: uv run python -m pramana.settings_reference > docs/configuration.md"
    )


VARIABLE = re.compile(
    r"\b(?:PRAMANA|VEDABASE|SANSKRIT|DPD|OPENAI|PINECONE|GITHUB|MILVUS)_[A-Z][A-Z_]*[A-Z]\b"
)


def test_every_variable_the_code_reads_is_documented():
    page = (REPO_ROOT / "docs" / "configuration.md").read_text()
    named: set[str] = set()
    for path in (REPO_ROOT / "src").rglob("*.py"):
        for token in tokenize.generate_tokens(io.StringIO(path.read_text()).readline):
            if token.type == tokenize.STRING:
                named.update(VARIABLE.findall(token.string))
    assert {"PRAMANA_DATA_DIR", "VEDABASE_DB_PATH", "PRAMANA_CODE_INDEX_WORKERS"} <= named
    assert not {name for name in named if f"`{name}`" not in page}
