"""The pali server, declared (pramana.servers): the Digital Pāḷi Dictionary for agents."""

from __future__ import annotations

from pramana.servers import AnyServer, Server

INSTRUCTIONS = """The Digital Pāḷi Dictionary (DPD). Give a Pāḷi sentence (Roman, Sinhala, Thai, Myanmar
or Devanāgarī script) to get every word's candidate headwords with grammar and meaning; look up one
word in depth; search English meanings; transliterate Pāḷi between scripts."""


SERVER: AnyServer = Server(
    name="pali",
    settings="pramana.config:PaliSettings",
    instructions=INSTRUCTIONS,
    install="pramana.pali.data:install",
    open="pramana.pali.service:served",
    tools="pramana.pali.tools:tools",
    ready="pramana.pali.tools:readiness",
    doctor="pramana.pali.data:doctor",
    cli="pramana.pali.cli:app",
    preload=("pramana.pali.tools",),
)
