"""Checks of the text an agent or a person sends, shared by every server: one way to refuse it.

Each MCP tool also limits its arguments' sizes in its schema (pydantic `Field(max_length=...)`);
these checks are the services' own, for the CLI and for what a schema cannot say (a query of
spaces only). The message names the parameter as the tool has it (`PramanaError.parameter`), which
the CLI rewords as its own argument or flag.
"""

from __future__ import annotations

from pramana.errors import InvalidInputError


def required_text(
    value: str | None,
    name: str,
    limit: int,
    *,
    empty_hint: str = "",
    too_long_hint: str = "",
    strip: bool = False,
) -> str:
    """`value` (stripped of surrounding spaces with `strip`), or an InvalidInputError naming `name`
    when it is empty or only spaces, or longer than `limit` characters; a hint says what to send
    instead ("give Pāḷi text, e.g. 'evaṃ me sutaṃ'", "send it in parts")."""
    if value is None or not value.strip():
        raise InvalidInputError(
            f"{name} is empty" + (f"; {empty_hint}" if empty_hint else ""), parameter=name
        )
    if len(value) > limit:
        raise InvalidInputError(
            f"{name} is {len(value):,} characters; the limit is {limit:,}"
            + (f": {too_long_hint}" if too_long_hint else ""),
            parameter=name,
        )
    return value.strip() if strip else value
