"""The spec's remote services, each against a real HTTP server on 127.0.0.1: GitHub file reads and
OpenAI embeddings (this server embeds by hashing words, which is enough to check the wiring)."""

import hashlib
import json
import re
import time
from http.server import BaseHTTPRequestHandler

import numpy as np
import pytest

from pramana import work
from pramana.code.github import GitHubReader
from pramana.code.index.indexer import Indexer
from pramana.code.service import CodeService
from pramana.code.store import CodeStore
from pramana.embed import OpenAIEmbedder, choose_embedder
from pramana.errors import NotFoundError, NotReadyError, SourceError
from pramana.work import WorkLimitExceeded
from tests.conftest import LoopbackServer

DIMENSION = 64


class FakeUpstream(BaseHTTPRequestHandler):
    """GitHub's contents API and OpenAI's embeddings endpoint, the parts pramana calls."""

    token = "secret-token"

    def __init__(self, *args, directory=None, **kwargs):  # LoopbackServer passes a directory
        super().__init__(*args, **kwargs)

    def log_message(self, format, *args):
        pass

    def _send(self, status, body, content_type="application/json", headers=None):
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.headers.get("Authorization") != f"Bearer {self.token}":
            return self._send(401, {"message": "Bad credentials"})
        match = re.fullmatch(r"/repos/acme/shop/contents/(.+)\?ref=main", self.path)
        if not match or match.group(1) != "packages/api/shop/cart.py":
            return self._send(404, {"message": "Not Found"})
        self._send(
            200,
            b"class Cart:\n    pass\n",
            "application/vnd.github.raw",
            {"Last-Modified": "Tue, 03 Nov 2026 10:00:00 GMT"},
        )

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if self.headers.get("Authorization") != f"Bearer {self.token}":
            return self._send(401, {"error": {"message": "Incorrect API key provided"}})
        data = [{"index": i, "embedding": hashed(text).tolist()} for i, text in enumerate(body["input"])]
        self._send(200, {"data": data[::-1], "model": body["model"]})  # out of order on purpose


def hashed(text):
    vector = np.zeros(DIMENSION, dtype=np.float32)
    for word in re.findall(r"[a-z]+", text.lower()):
        vector[int(hashlib.md5(word.encode()).hexdigest(), 16) % DIMENSION] += 1.0
    return vector


@pytest.fixture(scope="module")
def upstream(tmp_path_factory):
    with LoopbackServer(FakeUpstream, tmp_path_factory.mktemp("upstream")) as server:
        yield server.url


def test_get_file_through_the_github_api(upstream, sample_store, sample_repo):
    reader = GitHubReader(upstream, "acme/shop", "main", FakeUpstream.token)
    service = CodeService(sample_store, sample_repo, file_reader=reader)
    found = service.get_file("packages/api/shop/cart.py")
    assert found.source == "github" and found.content == "class Cart:\n    pass\n"
    assert found.lastModified == "2026-11-03T10:00:00+00:00" and found.language == "python"
    with pytest.raises(NotFoundError, match="not in acme/shop@main"):
        service.get_file("packages/api/shop/payments.py")
    with pytest.raises(Exception, match="leaves the repository"):
        service.get_file("../../etc/passwd")  # refused before any request
    with pytest.raises(SourceError, match="401"):
        GitHubReader(upstream, "acme/shop", "main", "wrong")("packages/api/shop/cart.py")


def test_openai_embeddings_make_search_hybrid(upstream, sample_repo, tmp_path):
    embedder = OpenAIEmbedder(FakeUpstream.token, upstream)
    store = CodeStore(tmp_path / "code.db")
    report = Indexer(sample_repo, store, embedder).run()
    assert report.chunks_embedded == store.counts()["chunks"] == store.counts()["vectors"]
    vectors = store.vector_matrix().matrix
    assert vectors.shape[1] == DIMENSION and np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    service = CodeService(store, sample_repo, embedder)
    found = service.search_code("refund payment reason")
    assert found.mode == "hybrid" and found.note is None
    assert found.chunks[0].metadata.name == "refund_payment"
    again = Indexer(sample_repo, store, embedder).run()
    assert again.chunks_embedded == 0  # nothing new to embed


def test_openai_errors_are_clear(upstream):
    with pytest.raises(SourceError, match=r"401.*Incorrect API key"):
        OpenAIEmbedder("wrong", upstream).embed(["x"])
    with pytest.raises(NotReadyError, match="OPENAI_API_KEY"):
        choose_embedder("openai", None, upstream)
    assert choose_embedder("auto", "key", upstream).name.startswith("openai:")
    assert choose_embedder("none", "key", upstream) is None


class SilentUpstream(BaseHTTPRequestHandler):
    """Accepts the connection, reads the request, and never answers (a hung service)."""

    def __init__(self, *args, directory=None, **kwargs):
        super().__init__(*args, **kwargs)

    def log_message(self, format, *args):
        pass

    def do_GET(self):
        time.sleep(60)

    do_POST = do_GET


@pytest.fixture(scope="module")
def silent_upstream(tmp_path_factory):
    with LoopbackServer(SilentUpstream, tmp_path_factory.mktemp("silent")) as server:
        yield server.url


def test_a_hung_service_ends_with_the_call_not_after_it(silent_upstream):
    # Outside a call the clients keep their own timeouts (30 s, 20 s); within one, the call's
    # deadline bounds every request and retry.
    # The deadline's own error says the call's deadline ended the wait.
    embedder = OpenAIEmbedder("key", silent_upstream)
    with work.deadline(1.0), pytest.raises(WorkLimitExceeded, match="embeddings endpoint did not answer"):
        embedder.embed(["refund payment"])
    # The upstream drops the connection after 60 s; with a client timeout of 120 s, only the call's
    # deadline can end the request with a timeout.
    reader = GitHubReader(silent_upstream, "acme/shop", "main", "token", timeout=120)
    with work.deadline(1.0), pytest.raises(SourceError, match=r"cannot reach GitHub.*timed out"):
        reader("packages/api/shop/cart.py")
