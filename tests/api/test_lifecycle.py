"""Pause, resume and delete through a real server (the state rules and what DELETE removes);
the engine side of pause and resume is proved by tests/engine/test_pause.py."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from pathlib import Path

from sqlalchemy import update
from sqlalchemy.orm import Session, sessionmaker

from raysweep.lifecycle import TrialState
from service.db.models.sweeps import CheckpointRow, ExperimentRow, TrialRow
from service.engine.recorder import Recorder
from service.usecases.recording import ResultStore
from service.usecases.reports import ResultReported, TrialStarted
from tests.conftest import BOTH_BACKENDS, ServerProcess, row_counts
from tests.factories import submit


def set_state(db: sessionmaker[Session], experiment_id: str, state: str) -> None:
    with db.begin() as session:
        session.execute(
            update(ExperimentRow).where(ExperimentRow.id == experiment_id).values(state=state)
        )


def stop_requested_at(db: sessionmaker[Session], experiment_id: str) -> datetime | None:
    with db.begin() as session:
        return session.get_one(ExperimentRow, experiment_id).stop_requested_at


def test_pause_and_resume_are_idempotent_and_409_in_the_wrong_state(
    server: ServerProcess, db: sessionmaker[Session]
) -> None:
    with server.client() as client:
        experiment_id = submit(client)
        url = f"/api/v1/experiments/{experiment_id}"
        paused = [client.post(f"{url}/pause") for _ in range(2)]
        resumed = [client.post(f"{url}/resume") for _ in range(2)]
        never_asked = stop_requested_at(db, experiment_id)
        set_state(db, experiment_id, "running")
        pausing = [client.post(f"{url}/pause") for _ in range(2)]
        asked = stop_requested_at(db, experiment_id)  # the reconciler's grace counts from it
        resume_while_pausing = client.post(f"{url}/resume")
        events = [e["kind"] for e in client.get(f"{url}/events").json()["items"]]
        set_state(db, experiment_id, "completed")
        pause_finished = client.post(f"{url}/pause")
        resume_finished = client.post(f"{url}/resume")
        missing = client.post("/api/v1/experiments/nope/pause")
    assert [r.status_code for r in paused + resumed + pausing] == [200] * 6
    assert [r.json()["state"] for r in paused] == ["paused", "paused"]
    assert [r.json()["state"] for r in resumed] == ["queued", "queued"]
    assert [r.json()["state"] for r in pausing] == ["pausing", "pausing"]
    assert never_asked is None and asked is not None
    assert events == ["submitted", "paused", "resume_requested", "pause_requested"]
    for conflict, message in (
        (resume_while_pausing, "experiment cannot move from pausing to queued"),
        (pause_finished, "experiment cannot move from completed to pausing"),
        (resume_finished, "experiment cannot move from completed to queued"),
    ):
        assert conflict.status_code == 409
        assert conflict.json()["error"]["message"] == message
    assert missing.status_code == 404


def test_cancelling_a_paused_sweep_cancels_its_waiting_trials(
    server: ServerProcess, db: sessionmaker[Session]
) -> None:
    with server.client() as client:
        experiment_id = submit(client)
        recorder = Recorder(ResultStore(experiment_id, "val_accuracy", "max").into(db)).start()
        recorder.submit(TrialStarted("t1", {"lr": 0.1}))
        assert recorder.close(30)
        with db.begin() as session:
            session.execute(update(TrialRow).values(state=TrialState.pending.value))
        set_state(db, experiment_id, "paused")
        cancelled = client.post(f"/api/v1/experiments/{experiment_id}/cancel").json()
        trials = client.get(f"/api/v1/experiments/{experiment_id}/trials").json()["items"]
    assert cancelled["state"] == "cancelled" and cancelled["finished_at"] is not None
    assert [t["state"] for t in trials] == ["cancelled"]


def test_resuming_ends_the_paused_trials_that_kept_no_checkpoint_visibly(
    server: ServerProcess, db: sessionmaker[Session]
) -> None:
    with server.client() as client:
        experiment_id = submit(client)
        recorder = Recorder(ResultStore(experiment_id, "val_accuracy", "max").into(db)).start()
        for name, checkpoint in (("kept", "/storage/t/checkpoint_1"), ("none", None)):
            recorder.submit(TrialStarted(name, {"lr": 0.1}))
            recorder.submit(ResultReported(name, 1, {"val_accuracy": 0.5}, checkpoint))
        recorder.submit(TrialStarted("untrained", {"lr": 0.2}))
        assert recorder.close(30)
        with db.begin() as session:
            session.execute(update(TrialRow).values(state=TrialState.pending.value))
        set_state(db, experiment_id, "paused")
        resumed = client.post(f"/api/v1/experiments/{experiment_id}/resume")
        trials = client.get(f"/api/v1/experiments/{experiment_id}/trials").json()["items"]
        events = client.get(f"/api/v1/experiments/{experiment_id}/events").json()["items"]
    assert resumed.status_code == 200 and resumed.json()["state"] == "queued"
    states = {t["tune_trial_id"]: t["state"] for t in trials}
    # the one that trained with no checkpoint would start over: it ends, saying why; the
    # checkpointed one and the one that never reported resume
    assert states == {"kept": "pending", "none": "cancelled", "untrained": "pending"}
    ended = next(t for t in trials if t["tune_trial_id"] == "none")
    assert "saved no checkpoint to continue from" in ended["early_stopping"]
    (event,) = [e for e in events if e["kind"] == "trial_cancelled"]
    assert event["message"].startswith(f"trial #{ended['number']}: cancelled at resume")


def test_delete_removes_rows_and_storage_and_refuses_active_experiments(
    server: ServerProcess, db: sessionmaker[Session]
) -> None:
    viewer = server.create_token("viewer-1", "viewer")
    with server.client() as client:
        keep = submit(client)
        doomed = submit(client)
        recorder = Recorder(ResultStore(doomed, "val_accuracy", "max").into(db)).start()
        recorder.submit(TrialStarted("t1", {"lr": 0.1}))
        recorder.submit(ResultReported("t1", 1, {"val_accuracy": 0.5}, "/nowhere/checkpoint_1"))
        assert recorder.close(30)
        storage = Path(server.home) / "storage" / doomed / "train" / "t1"
        storage.mkdir(parents=True)
        (storage / "state.pt").write_bytes(b"x")
        before = row_counts(db)

        refused = {state: None for state in ("queued", "running", "pausing", "cancelling")}
        for state in refused:
            set_state(db, doomed, state)
            refused[state] = client.delete(f"/api/v1/experiments/{doomed}").status_code
        set_state(db, doomed, "completed")
        with server.client(viewer) as viewer_client:
            forbidden = viewer_client.delete(f"/api/v1/experiments/{doomed}")
        unchanged = row_counts(db)
        deleted = client.delete(f"/api/v1/experiments/{doomed}")
        again = client.delete(f"/api/v1/experiments/{doomed}")
        gone = client.get(f"/api/v1/experiments/{doomed}")
        kept = client.get(f"/api/v1/experiments/{keep}")

    assert refused == {"queued": 409, "running": 409, "pausing": 409, "cancelling": 409}
    assert forbidden.status_code == 403 and unchanged == before
    assert before["checkpoints"] == before["trials"] == before["trial_results"] == 1
    assert deleted.status_code == 204 and deleted.content == b""
    assert again.status_code == 404 and gone.status_code == 404
    assert kept.status_code == 200
    after = row_counts(db)
    assert after["experiments"] == 1 and after["experiment_labels"] == before["experiment_labels"]
    assert after["trials"] == after["trial_results"] == after["checkpoints"] == 0
    assert after["events"] == 1  # the kept experiment's "submitted"
    assert not (Path(server.home) / "storage" / doomed).exists()
    with db.begin() as session:
        assert session.query(CheckpointRow).count() == 0


ROUNDS = 15


@BOTH_BACKENDS
def test_racing_cancels_pauses_and_resumes_leave_one_consistent_history(
    server: ServerProcess, db: sessionmaker[Session]
) -> None:
    """20 requests at once per round, several rounds: every answer is a 200 or a 409, a sweep
    some cancel answered 200 for ends cancelled, and its history holds one cancellation."""
    actions = ["cancel", "pause", "resume", "pause"] * 5
    for _ in range(ROUNDS):
        with server.client() as client:
            experiment_id = submit(client)
        url = f"/api/v1/experiments/{experiment_id}"

        def act(action: str, url: str = url) -> tuple[str, int, str]:
            with server.client() as client:
                response = client.post(f"{url}/{action}")
            state = response.json()["state"] if response.status_code == 200 else ""
            return action, response.status_code, state

        with ThreadPoolExecutor(max_workers=len(actions)) as pool:
            answers = list(pool.map(act, actions))
        assert {code for _, code, _ in answers} <= {200, 409}, answers
        with server.client() as client:
            final = client.get(url).json()["state"]
            kinds = [e["kind"] for e in client.get(f"{url}/events").json()["items"]]
        if any(action == "cancel" and code == 200 for action, code, _ in answers):
            assert final == "cancelled", (answers, kinds)
        assert kinds.count("cancelled") == (final == "cancelled"), kinds
        # each answer is a state the sweep really passed through, in the order stored
        if "cancelled" in kinds:
            assert "paused" not in kinds[kinds.index("cancelled") :], kinds
