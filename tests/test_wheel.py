"""The wheel a user gets: built from the sdist, installed into a clean virtual environment (its
dependencies the locked ones, from uv's cache: nothing is downloaded), then the main job, `doctor`
and the spec's launch line run from it, outside the checkout, with its package data."""

from __future__ import annotations

import subprocess
import zipfile
from pathlib import Path

import pytest

from pramana.embed import checked_stamp
from tests.conftest import REPO_ROOT, offline_env, uv_command

QUOTE = "man manā bhava mad-bhākto mad-yajī mam namāskuru"


def _run(*command: str | Path, cwd: Path, env: dict[str, str], timeout: float = 300) -> str:
    done = subprocess.run([str(part) for part in command], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout)  # fmt: skip
    assert done.returncode == 0, f"{command}: {done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.fixture(scope="module")
def installed(
    tmp_path_factory: pytest.TempPathFactory, built_wheel: Path
) -> tuple[Path, Path, dict[str, str]]:
    """(the wheel, the clean venv, an environment outside the checkout)."""
    uv = uv_command()
    work = tmp_path_factory.mktemp("wheel")
    offline = offline_env()
    dist = built_wheel  # uv build: the sdist, then the wheel from it (tests/conftest.py)
    (wheel,) = dist.glob("pramana_lookup-*.whl")
    assert list(dist.glob("pramana_lookup-*.tar.gz"))
    venv = work / "venv"
    # The locked dependencies (no extras, no dev group) into a new venv, then the wheel itself.
    _run(uv, "sync", "--frozen", "--no-dev", "--no-install-project", cwd=REPO_ROOT,
         env={**offline, "UV_PROJECT_ENVIRONMENT": str(venv)})  # fmt: skip
    python = venv / "bin" / "python"
    _run(uv, "pip", "install", "--python", python, "--no-deps", wheel, cwd=work, env=offline)
    _run(uv, "pip", "check", "--python", python, cwd=work, env=offline)  # its Requires-Dist are all met
    home = work / "home"
    home.mkdir()
    clean = {"HOME": str(home), "PATH": "/usr/local/bin:/usr/bin:/bin",
             "PRAMANA_DATA_DIR": str(work / "data"), "LANG": "C.UTF-8"}  # fmt: skip
    return wheel, venv, clean


def test_the_wheel_carries_the_package_data(installed):
    wheel, _, _ = installed
    names = set(zipfile.ZipFile(wheel).namelist())
    found = [path for path in (REPO_ROOT / "src").rglob("*") if path.is_file() and "data" in path.parts
             and path.suffix not in (".py", ".pyc") and "__pycache__" not in path.parts]  # fmt: skip
    # the stamp pramana writes beside a shipped table at run time (its check remembered) is no package data
    stamps = {checked_stamp(path) for path in found}
    data = [path for path in found if path not in stamps]
    assert data, "no package data found under src/"
    for path in data:
        assert path.relative_to(REPO_ROOT / "src").as_posix() in names, path
    for stamp in stamps:
        assert stamp.relative_to(REPO_ROOT / "src").as_posix() not in names, stamp
    assert "vedabase_mcp/__main__.py" in names and "pramana/py.typed" in names


def test_the_main_job_and_doctor_run_from_the_installed_wheel(installed, tmp_path):
    wheel, venv, clean = installed
    pramana = venv / "bin" / "pramana"
    matched = _run(pramana, "gita", "match", QUOTE, cwd=tmp_path, env=clean)
    assert matched.startswith(f'## Matches for "{QUOTE}"') and "**Confident match: BG 9.34**" in matched
    doctor = _run(pramana, "doctor", cwd=tmp_path, env=clean)
    assert doctor.startswith("gita     ready ")
    # Hints for this installation: its script by path (the venv is not on PATH), and the extra
    # added with uv pip (a venv uv made has no pip), from the wheel it was installed from.
    assert f"next: {pramana} gita seed" in doctor
    extra = (
        f"uv pip install --python {venv / 'bin' / 'python'} 'pramana-lookup[embeddings] @ {wheel.as_uri()}'"
    )
    assert f"optional: questions ranked by meaning: the embeddings extra, `{extra}`" in doctor
    assert _run(venv / "bin" / "vedabase-mcp", "--help", cwd=tmp_path, env=clean).startswith(
        "usage: vedabase-mcp"
    )
    shown = _run(venv / "bin" / "python", "-m", "vedabase_mcp", "--version", cwd=tmp_path, env=clean)
    assert shown.startswith("vedabase-mcp (pramana ")
