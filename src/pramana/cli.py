"""The `pramana` command: serve MCP servers, manage their data, and ask them questions.

Every command imports what it needs when it runs (a server's SDK, its data libraries, rich's
progress bars), so that a quick one such as `pramana code search` starts in a fraction of a second.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from pramana import __version__
from pramana.errors import InvalidInputError, PramanaError

if TYPE_CHECKING:
    from pydantic import BaseModel
    from rich.console import Console

    from pramana.config import GitaSettings

app = typer.Typer(
    help="pramana: grounded lookups for AI agents, served over the Model Context Protocol.",
    no_args_is_help=True,
    add_completion=False,
)
gita_app = typer.Typer(
    help="Bhagavad Gita: seed the cache, look up, search and match verses.", no_args_is_help=True
)
sanskrit_app = typer.Typer(help="Sanskrit dictionaries: install, import, search, read.", no_args_is_help=True)
app.add_typer(gita_app, name="gita")
pali_app = typer.Typer(
    help="Digital Pāḷi Dictionary: build or download it, analyse sentences, look up words.",
    no_args_is_help=True,
)
app.add_typer(sanskrit_app, name="sanskrit")
app.add_typer(pali_app, name="pali")


class _LazyConsole:
    """A rich Console made when first used: a command printing plain text never imports rich."""

    def __init__(self, stderr: bool = False):
        self._stderr = stderr
        self._console: Console | None = None

    def get(self) -> Console:
        if self._console is None:
            from rich.console import Console

            self._console = Console(stderr=self._stderr)
        return self._console

    def __getattr__(self, name: str) -> Any:
        return getattr(self.get(), name)


out = _LazyConsole()
err = _LazyConsole(stderr=True)
T = TypeVar("T")

DbOption = Annotated[
    Path | None,
    typer.Option("--db", help="Cache file (default: $VEDABASE_DB_PATH or ~/.vedabase_mcp/cache.db)"),
]
SourceOption = Annotated[
    str | None,
    typer.Option(
        "--source", help="Base URL or mirror directory (default: $VEDABASE_API_URL or the upstream)"
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print the structured result as JSON")]
TranslatorOption = Annotated[str | None, typer.Option("--translator", "-t", help="Author key or name")]


def _version(value: bool) -> None:
    if value:
        out.print(f"pramana {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version and exit")
    ] = False,
) -> None:
    """pramana: grounded lookups for AI agents."""


def _run(action: Callable[[], T]) -> T:
    """Run an action; pramana errors become one line on stderr and exit code 2, no traceback."""
    try:
        return action()
    except PramanaError as exc:
        from rich.markup import escape

        # Messages quote what the user gave: "[/x]" in it is text, not rich markup (which would raise).
        err.print(f"[red]error:[/red] {escape(str(exc))}", highlight=False, soft_wrap=True)
        raise typer.Exit(2) from None


def _run_async(coroutine: Callable[[], Coroutine[Any, Any, T]]) -> T:
    import asyncio

    return _run(lambda: asyncio.run(coroutine()))


def _maybe_terminal() -> bool:
    """Whether rich could take stdout for a terminal (asked without importing rich when it cannot)."""
    forced = ("FORCE_COLOR", "FORCE_TERMINAL", "TTY_INTERACTIVE", "TTY_COMPATIBLE")
    return sys.stdout.isatty() or any(name in os.environ for name in forced)


def _show(text: str, model: BaseModel, as_json: bool) -> None:
    if as_json:
        out.print_json(json.dumps(model.model_dump(mode="json"), ensure_ascii=False))
    elif _maybe_terminal() and out.is_terminal:
        from rich.markdown import Markdown

        out.print(Markdown(text))
    else:
        sys.stdout.write(text + "\n")


def _gita_settings(db: Path | None = None, source: str | None = None) -> GitaSettings:
    """Flags that were set override the environment; a bad value (either) is one line and exit 2."""
    from pramana.config import GitaSettings

    return _run(lambda: GitaSettings.load(db_path=db, api_url=source))


def _gita_service(db: Path | None = None, source: str | None = None):  # type: ignore[no-untyped-def]
    from pramana.gita.service import GitaService

    return _run(lambda: GitaService(_gita_settings(db, source)))


@gita_app.command("seed")
def gita_seed(db: DbOption = None, source: SourceOption = None, as_json: JsonOption = False) -> None:
    """Download all 701 verses and 18 chapters into the cache (resumable; fetches only what is missing)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from pramana.gita import format as gita_format

    service = _gita_service(db, source)
    with Progress(
        TextColumn("[bold]seeding[/bold]"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.description}"),
        console=err.get(),
        transient=False,
    ) as bar:
        task = bar.add_task("", total=None)

        async def progress(done: int, total: int, message: str) -> None:
            bar.update(task, completed=done, total=total, description=message)

        result = _run_async(lambda: service.seed(progress))
    _show(gita_format.seed_markdown(result), result, as_json)
    if not result.complete:
        raise typer.Exit(1)


@gita_app.command("lookup")
def gita_lookup(
    reference: Annotated[str, typer.Argument(help="e.g. 'BG 2.47', '2:47', 'bg 15-7'")],
    translator: TranslatorOption = None,
    db: DbOption = None,
    source: SourceOption = None,
    as_json: JsonOption = False,
) -> None:
    """Show one verse."""
    from pramana.gita import format as gita_format

    service = _gita_service(db, source)
    verse = _run_async(lambda: service.lookup(reference, translator))
    _show(gita_format.verse_markdown(verse), verse, as_json)


@gita_app.command("search")
def gita_search(
    text: Annotated[str, typer.Argument(help="Words to find")],
    max_results: Annotated[int, typer.Option("--max-results", "-n", min=1, max=10)] = 5,
    translator: TranslatorOption = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Keyword search over the cached verses."""
    from pramana.gita import format as gita_format

    service = _gita_service(db)
    found = _run(lambda: service.search(text, max_results, translator))
    _show(gita_format.search_markdown(found), found, as_json)


@gita_app.command("match")
def gita_match(
    text: Annotated[str, typer.Argument(help="Garbled Sanskrit, e.g. 'man mana bhava mad bhakto'")],
    top_n: Annotated[int, typer.Option("--top-n", "-n", min=1, max=5)] = 3,
    translator: TranslatorOption = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Find the verse garbled Sanskrit comes from."""
    from pramana.gita import format as gita_format

    service = _gita_service(db)
    matched = _run(lambda: service.match(text, top_n, translator))
    _show(gita_format.match_markdown(matched), matched, as_json)


@gita_app.command("correct")
def gita_correct(
    file: Annotated[str, typer.Argument(help="Transcript file, or - for standard input")],
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", help="Write the corrected markdown here (default: stdout)"),
    ] = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Correct the Gita quotes in a lecture transcript: confident ones replaced, unsure ones flagged."""
    from pramana.gita import format as gita_format

    text = _run(lambda: _read_text(file))
    service = _gita_service(db)
    result = _run(lambda: service.correct_transcript(text))
    rendered = gita_format.transcript_markdown(result)
    if output is not None:
        output.write_text(result.model_dump_json(indent=2) if as_json else rendered + "\n", encoding="utf-8")
        err.print(f"{result.replaced} replaced, {result.flagged} flagged; wrote {output}", highlight=False)
    else:
        _show(rendered, result, as_json)


def _read_text(file: str) -> str:
    if file == "-":
        return sys.stdin.read()
    path = Path(file)
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InvalidInputError(f"no such file: {path}") from None
    except (UnicodeDecodeError, IsADirectoryError) as exc:
        raise InvalidInputError(f"cannot read {path} as UTF-8 text: {exc}") from None


@gita_app.command("chapter")
def gita_chapter(
    chapter: Annotated[int, typer.Argument(help="Chapter number, 1-18")],
    db: DbOption = None,
    source: SourceOption = None,
    as_json: JsonOption = False,
) -> None:
    """Show a chapter's name, verse count and summary."""
    from pramana.gita import format as gita_format

    service = _gita_service(db, source)
    info = _run_async(lambda: service.chapter_summary(chapter))
    _show(gita_format.chapter_markdown(info), info, as_json)


# -- sanskrit ------------------------------------------------------------------------------------

SanskritDb = Annotated[
    Path | None, typer.Option("--db", help="Dictionary database (default: $SANSKRIT_DB_PATH or the data dir)")
]


def _sanskrit_settings(db: Path | None = None, source: str | None = None):  # type: ignore[no-untyped-def]
    from pramana.config import SanskritSettings

    return _run(lambda: SanskritSettings.load(db_path=db, source_url=source))


def _sanskrit_service(db: Path | None = None):  # type: ignore[no-untyped-def]
    from pramana.sanskrit.service import SanskritService

    return _run(lambda: SanskritService(_sanskrit_settings(db).resolved_db_path()))


@sanskrit_app.command("install")
def sanskrit_install(
    codes: Annotated[list[str], typer.Argument(help="csl-orig dictionary codes, e.g. mw ap90 md")],
    source: Annotated[
        str | None,
        typer.Option("--source", help="Base URL or folder of csl-orig v02 (default: the upstream)"),
    ] = None,
    db: SanskritDb = None,
) -> None:
    """Download and index dictionaries from csl-orig (atomically: a failure keeps the previous state)."""
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from pramana.sanskrit.source import install
    from pramana.sanskrit.store import SanskritStore

    settings = _sanskrit_settings(db, source)
    store = _run(lambda: SanskritStore(settings.resolved_db_path()))
    with Progress(
        TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed:,.0f} bytes"),
        TimeElapsedColumn(), console=err.get(),
    ) as bar:  # fmt: skip
        task = bar.add_task("starting", total=None)

        async def progress(message: str, done: int, total: int | None) -> None:
            bar.update(task, description=message, completed=done, total=total)

        installed = _run_async(
            lambda: install(store, codes, settings.source_url, settings.downloads_dir(), progress)
        )
    for item in installed:
        out.print(
            f"{item.code}: {item.entries:,} entries, {item.alternates:,} alternate headwords, "
            f"{item.seconds} s"
        )


@sanskrit_app.command("import")
def sanskrit_import(
    path: Annotated[Path, typer.Argument(help="A csl .txt file, a .slob file, or the Heritage MW folder")],
    code: Annotated[
        str | None, typer.Option("--code", help="Dictionary code (default: from the file name)")
    ] = None,
    name: Annotated[str | None, typer.Option("--name", help="Dictionary name shown to users")] = None,
    fmt: Annotated[str, typer.Option("--format", help="auto | csl | slob | stardict | heritage-mw")] = "auto",
    db: SanskritDb = None,
) -> None:
    """Import a local dictionary file (atomically: a failure keeps the previous state)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from pramana.sanskrit.importers import import_path
    from pramana.sanskrit.store import SanskritStore

    settings = _sanskrit_settings(db)
    store = _run(lambda: SanskritStore(settings.resolved_db_path()))
    dictionary_code = code or path.stem.split(".")[0].lower()
    with Progress(
        TextColumn("importing"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=err.get()
    ) as bar:
        task = bar.add_task("", total=None)
        item = _run(
            lambda: import_path(
                store,
                path,
                dictionary_code,
                name,
                fmt,
                lambda done, total: bar.update(task, completed=done, total=total),
            )
        )
    out.print(f"{item.code}: {item.entries:,} entries in {item.seconds} s")


@sanskrit_app.command("search")
def sanskrit_search(
    query: Annotated[str, typer.Argument(help="A word in any script")],
    mode: Annotated[str, typer.Option("--mode", "-m", help="exact | prefix | fuzzy | reverse")] = "exact",
    dicts: Annotated[
        list[str] | None, typer.Option("--dict", "-d", help="Dictionary code (repeatable)")
    ] = None,
    limit: Annotated[int, typer.Option("--limit", "-n", min=1, max=1000)] = 50,
    db: SanskritDb = None,
    as_json: JsonOption = False,
) -> None:
    """Search headwords or article text."""
    from pramana.sanskrit import format as sanskrit_format

    found = _run(lambda: _sanskrit_service(db).search(query, mode, dicts, limit))
    _show(sanskrit_format.search_markdown(found), found, as_json)


@sanskrit_app.command("article")
def sanskrit_article(
    article_id: Annotated[str, typer.Argument(help="e.g. ap90:100")],
    deva: Annotated[bool, typer.Option("--deva", help="Sanskrit in Devanāgarī")] = False,
    db: SanskritDb = None,
    as_json: JsonOption = False,
) -> None:
    """Show one article."""
    from pramana.sanskrit import format as sanskrit_format

    article = _run(lambda: _sanskrit_service(db).get_article(article_id, "devanagari" if deva else "iast"))
    _show(sanskrit_format.article_markdown(article), article, as_json)


@sanskrit_app.command("list")
def sanskrit_list(db: SanskritDb = None, as_json: JsonOption = False) -> None:
    """List the installed dictionaries."""
    from pramana.sanskrit import format as sanskrit_format

    listed = _run(lambda: _sanskrit_service(db).list_dictionaries())
    _show(sanskrit_format.dictionaries_markdown(listed), listed, as_json)


@sanskrit_app.command("transliterate")
def sanskrit_transliterate(
    text: Annotated[str, typer.Argument(help="Text to convert")],
    source: Annotated[str | None, typer.Option("--from", help="Source scheme (detected if omitted)")] = None,
    target: Annotated[str | None, typer.Option("--to", help="Target scheme")] = None,
    as_json: JsonOption = False,
) -> None:
    """Convert between IAST, Devanāgarī, SLP1, Harvard-Kyoto, ITRANS and Velthuis."""
    from pramana.sanskrit import format as sanskrit_format
    from pramana.sanskrit.service import transliterate

    converted = _run(lambda: transliterate(text, None, source, target))
    _show(sanskrit_format.transliteration_markdown(converted), converted, as_json)


# -- pali ------------------------------------------------------------------------------------------

PaliDb = Annotated[Path | None, typer.Option("--db", help="dpd.db (default: $DPD_DB_PATH or the data dir)")]


def _pali_settings(db: Path | None = None, url: str | None = None):  # type: ignore[no-untyped-def]
    from pramana.config import PaliSettings

    return _run(lambda: PaliSettings.load(db_path=db, release_url=url))


def _pali_service(db: Path | None = None):  # type: ignore[no-untyped-def]
    from pramana.pali.service import PaliService

    return _run(lambda: PaliService(_pali_settings(db).resolved_db_path()))


@pali_app.command("build")
def pali_build(
    source: Annotated[
        Path,
        typer.Option("--from", help="Folder of DPD backups: dpd_headwords*.tsv, dpd_roots.tsv, templates"),
    ],
    db: PaliDb = None,
) -> None:
    """Build a dpd.db-compatible database from DPD's TSV backups (the old file stays until it is done)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from pramana.pali.source import build

    target = _pali_settings(db).resolved_db_path()
    with Progress(
        TextColumn("{task.description:<12}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err.get(),
    ) as bar:
        task = bar.add_task("reading", total=None)

        def progress(stage: str, done: int, total: int | None) -> None:
            bar.update(task, description=stage, completed=done, total=total)

        report = _run(lambda: build(source, target, progress))
    out.print(
        f"{report.path}: {report.headwords:,} headwords, {report.roots:,} roots, "
        f"{report.templates} templates, {report.lookup_keys:,} lookup keys "
        f"({report.generated_forms:,} generated forms) in {report.seconds} s"
    )


@pali_app.command("download")
def pali_download(
    url: Annotated[
        str | None, typer.Option("--url", help="dpd.db.tar.bz2 URL (default: DPD's latest)")
    ] = None,
    db: PaliDb = None,
) -> None:
    """Download DPD's release (resumable; checked against its .sha256 when published) and unpack it."""
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from pramana.pali.source import download_release

    settings = _pali_settings(db, url)
    with Progress(
        TextColumn("downloading"), BarColumn(), TextColumn("{task.completed:,.0f} bytes"),
        TimeElapsedColumn(), console=err.get(),
    ) as bar:  # fmt: skip
        task = bar.add_task("", total=None)

        async def progress(done: int, total: int | None) -> None:
            bar.update(task, completed=done, total=total)

        path = _run_async(
            lambda: download_release(settings.release_url, settings.resolved_db_path(), progress=progress)
        )
    out.print(f"{path}: ready")


@pali_app.command("analyze")
def pali_analyze(
    sentence: Annotated[str, typer.Argument(help="A Pāḷi sentence, any script")],
    db: PaliDb = None,
    as_json: JsonOption = False,
) -> None:
    """Every word of a sentence: candidate headwords, grammar, meaning, sandhi splits."""
    from pramana.pali import format as pali_format

    found = _run(lambda: _pali_service(db).analyze(sentence))
    _show(pali_format.sentence_markdown(found), found, as_json)


@pali_app.command("lookup")
def pali_lookup(
    word: Annotated[str, typer.Argument(help="One Pāḷi word")], db: PaliDb = None, as_json: JsonOption = False
) -> None:
    """Everything DPD knows about one word."""
    from pramana.pali import format as pali_format

    found = _run(lambda: _pali_service(db).lookup_word(word))
    _show(pali_format.word_markdown(found), found, as_json)


@pali_app.command("search")
def pali_search(
    english: Annotated[str, typer.Argument(help="English words")],
    limit: Annotated[int, typer.Option("--limit", "-n")] = 10,
    db: PaliDb = None,
    as_json: JsonOption = False,
) -> None:
    """English to Pāḷi: headwords whose meanings hold all the words."""
    from pramana.pali import format as pali_format

    found = _run(lambda: _pali_service(db).search_meaning(english, limit))
    _show(pali_format.meaning_markdown(found), found, as_json)


@pali_app.command("transliterate")
def pali_transliterate(
    text: Annotated[str, typer.Argument(help="Pāḷi text")],
    target: Annotated[
        str, typer.Option("--to", help="roman, sinhala, thai, myanmar or devanagari")
    ] = "roman",
    source: Annotated[
        str | None, typer.Option("--from", help="Script of the text (detected if omitted)")
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Convert Pāḷi between Roman, Sinhala, Thai, Myanmar and Devanāgarī."""
    from pramana.pali import format as pali_format
    from pramana.pali.service import transliterate_pali

    converted = _run(lambda: transliterate_pali(text, target, source))
    _show(pali_format.transliteration_markdown(converted), converted, as_json)


# -- code ------------------------------------------------------------------------------------------

code_app = typer.Typer(
    help="Code search: index a repository, search it, read its symbols.", no_args_is_help=True
)
app.add_typer(code_app, name="code")
CodeDb = Annotated[
    Path | None, typer.Option("--db", help="Index file (default: $PRAMANA_CODE_DB or one per repository)")
]
CodeRepo = Annotated[
    Path | None, typer.Option("--repo", help="Repository checkout (default: $PRAMANA_CODE_REPO)")
]
Backend = Annotated[str | None, typer.Option("--backend", help="sqlite (default), milvus or pinecone")]
EmbedderOption = Annotated[
    str | None,
    typer.Option(
        "--embedder", help="auto (default), static, minilm (slower, better on sentences), openai or none"
    ),
]


def _code_settings(repo: Path | None = None, db: Path | None = None, backend: str | None = None,
                   embedder: str | None = None):  # type: ignore[no-untyped-def]  # fmt: skip
    from pramana.config import CodeSettings

    return _run(lambda: CodeSettings.load(repo=repo, db_path=db, backend=backend, embedder=embedder))


def _code_service(repo: Path | None, db: Path | None):  # type: ignore[no-untyped-def]
    from pramana.code.runtime import open_service

    return _run(lambda: open_service(_code_settings(repo, db), serving=False))


@code_app.command("index")
def code_index(
    path: Annotated[Path, typer.Argument(help="The repository folder")],
    db: CodeDb = None,
    backend: Backend = None,
    embedder: EmbedderOption = None,
) -> None:
    """Index a repository (again): only files whose content changed are parsed and embedded."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from pramana.code.runtime import make_embedder, make_engine, run_index
    from pramana.code.store import CodeStore

    settings = _code_settings(path, db, backend, embedder)

    def index():  # type: ignore[no-untyped-def]
        store = CodeStore(settings.resolved_db_path())
        chosen = make_embedder(settings)
        engine = make_engine(settings, store, chosen)
        with Progress(
            TextColumn("{task.description:<8}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
            console=err.get(),
        ) as bar:  # fmt: skip
            task = bar.add_task("walking", total=None)

            def progress(stage: str, done: int, total: int) -> None:
                bar.update(task, description=stage, completed=done, total=total)

            return store, chosen, run_index(path, store, chosen, engine, settings, progress)

    store, chosen, report = _run(index)
    counts = store.counts()
    embedded = (
        f", {report.chunks_embedded:,} chunks embedded ({chosen.name})"
        if chosen
        else " (keyword search only)"
    )
    out.print(
        f"{settings.resolved_db_path()}: {report.files_seen:,} files ({report.files_parsed:,} parsed, "
        f"{report.files_unchanged:,} unchanged, {report.files_removed:,} removed){embedded}; "
        f"{counts['chunks']:,} chunks, {counts['symbols']:,} symbols in {report.total_seconds:.1f} s"
    )
    for problem in report.errors[:20]:
        err.print(f"[yellow]skipped[/yellow] {problem}", highlight=False)


@code_app.command("search")
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

    service = _code_service(repo, db)
    if docs:
        found = _run(lambda: service.search_docs(query, limit))
    else:
        found = _run(lambda: service.search_code(query, limit, package, language))
    _show(code_format.search_markdown(found, f"Results for {query!r}"), found, as_json)


@code_app.command("functions")
def code_functions(
    path: Annotated[str, typer.Argument(help="File or folder, relative to the repository")],
    repo: CodeRepo = None,
    db: CodeDb = None,
    as_json: JsonOption = False,
) -> None:
    """List the functions, classes and types defined in a file or folder."""
    from pramana.code import format as code_format

    found = _run(lambda: _code_service(repo, db).list_functions(path))
    _show(code_format.symbols_markdown(found), found, as_json)


@code_app.command("usages")
def code_usages(
    name: Annotated[str, typer.Argument(help="Function, class or export name")],
    repo: CodeRepo = None,
    db: CodeDb = None,
    limit: Annotated[int, typer.Option("--limit", "-n")] = 20,
    as_json: JsonOption = False,
) -> None:
    """Where a name is defined and used."""
    from pramana.code import format as code_format

    found = _run(lambda: _code_service(repo, db).find_usages(name, limit))
    _show(code_format.usages_markdown(found), found, as_json)


@code_app.command("deps")
def code_deps(
    path: Annotated[str, typer.Argument(help="File, relative to the repository")],
    repo: CodeRepo = None,
    db: CodeDb = None,
    as_json: JsonOption = False,
) -> None:
    """What a file imports and which files import it."""
    from pramana.code import format as code_format

    found = _run(lambda: _code_service(repo, db).get_dependencies(path))
    _show(code_format.dependencies_markdown(found), found, as_json)


@code_app.command("explain")
def code_explain(
    query: Annotated[str, typer.Argument(help="A name (parse, Client.send) or a concept")],
    repo: CodeRepo = None,
    db: CodeDb = None,
    as_json: JsonOption = False,
) -> None:
    """A definition with what it calls, what its file imports and where it is used."""
    from pramana.code import format as code_format

    found = _run(lambda: _code_service(repo, db).explain_code(query))
    _show(code_format.explanation_markdown(found), found, as_json)


def _serve_settings(
    names: list[str], db: Path | None, source: str | None, repo: Path | None, backend: str | None,
    embedder: str | None,
) -> dict[str, Any]:  # fmt: skip
    """Each served server's settings; a flag for a server that is not being served is an error."""
    if db is not None and len(names) > 1:
        raise InvalidInputError(
            "--db names one server's database; serving several, set VEDABASE_DB_PATH, SANSKRIT_DB_PATH, "
            "DPD_DB_PATH or PRAMANA_CODE_DB instead"
        )
    if source is not None and "gita" not in names:
        raise InvalidInputError("--source is the gita server's data source; gita is not being served")
    if (repo or backend or embedder) and "code" not in names:
        raise InvalidInputError(
            "--repo, --backend and --embedder belong to the code server, which is not served"
        )
    made: dict[str, Any] = {}
    if "gita" in names:
        made["gita"] = _gita_settings(db, source)
    if "sanskrit" in names:
        made["sanskrit"] = _sanskrit_settings(db)
    if "pali" in names:
        made["pali"] = _pali_settings(db)
    if "code" in names:
        made["code"] = _code_settings(repo, db, backend, embedder)
    return made


def _http_settings(**given: Any):  # type: ignore[no-untyped-def]
    from pramana.config import HttpSettings

    return HttpSettings.load(**given)


def _joined(values: list[str] | None) -> str | None:
    return ",".join(values) if values else None


@app.command("serve")
def serve(
    servers: Annotated[
        list[str], typer.Argument(help="gita, sanskrit, pali, code, or all", show_default=False)
    ],
    transport: Annotated[str, typer.Option("--transport", help="stdio or http")] = "stdio",
    host: Annotated[str | None, typer.Option(help="Address to bind (default 127.0.0.1)")] = None,
    port: Annotated[int | None, typer.Option(help="Port (default 8000; 0 picks a free one)")] = None,
    auth: Annotated[str | None, typer.Option(help="none (default), token or jwt")] = None,
    tokens_file: Annotated[
        Path | None, typer.Option(help="Bearer tokens, one per line (or PRAMANA_TOKENS)")
    ] = None,
    jwks_url: Annotated[str | None, typer.Option(help="The authorization server's JWKS (auth=jwt)")] = None,
    issuer: Annotated[str | None, typer.Option(help="Required token issuer (auth=jwt)")] = None,
    audience: Annotated[
        str | None, typer.Option(help="Required token audience (default: --public-url)")
    ] = None,
    public_url: Annotated[str | None, typer.Option(help="This server's /mcp URL as clients reach it")] = None,
    allowed_host: Annotated[
        list[str] | None, typer.Option(help="Host name clients use (repeatable; * = any)")
    ] = None,
    allowed_origin: Annotated[
        list[str] | None, typer.Option(help="Browser origin allowed (repeatable)")
    ] = None,
    insecure: Annotated[bool, typer.Option(help="Allow binding beyond loopback without auth")] = False,
    stateless: Annotated[bool, typer.Option(help="No sessions, for replicas behind a load balancer")] = False,
    rate_limit: Annotated[
        int | None, typer.Option(help="Requests per minute per token; 0 = off (600 with auth)")
    ] = None,
    max_body: Annotated[int | None, typer.Option(help="Largest request body in bytes (4 MiB)")] = None,
    db: Annotated[Path | None, typer.Option("--db", help="Database file, when serving one server")] = None,
    source: SourceOption = None,
    repo: CodeRepo = None,
    backend: Backend = None,
    embedder: EmbedderOption = None,
) -> None:
    """Run MCP servers: one, several, or `all` from one endpoint, on stdio (default) or HTTP.

    `all` serves every configured server and names on stderr those it leaves out, with why.

    Over HTTP: streamable HTTP at /mcp, legacy SSE at /sse, GET /health and GET /ready.
    """
    from pramana.mcp.servers import build, servable, server_names

    if transport not in ("stdio", "http"):
        err.print("[red]error:[/red] --transport is stdio or http")
        raise typer.Exit(2)
    per_server = _run(lambda: _serve_settings(server_names(servers), db, source, repo, backend, embedder))
    names, left_out = _run(lambda: servable(servers, per_server))
    if transport == "stdio":
        for name, why in left_out.items():
            sys.stderr.write(f"{name}: not served: {why}\n")
        _run(lambda: build(names, per_server, left_out)).server.run("stdio")
        return
    from pramana.mcp.http import serve_http
    from pramana.mcp.tools import log_level

    http = _run(
        lambda: _http_settings(
            host=host,
            port=port,
            auth=auth,
            tokens_file=tokens_file,
            jwks_url=jwks_url,
            jwt_issuer=issuer,
            jwt_audience=audience,
            public_url=public_url,
            allowed_hosts=_joined(allowed_host),
            allowed_origins=_joined(allowed_origin),
            insecure=insecure or None,
            stateless=stateless or None,
            rate_limit=rate_limit,
            max_body_bytes=max_body,
        )
    )
    _run(lambda: serve_http(lambda: build(names, per_server, left_out), http, log_level("INFO")))


if __name__ == "__main__":  # at the end: every command is registered by now
    app()
