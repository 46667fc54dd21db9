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
    embedder: Literal["auto", "minilm", "openai", "none"] = Field(
        default="auto",
        validation_alias=AliasChoices("PRAMANA_CODE_EMBEDDER", "embedder"),
        description="auto: OpenAI with OPENAI_API_KEY, else local MiniLM if installed, else keywords only",
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
