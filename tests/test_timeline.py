"""The timeline view on both databases: each trial's run and its waits for resources (read from
its ``trial_waiting`` events, ended by its next result or event), the latest trials first, cut
at ``limit`` and saying so."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from devkit.demo import seed_sweep
from raysweep.lifecycle import ExperimentState
from service.db.models.sweeps import EventRow, TrialRow
from tests.conftest import ServerProcess


def aware(at: datetime) -> datetime:
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


def add_event(session: Session, trial: TrialRow, kind: str, after_s: float) -> datetime:
    at = aware(trial.started_at or datetime.now(UTC)) + timedelta(seconds=after_s)
    session.add(
        EventRow(
            experiment_id=trial.experiment_id,
            trial_id=trial.id,
            kind=kind,
            message=kind,
            created_at=at,
        )
    )
    return at


def seed_waits(db: sessionmaker[Session], sweep: str) -> dict[int, list[tuple[datetime, Any]]]:
    """Waits on four trials (by number): (began, the end the view should find)."""
    with db.begin() as session:
        trials = {
            t.number: t
            for t in session.scalars(select(TrialRow).where(TrialRow.experiment_id == sweep))
        }
        began = {n: aware(t.started_at) for n, t in trials.items() if t.started_at}
        # each simulated trial reports epoch k at began + k seconds
        expected = {
            2: [
                (
                    add_event(session, trials[2], "trial_waiting", 0.5),
                    began[2] + timedelta(seconds=1),
                )
            ],
            5: [
                (
                    add_event(session, trials[5], "trial_waiting", 1.5),
                    began[5] + timedelta(seconds=2),
                ),
                (
                    add_event(session, trials[5], "trial_waiting", 2.5),
                    began[5] + timedelta(seconds=3),
                ),
            ],
        }
        # an event before its next result ends the wait
        waited = add_event(session, trials[6], "trial_waiting", 1.2)
        expected[6] = [(waited, add_event(session, trials[6], "trial_resumed", 1.4))]
        # the running trial waits now: past its last result, nothing after it
        expected[8] = [(add_event(session, trials[8], "trial_waiting", 20), None)]
        trials[8].waiting_for = "waiting for 1 CPU"
    return expected


def test_the_timeline_gives_each_trials_run_and_waits_latest_first_and_says_when_it_is_cut(
    server: ServerProcess, db: sessionmaker[Session]
) -> None:
    sweep = seed_sweep(db, trials=8, max_t=9, running=2, asha=False, state=ExperimentState.running)
    expected = seed_waits(db, sweep)
    with server.client() as client:
        body = client.get(f"/api/v1/experiments/{sweep}/timeline").json()
        cut = client.get(f"/api/v1/experiments/{sweep}/timeline", params={"limit": 3}).json()
        missing = client.get("/api/v1/experiments/nope/timeline")
        too_many = client.get(f"/api/v1/experiments/{sweep}/timeline", params={"limit": 5001})

    assert (body["total_trials"], body["limit"], body["truncated"]) == (8, 500, False)
    assert [t["trial_number"] for t in body["trials"]] == [8, 7, 6, 5, 4, 3, 2, 1]
    states = {t["trial_number"]: t["state"] for t in body["trials"]}
    # seed_sweep: the fourth fails, the last two run, the rest (no ASHA) complete
    assert states == {
        1: "completed",
        2: "completed",
        3: "completed",
        4: "failed",
        5: "completed",
        6: "completed",
        7: "running",
        8: "running",
    }
    with db.begin() as session:
        stored = {
            t.number: t
            for t in session.scalars(select(TrialRow).where(TrialRow.experiment_id == sweep))
        }
    for trial in body["trials"]:
        row = stored[trial["trial_number"]]
        assert trial["trial_id"] == row.id
        assert datetime.fromisoformat(trial["started_at"]) == aware(row.started_at)
        if row.finished_at is None:
            assert trial["finished_at"] is None
        else:
            assert datetime.fromisoformat(trial["finished_at"]) == aware(row.finished_at)
        waits = [
            (datetime.fromisoformat(w["since"]), w["until"] and datetime.fromisoformat(w["until"]))
            for w in trial["waits"]
        ]
        assert waits == expected.get(trial["trial_number"], [])
        assert [w["ongoing"] for w in trial["waits"]] == [trial["trial_number"] == 8] * len(waits)

    assert (cut["total_trials"], cut["limit"], cut["truncated"]) == (8, 3, True)
    assert [t["trial_number"] for t in cut["trials"]] == [8, 7, 6]
    assert cut["trials"][2]["waits"] == body["trials"][2]["waits"]
    assert missing.status_code == 404 and too_many.status_code == 422
