"""What every server's CLI commands share: consoles, errors as one line, showing results, progress bars.

Nothing heavy is imported here: rich comes in when a command first prints through it, so that a
quick command such as `pramana code search` starts in a fraction of a second.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeVar

import typer

from pramana.errors import PramanaError

if TYPE_CHECKING:
    from pydantic import BaseModel
    from rich.console import Console
    from rich.progress import Progress

T = TypeVar("T")

JsonOption = Annotated[bool, typer.Option("--json", help="Print the structured result as JSON")]


class _LazyConsole:
    """A rich Console made when first used: a command printing plain text never imports rich."""

    def __init__(self, stderr: bool = False):
        self._stderr = stderr
        self._console: Console | None = None

    def get(self) -> Console:
        if self._console is None:
            from rich.console import Console

            self._console = Console(stderr=self._stderr)
        return self._console

    def __getattr__(self, name: str) -> Any:
        return getattr(self.get(), name)


out = _LazyConsole()
err = _LazyConsole(stderr=True)


def run(action: Callable[[], T]) -> T:
    """Run an action; pramana errors become one line on stderr and exit code 2, no traceback."""
    try:
        return action()
    except PramanaError as exc:
        from rich.markup import escape

        # Messages quote what the user gave: "[/x]" in it is text, not rich markup (which would raise).
        err.print(f"[red]error:[/red] {escape(str(exc))}", highlight=False, soft_wrap=True)
        raise typer.Exit(2) from None


def run_async(coroutine: Callable[[], Coroutine[Any, Any, T]]) -> T:
    import asyncio

    return run(lambda: asyncio.run(coroutine()))


def _maybe_terminal() -> bool:
    """Whether rich could take stdout for a terminal (asked without importing rich when it cannot)."""
    forced = ("FORCE_COLOR", "FORCE_TERMINAL", "TTY_INTERACTIVE", "TTY_COMPATIBLE")
    return sys.stdout.isatty() or any(name in os.environ for name in forced)


def show(text: str, model: BaseModel, as_json: bool) -> None:
    """A result: its markdown (rendered on a terminal), or with --json the structured result."""
    if as_json:
        out.print_json(json.dumps(model.model_dump(mode="json"), ensure_ascii=False))
    elif _maybe_terminal() and out.is_terminal:
        from rich.markdown import Markdown

        out.print(Markdown(text))
    else:
        sys.stdout.write(text + "\n")


def progress_bar(
    label: str, counts: Literal["items", "bytes"] = "items", *, detail: bool = False
) -> Progress:
    """A progress bar on stderr: `label` (a rich format string over the task, e.g.
    "{task.description}"), the bar, done/total items or bytes done, the time elapsed, and with
    `detail` the task's description after them."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    done = MofNCompleteColumn() if counts == "items" else TextColumn("{task.completed:,.0f} bytes")
    columns = [TextColumn(label), BarColumn(), done, TimeElapsedColumn()]
    if detail:
        columns.append(TextColumn("{task.description}"))
    return Progress(*columns, console=err.get())
