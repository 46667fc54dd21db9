"""The analyzer compiled by a wheel's build (hatch_build.py: mypyc; the wheel uv builds) answers every
word as the source does, and builds the form index: a compiled module checks each value against its
annotation, so a row or attribute whose type the source only claims would fail here, never in the
pure-Python tests."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "sanskrit_answers.py"
WORDS = 400  # the first words of the DCS sets (benchmarks/data): sandhi groups, compounds, verbs


def _hook():  # hatch_build.py is no package module: loaded from its file, as hatchling loads it
    spec = importlib.util.spec_from_file_location("hatch_build", ROOT / "hatch_build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _run(command: list[str], source: Path | None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    if source is not None:
        env["PYTHONPATH"] = str(source)
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    return done


@pytest.mark.slow
def test_the_compiled_analyzer_answers_as_the_source(
    forms_db: Path, tmp_path: Path, request: pytest.FixtureRequest
):
    hook = _hook()
    if hook.c_compiler() is None:
        if os.environ.get("CI"):  # CI's machine has one (as every Python image with headers does)
            pytest.fail("no C compiler: the compiled analyzer cannot be checked")
        pytest.skip("no C compiler: wheels are built pure Python here")
    # The wheel uv builds (tests/conftest.py: built_wheel, shared with tests/test_wheel.py), unpacked
    # as an install would lay it out: its build compiled the analyzer (hatch_build.compile_native).
    (wheel,) = request.getfixturevalue("built_wheel").glob("pramana_lookup-*.whl")
    native = tmp_path / "native"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(native)
        made = set(archive.namelist())
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    assert {name.removesuffix(".py") + suffix for name in hook.COMPILED} <= made
    probe = "from pramana.sanskrit import analysis, sandhi; print(analysis.__file__, sandhi.__file__)"
    loaded = _run([sys.executable, "-c", probe], native).stdout.split()
    assert all(not path.endswith(".py") and path.startswith(str(native)) for path in loaded), loaded
    # doctor tells a compiled install from the source (its pure-Python hint: tests/sanskrit/test_install.py)
    told = "from pramana.sanskrit.data import analyzer_compiled as c; print(c())"
    assert _run([sys.executable, "-c", told], native).stdout.split() == ["True"]
    assert _run([sys.executable, "-c", told], None).stdout.split() == ["False"]

    _run([sys.executable, str(SCRIPT), "--db", str(forms_db), "--out", str(tmp_path / "py.jsonl"),
          "--limit", str(WORDS)], None)  # fmt: skip
    _run([sys.executable, str(SCRIPT), "--db", str(forms_db), "--out", str(tmp_path / "c.jsonl"),
          "--limit", str(WORDS)], native)  # fmt: skip
    first = (tmp_path / "py.jsonl").read_text("utf-8").splitlines()
    second = (tmp_path / "c.jsonl").read_text("utf-8").splitlines()
    assert len(first) == WORDS
    assert sum('"count":0,' not in line for line in first) > WORDS // 2  # most words have readings
    differ = [a.split("\t")[0] for a, b in zip(first, second, strict=True) if a != b]
    assert not differ, differ

    # the form index built by the compiled code (its tables read the lexicon's rows)
    db = tmp_path / "forms.db"
    shutil.copy(forms_db, db)
    done = _run([sys.executable, "-m", "pramana", "sanskrit", "forms", "--db", str(db)], native)
    assert "form index" in " ".join(done.stdout.split()), done.stdout
