"""Question search by meaning: all-MiniLM-L6-v2's vectors of the translations (pramana.gita.semantic),
built once and cached beside the gita cache, and the lexical ranking, with a note, without them."""

import sys
import threading
import zlib

import numpy as np
import pytest

from pramana.config import GitaSettings
from pramana.embed import EXTRA_MODULES, MiniLMEmbedder
from pramana.gita import semantic
from pramana.gita.question import QuestionIndex, split_translations
from pramana.gita.reference import VerseRef
from pramana.gita.semantic import VectorCache, VerseVectors, vectors_path
from pramana.gita.service import GitaService
from pramana.gita.store import GitaStore
from tests.conftest import eventually, require_extra

OFFLINE = "http://127.0.0.1:9"
# Questions in words of their own (none is in questions.json), each with the verse that answers it.
ASKED = {
    "is one's own duty done poorly better than another's done well": "BG 3.35",
    "what humble offering will God accept from a poor devotee": "BG 9.26",
    "why is the mind so hard to tame": "BG 6.34",
    "does the soul leave a worn body the way we give up old clothes": "BG 2.22",
    "how does brooding on pleasures lead from anger to ruin": "BG 2.63",
    "what is the tree whose roots are above and branches below": "BG 15.1",
}


@pytest.fixture(scope="module")
def model():
    require_extra(*EXTRA_MODULES)
    embedder = MiniLMEmbedder()
    embedder.prepare()
    return embedder


def test_a_verse_scores_a_soft_maximum_of_its_vectors():
    rows = np.array([[1.0, 0.0], [0.0, 1.0], [0.6, 0.8]], dtype=np.float32)
    vectors = VerseVectors(rows, np.array([0, 0, 1]))
    scores = vectors.similarities(np.array([1.0, 0.0], dtype=np.float32), 3)
    assert scores[0] == pytest.approx(1.0, abs=1e-3)  # its closer text counts, the other hardly
    assert scores[1] == pytest.approx(0.6, abs=1e-3)
    assert scores[2] == -1.0  # no vectors: below any cosine


@pytest.fixture
def vector_storage(backend, tmp_path, request):
    """Where vectors are kept: the file beside a SQLite cache, or the PostgreSQL store's table."""
    if backend == "sqlite":
        yield tmp_path / "v.npz"
        return
    from pramana.gita.store_postgres import PostgresGitaStore

    store = PostgresGitaStore(request.getfixturevalue("postgres_url"))
    yield store
    store.close()


def test_vectors_are_encoded_once_and_again_when_a_text_changes(model, vector_storage):
    cache = VectorCache(vector_storage, model)
    assert cache.build(["Do your duty.", "The self is eternal."]) == 2
    assert cache.build(["Do your duty.", "The self is eternal."]) == 0
    assert cache.build(["Do your duty.", "The self is never born."]) == 1
    assert cache.vectors([["Do your duty."], ["The self is never born."]]).vectors.shape == (2, 384)
    assert cache.vectors([["Never encoded."]]) is None


def test_another_models_vectors_are_not_used(model, vector_storage):
    VectorCache(vector_storage, model).build(["Do your duty."])

    class Renamed:
        name = "another-model"
        embed = model.embed

    assert VectorCache(vector_storage, Renamed()).vectors([["Do your duty."]]) is None


def test_questions_in_a_readers_words_find_their_verse_by_meaning(model, seeded_db, tmp_path):
    """Over these verses and their neighbours, each question's verse is in the model's top 5."""
    wanted = {str(VerseRef(int(a), int(b) + d)) for ref in ASKED.values() for a, b in [ref[3:].split(".")]
              for d in range(-2, 3)}  # fmt: skip
    store = GitaStore(seeded_db)
    texts = {ref: by_author for ref, by_author in store.english_texts().items() if str(ref) in wanted}
    store.close()
    verses = split_translations(texts)
    cache = VectorCache(tmp_path / "v.npz", model)
    cache.build([t for v in verses for t in v.translations])
    semantic = QuestionIndex(verses, model, cache.vectors([v.translations for v in verses]))
    assert semantic.semantic
    for asked, verse in ASKED.items():
        assert verse in [str(hit.ref) for hit in semantic.search(asked, 5)], asked


def test_without_the_extra_search_is_lexical_and_says_so(seeded_db, monkeypatch):
    monkeypatch.setitem(sys.modules, "onnxruntime", None)  # as if the embeddings extra were not installed
    settings = GitaSettings(db_path=seeded_db, api_url=OFFLINE, question_model=True)
    service = GitaService(settings)
    found = service.search("how can I control my restless mind", 5)
    sanskrit = service.search("karmanyevadhikaraste", 5)
    service.close()
    assert found.results and not service.questions().semantic
    assert any("words only" in note and "embeddings extra" in note for note in found.notes), found.notes
    assert sanskrit.results and not sanskrit.notes  # not a question: no note about its ranking


def test_a_keyword_search_gets_no_note(seeded_db):
    service = GitaService(GitaSettings(db_path=seeded_db, api_url=OFFLINE), embedder_factory=lambda: None)
    found = service.search("karmanyevadhikaraste", 5)
    service.close()
    assert "BG 2.47" in [hit.ref for hit in found.results] and not found.notes


def test_with_the_model_but_no_vectors_search_is_lexical_and_names_the_command(model, seeded_copy):
    service = GitaService(GitaSettings(db_path=seeded_copy, api_url=OFFLINE), embedder_factory=lambda: model)
    found = service.search("how can I control my restless mind", 5)
    assert found.results and not service.questions().semantic and found.ranking == "words"
    assert any("gita seed --vectors" in note for note in found.notes), found.notes
    assert not vectors_path(seeded_copy).exists()  # a search never encodes all 4,000 texts
    assert found.vectors is None  # a one-shot command's service starts no background build
    service.close()


class GatedModel(MiniLMEmbedder):
    """The model's name and kind, with an encoding that waits until the test opens a gate and then
    gives each text a vector of its own from its hash: it stands in for the model's minutes of work on
    14,000 texts, so that a test can see what the service does meanwhile, by state, not by clock."""

    def __init__(self, gate: threading.Event):
        super().__init__()
        self.gate = gate
        self.batches = 0
        self.encoding = threading.Event()  # set once a batch is under way (waiting at the gate)

    def embed(self, texts):
        self.encoding.set()
        assert self.gate.wait(60), "the gate was never opened"
        self.batches += 1
        rows = np.stack([np.random.default_rng(zlib.crc32(t.encode())).normal(size=384) for t in texts])
        return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)


def test_a_vector_build_stops_after_its_batch_at_exit_and_keeps_what_it_encoded(mirror_url, seeded_settings):
    """At exit (the atexit hook calls stop_vector_build) the build finishes the batch it is encoding,
    saves it and ends, rather than leave a thread inside onnxruntime while the interpreter tears down.
    The store is a copy of the seeded one: the seed has nothing left to fetch and starts the build."""
    gate = threading.Event()
    encoder = GatedModel(gate)
    service = GitaService(
        seeded_settings(api_url=mirror_url), embedder_factory=lambda: encoder, background=True
    )
    try:
        assert service.seed().complete and service.vector_build.state == "building"
        # The stop comes while a batch is being encoded, as the docstring says: before it, the build
        # is still making the term indexes (a low-priority process that a busy machine starves for
        # longer than stop_vector_build waits), and what that stop does is not this test's subject.
        assert encoder.encoding.wait(300), "the build never started encoding"
        stopping = threading.Thread(target=service.stop_vector_build)
        stopping.start()
        assert eventually(service._stop_vectors.is_set)
        gate.set()  # the batch under way finishes; the build stops before the next
        stopping.join(120)
        build = service.vector_build
        assert build.state == "failed" and "stopped" in (build.error or ""), build
        assert 0 < build.done < build.total and encoder.batches * semantic.ENCODE_BATCH >= build.done
    finally:
        service.close()


def test_seed_returns_when_the_texts_are_stored_and_the_vectors_follow_in_the_background(
    mirror_url, seeded_settings
):
    """On both backends: on PostgreSQL the vectors go to the shared table and the term indexes are
    built in the server's thread (their subprocess reads SQLite). The store is a copy of the seeded
    one (seeding itself is test_seed's): the seed stores nothing new and starts the build."""
    gate = threading.Event()
    encoder = GatedModel(gate)
    settings = seeded_settings(api_url=mirror_url)
    service = GitaService(settings, embedder_factory=lambda: encoder, background=True)
    seeded = service.seed()  # returns while the encoder cannot encode a single text
    assert seeded.complete and encoder.batches == 0
    assert any("background" in note for note in seeded.notes), seeded.notes
    assert service.vector_build.state == "building"
    found = service.search("how can I control my restless mind", 5)
    assert found.results and found.ranking == "words"
    assert found.vectors is not None and found.vectors.state == "building" and found.vectors.encoded == 0
    assert any("being built in the background" in note for note in found.notes), found.notes
    gate.set()
    build = service.wait_for_vectors(timeout=300)
    assert build.state == "built" and build.done == build.total > 10_000 and encoder.batches > 0
    found = service.search("how can I control my restless mind", 5)
    assert found.ranking == "model" and found.vectors.state == "built"
    assert not any("words only" in note for note in found.notes)
    assert service.terms(wait=False) is not None  # built by the background build, not by this search
    service.close()


def test_a_search_encodes_the_few_verses_lookups_cached(model, mirror_url, tmp_path):
    db = tmp_path / "c.db"
    service = GitaService(GitaSettings(db_path=db, api_url=mirror_url), embedder_factory=lambda: model)
    for ref in ("BG 6.34", "BG 6.35", "BG 2.47"):
        service.lookup(ref)
    found = service.search("why is the mind so hard to tame", 3)
    assert service.questions().semantic and not any("words only" in note for note in found.notes)
    assert found.results[0].ref in {"BG 6.34", "BG 6.35"}
    service.lookup("BG 9.26")  # cached after the vectors were built: the next search encodes it
    found = service.search("what humble offering will God accept from a poor devotee", 3)
    assert found.results[0].ref == "BG 9.26" and service.questions().semantic
    service.close()


def test_building_the_vectors_reports_progress_and_what_it_did(model, mirror_url, tmp_path):
    db = tmp_path / "c.db"
    service = GitaService(GitaSettings(db_path=db, api_url=mirror_url), embedder_factory=lambda: model)
    for ref in ("BG 2.47", "BG 2.48"):
        service.lookup(ref)
    updates: list[tuple[int, int]] = []
    note = service.build_question_vectors(lambda done, total: updates.append((done, total)))
    assert updates and updates[-1][0] == updates[-1][1] >= 10  # six translators a verse, some alike
    assert note.startswith(f"Encoded {updates[-1][1]} texts") and vectors_path(db).is_file()
    assert service.build_question_vectors() == ""  # nothing left to encode
    service.close()


def test_vectors_built_before_the_subject_index_still_rank_until_the_seed_adds_it(
    model, mirror_url, tmp_path, monkeypatch
):
    """A cache whose translations were encoded before data/topics.json and data/reader_questions.json:
    its vectors are kept, search ranks by them, and building again encodes pramana's own texts only
    (the descriptions and the reader's questions)."""
    monkeypatch.setattr(semantic, "MAX_SEARCH_TEXTS", 0)  # as with more descriptions than a search encodes
    db = tmp_path / "c.db"
    service = GitaService(GitaSettings(db_path=db, api_url=mirror_url), embedder_factory=lambda: model)
    for ref in ("BG 6.34", "BG 6.35", "BG 2.47"):
        service.lookup(ref)
    verses = split_translations(service.store.english_texts())
    VectorCache(vectors_path(db), model).build([t for v in verses for t in v.translations])
    found = service.search("why is the mind so hard to tame", 3)
    assert service.questions().semantic and not any("words only" in note for note in found.notes)
    own_texts = sum(len(v.described_texts) for v in verses)  # 3 descriptions and their questions
    assert own_texts > 3
    assert service.build_question_vectors().startswith(f"Encoded {own_texts} texts")
    assert service.questions().semantic and service.build_question_vectors() == ""
    service.close()


def test_a_paraphrase_reaches_the_books_verses_by_meaning_once_their_vectors_are_built(
    model, tmp_path, scripture_archive
):
    """SB and CC installed with translations in the user's cache (here ones written for the test):
    a question that shares no content word with a verse's translation finds that verse by meaning,
    once the books' translations are encoded, and by words alone before."""
    from tests.gita.book_archive import with_own_translations

    archive = with_own_translations(scripture_archive, tmp_path / "slides.tar.gz")
    settings = GitaSettings(db_path=tmp_path / "gita.db", api_url=OFFLINE)
    gita = GitaService(settings, embedder_factory=lambda: model)
    try:
        gita.install_books(["sb", "cc"], str(archive))
        asked = {
            "which duty is highest for a human: affection that demands no reward": "SB 1.2.6",
            "stay meek as a blade of lawn and endure things as an oak does": "CC Ādi 17.31",
        }
        before = gita.search(next(iter(asked)), 3, books=["sb", "cc"])
        assert before.ranking == "words"
        assert gita.build_question_vectors().startswith("Encoded ")  # the books' few translations
        for query, answer in asked.items():
            found = gita.search(query, 3, books=["sb", "cc"])
            assert found.ranking == "model", found.notes
            assert found.results[0].ref == answer, [hit.ref for hit in found.results]
    finally:
        gita.close()
