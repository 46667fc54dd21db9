"""Inflected forms → lemma, from the index vidyut.prakriya generates at install time."""

import asyncio
from pathlib import Path

import pytest

from pramana.sanskrit.forms import build_form_index, genders_of, pausa_readings, prefixed_verb
from pramana.sanskrit.service import SanskritService
from pramana.sanskrit.source import install
from pramana.sanskrit.store import SanskritStore


@pytest.mark.parametrize(
    ("word", "lemma", "reading"),
    [
        ("rāmeṇa", "rāma", "instrumental singular (m., n.)"),
        ("gacchati", "gam", "present 3rd singular"),
        ("devānām", "deva", "genitive plural (m., f., n.)"),
        ("karmaṇi", "karman", "locative singular (n.)"),
        ("गच्छति", "gam", "present 3rd singular"),
        ("uvāca", "vac", "perfect 3rd singular"),
        ("gatvā", "gam", "gerund"),
        ("agnim", "agni", "accusative singular (m.)"),
    ],
)
def test_a_form_is_analysed_to_its_lemma(forms, word, lemma, reading):
    analysed = forms.analyze(word)
    readings = {(a.lemma, r) for a in analysed.analyses for r in a.grammar}
    assert (lemma, reading) in readings
    found = next(a for a in analysed.analyses if a.lemma == lemma)
    assert found.article_ids and found.article_ids[0].startswith("lan:")
    assert found.summary.startswith(f"{found.form}: ") and found.summary.endswith(f" of {lemma}")


@pytest.mark.parametrize(
    ("word", "lemma", "reading"),
    [
        ("me", "asmad", "genitive singular, enclitic"),  # pronouns: no dictionary gives them a gender
        ("tasya", "tad", "genitive singular (m., n.)"),
        ("mām", "asmad", "accusative singular (m., f.)"),
        ("gacchantaḥ", "gam", "present participle, nominative plural (m.)"),
        ("vartamānāni", "vṛt", "present participle, nominative plural (n.)"),
        ("ghātayati", "han", "causative present 3rd singular"),
        ("bodhayantaḥ", "budh", "causative present participle, nominative plural (m.)"),
        ("devo", "deva", "nominative singular (m.)"),  # the final sound as sandhi left it: devaḥ
        ("agnir", "agni", "nominative singular (m.)"),
        ("vartanta", "vṛt", "present 3rd plural"),  # vartante before a vowel
    ],
)
def test_pronouns_participles_causatives_and_sandhi_finals(forms, word, lemma, reading):
    readings = {(a.lemma, r) for a in forms.analyze(word).analyses for r in a.grammar}
    assert (lemma, reading) in readings, readings


@pytest.mark.parametrize(
    ("headword", "opening", "prefixes", "root"),
    [
        (
            "praRaS",
            "प्रणश् [praṇaś] [pra-ṇaś] ( Preverb.:1 [√ naś ] ) P. [-ṇaśati] , to reach",
            ("pra",),
            "naS",
        ),
        (
            "samADA",
            "समाधा [samādhā] [sam-ā-√ dhā ] P. Ā. [-dadhāti] , [-dhatte] , to place",
            ("sam", "AN"),
            "DA",
        ),
        ("vIkz", "वीक्ष् [vīkṣ] [vīkṣ] ( Preverb. [vi-√ īkṣ] ) Ā. [vīkṣate] ( ep. also P.)", ("vi",), "Ikz"),
        ("kzam", "√kṣam — (kṣámate", None, None),
        ("nivft", "निवृत् [nivṛt] [ni-vṛt ] w.r. for [ni-cṛt ] .", None, None),
    ],
)
def test_articles_on_verbs_with_prefixes(headword, opening, prefixes, root):
    verb = prefixed_verb(headword, opening)
    assert (verb.prefixes, verb.root) == (prefixes, root) if prefixes else verb is None


@pytest.mark.parametrize(
    ("word", "readings"),
    [("mano", ["manaH"]), ("yajYaM", ["yajYam"]), ("vartanta", ["vartantaH", "vartante"]),
     ("balavad", ["balavat"]), ("agnir", ["agniH"]), ("devAH", []), ("a", [])],
)  # fmt: skip
def test_pausa_readings(word, readings):
    assert pausa_readings(word) == readings


def test_a_verb_with_prefixes_is_found_under_the_dictionarys_headword(tmp_path: Path, csl_data: Path):
    """One real page of MW (prakḷp … praṇigad) and, of the Dhātupāṭha, the roots naś: the preverb
    article praṇaś "[pra-ṇaś] ( Preverb [√ naś ] )" gets its forms; its nouns no verb forms."""
    from tests.conftest import run_pramana

    folder = tmp_path / "mw"
    folder.mkdir()
    (folder / "1.html").write_bytes((csl_data / "mw" / "heritage_xhtml" / "164.html").read_bytes())
    rows = (csl_data / "vidyut" / "dhatupatha.tsv").read_text("utf-8").splitlines()
    dhatupatha = tmp_path / "dhatupatha.tsv"
    dhatupatha.write_text("\n".join([rows[0], *(r for r in rows if r.split("\t")[1] == "Ra\\Sa~")]), "utf-8")
    db = tmp_path / "s.db"
    done = run_pramana(
        "sanskrit", "import", str(folder), "--code", "mw", "--dhatupatha", str(dhatupatha), "--db", str(db)
    )
    assert done.returncode == 0, done.stderr
    assert "1 roots" in done.stdout and " 0 verbs with prefixes" not in done.stdout, done.stdout
    service = SanskritService(db, read_only=True)
    for word, reading in (("praṇaśyati", "present 3rd singular"), ("praṇaśya", "gerund")):
        analyses = service.analyze(word).analyses
        assert [(a.lemma, reading in a.grammar) for a in analyses] == [("praṇaś", True)]
        assert analyses[0].article_ids[0].startswith("mw:")
    assert service.search("praṇaśyati").matched_by == "form"
    service.close()


def test_exact_search_falls_back_to_the_form_index(forms):
    found = forms.search("rāmeṇa")
    assert found.matched_by == "form"
    assert [hit.word for hit in found.results] == ["rāma"]
    assert found.analyses[0].summary.startswith("rāmeṇa: instrumental singular")
    assert found.did_you_mean == []
    assert forms.search("rāma").matched_by == "exact"  # a headword is never taken for a form


def test_a_word_that_is_no_form_says_why(forms):
    analysed = forms.analyze("kfzRakarmaRi")  # a compound: not generated, but its members are words
    assert analysed.count == 0 and analysed.note is None
    assert [part.word for part in analysed.splits[0].parts] == ["kṛṣṇa", "karmaṇi"]
    assert forms.search("kfzRakarmaRi").matched_by == "sandhi"
    analysed = forms.analyze("kfzRakarmaRIkzu")  # no form, nor known words
    assert analysed.count == 0 and "compound" in analysed.note and not analysed.splits
    assert forms.search("kfzRakarmaRIkzu").matched_by == "loose"


def test_an_empty_form_index_says_how_to_build_it(sanskrit):
    analysed = sanskrit.analyze("rāmeṇa")
    assert analysed.count == 0 and "pramana sanskrit forms" in analysed.note


@pytest.mark.parametrize("word", ["", "  ", "x" * 201])
def test_bad_words(forms, word):
    from pramana.errors import InvalidInputError

    with pytest.raises(InvalidInputError):
        forms.analyze(word)


@pytest.mark.parametrize(
    ("headword", "opening", "genders"),
    [
        ("DarmaH", "[Driyate…] 1 Religion", "m"),
        ("vanaM", "[van-ac] 1 A forest", "n"),
        ("agniH", "[aMgati…] 1 Fire", "fm"),
        ("agni", "m. fire, or Agni", "m"),
        ("kfzRa", "a. [kṛṣ-nak] 1 Black", "fmn"),
        ("deva", "f. devī́,\n\n—1. a. heavenly", "fmn"),
        ("Darma", "धर्म [dharma] [dhárma]1 m. ( rarely n.", "mn"),
        ("kzam", "√kṣam — (kṣámate", ""),
        ("evam", "ind. thus", ""),
        ("gacCati", "geht", ""),
    ],
)
def test_genders_from_the_grammar_markers(headword, opening, genders):
    assert genders_of(headword, opening) == genders


def test_installing_another_dictionary_generates_only_its_new_stems(forms_db: Path, tmp_path, csl_url):
    db = tmp_path / "s.db"
    db.write_bytes(forms_db.read_bytes())
    store = SanskritStore(db)
    before = store.form_count()
    again = build_form_index(store)
    assert (again.stems, again.roots, again.forms) == (0, 0, 0)
    asyncio.run(install(store, ["acph"], csl_url, tmp_path / "dl"))
    added = build_form_index(store)
    assert 0 < added.stems < 163 and added.roots == 0  # acph has 163 articles, some stems lan has
    assert store.form_count() == before + added.forms
    store.close()
    service = SanskritService(db, read_only=True)
    assert service.analyze("gacchati").count == 1
    service.close()


def test_cli_analyze(forms_db: Path):
    from tests.conftest import run_pramana

    done = run_pramana("sanskrit", "analyze", "rāmeṇa", "--db", str(forms_db))
    assert done.returncode == 0, done.stderr
    assert "rāmeṇa: instrumental singular (m., n.) of rāma" in done.stdout
    empty = run_pramana("sanskrit", "analyze", " ", "--db", str(forms_db))
    assert empty.returncode != 0 and "word is empty" in empty.stderr and "Traceback" not in empty.stderr


def test_the_root_list_must_be_the_pinned_one(tmp_path, monkeypatch, csl_data):
    from pramana.sanskrit import source

    monkeypatch.setattr(
        source, "DHATUPATHA_URL", str(tmp_path / "nowhere" / "dhatupatha.tsv")
    )  # never GitHub
    real = (csl_data / "vidyut" / "dhatupatha.tsv").read_bytes()
    good, bad = tmp_path / "good", tmp_path / "bad"
    (good / "vidyut").mkdir(parents=True)
    (bad / "vidyut").mkdir(parents=True)
    (good / "vidyut" / "dhatupatha.tsv").write_bytes(real)
    (bad / "vidyut" / "dhatupatha.tsv").write_bytes(real.replace(b"gam", b"gaM", 1))  # one root changed
    fetched = asyncio.run(source.fetch_dhatupatha(str(good), tmp_path / "downloads-good"))
    assert fetched is not None and fetched.read_bytes() == real
    # a second install reads the verified copy, whatever the source says now
    again = asyncio.run(source.fetch_dhatupatha(str(bad), tmp_path / "downloads-good"))
    assert again == fetched and again.read_bytes() == real
    assert asyncio.run(source.fetch_dhatupatha(str(bad), tmp_path / "downloads-bad")) is None
