"""pramana as a library changes nothing process-wide; its entry points make the settings a command
or a server needs (pramana/process.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

LIBRARY_USE = """
import gc, json, os, sys
before = {"interval": sys.getswitchinterval(), "frozen": gc.get_freeze_count()}
from pramana.config import GitaSettings
from pramana.gita.service import GitaService
from pramana.mcp.servers import build
served = build(["gita"], {"gita": GitaSettings(db_path=sys.argv[1])}, worker_processes=False)
service = GitaService(GitaSettings(db_path=sys.argv[1]))
service.match("man manā bhava mad-bhākto mad-yajī mam namāskuru", 1)  # builds and settles the matcher
after = {"interval": sys.getswitchinterval(), "frozen": gc.get_freeze_count()}
print(json.dumps({"before": before, "after": after, "blas": os.environ.get("OPENBLAS_NUM_THREADS")}))
"""

ENTRY_POINT = """
import gc, json, os, sys
from pramana import process
process.for_serving()
process.freeze_loaded()
print(json.dumps({"interval": sys.getswitchinterval(), "frozen": gc.get_freeze_count(),
                  "blas": os.environ.get("OPENBLAS_NUM_THREADS")}))
"""


def run(code: str, *args: str) -> dict:
    env = {name: value for name, value in os.environ.items() if name != "OPENBLAS_NUM_THREADS"}
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_using_pramana_as_a_library_changes_no_process_wide_setting(tmp_path):
    seen = run(LIBRARY_USE, str(tmp_path / "gita.db"))
    assert seen["after"] == seen["before"]  # the switch interval, and nothing frozen out of the GC
    assert seen["blas"] is None


def test_the_entry_points_make_the_serving_settings():
    seen = run(ENTRY_POINT)
    assert seen["interval"] == 0.001 and seen["frozen"] > 0 and seen["blas"] == "1"
