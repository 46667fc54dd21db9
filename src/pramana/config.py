"""Settings from the environment (and CLI flags, which override them)."""

from __future__ import annotations

from pathlib import Path

from pydantic import AliasChoices, Field
from pydantic_settings import BaseSettings, SettingsConfigDict

DEFAULT_VEDABASE_API_URL = "https://vedicscriptures.github.io"


def default_gita_db_path() -> Path:
    return Path.home() / ".vedabase_mcp" / "cache.db"


class GitaSettings(BaseSettings):
    """Settings of the `gita` server. Environment names follow the vedabase-mcp spec."""

    model_config = SettingsConfigDict(extra="ignore", populate_by_name=True)

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

    def resolved_db_path(self) -> Path:
        return self.db_path.expanduser()
