"""Reading words of a text: the form index (lexicon + the Dhātupāṭha's verbs) and the analyzer, on Lanman's
vocabulary installed with the CLI (tests/sanskrit/conftest.py)."""

import asyncio
import sqlite3
from pathlib import Path

import pytest

from pramana.sanskrit.analysis import join_preverb, pada_swaps, preverb_splits
from pramana.sanskrit.forms import build_form_index, genders_of, lexicon_of, pausa_readings
from pramana.sanskrit.service import SanskritService
from pramana.sanskrit.source import install
from pramana.sanskrit.store import SanskritStore


def readings_of(service: SanskritService, word: str) -> set[tuple[str, str]]:
    return {(a.lemma, g) for a in service.analyze(word).analyses for g in a.grammar}


@pytest.mark.parametrize(
    ("word", "lemma", "reading"),
    [
        ("rāmeṇa", "rāma", "instrumental singular (m., n.)"),
        ("devānām", "deva", "genitive plural (m., f., n.)"),
        ("karmaṇi", "karman", "locative singular (n.)"),
        ("agnim", "agni", "accusative singular (m.)"),
        ("vidyayā", "vidyā", "instrumental singular (f.)"),  # ā-stems as feminines, not root nouns
        ("kanyāyāḥ", "kanyā", "genitive singular (f.)"),
        ("senāyām", "senā", "locative singular (f.)"),
        ("dhīmān", "dhīmat", "nominative singular (m.)"),  # Lanman cites dhīmant
        ("mahān", "mahat", "nominative singular (m.)"),
        ("rājñā", "rājan", "instrumental singular (m.)"),
        ("dhanuṣā", "dhanus", "instrumental singular (n.)"),
        ("manobhiḥ", "manas", "instrumental plural (n.)"),
        ("balī", "balin", "nominative singular (m.)"),
    ],
)
def test_nouns_of_every_class(forms, word, lemma, reading):
    assert (lemma, reading) in readings_of(forms, word)


@pytest.mark.parametrize(
    ("word", "lemma"),
    [("iti", "iti"), ("api", "api"), ("tatra", "tatra"), ("hi", "hi"), ("iva", "iva"), ("tataḥ", "tatas"),
     ("punar", "punar"), ("evaṃ", "evam"), ("katham", "katham"), ("sadā", "sadā"), ("vinā", "vinā")],
)  # fmt: skip
def test_indeclinables_are_readings_of_their_own_and_first(forms, word, lemma):
    analyses = forms.analyze(word).analyses
    assert analyses[0].lemma == lemma and analyses[0].kind == "indeclinable"


@pytest.mark.parametrize(
    ("word", "lemma", "kind", "reading"),
    [
        ("kiṃcid", "kaścit", "pronoun", "nominative singular (n.)"),
        ("kaścit", "kaścit", "pronoun", "nominative singular (m.)"),
        ("kadācit", "kadācit", "indeclinable", "indeclinable"),
        ("kathaṃcana", "kathaṃcana", "indeclinable", "indeclinable"),
    ],
)
def test_indefinites(forms, word, lemma, kind, reading):
    found = {(a.lemma, a.kind, g) for a in forms.analyze(word).analyses for g in a.grammar}
    assert (lemma, kind, reading) in found


@pytest.mark.parametrize(
    ("word", "lemma", "reading"),
    [
        ("gacchati", "gam", "present 3rd singular"),
        ("abhavat", "bhū", "imperfect 3rd singular"),  # the augment
        ("uvāca", "vac", "perfect 3rd singular"),
        ("bhaviṣyati", "bhū", "future 3rd singular"),
        ("kriyate", "kṛ", "passive present 3rd singular"),
        ("gatvā", "gam", "gerund"),
        ("gantum", "gam", "infinitive"),
        ("anvabhuṅkta", "anubhuj", "imperfect 3rd singular"),  # preverb + augment
        ("avāpnoti", "avāp", "present 3rd singular"),
        ("pratipatsyāmi", "pratipad", "future 1st singular"),  # the epic's parasmaipada
        ("nyavedayanta", "niveday", "causative imperfect 3rd plural"),
        ("kathyate", "kathay", "passive present 3rd singular"),  # the 10th class by its -ay stem
        ("upagamya", "upagam", "gerund (after a preverb)"),
        ("praviṣṭaḥ", "praviś", "past participle, nominative singular (m.)"),
        ("uttiṣṭhati", "utthā", "present 3rd singular"),
        ("gacchantaḥ", "gam", "present participle, nominative plural (m.)"),
        ("kārayati", "kāray", "causative present 3rd singular"),
    ],
)
def test_verbs_with_preverbs_augment_passive_causative_participles(forms, word, lemma, reading):
    assert (lemma, reading) in readings_of(forms, word), readings_of(forms, word)


@pytest.mark.parametrize(
    ("word", "lemma", "reading"),
    [
        ("rāmo", "rāma", "nominative singular (m.)"),  # the final sound as sandhi left it: rāmaḥ
        ("agnir", "agni", "nominative singular (m.)"),
        ("kasmāc", "kim", "ablative singular (m., n.)"),
        ("yan", "yad", "nominative singular (n.)"),
        ("'ham", "asmad", "nominative singular"),  # an elided initial a
        ("sa", "tad", "nominative singular (m.)"),
    ],
)
def test_sandhi_finals_and_elided_a_are_restored(forms, word, lemma, reading):
    assert (lemma, reading) in readings_of(forms, word)


def test_readings_are_ranked_by_what_is_common_in_text(forms):
    assert forms.analyze("api").analyses[0].lemma == "api"  # not ap, loc.
    assert forms.analyze("iti").analyses[0].lemma == "iti"  # not it
    assert forms.analyze("tena").analyses[0].lemma == "tad"
    first = forms.analyze("neha")  # na + iha, not a form of nah
    assert first.likeliest == "split" and [p.word for p in first.splits[0].parts] == ["na", "iha"]


def test_compound_members_are_dictionary_headwords(forms):
    analysed = forms.analyze("rājaputreṇa")
    parts = [(p.word, p.member, p.analyses[0].lemma) for p in analysed.splits[0].parts]
    assert parts == [("rāja", True, "rājan"), ("putreṇa", False, "putra")]
    assert analysed.splits[0].parts[1].analyses[0].grammar[0].startswith("instrumental singular (m.")


@pytest.mark.parametrize(
    ("headword", "opening", "genders"),
    [
        ("DarmaH", "[Driyate…] 1 Religion", "m"),
        ("vanaM", "[van-ac] 1 A forest", "n"),
        ("agni", "m. fire, or Agni", "m"),
        ("kfzRa", "a. [kṛṣ-nak] 1 Black", "fmn"),
        ("Darma", "धर्म [dharma] [dhárma]1 m. ( rarely n.", "mn"),
        ("kanyA", "कन्या [kanyā] [kanyā́] f. (√ [kan ] Lit. Uṇ. iv , 111) , a girl", "f"),  # √ after the marker
        ("kzam", "√kṣam — (kṣámate", ""),
        ("evam", "ind. thus", ""),
    ],
)
def test_genders_from_the_grammar_markers(headword, opening, genders):
    assert genders_of(headword, opening) == genders


def test_the_lexicon_does_not_depend_on_the_order_of_the_dictionaries():
    one = [("DImant", "a. wise"), ("vidyA", "f. knowledge"), ("iha", "ind. here")]
    two = [("vidyA", "f. learning"), ("DImat", "m. f. n. wise")]
    forward = sorted(lexicon_of(one + two), key=repr)
    backward = sorted(lexicon_of(two + one), key=repr)
    assert forward == backward
    assert any(row.stem == "DImat" and row.genders == "fmn" for row in forward)


@pytest.mark.parametrize(
    ("word", "readings"),
    [("mano", ("manaH",)), ("yajYaM", ("yajYam",)), ("vartanta", ("vartantaH", "vartante")),
     ("kasmAc", ("kasmAt",)), ("ity", ("iti", "itI")), ("devAH", ())],
)  # fmt: skip
def test_pausa_readings(word, readings):
    assert pausa_readings(word) == readings


def test_preverbs_are_undone_and_joined():
    assert (("anu",), "aBuNkta") in preverb_splits("anvaBuNkta")
    assert (("ni",), "avedayanta") in preverb_splits("nyavedayanta")
    assert (("pra",), "namati") in preverb_splits("praRamati")  # ṇatva undone
    assert (("ni",), "sIdati") in preverb_splits("nizIdati")  # ṣatva undone
    assert join_preverb("ud", "sTA") == "utTA" and join_preverb("ni", "sad") == "nizad"
    assert join_preverb("sam", "kf") == "saMkf" and join_preverb("pra", "nam") == "praRam"
    assert "patsye" in pada_swaps("patsyAmi")


def test_the_index_is_small_and_built_from_the_shipped_dhatupatha(forms_db: Path, tmp_path, csl_url):
    db = tmp_path / "s.db"
    db.write_bytes(forms_db.read_bytes())
    store = SanskritStore(db)
    again = build_form_index(store)
    assert again.roots == 0 and again.verb_forms > 400_000  # the verbs are kept, the lexicon rebuilt
    assert 0 < again.megabytes < 40
    asyncio.run(install(store, ["acph"], csl_url, tmp_path / "dl"))
    grown = build_form_index(store)
    assert grown.stems > again.stems and grown.roots == 0
    store.close()
    with sqlite3.connect(db) as conn:  # the expanded table of every form is gone
        tables = {name for (name,) in conn.execute("SELECT name FROM sqlite_schema WHERE type = 'table'")}
    assert "forms" not in tables and {"lexicon", "verb_forms"} <= tables


def test_an_empty_form_index_says_how_to_build_it(sanskrit):
    analysed = sanskrit.analyze("rāmeṇa")
    assert analysed.count == 0 and "pramana sanskrit forms" in analysed.note


@pytest.mark.parametrize("word", ["", "  ", "x" * 201])
def test_bad_words(forms, word):
    from pramana.errors import InvalidInputError

    with pytest.raises(InvalidInputError):
        forms.analyze(word)


def test_exact_search_falls_back_to_the_form_index(forms):
    found = forms.search("rāmeṇa")
    assert found.matched_by == "form"
    assert [hit.word for hit in found.results] == ["rāma"]
    assert found.analyses[0].summary.startswith("rāmeṇa: instrumental singular")
    assert forms.search("rāma").matched_by == "exact"  # a headword is never taken for a form


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
    assert asyncio.run(source.fetch_dhatupatha(str(bad), tmp_path / "downloads-bad")) is None
    shipped = Path(source.__file__).with_name("data") / "dhatupatha.tsv"
    assert (
        shipped.read_bytes() == real
    )  # pramana ships the same pinned file (MIT, data/LICENSE-vidyut-MIT.md)


def test_analysing_in_a_library_leaves_the_collector_alone(forms):
    import gc

    gc.unfreeze()
    forms.analyze("rāmeṇa")
    assert gc.get_freeze_count() == 0  # freezing caches is a serving process's choice (pramana.process)
