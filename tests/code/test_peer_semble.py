"""benchmarks/peer_semble.py without semble: its hits are scored by semble_bench's own rules (the same
functions that score pramana), and a run that cannot install semble says so instead of failing.
The queries and hits are written for these tests; nothing is installed or fetched."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.fixture
def peer(monkeypatch):  # type: ignore[no-untyped-def]
    monkeypatch.syspath_prepend(str(BENCHMARKS))  # the scripts import one another by bare name
    import peer_semble

    return peer_semble


def test_semble_hits_count_by_path_suffix_and_overlapping_lines_as_semble_bench_scores_them(peer):  # type: ignore[no-untyped-def]
    queries = [
        {  # the span's file at rank 3 but other lines of it first: only the overlapping chunk counts
            "query": "parse a header",
            "category": "semantic",
            "relevant": [{"path": "http/parser.py", "start_line": 40, "end_line": 60}],
            "secondary": ["http/reader.py"],
        },
        {"query": "Router", "category": "symbol", "relevant": ["router.go"]},
        {"query": "how is the pool drained", "category": "semantic", "relevant": ["pool.rs"]},
    ]
    hits = [
        [["src/http/parser.py", 1, 39], ["lib/http/reader.py", 1, 20], ["src/http/parser.py", 55, 80]],
        [["router.go", 10, 30], ["router.go", 31, 50]],
        [["mypool.rs", 1, 10], ["pool.rs.bak", 1, 10]],  # neither is pool.rs
    ]
    scored = peer.score_hits(queries, hits)
    first = (1 / math.log2(3) + 1 / math.log2(4)) / (1 + 1 / math.log2(3))
    assert scored["category_scores"]["semantic"] == pytest.approx([first, 0.0])
    assert scored["category_scores"]["symbol"] == [1.0]
    assert scored["by_category"]["semantic"] == pytest.approx(first / 2)
    assert scored["ndcg10"] == pytest.approx((first + 1.0) / 3)
    # The same ranks through semble_bench's functions directly: one scorer for both tools.
    import semble_bench

    chunks = peer.as_chunks(hits[0])
    ranks = [semble_bench.target_rank(chunks, t) for t in semble_bench.targets_of(queries[0])]
    assert ranks == [3, 2]


def test_a_tree_without_hits_scores_zero_and_a_count_mismatch_is_an_error(peer):  # type: ignore[no-untyped-def]
    queries = [{"query": "x", "relevant": ["a.py"]}]
    assert peer.score_hits(queries, [[]])["ndcg10"] == 0.0
    with pytest.raises(ValueError):
        peer.score_hits(queries, [[], []])


def test_without_uv_semble_is_not_measured_and_the_run_says_why(peer, tmp_path, monkeypatch, capsys):  # type: ignore[no-untyped-def]
    monkeypatch.setattr(peer.shutil, "which", lambda name: None)
    assert peer.semble_python(tmp_path) is None
    assert "not measured: `uv` is not on PATH" in capsys.readouterr().out
    assert not (tmp_path / "venv").exists()
