"""The `pramana pali` commands."""

import json
import shutil

from typer.testing import CliRunner

from pramana.cli import app

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args))


def test_build_analyze_lookup_search(tmp_path, dpd_data):
    folder = tmp_path / "backup"
    (folder / "sub").mkdir(parents=True)
    shutil.copyfile(dpd_data / "dpd-db" / "inflection_templates.json", folder / "inflection_templates.json")
    shutil.copyfile(dpd_data / "dpd-db" / "dpd_roots.tsv", folder / "sub" / "dpd_roots.tsv")
    (folder / "dpd_headwords.tsv").write_text(
        '"id"\t"lemma_1"\t"pos"\t"stem"\t"pattern"\t"meaning_1"\n'
        '"34626"\t"dhamma 1.01"\t"masc"\t"dhamm"\t"a masc"\t"nature; character"\n',
        encoding="utf-8",
    )
    db = str(tmp_path / "dpd.db")
    built = run("pali", "build", "--from", str(folder), "--db", db)
    assert built.exit_code == 0, built.output
    assert "1 headwords, 753 roots, 154 templates" in " ".join(built.output.split())
    analysed = run("pali", "analyze", "dhammo xyz", "--db", db, "--json")
    assert analysed.exit_code == 0
    tokens = json.loads(analysed.output)["tokens"]
    assert tokens[0]["candidates"][0]["readings"] == ["masc nom sg"] and tokens[1]["status"] == "not_found"
    assert "masc nom sg" in run("pali", "lookup", "dhammo", "--db", db).output
    assert "dhamma 1.01" in run("pali", "search", "character", "--db", db).output
    assert "एवं" in run("pali", "transliterate", "evaṃ", "--to", "devanagari").output


def test_errors_are_one_clear_line(tmp_path):
    missing = run("pali", "analyze", "evaṃ", "--db", str(tmp_path / "none.db"))
    assert (
        missing.exit_code == 2
        and "pramana pali build" in missing.output
        and "Traceback" not in missing.output
    )
    bad = run("pali", "build", "--from", str(tmp_path), "--db", str(tmp_path / "x.db"))
    assert bad.exit_code == 2 and "dpd_headwords" in bad.output


def test_paths_are_printed_as_they_are(tmp_path, tiny_backup):
    # Brackets in a path are text, not terminal markup: "[/x]" used to end the command with a traceback.
    db = tmp_path / "[/x] [bold]" / "dpd.db"
    built = run("pali", "build", "--from", str(tiny_backup), "--db", str(db))
    assert built.exit_code == 0, built.output
    assert f"{db}: 1 headwords, 0 roots" in " ".join(built.output.split())
