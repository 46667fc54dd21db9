"""Settings read only their own, namespaced environment variables; values given by field name win."""

from __future__ import annotations

from pathlib import Path

import pytest

from pramana.config import (
    CodeSettings,
    GitaSettings,
    HttpSettings,
    PaliSettings,
    SanskritSettings,
    default_gita_db_path,
)
from pramana.errors import InvalidInputError

# Names another program might export; each is a field name of some settings class.
BARE_NAMES = ("DB_PATH", "db_path", "API_URL", "SOURCE_URL", "RELEASE_URL", "REPO", "BACKEND", "EMBEDDER",
              "MAX_FILE_BYTES", "HTTP_TIMEOUT", "PORT", "HOST", "AUTH", "TOKENS")  # fmt: skip


@pytest.fixture
def data_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setenv("PRAMANA_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


def test_bare_field_names_in_the_environment_are_ignored(monkeypatch, tmp_path, data_dir):
    for name in BARE_NAMES:
        monkeypatch.setenv(name, str(tmp_path / "elsewhere"))
    monkeypatch.setenv("BACKEND", "pinecone")
    monkeypatch.setenv("PORT", "9")
    assert GitaSettings().db_path == default_gita_db_path()
    assert GitaSettings().api_url == "https://vedicscriptures.github.io"
    assert SanskritSettings().db_path == data_dir / "sanskrit.db"
    assert PaliSettings().db_path == data_dir / "dpd.db"
    code = CodeSettings()
    assert (code.repo, code.db_path, code.backend, code.embedder) == (None, None, "sqlite", "auto")
    http = HttpSettings()
    assert (http.port, http.host, http.auth, http.tokens) == (8000, "127.0.0.1", "none", "")


def test_namespaced_names_are_read_and_given_values_win(monkeypatch, tmp_path):
    monkeypatch.setenv("VEDABASE_DB_PATH", str(tmp_path / "gita.db"))
    monkeypatch.setenv("PRAMANA_CODE_BACKEND", "milvus")
    monkeypatch.setenv("MILVUS_URI", "http://milvus.example:19530")
    monkeypatch.setenv("PRAMANA_PORT", "8123")
    assert GitaSettings().db_path == tmp_path / "gita.db"
    assert GitaSettings.load(db_path=tmp_path / "flag.db").db_path == tmp_path / "flag.db"
    assert GitaSettings.load(db_path=None).db_path == tmp_path / "gita.db"  # an unset flag leaves it
    assert CodeSettings().backend == "milvus" and CodeSettings.load(backend="sqlite").backend == "sqlite"
    assert CodeSettings().milvus_uri == "http://milvus.example:19530"
    monkeypatch.setenv("PRAMANA_MILVUS_URI", "http://preferred:19530")
    assert CodeSettings().milvus_uri == "http://preferred:19530"
    assert HttpSettings().port == 8123 and HttpSettings.load(port=0).port == 0


def test_an_empty_variable_counts_as_unset(monkeypatch):
    monkeypatch.setenv("PRAMANA_CODE_REPO", "")
    monkeypatch.setenv("PRAMANA_CODE_BACKEND", "")
    assert CodeSettings().repo is None and CodeSettings().backend == "sqlite"


@pytest.mark.parametrize(
    ("settings", "variable", "value", "message"),
    [
        (GitaSettings, "VEDABASE_HTTP_TIMEOUT", "abc", "give a number greater than 0"),
        (GitaSettings, "VEDABASE_HTTP_RETRIES", "11", "give a whole number from 1 to 10"),
        (CodeSettings, "PRAMANA_CODE_BACKEND", "foo", "choose sqlite, milvus or pinecone"),
        (HttpSettings, "PRAMANA_PORT", "x", "give a whole number from 0 to 65535"),
        (HttpSettings, "PRAMANA_STATELESS", "maybe", "give true or false"),
    ],
)
def test_a_bad_variable_is_named_with_what_is_expected(monkeypatch, settings, variable, value, message):
    monkeypatch.setenv(variable, value)
    with pytest.raises(InvalidInputError) as raised:
        settings.load()
    assert str(raised.value) == f"{variable}={value!r} is not valid: {message}"


def test_a_bad_given_value_is_named_by_its_flag():
    with pytest.raises(
        InvalidInputError, match=r"^--max-body 10 is not valid: give a whole number of at least 1024$"
    ):
        HttpSettings.load(max_body_bytes=10)
    with pytest.raises(
        InvalidInputError, match=r"^--embedder 'bert' is not valid: choose auto, static, minilm"
    ):
        CodeSettings.load(embedder="bert")


def test_variables_read_outside_the_settings_refuse_bad_values(monkeypatch):
    from pramana.code.index.workers import workers_from_environment
    from pramana.mcp.tools import log_level

    monkeypatch.setenv("PRAMANA_LOG_LEVEL", "loud")
    with pytest.raises(InvalidInputError, match="'loud' is not a log level: use one of DEBUG"):
        log_level()
    monkeypatch.setenv("PRAMANA_LOG_LEVEL", " debug ")
    assert log_level() == "DEBUG"
    monkeypatch.setenv("PRAMANA_LOG_LEVEL", "")
    assert log_level() == "WARNING"
    monkeypatch.setenv("PRAMANA_CODE_INDEX_WORKERS", "two")
    with pytest.raises(InvalidInputError, match="PRAMANA_CODE_INDEX_WORKERS='two' is not a number"):
        workers_from_environment()
    monkeypatch.setenv("PRAMANA_CODE_INDEX_WORKERS", "-1")
    with pytest.raises(InvalidInputError):
        workers_from_environment()
    monkeypatch.setenv("PRAMANA_CODE_INDEX_WORKERS", "3")
    assert workers_from_environment() == 3
    monkeypatch.delenv("PRAMANA_CODE_INDEX_WORKERS")
    assert workers_from_environment() is None


@pytest.fixture
def home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A home of its own, so the legacy ~/.vedabase_mcp of the machine running the tests is not seen."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("VEDABASE_DB_PATH", raising=False)
    return tmp_path / "home"


def test_every_database_defaults_into_the_data_dir(home, data_dir, tmp_path):
    assert GitaSettings().resolved_db_path() == data_dir / "gita.db"
    assert SanskritSettings().resolved_db_path() == data_dir / "sanskrit.db"
    assert PaliSettings().resolved_db_path() == data_dir / "dpd.db"
    assert CodeSettings(repo=tmp_path).resolved_db_path().parent == data_dir / "code"


def test_a_gita_cache_at_the_legacy_place_is_still_found(home, monkeypatch):
    monkeypatch.delenv("PRAMANA_DATA_DIR")
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    legacy = home / ".vedabase_mcp" / "cache.db"
    legacy.parent.mkdir(parents=True)
    legacy.write_bytes(b"")
    assert GitaSettings().resolved_db_path() == legacy
    default = home / ".local" / "share" / "pramana" / "gita.db"
    default.parent.mkdir(parents=True)
    default.write_bytes(b"")  # once the data dir has one, it is the one
    assert GitaSettings().resolved_db_path() == default


def test_a_chosen_data_dir_is_used_even_with_a_legacy_cache(home, data_dir):
    """PRAMANA_DATA_DIR set (as the tests set it): the home's ~/.vedabase_mcp is not read."""
    legacy = home / ".vedabase_mcp" / "cache.db"
    legacy.parent.mkdir(parents=True)
    legacy.write_bytes(b"")
    assert GitaSettings().resolved_db_path() == data_dir / "gita.db"


def test_an_explicit_gita_path_wins_over_both(home, data_dir, monkeypatch, tmp_path):
    (home / ".vedabase_mcp").mkdir(parents=True)
    (home / ".vedabase_mcp" / "cache.db").write_bytes(b"")
    monkeypatch.setenv("VEDABASE_DB_PATH", str(tmp_path / "mine.db"))
    assert GitaSettings().resolved_db_path() == tmp_path / "mine.db"
    assert GitaSettings.load(db_path=tmp_path / "flag.db").resolved_db_path() == tmp_path / "flag.db"
