"""docs/configuration.md, made from the settings themselves so that it cannot drift from them:
every field's environment variables, its flag (looked up in the `pramana` command itself), its
default and what it means. tests/test_docs.py fails when the page differs from what this prints.

    uv run python -m pramana.settings_reference > docs/configuration.md
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel
from pydantic_core import PydanticUndefined

from pramana.config import HttpSettings, _Settings, env_names
from pramana.servers import EXTRA_VARIABLE, servers


@dataclass(frozen=True)
class Variable:
    """A variable pramana reads that is no settings field (read where it is used)."""

    name: str
    default: str
    meaning: str


OTHER_VARIABLES = (
    Variable("PRAMANA_DATA_DIR", "`$XDG_DATA_HOME/pramana` (`~/.local/share/pramana`)",
             "where every database lives unless its own variable says otherwise: `gita.db`, `sanskrit.db`,"
             " `dpd.db`, `code/`, `models/`"),
    Variable("XDG_DATA_HOME", "`~/.local/share`", "the base of the default data directory"),
    Variable("PRAMANA_LOG_LEVEL", "`WARNING` on stdio, `INFO` over HTTP",
             "server log level: `DEBUG`, `INFO`, `WARNING`, `ERROR` or `CRITICAL`, any other value is refused"
             " (logs go to stderr; JSON lines over HTTP)"),
    Variable("PRAMANA_CODE_INDEX_WORKERS", "one per CPU (at most 8) for over 0.5 MB of changed files",
             "processes that parse while indexing; `0` parses in the indexing process; anything but a whole"
             " number is refused"),
    Variable("OPENBLAS_NUM_THREADS", "`1` (set by pramana unless you set it)",
             "numpy's BLAS threads: a search's matrix-vector product gains nothing from more"),
    Variable(EXTRA_VARIABLE, "none",
             "more servers: the modules that declare them (`SERVER = pramana.servers.Server(...)`),"
             " comma-separated (docs/development.md, \"Adding a server\")"),
    Variable("PRAMANA_TEST_DATA", "`../shared/data`", "the shared datasets the tests and benchmarks read"),
    Variable("PRAMANA_CONFIDENT", "`-7.5`",
             "sanskrit tuning (benchmarks): a word whose first reading scores at least this, and is short, is"
             " not split"),
    Variable("PRAMANA_LONG_WORD", "`8`", "sanskrit tuning: the letters from which a word counts as long"),
    Variable("PRAMANA_READ_WELL", "`-11.0`",
             "sanskrit tuning: a word whose first reading scores at least this is split with the smaller"
             " budget below"),
    Variable("PRAMANA_READ_WELL_BUDGET", "`250`",
             "sanskrit tuning: the splitter's budget of part tests for a word read well as one form"),
    Variable("PRAMANA_SPLIT_COST", "`2.0`", "sanskrit tuning: what each part after the first costs a split"),
    Variable("PRAMANA_SPLIT_BEAM", "`4`", "sanskrit tuning: the compound splitter's beam"),
    Variable("PRAMANA_SPLIT_BUDGET", "`400`",
             "sanskrit tuning: the compound splitter's budget of part tests (the longest groups' cost)"),
    Variable("PRAMANA_DEEPER_BUDGET", "`800`",
             "sanskrit tuning: the budget for splitting again a long part that is one compound headword"),
    Variable("PRAMANA_LIKELY_MEMBER", "`-9.0`",
             "sanskrit tuning: a compound member scoring at least this is not tested as a word as well"),
    Variable("PRAMANA_LETTER_WEIGHT", "`2.0`",
             "sanskrit tuning: what each letter of a first part adds when the splitter ranks first parts"),
)  # fmt: skip


def sections() -> list[tuple[str, type[_Settings], str]]:
    """Each server's settings (pramana.servers), then the HTTP transport's."""
    own = [
        (name, server.settings(), f"`pramana {name} …`, `pramana serve {name}`")
        for name, server in servers().items()
    ]
    return [*own, ("HTTP", HttpSettings, "`pramana serve --transport http`")]


INTRO = """# Configuration

Every setting is an environment variable, and most have a flag that overrides it for one command.
This page is generated from the settings (`uv run python -m pramana.settings_reference >
docs/configuration.md`); a test fails when it differs from them.

pramana reads these names only, exactly as written (an empty one counts as unset): a `DB_PATH` or
`REPO` exported for another program changes nothing. A bad value stops the command or server with
one line naming the variable (or flag) and what it accepts, e.g. `PRAMANA_CODE_BACKEND='foo' is not
valid: choose sqlite, milvus or pinecone`. Clients started from a desktop do not see your shell's
variables: `pramana config CLIENT` copies the ones you set into the client's configuration
([clients.md](clients.md)).
"""


def cli_flags() -> set[str]:
    """Every option name of every `pramana` command."""
    import typer

    from pramana.cli import app

    found: set[str] = set()

    def walk(command: Any) -> None:
        for param in getattr(command, "params", []):
            found.update(opt for opt in param.opts if opt.startswith("--"))
        for sub in getattr(command, "commands", {}).values():
            walk(sub)

    walk(typer.main.get_command(app))
    return found


def _default(settings: type[BaseModel], name: str) -> str:
    field = settings.model_fields[name]
    extra = field.json_schema_extra if isinstance(field.json_schema_extra, dict) else {}
    if "shown_default" in extra:
        return f"`{extra['shown_default']}`"
    if field.default is PydanticUndefined or field.default is None or field.default == "":
        return "none"
    value = field.default
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    return f"`{value}`"


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def render() -> str:
    flags = cli_flags()
    lines = [INTRO]
    for title, settings, used_by in sections():
        lines += [f"## {title}", "", f"Read by {used_by}.", "", "| variable | flag | default | meaning |",
                  "|---|---|---|---|"]  # fmt: skip
        for name, field in settings.model_fields.items():
            variables = ", ".join(f"`{variable}`" for variable in env_names(settings, name))
            flag = settings.cli_flags.get(name, "--" + name.replace("_", "-"))
            shown_flag = f"`{flag}`" if flag in flags else ""
            meaning = _cell(field.description or "")
            lines.append(f"| {variables} | {shown_flag} | {_cell(_default(settings, name))} | {meaning} |")
        lines.append("")
    lines += ["## Everywhere", "", "| variable | default | meaning |", "|---|---|---|"]
    lines += [f"| `{v.name}` | {_cell(v.default)} | {_cell(v.meaning)} |" for v in OTHER_VARIABLES]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    import sys

    sys.stdout.write(render())
