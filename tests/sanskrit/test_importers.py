"""The slob (md, cae) and Sanskrit Heritage (mw) editions from shared."""

from pathlib import Path

import pytest

from pramana.errors import InvalidInputError
from pramana.sanskrit.html import sanskrit_to_devanagari, to_markdown
from pramana.sanskrit.importers import _meta, detect_format, heritage_entries, import_path
from pramana.sanskrit.service import SanskritService
from pramana.sanskrit.slob import SlobFile
from pramana.sanskrit.store import SanskritStore
from pramana.text.schemes import loose_key_from_slp1
from tests.sanskrit.test_install import table_rows


@pytest.fixture(scope="module")
def imported(tmp_path_factory, csl_data):
    db = tmp_path_factory.mktemp("imports") / "s.db"
    store = SanskritStore(db)
    results = {
        "md": import_path(store, csl_data / "md" / "macdse.slob", "md"),
        "cae": import_path(store, csl_data / "cae" / "cappse.slob", "cae"),
    }
    store.close()
    return db, results


def test_slob_reader(csl_data):
    slob = SlobFile(csl_data / "md" / "macdse.slob")
    assert slob.tags["label"] == "Macdonell: Sanskrit-English Dictionary (1893)"
    assert slob.compression == "zlib"
    assert sum(1 for _ in slob.refs()) == 20_790


def test_slob_counts(imported):
    _, results = imported
    assert results["md"].entries == 20_787
    assert results["cae"].entries == 39_872


def test_slob_entries_answer_in_any_scheme(imported):
    db, _ = imported
    service = SanskritService(db, read_only=True)
    for query in ("kṛṣṇa", "kfzRa", "कृष्ण", "krishna"):
        assert {h.dict_code for h in service.search(query).results} == {"md", "cae"}, query
    article = service.get_article(service.search("kṛṣṇa", dict_codes=["md"]).results[0].article_id)
    assert article.markdown.startswith("**kṛṣṇa**\n\nkṛṣ-ṇa, n. black; dark;")
    deva = service.get_article(article.article_id, "devanagari").markdown
    assert deva.startswith("**कृष्ण**\n\nkṛṣ-ṇa, n. black; dark;")  # only the emphasised Sanskrit
    listed = {d.code: d for d in service.list_dictionaries().dictionaries}
    assert (listed["md"].year, listed["cae"].year) == ("1893", "1891")


def test_heritage_mw_first_pages(csl_data):
    folder = csl_data / "mw" / "heritage_xhtml"
    entries = []
    for entry in heritage_entries(folder):
        entries.append(entry)
        if len(entries) >= 2000:
            break
    assert entries[0].key_slp1.startswith("a")
    assert all(e.markup and e.key_slp1 for e in entries)
    with_homonyms = [e for e in entries if e.homonym]
    assert with_homonyms and with_homonyms[0].homonym.isdigit()


def test_heritage_mw_page_with_senses(tmp_path, csl_data):
    """One real page: headword blocks and the sense paragraphs that follow them."""
    folder = tmp_path / "mw"
    folder.mkdir()
    (folder / "1.html").write_bytes((csl_data / "mw" / "heritage_xhtml" / "100.html").read_bytes())
    entries = list(heritage_entries(folder))
    ta = [e for e in entries if e.key_slp1 == "wa"]
    assert [e.homonym for e in ta][:2] == ["1", "2"]
    assert ta[0].markup.startswith("ट [*ṭa*] [*ṭa*]1 the 1st cerebral consonant")
    assert any(e.markup.startswith("a dwarf") and e.key_slp1 == "wa" for e in entries)


def test_heritage_mw_first_headword_of_a_page(tmp_path, csl_data):
    """A page's first headword block follows the page header, not an `<hr>`: it is an entry of its own
    (agni opens page 2; it used to be lost, or glued to the page before)."""
    folder = tmp_path / "mw"
    folder.mkdir()
    (folder / "1.html").write_bytes((csl_data / "mw" / "heritage_xhtml" / "2.html").read_bytes())
    entries = list(heritage_entries(folder))
    assert entries[0].key_slp1 == "agni"
    assert entries[0].markup.startswith("अग्नि [*agni*] [*agní*] m.")


def test_detect_format(csl_data):
    assert detect_format(csl_data / "md" / "macdse.slob") == "slob"
    assert detect_format(csl_data / "ap90" / "ap90.txt") == "csl"
    assert detect_format(csl_data / "mw" / "heritage_xhtml") == "heritage-mw"
    with pytest.raises(InvalidInputError):
        detect_format(csl_data / "ap90")


def test_import_rejects_bad_input(tmp_path):
    store = SanskritStore(tmp_path / "s.db")
    with pytest.raises(InvalidInputError, match="does not exist"):
        import_path(store, tmp_path / "missing.slob", "x")
    (tmp_path / "x.bin").write_bytes(b"\x00\x01garbage")
    with pytest.raises(InvalidInputError, match="cannot tell the format"):
        import_path(store, tmp_path / "x.bin", "x")
    with pytest.raises(InvalidInputError, match="letters and digits"):
        import_path(store, Path("/etc/passwd"), "../x")


def test_html_to_markdown():
    assert to_markdown("<b>kṛṣṇa</b><p>a. <i>black</i> &amp; dark</p>") == "**kṛṣṇa**\n\na. *black* & dark"
    assert to_markdown("<script>x()</script><p>ok</p>") == "ok"


def test_html_edition_sanskrit_to_devanagari():
    converted = sanskrit_to_devanagari("**Lit.** [*áti-darpa*] **agní** m. *fig.* *ā́pas* (*ī*) x")
    assert converted == "**Lit.** [*अति-दर्प*] **अग्नि** m. *fig.* *आपस्* (*ई*) x"


def test_heritage_mw_article_in_devanagari(tmp_path, csl_data):
    folder = tmp_path / "mw"
    folder.mkdir()
    (folder / "1.html").write_bytes((csl_data / "mw" / "heritage_xhtml" / "100.html").read_bytes())
    store = SanskritStore(tmp_path / "s.db")
    import_path(store, folder, "mw")
    store.close()
    service = SanskritService(tmp_path / "s.db", read_only=True)
    hit = service.search("ṭa", dict_codes=["mw"]).results[0]
    article = service.get_article(hit.article_id, "devanagari")
    assert article.markdown.startswith("ट [*ट*] [*ट*]1 the 1st cerebral consonant")


def test_stardict_round_trip_through_pyglossary(tmp_path):
    """A real StarDict file written by pyglossary's own writer, then imported."""
    from pyglossary.glossary_v2 import Glossary

    Glossary.init()
    glossary = Glossary()
    glossary.setInfo("name", "Tiny Sanskrit Glossary")
    glossary.addEntry(
        glossary.newEntry(["kṛṣṇa", "कृष्ण"], "<b>kṛṣṇa</b> <i>adj.</i> black, dark", defiFormat="h")
    )
    glossary.addEntry(glossary.newEntry(["dharma"], "law, duty, virtue", defiFormat="m"))
    glossary.addEntry(glossary.newEntry(["योग"], "union; <i>yoga</i>", defiFormat="h"))
    target = tmp_path / "tiny" / "tiny.ifo"
    target.parent.mkdir()
    assert glossary.write(str(target), format="Stardict")
    glossary.cleanup()

    store = SanskritStore(tmp_path / "s.db")
    assert detect_format(target) == "stardict"
    assert import_path(store, target, "tiny").entries == 3
    service = SanskritService(tmp_path / "s.db", read_only=True)
    found = service.search("कृष्ण")
    assert [(h.word, h.dict_code) for h in found.results] == [("kṛṣṇa", "tiny")]
    article = service.get_article(service.search("kfzRa").results[0].article_id)
    assert article.markdown == "**kṛṣṇa** *adj.* black, dark"
    assert service.search("yoga").results[0].word == "yoga"
    assert service.list_dictionaries().dictionaries[0].name == "Tiny Sanskrit Glossary"


def test_heritage_mw_made_in_a_second_process_writes_what_this_one_does(tmp_path, csl_data):
    """import_path makes the Heritage MW's entries in a second process (with progress sent back);
    the same entries made here and written give the same rows, table by table."""
    folder = tmp_path / "mw"
    folder.mkdir()
    for number, page in enumerate(("1", "100", "101"), start=1):
        (folder / f"{number}.html").write_bytes(
            (csl_data / "mw" / "heritage_xhtml" / f"{page}.html").read_bytes()
        )
    pages = []
    import_path(
        SanskritStore(tmp_path / "worker.db"),
        folder,
        "mw",
        progress=lambda done, total: pages.append((done, total)),
    )
    store = SanskritStore(tmp_path / "here.db")
    meta = _meta(
        "mw",
        "Monier-Williams Sanskrit-English Dictionary",
        "the Sanskrit Heritage XHTML edition",
        str(folder),
        "1899",
    )
    count = store.replace_dictionary(meta, heritage_entries(folder), loose_key_from_slp1)
    assert pages == [(1, 3), (2, 3), (3, 3)]
    worker, here = table_rows(tmp_path / "worker.db"), table_rows(tmp_path / "here.db")
    assert len(worker["entries"]) == count > 100
    assert worker.keys() == here.keys()
    for name in worker:
        assert worker[name] == here[name], name
