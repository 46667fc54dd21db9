import importlib
import json
import os
import re
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any, get_args, get_type_hints

import pytest
import typer
from typer.testing import CliRunner

from pramana import __version__, entry
from pramana.cli import app
from pramana.config import HttpSettings
from pramana.install import command as pramana_command
from pramana.mcp.servers import SERVER_NAMES
from tests.conftest import run_pramana

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args))


def test_version():
    result = run("--version")
    assert result.exit_code == 0
    assert result.output.strip() == f"pramana {__version__}"


@pytest.mark.parametrize(
    "args", [[], ["--help"], ["gita", "--help"], ["serve", "--help"], ["gita", "seed", "--help"]]
)
def test_help_everywhere(args):
    result = run(*args)
    assert "Usage" in result.output
    assert "Traceback" not in result.output


def test_every_server_contributes_its_own_command_group():
    (script,) = entry_points(group="console_scripts", name="pramana")
    assert script.load() is entry.main  # the `pramana` the package installs runs pramana.cli's app
    groups = typer.main.get_command(app).commands
    for name in SERVER_NAMES:
        own = importlib.import_module(f"pramana.{name}.cli").app
        assert typer.main.get_command(own).commands.keys() == groups[name].commands.keys() != set()


# In a new process with `pramana code index REPO` as its command line: whether a parse worker was
# running when the CLI's app was called (app_for replaced, so nothing is indexed), and whether
# typer (the CLI's imports) had loaded by then.
_EARLY_PROBE = """
import sys, types
sys.argv = ["pramana", "code", "index", sys.argv[1], "--db", sys.argv[2]]
def app(prog_name):
    from pramana.code.index import workers
    print(len(workers._early), "typer" in sys.modules)
{how}
"""
_THROUGH_ENTRY = """
sys.modules["pramana.cli"] = types.SimpleNamespace(app_for=lambda argv: app)
from pramana.entry import main
main()
"""
_IMPORTING_THE_CLI = """
import pramana.cli
from pramana.code.index import workers
print(len(workers._early))
"""


def _probe(how: str, tmp_path: Path) -> str:
    repo = tmp_path / "repo"
    repo.mkdir(exist_ok=True)
    for number in range(20):
        (repo / f"m{number}.py").write_text(f"def f{number}():\n    return {number}\n")
    code = _EARLY_PROBE.replace("{how}", how)
    env = {"PRAMANA_CODE_INDEX_WORKERS": "1", "PRAMANA_DATA_DIR": str(tmp_path / "data")}
    found = subprocess.run(
        [sys.executable, "-c", code, str(repo), str(tmp_path / "index.db")],
        capture_output=True, text=True, check=True, env={**os.environ, **env},
    )  # fmt: skip
    return found.stdout.strip()


def test_the_console_script_starts_a_new_index_worker_before_the_cli_loads(tmp_path):
    assert _probe(_THROUGH_ENTRY, tmp_path) == "1 False"


def test_importing_the_cli_starts_no_worker(tmp_path):
    assert _probe(_IMPORTING_THE_CLI, tmp_path) == "0"


# `pramana code index` as the console script runs it, with an atexit handler and a thread of the
# program's own that outlive the command: the process ends without the interpreter's teardown
# (early.end_without_teardown), yet as an exit would: the thread finished, the handler run, the
# output flushed, the status the command's.
_INDEX_AND_EXIT = """
import atexit, sys, threading, time
sys.argv = ["pramana", "code", "index", *sys.argv[1:]]
atexit.register(lambda: print("handler ran", flush=False))
threading.Thread(target=lambda: (time.sleep(2.5), print("thread ended", flush=False))).start()
from pramana.entry import main
main()
"""


@pytest.mark.parametrize("found", [True, False])
def test_code_index_ends_as_an_exit_would(tmp_path, found):
    repo = tmp_path / "repo"
    if found:
        repo.mkdir()
        (repo / "shop.py").write_text("def checkout(cart):\n    return sum(cart)\n")
    db = tmp_path / "index.db"
    ended = subprocess.run(
        [sys.executable, "-c", _INDEX_AND_EXIT, str(repo), "--db", str(db)],
        capture_output=True, text=True, env={**os.environ, "PRAMANA_DATA_DIR": str(tmp_path / "data")},
    )  # fmt: skip
    lines = ended.stdout.splitlines()
    assert lines[-1] == "handler ran" and "thread ended" in lines, ended.stdout
    if found:
        assert ended.returncode == 0, ended.stderr
        assert "1 files (1 parsed, 0 unchanged, 0 removed)" in " ".join(ended.stdout.split())
        # closed as a whole index: its log copied into the file, the file readable
        assert sorted(path.name for path in tmp_path.iterdir() if path.name.startswith("index.db")) == [
            "index.db",
            "index.db.lock",
        ]
        with sqlite3.connect(db) as index:
            assert index.execute("select count(*) from symbols where name = 'checkout'").fetchone() == (1,)
    else:
        assert ended.returncode == 2
        assert ended.stderr.splitlines()[-1] == f"error: repository folder not found: {repo}"


@pytest.mark.parametrize("module", ["pramana", "pramana.cli"])
@pytest.mark.parametrize("server", SERVER_NAMES)
def test_every_server_group_runs_as_a_module(module, server):
    shown = subprocess.run([sys.executable, "-m", module, server, "--help"], capture_output=True, text=True)
    assert shown.returncode == 0, shown.stderr
    assert f" {server} [OPTIONS] COMMAND [ARGS]..." in shown.stdout


@pytest.mark.parametrize(
    ("args", "env", "message"),
    [
        (["gita", "search", "karma"], {"VEDABASE_HTTP_TIMEOUT": "abc"},
         "VEDABASE_HTTP_TIMEOUT='abc' is not valid: give a number greater than 0"),
        (["code", "search", "cart", "--repo", "."], {"PRAMANA_CODE_BACKEND": "foo"},
         "PRAMANA_CODE_BACKEND='foo' is not valid: choose sqlite, milvus or pinecone"),
        (["code", "index", ".", "--embedder", "bert"], {},
         "--embedder 'bert' is not valid: choose auto, static, minilm, openai or none"),
        (["serve", "gita", "--transport", "http"], {"PRAMANA_PORT": "x"},
         "PRAMANA_PORT='x' is not valid: give a whole number from 0 to 65535"),
        (["serve", "all"], {"VEDABASE_SEED_CONCURRENCY": "0"},
         "VEDABASE_SEED_CONCURRENCY='0' is not valid: give a whole number from 1 to 64"),
        (["serve", "code", "--repo", "."], {"PRAMANA_CODE_MAX_FILE_BYTES": "1.5"},
         "PRAMANA_CODE_MAX_FILE_BYTES='1.5' is not valid: give a whole number of at least 1000"),
        (["serve", "gita", "--transport", "http"], {"PRAMANA_INSECURE": "maybe"},
         "PRAMANA_INSECURE='maybe' is not valid: give true or false"),
        # Brackets in a quoted value are text, not terminal markup.
        (["code", "search", "cart", "--repo", "."], {"PRAMANA_CODE_EMBEDDER": "[/x]"},
         "PRAMANA_CODE_EMBEDDER='[/x]' is not valid: choose auto, static, minilm, openai or none"),
    ],
)  # fmt: skip
def test_bad_settings_are_one_line_naming_the_variable_or_flag(tmp_path, args, env, message):
    result = run_pramana(*args, env={"PRAMANA_DATA_DIR": str(tmp_path), **env}, timeout=60)
    assert result.returncode == 2
    assert result.stderr.splitlines() == [f"error: {message}"]
    assert "Traceback" not in result.stdout


# -- help a person reads -------------------------------------------------------------------------

TYPE_PLACEHOLDER = re.compile(r"<(?:bool|str|int|float|path|list\[[^\]]*\]|[a-z]+ range)>|\{[a-z_]+\}")


def _all_commands(group: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    yield path
    for name, command in getattr(group, "commands", {}).items():
        yield from _all_commands(command, (*path, name))


def _help(*path: str) -> str:
    result = runner.invoke(app, [*path, "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    return result.output


def test_no_help_shows_type_placeholders():
    commands = list(_all_commands(typer.main.get_command(app)))
    assert len(commands) > 20
    for path in commands:
        shown = _help(*path)
        assert not TYPE_PLACEHOLDER.search(shown), (path, TYPE_PLACEHOLDER.search(shown))
    search = _help("sanskrit", "search")
    assert "Usage: root sanskrit search [OPTIONS] QUERY" in search
    assert re.search(r"--dict\s+-d\s+TEXT\s+Dictionary code", search)
    assert re.search(r"--json\s+Print the structured result", search)  # a flag takes no value


def _choices_shown(help_text: str, flag: str) -> list[str]:
    found = re.search(rf"{flag}\s+(?:-\w\s+)?([a-z0-9]+(?:\|[a-z0-9]+)+)\s", help_text)
    assert found, f"{flag} lists no choices"
    return found.group(1).split("|")


def test_flags_with_choices_list_exactly_what_is_accepted():
    from pramana.config import CodeSettings
    from pramana.pali.tools import Script
    from pramana.sanskrit.service import MODES
    from pramana.text.schemes import Scheme

    def literal(field: str) -> list[str]:
        return list(get_args(CodeSettings.model_fields[field].annotation))

    sanskrit = _help("sanskrit", "transliterate")
    assert _choices_shown(sanskrit, "--to") == _choices_shown(sanskrit, "--from") == [s.value for s in Scheme]
    assert _choices_shown(_help("sanskrit", "search"), "--mode") == list(MODES)
    pali = _help("pali", "transliterate")
    assert _choices_shown(pali, "--to") == _choices_shown(pali, "--from") == list(get_args(Script))
    for path in (("code", "index"), ("serve",)):
        assert _choices_shown(_help(*path), "--backend") == literal("backend")
        assert _choices_shown(_help(*path), "--embedder") == literal("embedder")
    assert _choices_shown(_help("serve"), "--transport") == ["stdio", "http"]
    assert _choices_shown(_help("serve"), "--auth") == list(get_args(get_type_hints(HttpSettings)["auth"]))


# -- messages in the CLI's own terms -------------------------------------------------------------


@pytest.mark.data
def test_a_truncated_sanskrit_search_names_the_cli_flags(sanskrit_db):
    result = run("sanskrit", "search", "a", "--mode", "prefix", "-n", "2", "--db", str(sanskrit_db))
    assert result.exit_code == 0, result.output
    assert result.output.rstrip().endswith("2 shown (more exist: raise --limit/-n or narrow --dict/-d)")
    assert "dict_codes" not in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["gita", "match", " "], "error: TEXT is empty; give some text to search for"),
        (["gita", "match", "x" * 3000], "error: TEXT is 3,000 characters; the limit is 2,000"),
        (["sanskrit", "article", "ap90"],
         "error: ARTICLE_ID 'ap90' is not of the form 'CODE:NUMBER', e.g. 'ap90:100'"),
    ],
)  # fmt: skip
def test_errors_name_the_argument_as_the_cli_has_it(tmp_path, args, message):
    env = {"HOME": str(tmp_path), "PRAMANA_DATA_DIR": str(tmp_path / "data"), "VEDABASE_DB_PATH": ""}
    result = run_pramana(*args, env=env, timeout=60)
    assert result.returncode == 2
    assert result.stderr.splitlines() == [message]


def test_the_mcp_tools_keep_their_own_parameter_names():
    from pramana.checks import required_text
    from pramana.errors import InvalidInputError
    from pramana.gita.service import GIVE_TEXT

    with pytest.raises(InvalidInputError, match=r"^garbled_sanskrit is empty") as raised:
        required_text("", "garbled_sanskrit", 10, empty_hint=GIVE_TEXT)
    worded = raised.value.worded_for({"garbled_sanskrit": "TEXT"})
    assert worded == "TEXT is empty; give some text to search for"
    assert raised.value.worded_for({"other": "X"}) == str(raised.value)


# -- pramana doctor ------------------------------------------------------------------------------


def _doctor(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    isolated = {"HOME": str(tmp_path / "home"), "PRAMANA_DATA_DIR": str(tmp_path / "data"),
                "VEDABASE_DB_PATH": "", "SANSKRIT_DB_PATH": "", "DPD_DB_PATH": "",
                "PRAMANA_CODE_REPO": "", "PRAMANA_CODE_DB": ""}  # fmt: skip
    return run_pramana("doctor", *args, env={**isolated, **env}, timeout=60)


def test_doctor_on_a_new_machine_says_what_to_run_for_each_server(tmp_path):
    result = _doctor(tmp_path)
    assert result.returncode == 0, result.stderr
    lines = [line for line in result.stdout.splitlines() if not line.startswith(" ")]  # not optional ones
    assert [line.split()[0] for line in lines] == ["gita", "sanskrit", "pali", "code"]
    data = tmp_path / "data"
    assert lines[0].startswith("gita     ready ") and f"{data / 'gita.db'}" in lines[0]
    assert f"next: {pramana_command('gita seed')}" in lines[0]
    assert "not ready" in lines[1] and f"{data / 'sanskrit.db'}" in lines[1]
    assert f"next: {pramana_command('sanskrit install')}" in lines[1]
    assert f"next: {pramana_command('pali download')}" in lines[2] and f"{data / 'dpd.db'}" in lines[2]
    assert f"next: {pramana_command('code index')}" in lines[3]
    assert not data.exists()  # asking created nothing


@pytest.mark.data
def test_doctor_reports_data_size_and_readiness(tmp_path, seeded_copy, sanskrit_db):
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "cart.py").write_text("def total(items):\n    return sum(items)\n")
    indexed = run_pramana("code", "index", str(repo), "--embedder", "none",
                          env={"PRAMANA_DATA_DIR": str(tmp_path / "data")}, timeout=120)  # fmt: skip
    assert indexed.returncode == 0, indexed.stderr
    not_dpd = tmp_path / "not-dpd.db"
    sqlite3.connect(not_dpd).execute("CREATE TABLE other (x)").connection.commit()
    env = {"VEDABASE_DB_PATH": str(seeded_copy), "SANSKRIT_DB_PATH": str(sanskrit_db),
           "DPD_DB_PATH": str(not_dpd)}  # fmt: skip
    result = _doctor(tmp_path, "--json", **env)
    assert result.returncode == 0, result.stderr
    gita, sanskrit, pali, code = json.loads(result.stdout)
    assert gita["ready"] and "translations of 701 of 701 verses" in gita["has"] and gita["next"] == ""
    assert gita["size_bytes"] == seeded_copy.stat().st_size
    assert sanskrit["ready"] and sanskrit["path"] == str(sanskrit_db)
    assert all(code_name in sanskrit["has"] for code_name in ("ap90", "ccs", "krm", "nmmb"))
    assert not pali["ready"] and "not a DPD database" in pali["has"] and "pramana pali" in pali["next"]
    assert code["ready"] and "1 files" in code["has"] and code["path"].startswith(str(tmp_path / "data"))
    text = _doctor(tmp_path, **env)
    main_lines = [line for line in text.stdout.splitlines() if not line.startswith(" ")]
    assert text.returncode == 0 and len(main_lines) == 4
    assert "Traceback" not in text.stderr


@pytest.mark.data
def test_doctor_says_how_to_upgrade_a_cache_an_older_pramana_made(tmp_path, seeded_copy):
    """Its advice keeps the cache: a gita command migrates it; a new seed is not needed."""
    conn = sqlite3.connect(seeded_copy)
    conn.execute("PRAGMA user_version = 4")
    conn.commit()
    conn.close()
    result = _doctor(tmp_path, "--json", VEDABASE_DB_PATH=str(seeded_copy))
    gita = json.loads(result.stdout)[0]
    assert "older pramana" in gita["has"] and gita["next"].startswith(pramana_command("gita lookup"))
    assert "aside" not in gita["next"]


@pytest.mark.parametrize(
    "argv",
    [["code", "--help"], ["code", "index", "--help"], ["code", "idnex"], ["code"], ["gita", "--help"],
     ["pali", "lookup", "--help"], ["code", "--version"], ["--version"], ["--help"], ["doctor", "--nope"]],
)  # fmt: skip
def test_the_command_line_for_some_arguments_answers_as_the_whole_one(argv):
    from pramana.cli import app_for

    whole = CliRunner().invoke(app, argv, prog_name="pramana", terminal_width=100)
    narrowed = CliRunner().invoke(app_for(argv), argv, prog_name="pramana", terminal_width=100)
    assert (narrowed.exit_code, narrowed.output) == (whole.exit_code, whole.output)


def test_a_servers_command_line_holds_that_servers_group_alone():
    from pramana.cli import app_for

    narrowed = app_for(["code", "index", "."])
    assert [group.name for group in narrowed.registered_groups] == ["code"]
    assert narrowed.registered_commands == [] and narrowed.registered_callback is app.registered_callback
    assert len(app.registered_groups) > 1 and app.registered_commands  # the whole one is untouched
    for argv in ([], ["serve", "code"], ["--version"], ["codex"]):
        assert app_for(argv) is app
