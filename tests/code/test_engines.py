"""Semantic search with the static embedder (the table distilled from all-MiniLM-L6-v2, built once
per session), and the scale-out engines checked against SQLite: Milvus (a real milvus-lite server on
127.0.0.1) and Pinecone (its official client against a server on 127.0.0.1 that speaks the Pinecone
data-plane API, serverless rules included)."""

from __future__ import annotations

import base64
import json
import os
import signal
import socket
import subprocess
import sys
import time
from http.server import BaseHTTPRequestHandler
from typing import ClassVar
from urllib.parse import parse_qs, urlparse

import numpy as np
import pytest

from pramana.code.index.indexer import Indexer
from pramana.code.runtime import run_index
from pramana.code.search.engines import SQLiteEngine
from pramana.code.search.store import Filters
from pramana.code.service import CodeService
from pramana.code.store import CodeStore
from pramana.config import CodeSettings
from pramana.embed import STATIC_DIMENSION, STATIC_NAME, OpenAIEmbedder
from tests.code.test_remote import DIMENSION as HASHED_DIMENSION
from tests.code.test_remote import FakeUpstream
from tests.conftest import LoopbackServer, require_extra

QUERIES = [
    "give the money back to the customer",
    "reduce an amount by a percentage",
    "listen for HTTP requests",
    "tax on a price",
    "wait before calling a function again",
]


@pytest.fixture(scope="session")
def semantic_store(static, sample_repo, tmp_path_factory):
    store = CodeStore(tmp_path_factory.mktemp("semantic") / "code.db")
    Indexer(sample_repo, store, static).run()
    return store


@pytest.fixture(scope="module")
def upstream(tmp_path_factory):
    """An OpenAI-compatible embeddings endpoint (hashed words, 64 dimensions) on 127.0.0.1."""
    with LoopbackServer(FakeUpstream, tmp_path_factory.mktemp("upstream")) as server:
        yield server.url


def test_static_vectors_and_hybrid_search(static, semantic_store, sample_repo):
    counts = semantic_store.counts()
    assert counts["vectors"] == counts["chunks"] and semantic_store.vector_dimension() == STATIC_DIMENSION
    assert semantic_store.meta("embedder") == STATIC_NAME
    dense = SQLiteEngine(semantic_store).dense(static.embed(["reimburse a purchase"])[0], Filters(), 1)
    assert dense[0][0] == "packages/api/shop/payments.py:17-20"  # refund_payment: no word in common
    service = CodeService(semantic_store, sample_repo, static)
    found = service.search_code("reimburse a purchase")
    assert found.mode == "semantic" and found.note is None
    assert "refund_payment" in [c.metadata.name for c in found.chunks[:3]]
    delayed = service.search_code("hold off calling fn until the wait is over")
    assert delayed.mode == "hybrid" and delayed.chunks[0].metadata.name == "debounce"


def test_only_changed_chunks_are_re_embedded(upstream, fresh_repo, tmp_path):
    # An embedder that costs per call (the static table re-embeds a parsed file whole: microseconds).
    remote = OpenAIEmbedder(FakeUpstream.token, upstream)
    store = CodeStore(tmp_path / "code.db")
    Indexer(fresh_repo, store, remote).run()
    payments = fresh_repo / "packages/api/shop/payments.py"
    before = {c.name: c for c in store.file_chunks("packages/api/shop/payments.py")}
    # One function changes; the one below it moves down three lines but keeps its text.
    payments.write_text(
        payments.read_text().replace(
            '"""Charge the customer\'s credit card for the cart total."""',
            '"""Charge the customer\'s credit card for the cart total.\n\n    Cards are charged once.\n"""',
        )
    )
    report = Indexer(fresh_repo, store, remote).run()
    after = {c.name: c for c in store.file_chunks("packages/api/shop/payments.py")}
    assert after["refund_payment"].start_line == before["refund_payment"].start_line + 3
    assert report.chunks_embedded == 1  # charge_card only
    assert store.counts()["vectors"] == store.counts()["chunks"]
    vectors = store.vector_matrix()
    row = vectors.ids.index(after["refund_payment"].id)
    assert np.allclose(vectors.matrix[row], remote.embed([_text_of(after["refund_payment"])])[0], atol=1e-6)


def test_switching_embedder_recomputes_every_vector(static, upstream, fresh_repo, tmp_path):
    store = CodeStore(tmp_path / "code.db")
    settings = CodeSettings(repo=fresh_repo, db_path=tmp_path / "code.db")
    first = run_index(fresh_repo, store, static, SQLiteEngine(store), settings)
    chunks = store.counts()["chunks"]
    static_vectors = store.vector_matrix().matrix.copy()
    assert first.chunks_embedded == chunks and static_vectors.shape[1] == STATIC_DIMENSION
    hashed = OpenAIEmbedder(FakeUpstream.token, upstream)
    switched = run_index(fresh_repo, store, hashed, SQLiteEngine(store), settings)
    assert switched.files_parsed == 0 and switched.chunks_embedded == chunks  # no file changed
    assert store.meta("embedder") == hashed.name and store.vector_dimension() == HASHED_DIMENSION
    back = run_index(fresh_repo, store, static, SQLiteEngine(store), settings)
    assert back.chunks_embedded == chunks and store.meta("embedder") == STATIC_NAME
    assert np.allclose(store.vector_matrix().matrix, static_vectors, atol=1e-6)


def _text_of(row):
    from pramana.embed import chunk_text

    return chunk_text(row.path, row.chunk_type, row.parent, row.name, row.content)


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


def test_milvus_matches_the_embedded_engine(milvus_uri, static, semantic_store, sample_repo):
    from pramana.code.search.milvus_engine import MilvusEngine

    milvus = MilvusEngine(milvus_uri, sample_repo, semantic_store, static)
    milvus.drop() if not milvus._fresh else None
    milvus.sync(semantic_store, [], [])  # a new collection is filled from the whole index
    sqlite = SQLiteEngine(semantic_store)
    for query in QUERIES:
        vector = static.embed([query])[0]
        for filters in (Filters(), Filters(package="api"), Filters(languages=("go", "rust"))):
            expected, found = sqlite.dense(vector, filters, 5), milvus.dense(vector, filters, 5)
            assert top(found) == top(expected), (query, filters)
            assert [round(s, 4) for _, s in found] == [round(s, 4) for _, s in expected]
    words = ["refund", "payment"]
    assert top(milvus.keyword(words, Filters(), 3), 1) == top(sqlite.keyword(words, Filters(), 3), 1)
    with_milvus = CodeService(semantic_store, sample_repo, static, milvus)
    with_sqlite = CodeService(semantic_store, sample_repo, static)
    for query in QUERIES:
        # Milvus's BM25 (its own analyzer, no stemming) scores words a little differently, so
        # near-ties may swap: the best answer with Milvus is one of the two best without it.
        best = with_milvus.search_code(query).chunks[0].id
        assert best in [c.id for c in with_sqlite.search_code(query).chunks[:2]], query
    assert {c.metadata.package for c in with_milvus.search_code("price", 10, package="pricing").chunks} == {
        "pricing"
    }


def test_milvus_follows_changes_and_refuses_filter_injection(milvus_uri, static, fresh_repo, tmp_path):
    from pramana.code.search.milvus_engine import MilvusEngine, milvus_filter
    from pramana.locations import repository_key

    store = CodeStore(tmp_path / "code.db")
    milvus = MilvusEngine(milvus_uri, fresh_repo, store, static)  # before the index knows its repository
    milvus.sync(store, [], [])  # nothing embedded yet: no collection, nothing to do
    report = Indexer(fresh_repo, store, static).run()
    milvus.sync(store, report.changed_paths, report.removed_paths)
    assert milvus.collection == "pramana_code_" + repository_key(fresh_repo)
    vector = static.embed(["listen for HTTP requests"])[0]
    server_go = "services/inventory/server.go"
    assert any(c.startswith(server_go) for c, _ in milvus.dense(vector, Filters(), 20))
    (fresh_repo / server_go).unlink()
    report = Indexer(fresh_repo, store, static).run()
    milvus.sync(store, report.changed_paths, report.removed_paths)
    assert not any(c.startswith(server_go) for c, _ in milvus.dense(vector, Filters(), 20))
    sneaky = Filters(package='api" or language != "x')
    assert milvus_filter(sneaky) == 'package in ["api\\" or language != \\"x"]'
    assert milvus.dense(vector, sneaky, 5) == []  # the quote stayed inside the string
    milvus.drop()


def test_milvus_follows_a_change_of_embedder(milvus_uri, static, upstream, fresh_repo, tmp_path):
    from pramana.code.search.milvus_engine import MilvusEngine

    store = CodeStore(tmp_path / "code.db")
    settings = CodeSettings(
        repo=fresh_repo, db_path=tmp_path / "code.db", backend="milvus", milvus_uri=milvus_uri
    )
    milvus = MilvusEngine(milvus_uri, fresh_repo, store, static)
    run_index(fresh_repo, store, static, milvus, settings)
    assert milvus._dimension() == STATIC_DIMENSION
    hashed = OpenAIEmbedder(FakeUpstream.token, upstream)
    reopened = MilvusEngine(milvus_uri, fresh_repo, store, hashed)  # as the next run opens it
    run_index(fresh_repo, store, hashed, reopened, settings)
    assert reopened._dimension() == HASHED_DIMENSION  # made again for the new vectors
    vector = hashed.embed(["refund payment reason"])[0]
    expected = SQLiteEngine(store).dense(vector, Filters(), 3)
    assert top(reopened.dense(vector, Filters(), 3), 1) == top(expected, 1)
    assert reopened.client.get_collection_stats(reopened.collection)["row_count"] == store.counts()["vectors"]
    reopened.drop()


# --- Pinecone -------------------------------------------------------------------------------------

# What a serverless index answers to a delete by metadata filter (HTTP 400), as reported from the
# real service in pinecone-io/canopy#306; Pinecone's docs: "For serverless indexes, it is not
# possible to delete by metadata. Instead, you can delete records by ID prefix."
FILTER_DELETE_REFUSAL = {
    "code": 3,
    "message": "Serverless and Starter indexes do not support deleting with metadata filtering.",
    "details": [],
}


class PineconeDataPlane(BaseHTTPRequestHandler):
    """The part of a serverless index's data-plane REST API the adapter uses, in memory, exact cosine.

    It checks what a real index checks that the client does not: the API key, ids of at most 512
    ASCII characters, metadata of at most 40 KB, at most 1,000 vectors per upsert and 1,000 ids per
    delete, the index's dimension; it refuses deletes by metadata filter, as serverless indexes do,
    and lists ids by prefix in id order, a page at a time, with a pagination token.
    """

    api_key = "pc-test-key"
    dimension: ClassVar[int] = STATIC_DIMENSION
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

    def _error(self, status, message):
        return self._reply(status, {"code": 3, "message": message, "details": []})

    def _handle(self, method):
        url = urlparse(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(length) or b"{}") if length else {}
        params = {key: values[-1] for key, values in parse_qs(url.query, keep_blank_values=True).items()}
        self.requests.append((method, url.path, body or params))
        if self.headers.get("Api-Key") != self.api_key:
            return self._reply(401, {"message": "Invalid API Key"})
        if not self.headers.get("X-Pinecone-Api-Version"):
            return self._reply(400, {"message": "missing X-Pinecone-Api-Version"})
        name = body.get("namespace", params.get("namespace", ""))
        space = (
            self.namespaces.setdefault(name, {})
            if url.path == "/vectors/upsert"
            else self.namespaces.get(name, {})
        )
        if (method, url.path) == ("POST", "/vectors/upsert"):
            if len(body["vectors"]) > 1000:
                return self._error(400, "at most 1000 vectors per upsert")
            for vector in body["vectors"]:
                if len(vector["id"]) > 512 or not vector["id"].isascii():
                    return self._error(400, "bad id")
                if len(json.dumps(vector.get("metadata", {}))) > 40_960:
                    return self._error(400, "metadata over 40 KB")
                if len(vector["values"]) != self.dimension:
                    return self._error(
                        400,
                        f"Vector dimension {len(vector['values'])} does not match the dimension of"
                        f" the index {self.dimension}",
                    )
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
            if "filter" in body:
                return self._reply(400, FILTER_DELETE_REFUSAL)
            if len(body.get("ids", [])) > 1000:
                return self._error(400, "at most 1000 ids per delete")
            doomed = list(space) if body.get("deleteAll") else body.get("ids", [])
            for vector_id in doomed:
                space.pop(vector_id, None)
            return self._reply(200, {})
        if (method, url.path) == ("GET", "/vectors/list"):
            limit = int(params.get("limit", 100))
            if not 1 <= limit <= 100:
                return self._error(400, "limit must be between 1 and 100")
            after = (
                base64.urlsafe_b64decode(params["paginationToken"]).decode()
                if "paginationToken" in params
                else ""
            )
            ids = sorted(i for i in space if i.startswith(params.get("prefix", "")) and i > after)
            page = {"vectors": [{"id": i} for i in ids[:limit]], "namespace": name, "usage": {"readUnits": 1}}
            if len(ids) > limit:
                page["pagination"] = {"next": base64.urlsafe_b64encode(ids[limit - 1].encode()).decode()}
            return self._reply(200, page)
        if (method, url.path) == ("POST", "/describe_index_stats"):
            counts = {name: {"vectorCount": len(v)} for name, v in self.namespaces.items() if v}
            total = sum(c["vectorCount"] for c in counts.values())
            return self._reply(
                200, {"namespaces": counts, "dimension": self.dimension, "totalVectorCount": total}
            )
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
    PineconeDataPlane.dimension = STATIC_DIMENSION
    with LoopbackServer(PineconeDataPlane, tmp_path) as server:
        yield server.url


def _pinecone(pinecone_host, fresh_repo, tmp_path, embedder):
    from pramana.code.runtime import make_engine

    settings = CodeSettings(
        repo=fresh_repo,
        db_path=tmp_path / "code.db",
        backend="pinecone",
        pinecone_api_key=PineconeDataPlane.api_key,
        pinecone_host=pinecone_host,
    )
    store = CodeStore(tmp_path / "code.db")
    return store, settings, make_engine(settings, store, embedder)


def _requests(path):
    return [body for _, where, body in PineconeDataPlane.requests if where == path]


def test_pinecone_contract(pinecone_host, static, fresh_repo, tmp_path):
    from pramana.code.search.pinecone_engine import PineconeEngine, file_key, vector_id

    store, settings, engine = _pinecone(pinecone_host, fresh_repo, tmp_path, static)
    assert isinstance(engine, PineconeEngine) and engine._fresh
    run_index(fresh_repo, store, static, engine, settings)
    ((namespace, stored),) = PineconeDataPlane.namespaces.items()
    assert namespace.startswith("repo-") and len(stored) == store.counts()["vectors"]
    payments = "packages/api/shop/payments.py"
    assert {i for i, v in stored.items() if v["metadata"]["file_path"] == payments} == {
        f"{file_key(payments)}#10-14",
        f"{file_key(payments)}#17-20",
        f"{file_key(payments)}#1-7",
    }
    metadata = next(iter(stored.values()))["metadata"]
    assert set(metadata) == {"chunk_id", "file_path", "package", "language", "chunk_type", "name"}
    sqlite = SQLiteEngine(store)
    for query in QUERIES:
        vector = static.embed([query])[0]
        for filters in (
            Filters(),
            Filters(package="web"),
            Filters(excluded_languages=("markdown",), exclude_file="README.md"),
        ):
            assert top(engine.dense(vector, filters, 5)) == top(sqlite.dense(vector, filters, 5)), (
                query,
                filters,
            )
    service = CodeService(store, fresh_repo, static, engine)
    assert (
        service.search_code("give the money back to the customer").chunks[0].metadata.name == "refund_payment"
    )

    # A removed file: its ids are listed by prefix and deleted by id, never by filter.
    (fresh_repo / payments).unlink()
    PineconeDataPlane.requests.clear()
    run_index(fresh_repo, store, static, engine, settings)
    assert not any(v["metadata"]["file_path"] == payments for v in stored.values())
    assert _requests("/vectors/list") == [
        {"namespace": namespace, "prefix": f"{file_key(payments)}#", "limit": "100"}
    ]
    (deleted,) = _requests("/vectors/delete")
    assert deleted["namespace"] == namespace and "filter" not in deleted
    assert sorted(deleted["ids"]) == sorted(
        f"{file_key(payments)}#{lines}" for lines in ("1-7", "10-14", "17-20")
    )

    # A changed file: new ids upserted, the ids it no longer has deleted, the others kept.
    cart = "packages/api/shop/cart.py"
    cart_before = {i for i, v in stored.items() if v["metadata"]["file_path"] == cart}
    (fresh_repo / cart).write_text(
        '"""Shopping carts, now with a preamble."""\n\n\n' + (fresh_repo / cart).read_text()
    )
    run_index(fresh_repo, store, static, engine, settings)
    expected = {vector_id(row.path, row.id) for row, _ in store.vectors_of(store.paths())}
    assert set(stored) == expected and len(expected) == store.counts()["vectors"]
    assert cart_before - expected and not cart_before & set(stored) - expected  # moved chunks: old ids gone


def test_pinecone_lists_pages_and_refuses_filter_deletes(
    pinecone_host, static, fresh_repo, tmp_path, monkeypatch
):
    from pramana.code.search import pinecone_engine

    store, settings, engine = _pinecone(pinecone_host, fresh_repo, tmp_path, static)
    run_index(fresh_repo, store, static, engine, settings)
    ((namespace, stored),) = PineconeDataPlane.namespaces.items()
    with pytest.raises(Exception, match="do not support deleting with metadata filtering"):
        engine.index.delete(filter={"file_path": {"$eq": "README.md"}}, namespace=namespace)
    assert len(stored) == store.counts()["vectors"]  # nothing was deleted

    # Pages of 4 ids, the whole namespace listed at once: every file's ids found all the same.
    monkeypatch.setattr(pinecone_engine, "LIST_PAGE", 4)
    monkeypatch.setattr(pinecone_engine, "LIST_WHOLE_AFTER", 0)
    PineconeDataPlane.requests.clear()
    found = engine._stored_ids(store.paths())
    listed = _requests("/vectors/list")
    assert len(listed) == -(-len(stored) // 4) and all(r["prefix"] == "" for r in listed)
    assert sorted(i for ids in found.values() for i in ids) == sorted(stored)
    for path, ids in found.items():
        assert {stored[i]["metadata"]["file_path"] for i in ids} == {path}
    # Removing every Go file deletes exactly their ids, in pages as well.
    for go_file in fresh_repo.rglob("*.go"):
        go_file.unlink()
    run_index(fresh_repo, store, static, engine, settings)
    assert not any(v["metadata"]["language"] == "go" for v in stored.values())
    assert len(stored) == store.counts()["vectors"]


def test_pinecone_index_of_another_dimension_is_refused(pinecone_host, static, fresh_repo, tmp_path):
    from pramana.errors import NotReadyError

    PineconeDataPlane.dimension = 384  # an index made for the old MiniLM vectors
    store, settings, engine = _pinecone(pinecone_host, fresh_repo, tmp_path, static)
    with pytest.raises(NotReadyError, match=rf"stores 384-dimensional.*makes {STATIC_DIMENSION}"):
        run_index(fresh_repo, store, static, engine, settings)
    assert not _requests("/vectors/upsert")


def test_pinecone_settings_errors(pinecone_host, tmp_path, sample_repo):
    from pramana.code.runtime import make_engine
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


class HungQueries(PineconeDataPlane):
    """An index that answers its stats at once and a query only after 20 s: less than the client's own
    timeout (30 s), so that only the call's deadline can end a query with a timeout."""

    def _handle(self, method):
        if self.path.startswith("/query"):
            time.sleep(20)
        return super()._handle(method)


def test_a_hung_pinecone_ends_soon_after_the_call(tmp_path, sample_repo, static):
    # The client tries each request 4 times with backoff and has no retry setting for its REST
    # index; with its default 30 s per attempt a hung service held a call for minutes.
    from pramana import work
    from pramana.code.runtime import make_engine
    from pramana.errors import SourceError

    require_extra("pinecone")
    PineconeDataPlane.namespaces.clear()
    with LoopbackServer(HungQueries, tmp_path) as hung:
        settings = CodeSettings(
            repo=sample_repo,
            backend="pinecone",
            pinecone_api_key=PineconeDataPlane.api_key,
            pinecone_host=hung.url,
        )
        engine = make_engine(settings, CodeStore(tmp_path / "code.db"), static)
        with work.deadline(1.0), pytest.raises(SourceError, match="Pinecone query failed: timed out"):
            engine.dense(np.ones(STATIC_DIMENSION, dtype=np.float32), Filters(), 5)
