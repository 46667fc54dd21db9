"""Settings from the environment (and CLI flags, which override them)."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from pramana.errors import InvalidInputError

DEFAULT_VEDABASE_API_URL = "https://vedicscriptures.github.io"


def default_gita_db_path() -> Path:
    return Path.home() / ".vedabase_mcp" / "cache.db"


class _ServerSettings(BaseSettings):
    """What every server's settings share: env names as aliases, and a database file."""

    model_config = SettingsConfigDict(extra="ignore", populate_by_name=True)
    db_path: Path

    def resolved_db_path(self) -> Path:
        return self.db_path.expanduser()


class GitaSettings(_ServerSettings):
    """Settings of the `gita` server. Environment names follow the vedabase-mcp spec."""

    db_path: Path = Field(
        default_factory=default_gita_db_path,
        validation_alias=AliasChoices("VEDABASE_DB_PATH", "db_path"),
        description="SQLite cache file",
    )
    api_url: str = Field(
        default=DEFAULT_VEDABASE_API_URL,
        validation_alias=AliasChoices("VEDABASE_API_URL", "api_url"),
        description="Base URL of the vedicscriptures JSON API, or a local directory with the same layout",
    )
    http_timeout: float = Field(
        default=10.0,
        gt=0,
        validation_alias=AliasChoices("VEDABASE_HTTP_TIMEOUT", "http_timeout"),
        description="Seconds to wait for one HTTP response",
    )
    http_retries: int = Field(
        default=4,
        ge=1,
        le=10,
        validation_alias=AliasChoices("VEDABASE_HTTP_RETRIES", "http_retries"),
        description="Attempts per document on timeouts, connection errors and 5xx",
    )
    seed_concurrency: int = Field(
        default=16,
        ge=1,
        le=64,
        validation_alias=AliasChoices("VEDABASE_SEED_CONCURRENCY", "seed_concurrency"),
        description="Documents fetched at once while seeding",
    )


def default_data_dir() -> Path:
    """Where pramana keeps databases it builds: $PRAMANA_DATA_DIR, else $XDG_DATA_HOME/pramana."""
    import os

    if os.environ.get("PRAMANA_DATA_DIR"):
        return Path(os.environ["PRAMANA_DATA_DIR"]).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base).expanduser() / "pramana"


class SanskritSettings(_ServerSettings):
    """Settings of the `sanskrit` server."""

    db_path: Path = Field(
        default_factory=lambda: default_data_dir() / "sanskrit.db",
        validation_alias=AliasChoices("SANSKRIT_DB_PATH", "db_path"),
        description="The dictionary database (SQLite)",
    )
    source_url: str = Field(
        default="https://raw.githubusercontent.com/sanskrit-lexicon/csl-orig/master/v02",
        validation_alias=AliasChoices("SANSKRIT_SOURCE_URL", "source_url"),
        description="Base of csl-orig's v02 folder (URL or local directory) that `install` reads",
    )

    def downloads_dir(self) -> Path:
        return self.resolved_db_path().parent / "downloads"


class PaliSettings(_ServerSettings):
    """Settings of the `pali` server."""

    db_path: Path = Field(
        default_factory=lambda: default_data_dir() / "dpd.db",
        validation_alias=AliasChoices("DPD_DB_PATH", "db_path"),
        description="The Digital Pāḷi Dictionary database (DPD's dpd.db, or one `pramana pali build` made)",
    )
    release_url: str = Field(
        default="https://github.com/digitalpalidictionary/dpd-db/releases/latest/download/dpd.db.tar.bz2",
        validation_alias=AliasChoices("DPD_RELEASE_URL", "release_url"),
        description="Where `pramana pali download` fetches DPD's release archive",
    )


class CodeSettings(_ServerSettings):
    """Settings of the `code` server. OPENAI_*, PINECONE_* and GITHUB_* follow the raktamarga spec."""

    repo: Path | None = Field(
        default=None,
        validation_alias=AliasChoices("PRAMANA_CODE_REPO", "repo"),
        description="The repository checkout to index and search",
    )
    db_path: Path | None = Field(  # type: ignore[assignment]
        default=None,
        validation_alias=AliasChoices("PRAMANA_CODE_DB", "db_path"),
        description="The index file; default: one per repository under $PRAMANA_DATA_DIR/code",
    )
    backend: Literal["sqlite", "milvus", "pinecone"] = Field(
        default="sqlite",
        validation_alias=AliasChoices("PRAMANA_CODE_BACKEND", "backend"),
        description="Where similarity search runs; symbols always live in the SQLite index",
    )
    embedder: Literal["auto", "static", "minilm", "openai", "none"] = Field(
        default="auto",
        validation_alias=AliasChoices("PRAMANA_CODE_EMBEDDER", "embedder"),
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
        validation_alias=AliasChoices("PRAMANA_CODE_MAX_FILE_BYTES", "max_file_bytes"),
        description="Files larger than this are not indexed",
    )
    milvus_uri: str = Field(
        default="http://127.0.0.1:19530",
        validation_alias=AliasChoices("PRAMANA_MILVUS_URI", "MILVUS_URI", "milvus_uri"),
    )
    milvus_token: str | None = Field(
        default=None, validation_alias=AliasChoices("MILVUS_TOKEN", "milvus_token")
    )
    openai_api_key: str | None = Field(
        default=None, validation_alias=AliasChoices("OPENAI_API_KEY", "openai_api_key")
    )
    openai_base_url: str = Field(
        default="https://api.openai.com/v1",
        validation_alias=AliasChoices("OPENAI_BASE_URL", "openai_base_url"),
    )
    pinecone_api_key: str | None = Field(
        default=None, validation_alias=AliasChoices("PINECONE_API_KEY", "pinecone_api_key")
    )
    pinecone_index: str = Field(
        default="raktamarga", validation_alias=AliasChoices("PINECONE_INDEX", "pinecone_index")
    )
    pinecone_host: str | None = Field(
        default=None,
        validation_alias=AliasChoices("PINECONE_HOST", "pinecone_host"),
        description="The index's data-plane host; looked up from PINECONE_INDEX when unset",
    )
    github_token: str | None = Field(
        default=None, validation_alias=AliasChoices("GITHUB_TOKEN", "github_token")
    )
    github_repo: str | None = Field(default=None, validation_alias=AliasChoices("GITHUB_REPO", "github_repo"))
    github_branch: str = Field(
        default="main", validation_alias=AliasChoices("GITHUB_BRANCH", "github_branch")
    )
    github_api_url: str = Field(
        default="https://api.github.com", validation_alias=AliasChoices("GITHUB_API_URL", "github_api_url")
    )

    def resolved_db_path(self) -> Path:
        if self.db_path is not None:
            return self.db_path.expanduser()
        if self.repo is None:
            raise InvalidInputError(
                "the code server needs --repo PATH or --db FILE (or PRAMANA_CODE_REPO / PRAMANA_CODE_DB)"
            )
        return default_code_db(self.repo)


def repository_key(repo: Path) -> str:
    """A short stable key for one checkout (a hash of its absolute path): it names the checkout's
    index file, Milvus collection and Pinecone namespace."""
    import hashlib

    return hashlib.sha256(str(repo.expanduser().resolve()).encode("utf-8")).hexdigest()[:16]


def default_code_db(repo: Path) -> Path:
    """One index per checkout: the folder's name plus its repository key."""
    root = repo.expanduser().resolve()
    return default_data_dir() / "code" / f"{root.name or 'root'}-{repository_key(root)}.db"


DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")
DEFAULT_RATE_LIMIT = 600


def _words(value: str) -> list[str]:
    return [word for word in value.replace(",", " ").split() if word]


class HttpSettings(BaseSettings):
    """Serving over HTTP: address, authentication, and the limits every request is held to.

    Environment names are PRAMANA_ plus the field name in capitals (PRAMANA_TOKENS, PRAMANA_JWKS_URL).
    """

    model_config = SettingsConfigDict(env_prefix="PRAMANA_", extra="ignore")

    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=0, le=65535)
    auth: Literal["none", "token", "jwt"] = "none"
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
