"""Sanskrit terms in loose spelling (pramana.gita.terms) and the verse ranking of any book
(pramana.gita.ranking), on texts written for these tests, then on the Gītā's cache."""

import json
from pathlib import Path

import pytest

from pramana import work
from pramana.config import GitaSettings
from pramana.embed import EXTRA_MODULES, MiniLMEmbedder
from pramana.gita.ranking import BookVerse, VerseRanking
from pramana.gita.reference import VerseRef
from pramana.gita.service import TERMS_MARGIN_S, TERMS_PENDING_NOTE, GitaService
from pramana.gita.terms import (
    TermIndex,
    VerseTerms,
    devanagari_glossary,
    synonyms_glossary,
    term_key,
    term_keys,
)
from tests.conftest import eventually, require_extra

HARD = json.loads((Path(__file__).parent / "questions_hard.json").read_text("utf-8"))


@pytest.mark.parametrize(
    "spellings",
    [
        ("sthitaprajña", "sthithapragnya", "stithaprajna", "sthitapragya", "स्थितप्रज्ञ"),
        ("svadharma", "swadharma", "svadharmaḥ", "स्वधर्म"),
        ("kṛṣṇa", "krishna", "krsna", "KRISHNA", "कृष्ण"),
        ("jñāna", "gyaana", "gnana", "dnyana"),
        ("sannyāsa", "sanyasa", "sannyaasa"),
        ("kṣetrajña", "kshetragya", "xetrajna"),
        ("saṅkalpa", "sankalpa", "samkalpa"),
    ],
)
def test_a_words_popular_spellings_share_one_key(spellings):
    assert len(set(term_keys(list(spellings)))) == 1, term_keys(list(spellings))


def test_words_that_differ_keep_different_keys():
    assert len({term_key(w) for w in ("dharma", "karma", "kāma", "yoga", "bhoga", "rāga")}) == 6


def test_the_two_word_for_word_styles_are_read():
    assert devanagari_glossary(
        "2.55 प्रजहाति casts off? यदा when? स्थितप्रज्ञः of steady wisdom? Commentary यदा x"
    ) == [
        ("प्रजहाति", "casts off?"),
        ("यदा", "when?"),
        ("स्थितप्रज्ञः", "of steady wisdom?"),
    ]
    assert synonyms_glossary("sthita-prajñaḥ — one of steady mind; kā — what; bhāṣā — language") == [
        ("sthita-prajñaḥ", "one of steady mind"),
        ("kā", "what"),
        ("bhāṣā", "language"),
    ]


# A small book written for these tests (no text of any edition): verses, translations, word-for-word
# glosses in the Bhaktivedanta books' style, and a purport that speaks of a term the verse does not name.
BOOK = [
    BookVerse(
        ref="TB 1.1.1",
        sanskrit="śrī-guruḥ uvāca | sthita-prajñasya lakṣaṇaṁ vadāmi te",
        translations=["The teacher said: I shall tell you the marks of one whose wisdom is steady."],
        glossary=synonyms_glossary("sthita-prajñasya — of one whose wisdom is steady; lakṣaṇam — marks"),
    ),
    BookVerse(
        ref="TB 1.1.2",
        sanskrit="yadā na hṛṣyati na śocati samaḥ sukha-duḥkhayoḥ",
        translations=["When he neither rejoices nor grieves, even in joy and sorrow, he is steady."],
        commentaries=["Here the sthita-prajña is described: the sage stays even whatever comes."],
        glossary=synonyms_glossary("hṛṣyati — rejoices; śocati — grieves; samaḥ — even"),
    ),
    BookVerse(
        ref="TB 1.1.3",
        sanskrit="sva-dharmaṁ na tyajet kvacit para-dharmo bhayāvahaḥ",
        translations=["Never give up your own calling; another's calling brings fear."],
        glossary=synonyms_glossary("sva-dharmam — one's own duty; para-dharmaḥ — another's duty"),
    ),
    BookVerse(
        ref="TB 1.1.4",
        sanskrit="nadyaḥ samudram iva praviśanti kāmāḥ",
        translations=["Desires flow into him as rivers flow into the sea, and he stays unmoved."],
        glossary=synonyms_glossary("nadyaḥ — rivers; samudram — the sea; kāmāḥ — desires"),
    ),
    BookVerse(
        ref="TB 1.1.5",
        sanskrit="rājā nagaraṁ praviveśa saha sainyena",
        translations=["The king rode into the city with his army at dawn."],
        glossary=synonyms_glossary("rājā — the king; nagaram — the city; sainyena — with the army"),
    ),
]


@pytest.fixture(scope="module")
def book():
    return VerseRanking.of_book(BOOK)


def refs(hits):
    return [str(hit.ref) for hit in hits]


@pytest.mark.parametrize(
    ("query", "first"),
    [
        ("sthitha pragnya lakshanam", "TB 1.1.1"),  # the verse that names the term, written apart
        ("swadharma vs paradharma", "TB 1.1.3"),
        ("what is swadharm", "TB 1.1.3"),
        ("samudra", "TB 1.1.4"),
    ],
)
def test_loose_transliteration_reaches_the_verse_in_any_book(book, query, first):
    assert refs(book.rank(query, 3))[0] == first


def test_a_term_reaches_the_verse_that_explains_it_through_its_commentary(book):
    found = refs(book.rank("sthitha pragnya", 3))
    assert found[:2] == ["TB 1.1.1", "TB 1.1.2"]  # 1.1.2 names no such word; its purport does


def test_sanskrit_words_are_read_in_english_from_the_glosses(book):
    read = book.read("sthitha pragnya lakshanam")
    assert read.share == 1.0 and set(read.sanskrit) == {"sthitha", "pragnya", "lakshanam"}
    assert "steady" in read.english and "marks" in read.english


def test_english_words_stay_english(book):
    read = book.read("when does the king ride into the city")
    assert read.english == "when does the king ride into the city" and read.share == 0.0
    assert refs(book.rank("when does the king ride into the city", 1)) == ["TB 1.1.5"]


def test_a_paraphrase_reaches_meaning_in_any_book_with_the_model():
    require_extra(*EXTRA_MODULES)
    model = MiniLMEmbedder()
    ranking = VerseRanking.of_book(BOOK, embedder=model)
    # no word in common with 1.1.4's translation but "he"
    assert refs(ranking.rank("however much I crave I stay calm inside, like an ocean", 1)) == ["TB 1.1.4"]
    assert refs(ranking.rank("the monarch entered the town with his soldiers", 1)) == ["TB 1.1.5"]


def test_the_term_index_takes_any_reference_and_mentions_in_devanagari():
    index = TermIndex(
        [
            VerseTerms("X 1", "aham eva", mentions=["अत्र स्वधर्मः उच्यते"]),
            VerseTerms("X 2", "svadharme nidhanam śreyaḥ"),
            VerseTerms("X 3", "na tad bhāsayate sūryaḥ"),
        ]
    )
    assert [h.ref for h in index.search(["swadharm"], 3)] == ["X 2", "X 1"]
    assert index.search(["qwertyzork"], 3) == []


# -- the Gītā's cache ---------------------------------------------------------------------------


@pytest.mark.data
@pytest.mark.parametrize(
    ("query", "answers"),
    [
        ("sthitha pragnya lakshanam", {f"BG 2.{v}" for v in range(54, 73)}),
        ("sthitpragya", {f"BG 2.{v}" for v in range(54, 73)}),
        ("swadharma vs paradharma", {"BG 3.35", "BG 18.47"}),
        ("adhibhut adhidaiv adhiyagya", {"BG 8.1", "BG 8.2", "BG 8.3", "BG 8.4"}),
        ("characteristics of a gunatit person", {f"BG 14.{v}" for v in range(21, 27)}),
        ("what is kshetra and kshetragya", {"BG 13.1", "BG 13.2", "BG 13.3"}),
        ("brahma nirvana", {"BG 2.72", "BG 5.24", "BG 5.25", "BG 5.26"}),
    ],
)
def test_loose_transliteration_reaches_the_gitas_verses(lexical, query, answers):
    found = [hit.ref for hit in lexical.search(query, 5).results]
    assert found and found[0] in answers, found
    assert len(answers.intersection(found)) >= min(2, len(answers)), found


@pytest.mark.data
def test_a_quote_whose_words_are_english_too_is_read_as_sanskrit(lexical):
    """`ye` and `mam` are English words as well: counted as half English, the opening of 4.11 was
    ranked as a question about striving, and 4.11 was not in the first five."""
    query = "ye yatha mam prapadyante"
    assert lexical.ranking().read(query).share == 1.0
    assert lexical.ranking().read("when does the king ride into the city").share == 0.0
    assert lexical.search(query, 5).results[0].ref == "BG 4.11"


@pytest.mark.data
def test_no_query_of_real_words_finds_nothing(lexical):
    empty = [q["question"] for q in HARD["questions"] if not lexical.search(q["question"], 5).results]
    assert empty == []
    assert lexical.search("qwertyzork blorptang", 5).results == []  # words of no text: nothing


@pytest.mark.data
def test_a_sanskrit_term_the_verses_do_not_use_is_found_through_the_commentaries(lexical):
    """niṣkāma is no word of any verse; the commentaries on the verses of work without desire use it."""
    found = [hit.ref for hit in lexical.search("nishkama karma", 5).results]
    assert {"BG 2.47", "BG 2.48", "BG 3.19", "BG 4.20", "BG 18.6"}.intersection(found), found


def test_verse_refs_of_the_gita_are_accepted_as_keys():
    index = TermIndex([VerseTerms(VerseRef(2, 54), "sthitaprajñasya kā bhāṣā")])
    assert index.search(["sthita", "pragnya"], 1)[0].ref == VerseRef(2, 54)


def test_a_term_index_says_whether_it_holds_these_verses_in_order():
    index = TermIndex([VerseTerms("X 1", "aham eva"), VerseTerms("X 2", "na tad bhāsayate sūryaḥ")])
    refs = ["X 1", "X 2"]
    assert index.holds(refs) and index.holds(refs)
    assert not index.holds(["X 2", "X 1"]) and not index.holds(["X 1"])


@pytest.mark.data
def test_a_term_index_of_the_texts_before_a_seed_is_not_used_meanwhile(seeded_db: Path, tmp_path: Path):
    """While the term index of new texts builds in the background, search ranks by the question index
    alone rather than failing on the last term index, which holds other verses."""
    copy = tmp_path / "gita.db"
    copy.write_bytes(seeded_db.read_bytes())
    service = GitaService(
        GitaSettings(db_path=copy, api_url="http://127.0.0.1:9"), embedder_factory=lambda: None
    )
    try:
        service.background = True
        service._terms = TermIndex([VerseTerms("X 1", "aham eva")])  # what the texts before held
        service._terms_key = service.store.content_signature()
        assert service.ranking().terms is None
        assert service.search("work without attachment", 5).results
    finally:
        service.close()


@pytest.mark.data
def test_a_servers_search_never_builds_the_term_index_itself(seeded_db: Path, tmp_path: Path):
    """A search that comes before the background warming has built the term index never builds it
    under its own deadline (seconds of work a busy machine stretched past it, failing the call): it
    waits while its call has time to spare, else answers without it and says so; the index is then
    there for the searches after."""
    copy = tmp_path / "gita.db"
    copy.write_bytes(seeded_db.read_bytes())  # the cache alone: no term index saved beside it
    service = GitaService(
        GitaSettings(db_path=copy, api_url="http://127.0.0.1:9"), embedder_factory=lambda: None
    )
    try:
        # The question index is built first, outside the call's deadline: on a saturated machine its
        # build alone can outlast TERMS_MARGIN_S (seen at load 12), and this test is about the term index.
        service.questions()
        service.background = True
        assert service.terms(wait=False) is None  # not built by this call: the warming is started
        with work.deadline(TERMS_MARGIN_S):  # a call with no time to wait answers without, and says so
            meanwhile = service.search("sthitha pragnya lakshanam", 5)
        assert TERMS_PENDING_NOTE in meanwhile.notes, meanwhile.notes
        assert eventually(lambda: service.terms(wait=False) is not None, seconds=300)
        found = [hit.ref for hit in service.search("sthitha pragnya lakshanam", 5).results]
        assert found[0] in {f"BG 2.{v}" for v in range(54, 73)}, found
    finally:
        service.close()
