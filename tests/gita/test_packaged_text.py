"""The Sanskrit shipped in the package: what scripts/make_gita_text.py makes from the mirror."""

import gzip
import importlib.util
import json
import sys
from pathlib import Path

from pramana.gita import packaged
from pramana.gita.reference import VERSE_COUNT, VerseRef, all_refs
from pramana.gita.verse_text import avagraha_as_data, proper_iast
from tests.conftest import REPO_ROOT

SCRIPT = REPO_ROOT / "scripts" / "make_gita_text.py"
SHIPPED = REPO_ROOT / "src" / "pramana" / "gita" / "data" / packaged.TEXT_FILE


def _script():
    spec = importlib.util.spec_from_file_location("make_gita_text", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_the_shipped_file_is_what_the_script_makes_from_the_mirror(gita_mirror: Path):
    script = _script()
    made = script.build(gita_mirror)
    assert json.loads(gzip.decompress(SHIPPED.read_bytes())) == made
    assert script.encode(made) == script.encode(script.build(gita_mirror))  # reproducible bytes


def test_every_verse_in_both_scripts_and_no_colophon():
    verses = packaged.packaged_verses()
    assert len(verses) == VERSE_COUNT == 701
    assert list(verses) == all_refs()
    assert VerseRef(1, 48) not in verses and VerseRef(18, 79) not in verses
    for ref, verse in verses.items():
        assert verse.ref == ref
        assert any("\u0900" <= ch <= "\u097f" for ch in verse.devanagari), ref
        assert verse.transliteration.isascii() is False and not any(
            "\u0900" <= ch <= "\u097f" for ch in verse.transliteration
        ), ref
        assert verse.transliteration.endswith(f"||{ref.chapter}-{ref.verse}||"), ref
    assert verses[VerseRef(13, 1)].transliteration.startswith("arjuna uvāca |\nprakṛtiṃ puruṣaṃ caiva")


def test_the_iast_has_proper_marks():
    verses = packaged.packaged_verses()
    assert verses[VerseRef(2, 47)].transliteration == (
        "karmaṇyevādhikāraste mā phaleṣu kadācana |\nmā karmaphalaheturbhūrmā te saṅgo'stvakarmaṇi ||2-47||"
    )
    # 12.5 ends its first half with "||" in the data; 4.39 writes the candrabindu as ".N".
    assert verses[VerseRef(12, 5)].transliteration.startswith("kleśo'dhikatarasteṣāmavyaktāsaktacetasām |\n")
    assert "śraddhāvām̐llabhate" in verses[VerseRef(4, 39)].transliteration
    for verse in verses.values():
        assert "." not in verse.transliteration, verse.ref
        assert verse.transliteration.count("||") == 2, verse.ref


def test_proper_iast_and_back():
    data = "dhṛtarāṣṭra uvāca .\nmā te saṅgo.astvakarmaṇi .\nso.api ||2-47||"
    assert proper_iast(data) == "dhṛtarāṣṭra uvāca |\nmā te saṅgo'stvakarmaṇi |\nso'pi ||2-47||"
    assert avagraha_as_data("saṅgo'stvakarmaṇi so’pi") == "saṅgo.astvakarmaṇi so.api"
    # English clitics are not avagrahas.
    assert avagraha_as_data("one's duty, don't, we'll, they're") == "one's duty, don't, we'll, they're"


def test_english_words_come_from_the_clean_translations():
    words = packaged.english_words()
    assert 2_000 < len(words) < 10_000
    assert {"duty", "work", "surrender", "which", "said"} <= words
    # The words the scraping damaged in other translations ("conered" for "conquered") are not there.
    assert "conquered" in words and "conered" not in words
    assert all(word.islower() and word.isascii() for word in words)
