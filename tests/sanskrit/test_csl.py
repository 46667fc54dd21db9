import pytest

from pramana.errors import SourceError
from pramana.sanskrit.csl import licence_code, parse_header, parse_hwextra, parse_records, render_markdown


def records(csl_data, code):
    with (csl_data / code / f"{code}.txt").open(encoding="utf-8") as lines:
        return list(parse_records(lines))


def test_brace_family_record(csl_data):
    akesa = next(r for r in records(csl_data, "ap90") if r.key1 == "akeSa")
    assert (akesa.lnum, akesa.page, akesa.key2) == ("100", "0005-b", "akeSa")
    assert render_markdown(akesa.body) == (
        "akeśa — *a.* [avidyamānāḥ, alpāḥ, apraśastā vā keśā yasya] Hairless, bald; "
        "having very few or very bad hair."
    )
    assert render_markdown(akesa.body, devanagari=True).startswith("अकेश — *a.* [अविद्यमानाः")


def test_mw_family_record(csl_data):
    first = records(csl_data, "krm")[0]
    text = render_markdown(first.body)
    assert text.startswith("(1) **“aka kuṭilāyāṃ gatau”** — (ī-bhvādiḥ-792")
    assert "<s>" not in text and "<div" not in text and "{" not in text


def test_corrections_show_the_new_text(csl_data):
    corrected = next(r for r in records(csl_data, "ccs") if "{{aGamazarRa->" in r.body)
    assert render_markdown(corrected.body).startswith("aghamarṣaṇa — Sünden tilgend.")


def test_homonyms_and_accents(csl_data):
    ccs = records(csl_data, "ccs")
    first_a = [r for r in ccs if r.key1 == "a"]
    assert [r.homonym for r in first_a][:2] == ["1", "2"]
    akra = next(r for r in ccs if r.key1 == "akra")
    assert akra.key2 == "a/kra"


def test_counts_match_the_provenance(csl_data):
    assert len(records(csl_data, "ap90")) == 31_720
    assert len(records(csl_data, "ccs")) == 30_010


def test_hwextra(csl_data):
    with (csl_data / "ap90" / "ap90_hwextra.txt").open(encoding="utf-8") as lines:
        alternates = list(parse_hwextra(lines))
    assert alternates[0].key1 == "agatIka" and alternates[0].parent_lnum == "185"
    assert len(alternates) > 400


def test_header(csl_data):
    header = parse_header((csl_data / "ap90" / "ap90header.xml").read_text("utf-8"))
    assert header.title == "Apte's Practical Sanskrit-English Dictionary"
    assert (header.short_title, header.year, header.licence) == ("Apte 1890", "1890", "CC BY-NC-SA 3.0")
    assert licence_code("GNU GPL v3.0.") == "GPL-3.0"


@pytest.mark.parametrize(
    "text",
    [
        ["<L>1<pc>1<k1>a<k2>a", "body"],  # no <LEND>
        ["<L>1<pc>1<k1>a<k2>a", "<L>2<pc>1<k1>b<k2>b", "<LEND>"],
        ["<LEND>"],
        ["<L>broken header", "<LEND>"],
    ],
)
def test_malformed_files_are_errors(text):
    with pytest.raises(SourceError):
        list(parse_records(text))


def test_header_garbage():
    with pytest.raises(SourceError, match="not well formed"):
        parse_header("<teiHeader><unclosed>")


def test_synonym_dictionaries_take_their_keys_from_syns(csl_data):
    from pramana.sanskrit.csl import synonym_keys

    nmmb = records(csl_data, "nmmb")
    assert nmmb[1].key1 == ""
    assert synonym_keys(nmmb[1].body)[:3] == ["deva", "animiza", "amartya"]
    rendered = render_markdown(nmmb[1].body, bare_slp1=True)
    assert rendered.startswith("*synonyms:* deva-puṃ, animiṣa-puṃ")
    assert "deveṣvanimiṣāmartya" in rendered
