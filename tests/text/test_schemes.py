import pytest

from pramana.errors import InvalidInputError
from pramana.text.schemes import Scheme, convert, detect_scheme, loose_key, parse_scheme, slp1_readings

WORD = {
    Scheme.IAST: "kṛṣṇa",
    Scheme.DEVANAGARI: "कृष्ण",
    Scheme.SLP1: "kfzRa",
    Scheme.HK: "kRSNa",
    Scheme.ITRANS: "kRRiShNa",
    Scheme.VELTHUIS: "k.r.s.na",
}


@pytest.mark.parametrize("scheme", list(WORD))
def test_every_spelling_reads_as_the_slp1_key(scheme):
    assert "kfzRa" in slp1_readings(WORD[scheme])


@pytest.mark.parametrize("source", list(WORD))
@pytest.mark.parametrize("target", list(WORD))
def test_round_trips(source, target):
    there = convert(WORD[source], source, target)
    assert convert(there, target, Scheme.SLP1) == "kfzRa"


def test_detection():
    assert detect_scheme("कृष्ण") == Scheme.DEVANAGARI
    assert detect_scheme("kṛṣṇa") == Scheme.IAST
    assert detect_scheme("kfzRa") == Scheme.SLP1
    assert detect_scheme("kRSNa") == Scheme.HK


@pytest.mark.parametrize("spelling", ["kṛṣṇa", "krishna", "KRISHNA", "krsna", "Krishnaa", "कृष्ण"])
def test_loose_key(spelling):
    assert loose_key(spelling) == "krsna"


def test_loose_key_folds_nasals_and_doubles():
    assert loose_key("saṃkalpa") == loose_key("saṅkalpa") == loose_key("sankalpa")
    assert loose_key("sattva") == loose_key("satva")
    assert loose_key("śiva") == loose_key("shiva") == loose_key("siva")


def test_scheme_names():
    assert parse_scheme("Harvard-Kyoto") == Scheme.HK
    with pytest.raises(InvalidInputError, match="velthuis"):
        parse_scheme("morse")
