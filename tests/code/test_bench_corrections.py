"""semble_bench.py --corrected: targets moved only where the published annotation still says what the
correction was written against, and only to files the benchmark tree has."""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from types import ModuleType

import pytest

from tests.conftest import REPO_ROOT, require_data


@pytest.fixture
def bench_script(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """benchmarks/semble_bench.py as its runs import it (beside its `_common`)."""
    monkeypatch.syspath_prepend(str(REPO_ROOT / "benchmarks"))
    return importlib.import_module("semble_bench")


def corrections(script: ModuleType) -> dict[str, list[dict]]:
    return json.loads(script.CORRECTIONS.read_text())["repos"]


def test_every_correction_applies_to_the_published_annotations_and_names_a_file_of_the_tree(
    bench_script: ModuleType,
) -> None:
    annotations, tree_of = bench_script.annotations, bench_script.tree_of
    bench = require_data("code", "semble-bench")
    for repo, fixes in corrections(bench_script).items():
        root = tree_of(bench, repo)
        files = [str(path.relative_to(root)) for path in root.rglob("*") if path.is_file()]
        published = {q["query"]: q for q in annotations(bench, repo)}
        corrected = {q["query"]: q for q in annotations(bench, repo, corrected=True)}
        assert published.keys() == corrected.keys()
        for fix in fixes:
            assert published[fix["query"]]["relevant"] == fix["published"]
            assert corrected[fix["query"]]["relevant"] == fix["relevant"] != fix["published"]
            # annotation paths are matched as semble matches them: one path ends with the other
            assert all(any(bench_script.path_matches(f, t) for f in files) for t in fix["relevant"])
        untouched = published.keys() - {fix["query"] for fix in fixes}
        assert all(published[q] == corrected[q] for q in untouched)


def test_an_annotation_that_changed_under_a_correction_stops_the_run(
    tmp_path: Path, bench_script: ModuleType
) -> None:
    annotations = bench_script.annotations
    bench = require_data("code", "semble-bench")
    repo, fixes = next(iter(corrections(bench_script).items()))
    (tmp_path / "annotations").mkdir()
    queries = json.loads((bench / "annotations" / f"{repo}.json").read_text())
    changed = next(q for q in queries if q["query"] == fixes[0]["query"])
    changed["relevant"] = ["somewhere/else.h"]
    (tmp_path / "annotations" / f"{repo}.json").write_text(json.dumps(queries))
    with pytest.raises(SystemExit, match="changed under a correction"):
        annotations(tmp_path, repo, corrected=True)
    queries.remove(changed)
    (tmp_path / "annotations" / f"{repo}.json").write_text(json.dumps(queries))
    with pytest.raises(SystemExit, match="lack"):
        annotations(tmp_path, repo, corrected=True)
