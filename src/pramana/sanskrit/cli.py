"""`pramana sanskrit …`: install and import dictionaries, search them, read articles, transliterate."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from pramana.cli_support import JsonOption, announce, install, out, progress_bar, run, show, waited

if TYPE_CHECKING:
    from pramana.config import SanskritSettings
    from pramana.sanskrit.forms import FormIndexBuilt
    from pramana.sanskrit.service import SanskritService
    from pramana.sanskrit.store import SanskritStore

app = typer.Typer(help="Sanskrit dictionaries: install, import, search, read.", no_args_is_help=True)
# Shown in --help (the service checks them); spelled out so that --help does not import the service.
SEARCH_MODES = ("exact", "prefix", "fuzzy", "reverse")
SCHEMES = "iast|devanagari|slp1|hk|itrans|velthuis"

FormsOption = Annotated[
    bool, typer.Option("--forms/--no-forms", help="Generate the inflected-form index afterwards")
]
DhatupathaOption = Annotated[
    Path | None,
    typer.Option("--dhatupatha", help="A dhatupatha.tsv for the verb forms (default: the one pramana ships)"),
]
SanskritDb = Annotated[
    Path | None, typer.Option("--db", help="Dictionary database (default: $SANSKRIT_DB_PATH or the data dir)")
]


def load_settings(db: Path | None = None, source: str | None = None) -> SanskritSettings:
    """Flags that were set override the environment; a bad value (either) is one line and exit 2."""
    from pramana.config import SanskritSettings

    return run(lambda: SanskritSettings.load(db_path=db, source_url=source))


def _service(db: Path | None = None) -> SanskritService:
    from pramana.sanskrit.service import SanskritService

    return run(lambda: SanskritService(load_settings(db).resolved_db_path()))


@app.command("install")
def sanskrit_install(
    codes: Annotated[list[str], typer.Argument(help="csl-orig dictionary codes, e.g. mw ap90 md")],
    source: Annotated[
        str | None,
        typer.Option("--source", help="Base URL or folder of csl-orig v02 (default: the upstream)"),
    ] = None,
    db: SanskritDb = None,
    with_forms: FormsOption = True,
) -> None:
    """Download and index dictionaries from csl-orig (atomically: a failure keeps the previous state),
    then generate the inflected forms of their stems and of the Dhātupāṭha roots."""
    import time

    from pramana.install import command
    from pramana.sanskrit.data import InstallReport
    from pramana.servers import Source

    settings = load_settings(db, source)
    started = time.monotonic()
    forms = (
        f"; then the form index: {FORMS_COST} (--no-forms skips it;"
        f" `{command('sanskrit forms')}` adds it later)"
        if with_forms
        else ""
    )
    announce(
        f"Installing {', '.join(codes)} from {settings.source_url}: one text file each (Apte's is 12 MB,"
        f" most 1-4 MB), indexed in seconds to half a minute each{forms}."
    )
    dictionaries = Source(parts=tuple(codes), steps={"forms": with_forms})
    report: InstallReport = install("sanskrit", settings, dictionaries).report
    for item in report.dictionaries:
        out.print(
            f"{item.code}: {item.entries:,} entries, {item.alternates:,} alternate headwords, "
            f"{item.seconds} s",
            markup=False,
        )
    if report.forms is not None:
        _show_forms(report.forms)
    out.print(f"done in {waited(started)}", markup=False)


# What generating the form index costs, as measured (docs/sanskrit.md, "The form index").
FORMS_COST = (
    "seconds: the lexicon of the installed dictionaries (about 3 s for MW and Apte), and the first time"
    " the verb forms of the Dhātupāṭha's 2,259 roots (about 8 s of CPU more); about 20 MB"
)


def _build_forms(store: SanskritStore, settings: SanskritSettings, dhatupatha: Path | None = None) -> None:
    """Rebuild the form index of what is installed, with a progress bar: the lexicon of the installed
    dictionaries (seconds) and, the first time, the verb forms of the Dhātupāṭha (pramana ships
    vidyut's, MIT; --dhatupatha gives another)."""
    from pramana.sanskrit.forms import build_form_index

    with progress_bar("generating the verb forms of the Dhātupāṭha (once)") as bar:
        task = bar.add_task("", total=None)
        built = run(
            lambda: build_form_index(
                store, dhatupatha, lambda done, total: bar.update(task, completed=done, total=total)
            )
        )
    _show_forms(built)


def _show_forms(built: FormIndexBuilt) -> None:
    verbs = f"{built.roots:,} roots' verbs generated" if built.roots else "the verbs kept"
    out.print(
        f"form index: {built.stems:,} stems and indeclinables of the installed dictionaries, {verbs}"
        f" ({built.verb_forms:,} verb forms, {built.verbal_stems:,} participles and verb stems),"
        f" {built.megabytes} MB, in {built.seconds} s",
        markup=False,
    )


@app.command("import")
def sanskrit_import(
    path: Annotated[Path, typer.Argument(help="A csl .txt file, a .slob file, or the Heritage MW folder")],
    code: Annotated[
        str | None, typer.Option("--code", help="Dictionary code (default: from the file name)")
    ] = None,
    name: Annotated[str | None, typer.Option("--name", help="Dictionary name shown to users")] = None,
    fmt: Annotated[str, typer.Option("--format", help="auto | csl | slob | stardict | heritage-mw")] = "auto",
    dhatupatha: DhatupathaOption = None,
    db: SanskritDb = None,
    with_forms: FormsOption = True,
) -> None:
    """Import a local dictionary file (atomically: a failure keeps the previous state), then generate
    the inflected forms of its stems (and of the roots of --dhatupatha)."""
    from pramana.sanskrit.importers import import_path
    from pramana.sanskrit.store import SanskritStore

    settings = load_settings(db)
    store = run(lambda: SanskritStore(settings.resolved_db_path()))
    dictionary_code = code or path.stem.split(".")[0].lower()
    with progress_bar("importing") as bar:
        task = bar.add_task("", total=None)
        item = run(
            lambda: import_path(
                store,
                path,
                dictionary_code,
                name,
                fmt,
                lambda done, total: bar.update(task, completed=done, total=total),
            )
        )
    out.print(f"{item.code}: {item.entries:,} entries in {item.seconds} s", markup=False)
    if with_forms:
        _build_forms(store, settings, dhatupatha)


@app.command("forms")
def sanskrit_forms(dhatupatha: DhatupathaOption = None, db: SanskritDb = None) -> None:
    """Rebuild the form index: the installed dictionaries' stems and indeclinables, and the verb forms
    of the Dhātupāṭha (generated by vidyut.prakriya the first time)."""
    from pramana.sanskrit.store import SanskritStore

    settings = load_settings(db)
    store = run(lambda: SanskritStore(settings.resolved_db_path()))
    _build_forms(store, settings, dhatupatha)


@app.command("analyze")
def sanskrit_analyze(
    word: Annotated[str, typer.Argument(help="An inflected word, any script (rāmeṇa, gacchati)")],
    dicts: Annotated[
        list[str] | None, typer.Option("--dict", "-d", help="Dictionary code (repeatable)")
    ] = None,
    db: SanskritDb = None,
    as_json: JsonOption = False,
) -> None:
    """What an inflected form is a form of."""
    from pramana.sanskrit import format as sanskrit_format

    analysed = run(lambda: _service(db).analyze(word, dicts))
    show(sanskrit_format.analysis_markdown(analysed), analysed, as_json)


@app.command("search")
def sanskrit_search(
    query: Annotated[str, typer.Argument(help="A word in any script")],
    mode: Annotated[
        str,
        typer.Option(
            "--mode",
            "-m",
            metavar="|".join(SEARCH_MODES),
            help="fuzzy: part of a headword; reverse: words of the article text",
        ),
    ] = "exact",
    dicts: Annotated[
        list[str] | None, typer.Option("--dict", "-d", help="Dictionary code (repeatable)")
    ] = None,
    limit: Annotated[int, typer.Option("--limit", "-n", min=1, max=1000)] = 50,
    db: SanskritDb = None,
    as_json: JsonOption = False,
) -> None:
    """Search headwords or article text."""
    from pramana.sanskrit import format as sanskrit_format

    found = run(lambda: _service(db).search(query, mode, dicts, limit))
    hits = sanskrit_format.search_markdown(found, limit_name="--limit/-n", dicts_name="--dict/-d")
    show(hits, found, as_json)


@app.command("article")
def sanskrit_article(
    article_id: Annotated[str, typer.Argument(help="e.g. ap90:100")],
    deva: Annotated[bool, typer.Option("--deva", help="Sanskrit in Devanāgarī")] = False,
    db: SanskritDb = None,
    as_json: JsonOption = False,
) -> None:
    """Show one article."""
    from pramana.sanskrit import format as sanskrit_format

    article = run(
        lambda: _service(db).get_article(article_id, "devanagari" if deva else "iast"),
        {"article_id": "ARTICLE_ID"},
    )
    show(sanskrit_format.article_markdown(article), article, as_json)


@app.command("list")
def sanskrit_list(db: SanskritDb = None, as_json: JsonOption = False) -> None:
    """List the installed dictionaries."""
    from pramana.sanskrit import format as sanskrit_format

    listed = run(lambda: _service(db).list_dictionaries())
    show(sanskrit_format.dictionaries_markdown(listed), listed, as_json)


@app.command("transliterate")
def sanskrit_transliterate(
    text: Annotated[str, typer.Argument(help="Text to convert")],
    source: Annotated[
        str | None, typer.Option("--from", metavar=SCHEMES, help="Source scheme (detected if omitted)")
    ] = None,
    target: Annotated[
        str | None,
        typer.Option("--to", metavar=SCHEMES, help="Target scheme (default: devanagari, or iast from it)"),
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Convert between IAST, Devanāgarī, SLP1, Harvard-Kyoto, ITRANS and Velthuis."""
    from pramana.sanskrit import format as sanskrit_format
    from pramana.sanskrit.service import transliterate

    converted = run(lambda: transliterate(text, None, source, target))
    show(sanskrit_format.transliteration_markdown(converted), converted, as_json)
