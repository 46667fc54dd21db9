"""Exceptions shared by every pramana server.

Services raise these; the MCP layer turns them into tool errors the agent can act on,
and the CLI prints them without a traceback.
"""

from collections.abc import Mapping


class PramanaError(Exception):
    """Base class: the message is written for the caller (an agent or a person).

    A message about one parameter starts with its name as the MCP tool has it (`parameter`); the CLI
    names it by its own argument or flag instead (`worded_for`).
    """

    def __init__(self, message: str, *, parameter: str | None = None) -> None:
        super().__init__(message)
        self.parameter = parameter

    def worded_for(self, names: Mapping[str, str]) -> str:
        """The message, with its parameter called what `names` calls it."""
        text = str(self)
        if self.parameter in names and text.startswith(self.parameter):
            return names[self.parameter] + text[len(self.parameter) :]
        return text


class InvalidInputError(PramanaError, ValueError):
    """The caller's input cannot be used (malformed, out of range, empty, too long)."""


class NotFoundError(PramanaError, LookupError):
    """The input is well formed but names nothing that exists."""


class NotReadyError(PramanaError):
    """The local data needed to answer is missing (for example, the cache was never seeded)."""


class SourceError(PramanaError):
    """The upstream data source failed or returned something unusable."""


class SourceUnreachableError(SourceError):
    """The upstream could not be reached at all: connection refused, no such host, no answer in time."""


def offline_error(
    what: str, location: str, cause: object, *, retry: str, variable: str, local: str = "URL_OR_DIRECTORY",
    meanwhile: str = "",
) -> SourceUnreachableError:  # fmt: skip
    """The one shape every server's "the upstream cannot be reached" takes: what and where, why,
    the command again with `--source` naming a mirror or a local copy (or the variable that does),
    and what still works meanwhile."""
    return SourceUnreachableError(
        f"Cannot reach {what} at {location} ({cause}); nothing was fetched. Use a reachable mirror or a"
        f" local copy: `{retry} --source {local}` (or set {variable}). {meanwhile}".rstrip()
    )
