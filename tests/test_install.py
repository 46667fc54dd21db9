"""How pramana was installed decides the commands its messages give: a tool, a checkout, a venv.

The tool and venv layouts are made in tmp as uv and pip leave them (uv-receipt.toml as `uv tool
install` 0.9 writes it, PEP 610's direct_url.json); the checkout is this one, as the tests run it.
A venv with the built wheel installed is checked end to end in tests/test_wheel.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from pramana.install import detect, installation
from tests.conftest import REPO_ROOT


def _tool_layout(tmp_path: Path, requirement: str) -> Path:
    """A uv tool environment: bin/, the receipt naming what it was installed from."""
    prefix = tmp_path / "tools" / "pramana-lookup"
    (prefix / "bin").mkdir(parents=True)
    (prefix / "uv-receipt.toml").write_text(
        f"[tool]\nrequirements = [{requirement}]\nentrypoints = [\n"
        f'    {{ name = "pramana", install-path = "{tmp_path}/bin/pramana", from = "pramana-lookup" }},\n]\n'
    )
    return prefix


@pytest.mark.parametrize(
    ("requirement", "expected"),
    [
        ('{ name = "pramana-lookup", directory = "/src/pramana" }',
         "uv tool install --force '/src/pramana[embeddings]'"),
        ('{ name = "pramana-lookup", extras = ["milvus"], directory = "/src/pramana" }',
         "uv tool install --force '/src/pramana[embeddings,milvus]'"),  # the extras it has are kept
        ('{ name = "pramana-lookup" }', "uv tool install --force 'pramana-lookup[embeddings]'"),
        ('{ name = "pramana-lookup", path = "/dl/pramana_lookup-0.1.0-py3-none-any.whl" }',
         "uv tool install --force 'pramana-lookup[embeddings] @ file:///dl/pramana_lookup-0.1.0-py3-none-any.whl'"),
        ('{ name = "pramana-lookup", editable = "/src/pramana" }',
         "uv tool install --force --editable '/src/pramana[embeddings]'"),
    ],
)  # fmt: skip
def test_a_tool_install_is_told_to_reinstall_the_tool_with_the_extra(tmp_path, requirement, expected):
    prefix = _tool_layout(tmp_path, requirement)
    found = detect(prefix, prefix / "bin" / "python", prefix / "bin", dist_info=None)
    assert found.mode == "tool"
    assert found.extra_command("embeddings") == expected
    # Never `uv pip install`: a tool's environment is not the one `uv pip` finds ("No virtual
    # environment found"); the commands are `pramana …`, on PATH once `uv tool update-shell` ran.
    assert found.command("gita seed", env={"PATH": ""}) == "pramana gita seed"
    assert "uv pip" not in found.extra_command("embeddings")


def test_the_checkout_the_tests_run_from_is_told_uv_commands():
    found = installation()
    assert found.mode == "checkout" and found.checkout == REPO_ROOT.resolve()
    under_uv_run = {"PATH": str(found.scripts), "UV_RUN_RECURSION_DEPTH": "1"}
    assert found.command("gita seed", cwd=REPO_ROOT, env=under_uv_run) == "uv run pramana gita seed"
    elsewhere = found.command("doctor", cwd=Path("/"), env=under_uv_run)
    assert elsewhere == f"uv run --project {REPO_ROOT} pramana doctor"
    # The environment activated in the reader's shell: `pramana` finds this installation.
    assert found.command("doctor", cwd=REPO_ROOT, env={"PATH": str(found.scripts)}) == "pramana doctor"
    assert found.extra_command("embeddings", cwd=REPO_ROOT) == "uv sync --inexact --extra embeddings"
    milvus = found.extra_command("milvus", cwd=Path("/"))
    assert milvus == f"uv sync --project {REPO_ROOT} --inexact --extra milvus"


def test_the_checkout_hint_runs_as_printed():
    """`uv run pramana …` from the checkout, as a reader would paste it (uv is what runs the tests)."""
    hint = installation().command("--version", cwd=REPO_ROOT, env={"PATH": "", "UV_RUN_RECURSION_DEPTH": "1"})
    ran = subprocess.run(hint.split(), cwd=REPO_ROOT, capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.startswith("pramana ")


def _venv_layout(tmp_path: Path, direct_url: dict | None, *, pip: bool) -> tuple[Path, Path]:
    """A real virtual environment (no pip unless asked) with pramana's metadata as pip leaves it."""
    prefix = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(prefix)], check=True, timeout=120)
    (site,) = prefix.glob("lib/python3*/site-packages")
    dist_info = site / "pramana_lookup-0.1.0.dist-info"
    dist_info.mkdir()
    (dist_info / "METADATA").write_text("Metadata-Version: 2.4\nName: pramana-lookup\nVersion: 0.1.0\n")
    if direct_url is not None:
        (dist_info / "direct_url.json").write_text(json.dumps(direct_url))
    if pip:
        (site / "pip").mkdir()
    (prefix / "bin" / "pramana").write_text("#!/bin/sh\n")
    (prefix / "bin" / "pramana").chmod(0o755)
    return prefix, dist_info


def test_a_venv_install_from_a_wheel_is_told_the_wheel_with_the_extra(tmp_path):
    wheel = tmp_path / "pramana_lookup-0.1.0-py3-none-any.whl"
    wheel.write_bytes(b"")
    prefix, dist_info = _venv_layout(tmp_path, {"url": wheel.as_uri(), "archive_info": {}}, pip=True)
    python = prefix / "bin" / "python"
    found = detect(prefix, python, prefix / "bin", dist_info)
    assert found.mode == "venv" and found.has_pip
    wanted = f"{python} -m pip install 'pramana-lookup[embeddings] @ {wheel.as_uri()}'"
    assert found.extra_command("embeddings") == wanted
    # Not activated: the script by its path; activated: by name.
    assert found.command("doctor", env={"PATH": "/usr/bin"}) == f"{prefix / 'bin' / 'pramana'} doctor"
    assert found.command("doctor", env={"PATH": str(prefix / "bin")}) == "pramana doctor"


def test_a_uv_venv_without_pip_from_a_directory_or_an_index(tmp_path):
    prefix, dist_info = _venv_layout(tmp_path, {"url": "file:///src/pramana", "dir_info": {}}, pip=False)
    python = prefix / "bin" / "python"
    found = detect(prefix, python, prefix / "bin", dist_info)
    assert found.extra_command("pinecone") == f"uv pip install --python {python} '/src/pramana[pinecone]'"
    (dist_info / "direct_url.json").unlink()  # installed from an index
    from_index = detect(prefix, python, prefix / "bin", dist_info)
    wanted = f"uv pip install --python {python} 'pramana-lookup[pinecone]'"
    assert from_index.extra_command("pinecone") == wanted


def test_a_rerun_hint_keeps_the_flags_given_and_drops_the_source(monkeypatch):
    from pramana.install import command, rerun

    monkeypatch.setattr("sys.argv", ["/venv/bin/pramana", "sanskrit", "install", "ap90", "--no-forms",
                                     "--source", "https://gone", "--db=/x/s.db"])  # fmt: skip
    assert rerun("sanskrit install ap90") == command("sanskrit install ap90 --no-forms --db=/x/s.db")
    monkeypatch.setattr("sys.argv", ["/venv/bin/pramana", "serve", "gita"])  # the seed tool, not the CLI
    assert rerun("gita seed") == command("gita seed")
