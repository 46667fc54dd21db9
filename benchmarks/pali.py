"""Build DPD from ../shared/data/pali (target <= 60 s) and measure get_grammatical_details on a
20-word sentence over MCP stdio (target p50 <= 10 ms); agreement with DPD's own analyses.

    uv run python benchmarks/pali.py [--calls 200] [--db PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
from pathlib import Path

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from _common import REPO_ROOT, RawStdioClient, percentiles, sdk_timed
from pramana.pali.source import build

SENTENCES = {  # 20 words each
    "sutta opening": "Evaṃ me sutaṃ—ekaṃ samayaṃ bhagavā sāvatthiyaṃ viharati jetavane "
    "anāthapiṇḍikassa ārāme. Tatra kho bhagavā bhikkhū āmantesi: “bhikkhavo”ti. “Bhadante”ti te bhikkhū",
    "Dhammapada 1-2": "Manopubbaṅgamā dhammā, manoseṭṭhā manomayā; Manasā ce paduṭṭhena, bhāsati vā "
    "karoti vā; Tato naṃ dukkhamanveti, cakkaṃva vahato padaṃ. Manopubbaṅgamā dhammā, manoseṭṭhā",
    "with elisions": "atha kho āyasmā sāriputto yena bhagavā ten'upasaṅkami upasaṅkamitvā bhagavantaṃ "
    "abhivādetvā ekam'antaṃ nisīdi saṃkhittena'pi kho ahaṃ sāriputta dhammaṃ deseyyaṃ n'atthi dullabhā'ti",
}
SERVER_ARGS = ["-m", "pramana", "serve", "pali"]


def shared_data() -> Path:
    data = Path(os.environ.get("PRAMANA_TEST_DATA", REPO_ROOT.parent / "shared" / "data")) / "pali"
    if not data.is_dir():
        sys.exit(f"no Pāḷi data at {data}: set PRAMANA_TEST_DATA")
    return data


def measure_raw(db: Path, calls: int) -> None:
    client = RawStdioClient(SERVER_ARGS, {**os.environ, "DPD_DB_PATH": str(db)})
    try:
        for name, sentence in SENTENCES.items():
            samples = client.timed("get_grammatical_details", {"sentence": sentence}, calls)
            print(f"  get_grammatical_details, {name:<15} {percentiles(samples)}")
        for tool, arguments in (
            ("lookup_pali_word", {"word": "bhikkhave"}),
            ("search_pali_meaning", {"english": "mindfulness", "limit": 10}),
        ):
            print(f"  {tool:<40} {percentiles(client.timed(tool, arguments, calls))}")
    finally:
        client.close()


async def measure_sdk(db: Path, calls: int) -> None:
    params = StdioServerParameters(
        command=sys.executable, args=SERVER_ARGS, env={**os.environ, "DPD_DB_PATH": str(db)}
    )
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        for name, sentence in SENTENCES.items():
            samples, result = await sdk_timed(
                session, "get_grammatical_details", {"sentence": sentence}, calls
            )
            found = result.structured_content
            print(f"  get_grammatical_details, {name:<15} {percentiles(samples)}  "
                  f"({found['found']}/{found['token_count']} words found)")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--db", type=Path, help="reuse a database built before (skips the build)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or Path(tmp) / "dpd.db"
        if not db.exists():
            report = build(shared_data(), db)
            print(f"build from ../shared/data/pali: {report.headwords:,} headwords, {report.roots} roots, "
                  f"{report.lookup_keys:,} lookup keys in {report.seconds} s (target <= 60 s); "
                  f"{db.stat().st_size / 1e6:.0f} MB")  # fmt: skip
        print("over stdio, bare JSON-RPC client (server + transport):")
        measure_raw(db, args.calls)
        print("over stdio, MCP Python SDK ClientSession (adds its outputSchema validation):")
        asyncio.run(measure_sdk(db, args.calls))


if __name__ == "__main__":
    main()
