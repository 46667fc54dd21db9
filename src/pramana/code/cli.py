"""`pramana code …`: index a repository, search it, read its symbols."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from pramana.cli_support import JsonOption, err, install, out, run, show

if TYPE_CHECKING:
    from pramana.code.service import CodeService
    from pramana.config import CodeSettings

app = typer.Typer(help="Code search: index a repository, search it, read its symbols.", no_args_is_help=True)

CodeDb = Annotated[
    Path | None, typer.Option("--db", help="Index file (default: $PRAMANA_CODE_DB or one per repository)")
]
CodeRepo = Annotated[
    Path | None, typer.Option("--repo", help="Repository checkout (default: $PRAMANA_CODE_REPO)")
]
# Choices are shown, not enforced here: CodeSettings checks them and says what is accepted in one line.
BACKENDS = ("sqlite", "milvus", "pinecone")
EMBEDDERS = ("auto", "static", "minilm", "openai", "none")
Backend = Annotated[
    str | None,
    typer.Option(
        "--backend", metavar="|".join(BACKENDS), help="Where similarity search runs (default sqlite)"
    ),
]
EmbedderOption = Annotated[
    str | None,
    typer.Option(
        "--embedder",
        metavar="|".join(EMBEDDERS),
        help="Default auto: OpenAI with a key, else the static table; minilm is slower, better on sentences",
    ),
]


def load_settings(
    repo: Path | None = None, db: Path | None = None, backend: str | None = None, embedder: str | None = None
) -> CodeSettings:
    """Flags that were set override the environment; a bad value (either) is one line and exit 2."""
    from pramana.config import CodeSettings

    return run(lambda: CodeSettings.load(repo=repo, db_path=db, backend=backend, embedder=embedder))


def _service(repo: Path | None, db: Path | None) -> CodeService:
    from pramana.code.runtime import open_service

    if repo is None and db is None and not _configured():
        repo = indexed_checkout(Path.cwd())
    return run(lambda: open_service(load_settings(repo, db), serving=False))


def _configured() -> bool:
    import os

    return bool(os.environ.get("PRAMANA_CODE_REPO") or os.environ.get("PRAMANA_CODE_DB"))


def indexed_checkout(folder: Path) -> Path | None:
    """The indexed checkout holding `folder` (itself or a parent): inside it, commands need no --repo."""
    from pramana.locations import default_code_db

    here = folder.resolve()
    return next((f for f in (here, *here.parents) if default_code_db(f).is_file()), None)


@app.command("index")
def code_index(
    path: Annotated[Path, typer.Argument(help="The repository folder")],
    db: CodeDb = None,
    backend: Backend = None,
    embedder: EmbedderOption = None,
) -> None:
    """Index a repository (again): only files whose content changed are parsed and embedded."""
    from rich.markup import escape

    from pramana.code.data import IndexRun
    from pramana.servers import Source

    settings = load_settings(path, db, backend, embedder)
    done: IndexRun = install("code", settings, Source(str(path)), "{task.description:<8}").report
    report = done.report
    embedded = (
        f", {report.chunks_embedded:,} chunks embedded ({done.embedder})"
        if done.embedder
        else " (keyword search only)"
    )
    out.print(
        f"{settings.resolved_db_path()}: {report.files_seen:,} files ({report.files_parsed:,} parsed, "
        f"{report.files_unchanged:,} unchanged, {report.files_removed:,} removed){embedded}; "
        f"{done.chunks:,} chunks, {done.symbols:,} symbols in {report.total_seconds:.1f} s",
        markup=False,
    )
    for problem in report.errors[:20]:
        err.print(f"[yellow]skipped[/yellow] {escape(problem)}", highlight=False)
    for link in report.refused_links[:20]:
        err.print(f"[yellow]link not followed[/yellow] {escape(link)}", highlight=False)
    if len(report.refused_links) > 20:
        err.print(f"... and {len(report.refused_links) - 20} more links not followed", highlight=False)
    from pramana import process

    process.freeze_at_exit()


@app.command("search")
def code_search(
    query: Annotated[str, typer.Argument(help="What to look for, in words or identifiers")],
    repo: CodeRepo = None,
    db: CodeDb = None,
    limit: Annotated[int, typer.Option("--limit", "-n")] = 5,
    package: Annotated[str | None, typer.Option("--package")] = None,
    language: Annotated[str | None, typer.Option("--language")] = None,
    docs: Annotated[bool, typer.Option("--docs", help="Search documentation instead of code")] = False,
    as_json: JsonOption = False,
) -> None:
    """Search the indexed code (or docs)."""
    from pramana.code import format as code_format

    service = _service(repo, db)
    if docs:
        found = run(lambda: service.search_docs(query, limit))
    else:
        found = run(lambda: service.search_code(query, limit, package, language))
    show(code_format.search_markdown(found, f"Results for {query!r}"), found, as_json)


@app.command("functions")
def code_functions(
    path: Annotated[str, typer.Argument(help="File or folder, relative to the repository")],
    repo: CodeRepo = None,
    db: CodeDb = None,
    as_json: JsonOption = False,
) -> None:
    """List the functions, classes and types defined in a file or folder."""
    from pramana.code import format as code_format

    found = run(lambda: _service(repo, db).list_functions(path))
    show(code_format.symbols_markdown(found), found, as_json)


@app.command("usages")
def code_usages(
    name: Annotated[str, typer.Argument(help="Function, class or export name")],
    repo: CodeRepo = None,
    db: CodeDb = None,
    limit: Annotated[int, typer.Option("--limit", "-n")] = 20,
    as_json: JsonOption = False,
) -> None:
    """Where a name is defined and used."""
    from pramana.code import format as code_format

    found = run(lambda: _service(repo, db).find_usages(name, limit))
    show(code_format.usages_markdown(found), found, as_json)


@app.command("deps")
def code_deps(
    path: Annotated[str, typer.Argument(help="File, relative to the repository")],
    repo: CodeRepo = None,
    db: CodeDb = None,
    as_json: JsonOption = False,
) -> None:
    """What a file imports and which files import it."""
    from pramana.code import format as code_format

    found = run(lambda: _service(repo, db).get_dependencies(path))
    show(code_format.dependencies_markdown(found), found, as_json)


@app.command("explain")
def code_explain(
    query: Annotated[str, typer.Argument(help="A name (parse, Client.send) or a concept")],
    repo: CodeRepo = None,
    db: CodeDb = None,
    as_json: JsonOption = False,
) -> None:
    """A definition with what it calls, what its file imports and where it is used."""
    from pramana.code import format as code_format

    found = run(lambda: _service(repo, db).explain_code(query))
    show(code_format.explanation_markdown(found), found, as_json)
