"""Settings from the environment (and CLI flags, which override them)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Self, get_args

import annotated_types
from pydantic import AliasChoices, BaseModel, ConfigDict, Field, ValidationError, field_validator
from pydantic.fields import FieldInfo

from pramana.errors import InvalidInputError
from pramana.locations import default_code_db as default_code_db
from pramana.locations import default_data_dir as default_data_dir

if TYPE_CHECKING:
    from pramana.store.postgres import PoolSettings

DEFAULT_VEDABASE_API_URL = "https://vedicscriptures.github.io"
# The SB and CC verses: a pinned commit of pavamana1123/slides (gita/books.py, docs/gita.md).
DEFAULT_BOOKS_SOURCE = (
    "https://codeload.github.com/pavamana1123/slides/tar.gz/2460884c17200ac6861bbaa479b1662e416461fe"
)


def legacy_gita_db_path() -> Path:
    """Where the vedabase-mcp spec, and pramana before PRAMANA_DATA_DIR held it, kept the gita cache."""
    return Path.home() / ".vedabase_mcp" / "cache.db"


def default_gita_db_path() -> Path:
    """$PRAMANA_DATA_DIR/gita.db; without PRAMANA_DATA_DIR, a cache already seeded at the legacy
    place while the default data directory has none (so an upgrade does not lose the translations
    already fetched). A data directory someone chose is the one used: nothing outside it is read."""
    in_data_dir = default_data_dir() / "gita.db"
    legacy = legacy_gita_db_path()
    if not os.environ.get("PRAMANA_DATA_DIR") and not in_data_dir.exists() and legacy.is_file():
        return legacy
    return in_data_dir


class _Settings(BaseModel):
    """Settings from keyword values by field name (the CLI's flags), else the environment, else defaults.

    A field reads only its own environment variables: the names its validation alias lists
    (VEDABASE_DB_PATH), or the class's env_prefix plus its name in capitals (PRAMANA_PORT). Never a
    bare field name: a DB_PATH or REPO exported for another program must not move every server's data.

    A plain pydantic model that reads the environment itself (`__init__`): pramana used no other
    part of pydantic-settings, whose import (asyncio, dotenv, its every source) was ~250 M
    instructions of each CLI command's start (docs/benchmarks.md).
    """

    model_config = ConfigDict(
        extra="ignore", populate_by_name=True, validate_default=True, arbitrary_types_allowed=True
    )
    # Prefixed to a field's name in capitals for a field without a validation alias.
    env_prefix: ClassVar[str] = ""
    # The CLI flag that gives a field, where it is not --field-name (named in error messages).
    cli_flags: ClassVar[Mapping[str, str]] = {"db_path": "--db"}

    def __init__(self, **given: Any) -> None:
        """`given` values (by field name or environment name) win over the environment's."""
        super().__init__(**_with_environment(type(self), given))

    @classmethod
    def load(cls, **given: Any) -> Self:
        """The settings, with the `given` values (the CLI's flags) that are not None over the environment's.

        A bad value raises InvalidInputError naming where it came from (the flag or the environment
        variable) and what is expected.
        """
        values = {name: value for name, value in given.items() if value is not None}
        try:
            return cls(**values)
        except ValidationError as exc:
            raise InvalidInputError(_explain(cls, exc.errors()[0], values)) from None


def env_names(settings_cls: type[_Settings], field_name: str) -> tuple[str, ...]:
    """The environment variables a field reads, in order of preference."""
    alias = settings_cls.model_fields[field_name].validation_alias
    if isinstance(alias, AliasChoices):
        return tuple(str(choice) for choice in alias.choices)
    if isinstance(alias, str):
        return (alias,)
    return ((settings_cls.env_prefix + field_name).upper(),)


def _from_environment(settings_cls: type[_Settings], field_name: str) -> tuple[str, str] | None:
    """The first of a field's variables that is set (an empty one counts as unset), and its value."""
    for name in env_names(settings_cls, field_name):
        value = os.environ.get(name)
        if value:
            return name, value
    return None


def _with_environment(settings_cls: type[_Settings], given: Mapping[str, Any]) -> dict[str, Any]:
    """`given` (keys: field names or a field's environment names) with, for each field it does not
    give, the value of the field's first environment variable that is set, by field name."""
    values = dict(given)
    for field_name in settings_cls.model_fields:
        names = env_names(settings_cls, field_name)
        if field_name in values or any(name in values for name in names):
            continue
        found = _from_environment(settings_cls, field_name)
        if found is not None:
            values[field_name] = found[1]
    return values


def _explain(settings_cls: type[_Settings], error: Any, given: Mapping[str, Any]) -> str:
    """One line: which value is bad, where it came from, and what would be accepted."""
    field_name = _field_named(settings_cls, str(error["loc"][0]))
    if field_name in given:
        where = f"{settings_cls.cli_flags.get(field_name, '--' + field_name.replace('_', '-'))} "
    else:
        found = _from_environment(settings_cls, field_name)
        where = f"{found[0]}=" if found else f"{field_name}="
    expected = _expected(settings_cls.model_fields[field_name], error)
    return f"{where}{error['input']!r} is not valid: {expected}"


def _field_named(settings_cls: type[_Settings], key: str) -> str:
    for field_name in settings_cls.model_fields:
        if key == field_name or key in env_names(settings_cls, field_name):
            return field_name
    return key


_NUMBER_ERRORS = ("int_parsing", "int_type", "int_from_float", "float_parsing", "float_type",
                  "greater_than", "greater_than_equal", "less_than", "less_than_equal")  # fmt: skip


def _expected(field: FieldInfo, error: Any) -> str:
    kinds = [kind for kind in get_args(field.annotation) or (field.annotation,) if kind is not type(None)]
    if error["type"] == "literal_error":
        return "choose " + _either([str(choice) for choice in get_args(field.annotation)])
    if error["type"] == "bool_parsing":
        return "give true or false"
    if error["type"] in _NUMBER_ERRORS:
        number = "a whole number" if int in kinds else "a number"
        return f"give {number}{_bounds(field)}"
    return str(error["msg"])


def _bounds(field: FieldInfo) -> str:
    limits: dict[str, Any] = {}
    for constraint in field.metadata:
        for name in ("gt", "ge", "lt", "le"):
            if isinstance(constraint, getattr(annotated_types, name.capitalize())):
                limits[name] = getattr(constraint, name)
    if "ge" in limits and "le" in limits:
        return f" from {limits['ge']} to {limits['le']}"
    phrases = {"gt": "greater than", "ge": "of at least", "lt": "less than", "le": "of at most"}
    return "".join(f" {phrases[name]} {value}" for name, value in limits.items())


def _either(choices: list[str]) -> str:
    return choices[0] if len(choices) == 1 else f"{', '.join(choices[:-1])} or {choices[-1]}"


class ServerSettings(_Settings):
    """What every server's settings share: a database file."""

    db_path: Path

    def resolved_db_path(self) -> Path:
        return self.db_path.expanduser()

    def missing_configuration(self) -> str | None:
        """Why the server cannot be served as configured, or None. A database not built yet is no
        such reason: the server answers with how to get its data."""
        return None


class GitaSettings(ServerSettings):
    """Settings of the `gita` server. Environment names follow the vedabase-mcp spec."""

    cli_flags: ClassVar[Mapping[str, str]] = {
        "db_path": "--db",
        "api_url": "--source",
        "books_source": "--source",
        "database_url": "--database-url",
    }

    db_path: Path = Field(
        default_factory=default_gita_db_path,
        validation_alias="VEDABASE_DB_PATH",
        description="The gita cache (SQLite, WAL; several server processes may share it)",
        json_schema_extra={
            "shown_default": "$PRAMANA_DATA_DIR/gita.db (a cache already at"
            " ~/.vedabase_mcp/cache.db is used while that has none)"
        },
    )
    api_url: str = Field(
        default=DEFAULT_VEDABASE_API_URL,
        validation_alias="VEDABASE_API_URL",
        description="Where verses come from: the vedicscriptures JSON API's base URL, or a local directory"
        " with the same layout (a seed from a source given here or by --source remembers it)",
    )
    http_timeout: float = Field(
        default=10.0,
        gt=0,
        validation_alias="VEDABASE_HTTP_TIMEOUT",
        description="Seconds to wait for one HTTP response",
    )
    http_retries: int = Field(
        default=4,
        ge=1,
        le=10,
        validation_alias="VEDABASE_HTTP_RETRIES",
        description="Attempts per document on timeouts, connection errors and 5xx",
    )
    seed_concurrency: int = Field(
        default=16,
        ge=1,
        le=64,
        validation_alias="VEDABASE_SEED_CONCURRENCY",
        description="Documents fetched at once while seeding",
    )
    books_source: str = Field(
        default=DEFAULT_BOOKS_SOURCE,
        validation_alias="VEDABASE_BOOKS_SOURCE",
        description="Where `install` (and the install_books tool) reads the SB and CC verses: upstream's"
        " archive (URL), a local copy of it (.tar.gz) or the folder it unpacks to",
    )
    question_model: bool = Field(
        default=True,
        validation_alias="VEDABASE_QUESTION_MODEL",
        description="With the embeddings extra, rank questions by meaning with all-MiniLM-L6-v2"
        " (seeding then encodes the translations, a minute or two); false: by words"
        " (and the static table, if cached)",
    )
    database_url: str | None = Field(
        default=None,
        validation_alias="PRAMANA_DATABASE_URL",
        description="postgresql://USER:PASSWORD@HOST:PORT/DB puts the gita store (verses, translations,"
        " installed books, question vectors) on PostgreSQL, one cache shared by every replica (the"
        " postgres extra); unset: the SQLite file (VEDABASE_DB_PATH)",
    )
    database_pool_min: int = Field(
        default=1,
        ge=0,
        le=100,
        validation_alias="PRAMANA_DATABASE_POOL_MIN",
        description="PostgreSQL connections each process keeps open",
    )
    database_pool_max: int = Field(
        default=10,
        ge=1,
        le=1000,
        validation_alias="PRAMANA_DATABASE_POOL_MAX",
        description="Most PostgreSQL connections each process opens (calls beyond wait for one)",
    )
    database_pool_wait: float = Field(
        default=5.0,
        gt=0,
        le=600,
        validation_alias="PRAMANA_DATABASE_POOL_WAIT",
        description="Seconds a call waits for a free PostgreSQL connection (less when its deadline is"
        " nearer)",
    )

    @field_validator("database_url")
    @classmethod
    def _postgres_url(cls, value: str | None) -> str | None:
        if value is not None and not value.strip().lower().startswith(("postgresql://", "postgres://")):
            raise ValueError("give a postgresql://… URL (unset, the gita store is the SQLite file)")
        return value.strip() if value else None

    def backend(self) -> Literal["sqlite", "postgresql"]:
        return "postgresql" if self.database_url else "sqlite"

    def pool_settings(self) -> PoolSettings:
        from pramana.store.postgres import PoolSettings

        return PoolSettings(
            min_size=min(self.database_pool_min, self.database_pool_max),
            max_size=self.database_pool_max,
            wait_s=self.database_pool_wait,
        )

    def downloads_dir(self) -> Path:
        """Where installs download to: beside the SQLite cache, else in the data directory."""
        if self.database_url:
            return default_data_dir() / "downloads"
        return self.resolved_db_path().parent / "downloads"


class SanskritSettings(ServerSettings):
    """Settings of the `sanskrit` server."""

    cli_flags: ClassVar[Mapping[str, str]] = {"db_path": "--db", "source_url": "--source"}

    db_path: Path = Field(
        default_factory=lambda: default_data_dir() / "sanskrit.db",
        validation_alias="SANSKRIT_DB_PATH",
        description="The dictionary database (SQLite)",
        json_schema_extra={"shown_default": "$PRAMANA_DATA_DIR/sanskrit.db"},
    )
    source_url: str = Field(
        default="https://raw.githubusercontent.com/sanskrit-lexicon/csl-orig/master/v02",
        validation_alias="SANSKRIT_SOURCE_URL",
        description="Base of csl-orig's v02 folder (URL or local directory) that `install` reads",
    )

    def downloads_dir(self) -> Path:
        return self.resolved_db_path().parent / "downloads"


class PaliSettings(ServerSettings):
    """Settings of the `pali` server."""

    cli_flags: ClassVar[Mapping[str, str]] = {"db_path": "--db", "release_url": "--source"}

    db_path: Path = Field(
        default_factory=lambda: default_data_dir() / "dpd.db",
        validation_alias="DPD_DB_PATH",
        description="The Digital Pāḷi Dictionary database (DPD's dpd.db, or one `pramana pali build` made)",
        json_schema_extra={"shown_default": "$PRAMANA_DATA_DIR/dpd.db"},
    )
    release_url: str = Field(
        default="https://github.com/digitalpalidictionary/dpd-db/releases/latest/download/dpd.db.tar.bz2",
        validation_alias="DPD_RELEASE_URL",
        description="Where `pramana pali download` fetches DPD's release archive",
    )


class CodeSettings(ServerSettings):
    """Settings of the `code` server. OPENAI_*, PINECONE_* and GITHUB_* follow the raktamarga spec."""

    repo: Path | None = Field(
        default=None,
        validation_alias="PRAMANA_CODE_REPO",
        description="The repository checkout to index and search",
    )
    db_path: Path | None = Field(  # type: ignore[assignment]
        default=None,
        validation_alias="PRAMANA_CODE_DB",
        description="The index file",
        json_schema_extra={"shown_default": "$PRAMANA_DATA_DIR/code/<repo>-<hash>.db"},
    )
    backend: Literal["sqlite", "milvus", "pinecone"] = Field(
        default="sqlite",
        validation_alias="PRAMANA_CODE_BACKEND",
        description="Where similarity search runs; symbols always live in the SQLite index",
    )
    embedder: Literal["auto", "static", "minilm", "openai", "none"] = Field(
        default="auto",
        validation_alias="PRAMANA_CODE_EMBEDDER",
        description=(
            "auto: OpenAI with OPENAI_API_KEY, else static if the embeddings extra is installed or the"
            " table is built, else keywords only. static: a token table distilled from all-MiniLM-L6-v2,"
            " thousands of chunks a second, weaker on sentences (CoSQA MRR@10 0.38 with BM25); minilm:"
            " the model itself on onnxruntime (embeddings extra), about 40 chunks a second on two cores,"
            " a query in ~6 ms, better on sentences (CoSQA 0.50); openai: text-embedding-3-small;"
            " none: keywords only"
        ),
    )
    max_file_bytes: int = Field(
        default=1_000_000,
        ge=1_000,
        validation_alias="PRAMANA_CODE_MAX_FILE_BYTES",
        description="Files larger than this are not indexed",
    )
    milvus_uri: str = Field(
        default="http://127.0.0.1:19530",
        validation_alias=AliasChoices("PRAMANA_MILVUS_URI", "MILVUS_URI"),
        description="The Milvus backend: a server's URL, or a path such as ./milvus.db for milvus-lite",
    )
    milvus_token: str | None = Field(
        default=None, validation_alias="MILVUS_TOKEN", description="The Milvus backend's token"
    )
    openai_api_key: str | None = Field(
        default=None, validation_alias="OPENAI_API_KEY", description="OpenAI embeddings for the code server"
    )
    openai_base_url: str = Field(
        default="https://api.openai.com/v1",
        validation_alias="OPENAI_BASE_URL",
        description="An OpenAI-compatible embeddings endpoint",
    )
    pinecone_api_key: str | None = Field(
        default=None, validation_alias="PINECONE_API_KEY", description="The Pinecone backend's key"
    )
    pinecone_index: str = Field(
        default="raktamarga", validation_alias="PINECONE_INDEX", description="The Pinecone index's name"
    )
    pinecone_host: str | None = Field(
        default=None,
        validation_alias="PINECONE_HOST",
        description="The index's data-plane host; looked up from PINECONE_INDEX when unset",
    )
    github_token: str | None = Field(
        default=None, validation_alias="GITHUB_TOKEN", description="get_file through GitHub's API: the token"
    )
    github_repo: str | None = Field(
        default=None, validation_alias="GITHUB_REPO", description="get_file through GitHub's API: owner/name"
    )
    github_branch: str = Field(
        default="main", validation_alias="GITHUB_BRANCH", description="get_file via GitHub: the branch"
    )
    github_api_url: str = Field(
        default="https://api.github.com", validation_alias="GITHUB_API_URL", description="The GitHub API"
    )

    def missing_configuration(self) -> str | None:
        if self.repo is None and self.db_path is None:
            return "no repository (give --repo PATH or PRAMANA_CODE_REPO)"
        return None

    def resolved_db_path(self) -> Path:
        if self.db_path is not None:
            return self.db_path.expanduser()
        if self.repo is None:
            raise InvalidInputError(
                "the code server needs --repo PATH or --db FILE (or PRAMANA_CODE_REPO / PRAMANA_CODE_DB)"
            )
        return default_code_db(self.repo)


DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")
DEFAULT_RATE_LIMIT = 600


def _words(value: str) -> list[str]:
    return [word for word in value.replace(",", " ").split() if word]


class HttpSettings(_Settings):
    """Serving over HTTP: address, authentication, and the limits every request is held to.

    Environment names are PRAMANA_ plus the field name in capitals (PRAMANA_TOKENS, PRAMANA_JWKS_URL).
    """

    env_prefix: ClassVar[str] = "PRAMANA_"
    cli_flags: ClassVar[Mapping[str, str]] = {
        "jwt_issuer": "--issuer",
        "jwt_audience": "--audience",
        "allowed_hosts": "--allowed-host",
        "allowed_origins": "--allowed-origin",
        "max_body_bytes": "--max-body",
    }

    host: str = Field(
        default="127.0.0.1", description="Address to bind; beyond loopback without auth needs insecure"
    )
    port: int = Field(default=8000, ge=0, le=65535, description="Port (0 picks a free one)")
    auth: Literal["none", "token", "jwt"] = Field(default="none", description="How HTTP clients authenticate")
    tokens: str = Field(default="", description="Bearer tokens accepted with auth=token, comma-separated")
    tokens_file: Path | None = Field(default=None, description="File of bearer tokens, one per line")
    jwks_url: str | None = Field(default=None, description="Where the authorization server's JWKS is")
    jwt_issuer: str | None = Field(default=None, description="The `iss` tokens must carry")
    jwt_audience: str | None = Field(
        default=None, description="The `aud` tokens must carry (default: public_url)"
    )
    public_url: str | None = Field(
        default=None, description="This server's MCP URL as clients see it (default http://HOST:PORT/mcp)"
    )
    allowed_hosts: str = Field(default="", description="Host headers accepted besides loopback ones; * = any")
    allowed_origins: str = Field(default="", description="Origin headers accepted besides loopback ones")
    insecure: bool = Field(default=False, description="Allow binding beyond loopback without auth")
    stateless: bool = Field(default=False, description="No sessions: any replica can answer any request")
    rate_limit: int | None = Field(
        default=None,
        ge=0,
        description="Requests per minute per token (per address without auth); 0 = off. Default: "
        f"{DEFAULT_RATE_LIMIT} with auth or beyond loopback, off for an open server on loopback",
    )
    max_body_bytes: int = Field(default=DEFAULT_MAX_BODY_BYTES, ge=1024, description="Largest request body")

    def token_list(self) -> list[str]:
        found = _words(self.tokens)
        if self.tokens_file is not None:
            path = self.tokens_file.expanduser()
            try:
                lines = path.read_text(encoding="utf-8").splitlines()
            except OSError as exc:
                raise InvalidInputError(f"cannot read the tokens file {path}: {exc.strerror}") from exc
            found += [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]
        return found

    def host_list(self) -> list[str]:
        return _words(self.allowed_hosts)

    def origin_list(self) -> list[str]:
        return _words(self.allowed_origins)

    def effective_rate_limit(self) -> int:
        """Requests per minute per caller, 0 for none. A local server without auth has only local
        callers (the agent on this machine), so it is not limited unless asked."""
        if self.rate_limit is not None:
            return self.rate_limit
        local_and_open = self.auth == "none" and self.host in LOOPBACK_NAMES
        return 0 if local_and_open else DEFAULT_RATE_LIMIT

    def local_url(self) -> str:
        """The /mcp URL at the bound address and port."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/mcp"

    def resource_url(self) -> str:
        """The /mcp URL clients use: --public-url, else the local one."""
        return self.public_url.rstrip("/") if self.public_url else self.local_url()
