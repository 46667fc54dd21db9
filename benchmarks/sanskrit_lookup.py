"""Looking a word up as a reader meets it, on a database with MW + Apte and the form index:

1. inflected forms of the Gītā → lemma: a hand-checked set of 80 forms (no compounds, no prefixed
   verbs) with the lemma expected, resolved through the form index (target ≥ 0.9);
2. coverage of the Gītā as printed word by word (Swami Sivananda's word-for-word glosses in the
   shared gita mirror, items of one word): share with an analysis or a headword;
3. p50 of an exact search that falls back to the form index, over stdio (target ≤ 5 ms);
4. loose spelling: 50 ASCII spellings of common words, the expected headword in the first 10 of
   prefix and of fuzzy mode.

    uv run python benchmarks/sanskrit_lookup.py --db PATH [--parts forms,gita,latency,loose]

Build the database with `pramana sanskrit import …/mw/heritage_xhtml --code mw --db PATH` and
`pramana sanskrit install ap90 --source …/sanskrit --db PATH` (which builds the form index).
Part 4 only searches, so it also runs on the code before the form index (for a before/after).
"""

from __future__ import annotations

import argparse
import json
import os
import re
from pathlib import Path

from _common import RawStdioClient, percentiles, shared_data
from pramana.sanskrit.service import SanskritService
from pramana.text.schemes import Scheme, convert

# form (SLP1) → the lemma expected (SLP1), from Gītā chapters 1–4 and 11; `|` separates accepted lemmas.
GOLD = {
    "yuyutsavaH": "yuyutsu", "mAmakAH": "mAmaka", "pARqavAH": "pARqava", "akurvata": "kf",
    "dfzwvA": "dfS", "uvAca": "vac", "paSya": "dfS", "putrARAm": "putra", "AcArya": "AcArya",
    "camUm": "camU", "SizyeRa": "Sizya", "DImatA": "DImat", "SUrAH": "SUra", "yudDe": "yudDa",
    "arjunena": "arjuna", "Bavati": "BU", "gacCati": "gam", "karmaRi": "karman", "karmaRAm": "karman",
    "Palezu": "Pala", "AtmAnam": "Atman", "manasA": "manas", "budDiH": "budDi", "jYAnam": "jYAna",
    "sarvARi": "sarva", "BUtAni": "BUta", "devAn": "deva", "vedAH": "veda", "lokAH": "loka",
    "hanti": "han", "jAyate": "jan", "mriyate": "mf", "tyaktvA": "tyaj", "kftvA": "kf",
    "vadanti": "vad", "icCAmi": "iz", "pitFn": "pitf", "BrAtFn": "BrAtf", "rAjAnam": "rAjan",
    "naraH": "nara", "vAsAMsi": "vAsas", "SarIrARi": "SarIra", "SastrARi": "Sastra", "agniH": "agni",
    "ApaH": "ap", "mArutaH": "mAruta", "DarmyAt": "Darmya", "yudDAt": "yudDa", "kIrtim": "kIrti",
    "bravIzi": "brU", "asti": "as", "santi": "as", "SfRu": "Sru", "prajAH": "prajA",
    "Darmasya": "Darma", "Darme": "Darma", "gurUn": "guru", "BogAn": "Boga", "hatvA": "han",
    "paSyati": "dfS", "karoti": "kf", "karmARi": "karman", "mahatIm": "mahat|mahatI",
    "Sokam": "Soka", "raTam": "raTa", "hastAt": "hasta", "tvacA": "tvac",
    "Danuzi": "Danus", "gARqIvam": "gARqIva", "sTAtum": "sTA", "nimittAni": "nimitta",
    "SreyaH": "Sreyas", "vijayam": "vijaya", "rAjyam": "rAjya", "suKAni": "suKa", "prARAn": "prARa",
    "DanAni": "Dana", "AcAryAH": "AcArya", "pitaraH": "pitf", "putrAH": "putra",
    "pitAmahAH": "pitAmaha", "mAtulAH": "mAtula", "SvaSurAH": "SvaSura",
}  # fmt: skip

# ASCII spelling → the headword expected (IAST).
LOOSE = {
    "krishna": "kṛṣṇa", "dharma": "dharma", "yoga": "yoga", "shiva": "śiva", "vishnu": "viṣṇu",
    "rama": "rāma", "sita": "sītā", "atman": "ātman", "brahman": "brahman", "karma": "karman",
    "moksha": "mokṣa", "nirvana": "nirvāṇa", "samsara": "saṃsāra", "ahimsa": "ahiṃsā", "guru": "guru",
    "mantra": "mantra", "chakra": "cakra", "jnana": "jñāna", "bhakti": "bhakti", "prana": "prāṇa",
    "veda": "veda", "upanishad": "upaniṣad", "shanti": "śānti", "surya": "sūrya", "agni": "agni",
    "indra": "indra", "soma": "soma", "deva": "deva", "devi": "devī", "lakshmi": "lakṣmī",
    "ganesha": "gaṇeśa", "arjuna": "arjuna", "bhima": "bhīma", "ganga": "gaṅgā", "yamuna": "yamunā",
    "himalaya": "himālaya", "ashrama": "āśrama", "tapas": "tapas", "maya": "māyā", "purusha": "puruṣa",
    "prakriti": "prakṛti", "sattva": "sattva", "rajas": "rajas", "tamas": "tamas", "kama": "kāma",
    "artha": "artha", "dhyana": "dhyāna", "samadhi": "samādhi", "asana": "āsana", "sutra": "sūtra",
}  # fmt: skip
_ITEM = re.compile(r"([\u0900-\u097f]+(?: [\u0900-\u097f]+)*) [^?]*\?")


def part_forms(service: SanskritService) -> None:
    right = top = 0
    wrong = []
    for form, expected in GOLD.items():
        lemmas = [convert(a.lemma, Scheme.IAST, Scheme.SLP1) for a in service.analyze(form).analyses]
        accepted = set(expected.split("|"))
        right += bool(accepted & set(lemmas))
        top += bool(lemmas) and lemmas[0] in accepted
        if not accepted & set(lemmas):
            wrong.append(f"{form}→{lemmas[:3] or 'none'}")
    print(f"Gītā forms resolved to the expected lemma: {right}/{len(GOLD)} = {right / len(GOLD):.2f}"
          f" (first analysis: {top / len(GOLD):.2f}); missed: {', '.join(wrong) or 'none'}")  # fmt: skip


def gita_words() -> list[str]:
    """The one-word items of Sivananda's word-for-word glosses, every verse, in Devanāgarī."""
    words = []
    for verse in sorted(shared_data("gita", "mirror", "slok").glob("*/*/index.json")):
        gloss = json.loads(verse.read_text("utf-8")).get("siva", {}).get("ec", "")
        words += [item for item in _ITEM.findall(gloss) if " " not in item]
    return words


def part_gita(service: SanskritService) -> None:
    words = gita_words()
    distinct = sorted(set(words))
    analysed = headword = 0
    for word in distinct:
        if service.analyze(word).count:
            analysed += 1
        elif service.search(word, "exact", limit=1).matched_by == "exact":
            headword += 1
    covered = analysed + headword
    print(f"Gītā word-for-word items of one word: {len(words):,} ({len(distinct):,} distinct); "
          f"with an analysis {analysed / len(distinct):.2f}, a headword only {headword / len(distinct):.2f}, "
          f"either {covered / len(distinct):.2f} (compounds and prefixed verbs are the rest)")  # fmt: skip


def part_latency(service: SanskritService, db: Path, calls: int) -> None:
    client = RawStdioClient(
        ["-m", "pramana", "serve", "sanskrit"], {**os.environ, "SANSKRIT_DB_PATH": str(db)}
    )
    try:
        forms = [form for form in GOLD if service.search(form, limit=1).matched_by == "form"][:20]
        samples: list[float] = []
        for form in forms:
            samples += client.timed(
                "sanskrit_search", {"query": form, "limit": 10}, max(1, calls // len(forms))
            )
        print(f"exact search falling back to the form index, over stdio (limit 10): {percentiles(samples)}")
        samples = []
        for form in forms:
            samples += client.timed("sanskrit_analyze_word", {"word": form}, max(1, calls // len(forms)))
        print(f"sanskrit_analyze_word over stdio: {percentiles(samples)}")
    finally:
        client.close()


def part_loose(service: SanskritService) -> None:
    for mode in ("prefix", "fuzzy"):
        hits = [
            word
            for spelling, word in LOOSE.items()
            if word in [hit.word for hit in service.search(spelling, mode, limit=10).results]
        ]
        missed = sorted(set(LOOSE.values()) - set(hits))
        print(f"{mode}: the expected headword in the first 10 for {len(hits)}/{len(LOOSE)} ASCII spellings;"
              f" missed: {', '.join(missed) or 'none'}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--parts", default="forms,gita,latency,loose")
    parser.add_argument("--calls", type=int, default=200)
    args = parser.parse_args()
    parts = args.parts.split(",")
    service = SanskritService(args.db, read_only=True)
    if "forms" in parts:
        part_forms(service)
    if "gita" in parts:
        part_gita(service)
    if "latency" in parts:
        part_latency(service, args.db, args.calls)
    if "loose" in parts:
        part_loose(service)
    service.close()


if __name__ == "__main__":
    main()
