"""Building a dpd.db-compatible database from DPD's TSV backups in shared."""

import csv
import json
import math
import shutil
import sqlite3

import pytest
from sqlalchemy import create_engine, inspect

from pramana.errors import InvalidInputError, NotFoundError
from pramana.pali.inflect import grammar_pos, inflections, load_templates
from pramana.pali.source import add_headword_frequency, build, read_tsv
from pramana.pali.tables import Base, lemma_clean, meaning_combo


def rows(db, sql, *args):
    conn = sqlite3.connect(db)
    try:
        return conn.execute(sql, args).fetchall()
    finally:
        conn.close()


def test_counts_and_dpd_schema(dpd_db):
    assert rows(dpd_db, "SELECT count(*) FROM dpd_headwords") == [(61_596,)]
    assert rows(dpd_db, "SELECT count(*) FROM dpd_roots") == [(753,)]
    assert rows(dpd_db, "SELECT count(*) FROM inflection_templates") == [(154,)]
    built = inspect(create_engine(f"sqlite:///{dpd_db}"))
    for table in ("dpd_headwords", "lookup", "dpd_roots", "inflection_templates", "db_info"):
        expected = [c.name for c in Base.metadata.tables[table].columns]
        assert [c["name"] for c in built.get_columns(table)] == expected, table
    assert {c["name"]: str(c["type"]) for c in built.get_columns("dpd_headwords")}["id"] == "INTEGER"


def test_meaning_combo_follows_dpds_rule(dpd_data):
    subset = dpd_data / "ms-dpd-subset" / "dpd_headwords_subset.tsv"
    for record in read_tsv(subset):
        got = meaning_combo(record["meaning_1"], record["meaning_2"], record["meaning_lit"])
        assert got == record["meaning_combo"], record["id"]


def test_templates_from_xlsx_equal_the_json(dpd_data):
    from_json = load_templates(dpd_data / "dpd-db" / "inflection_templates.json")
    from_xlsx = load_templates(dpd_data / "dpd-db" / "inflection_templates.xlsx")
    assert len(from_json) == 154 and from_json.keys() == from_xlsx.keys()
    assert all(from_json[p].data == from_xlsx[p].data for p in from_json)


def test_generated_forms_reproduce_the_subsets_lookup(dpd_data):
    """PROVENANCE.md: stem + pattern + templates give 190,257 of the subset's 221,954 form->id pairs."""
    templates = load_templates(dpd_data / "dpd-db" / "inflection_templates.json")
    pairs = set()
    for record in read_tsv(dpd_data / "ms-dpd-subset" / "dpd_headwords_subset.tsv"):
        pattern = record["pattern"].replace("ṁ", "ṃ")
        for form in inflections(lemma_clean(record["lemma_1"]), record["stem"], pattern, templates):
            pairs.add((form, int(record["id"])))
    given = {
        (record["lookup_key"], i)
        for record in read_tsv(dpd_data / "ms-dpd-subset" / "lookup_subset.tsv")
        for i in json.loads(record["headwords"])
    }
    assert len(given) == 221_954
    assert len(given & pairs) == 190_257


def test_lookup_merges_generated_and_given(dpd_db, dpd_data):
    ((headwords, grammar),) = rows(
        dpd_db, "SELECT headwords, grammar FROM lookup WHERE lookup_key = 'dhammo'"
    )
    assert {34626, 34627, 34628} <= set(json.loads(headwords))
    assert ["dhamma", "noun", "masc nom sg"] in json.loads(grammar)
    # every key of the given lookup TSV is there, with at least its ids (those of headwords present)
    given = {
        r["lookup_key"]: set(json.loads(r["headwords"]))
        for r in read_tsv(dpd_data / "ms-dpd-subset" / "lookup_subset.tsv")
    }
    built = dict(rows(dpd_db, "SELECT lookup_key, headwords FROM lookup WHERE headwords != ''"))
    missing = [k for k in given if k not in built or not given[k] <= set(json.loads(built[k]))]
    assert missing == []
    assert len(built) > 1_000_000  # no corpus filter: every generated form is a key


def test_side_columns(dpd_db):
    def column(key, name):
        found = rows(dpd_db, f"SELECT {name} FROM lookup WHERE lookup_key = ?", key)
        return json.loads(found[0][0]) if found and found[0][0] else None

    assert column("caparaṃ", "deconstructor") == ["ca + paraṃ"]  # manual_corrections.tsv
    assert column("kammubinduvihāraṃ", "spelling") == ["kammabinduvihāraṃ"]
    assert column("celapattikaṃ", "variant") == ["celapaṭikaṃ"]
    assert column("gam", "roots") and all(r.startswith("√gam") for r in column("gam", "roots"))


def test_grammar_pos():
    assert grammar_pos("masc", "") == "noun" and grammar_pos("aor", "") == "verb"
    assert grammar_pos("ind", "ind, adv") == "adv" and grammar_pos("sandhi", "adv") == "sandhi"
    assert grammar_pos("adj", "") == "adj"


def test_a_failed_build_keeps_the_old_database(tmp_path, dpd_data, dpd_db):
    target = tmp_path / "dpd.db"
    shutil.copyfile(dpd_db, target)
    before = target.stat().st_size
    broken = tmp_path / "broken"
    broken.mkdir()
    shutil.copyfile(dpd_data / "dpd-db" / "inflection_templates.json", broken / "inflection_templates.json")
    with (broken / "dpd_headwords_part_001.tsv").open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, delimiter="\t", quoting=csv.QUOTE_ALL)
        writer.writerow(["id", "lemma_1", "pos", "stem", "pattern"])
        writer.writerow(["1", "a 1.1", "letter", "-", ""])
        writer.writerow(["oops", "no id", "", "", ""])  # fails halfway through the headwords
    with pytest.raises(InvalidInputError, match="no numeric id"):
        build(broken, target)
    assert target.stat().st_size == before
    assert rows(target, "SELECT count(*) FROM dpd_headwords") == [(61_596,)]
    assert not list(tmp_path.glob(".*.part"))  # the unfinished build is gone


def test_build_from_a_subset_of_columns(tmp_path, dpd_data):
    """Any subset of DPD's columns will do; missing ones are empty, unknown ones ignored."""
    folder = tmp_path / "backup"
    folder.mkdir()
    shutil.copyfile(dpd_data / "dpd-db" / "inflection_templates.xlsx", folder / "inflection_templates.xlsx")
    with (folder / "dpd_headwords.tsv").open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, delimiter="\t", quoting=csv.QUOTE_ALL)
        writer.writerow(["id", "lemma_1", "pos", "stem", "pattern", "meaning_1", "not_a_dpd_column"])
        writer.writerow(["34626", "dhamma 1.01", "masc", "dhamm", "a masc", "nature;\ncharacter", "x"])
    report = build(folder, tmp_path / "small.db")
    assert (report.headwords, report.roots, report.templates) == (1, 0, 154)
    assert rows(tmp_path / "small.db", "SELECT meaning_1, grammar FROM dpd_headwords") == [
        ("nature;\ncharacter", "")
    ]
    assert rows(tmp_path / "small.db", "SELECT headwords FROM lookup WHERE lookup_key = 'dhammassa'") == [
        ("[34626]",)
    ]


def test_build_rejects_what_is_not_a_backup(tmp_path):
    with pytest.raises(NotFoundError):
        build(tmp_path / "missing", tmp_path / "x.db")
    with pytest.raises(InvalidInputError, match="dpd_headwords"):
        build(tmp_path, tmp_path / "x.db")
    assert not (tmp_path / "x.db").exists()


def test_ebt_count_is_one_count_a_lemma():
    """DPD's ebt_count sums a headword's forms, so an adjective (every form of the noun of its word and
    a feminine besides) would outweigh the noun; each headword gets its lemma's largest count, and a
    lemma without counts falls back to the construction count only when no lemma has any."""
    conn = sqlite3.connect(":memory:")
    conn.execute(
        "CREATE TABLE dpd_headwords (id INTEGER, lemma_1 TEXT, construction TEXT, ebt_count INTEGER)"
    )
    conn.executemany(
        "INSERT INTO dpd_headwords VALUES (?, ?, ?, ?)",
        [(1, "kusala 1", "", 900), (2, "kusala 2", "", 400), (3, "mesa", "", 3), (4, "hi 3", "", 0)],
    )
    add_headword_frequency(conn)
    frequency = dict(conn.execute("SELECT id, frequency FROM pramana_headword_frequency"))
    assert frequency[1] == frequency[2] == round(math.log1p(900), 3)
    assert frequency[3] == round(math.log1p(3), 3)
    assert 4 not in frequency  # never met: no weight of its own
