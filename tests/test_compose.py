"""compose.yaml (PostgreSQL and two pramana replicas) checked for structure: docker is not runnable
where the tests run, so the file is parsed and what docker compose would need is checked here."""

from __future__ import annotations

import re

import yaml
from psycopg.conninfo import conninfo_to_dict

from pramana.config import GitaSettings, HttpSettings, env_names
from tests.conftest import REPO_ROOT

COMPOSE = REPO_ROOT / "compose.yaml"


def _compose() -> dict:
    return yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))


def _settings_variables() -> set[str]:
    names = {name for field in GitaSettings.model_fields for name in env_names(GitaSettings, field)}
    return names | {name for field in HttpSettings.model_fields for name in env_names(HttpSettings, field)}


def test_postgres_and_two_replicas_that_wait_for_it_and_share_it():
    services = _compose()["services"]
    postgres = services["postgres"]
    replicas = {name: service for name, service in services.items() if name.startswith("replica")}
    assert len(replicas) == 2
    assert postgres["image"].startswith("postgres:") and "pg_isready" in " ".join(
        postgres["healthcheck"]["test"]
    )
    database = postgres["environment"]
    for name, replica in replicas.items():
        assert replica["depends_on"]["postgres"]["condition"] == "service_healthy", name
        url = replica["environment"]["PRAMANA_DATABASE_URL"]
        parts = conninfo_to_dict(re.sub(r"\$\{[^}]*\}", "secret", url))
        assert (parts["host"], parts["dbname"], parts["user"]) == (
            "postgres",
            database["POSTGRES_DB"],
            database["POSTGRES_USER"],
        )
        assert "POSTGRES_PASSWORD" in url  # the same secret, from the environment, never in the file
        assert replica["command"][:2] == ["serve", "gita"] and "--stateless" in replica["command"]
        assert "/ready" in " ".join(replica["healthcheck"]["test"])  # 503 while PostgreSQL is unreachable
        assert replica["environment"]["PRAMANA_TOKENS"].startswith("${PRAMANA_TOKENS:?")
        assert set(replica["environment"]) <= _settings_variables(), "a variable pramana does not read"
    ports = [replica["ports"][0].split(":")[0] for replica in replicas.values()]
    assert len(set(ports)) == 2
    assert "pgdata" in _compose()["volumes"]


def test_the_image_has_the_postgres_extra_and_the_seed_is_a_tool_not_a_service():
    services = _compose()["services"]
    assert (
        services["replica-1"]["build"] == "." and "--extra postgres" in (REPO_ROOT / "Dockerfile").read_text()
    )
    seed = services["seed"]
    assert seed["command"] == ["gita", "seed"] and seed["profiles"] == ["tools"]  # run once, by hand
    assert (
        seed["environment"]["PRAMANA_DATABASE_URL"]
        == services["replica-1"]["environment"]["PRAMANA_DATABASE_URL"]
    )
