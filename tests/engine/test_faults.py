"""Failures in a running sweep, by real SIGKILLs: a Train worker; a driver past its restarts.
(A killed driver that is resubmitted, and a killed server, are in test_promotion_asha.py.)

Each test then checks the database through the API: every trial present, iterations contiguous
from 1 with no duplicate, final metrics present, states, restarts and events recorded.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select

from service.db.models.sweeps import CheckpointRow
from service.db.session import create_db_engine, session_factory
from service.engine.cluster import RayConnection
from service.storage import exists
from tests.conftest import RAY_TESTS, InProcessServer, ServerProcess, row_counts
from tests.engine.sweeps import (
    TRAIN_WORKER,
    alive_actors,
    driver_pid,
    ended_sweep,
    events_of,
    experiment_state,
    fault_spec,
    kill,
    kill_a_train_worker,
    scripted_package,
    trial_where,
    trials_of,
    wait_for,
    wait_released,
)
from tests.factories import submit_spec

pytestmark = RAY_TESTS


def test_killed_train_worker_restarts_from_checkpoint_and_past_max_failures_fails_the_trial(
    engine_server: ServerProcess, ray_cluster: RayConnection, db_url: str
) -> None:
    """Trial 1 loses a worker once and finishes; trial 2 loses one twice with max_failures=1 and
    fails while the sweep goes on. Then: retention kept the latest checkpoint plus the best, and
    DELETE removes the experiment's rows and storage."""
    with engine_server.client() as client:
        # two workers: a lost worker restarts the whole group from the checkpoint
        spec = fault_spec(
            scripted_package(engine_server), resources={"num_workers": 2, "cpus_per_worker": 0.5}
        )
        # 1.5 s epochs: each kill lands while its trial has epochs left to train (a kill
        # follows a poll of the API and of Ray's state, a second or two on a fast machine)
        spec["search_space"]["epoch_s"] = {"type": "constant", "value": 1.5}
        experiment_id = submit_spec(client, spec)
        # checkpoints every 2 epochs: a kill after epoch 3 redoes epoch 3, which must not be
        # stored twice
        wait_for(lambda: trial_where(client, experiment_id, 0, iteration=3), 240, "trial 1 at 3")
        job = client.get(f"/api/v1/experiments/{experiment_id}").json()["driver_job_id"]
        killed = {kill_a_train_worker(ray_cluster, job)}
        wait_for(lambda: trial_where(client, experiment_id, 0, restarts=1), 180, "the restart")

        wait_for(lambda: trial_where(client, experiment_id, 1, iteration=1), 240, "trial 2")
        first_group = {a.pid for a in alive_actors(ray_cluster, TRAIN_WORKER, job)}
        killed.add(kill_a_train_worker(ray_cluster, job, killed))
        restarted = wait_for(
            lambda: trial_where(client, experiment_id, 1, restarts=1), 180, "its restart"
        )
        # the restart is counted as Ray Train decides it: kill a worker of the new group once it
        # trains (an epoch past the restart), not the old group's survivor still going away
        wait_for(
            lambda: trial_where(client, experiment_id, 1, iteration=restarted["iteration"] + 1),
            180,
            "its new worker group to train",
        )
        killed.add(kill_a_train_worker(ray_cluster, job, killed | first_group))

        experiment, trials = ended_sweep(client, experiment_id, 240, metric="loss")
        events = events_of(client, experiment_id)

    assert experiment["state"] == "completed", experiment["error"]
    first, second = trials
    assert first["state"] == "completed" and first["restarts"] == 1 and first["iteration"] == 8
    assert second["state"] == "failed" and second["restarts"] == 1, second
    assert "ActorDiedError" in second["error"] or "died" in second["error"], second["error"]
    restarted = [e for e in events if e["kind"] == "trial_restarted"]
    assert sorted(e["trial_id"] for e in restarted) == [first["id"], second["id"]]
    assert all("rank" in e["message"] for e in restarted)

    # retention: the finished trial kept its latest checkpoint plus its best, nothing else
    engine = create_db_engine(db_url)
    db = session_factory(engine)
    with db.begin() as session:
        checkpoints = session.execute(
            select(
                CheckpointRow.iteration,
                CheckpointRow.metric,
                CheckpointRow.uri,
                CheckpointRow.deleted,
            )
            .where(CheckpointRow.trial_id == first["id"])
            .order_by(CheckpointRow.iteration)
        ).all()
    assert [c.iteration for c in checkpoints] == [2, 4, 6, 8]
    best = min(checkpoints, key=lambda c: (c.metric, c.iteration))  # the loss, minimised
    kept = {8, best.iteration}
    for checkpoint in checkpoints:
        assert checkpoint.deleted is (checkpoint.iteration not in kept), checkpoint
        assert exists(checkpoint.uri) is (checkpoint.iteration in kept), checkpoint
    storage = Path(engine_server.home) / "storage" / experiment_id
    run_dir = storage / "train" / first["tune_trial_id"]
    on_disk = {p.name for p in run_dir.iterdir() if p.is_dir() and p.name.startswith("checkpoint_")}
    assert on_disk == {Path(c.uri).name for c in checkpoints if c.iteration in kept}

    with engine_server.client() as client:
        assert client.delete(f"/api/v1/experiments/{experiment_id}").status_code == 204
        assert client.get(f"/api/v1/experiments/{experiment_id}").status_code == 404
    assert not storage.exists()
    counts = row_counts(db)
    assert counts["trials"] == counts["trial_results"] == counts["checkpoints"] == 0
    assert counts["events"] == counts["experiments"] == 0
    engine.dispose()


def test_driver_past_max_driver_restarts_fails_the_sweep_with_the_reason(
    db_url: str, tmp_path: Path, ray_cluster: RayConnection
) -> None:
    server = InProcessServer(
        tmp_path / "home",
        db_url,
        {"RAYSWEEP_RAY_ADDRESS": str(ray_cluster.address), "RAYSWEEP_MAX_DRIVER_RESTARTS": "0"},
        controller=True,
    ).start()
    try:
        with server.client() as client:
            experiment_id = submit_spec(client, fault_spec(scripted_package(server)))
            job = wait_for(
                lambda: client.get(f"/api/v1/experiments/{experiment_id}").json()["driver_job_id"],
                60,
                "the driver job",
            )
            kill(wait_for(lambda: driver_pid(ray_cluster, job), 60, "the driver's pid"))
            experiment = wait_for(
                lambda: experiment_state(client, experiment_id, "failed"), 60, "the sweep to fail"
            )
            trials = trials_of(client, experiment_id)
    finally:
        server.stop()
    assert "RAYSWEEP_MAX_DRIVER_RESTARTS=0" in experiment["error"], experiment["error"]
    assert experiment["driver_restarts"] == 0 and experiment["finished_at"] is not None
    assert all(t["state"] == "cancelled" for t in trials), trials
    wait_released(ray_cluster, job)
