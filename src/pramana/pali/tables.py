"""SQLAlchemy models of the DPD tables pramana reads, with DPD's own table and column names and types.

A `dpd.db` from DPD's releases opens with these unchanged; `pramana pali build` writes the same
schema. Only the tables the server uses are mapped (DPD has more: family tables, sutta_info, ...).
"""

from __future__ import annotations

import json
import re
from datetime import datetime

from sqlalchemy import DateTime, ForeignKey
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.sql import func


class Base(DeclarativeBase):
    pass


class DbInfo(Base):
    __tablename__ = "db_info"

    id: Mapped[int] = mapped_column(primary_key=True)
    key: Mapped[str] = mapped_column(unique=True)
    value: Mapped[str] = mapped_column(default="")


class InflectionTemplates(Base):
    __tablename__ = "inflection_templates"

    pattern: Mapped[str] = mapped_column(primary_key=True)
    like: Mapped[str] = mapped_column(default="")
    data: Mapped[str] = mapped_column(default="")


class DpdRoot(Base):
    __tablename__ = "dpd_roots"

    root: Mapped[str] = mapped_column(primary_key=True)
    root_in_comps: Mapped[str] = mapped_column(default="")
    root_has_verb: Mapped[str] = mapped_column(default="")
    root_group: Mapped[int] = mapped_column(default=0)
    root_sign: Mapped[str] = mapped_column(default="")
    root_meaning: Mapped[str] = mapped_column(default="")
    sanskrit_root: Mapped[str] = mapped_column(default="")
    sanskrit_root_meaning: Mapped[str] = mapped_column(default="")
    sanskrit_root_class: Mapped[str] = mapped_column(default="")
    root_example: Mapped[str] = mapped_column(default="")
    dhatupatha_num: Mapped[str] = mapped_column(default="")
    dhatupatha_root: Mapped[str] = mapped_column(default="")
    dhatupatha_pali: Mapped[str] = mapped_column(default="")
    dhatupatha_english: Mapped[str] = mapped_column(default="")
    dhatumanjusa_num: Mapped[int] = mapped_column(default=0)
    dhatumanjusa_root: Mapped[str] = mapped_column(default="")
    dhatumanjusa_pali: Mapped[str] = mapped_column(default="")
    dhatumanjusa_english: Mapped[str] = mapped_column(default="")
    dhatumala_root: Mapped[str] = mapped_column(default="")
    dhatumala_pali: Mapped[str] = mapped_column(default="")
    dhatumala_english: Mapped[str] = mapped_column(default="")
    panini_root: Mapped[str] = mapped_column(default="")
    panini_sanskrit: Mapped[str] = mapped_column(default="")
    panini_english: Mapped[str] = mapped_column(default="")
    note: Mapped[str] = mapped_column(default="")
    matrix_test: Mapped[str] = mapped_column(default="")
    root_info: Mapped[str] = mapped_column(default="")
    root_matrix: Mapped[str] = mapped_column(default="")
    created_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), server_default=func.now())
    updated_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), onupdate=func.now())


class Lookup(Base):
    """Every inflected form, spelling, root and split DPD knows, keyed by the form. Columns hold JSON."""

    __tablename__ = "lookup"

    lookup_key: Mapped[str] = mapped_column(primary_key=True)
    headwords: Mapped[str] = mapped_column(default="")
    roots: Mapped[str] = mapped_column(default="")
    deconstructor: Mapped[str] = mapped_column(default="")
    variant: Mapped[str] = mapped_column(default="")
    spelling: Mapped[str] = mapped_column(default="")
    grammar: Mapped[str] = mapped_column(default="")
    help: Mapped[str] = mapped_column(default="")
    abbrev: Mapped[str] = mapped_column(default="")
    epd: Mapped[str] = mapped_column(default="")
    rpd: Mapped[str] = mapped_column(default="")
    other: Mapped[str] = mapped_column(default="")
    sinhala: Mapped[str] = mapped_column(default="")
    devanagari: Mapped[str] = mapped_column(default="")
    thai: Mapped[str] = mapped_column(default="")


class DpdHeadword(Base):
    __tablename__ = "dpd_headwords"

    id: Mapped[int] = mapped_column(primary_key=True)
    lemma_1: Mapped[str] = mapped_column(default="")
    lemma_2: Mapped[str] = mapped_column(default="")
    pos: Mapped[str] = mapped_column(default="")
    grammar: Mapped[str] = mapped_column(default="")
    derived_from: Mapped[str] = mapped_column(default="")
    neg: Mapped[str] = mapped_column(default="")
    verb: Mapped[str] = mapped_column(default="")
    trans: Mapped[str] = mapped_column(default="")
    plus_case: Mapped[str] = mapped_column(default="")
    meaning_1: Mapped[str] = mapped_column(default="")
    meaning_lit: Mapped[str] = mapped_column(default="")
    meaning_2: Mapped[str] = mapped_column(default="")
    non_ia: Mapped[str] = mapped_column(default="")
    sanskrit: Mapped[str] = mapped_column(default="")
    root_key: Mapped[str] = mapped_column(ForeignKey("dpd_roots.root"), default="")
    root_sign: Mapped[str] = mapped_column(default="")
    root_base: Mapped[str] = mapped_column(default="")
    family_root: Mapped[str] = mapped_column(default="")
    family_word: Mapped[str] = mapped_column(default="")
    family_compound: Mapped[str] = mapped_column(default="")
    family_idioms: Mapped[str] = mapped_column(default="")
    family_set: Mapped[str] = mapped_column(default="")
    construction: Mapped[str] = mapped_column(default="")
    derivative: Mapped[str] = mapped_column(default="")
    suffix: Mapped[str] = mapped_column(default="")
    phonetic: Mapped[str] = mapped_column(default="")
    compound_type: Mapped[str] = mapped_column(default="")
    compound_construction: Mapped[str] = mapped_column(default="")
    non_root_in_comps: Mapped[str] = mapped_column(default="")
    source_1: Mapped[str] = mapped_column(default="")
    sutta_1: Mapped[str] = mapped_column(default="")
    example_1: Mapped[str] = mapped_column(default="")
    source_2: Mapped[str] = mapped_column(default="")
    sutta_2: Mapped[str] = mapped_column(default="")
    example_2: Mapped[str] = mapped_column(default="")
    antonym: Mapped[str] = mapped_column(default="")
    synonym: Mapped[str] = mapped_column(default="")
    variant: Mapped[str] = mapped_column(default="")
    var_phonetic: Mapped[str] = mapped_column(default="")
    var_text: Mapped[str] = mapped_column(default="")
    commentary: Mapped[str] = mapped_column(default="")
    notes: Mapped[str] = mapped_column(default="")
    cognate: Mapped[str] = mapped_column(default="")
    link: Mapped[str] = mapped_column(default="")
    origin: Mapped[str] = mapped_column(default="")
    stem: Mapped[str] = mapped_column(default="")
    pattern: Mapped[str] = mapped_column(default="")
    created_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), server_default=func.now())
    updated_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), onupdate=func.now())
    inflections: Mapped[str] = mapped_column(default="")
    inflections_api_ca_eva_iti: Mapped[str] = mapped_column(default="")
    inflections_sinhala: Mapped[str] = mapped_column(default="")
    inflections_devanagari: Mapped[str] = mapped_column(default="")
    inflections_thai: Mapped[str] = mapped_column(default="")
    inflections_html: Mapped[str] = mapped_column(default="")
    freq_data: Mapped[str] = mapped_column(default="")
    freq_html: Mapped[str] = mapped_column(default="")
    ebt_count: Mapped[int] = mapped_column(default=0, server_default="0")


HEADWORD_COLUMNS = [column.name for column in DpdHeadword.__table__.columns]
ROOT_COLUMNS = [column.name for column in DpdRoot.__table__.columns]
_HOMONYM = re.compile(r" \d.*$")


def lemma_clean(lemma_1: str) -> str:
    """The lemma without its homonym number ("dhamma 1.01" -> "dhamma"), as DPD's `lemma_clean`."""
    return _HOMONYM.sub("", lemma_1)


def root_clean(root: str) -> str:
    """ "√gam 1" -> "√gam", as DPD's `root_clean`."""
    return _HOMONYM.sub("", root)


def root_no_sign(root: str) -> str:
    """ "√gam 1" -> "gam", as DPD's `root_no_sign`."""
    return re.sub(r"\d| |√", "", root)


def meaning_combo(meaning_1: str, meaning_2: str, meaning_lit: str) -> str:
    """DPD's rule: meaning_1 plus "; lit. <meaning_lit>" if there is one; else meaning_2 alone."""
    if meaning_1:
        return f"{meaning_1}; lit. {meaning_lit}" if meaning_lit else meaning_1
    return meaning_2


def unpack(value: str | None) -> list:
    """A lookup column's JSON list ("" when the column is empty)."""
    if not value:
        return []
    loaded = json.loads(value)
    return loaded if isinstance(loaded, list) else [loaded]
