import importlib
import subprocess
import sys
from importlib.metadata import entry_points

import pytest
import typer
from typer.testing import CliRunner

from pramana import __version__
from pramana.cli import app
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
    groups = typer.main.get_command(script.load()).commands  # the `pramana` the package installs
    for name in SERVER_NAMES:
        own = importlib.import_module(f"pramana.{name}.cli").app
        assert typer.main.get_command(own).commands.keys() == groups[name].commands.keys() != set()


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
