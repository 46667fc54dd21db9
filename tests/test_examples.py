"""The programmatic API and the spec's MCP-client pattern, run as docs/python-api.md prints them."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT

EXAMPLES = REPO_ROOT / "examples"
DOC = REPO_ROOT / "docs" / "python-api.md"
TRANSCRIPT = (
    "Good evening. Tonight we read the Gita, where Krishna says\n"
    "man manā bhava mad-bhākto mad-yajī mam namāskuru, and so we surrender.\n"
    "He also says yada yada hi dharmasya glanir bhavati bharata, so he comes again and again.\n"
    "In BG 15.7 he tells us who we are. Thank you all for coming.\n"
)


def _python_blocks(markdown: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", markdown, flags=re.DOTALL)


def test_the_code_the_docs_print_is_the_code_the_tests_run():
    sources = [
        path.read_text() for path in (*EXAMPLES.glob("*.py"), REPO_ROOT / "src" / "pramana" / "api.py")
    ]
    blocks = _python_blocks(DOC.read_text())
    assert len(blocks) == 2
    for block in blocks:
        assert any(block in source or textwrap.indent(block, "    ") in source for source in sources), block


def _run(*args: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=180
    )


@pytest.mark.data
def test_the_api_block_runs_as_printed(tmp_path, seeded_copy):
    (tmp_path / "lecture.txt").write_text(TRANSCRIPT, encoding="utf-8")
    block = _python_blocks(DOC.read_text())[0]
    env = {**os.environ, "VEDABASE_DB_PATH": str(seeded_copy)}
    ran = _run("-c", block, cwd=tmp_path, env=env)
    assert ran.returncode == 0, ran.stderr
    assert "replaced BG 9.34" in ran.stdout and "replaced BG 4.7" in ran.stdout


@pytest.mark.data
def test_lecture_to_notes_corrects_the_quotes_and_gives_every_verse(tmp_path, seeded_copy):
    lecture = tmp_path / "lecture.txt"
    lecture.write_text(TRANSCRIPT, encoding="utf-8")
    env = {**os.environ, "VEDABASE_DB_PATH": str(seeded_copy)}
    ran = _run(str(EXAMPLES / "lecture_to_notes.py"), str(lecture), "-o", "notes.md", "--translator", "siva",
               cwd=tmp_path, env=env)  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    notes = (tmp_path / "notes.md").read_text()
    assert "_manmanā bhava madbhakto madyājī māṃ namaskuru_ (BG 9.34)" in notes
    assert [line for line in notes.splitlines() if line.startswith("### ")] == ["### BG 9.34", "### BG 4.7",
                                                                                "### BG 15.7"]  # fmt: skip
    assert "Swami Sivananda" in notes and "man manā bhava mad-bhākto" not in notes
    missing = _run(str(EXAMPLES / "lecture_to_notes.py"), "nowhere.txt", cwd=tmp_path, env=env)
    assert (
        missing.returncode == 2 and missing.stderr.startswith("error: ") and "Traceback" not in missing.stderr
    )


@pytest.mark.data
def test_the_spec_mcp_client_pattern_runs_as_printed(tmp_path, seeded_db):
    """`StdioServerParameters(command="python", args=["-m", "vedabase_mcp"])`, with pramana's Python
    first on PATH and the client's default environment: the data where pramana keeps it by default."""
    home = tmp_path / "home"
    (home / ".local" / "share" / "pramana").mkdir(parents=True)
    shutil.copyfile(seeded_db, home / ".local" / "share" / "pramana" / "gita.db")
    notes = tmp_path / "notes.md"
    notes.write_text("# Notes\n\nman manā bhava mad-bhākto mad-yajī mam namāskuru\n\nSee BG 2.47.\n")
    env = {"HOME": str(home), "PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin"}
    ran = _run(str(EXAMPLES / "mcp_client.py"), str(notes), cwd=tmp_path, env=env)
    assert ran.returncode == 0, ran.stderr
    assert "_manmanā bhava madbhakto madyājī māṃ namaskuru_ (BG 9.34)" in ran.stdout
    named = "- **BG 2.47** _karmaṇyevādhikāraste mā phaleṣu kadācana |_ You have a right to perform"
    assert named in ran.stdout


@pytest.mark.data
def test_the_api_takes_references_as_strings_and_says_what_it_refuses(seeded_copy, mirror_url):
    from pramana.api import Gita
    from pramana.errors import InvalidInputError

    with Gita(seeded_copy, mirror_url, translator="siva") as gita:
        assert gita.lookup("Bhagavad Gita 2.47").translation.author_key == "siva"
        assert gita.chapter_summary("BG 13").verses_count == gita.chapter_summary(13).verses_count == 35
        assert [verse.ref for verse in gita.chapter("BG 13").verses][:2] == ["BG 13.1", "BG 13.2"]
        with pytest.raises(InvalidInputError, match="is not a chapter number"):
            gita.chapter_summary("thirteen")
        with pytest.raises(InvalidInputError, match="no such file"):
            gita.correct_file(seeded_copy.parent / "missing.txt")
