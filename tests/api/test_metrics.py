"""``GET /metrics`` through a real server: Prometheus text that a real parser reads, counts equal
to the database's, request latency by route template, controller loop lag, and a token needed."""

from __future__ import annotations

import time
from pathlib import Path

import httpx
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import func, select, update
from sqlalchemy.orm import Session, sessionmaker

from devkit.demo import seed_sweep
from raysweep.lifecycle import ExperimentState
from service.db.models.sweeps import ExperimentRow, ResultRow, TrialRow
from tests.conftest import ServerProcess


def scrape(server: ServerProcess, token: str | None = None) -> dict[tuple[str, tuple], float]:
    """Every sample as {(name, sorted labels): value}."""
    with server.client(token) as client:
        response = client.get("/metrics")
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/plain")
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(response.text)
        for sample in family.samples
    }


def test_metrics_count_what_the_database_holds_and_time_requests(
    server: ServerProcess, db: sessionmaker[Session]
) -> None:
    seed_sweep(db, trials=6, max_t=4, name="metered", running=2)
    seed_sweep(db, trials=3, max_t=2, name="done", running=0, state=ExperimentState.completed)
    with db.begin() as session:
        session.execute(update(ExperimentRow).values(driver_restarts=2))
        trials = dict(
            session.execute(select(TrialRow.state, func.count()).group_by(TrialRow.state)).all()
        )
        results = session.scalar(select(func.count()).select_from(ResultRow))
    # a token is needed (the client's 30 s, not httpx's 5 s: a clean clone's suite once kept
    # this first request of an in-process server waiting past 5 s under the Ray tests' load)
    assert httpx.get(f"{server.url}/metrics", timeout=30).status_code == 401
    viewer = server.create_token("prometheus", "viewer")
    with server.client(viewer) as client:
        for _ in range(3):
            assert client.get("/api/v1/experiments").status_code == 200
        assert client.get("/api/v1/experiments/nope").status_code == 404
    samples = scrape(server, viewer)
    assert samples[("raysweep_experiments", (("state", "running"),))] == 1
    assert samples[("raysweep_experiments", (("state", "completed"),))] == 1
    for state, count in trials.items():
        assert samples[("raysweep_trials", (("state", state),))] == count
    assert samples[("raysweep_results_stored_total", ())] == results
    assert samples[("raysweep_driver_restarts_total", ())] == 4
    listed = (("method", "GET"), ("route", "/api/v1/experiments"), ("status", "200"))
    assert samples[("raysweep_http_request_duration_seconds_count", listed)] == 3
    missing = (("method", "GET"), ("route", "/api/v1/experiments/{experiment_id}"),
               ("status", "404"))  # fmt: skip
    assert samples[("raysweep_http_request_duration_seconds_count", missing)] == 1
    # an API-only server runs no controller loop
    assert not any(name.startswith("raysweep_controller") for name, _ in samples)
    # a token of another project counts nothing of this one's
    with server.client() as admin:
        assert admin.post("/api/v1/projects", json={"name": "elsewhere"}).status_code == 201
    outsider = scrape(server, server.create_token("their-prometheus", "viewer", "elsewhere"))
    stored = ("raysweep_experiments", "raysweep_trials", "raysweep_final_runs")
    assert not [key for key in outsider if key[0] in stored], outsider
    assert outsider[("raysweep_results_stored_total", ())] == 0
    assert outsider[("raysweep_driver_restarts_total", ())] == 0
    assert scrape(server)[("raysweep_results_stored_total", ())] == results  # an admin: all


def test_controller_loops_report_their_lag_and_failed_passes(
    db_url: str, db: sessionmaker[Session], tmp_path: Path
) -> None:
    # a running sweep whose driver cannot be asked about: no Ray answers at that address, so
    # the reconciler fails every pass while the schedule firer passes
    running = seed_sweep(db, trials=2, max_t=2, name="r", running=1)
    with db.begin() as session:
        session.execute(
            update(ExperimentRow)
            .where(ExperimentRow.id == running)
            .values(driver_job_id=f"raysweep-{running}-0")
        )
    server = ServerProcess(
        tmp_path / "home",
        db_url,
        {"RAYSWEEP_RAY_ADDRESS": "http://127.0.0.1:9", "RAYSWEEP_CONTROLLER_INTERVAL_S": "0.2"},
    ).start()
    lag = "raysweep_controller_lag_seconds"
    expected = {"reconciler", "dispatcher", "schedule-firer", "promoter"}
    try:
        # a loop's lag shows once it has finished a first pass; on a loaded machine the server
        # answers before every loop has, so wait (bounded) for all four rather than racing them
        deadline = time.monotonic() + 60
        while True:
            first = scrape(server)
            loops = {dict(labels)["loop"] for name, labels in first if name == lag}
            if expected <= loops or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        second = scrape(server)
    finally:
        server.stop()
    assert expected <= loops
    firer = (("loop", "schedule-firer"),)
    assert (
        second[("raysweep_controller_pass_seconds_count", firer)]
        >= first[("raysweep_controller_pass_seconds_count", firer)]
        >= 1
    )
    assert 0 <= second[("raysweep_controller_lag_seconds", firer)] < 60
    reconciler = (("loop", "reconciler"),)
    assert second[("raysweep_controller_pass_errors_total", reconciler)] >= 1
    assert ("raysweep_controller_pass_errors_total", firer) not in second
