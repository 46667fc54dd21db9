"""The lost "qu" and siva's "?"-for-comma restored, checked on the mirror's own texts."""

import json
import re
from collections import Counter

import pytest

from pramana.config import GitaSettings
from pramana.gita.reference import VerseRef, all_refs
from pramana.gita.repair import repair_text, restore_lost_qu
from pramana.gita.repair_words import Q_WORDS, RARE_WORDS_WITHOUT_QU, WORDS_WITHOUT_QU
from pramana.gita.service import GitaService, verse_model
from pramana.gita.source import AuthorText, parse_verse
from pramana.gita.store import MIGRATIONS, SCHEMA_V1, GitaStore
from pramana.gita.translators import TRANSLATORS
from pramana.store.sqlite import StoreError
from tests.gita.conftest import aged_cache

WORD = re.compile(r"(?<![^\W\d_])[A-Za-z]+(?![^\W\d_])")


def _doc(mirror, ref: VerseRef) -> dict:
    return json.loads((mirror / "slok" / str(ref.chapter) / str(ref.verse) / "index.json").read_text("utf-8"))


def _parsed(mirror, chapter: int, verse: int, author: str, field: str = "et") -> AuthorText:
    ref = VerseRef(chapter, verse)
    record = parse_verse(_doc(mirror, ref), ref)
    return next(t for t in record.texts if t.key == author and t.field == field)


def _text(mirror, chapter: int, verse: int, author: str, field: str = "et") -> str:
    return _parsed(mirror, chapter, verse, author, field).text


@pytest.fixture(scope="module")
def intact_words(gita_mirror) -> Counter:
    """Every word of the texts that kept their "qu": Prabhupada's and Purohit's."""
    words: Counter = Counter()
    for ref in all_refs():
        doc = _doc(gita_mirror, ref)
        for author in ("prabhu", "purohit"):
            block = doc.get(author) or {}
            for field in ("et", "ec"):
                words.update(w.lower() for w in WORD.findall(block.get(field, "")))
    return words


@pytest.mark.parametrize(
    ("chapter", "verse", "author", "damaged", "restored"),
    [
        (14, 5, "siva", "these alities, O Arjuna", "these qualities, O Arjuna"),
        (14, 5, "gambir", "the alities, viz", "the qualities, viz"),
        (4, 34, "siva", "by estion and by service", "by question and by service"),
        (6, 8, "raman", "of eal value", "of equal value"),
        (6, 8, "siva", "who has conered the senses", "who has conquered the senses"),
        (1, 10, "raman", "about the adeacy of", "about the adequacy of"),
        (18, 39, "siva", "in the seel deludes", "in the sequel deludes"),
    ],
)
def test_known_damaged_translations_are_restored(gita_mirror, chapter, verse, author, damaged, restored):
    assert damaged in _doc(gita_mirror, VerseRef(chapter, verse))[author]["et"]
    text = _text(gita_mirror, chapter, verse, author)
    assert restored in text and damaged not in text


def test_commentaries_are_restored_too(gita_mirror):
    doc = _doc(gita_mirror, VerseRef(5, 3))
    assert "some family arrel or" in doc["siva"]["ec"]
    assert "some family quarrel or calamity" in repair_text(doc["siva"]["ec"], "siva", "ec").text


@pytest.mark.parametrize(
    ("word", "restored"),
    [
        ("eal", "equal"),
        ("Eanimity", "Equanimity"),
        ("Conseently", "Consequently"),
        ("CONERED", "CONQUERED"),
        ("ickly", "quickly"),
        ("relinishment", "relinquishment"),
        ("inadeacy", "inadequacy"),
        ("ite", "quite"),
    ],
)
def test_restoring_keeps_the_case(word, restored):
    assert restore_lost_qu(word) == restored


@pytest.mark.parametrize(
    "word",
    # English words without the "qu"; "Alities" because a capital "Qu" was never dropped;
    # Sanskrit and names that no "qu" word explains.
    ["it", "its", "It", "O", "art", "ire", "est", "ick", "ake", "eating", "vanish", "Alities", "Sama", "adi"],
)
def test_real_words_are_not_restored(word):
    assert restore_lost_qu(word) is None


def test_surrounding_characters_stay_and_doubtful_words_are_flagged():
    repaired = repair_text("(eal), «conered»-ness; I too ake, it is est.", "adi", "et")
    assert repaired.text == "(equal), «conquered»-ness; I too ake, it is est."
    assert repaired.repairs.restored == (("eal", "equal"), ("conered", "conquered"))
    assert repaired.repairs.suspects == ("ake", "est")


@pytest.mark.parametrize(
    ("chapter", "verse", "author", "word"),
    [(11, 23, "adi", "ake"), (4, 12, "san", "ick"), (11, 34, "san", "vanish")],
)
def test_doubtful_words_in_the_data_are_flagged_not_changed(gita_mirror, chapter, verse, author, word):
    text = _parsed(gita_mirror, chapter, verse, author)
    assert re.search(rf"\b{word}\b", text.text)
    assert word in text.repairs.suspects


def test_intact_texts_are_left_exactly_as_they_are(gita_mirror):
    """Prabhupada's and Purohit's texts kept their "qu": repairing them must change nothing."""
    checked = 0
    for ref in all_refs():
        doc = _doc(gita_mirror, ref)
        for author in ("prabhu", "purohit"):
            for field, text in (doc.get(author) or {}).items():
                if field in ("et", "ec"):
                    repaired = repair_text(text, author, field)
                    assert repaired.text == text, (ref, author, field, repaired.repairs)
                    assert not repaired.repairs, (ref, author, field)
                    checked += 1
    assert checked > 2000


def test_word_lists_agree_with_the_intact_texts(intact_words):
    intact_q_words = {w for w in intact_words if "qu" in w}
    assert len(intact_q_words) > 90
    assert intact_q_words <= Q_WORDS
    partners = {w[:i] + w[i + 2 :]: w for w in Q_WORDS for i in range(len(w)) if w.startswith("qu", i)}
    # Every intact word that is a Q word less its "qu" is known to be a real word.
    used_without_qu = {w for w in intact_words if w in partners}
    assert used_without_qu <= WORDS_WITHOUT_QU | RARE_WORDS_WITHOUT_QU
    # Real words left alone are far commoner in the intact texts than their "qu" partner.
    for word in WORDS_WITHOUT_QU:
        assert intact_words[word] >= 10 * intact_words[partners[word]], word
    assert partners.keys() >= WORDS_WITHOUT_QU | RARE_WORDS_WITHOUT_QU


def test_sivas_commas_are_restored_and_real_question_marks_kept(gita_mirror):
    doc = _doc(gita_mirror, VerseRef(2, 47))
    assert "कर्मणि in work? एव only?" in doc["siva"]["ec"]
    repaired = repair_text(doc["siva"]["ec"], "siva", "ec")
    assert "कर्मणि in work, एव only," in repaired.text and "?" not in repaired.text
    assert repaired.repairs.commas == doc["siva"]["ec"].count("?")
    siva_16_15 = _text(gita_mirror, 16, 15, "siva")
    assert "Who else is equal to me?" in siva_16_15  # his translations keep their question marks
    gambir_2_54 = _text(gita_mirror, 2, 54, "gambir")
    assert "How does he sit?" in gambir_2_54


def test_only_whole_command_words_get_their_comma_back():
    repaired = repair_text("My ?nds, his ?nder; 2?nd and ?ndless", "sankar", "et")
    assert repaired.text == "My commands, his commander; 2?nd and ?ndless"
    assert repaired.repairs.commas == 0


def test_comma_lost_inside_command(gita_mirror):
    assert "My ?ndments" in _doc(gita_mirror, VerseRef(17, 6))["raman"]["et"]
    assert "My commandments" in _text(gita_mirror, 17, 6, "raman")


def test_verse_notes_say_what_was_restored_or_doubtful(tmp_path, gita_mirror):
    store = GitaStore(tmp_path / "c.db")
    for chapter, verse in [(14, 5), (11, 23), (2, 47)]:
        ref = VerseRef(chapter, verse)
        store.save_verse(parse_verse(_doc(gita_mirror, ref), ref))
    siva = verse_model(store.verse(VerseRef(14, 5)), TRANSLATORS["siva"])
    assert "qualities" in siva.translation.text
    assert any("'alities' → 'qualities'" in note for note in siva.notes), siva.notes
    adi = verse_model(store.verse(VerseRef(11, 23)), TRANSLATORS["adi"])
    assert any("'ake'" in note and "left as they are" in note for note in adi.notes), adi.notes
    prabhu = verse_model(store.verse(VerseRef(2, 47)), TRANSLATORS["prabhu"])
    assert prabhu.notes == []


def test_a_cache_miss_fetch_stores_repaired_text(tmp_path, mirror_url):
    service = GitaService(GitaSettings(db_path=tmp_path / "c.db", api_url=mirror_url))
    try:
        verse = service.lookup("BG 4.34", "siva")
        assert "by question and by service" in verse.translation.text
        assert [h.ref for h in service.store.search("question service", 3)] == [VerseRef(4, 34)]
    finally:
        service.close()


LOST_QU = "Purity, passion and inertia  these alities, O Arjuna"  # the source's text, "qu" lost


def _version_2_cache(path, gita_mirror) -> None:
    """A cache as the previous schema wrote it: version 2, texts as the source had them."""
    raw = (gita_mirror / "slok" / "14" / "5" / "index.json").read_text("utf-8")
    aged_cache(
        path,
        2,
        *(statement for statement in SCHEMA_V1.split(";") if statement.strip()),
        (
            "INSERT INTO verses (ref, chapter, verse, devanagari, transliteration, raw_json)"
            " VALUES ('BG 14.5', 14, 5, 'सत्त्वं', 'sattvaṃ', ?)",
            (raw,),
        ),
        (
            "INSERT INTO verse_texts (ref, author_key, author, field, text) VALUES (?, ?, ?, ?, ?)",
            ("BG 14.5", "siva", "Swami Sivananda", "et", LOST_QU),
        ),
    )


def test_migration_repairs_texts_cached_before(tmp_path, gita_mirror):
    path = tmp_path / "v2.db"
    _version_2_cache(path, gita_mirror)
    store = GitaStore(path)
    (siva,) = [t for t in store.verse(VerseRef(14, 5)).texts if t.author_key == "siva" and t.field == "et"]
    assert "these qualities, O Arjuna" in siva.text
    assert ("alities", "qualities") in siva.repairs.restored
    assert [h.ref for h in store.search("qualities Arjuna", 3)] == [VerseRef(14, 5)]


def test_an_old_cache_opened_read_only_says_what_to_do(tmp_path, gita_mirror):
    path = tmp_path / "v2.db"
    _version_2_cache(path, gita_mirror)
    expected = rf"older pramana \(schema version 2, this one needs {len(MIGRATIONS)}\): open it once"
    with pytest.raises(StoreError, match=expected):
        GitaStore(path, read_only=True)
