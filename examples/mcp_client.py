"""The vedabase-mcp spec's MCP-client pattern (§8.3), complete and runnable: a pipeline starts the
gita server with `python -m vedabase_mcp` and calls its tools over stdio.

    python examples/mcp_client.py notes.md > checked.md

`python` must be the Python pramana is installed in (a virtual environment's, or `uv run python …`
in a checkout); after `uv tool install`, give the command `pramana config claude-code gita` prints
instead. Each `BG x.y` the notes name gets the verse appended; each line of garbled Sanskrit (five
or more words, two with diacritics) that the server matches confidently gets its reference.
"""

import asyncio
import re
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

VERSE_REF = re.compile(r"BG\s+\d+\.\d+")
DIACRITICS = re.compile(r"[āīūṛṝḷṁṃḥṇṣśñṅṭḍ]")


def extract_sanskrit_blocks(notes_text: str) -> list[str]:
    """Lines with five or more words, two of them with IAST diacritics: quoted Sanskrit."""
    blocks = []
    for line in notes_text.splitlines():
        words = line.split()
        if len(words) >= 5 and sum(bool(DIACRITICS.search(word)) for word in words) >= 2:
            blocks.append(line.strip())
    return blocks


async def enrich_notes_with_verses(notes_text: str) -> str:
    server = StdioServerParameters(command="python", args=["-m", "vedabase_mcp"])
    async with stdio_client(server) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            enriched = notes_text

            # 1. Find all verse refs and verify them
            appendix = []
            for ref in sorted(set(VERSE_REF.findall(notes_text))):
                result = await session.call_tool("lookup_verse", {"reference": ref})
                if result.is_error:
                    appendix.append(f"- {ref}: {result.content[0].text}")
                    continue
                verse = result.structured_content
                translation = (verse["translation"] or {}).get("text", "(translation not cached)")
                appendix.append(
                    f"- **{verse['ref']}** _{verse['transliteration'].splitlines()[0]}_ {translation}"
                )

            # 2. Find garbled Sanskrit blocks and identify them
            for block in extract_sanskrit_blocks(notes_text):
                result = await session.call_tool("fuzzy_match_verse", {"garbled_sanskrit": block})
                match = result.structured_content
                if not result.is_error and match["confident"]:
                    top = match["matches"][0]
                    enriched = enriched.replace(block, f"_{top['matched']}_ ({top['ref']})")

    if appendix:
        enriched = enriched.rstrip() + "\n\n## Verses named\n\n" + "\n".join(appendix) + "\n"
    return enriched


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as notes:
        sys.stdout.write(asyncio.run(enrich_notes_with_verses(notes.read())))
