"""Which files get indexed, with which language and package; paths that leave the repository."""

import json

import pytest

from pramana.code.files import normalize_rel, resolve_inside
from pramana.code.index.walk import walk_repository
from pramana.errors import InvalidInputError, NotFoundError


def test_walk_keeps_source_and_docs_and_skips_the_noise(sample_repo):
    found = {f.path: f for f in walk_repository(sample_repo)}
    assert set(found) == {
        ".gitignore",
        "README.md",
        "notes.txt",
        "packages/api/pyproject.toml",
        "packages/api/shop/__init__.py",
        "packages/api/shop/cart.py",
        "packages/api/shop/payments.py",
        "packages/web/package.json",
        "packages/web/src/api.ts",
        "packages/web/src/App.tsx",
        "packages/web/src/util.js",
        "services/inventory/go.mod",
        "services/inventory/server.go",
        "crates/pricing/Cargo.toml",
        "crates/pricing/src/lib.rs",
        "crates/pricing/src/tax.rs",
    }
    # .gitignore'd (secrets.env, debug.log, build/), vendored (node_modules), build output (dist),
    # generated (@generated, _pb2), lock files, binaries, over the size cap, symlinks out: all absent.


def test_languages_and_workspace_packages(sample_repo):
    found = {f.path: f for f in walk_repository(sample_repo)}
    assert found["packages/web/src/App.tsx"].language == "tsx"
    assert found["packages/web/src/api.ts"].language == "typescript"
    assert found["packages/web/src/util.js"].language == "javascript"
    assert found["crates/pricing/src/lib.rs"].language == "rust"
    assert found["services/inventory/server.go"].language == "go"
    assert found["README.md"].language == "markdown"
    assert found["packages/api/shop/cart.py"].package == "api"
    assert found["packages/web/src/api.ts"].package == "web"
    assert found["services/inventory/server.go"].package == "inventory"
    assert found["crates/pricing/src/tax.rs"].package == "pricing"
    assert found["README.md"].package == "root"


def test_nested_gitignore_applies_below_its_folder(fresh_repo):
    (fresh_repo / "packages/web/.gitignore").write_text("*.js\n!keep.js\n")
    (fresh_repo / "packages/web/src/keep.js").write_text("export const keep = 1;\n")
    (fresh_repo / "other.js").write_text("export const other = 1;\n")
    paths = {f.path for f in walk_repository(fresh_repo)}
    assert "packages/web/src/util.js" not in paths
    assert "packages/web/src/keep.js" in paths
    assert "other.js" in paths  # the rule is the folder's, not the repository's


def test_size_cap_is_configurable(sample_repo):
    small = {f.path for f in walk_repository(sample_repo, max_bytes=200)}
    assert "notes.txt" in small and "packages/api/shop/cart.py" not in small


def test_missing_repository_is_a_clear_error(tmp_path):
    with pytest.raises(NotFoundError, match="not found"):
        list(walk_repository(tmp_path / "nope"))


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("../outside.py", r"leaves the repository"),
        ("packages/../../x", r"leaves the repository"),
        ("/etc/passwd", r"absolute"),
        ("C:\\Windows\\win.ini", r"absolute"),
        ("escape.py", r"outside the repository"),
        ("escape_dir/repo-outside.py", r"outside the repository"),
        ("", r"empty"),
        ("a\0b", r"NUL"),
    ],
)
def test_resolve_inside_refuses_paths_that_leave(sample_repo, path, message):
    with pytest.raises(InvalidInputError, match=message):
        resolve_inside(sample_repo, path)


def test_resolve_inside_accepts_repository_paths(sample_repo):
    assert (
        resolve_inside(sample_repo, "packages/api/shop/cart.py") == sample_repo / "packages/api/shop/cart.py"
    )
    assert normalize_rel("./packages/api/") == "packages/api"
    assert normalize_rel(".") == ""


def test_a_build_whose_sources_are_here_is_left_out_and_one_without_them_kept(tmp_path):
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "runner.js").write_text("exports.run = function () {};\n")
    (tmp_path / "mocha.js").write_text("(function(){ /* lib/runner.js, bundled */ })();\n")
    (tmp_path / "mocha.js.map").write_text(json.dumps({"version": 3, "sources": ["lib/runner.js"]}))
    (tmp_path / "dist-only").mkdir()
    (tmp_path / "dist-only" / "index.js").write_text("module.exports = function main() {};\n")
    (tmp_path / "dist-only" / "index.js.map").write_text(
        json.dumps({"version": 3, "sourceRoot": "../src", "sources": ["index.ts", "../node_modules/x/y.js"]})
    )
    (tmp_path / "app.js").write_text("console.log(1);\n")
    (tmp_path / "app.js.map").write_text("not json")
    paths = {f.path for f in walk_repository(tmp_path)}
    assert "mocha.js" not in paths  # a bundle of lib/, which is indexed itself
    assert {"lib/runner.js", "dist-only/index.js", "app.js"} <= paths  # sources absent, or no readable map
