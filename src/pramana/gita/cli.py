"""`pramana gita …`: seed the verse cache, look up, search and match verses, correct transcripts."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from pramana.cli_support import JsonOption, announce, err, install, run, show, waited
from pramana.errors import InvalidInputError

if TYPE_CHECKING:
    from pramana.config import GitaSettings
    from pramana.gita.models import InstallResult, SeedResult
    from pramana.gita.service import GitaService

app = typer.Typer(
    help="Bhagavad Gita, Srimad-Bhagavatam, Caitanya-caritamrta: seed the cache, install the books, look up,"
    " search and match verses.",
    no_args_is_help=True,
)

DbOption = Annotated[
    Path | None,
    typer.Option("--db", help="Cache file (default: $VEDABASE_DB_PATH, else $PRAMANA_DATA_DIR/gita.db)"),
]
DatabaseUrlOption = Annotated[
    str | None,
    typer.Option(
        "--database-url",
        help="postgresql://… : the store on PostgreSQL, shared by replicas (default: $PRAMANA_DATABASE_URL,"
        " else the SQLite file)",
    ),
]
SourceOption = Annotated[
    str | None,
    typer.Option(
        "--source", help="Base URL or mirror directory (default: $VEDABASE_API_URL or the upstream)"
    ),
]
TranslatorOption = Annotated[str | None, typer.Option("--translator", "-t", help="Author key or name")]
BooksOption = Annotated[
    list[str] | None,
    typer.Option(
        "--book", "-b", help="Only this book (bg, sb, cc); again for more (default: every one installed)"
    ),
]


def load_settings(
    db: Path | None = None, source: str | None = None, database_url: str | None = None
) -> GitaSettings:
    """Flags that were set override the environment; a bad value (either) is one line and exit 2."""
    from pramana.config import GitaSettings

    return run(lambda: GitaSettings.load(db_path=db, api_url=source, database_url=database_url))


def _service(
    db: Path | None = None, source: str | None = None, database_url: str | None = None
) -> GitaService:
    from pramana.gita.service import GitaService

    return run(lambda: GitaService(load_settings(db, source, database_url)))


@app.command("install")
def gita_install(
    books: Annotated[list[str], typer.Argument(help="sb (Srimad-Bhagavatam), cc (Caitanya-caritamrta)")],
    source: Annotated[
        str | None,
        typer.Option(
            "--source",
            help="Upstream's archive as a URL, a local copy (.tar.gz) or the folder it unpacks to"
            " (default: $VEDABASE_BOOKS_SOURCE, else the pinned upstream archive)",
        ),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Install again books already installed")] = False,
    db: DbOption = None,
    database_url: DatabaseUrlOption = None,
    as_json: JsonOption = False,
) -> None:
    """Install the SB and CC verses into the cache: downloaded (resumable) or read from a local copy,
    checked whole, then written in one step per book. Run again: nothing to do."""
    from pramana.gita import format as gita_format
    from pramana.servers import Source

    settings = load_settings(db, database_url=database_url)
    books_source = Source(source, tuple(books), force=force)
    installed = install("gita", settings, books_source, "[bold]installing[/bold]", detail=True)
    result: InstallResult = installed.report
    show(gita_format.install_markdown(result), result, as_json)


@app.command("seed")
def gita_seed(
    db: DbOption = None,
    source: SourceOption = None,
    database_url: DatabaseUrlOption = None,
    vectors: Annotated[
        bool,
        typer.Option(
            "--vectors",
            help="Then encode the texts for ranking questions by meaning now (embeddings extra; a minute or"
            " two). Without it a server builds them in the background at its first question search.",
        ),
    ] = False,
    as_json: JsonOption = False,
) -> None:
    """Download all 701 verses and 18 chapters into the cache (resumable; fetches only what is missing);
    with --vectors, then encode the texts for question search."""
    import time
    from contextlib import closing

    from pramana.gita import format as gita_format
    from pramana.servers import Source

    settings = load_settings(db, source, database_url)
    started = time.monotonic()
    with closing(_service(db, source, database_url)) as service:
        plan = _seed_plan(service, vectors)
    if plan:
        announce(plan)
    installed = install(
        "gita", settings, Source(steps={"vectors": vectors}), "[bold]seeding[/bold]", detail=True
    )
    result: SeedResult = installed.report
    show(gita_format.seed_markdown(result), result, as_json)
    if plan:
        err.print(f"done in {waited(started)}", highlight=False, markup=False)
    if not result.complete:
        raise typer.Exit(1)


def _seed_plan(service: GitaService, vectors: bool) -> str:
    """What the seed is about to do and how long it takes (with `vectors`, the encoding too), or ""
    when the cache has it all."""
    from pramana.embed import extra_installed
    from pramana.gita.reference import VERSE_COUNT

    missing = VERSE_COUNT - service.store.verse_count()
    # No vectors yet: in the file beside the SQLite cache, or in PostgreSQL's table.
    encode = (
        vectors
        and extra_installed()
        and service.settings.question_model
        and service.store.vectors_stamp() == 0
    )
    if missing <= 0 and not encode:
        return ""
    plan = (
        f"Seeding the translations of {missing} verses and the 18 chapters from {service.settings.api_url}"
        " (seconds from a copy on disk, up to a minute from the internet)"
        if missing > 0
        else "The translations are cached"
    )
    if encode:
        plan += (
            "; then encoding them for question search with all-MiniLM-L6-v2 (about 14,000 texts: about a"
            " minute on two idle cores, several on a busy machine; VEDABASE_QUESTION_MODEL=false skips it,"
            " and questions are then ranked by their words)"
        )
    return plan + "."


@app.command("lookup")
def gita_lookup(
    reference: Annotated[str, typer.Argument(help="e.g. 'BG 2.47', '2:47', 'SB 1.2.6', 'CC Adi 17.31'")],
    translator: TranslatorOption = None,
    db: DbOption = None,
    database_url: DatabaseUrlOption = None,
    source: SourceOption = None,
    as_json: JsonOption = False,
) -> None:
    """Show one verse."""
    from pramana.gita import format as gita_format

    service = _service(db, source, database_url)
    verse = run(lambda: service.lookup(reference, translator))
    show(gita_format.verse_markdown(verse), verse, as_json)


@app.command("search")
def gita_search(
    text: Annotated[str, typer.Argument(help="Words to find")],
    max_results: Annotated[int, typer.Option("--max-results", "-n", min=1, max=10)] = 5,
    translator: TranslatorOption = None,
    book: BooksOption = None,
    db: DbOption = None,
    database_url: DatabaseUrlOption = None,
    as_json: JsonOption = False,
) -> None:
    """Search the verses of every book installed (the Gita's once seeded)."""
    from pramana.gita import format as gita_format

    service = _service(db, database_url=database_url)
    found = run(lambda: service.search(text, max_results, translator, book), {"books": "--book"})
    show(gita_format.search_markdown(found), found, as_json)


@app.command("match")
def gita_match(
    text: Annotated[str, typer.Argument(help="Garbled Sanskrit, e.g. 'man mana bhava mad bhakto'")],
    top_n: Annotated[int, typer.Option("--top-n", "-n", min=1, max=5)] = 3,
    translator: TranslatorOption = None,
    book: BooksOption = None,
    db: DbOption = None,
    database_url: DatabaseUrlOption = None,
    as_json: JsonOption = False,
) -> None:
    """Find the verse garbled Sanskrit comes from, in every book installed (or --book)."""
    from pramana.gita import format as gita_format

    service = _service(db, database_url=database_url)
    matched = run(
        lambda: service.match(text, top_n, translator, book), {"garbled_sanskrit": "TEXT", "books": "--book"}
    )
    show(gita_format.match_markdown(matched), matched, as_json)


@app.command("correct")
def gita_correct(
    file: Annotated[str, typer.Argument(help="Transcript file, or - for standard input")],
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", help="Write the corrected markdown here (default: stdout)"),
    ] = None,
    book: BooksOption = None,
    db: DbOption = None,
    database_url: DatabaseUrlOption = None,
    as_json: JsonOption = False,
) -> None:
    """Correct the verse quotes in a lecture transcript: confident ones replaced, unsure ones flagged."""
    from pramana.gita import format as gita_format

    text = run(lambda: _read_text(file))
    service = _service(db, database_url=database_url)
    result = run(lambda: service.correct_transcript(text, book), {"books": "--book"})
    rendered = gita_format.transcript_markdown(result)
    if output is not None:
        output.write_text(result.model_dump_json(indent=2) if as_json else rendered + "\n", encoding="utf-8")
        err.print(
            f"{result.replaced} replaced, {result.flagged} flagged; wrote {output}",
            highlight=False,
            markup=False,
        )
    else:
        show(rendered, result, as_json)


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


@app.command("chapter")
def gita_chapter(
    chapter: Annotated[
        str,
        typer.Argument(
            help="A Gita chapter number (its summary), or 'BG 2', 'SB 1.2', 'CC Madhya 20' (its verses)"
        ),
    ],
    translator: TranslatorOption = None,
    db: DbOption = None,
    database_url: DatabaseUrlOption = None,
    source: SourceOption = None,
    as_json: JsonOption = False,
) -> None:
    """A Gita chapter's name, verse count and summary (`chapter 13`); any book's chapter's verses
    (`chapter "SB 1.2"`)."""
    from pramana.gita import format as gita_format

    service = _service(db, source, database_url)
    if chapter.strip().isdigit():
        info = run(lambda: service.chapter_summary(int(chapter)))
        show(gita_format.chapter_markdown(info), info, as_json)
        return
    verses = run(lambda: service.chapter(chapter, translator))
    show(gita_format.chapter_verses_markdown(verses), verses, as_json)
