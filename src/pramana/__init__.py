"""pramana: grounded-lookup MCP servers."""

__version__ = "0.1.0"
# The name on PyPI (`pramana` there is an unrelated project); the command and the import stay `pramana`.
DISTRIBUTION = "pramana-lookup"


def install_extra_hint(extra: str) -> str:
    """The command that adds one of pramana's optional extras, as pramana was installed here."""
    from pramana.install import extra_command

    return extra_command(extra)
