import re

from hypothesis import given, settings
from hypothesis import strategies as st

from pramana.text.normalize import (
    clean_text,
    fold_each,
    fold_word,
    fold_words,
    has_devanagari,
    strip_diacritics,
)
from pramana.text.phonetic import skeleton, skeleton_key
from pramana.text.transliterate import devanagari_to_iast, iast_to_devanagari


def test_clean_text_removes_invisibles_and_collapses_spaces():
    assert clean_text("  कर्म\u00a0\u00a0in   work\u200c \n\n second  line ") == "कर्म in work\nsecond line"


def test_clean_text_composes_to_nfc():
    decomposed = "ka\u0304rma"  # a + combining macron
    assert clean_text(decomposed) == "kārma"


def test_strip_diacritics():
    assert strip_diacritics("Karmaṇy evādhikāras te") == "karmany evadhikaras te"


def test_fold_word_unifies_popular_spellings():
    assert fold_word("kṛṣṇa") == fold_word("krishna") == fold_word("Krsna") == fold_word("KRISHNA")
    assert fold_word("śrī") == fold_word("shree") == fold_word("sri")
    assert fold_word("kṣetra") == fold_word("kshetra") == fold_word("xetra")
    assert fold_word("ṁ") == fold_word("ṃ")


def test_fold_word_keeps_different_words_apart():
    assert fold_word("karma") != fold_word("dharma")
    assert fold_word("mana") != fold_word("mama")


def test_fold_words_splits_on_danda_and_avagraha_dot():
    assert fold_words("saṅgo.astvakarmaṇi .") == "sango astvakarmani"


def test_has_devanagari():
    assert has_devanagari("कर्म yoga")
    assert not has_devanagari("karma yoga")


def test_devanagari_round_trip():
    assert devanagari_to_iast("कर्मण्येवाधिकारस्ते") == "karmaṇyevādhikāraste"
    assert iast_to_devanagari("karmaṇyevādhikāraste") == "कर्मण्येवाधिकारस्ते"
    assert iast_to_devanagari("māṁ") == iast_to_devanagari("māṃ")


# Sanskrit, English, Bengali-in-IAST, marks and the odd letters transcripts carry.
_LETTERS = "aāiīuūṛṝḷeoṃṁḥkgcjṭḍtdnpbmyrlvśṣshxzqfwñṅṇ'-.,ĀŚṢṚ ABCxyzgy" + "\u0310\u0301"
_WORDS = st.text(alphabet=_LETTERS, min_size=0, max_size=25).filter(lambda word: "\n" not in word)


@settings(max_examples=200, deadline=None)
@given(st.lists(_WORDS, max_size=12))
def test_fold_each_is_fold_word_of_each(words):
    assert fold_each(words) == [fold_word(word) for word in words]


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=_LETTERS + "\n\t\u00a0\u2028", max_size=80))
def test_fold_words_is_fold_word_of_each_word(text):
    # fold_words folds a text's words in one fold_each, as fold_word folds each alone (spaces, newlines
    # and dots part words; a word that folds to nothing is left out)
    each = (fold_word(word) for word in re.split(r"\s+", text.replace(".", " ")))
    assert fold_words(text) == " ".join(word for word in each if word)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=_LETTERS + "\n", max_size=80))
def test_skeleton_key_is_the_skeletons_key(text):
    assert skeleton_key(text) == skeleton(text).key
