"""The gita server, declared (pramana.servers): the vedabase-mcp spec's tools over the verse cache."""

from __future__ import annotations

from pramana.servers import AnyServer, Server

INSTRUCTIONS = """Verses of the Bhagavad Gita (the vedicscriptures dataset: 701 verses, 18 chapters, 22
translators and commentators) and, once installed, of the Srimad-Bhagavatam (SB) and the
Caitanya-caritamrta (CC). Use lookup_verse for a known reference ('BG 2.47', 'SB 1.2.6',
'CC Adi 17.31'), get_chapter for a chapter's verses, search_verses for questions, words or topics,
fuzzy_match_verse for Sanskrit garbled by a transcript, correct_transcript for a whole lecture. The
Gita's Sanskrit ships with the server, so its lookups, matching and transcript correction work at
once; its translations are cached as they are looked up (if search says the cache is empty, call
seed_database once). SB and CC need install_books once; every result names its book."""

SERVER: AnyServer = Server(
    name="gita",
    title="vedabase",
    settings="pramana.config:GitaSettings",
    instructions=INSTRUCTIONS,
    install="pramana.gita.data:install",
    open="pramana.gita.service:served",
    tools="pramana.gita.tools:tools",
    ready="pramana.gita.tools:readiness",
    doctor="pramana.gita.data:doctor",
    cli="pramana.gita.cli:app",
    preload=("pramana.gita.tools",),
    warm_workers="pramana.gita.tools:warm_workers",
)
