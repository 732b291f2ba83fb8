"""Settings from secret files (as Docker/Kubernetes mount them): read where no variable is set,
and the database URL then reaches sweep and final-run jobs as the directory, never the value;
the README's bounds, and its record that marks this server's own Ray autoscaling."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from service.engine.launcher import RayJobsLauncher
from service.settings import settings_from_environment


@pytest.fixture
def secrets(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "secrets"
    folder.mkdir()
    (folder / "raysweep_database_url").write_text("postgresql+psycopg://rs:s3cret@db/raysweep\n")
    clusters = [{"name": "big", "address": "http://big:8265", "role": "both", "token": "t0k"}]
    (folder / "raysweep_clusters").write_text(json.dumps(clusters))
    for name in ("RAYSWEEP_DATABASE_URL", "RAYSWEEP_CLUSTERS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("RAYSWEEP_SECRETS_DIR", str(folder))
    return folder


def test_secret_files_configure_the_server_and_jobs_get_only_the_directory(
    secrets: Path,
) -> None:
    settings = settings_from_environment()
    assert settings.database_url_value == "postgresql+psycopg://rs:s3cret@db/raysweep"
    [big] = settings.cluster_records
    assert big.token is not None and big.token.get_secret_value() == "t0k"
    env = RayJobsLauncher(settings, ray=None)._driver_env()  # type: ignore[arg-type]
    assert env["RAYSWEEP_SECRETS_DIR"] == str(secrets)
    assert "RAYSWEEP_DATABASE_URL" not in env
    assert not any("s3cret" in value for value in env.values())
    assert "s3cret" not in repr(settings)  # SecretStr
    # every Train run of the job polls its workers (and so passes reports on) this often
    assert env["RAY_TRAIN_HEALTH_CHECK_INTERVAL_S"] == "0.5"
    # a fixed-size cluster drains no node: no preemption watcher; an autoscaling one does
    assert env["RAY_TRAIN_ENABLE_PREEMPTION_WATCHER"] == "0"
    growing = RayJobsLauncher(settings, ray=None, autoscaling=True)  # type: ignore[arg-type]
    assert growing._driver_env()["RAY_TRAIN_ENABLE_PREEMPTION_WATCHER"] == "1"


def test_a_variable_wins_over_its_secret_file_and_then_travels_itself(
    secrets: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RAYSWEEP_DATABASE_URL", "sqlite:////tmp/other.db")
    settings = settings_from_environment()
    assert settings.database_url_value == "sqlite:////tmp/other.db"
    env = RayJobsLauncher(settings, ray=None)._driver_env()  # type: ignore[arg-type]
    assert env["RAYSWEEP_DATABASE_URL"] == "sqlite:////tmp/other.db"
    assert "RAYSWEEP_SECRETS_DIR" not in env


def test_the_servers_own_ray_is_marked_autoscaling_by_a_record_named_local_without_address(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("RAYSWEEP_SECRETS_DIR", "RAYSWEEP_CLUSTERS"):
        monkeypatch.delenv(name, raising=False)
    assert settings_from_environment().fixed_sweep_cluster("default") == "local"  # fixed
    monkeypatch.setenv(
        "RAYSWEEP_CLUSTERS", '[{"name": "local", "role": "both", "autoscaling": true}]'
    )  # as the README's configuration section writes it
    settings = settings_from_environment()
    assert settings.sweep_cluster.address is None  # this server's own Ray
    assert settings.fixed_sweep_cluster("default") is None and settings.fixed_final_clusters == []


def test_a_setting_past_its_documented_bound_stops_the_server_naming_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("RAYSWEEP_SECRETS_DIR", raising=False)
    for variable, value in (("RAYSWEEP_API_WORKERS", "65"), ("RAYSWEEP_TOKEN_CACHE_S", "61")):
        monkeypatch.setenv(variable, value)
        with pytest.raises(ValueError, match=variable.removeprefix("RAYSWEEP_").lower()):
            settings_from_environment()
        monkeypatch.delenv(variable)
