"""The sanskrit server, declared (pramana.servers): the Cologne dictionaries, searched in any script."""

from __future__ import annotations

from pramana.servers import AnyServer, Server

INSTRUCTIONS = """Sanskrit dictionaries of the Cologne collection (Monier-Williams, Apte, Macdonell,
Cappeller, ...). Search a word in any script (IAST, Devanāgarī, SLP1, Harvard-Kyoto, ITRANS,
Velthuis, or plain ASCII like 'krishna'), then read articles by their article_id."""

SERVER: AnyServer = Server(
    name="sanskrit",
    settings="pramana.config:SanskritSettings",
    instructions=INSTRUCTIONS,
    install="pramana.sanskrit.data:install",
    open="pramana.sanskrit.service:served",
    tools="pramana.sanskrit.tools:tools",
    ready="pramana.sanskrit.tools:readiness",
    doctor="pramana.sanskrit.data:doctor",
    cli="pramana.sanskrit.cli:app",
    preload=("pramana.sanskrit.tools",),
)
