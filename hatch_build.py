"""A wheel's build step: the Sanskrit analyzer's hot modules compiled with mypyc (issue 29's latency).

The word test a compound's split asks thousands of times a long word is Python spread over a dozen
steps (docs/sanskrit.md, "What a part test costs"); compiled as they are written, the same modules
answer the same (benchmarks/sanskrit_answers.py) in about a third less CPU (docs/benchmarks.md). The
source stays the truth: an editable install (a checkout, the tests) runs it as Python, and where no C
compiler or mypyc is at hand the wheel is the pure-Python one, with the same answers, slower.
`PRAMANA_NATIVE=0` builds the pure-Python wheel on purpose.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

try:
    from hatchling.builders.hooks.plugin.interface import BuildHookInterface
except ImportError:  # imported outside a build (tests/sanskrit/test_native.py compiles with it)
    BuildHookInterface = object

# What a part test runs: the paradigms, the analyzer's tables and tests, the segmenters, the lemma counts.
# Modules that read the database's rows directly (the service, the store) stay Python: a compiled module
# checks that a value is the type its annotation says, and sqlite3's rows are no tuples; compiled anyway
# (its rows made tuples) the service answered the same and no faster over stdio (docs/benchmarks.md,
# branch i29zb-margin): its Python is calls into pydantic, SQLite and dicts. Transliteration
# (pramana.text.schemes, every server's) would save ~1% of a call: not worth the other servers' risk.
COMPILED = (
    "pramana/sanskrit/paradigms.py",
    "pramana/sanskrit/analysis.py",
    "pramana/sanskrit/sandhi.py",
    "pramana/sanskrit/compound.py",
    "pramana/sanskrit/frequency.py",
)


def c_compiler() -> str | None:
    """The C compiler Python's extensions are built with, None if it is not installed."""
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    return shutil.which(compiler)


def compile_native(source: Path, out: Path) -> list[Path]:
    """Compile COMPILED from the package tree under `source` (a `src` folder) into a copy of it at
    `out`; the extension modules made, relative to `out`."""
    shutil.copytree(source / "pramana", out / "pramana", ignore=shutil.ignore_patterns("__pycache__"))
    # the runtime's packages need not be in the build's environment: what mypy cannot find is Any
    command = [sys.executable, "-m", "mypyc", "--ignore-missing-imports", *COMPILED]
    subprocess.run(command, cwd=out, check=True, stdout=subprocess.DEVNULL)
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    return sorted(path.relative_to(out) for path in out.rglob(f"*{suffix}") if "build" not in path.parts)


class CustomBuildHook(BuildHookInterface):
    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable" or os.environ.get("PRAMANA_NATIVE") == "0":
            return
        compiler = c_compiler()
        if compiler is None:
            self.app.display_warning("pramana: no C compiler: the analyzer stays pure Python")
            return
        out = Path(tempfile.mkdtemp(prefix="pramana-native-"))
        try:
            built = compile_native(Path(self.root) / "src", out)
        except (OSError, subprocess.CalledProcessError) as error:
            built = []
            self.app.display_warning(f"pramana: the analyzer stays pure Python ({error})")
        if not built:
            shutil.rmtree(out, ignore_errors=True)
            return
        self._out = out
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        for path in built:
            build_data["force_include"][str(out / path)] = str(path)

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        out = getattr(self, "_out", None)
        if out is not None:
            shutil.rmtree(out, ignore_errors=True)
