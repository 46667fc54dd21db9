import time

import pytest

from pramana.errors import InvalidInputError, NotFoundError, NotReadyError
from pramana.sanskrit.service import SanskritService, transliterate
from pramana.text.schemes import Scheme, convert
from tests.conftest import INSTALLED


@pytest.mark.parametrize("query", ["kṛṣṇa", "कृष्ण", "kfzRa", "kRSNa"])
def test_exact_in_any_scheme(sanskrit, query):
    found = sanskrit.search(query, "exact")
    assert {(h.word, h.dict_code) for h in found.results} >= {("kṛṣṇa", "ap90"), ("kṛṣṇa", "ccs")}
    assert found.matched_by == "exact" and all(h.matched == "kṛṣṇa" for h in found.results)
    # nmmb lists kṛṣṇa among the synonyms of other headwords
    assert {h.dict_code for h in found.results if h.word != "kṛṣṇa"} <= {"nmmb"}
    assert found.did_you_mean == []


@pytest.mark.parametrize("query", ["krishna", "KRISHNA", "krsna"])
def test_plain_ascii_reaches_the_entry_through_the_loose_key(sanskrit, query):
    found = sanskrit.search(query, "exact")
    assert found.did_you_mean[0] == "kṛṣṇa"
    assert set(found.did_you_mean) <= {"kṛṣṇa", "kṛṣṇā"}  # vowel length is folded
    assert found.results[0].matched == "kṛṣṇa"
    assert found.matched_by == "loose"


def test_alternate_headwords_are_keys(sanskrit):
    found = sanskrit.search("agatIka", "exact", ["ap90"])
    assert [(h.word, h.matched, h.article_id) for h in found.results] == [("agatika", "agatīka", "ap90:185")]


def test_prefix(sanskrit):
    found = sanskrit.search("kfzR", "prefix", ["ap90"], limit=1000)
    assert found.results and all(h.matched.startswith("kṛṣṇ") for h in found.results)
    keys = [convert(h.matched, Scheme.IAST, Scheme.SLP1) for h in found.results if not h.loose]
    assert keys == sorted(keys, key=lambda key: (len(key), key))  # shortest first, then in SLP1 order
    assert not found.truncated


def test_fuzzy_is_substring(sanskrit):
    found = sanskrit.search("kfzRa", "fuzzy", ["ap90"], limit=1000)
    words = {h.word for h in found.results}
    assert {"kṛṣṇa", "akṛṣṇa"} <= words
    assert all("kṛṣṇa" in h.matched for h in found.results if not h.loose)
    assert sanskrit.search("kf", "fuzzy", ["ap90"], limit=5).count == 5  # shorter than a trigram


def test_reverse_full_text_gives_headword_and_snippet(sanskrit):
    found = sanskrit.search("betelnut", "reverse", ["ap90"], limit=10)
    assert "akoṭaḥ" in {h.word for h in found.results}
    assert all("**" in h.snippet for h in found.results)


def test_reverse_search_of_a_word_said_many_times_is_one_word(sanskrit):
    # 100 copies of `a` took 37 s on four small dictionaries (bm25 and snippet per repeated phrase).
    started = time.thread_time()  # this thread's CPU: what the search cost, whatever else the machine runs
    found = sanskrit.search(" ".join(["a"] * 100), "reverse", limit=20)
    assert time.thread_time() - started < 2
    once = sanskrit.search("a", "reverse", limit=20)
    assert [h.article_id for h in found.results] == [h.article_id for h in once.results]


def test_truncated_and_limit(sanskrit):
    found = sanskrit.search("a", "prefix", limit=3)
    assert found.count == 3 and found.truncated


def test_scoped_to_dictionaries(sanskrit):
    assert {h.dict_code for h in sanskrit.search("kṛṣṇa", dict_codes=["ccs"]).results} == {"ccs"}
    assert "nmmb" in {h.dict_code for h in sanskrit.search("deva").results}


@pytest.mark.parametrize("query", ['a OR -b "', "*", "(", "NEAR(a b)", "'; DROP TABLE entries; --", '"""'])
@pytest.mark.parametrize("mode", ["exact", "prefix", "fuzzy", "reverse"])
def test_fts_syntax_is_text(sanskrit, query, mode):
    try:
        result = sanskrit.search(query, mode)
    except InvalidInputError as exc:  # a query with no words at all, in reverse mode
        assert mode == "reverse" and "no words" in str(exc)
        return
    # Answered as a search for that text, in the mode asked, with hits that say what they are.
    assert result.query == query and result.mode == mode
    assert result.count == len(result.results) or result.truncated
    for hit in result.results:
        assert hit.dict_code in INSTALLED and hit.article_id.startswith(hit.dict_code + ":")
    assert sanskrit.list_dictionaries().count == 4


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"query": ""}, "empty"),
        ({"query": "x" * 201}, "limit is 200"),
        ({"query": "deva", "mode": "telepathic"}, "exact, prefix, fuzzy, reverse"),
        ({"query": "deva", "dict_codes": ["zz"]}, "installed: ap90, ccs, krm, nmmb"),
        ({"query": "deva", "limit": 0}, "between 1 and 1000"),
        ({"query": "deva", "limit": 1001}, "between 1 and 1000"),
    ],
)
def test_bad_searches(sanskrit, kwargs, message):
    with pytest.raises(InvalidInputError, match=message):
        sanskrit.search(**kwargs)


def test_article(sanskrit):
    article = sanskrit.get_article("ap90:100")
    assert (article.headword, article.headword_deva, article.page) == ("akeśa", "अकेश", "0005-b")
    assert article.markdown.startswith("akeśa — *a.* [avidyamānāḥ")
    assert "key=akeSa" in article.citation_url
    assert sanskrit.get_article("ap90:100", "devanagari").markdown.startswith("अकेश")


@pytest.mark.parametrize("value", ["ap90:999999", "zz:1"])
def test_unknown_article(sanskrit, value):
    with pytest.raises(NotFoundError, match="not found"):
        sanskrit.get_article(value)


@pytest.mark.parametrize("value", ["100", ":", "ap90:", "x" * 100])
def test_malformed_article_id(sanskrit, value):
    with pytest.raises(InvalidInputError, match="CODE:NUMBER"):
        sanskrit.get_article(value)


def test_list_dictionaries(sanskrit):
    listed = {d.code: d for d in sanskrit.list_dictionaries().dictionaries}
    assert set(listed) == {"ap90", "ccs", "krm", "nmmb"}
    ap90 = listed["ap90"]
    assert (ap90.from_lang, ap90.to_lang, ap90.year, ap90.entry_count) == ("sa", "en", "1890", 31_720)
    assert ap90.licence == "CC BY-NC-SA 3.0" and "Apte" in ap90.name
    assert listed["ccs"].to_lang == "de"


def test_transliterate():
    assert transliterate("kṛṣṇa", "iast_to_deva").result == "कृष्ण"
    assert transliterate("कृष्ण", "deva_to_iast").result == "kṛṣṇa"
    assert transliterate("kRSNa", source="hk", target="slp1").result == "kfzRa"
    auto = transliterate("कृष्ण")
    assert (auto.source, auto.target, auto.result) == ("devanagari", "iast", "kṛṣṇa")
    with pytest.raises(InvalidInputError, match="iast_to_deva"):
        transliterate("x", "sideways")
    with pytest.raises(InvalidInputError):
        transliterate("")


def test_missing_database_says_how_to_install(tmp_path):
    with pytest.raises(NotReadyError, match="pramana sanskrit install"):
        SanskritService(tmp_path / "none.db", read_only=True)


def test_empty_database_says_how_to_install(tmp_path):
    service = SanskritService(tmp_path / "empty.db")
    with pytest.raises(NotReadyError, match="install"):
        service.search("deva")


def test_fuzzy_finds_every_key_of_an_article(tmp_path, csl_url):
    """acph articles list up to 117 synonyms; the 18th is as findable as the first."""
    import asyncio

    from pramana.sanskrit.source import install
    from pramana.sanskrit.store import SanskritStore

    store = SanskritStore(tmp_path / "s.db")
    asyncio.run(install(store, ["acph"], csl_url, tmp_path / "dl"))
    service = SanskritService(tmp_path / "s.db")
    found = service.search("kAntAravAsin", "fuzzy", ["acph"])
    assert "kāntāravāsinī" in {h.matched for h in found.results}
    asyncio.run(install(store, ["acph"], csl_url, tmp_path / "dl"))  # reinstalling replaces, not doubles
    assert service.search("kAntAravAsin", "fuzzy", ["acph"]).count == found.count


@pytest.mark.parametrize("codes", [None, ["ap90"], ["ccs", "nmmb"]])
def test_first_articles_name_the_exact_lookups_hits(sanskrit, codes):
    """The analyzer's article ids (first_articles) are the exact lookup's hits, in its order, without the
    openings it reads: a headword with several articles and dictionaries, alternate keys, and no key."""
    keys = ["kfzRa", "deva", "rAma", "gam", "kfzRA", "nokeyatall"]
    hits = sanskrit.store.exact(keys, codes, 40)
    assert len({hit.dict_code for hit in hits}) >= (2 if codes != ["ap90"] else 1)
    expected = [(hit.matched_key, hit.dict_code, hit.lnum) for hit in hits]
    assert sanskrit.store.first_articles(keys, codes, 40) == expected
    assert sanskrit.store.first_articles(keys, codes, 3) == expected[:3]
    assert sanskrit.store.first_articles([], codes, 40) == []


@pytest.mark.parametrize("codes", [None, ["ap90"], ["ccs", "nmmb"]])
def test_remembered_article_groups_give_the_querys_first_articles(sanskrit, codes, monkeypatch):
    """analyze's first articles from each key's remembered groups are the query's, whichever keys were
    asked before, in any order and limit; a key is asked of the file once; where two keys meet in one
    headword's group (ap90's aMSaH under aMSaH and aMSa), the query answers."""
    keys = ["kfzRa", "deva", "rAma", "gam", "aMSa", "aMSaH", "nokeyatall"]
    asked: list[list[str]] = []
    groups = sanskrit.store.article_groups
    monkeypatch.setattr(sanskrit.store, "article_groups", lambda ks, cs: asked.append(ks) or groups(ks, cs))
    queried: list[list[str]] = []
    query = sanskrit.store.first_articles
    monkeypatch.setattr(
        sanskrit.store, "first_articles", lambda ks, cs, n: queried.append(ks) or query(ks, cs, n)
    )
    batches = [keys[1:3], keys[::-1], keys[:1], keys[2:5], keys[:2] + keys[5:], keys[4:], keys]
    for batch in batches:
        for limit in (40, 3, 1):
            assert sanskrit._first_articles(batch, codes, limit) == query(batch, codes, limit)
    assert sorted(key for batch in asked for key in batch) == sorted(keys)  # each key once
    meeting = [batch for batch in batches if "aMSa" in batch and "aMSaH" in batch]
    assert all(batch in queried for batch in meeting) == (codes != ["ccs", "nmmb"])
    assert all(batch in meeting for batch in queried)
