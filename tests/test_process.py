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


FREEZE_AT_EXIT = """
import atexit, gc, json
from pramana import process
# Registered first, so it runs last (atexit is last in, first out): after freeze_at_exit's handler.
atexit.register(lambda: print(json.dumps({"at exit": gc.get_freeze_count() > 0})))
process.freeze_at_exit()
process.freeze_at_exit()  # once is enough: a second call registers nothing more
print(json.dumps({"now": gc.get_freeze_count()}))
"""


def test_freeze_at_exit_freezes_only_when_the_process_ends():
    env = {name: value for name, value in os.environ.items() if name != "OPENBLAS_NUM_THREADS"}
    done = subprocess.run([sys.executable, "-c", FREEZE_AT_EXIT], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert lines == [{"now": 0}, {"at exit": True}]  # the collector untouched until the exit
