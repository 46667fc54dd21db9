"""`pramana pali …`: build or download the Digital Pāḷi Dictionary, analyse sentences, look up words."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from pramana.cli_support import JsonOption, announce, install, out, run, show

if TYPE_CHECKING:
    from pramana.config import PaliSettings
    from pramana.pali.service import PaliService

app = typer.Typer(
    help="Digital Pāḷi Dictionary: build or download it, analyse sentences, look up words.",
    no_args_is_help=True,
)

# Shown in --help (transliterate_pali checks them), spelled out so that --help does not import it.
SCRIPTS = "roman|sinhala|thai|myanmar|devanagari"
PaliDb = Annotated[Path | None, typer.Option("--db", help="dpd.db (default: $DPD_DB_PATH or the data dir)")]


def load_settings(db: Path | None = None, url: str | None = None) -> PaliSettings:
    """Flags that were set override the environment; a bad value (either) is one line and exit 2."""
    from pramana.config import PaliSettings

    return run(lambda: PaliSettings.load(db_path=db, release_url=url))


def _service(db: Path | None = None) -> PaliService:
    from pramana.pali.service import PaliService

    return run(lambda: PaliService(load_settings(db).resolved_db_path()))


@app.command("build")
def pali_build(
    source: Annotated[
        Path,
        typer.Option("--from", help="Folder of DPD backups: dpd_headwords*.tsv, dpd_roots.tsv, templates"),
    ],
    db: PaliDb = None,
) -> None:
    """Build a dpd.db-compatible database from DPD's TSV backups (the old file stays until it is done)."""
    from pramana.pali.source import BuildReport
    from pramana.servers import Source

    settings = load_settings(db)
    target = settings.resolved_db_path()
    tsv_mb = sum(path.stat().st_size for path in source.rglob("*.tsv") if path.is_file()) / 1e6
    announce(
        f"Building {target} from {tsv_mb:,.0f} MB of TSV under {source}: it generates every inflected"
        f" form (about {max(1, round(tsv_mb * 1.4)):,} s on two cores, a file about"
        f" {max(1, round(tsv_mb * 9.5)):,} MB; a 61,596-headword subset, 19 MB, took 26 s and made 181 MB)."
        " The old file stays until the new one is complete."
    )
    backups = Source(str(source), steps={"build": True})
    report: BuildReport = install("pali", settings, backups, "{task.description:<12}").report
    out.print(
        f"{report.path}: {report.headwords:,} headwords, {report.roots:,} roots, "
        f"{report.templates} templates, {report.lookup_keys:,} lookup keys "
        f"({report.generated_forms:,} generated forms) in {report.seconds} s",
        markup=False,
    )


@app.command("download")
def pali_download(
    url: Annotated[
        str | None,
        typer.Option("--source", "--url", help="dpd.db.tar.bz2 URL or file (default: DPD's latest)"),
    ] = None,
    db: PaliDb = None,
) -> None:
    """Download DPD's release (resumable; checked against its .sha256 when published) and unpack it."""
    from pramana.servers import Source

    settings = load_settings(db, url)
    announce(
        f"Downloading DPD's release from {settings.release_url} and unpacking it (resumable: if it"
        " stops, the same command goes on where it stopped)."
    )
    installed = install("pali", settings, Source(), "downloading", "bytes")
    out.print(f"{installed.path}: ready", markup=False)


@app.command("analyze")
def pali_analyze(
    sentence: Annotated[str, typer.Argument(help="A Pāḷi sentence, any script")],
    db: PaliDb = None,
    as_json: JsonOption = False,
) -> None:
    """Every word of a sentence: candidate headwords, grammar, meaning, sandhi splits."""
    from pramana.pali import format as pali_format

    found = run(lambda: _service(db).analyze(sentence))
    show(pali_format.sentence_markdown(found), found, as_json)


@app.command("lookup")
def pali_lookup(
    word: Annotated[str, typer.Argument(help="One Pāḷi word")], db: PaliDb = None, as_json: JsonOption = False
) -> None:
    """Everything DPD knows about one word."""
    from pramana.pali import format as pali_format

    found = run(lambda: _service(db).lookup_word(word))
    show(pali_format.word_markdown(found), found, as_json)


@app.command("search")
def pali_search(
    english: Annotated[str, typer.Argument(help="English words")],
    limit: Annotated[int, typer.Option("--limit", "-n")] = 10,
    db: PaliDb = None,
    as_json: JsonOption = False,
) -> None:
    """English to Pāḷi: headwords whose meanings hold all the words."""
    from pramana.pali import format as pali_format

    found = run(lambda: _service(db).search_meaning(english, limit))
    show(pali_format.meaning_markdown(found), found, as_json)


@app.command("transliterate")
def pali_transliterate(
    text: Annotated[str, typer.Argument(help="Pāḷi text")],
    target: Annotated[str, typer.Option("--to", metavar=SCRIPTS, help="Script to write")] = "roman",
    source: Annotated[
        str | None, typer.Option("--from", metavar=SCRIPTS, help="Script of the text (detected if omitted)")
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Convert Pāḷi between Roman, Sinhala, Thai, Myanmar and Devanāgarī."""
    from pramana.pali import format as pali_format
    from pramana.pali.service import transliterate_pali

    converted = run(lambda: transliterate_pali(text, target, source))
    show(pali_format.transliteration_markdown(converted), converted, as_json)
