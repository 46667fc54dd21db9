"""Deployment files agree with the package: server.json for the MCP registry, the Dockerfile."""

from __future__ import annotations

import json
import subprocess
import tomllib

from tests.conftest import REPO_ROOT


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
    assert "uv sync --frozen" in text and "USER pramana" in text


def test_the_packaged_gita_text_goes_into_the_wheel():
    """Hatch puts every file under a listed package into the wheel, except what git ignores."""
    text = REPO_ROOT / "src" / "pramana" / "gita" / "data" / "gita_text.json.gz"
    assert text.is_file() and (text.parent / "PROVENANCE.md").is_file()
    wheel = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["tool"]["hatch"]["build"]["targets"]
    assert "src/pramana" in wheel["wheel"]["packages"]
    assert not {"exclude", "only-include"} & set(wheel["wheel"])
    ignored = subprocess.run(["git", "check-ignore", "-q", str(text)], cwd=REPO_ROOT, check=False)
    assert ignored.returncode != 0, "git ignores the packaged text, so hatch would leave it out"
