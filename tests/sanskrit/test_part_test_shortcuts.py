"""The shortcuts the split search's part tests take (a paradigm inverted by a plain loop, a one-form slot
not merged, the spelling substitutions skipped where they cannot match, a slot combination's probability
remembered) give what the long way gives: every form of a stem of each class reads back to exactly the
slots its table has it in, and no spelling variant of a word is lost."""

import math
import random

from pramana.sanskrit import analysis, frequency, paradigms
from pramana.sanskrit.analysis import _CLASS_NASAL, _keys, undoubled

# a stem of every class `decline` has: the vowel classes, each consonant class (-vat/-mat, participles in
# -at, reduplicated ones, -an with and without the a kept, -in, -is/-us, -as, -yas, -vas, simple consonant
# stems, r-stems), pronouns, numerals, irregular nouns, an adjective's feminine
STEMS = [
    ("deva", "m"), ("Pala", "n"), ("senA", "f"), ("kAnta", "f"), ("agni", "m"), ("mati", "f"), ("vAri", "n"),
    ("guru", "m"), ("Denu", "f"), ("maDu", "n"), ("nadI", "f"), ("DI", "f"), ("vaDU", "f"), ("BU", "f"),
    ("kartf", "m"), ("pitf", "m"), ("mAtf", "f"), ("kartf", "n"), ("Bagavat", "m"), ("Bagavat", "f"),
    ("mahat", "n"), ("gacCat", "m"), ("gacCat", "n"), ("gacCat", "f"), ("dadat", "m"), ("rAjan", "m"),
    ("Atman", "m"), ("nAman", "n"), ("karman", "n"), ("balin", "m"), ("balin", "n"), ("balin", "f"),
    ("havis", "n"), ("Danus", "n"), ("manas", "n"), ("sumanas", "m"), ("garIyas", "m"), ("vidvas", "m"),
    ("cakfvas", "m"), ("marut", "m"), ("vAc", "f"), ("diS", "f"), ("suhfd", "m"), ("gir", "f"),
    ("tad", "m"), ("tad", "f"), ("tad", "n"), ("sarva", "m"), ("pUrva", "m"), ("asmad", ""),
    ("yuzmad", ""), ("eka", "m"), ("tri", "f"), ("paYcan", ""), ("go", "m"), ("pums", "m"), ("rAma", "m"),
    ("kzatriya", "f"), ("AmayiR", "m"),
]  # fmt: skip


def _slots_of(stem: str, gender: str) -> dict[str, list[paradigms.Slot]]:
    """Each form of the table (folded) → the slots that have it, in the table's order: the long way."""
    found: dict[str, list[paradigms.Slot]] = {}
    for slot, forms in paradigms.decline(stem, gender).items():
        for form in forms:
            slots = found.setdefault(paradigms.fold(form), [])
            if slot not in slots:
                slots.append(slot)
    return found


def test_every_form_of_each_class_reads_back_to_exactly_its_slots():
    checked = 0
    for stem, gender in STEMS:
        table = paradigms.decline(stem, gender)
        assert table, (stem, gender)
        for slot, forms in table.items():
            assert len(set(forms)) == len(forms), (stem, gender, slot)  # merged tables hold a form once
        for form, slots in _slots_of(stem, gender).items():
            assert paradigms.readings(form, stem, gender) == tuple(slots), (stem, gender, form)
            checked += 1
    assert checked > 900


def test_a_string_no_table_has_reads_as_nothing():
    rng = random.Random(29)
    for stem, gender in STEMS:
        forms = _slots_of(stem, gender)
        for form in list(forms)[:6]:
            for changed in (form + "a", form[:-1], form[:-1] + rng.choice("kgtdpbmy"), "x" + form):
                if paradigms.fold(changed) not in forms:
                    assert paradigms.readings(changed, stem, gender) == (), (stem, gender, changed)


def test_a_participle_in_vat_keeps_both_paradigms_forms_once():
    # bhavat: the possessive's bhavān (your honour) and the participle's bhavan, merged slot by slot
    nominative = paradigms.decline("Bavat", "m")[0, 0]
    assert "BavAn" in nominative and "Bavan" in nominative
    assert len(set(nominative)) == len(nominative)


def _keys_the_long_way(word: str) -> list[tuple[str, float]]:
    """`_keys` with both substitutions made on every string."""
    keys: list[tuple[str, float]] = []
    for written, penalty in analysis._initials(word):
        variants = [(written, penalty)]
        anusvara = _CLASS_NASAL.sub("M", written)
        if anusvara != written:
            variants.append((anusvara, penalty + analysis.CLASS_NASAL_PENALTY))
        single = undoubled(written)
        if single != written:
            variants.append((single, penalty + analysis.UNDOUBLED_PENALTY))
        for variant, cost in variants:
            keys.append((variant, cost))
            keys += [
                (reading, cost + analysis._pausa_cost(variant, reading))
                for reading in analysis.pausa_readings(variant)
            ]
    return keys


def test_no_spelling_variant_of_a_word_is_skipped():
    words = [
        "saNgama", "saYcaya", "kaRWa", "santAna", "sampUrRa", "gaNgA", "paYca", "Darmma", "arDDa", "mittra",
        "pattra", "mUrcCA", "BarttA", "kArtsnya", "CittvA", "cCAyA", "devaH", "rAmo", "tatra", "yasmAt",
        "sanmati", "sattya", "uddyAna", "samBava", "aNkuSa", "kaYcuka", "kuRqala", "Sivam", "gacCantI",
        "ftvij",
    ]  # fmt: skip
    rng = random.Random(7)
    letters = "aAiIuUfeEoOkKgGNcCjJYwWqQRtTdDnpPbBmyrlvSzsHM"
    words += ["".join(rng.choice(letters) for _ in range(rng.randint(2, 12))) for _ in range(3000)]
    for word in words:
        assert _keys(word) == _keys_the_long_way(word), word


def test_a_slot_combinations_probability_follows_the_counts_read(tmp_path, monkeypatch):
    slots = ("accusative singular (m.)", "nominative singular (m.)")
    before = frequency.slot_log_probability(slots, "n")
    counts = tmp_path / "frequencies.tsv"
    counts.write_text("=\tn\tnominative singular\t0.25\n=\tn\taccusative singular\t0.5\n", "utf-8")
    monkeypatch.setattr(frequency, "FREQUENCIES", counts)
    frequency.clear_caches()
    try:
        assert frequency.slot_log_probability(slots, "n") == math.log(0.75)
        assert frequency.slot_log_probability(list(slots), "n") == math.log(0.75)  # a list as a tuple
    finally:
        monkeypatch.undo()
        frequency.clear_caches()
    assert frequency.slot_log_probability(slots, "n") == before
