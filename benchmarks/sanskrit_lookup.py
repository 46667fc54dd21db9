"""Looking a word up as a reader meets it, on a database with MW + Apte and the form index:

1. inflected forms of the Gītā → lemma: (a) the evaluation set `sanskrit_gita_forms.tsv`, 400 word
   tokens drawn at random from the packaged Gītā with seed 17 and annotated by hand (see its header):
   share of its single words and indeclinables with the expected lemma among the analyses or the
   exact-search hits (target ≥ 0.9), as the first analysis, as the first exact-search hit; and how
   compounds and sandhi groups fare;
   (b) the earlier hand-picked set of 83 forms (no compounds, no prefixed verbs);
2. coverage of the Gītā as printed word by word (Swami Sivananda's word-for-word glosses in the
   shared gita mirror, items of one word): share with an analysis or a headword;
3. p50 of an exact search that falls back to the form index, over stdio (target ≤ 5 ms);
4. loose spelling: 50 ASCII spellings of common words, the expected headword in the first 10 of
   prefix and of fuzzy mode.

    uv run python benchmarks/sanskrit_lookup.py --db PATH [--parts sample,forms,gita,latency,loose]

Build the database with `pramana sanskrit import …/mw/heritage_xhtml --code mw --db PATH` and
`pramana sanskrit install ap90 --source …/sanskrit --db PATH` (which builds the form index).
Part 4 only searches, so it also runs on the code before the form index (for a before/after).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

from _common import RawStdioClient, percentiles, shared_data
from pramana.gita.packaged import packaged_verses
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
SAMPLE_FILE = Path(__file__).with_name("sanskrit_gita_forms.tsv")
SAMPLE_SEED, SAMPLE_SIZE = 17, 400
_ITEM = re.compile(r"([\u0900-\u097f]+(?: [\u0900-\u097f]+)*) [^?]*\?")


def gita_tokens() -> list[tuple[str, int, str]]:
    """(chapter.verse, position, token) of every space-separated token of the packaged Gītā."""
    tokens = []
    for ref, verse in packaged_verses().items():
        text = re.sub(r"\|\|[^|]*\|\||\([^)]*\)", " ", verse.transliteration)  # verse numbers, variants
        for position, token in enumerate(re.split(r"[\s|]+", text.strip())):
            if token:
                tokens.append((f"{ref.chapter}.{ref.verse}", position, token))
    return tokens


def gita_sample() -> list[tuple[str, int, str]]:
    """The tokens of the evaluation set, as they were drawn, in verse order."""
    drawn = random.Random(SAMPLE_SEED).sample(gita_tokens(), SAMPLE_SIZE)
    return sorted(drawn, key=lambda t: (tuple(map(int, t[0].split("."))), t[1]))


def read_sample() -> list[dict[str, str]]:
    columns = ("ref", "position", "token", "category", "lemmas", "note")
    lines = SAMPLE_FILE.read_text("utf-8").splitlines()
    rows = [dict(zip(columns, line.split("\t"), strict=False)) for line in lines if not line.startswith("#")]
    drawn = [(ref, str(position), token) for ref, position, token in gita_sample()]
    if [(r["ref"], r["position"], r["token"]) for r in rows] != drawn:
        raise SystemExit(f"{SAMPLE_FILE} does not hold the tokens seed {SAMPLE_SEED} draws")
    return rows


_NASAL = re.compile(r"[NYRnm](?=[kKgGcCjJwWqQtTdDpPbB])")


def lemma_key(lemma_iast: str) -> str:
    """SLP1, with a nasal before a stop as anusvāra: saṃjaya (MW) and sañjaya are one lemma."""
    return _NASAL.sub("M", convert(lemma_iast, Scheme.IAST, Scheme.SLP1))


def lemmas_found(service: SanskritService, token: str) -> tuple[list[str], list[str]]:
    """(`lemma_key`s of the analyses of `token` then of the words of its sandhi splits, of the hits of
    an exact search for it: the headword it is, if any, else the lemmas of its analyses or its
    splits' words), each in the order given."""
    analysed = service.analyze(token)
    analyses = [lemma_key(a.lemma) for a in analysed.analyses]
    analyses += [lemma for split in getattr(analysed, "splits", []) for lemma in split_lemmas_of(split)]
    hits = [lemma_key(hit.word) for hit in service.search(token, "exact", limit=5).results]
    return list(dict.fromkeys(analyses)), list(dict.fromkeys(hits))


def split_lemmas_of(split: Any) -> list[str]:  # a SandhiSplit (the code before splitting has none)
    """`lemma_key`s of a sandhi split's words: their analyses' lemmas, or the word as a headword."""
    return [
        lemma_key(lemma)
        for part in split.parts
        for lemma in [a.lemma for a in part.analyses] + ([part.word] if part.article_ids else [])
    ]


def part_sample(service: SanskritService) -> None:
    rows = read_sample()
    print(f"evaluation set: {len(rows)} tokens, {dict(Counter(r['category'] for r in rows))}")
    for categories in (("word",), ("indecl",), ("word", "indecl")):
        scored = [r for r in rows if r["category"] in categories]
        first_analysis = first_hit = anywhere = 0
        missed = []
        for row in scored:
            accepted = {lemma_key(lemma) for lemma in row["lemmas"].split("|")}
            analyses, hits = lemmas_found(service, row["token"])
            first_analysis += bool(analyses) and analyses[0] in accepted
            first_hit += bool(hits) and hits[0] in accepted
            anywhere += bool(accepted & {*analyses, *hits})
            if not accepted & {*analyses, *hits}:
                missed.append(f"{row['token']}→{','.join((analyses + hits)[:2]) or '-'}")
        share = len(scored)
        print(f"  {'+'.join(categories)} ({share}): the expected lemma among the analyses or exact hits"
              f" {anywhere / share:.3f}; first analysis {first_analysis / share:.3f};"
              f" first exact-search hit {first_hit / share:.3f}")  # fmt: skip
        if categories == ("word",):
            print(f"    missed: {'; '.join(missed)}")
    for category in ("compound", "sandhi"):
        scored = [r for r in rows if r["category"] == category]
        analysed = whole = part = every = first_every = 0
        missed = []
        for row in scored:
            analyses, hits = lemmas_found(service, row["token"])
            lemmas = {*analyses, *hits}
            parts = [{lemma_key(x) for x in p.split("|")} for p in row["lemmas"].split(" + ")]
            splits = getattr(service.analyze(row["token"]), "splits", [])
            first = set(split_lemmas_of(splits[0])) if splits else set()
            analysed += bool(lemmas)
            whole += len(parts) == 1 and bool(parts[0] & lemmas)
            part += any(p & lemmas for p in parts)
            every += all(p & lemmas for p in parts)
            first_every += all(p & first for p in parts)
            if not all(p & lemmas for p in parts):
                missed.append(f"{row['token']}→{splits[0].summary if splits else '-'}")
        print(f"  {category} ({len(scored)}): any analysis or headword {analysed / len(scored):.3f},"
              f" the compound's stem {whole / len(scored):.3f},"
              f" one of its words' lemmas {part / len(scored):.3f},"
              f" every word's lemma {every / len(scored):.3f}"
              f" (in the first sandhi split alone {first_every / len(scored):.3f})")  # fmt: skip
        if category == "sandhi" and os.environ.get("SHOW_MISSED"):
            print("    not every word: " + "; ".join(missed))


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
        groups = [r["token"] for r in read_sample() if r["category"] == "sandhi"]
        groups = [g for g in groups if service.search(g, limit=1).matched_by == "sandhi"][:20]
        for tool, argument in (("sanskrit_search", "query"), ("sanskrit_analyze_word", "word")):
            samples = []
            for group in groups:
                samples += client.timed(tool, {argument: group}, max(1, calls // len(groups)))
            print(f"{tool} of a sandhi group ({len(groups)} of the evaluation set's) split, over stdio:"
                  f" {percentiles(samples)}")  # fmt: skip
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
    parser.add_argument("--parts", default="sample,forms,gita,latency,loose")
    parser.add_argument("--calls", type=int, default=200)
    args = parser.parse_args()
    parts = args.parts.split(",")
    service = SanskritService(args.db, read_only=True)
    if "sample" in parts:
        part_sample(service)
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
