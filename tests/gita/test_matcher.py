from pramana.gita.matcher import IndexedVerse, SpecMatcher, spec_normalize
from pramana.gita.reference import VerseRef


def test_spec_normalization_example():
    assert spec_normalize("Karmaṇy evādhikāras te") == "karmany evadhikaras te"


def test_spec_table_and_verse_numbers():
    assert spec_normalize("kṛṣṇa śiṣya ṣaṭ ṝ ḍ ṅ ñ ḥ ṃ ṁ") == "krishna shishya shat ri d n n h m m"
    assert spec_normalize("mā karmaphalaheturbhūrmā te saṅgo.astvakarmaṇi ||2-47||") == (
        "ma karmaphalaheturbhurma te sangoastvakarmani"
    )
    assert spec_normalize("  mad-bhākto,   mad-yājī! ") == "madbhakto madyaji"


def test_spec_scoring_threshold_and_order():
    verses = [
        IndexedVerse(VerseRef(9, 34), "manmanā bhava madbhakto madyājī māṃ namaskuru"),
        IndexedVerse(VerseRef(2, 47), "karmaṇyevādhikāraste mā phaleṣu kadācana"),
    ]
    matcher = SpecMatcher(verses)
    found = matcher.ranked("man manā bhava mad-bhākto", 5)
    assert found[0].ref == VerseRef(9, 34)
    assert all(m.score >= 0.25 for m in found)
    assert matcher.ranked("xyz", 5) == []
    assert len(matcher.ranked("manmana bhava", 1)) == 1
    report = matcher.match("man manā bhava mad-bhākto", 5)
    assert report.confident and report.matches == found
