"""Settings from secret files (as Docker/Kubernetes mount them): read where no variable is set,
and none of them (nor the server's home) reaches sweep and final-run jobs, only a token of
their own; the README's bounds, and its record that marks this server's own Ray autoscaling."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from service.engine.launcher import RayJobsLauncher
from service.errors import Unauthorized
from service.settings import settings_from_environment
from service.usecases.job_tokens import JobScope, job_scope, job_token


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


def test_secret_files_configure_the_server_and_jobs_get_no_secret_but_their_own_token(
    secrets: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = settings_from_environment()
    assert settings.database_url_value == "postgresql+psycopg://rs:s3cret@db/raysweep"
    [big] = settings.cluster_records
    assert big.token is not None and big.token.get_secret_value() == "t0k"
    key = b"k" * 32
    env = RayJobsLauncher(settings, ray=None, job_token_key=key)._driver_env("raysweep-abc-2")  # type: ignore[arg-type]
    # no database URL, secrets directory or home: a trial's process inherits all of this
    for name in ("RAYSWEEP_DATABASE_URL", "RAYSWEEP_SECRETS_DIR", "RAYSWEEP_HOME"):
        assert name not in env
    assert not any("s3cret" in value or "t0k" in value for value in env.values())
    assert "s3cret" not in repr(settings)  # SecretStr
    # the job's own token, scoped to its sweep and attempt, and where the API is
    assert job_scope(key, env["RAYSWEEP_JOB_TOKEN"]) == JobScope("sweep", "abc", 2)
    assert env["RAYSWEEP_API_URL"] == "http://127.0.0.1:8000"
    for host, url in (("0.0.0.0", "http://127.0.0.1:8000"), ("10.1.2.3", "http://10.1.2.3:8000")):
        monkeypatch.setenv("RAYSWEEP_HOST", host)
        assert settings_from_environment().api_url_for_jobs == url
    monkeypatch.setenv("RAYSWEEP_API_URL", "http://raysweep:8000/")
    assert settings_from_environment().api_url_for_jobs == "http://raysweep:8000"
    # every Train run of the job polls its workers (and so passes reports on) this often
    assert env["RAY_TRAIN_HEALTH_CHECK_INTERVAL_S"] == "0.5"
    # a fixed-size cluster drains no node: no preemption watcher; an autoscaling one does
    assert env["RAY_TRAIN_ENABLE_PREEMPTION_WATCHER"] == "0"
    growing = RayJobsLauncher(settings, ray=None, job_token_key=key, autoscaling=True)  # type: ignore[arg-type]
    assert growing._driver_env("j")["RAY_TRAIN_ENABLE_PREEMPTION_WATCHER"] == "1"


def test_a_job_token_names_one_record_and_cannot_be_forged_or_retargeted() -> None:
    key = b"k" * 32
    token = job_token(key, "raysweep-final-17-0")
    assert job_scope(key, token) == JobScope("final_run", "17", 0)
    job_id, _, signature = token.partition(".")
    for forged in (
        job_token(b"other" * 8, "raysweep-final-17-0"),  # another deployment's key
        f"{job_id.replace('17', '18')}.{signature}",  # another final run, same signature
        f"{job_id}.{signature[:-1]}",
        token.replace("rsj_", "rsw_"),
        job_token(key, "raysweep-../etc-0"),  # signed, but names no job
    ):
        with pytest.raises(Unauthorized):
            job_scope(key, forged)


def test_a_variable_wins_over_its_secret_file(
    secrets: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RAYSWEEP_DATABASE_URL", "sqlite:////tmp/other.db")
    assert settings_from_environment().database_url_value == "sqlite:////tmp/other.db"


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
    for variable, value in (
        ("RAYSWEEP_API_WORKERS", "65"),
        ("RAYSWEEP_TOKEN_CACHE_S", "61"),
        ("RAYSWEEP_LOCAL_RAY_CPUS", "0"),  # "the other counts are at least 1"
    ):
        monkeypatch.setenv(variable, value)
        with pytest.raises(ValueError, match=variable.removeprefix("RAYSWEEP_").lower()):
            settings_from_environment()
        monkeypatch.delenv(variable)
