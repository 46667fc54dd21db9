"""What every server's CLI commands share: consoles, errors as one line, showing results, progress bars.

Nothing heavy is imported here: rich comes in when a command first prints through it, so that a
quick command such as `pramana code search` starts in a fraction of a second.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Coroutine, Mapping
from typing import TYPE_CHECKING, Annotated, Any, Literal, NoReturn, TypeVar, get_args

import typer
from typer.core import TyperArgument, TyperOption

from pramana.errors import PramanaError
from pramana.store.failures import storage_problem

if TYPE_CHECKING:
    from pydantic import BaseModel
    from rich.console import Console
    from rich.progress import Progress

    from pramana.servers import Installed, Source

T = TypeVar("T")

JsonOption = Annotated[bool, typer.Option("--json", help="Print the structured result as JSON")]


_VALUE_WORDS = {int: "INTEGER", float: "NUMBER", str: "TEXT"}


def _value_word(option: TyperOption, ctx: Any) -> str | None:
    """What an option's value looks like: the metavar given, its choices, PATH, INTEGER, NUMBER or
    TEXT; nothing for a flag, which takes no value."""
    if option.metavar is not None:
        return option.metavar
    if option.is_flag:
        return None
    kind = option.type_descriptor
    if kind.is_choice:
        return "|".join(str(choice) for choice in kind.choices or ())
    if kind.is_path:
        return "PATH"
    element = get_args(kind.annotation)[0] if kind.is_list else kind.annotation
    return _VALUE_WORDS.get(element, "TEXT")


def _argument_name(argument: TyperArgument) -> str:
    return argument.metavar or (argument.name or "").upper()


def _usage_name(argument: TyperArgument) -> str:
    name = _argument_name(argument) if argument.required else f"[{_argument_name(argument)}]"
    return name + ("..." if argument.nargs != 1 else "")


def _readable_help() -> None:
    """Help a person reads: typer shows each parameter's Python type (`<bool>` beside a flag,
    `<list[str]>`, `<path>`) and a required argument as `{name}`; here flags show no type, values
    click's words (TEXT, PATH) or their choices, arguments their name in capitals (QUERY)."""
    TyperOption.display_type_rich = _value_word  # type: ignore[method-assign,assignment]
    TyperArgument.display_type_rich = lambda self, ctx: None  # type: ignore[method-assign]
    TyperArgument._rich_display_name = _argument_name  # type: ignore[method-assign,assignment]
    TyperArgument._usage_display_name = _usage_name  # type: ignore[method-assign,assignment]


_readable_help()


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


def run(action: Callable[[], T], parameters: Mapping[str, str] | None = None) -> T:
    """Run an action; pramana errors and storage failures (a full disk, a locked, read-only or
    damaged database) become one line on stderr and exit code 2, no traceback. `parameters` maps
    the services' parameter names (`garbled_sanskrit`) to the command's (`TEXT`)."""
    try:
        return action()
    except PramanaError as exc:
        fail(exc.worded_for(parameters or {}))
    except Exception as exc:
        problem = storage_problem(exc)
        if problem is None:  # a bug: its traceback is what a report needs
            raise
        fail(problem)


def fail(message: str) -> NoReturn:
    """Print `message` as the command's one-line error and exit with code 2."""
    from rich.markup import escape

    # Messages quote what the user gave: "[/x]" in it is text, not rich markup (which would raise).
    err.print(f"[red]error:[/red] {escape(message)}", highlight=False, soft_wrap=True)
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


def announce(text: str) -> None:
    """Say on stderr, before a long step starts, what it is, how big and how long, and how to skip
    or shrink it: a user who knows what they are waiting for can decide to."""
    err.print(text, style="dim", highlight=False, markup=False, soft_wrap=True)


def waited(started: float) -> str:
    """The wall time since `started` (time.monotonic()), as the user waited it: '41 s', '6 min 41 s'."""
    import time

    seconds = round(time.monotonic() - started)
    return f"{seconds // 60} min {seconds % 60} s" if seconds >= 60 else f"{seconds} s"


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


def install(
    name: str,
    settings: Any,
    source: Source,
    label: str = "{task.description}",
    counts: Literal["items", "bytes"] = "items",
    *,
    detail: bool = False,
) -> Installed:
    """Install server `name`'s data through its declaration (pramana.servers: the one way data gets
    in, whichever command asks), with a progress bar of `label`; an error is one line and exit 2."""
    from pramana.servers import server

    def installing() -> Installed:
        with progress_bar(label, counts, detail=detail) as bar:  # closed before an error prints
            task = bar.add_task("starting", total=None)

            def progress(what: str, done: int, total: int | None) -> None:
                bar.update(task, description=what, completed=done, total=total or None)

            return server(name).install(settings, source, progress)

    return run(installing)
