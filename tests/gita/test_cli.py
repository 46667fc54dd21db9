"""The `pramana gita` commands."""

import json

import pytest
from typer.testing import CliRunner

from pramana.cli import app
from tests.conftest import run_pramana

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args))


def test_lookup_prints_the_tools_markdown(seeded_db):
    result = run("gita", "lookup", "BG 2.47", "--db", str(seeded_db))
    assert result.exit_code == 0
    assert result.output.startswith("## BG 2.47\n\n**Sanskrit:**")
    assert "[Read on Vedabase](https://vedabase.io/en/library/bg/2/47/)" in result.output


def test_lookup_json(seeded_db):
    result = run("gita", "lookup", "15.7", "--translator", "gambir", "--json", "--db", str(seeded_db))
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert data["ref"] == "BG 15.7" and data["translation"]["author_key"] == "gambir"


def test_search_match_chapter(seeded_db, mirror_url):
    search = run("gita", "search", "karmanyevadhikaraste", "--db", str(seeded_db))
    match = run("gita", "match", "man mana bhava mad bhakto", "-n", "2", "--db", str(seeded_db))
    chapter = run("gita", "chapter", "13", "--db", str(seeded_db), "--source", mirror_url)
    assert "1. **BG 2.47**" in search.output
    assert "1. **BG 9.34**" in match.output
    assert "**Verses:** 35" in chapter.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["gita", "lookup", "BG 2.47 please"], "cannot read"),
        (["gita", "lookup", "19.1"], "chapters 1-18"),
        (["gita", "search", "   "], "empty"),
    ],
)
def test_errors_are_one_clear_line(seeded_db, args, message):
    result = run_pramana(*args, "--db", str(seeded_db), timeout=60)
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr + result.stdout


def test_seed_shows_progress_and_result(tmp_path, gita_mirror):
    db = tmp_path / "c.db"
    result = run_pramana("gita", "seed", "--db", str(db), "--source", str(gita_mirror))
    assert result.returncode == 0, result.stderr
    assert "seeding" in result.stderr and "702/702" in result.stderr
    assert "Verses cached: 701 of 701" in result.stdout


def test_seed_failure_exits_nonzero(tmp_path):
    result = run("gita", "seed", "--db", str(tmp_path / "c.db"), "--source", str(tmp_path / "nowhere"))
    assert result.exit_code == 2
    assert "neither an http(s) URL nor an existing directory" in result.output


def test_correct_writes_the_corrected_markdown(seeded_db, tmp_path):
    transcript = tmp_path / "lecture.txt"
    transcript.write_text("Krishna says yada yada hi dharmasya glanir bhavati bharata, you see.", "utf-8")
    out = tmp_path / "lecture.md"
    result = run("gita", "correct", str(transcript), "-o", str(out), "--db", str(seeded_db))
    assert result.exit_code == 0, result.output
    written = out.read_text("utf-8")
    assert written.startswith(
        "Krishna says _yadā yadā hi dharmasya glānirbhavati bhārata_ (BG 4.7), you see."
    )
    assert "1 replaced, 0 flagged" in result.output


def test_correct_missing_file_is_a_clear_error(seeded_db, tmp_path):
    result = run("gita", "correct", str(tmp_path / "nope.txt"), "--db", str(seeded_db))
    assert result.exit_code == 2
    assert "no such file" in result.output


def test_the_main_job_header_shows_the_quote_as_given(seeded_db):
    """The matcher drops what reads as English at the edges ("man"); the header keeps every word."""
    quote = "man manā bhava mad-bhākto mad-yajī mam namāskuru"
    shown = run("gita", "match", quote, "--db", str(seeded_db))
    assert shown.output.startswith(f'## Matches for "{quote}"\n')
    matched = json.loads(run("gita", "match", quote, "--json", "--db", str(seeded_db)).output)
    assert matched["given"] == quote and matched["matches"][0]["ref"] == "BG 9.34"


def test_searching_a_name_finds_the_verses_that_say_it(seeded_db):
    found = run("gita", "search", "krishna", "--db", str(seeded_db))
    assert found.exit_code == 0 and "1. **BG " in found.output and "Did you mean" not in found.output
