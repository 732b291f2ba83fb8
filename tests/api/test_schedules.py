"""Schedules through real servers: clear 422s, roles, pause/resume, and two server processes on
one PostgreSQL firing a minutely schedule 20 times -> exactly 20 firings, across a restart."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from service.db.models.schedules import ScheduleFiringRow
from service.db.models.sweeps import ExperimentRow
from tests.conftest import ServerProcess, minimal_spec, row_counts
from tests.factories import T0, production_model, set_time


def body(**changes: Any) -> dict[str, Any]:
    return {"name": "nightly", "cron": "0 3 * * *", "timezone": "Europe/Berlin",
            "spec": minimal_spec(), **changes}  # fmt: skip


def test_schedules_are_checked_completely_and_need_a_member(
    server: ServerProcess, db: sessionmaker[Session]
) -> None:
    viewer = server.create_token("viewer-s", "viewer")
    before = row_counts(db)
    with server.client() as client:
        bad = client.post(
            "/api/v1/schedules",
            json=body(cron="0 25 * * *", timezone="Mars/Olympus", spec=minimal_spec(trainer="x")),
        )
        assert bad.status_code == 422
        found = {d["path"]: d["message"] for d in bad.json()["error"]["details"]}
        assert "Bad hour" in found["cron"] and "Mars/Olympus" in found["timezone"]
        assert "unknown trainer 'x'" in found["spec.trainer"]
        retrain = client.post(
            "/api/v1/schedules",
            json=body(kind="retrain", cron="bad", retrain={"model": "nope", "margin": 0.01}),
        )
        assert retrain.status_code == 422
        found = {d["path"]: d["message"] for d in retrain.json()["error"]["details"]}
        assert found["spec"] == "kind retrain takes no spec" and "cron" in found
        assert found["retrain.model"] == "no model named 'nope'; models: none yet"
        negative = client.post(
            "/api/v1/schedules", json=body(kind="retrain", retrain={"model": "m", "margin": -1})
        )
        assert negative.status_code == 422 and "retrain.margin" in negative.text
    with server.client(viewer) as client:
        assert client.post("/api/v1/schedules", json=body()).status_code == 403
    assert row_counts(db) == before
    with server.client() as client:
        created = client.post("/api/v1/schedules", json=body())
        assert created.status_code == 201, created.text
        schedule = created.json()
        assert client.post("/api/v1/schedules", json=body()).status_code == 409  # same name
        next_run = datetime.fromisoformat(schedule["next_run_at"])
        assert next_run.hour in (1, 2) and next_run.minute == 0  # 03:00 Berlin in UTC
        assert schedule["template"]["search_space"]["lr"]["type"] == "loguniform"  # resolved
        paused = client.patch(f"/api/v1/schedules/{schedule['id']}", json={"enabled": False})
        assert paused.json()["enabled"] is False and paused.json()["next_run_at"] is None
        resumed = client.patch(f"/api/v1/schedules/{schedule['id']}", json={"enabled": True})
        assert resumed.json()["next_run_at"] == schedule["next_run_at"]
        assert client.get("/api/v1/schedules").json()["total"] == 1
        assert client.get(f"/api/v1/schedules/{schedule['id']}/firings").json()["items"] == []
        assert client.delete(f"/api/v1/schedules/{schedule['id']}").status_code == 204
        assert client.get(f"/api/v1/schedules/{schedule['id']}").status_code == 404

    production_model(db)
    with server.client() as client:
        retrain = {"model": "digits", "margin": 0.01, "retune": {"num_samples": 3}}
        created = client.post(
            "/api/v1/schedules",
            json={"name": "weekly", "cron": "0 4 * * 1", "kind": "retrain", "retrain": retrain},
        )
        assert created.status_code == 201, created.text
        schedule = created.json()
        assert schedule["kind"] == "retrain" and schedule["template"] is None
        defaults = {"alias": "production", "epochs": None, "num_workers": None, "cluster": None}
        # the final run's resources: the champion's unless given
        defaults |= dict.fromkeys(["use_gpu", "cpus_per_worker", "gpus_per_worker", "precision"])
        retune = {"num_samples": 3, "warm_start_top": 3}
        assert schedule["retrain"] == {**retrain, **defaults, "retune": retune}


def firing_count(db: sessionmaker[Session]) -> int:
    with db.begin() as session:
        return session.scalar(select(func.count()).select_from(ScheduleFiringRow)) or 0


def wait_for_firings(db: sessionmaker[Session], expected: int) -> None:
    deadline = time.monotonic() + 30
    while firing_count(db) < expected and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(1.0)  # both servers pass at least once more: nothing may fire twice
    assert firing_count(db) == expected


FIRINGS = 12  # minutes the two servers' clocks go through, one restart halfway


@pytest.mark.parametrize("empty_db_url", ["postgres"], indirect=True)
def test_two_servers_fire_a_minutely_schedule_exactly_once_per_minute(
    db_url: str, db: sessionmaker[Session], tmp_path: Path
) -> None:
    clock = tmp_path / "clock"
    set_time(clock, T0)
    clocked = ("devkit.clocked_server", str(clock))
    env = {
        # the controllers run, but no Ray answers there: sweeps stay queued, firing needs no Ray
        "RAYSWEEP_RAY_ADDRESS": "http://127.0.0.1:9",
        "RAYSWEEP_CONTROLLER_INTERVAL_S": "0.2",
    }
    servers = [
        ServerProcess(tmp_path / f"home-{n}", db_url, env, clocked).start() for n in range(2)
    ]
    try:
        with servers[0].client() as client:
            created = client.post(
                "/api/v1/schedules",
                json=body(
                    name="minutely", cron="* * * * *", timezone="UTC", overlap="cancel_previous"
                ),
            )
            assert created.status_code == 201, created.text
        for n in range(1, FIRINGS + 1):
            if n == FIRINGS // 2:  # a restart between due times: one dies, another comes back
                servers[0].kill()
                servers[0] = ServerProcess(tmp_path / "home-0", db_url, env, clocked).start()
            set_time(clock, T0 + timedelta(minutes=n))
            wait_for_firings(db, n)
    finally:
        for server in servers:
            server.stop()
    with db.begin() as session:
        times = list(session.scalars(select(ScheduleFiringRow.scheduled_for)))
        experiments = session.scalar(select(func.count()).select_from(ExperimentRow))
        queued = session.scalar(
            select(func.count()).select_from(ExperimentRow).where(ExperimentRow.state == "queued")
        )
    expected = [datetime(2026, 11, 21, 12, m, tzinfo=UTC) for m in range(1, FIRINGS + 1)]
    assert sorted(times) == expected
    assert experiments == FIRINGS and queued == 1  # each new sweep cancelled the queued one before
