"""The `pramana` command, assembled: each server's own command group (its declaration's `cli`, in
pramana.servers), plus `serve`, `config`, `doctor` and `--version`.

Every command imports what it needs when it runs (a server's SDK, its data libraries, rich's
progress bars), so that a quick one such as `pramana code search` starts in a fraction of a second.
"""

from __future__ import annotations

import copy
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer

from pramana import __version__, process
from pramana import servers as registry
from pramana.cli_support import JsonOption, err, fail, out, run
from pramana.code import cli as code_cli
from pramana.errors import InvalidInputError
from pramana.gita import cli as gita_cli

app = typer.Typer(
    help="pramana: grounded lookups for AI agents, served over the Model Context Protocol.",
    no_args_is_help=True,
    add_completion=False,
)


def _add_server_groups() -> str:
    """Add each server's command group, by server name (as pramana.mcp.servers has each one's tools);
    the servers' names, for the commands' help."""
    try:
        every = registry.servers()
    except InvalidInputError as exc:  # PRAMANA_SERVERS names a module that is no server
        sys.stderr.write(f"error: {exc}\n")
        sys.exit(2)
    for name, server in every.items():
        if server.cli is not None:
            app.add_typer(server.cli(), name=name)
    return ", ".join(every)


SERVERS_HELP = _add_server_groups()


def _version(value: bool) -> None:
    if value:
        out.print(f"pramana {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version and exit")
    ] = False,
) -> None:
    """pramana: grounded lookups for AI agents."""
    process.for_commands()


# serve's flags for one server's settings, by the settings field each sets (in every server that has it).
SERVE_FLAGS = {"--db": "db_path", "--source": "api_url", "--database-url": "database_url", "--repo": "repo",
               "--backend": "backend", "--embedder": "embedder"}  # fmt: skip


def _serve_settings(names: list[str], flags: dict[str, Any]) -> dict[str, Any]:
    """Each served server's settings; a flag that no served server reads is an error."""
    from pramana.config import env_names

    every = registry.servers()
    if flags.get("--db") is not None and len(names) > 1:
        variables = ", ".join(env_names(every[name].settings(), "db_path")[0] for name in names)
        raise InvalidInputError(f"--db names one server's database; serving several, set {variables} instead")
    given = {SERVE_FLAGS[flag]: value for flag, value in flags.items() if value is not None}
    for flag, value in flags.items():
        readers = [
            name for name, server in every.items() if SERVE_FLAGS[flag] in server.settings().model_fields
        ]
        if value is not None and not set(readers) & set(names):
            raise InvalidInputError(
                f"{flag} belongs to the {' and '.join(readers)} server, which is not served"
            )
    return {
        name: every[name].load_settings(
            **{k: v for k, v in given.items() if k in every[name].settings().model_fields}
        )
        for name in names
    }


def _http_settings(**given: Any):  # type: ignore[no-untyped-def]
    from pramana.config import HttpSettings

    return HttpSettings.load(**given)


def _joined(values: list[str] | None) -> str | None:
    return ",".join(values) if values else None


@app.command("serve")
def serve(
    servers: Annotated[list[str], typer.Argument(help=f"{SERVERS_HELP}, or all", show_default=False)],
    transport: Annotated[str, typer.Option("--transport", metavar="stdio|http")] = "stdio",
    host: Annotated[str | None, typer.Option(help="Address to bind (default 127.0.0.1)")] = None,
    port: Annotated[int | None, typer.Option(help="Port (default 8000; 0 picks a free one)")] = None,
    auth: Annotated[
        str | None,
        typer.Option(metavar="none|token|jwt", help="How HTTP clients authenticate (default none)"),
    ] = None,
    tokens_file: Annotated[
        Path | None, typer.Option(help="Bearer tokens, one per line (or PRAMANA_TOKENS)")
    ] = None,
    jwks_url: Annotated[str | None, typer.Option(help="The authorization server's JWKS (auth=jwt)")] = None,
    issuer: Annotated[str | None, typer.Option(help="Required token issuer (auth=jwt)")] = None,
    audience: Annotated[
        str | None, typer.Option(help="Required token audience (default: --public-url)")
    ] = None,
    public_url: Annotated[str | None, typer.Option(help="This server's /mcp URL as clients reach it")] = None,
    allowed_host: Annotated[
        list[str] | None, typer.Option(help="Host name clients use (repeatable; * = any)")
    ] = None,
    allowed_origin: Annotated[
        list[str] | None, typer.Option(help="Browser origin allowed (repeatable)")
    ] = None,
    insecure: Annotated[bool, typer.Option(help="Allow binding beyond loopback without auth")] = False,
    stateless: Annotated[bool, typer.Option(help="No sessions, for replicas behind a load balancer")] = False,
    rate_limit: Annotated[
        int | None, typer.Option(help="Requests per minute per token; 0 = off (600 with auth)")
    ] = None,
    max_body: Annotated[int | None, typer.Option(help="Largest request body in bytes (4 MiB)")] = None,
    db: Annotated[Path | None, typer.Option("--db", help="Database file, when serving one server")] = None,
    source: gita_cli.SourceOption = None,
    database_url: gita_cli.DatabaseUrlOption = None,
    repo: code_cli.CodeRepo = None,
    backend: code_cli.Backend = None,
    embedder: code_cli.EmbedderOption = None,
) -> None:
    """Run MCP servers: one, several, or `all` from one endpoint, on stdio (default) or HTTP.

    `all` serves every configured server and names on stderr those it leaves out, with why.

    Over HTTP: streamable HTTP at /mcp, legacy SSE at /sse, GET /health and GET /ready.
    """
    from pramana.mcp.servers import Served, build, servable, server_names

    if transport not in ("stdio", "http"):
        err.print("[red]error:[/red] --transport is stdio or http")
        raise typer.Exit(2)
    flags = {"--db": db, "--source": source, "--database-url": database_url, "--repo": repo,
             "--backend": backend, "--embedder": embedder}  # fmt: skip
    per_server = run(lambda: _serve_settings(server_names(servers), flags))
    names, left_out = run(lambda: servable(servers, per_server))
    process.for_serving()
    if transport == "stdio":
        for name, why in left_out.items():
            sys.stderr.write(f"{name}: not served: {why}\n")
        # One client, one call at a time as a rule: nothing for worker processes to keep apart, and
        # starting them would cost the first heavy call seconds and the machine ~240 MB.
        served = run(lambda: build(names, per_server, left_out, worker_processes=False))
        process.freeze_loaded()
        from pramana.mcp.stdio import run_stdio

        run_stdio(served.server)
        return
    from pramana.mcp.disclosure import settings_roots
    from pramana.mcp.http import serve_http
    from pramana.mcp.tools import log_level

    http = run(
        lambda: _http_settings(
            host=host,
            port=port,
            auth=auth,
            tokens_file=tokens_file,
            jwks_url=jwks_url,
            jwt_issuer=issuer,
            jwt_audience=audience,
            public_url=public_url,
            allowed_hosts=_joined(allowed_host),
            allowed_origins=_joined(allowed_origin),
            insecure=insecure or None,
            stateless=stateless or None,
            rate_limit=rate_limit,
            max_body_bytes=max_body,
        )
    )

    def built() -> Served:
        served = build(names, per_server, left_out)
        process.freeze_loaded()
        return served

    private = settings_roots(per_server.values())
    run(lambda: serve_http(built, http, log_level("INFO"), private))


@app.command("install")
def install(
    server: Annotated[str, typer.Argument(help=SERVERS_HELP)],
    parts: Annotated[
        list[str] | None,
        typer.Argument(help="Which parts: dictionary codes (sanskrit: mw ap90), books (gita: sb cc)"),
    ] = None,
    source: Annotated[
        str | None,
        typer.Option("--source", help="Where from: a URL, a file or a folder (default: its settings')"),
    ] = None,
    db: Annotated[Path | None, typer.Option("--db", help="The store to install into")] = None,
) -> None:
    """Install a server's data, the same way for every server: gita's translations (or books: sb cc),
    sanskrit's dictionaries (default ap90), DPD (its release, or --source a folder of its TSV backups),
    a repository's code index (--source PATH)."""
    from pramana.cli_support import install as installing
    from pramana.servers import Source

    declared = run(lambda: registry.server(server))
    settings = run(lambda: declared.load_settings(db_path=db))
    installed = installing(declared.name, settings, Source(source, tuple(parts or ())))
    if not installed.complete:
        fail(installed.detail)
    out.print(f"{installed.path}: {installed.detail}", markup=False, highlight=False, soft_wrap=True)


CLIENT_NAMES = ("claude-desktop", "claude-code", "vscode", "cursor", "windsurf")


@app.command("config")
def config(
    client: Annotated[
        str, typer.Argument(metavar="|".join(CLIENT_NAMES), help="The MCP client", show_default=False)
    ],
    servers: Annotated[
        list[str] | None,
        typer.Argument(help=f"{SERVERS_HELP}, or all (one process)", show_default=False),
    ] = None,
    repo: Annotated[Path | None, typer.Option(help="The repository the code server searches")] = None,
    name: Annotated[str | None, typer.Option(help="The entry's name in the client (one server)")] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="claude-code: the project's .mcp.json instead")
    ] = False,
) -> None:
    """Print a ready configuration for an MCP client, with absolute paths, for one server or all.

    Paste it where the client keeps its servers (said on stderr). Settings this shell has set
    (PRAMANA_DATA_DIR, VEDABASE_API_URL, ...) are carried in "env"; secrets are named, not copied.
    """
    from pramana.clients import configuration

    made = run(lambda: configuration(client, servers or ["all"], repo=repo, name=name))
    for note in made.notes:
        err.print(note, highlight=False, markup=False, soft_wrap=True)
    text = made.claude_code_commands() if client == "claude-code" and not as_json else made.as_json()
    sys.stdout.write(text + "\n")


@app.command("doctor")
def doctor(as_json: JsonOption = False) -> None:
    """Per server: whether it is ready, its data's size and path, what it has, and what to run next."""
    from pramana.doctor import check_all, status_line

    found = run(check_all)
    if as_json:
        out.print_json(json.dumps([status.as_dict() for status in found], ensure_ascii=False))
        return
    for status in found:
        sys.stdout.write(status_line(status) + "\n")


def app_for(argv: Sequence[str]) -> typer.Typer:
    """The command line to run for `argv` (the arguments after `pramana`): `app` itself, or, when
    `argv` starts with a server's name, `app` with that server's command group alone. Typer builds
    every command it holds before it reads the arguments (each one's parameters from its type
    hints): ~0.05 s of CPU for the 31 commands, paid by `pramana code index` and every other command
    of one server; the commands that cannot run are left out, nothing else changes (the root's
    options and callback, the group's help and errors)."""
    if not argv or not any(group.name == argv[0] for group in app.registered_groups):
        return app
    narrowed = copy.copy(app)
    narrowed.registered_commands = []
    narrowed.registered_groups = [group for group in app.registered_groups if group.name == argv[0]]
    return narrowed


if __name__ == "__main__":  # at the end: every command is registered by now
    app_for(sys.argv[1:])()
