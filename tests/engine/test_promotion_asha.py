"""Promotion ASHA on real Ray, through a driver and a server killed mid-sweep: trials pause at
rungs holding nothing, the best are promoted and resume from their checkpoints, the stored
decisions replay to the rule; the driver, SIGKILLed while trials are paused, is resubmitted and
restores Tune's state, and the server, SIGKILLed and started again, misses nothing the sweep
stored meanwhile. One sweep for all of it: each costs minutes of trial starts on 2 cores. It
sweeps the torch-free scripted trainer (the scheduler and the recovery are tested, not
training)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from ray.util.state import list_actors
from sqlalchemy import select

from service.db.models.sweeps import ExperimentRow, ResultRow
from service.db.session import create_db_engine, session_factory
from service.engine.cluster import RayConnection
from service.storage import train_runs_uri
from tests.conftest import RAY_TESTS, ServerProcess
from tests.engine.sweeps import (
    TRAIN_WORKER,
    driver_pid,
    ended_sweep,
    events_of,
    kill,
    ray_leftovers,
    scripted_package,
    trials_of,
    wait_for,
    wait_released,
)
from tests.factories import submit_spec
from tests.packages import scripted_code

pytestmark = RAY_TESTS

REDUCTION_FACTOR = 2
RUNNING = 2


def promotion_spec(package: str) -> dict[str, Any]:
    return {
        "name": "scripted-promotion",
        "code": scripted_code(package),
        "metric": "loss",
        "mode": "min",
        "search_space": {
            # a wide lr range: the rungs order the trials clearly
            "lr": {"type": "loguniform", "low": 1e-4, "high": 0.1},
            # an epoch's length: the sweep still trains while the server is down, later
            "epoch_s": {"type": "constant", "value": 1.0},
        },
        "search": {
            "algorithm": "random",
            "num_samples": 4,
            "seed": 3,
            "max_concurrent_trials": RUNNING,
        },
        "early_stopping": {
            "scheduler": "asha_promotion",
            "max_t": 4,
            "grace_period": 1,
            "reduction_factor": REDUCTION_FACTOR,
        },
        "resources": {"num_workers": 1, "cpus_per_worker": 0.5},
        "fault_tolerance": {"max_failures": 0, "checkpoint_frequency": 1, "checkpoints_to_keep": 1},
    }


def replay(decisions: list[dict[str, Any]]) -> None:
    """Replay the stored decisions, in the order they were made, against the rule: a trial
    joins its rung when it pauses (or completes) with the rank and rung size stored (the loss:
    lower is better); it is promoted only from its rung's top floor(n / rf), once."""
    rungs: dict[int, dict[int, float]] = {}
    promoted: set[tuple[int, int]] = set()
    for d in decisions:
        rung = rungs.setdefault(d["milestone"], {})
        if d["decision"] in ("pause", "complete"):
            rung[d["trial_id"]] = d["value"]
            assert d["rung_size"] == len(rung), d
            assert d["rank"] == 1 + sum(v < d["value"] for v in rung.values()), d
        elif d["decision"] == "promote":
            top = sorted(rung, key=rung.__getitem__)
            assert d["trial_id"] in top[: math.floor(len(rung) / REDUCTION_FACTOR)], (d, rung)
            assert (d["trial_id"], d["milestone"]) not in promoted
            promoted.add((d["trial_id"], d["milestone"]))
        else:  # a trial still paused when nothing was left to promote ends there
            assert d["decision"] == "stop" and d["trial_id"] in rung, d


def checkpoints(server: ServerProcess, experiment_id: str) -> int:
    """The checkpoints the sweep's Train runs hold on storage (the server's default root)."""
    runs = Path(train_runs_uri(str((server.home / "storage").resolve()), experiment_id))
    return sum(1 for _ in runs.glob("*/checkpoint_*"))


def test_promotion_asha_pauses_promotes_and_survives_a_killed_driver_and_server(
    engine_process: ServerProcess, ray_cluster: RayConnection, db_url: str
) -> None:
    workers_seen: list[int] = []

    def live_train_workers() -> int:
        actors = list_actors(
            address=ray_cluster.address,
            filters=[("class_name", "=", TRAIN_WORKER), ("state", "=", "ALIVE")],
            raise_on_missing_output=False,
        )
        return len(actors)

    def some_trial_paused(client: Any, experiment_id: str) -> bool:
        workers_seen.append(live_train_workers())
        return any(t["state"] == "paused" for t in trials_of(client, experiment_id))

    engine = create_db_engine(db_url)
    db = session_factory(engine)

    def stored_results() -> int:
        with db.begin() as session:
            return len(session.scalars(select(ResultRow.id)).all())

    with engine_process.client() as client:
        experiment_id = submit_spec(client, promotion_spec(scripted_package(engine_process)))
        wait_for(lambda: some_trial_paused(client, experiment_id), 300, "a paused trial")
        job = client.get(f"/api/v1/experiments/{experiment_id}").json()["driver_job_id"]
        kill(wait_for(lambda: driver_pid(ray_cluster, job), 30, "the driver's pid"))

        def resumes() -> int:
            return [e["kind"] for e in events_of(client, experiment_id)].count("trial_resumed")

        resumes_at_kill = resumes()

        def resubmitted() -> dict[str, Any] | None:
            # the reconciler counts the restart before it submits the job (intent, then Ray
            # call, then outcome), so wait for the new job id too
            read = client.get(f"/api/v1/experiments/{experiment_id}").json()
            fresh = read["driver_restarts"] == 1 and read["driver_job_id"] != job
            return read if fresh and read["state"] == "running" else None

        restarted = wait_for(resubmitted, 60, "the driver to be resubmitted")
        wait_for(
            lambda: resumes() > resumes_at_kill,
            180,
            "the new driver to resume a trial",
        )
        # the new driver removed all the dead attempt left in Ray before it resumed a trial
        left = ray_leftovers(ray_cluster, job)
        assert left == [], f"the dead attempt {job} still has {left} in Ray"

    # the sweep goes on without the server: its trials train and checkpoint, and its driver,
    # which holds no database credentials, keeps their reports until the server is back
    engine_process.kill()
    while_down, checkpointed = stored_results(), checkpoints(engine_process, experiment_id)
    wait_for(
        lambda: checkpoints(engine_process, experiment_id) > checkpointed,
        180,
        "a trial to train on while the server is down",
    )
    assert stored_results() == while_down  # nothing reached the database meanwhile
    engine_process.start()

    with engine_process.client() as client:

        def ended_or_sampled() -> bool:
            workers_seen.append(live_train_workers())
            read = client.get(f"/api/v1/experiments/{experiment_id}").json()
            return read["state"] in ("completed", "failed")

        wait_for(ended_or_sampled, 600, "the sweep to end")
        experiment, trials = ended_sweep(client, experiment_id, 10, metric="loss")
        decisions = {
            t["id"]: client.get(f"/api/v1/trials/{t['id']}/decisions").json() for t in trials
        }
        rungs = client.get(f"/api/v1/experiments/{experiment_id}/rungs").json()
        events = [e["kind"] for e in events_of(client, experiment_id)]

    assert experiment["state"] == "completed", experiment["error"]
    assert restarted["driver_job_id"] == f"raysweep-{experiment_id}-1"
    assert experiment["driver_restarts"] == 1
    assert events.count("driver_submitted") == 2 and events.count("driver_lost") == 1
    with db.begin() as session:
        assert session.get_one(ExperimentRow, experiment_id).driver_attempts == 2
    engine.dispose()
    # paused trials hold no workers: never more live Train workers than trials let run at once
    assert max(workers_seen) <= RUNNING, workers_seen
    # a trial Tune started within its last state snapshot's period (2 s) before the driver's
    # death is unknown to the restored Tune, which samples another in its place: it ends
    # cancelled, untrained (warm groups start a trial at once when another pauses, so the kill
    # at the first pause can land there)
    unknown = [t for t in trials if t["iteration"] == 0]
    assert all(t["state"] == "cancelled" for t in unknown), unknown
    trials = [t for t in trials if t["iteration"] > 0]
    assert len(trials) == 4
    assert {t["state"] for t in trials} <= {"completed", "pruned"}
    completed = [t for t in trials if t["state"] == "completed"]
    assert completed and all(t["iteration"] == 4 for t in completed)
    made = sorted(
        (dict(d, trial_id=t) for t, ds in decisions.items() for d in ds),
        key=lambda d: d["decided_at"],
    )
    replay(made)
    promotions = [d for d in made if d["decision"] == "promote"]
    assert promotions and "trial_promoted" in events and "trial_paused" in events
    for trial in trials:
        mine = decisions[trial["id"]]
        # a trial trained past a rung only when promoted from it (epochs are contiguous and
        # none stored twice: ended_sweep checked each trial's results)
        for mark in (1, 2):
            if trial["iteration"] > mark:
                assert any(d["milestone"] == mark and d["decision"] == "promote" for d in mine)
        if trial["state"] == "pruned":
            assert mine[-1]["decision"] == "stop" and mine[-1]["milestone"] == trial["iteration"]
            assert trial["early_stopping"].startswith(f"pruned at epoch {trial['iteration']}")
    by_mark = {r["milestone"]: r for r in rungs["rungs"]}
    assert rungs["scheduler"] == "asha_promotion" and by_mark[1]["reached"] == 4
    assert by_mark[1]["promoted"] == sum(d["milestone"] == 1 for d in promotions)
    assert by_mark[4]["completed"] == len(completed)
    # the job that finished left nothing in Ray either
    wait_released(ray_cluster, experiment["driver_job_id"])
