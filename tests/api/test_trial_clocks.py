"""When each trial last reported and since when it waits: what the web UI needs to show a stuck
sweep (issue 45), in the trial reads and in the sweep's own read and list row."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from raysweep.lifecycle import ExperimentState, TrialState
from service.db.models.sweeps import EventRow, ExperimentRow, ResultRow, TrialRow
from service.engine.recorder import Recorder
from service.usecases.recording import ResultStore
from service.usecases.reports import ResultReported, TrialEnded, TrialStarted, TrialWaiting
from tests.conftest import BOTH_BACKENDS, ServerProcess, minimal_spec

REASON = "waiting for resources: needs 1 worker(s) x {CPU: 1}; free {CPU: 0} of {CPU: 2}"


def at(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


def move_back(db: sessionmaker[Session], experiment_id: str, minutes: int) -> None:
    """Every result and event of the sweep ``minutes`` earlier: a wait and a silence that long."""
    with db.begin() as session:
        ids = select(TrialRow.id).where(TrialRow.experiment_id == experiment_id)
        for result in session.scalars(select(ResultRow).where(ResultRow.trial_id.in_(ids))):
            result.reported_at -= timedelta(minutes=minutes)
        for event in session.scalars(
            select(EventRow).where(EventRow.experiment_id == experiment_id)
        ):
            event.created_at -= timedelta(minutes=minutes)


@BOTH_BACKENDS  # the latest report and wait are grouped maxima of timestamps in each database
def test_trials_and_their_sweep_say_when_each_last_reported_and_since_when_it_waits(
    server: ServerProcess, db: sessionmaker[Session]
) -> None:
    with server.client() as client:
        experiment_id = client.post("/api/v1/experiments", json=minimal_spec()).json()["id"]
        recorder = Recorder(ResultStore(experiment_id, "val_accuracy", "max").into(db)).start()
        recorder.submit(TrialStarted("t1", {"lr": 0.1}))
        for epoch in (1, 2):
            recorder.submit(ResultReported("t1", epoch, {"val_accuracy": 0.3 * epoch}))
        recorder.submit(TrialStarted("t2", {"lr": 0.2}))
        recorder.submit(TrialWaiting("t2", REASON))
        assert recorder.close(30)
        move_back(db, experiment_id, 31)
        with db.begin() as session:
            trials = {
                t.tune_trial_id: t.id
                for t in session.scalars(
                    select(TrialRow).where(TrialRow.experiment_id == experiment_id)
                )
            }
        now = datetime.now(UTC)
        url = f"/api/v1/experiments/{experiment_id}"

        reporting = client.get(f"/api/v1/trials/{trials['t1']}").json()
        waiting = client.get(f"/api/v1/trials/{trials['t2']}").json()
        silent_for = now - at(reporting["last_reported_at"])  # type: ignore[operator]
        assert timedelta(minutes=31) <= silent_for < timedelta(minutes=32)
        assert reporting["waiting_since"] is None and reporting["waiting_for"] is None
        assert waiting["last_reported_at"] is None and waiting["waiting_for"] == REASON
        waited = now - at(waiting["waiting_since"])  # type: ignore[operator]
        assert timedelta(minutes=31) <= waited < timedelta(minutes=32)
        page = {t["tune_trial_id"]: t for t in client.get(f"{url}/trials").json()["items"]}
        assert page["t1"]["last_reported_at"] == reporting["last_reported_at"]
        assert page["t2"]["waiting_since"] == waiting["waiting_since"]

        def listed() -> dict[str, Any]:
            items = client.get("/api/v1/experiments").json()["items"]
            return next(item for item in items if item["id"] == experiment_id)

        for read in (client.get(url).json(), listed()):
            # the waiting trial first, then the one silent longest
            assert [(c["trial_id"], c["waiting_for"]) for c in read["running"]] == [
                (trials["t2"], REASON),
                (trials["t1"], None),
            ]
            first, second = read["running"]
            assert first["waiting_since"] == waiting["waiting_since"]
            assert second["last_reported_at"] == reporting["last_reported_at"]
            assert second["iteration"] == 2 and second["trial_number"] == 1
            assert second["started_at"] is not None

        # placed at last: no longer waiting; ended: no longer running
        recorder = Recorder(ResultStore(experiment_id, "val_accuracy", "max").into(db)).start()
        recorder.submit(TrialWaiting("t2", None))
        recorder.submit(TrialEnded("t1", TrialState.completed))
        assert recorder.close(30)
        placed = client.get(f"/api/v1/trials/{trials['t2']}").json()
        assert placed["waiting_for"] is None and placed["waiting_since"] is None
        running = client.get(url).json()["running"]
        assert [(c["trial_id"], c["waiting_since"]) for c in running] == [(trials["t2"], None)]

        with db.begin() as session:
            session.get_one(ExperimentRow, experiment_id).state = ExperimentState.cancelled
        assert client.get(url).json()["running"] == []
        assert listed()["running"] == []


def test_a_trial_that_waited_twice_waits_since_its_latest_wait(
    server: ServerProcess, db: sessionmaker[Session]
) -> None:
    with server.client() as client:
        experiment_id = client.post("/api/v1/experiments", json=minimal_spec()).json()["id"]
        recorder = Recorder(ResultStore(experiment_id, "val_accuracy", "max").into(db)).start()
        recorder.submit(TrialStarted("t1", {"lr": 0.1}))
        recorder.submit(TrialWaiting("t1", REASON))
        recorder.submit(TrialWaiting("t1", None))
        assert recorder.flush(30)
        move_back(db, experiment_id, 60)
        recorder.submit(TrialWaiting("t1", REASON))
        assert recorder.close(30)
        trial = client.get(f"/api/v1/experiments/{experiment_id}/trials").json()["items"][0]
        waited = datetime.now(UTC) - at(trial["waiting_since"])  # type: ignore[operator]
        assert waited < timedelta(minutes=5)
        with db.begin() as session:
            kinds = session.scalars(
                select(EventRow.kind).where(EventRow.experiment_id == experiment_id)
            ).all()
        assert kinds.count("trial_waiting") == 2 and kinds.count("trial_placed") == 1
        # the timeline's first wait ends where its workers were placed, the second goes on
        with db.begin() as session:
            placed = session.scalars(
                select(EventRow.created_at).where(
                    EventRow.experiment_id == experiment_id, EventRow.kind == "trial_placed"
                )
            ).one()
        (bar,) = client.get(f"/api/v1/experiments/{experiment_id}/timeline").json()["trials"]
        first, second = bar["waits"]
        assert at(first["until"]) == placed.replace(tzinfo=UTC) and second["until"] is None
