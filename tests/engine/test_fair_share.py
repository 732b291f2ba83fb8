"""Two projects on one cluster, on real Ray: a quota, fair share with preemption, the compute
ledger and a compute budget, in one run (each trial's start costs seconds on this machine).

The 2-CPU head holds two trials of 1 worker x 0.9 CPU (their functions' 0.01 CPU in it). Project A
submits first a PBT sweep of long trials (a population of 2 whose first step comes after the
test: each trial is one segment, checkpointed every epoch) and a quota of 1 worker: it runs one
trial, the next waiting on its quota, visibly. (Promotion ASHA's trials yield the same way: the
kit's loop asks the gate at each checkpoint of a segment, whichever scheduler set the segment;
this test ran promotion ASHA until PBT came.) Its quota is then lifted (A takes both slots) and
project B submits short trials with a compute budget. A holds the whole cluster and its trials
would not end for minutes: with fair share (equal weights) A's longest-running trial yields at
its next checkpoint, B's trial starts, and the two split the cluster until B's budget is spent;
then A's trial resumes from that checkpoint, its epochs contiguous. B keeps trials waiting
throughout (a project whose trials do not ask leaves its share to the other: the gate never
holds a slot idle)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from service.db.models.access import ComputeUsageRow
from service.db.models.sweeps import TrialRow
from service.engine.cluster import RayConnection
from tests.conftest import RAY_TESTS, ServerProcess
from tests.engine.sweeps import (
    check_results_contiguous,
    ended_sweep,
    events_of,
    experiment_state,
    grid_spec,
    trials_of,
    wait_for,
    wait_released,
)
from tests.factories import submit_spec

pytestmark = RAY_TESTS


# A's trials: far longer than the test (they end when A's sweep is cancelled)
LONG_EPOCHS = 3000
BUDGET_S = 30  # project B's compute budget, in worker-seconds


def one_worker_spec(name: str, project: str, trials: int, **changes: Any) -> dict[str, Any]:
    lrs = [0.01 + 0.001 * n for n in range(trials)]
    sections: dict[str, Any] = {
        # twice the slots: each project always has trials waiting at the gate, so a slot that
        # frees goes by share, not to whichever project happens to be asking
        "search": {"algorithm": "grid", "num_samples": 1, "max_concurrent_trials": 4},
        "early_stopping": {"scheduler": "none", "max_t": 1},
        "resources": {"num_workers": 1, "cpus_per_worker": 0.9},
    }
    return grid_spec(name, lrs, project=project, **{**sections, **changes})


@pytest.fixture
def shared_server(
    db_url: str, tmp_path: Path, ray_cluster: RayConnection
) -> Iterator[ServerProcess]:
    process = ServerProcess(
        tmp_path / "home",
        db_url,
        {
            "RAYSWEEP_RAY_ADDRESS": str(ray_cluster.address),
            "RAYSWEEP_MAX_CONCURRENT_SWEEPS": "3",
            "RAYSWEEP_CLUSTERS": json.dumps([{"name": "local", "autoscaling": False}]),
        },
    ).start()
    yield process
    process.stop()


def segments(db: sessionmaker[Session], experiment_id: str) -> list[ComputeUsageRow]:
    with db.begin() as session:
        return list(
            session.scalars(
                select(ComputeUsageRow).where(ComputeUsageRow.experiment_id == experiment_id)
            )
        )


def most_at_once(rows: list[ComputeUsageRow], before: datetime | None = None) -> int:
    """The most workers the leases held together (those begun before ``before``)."""
    edges = sorted(
        [(r.started_at, r.workers) for r in rows if before is None or r.started_at < before]
        + [(r.ended_at, -r.workers) for r in rows if before is None or r.started_at < before],
        key=lambda edge: (edge[0], edge[1]),
    )
    held = most = 0
    for _, change in edges:
        held += change
        most = max(most, held)
    return most


def iso(moment: datetime) -> str:
    return moment.isoformat().replace("+00:00", "Z")


def cancel_at_teardown(
    request: pytest.FixtureRequest, server: ServerProcess, experiment_id: str
) -> None:
    """A failing run must not leave its sweep's thousands of epochs holding the shared cluster
    under the tests after it (a sweep that ended answers 409, which is ignored)."""

    def cancel() -> None:
        with server.client() as client:
            client.post(f"/api/v1/experiments/{experiment_id}/cancel")
            # the server enforces it: it must be up until the sweep has ended
            ended = ("cancelled", "completed", "failed")
            wait_for(lambda: experiment_state(client, experiment_id, *ended), 240, "the cancel")

    request.addfinalizer(cancel)


def test_two_projects_share_the_cluster_fairly_by_preemption_and_a_budget_ends_a_sweep(
    shared_server: ServerProcess,
    ray_cluster: RayConnection,
    db: sessionmaker[Session],
    request: pytest.FixtureRequest,
) -> None:
    # B may hold 30 worker-seconds: a few of its trials, not its twelve
    budget = {"worker_hours": BUDGET_S / 3600}
    with shared_server.client() as client:
        for name, quota in (("fair-a", 1), ("fair-b", None)):
            created = client.post("/api/v1/projects", json={"name": name, "max_workers": quota})
            assert created.status_code == 201, created.text
        a_spec = one_worker_spec(
            "first",
            "fair-a",
            2,
            search={"algorithm": "random", "num_samples": 2, "max_concurrent_trials": 2},
            early_stopping={
                "scheduler": "pbt",
                "max_t": LONG_EPOCHS,
                "pbt": {"perturbation_interval": LONG_EPOCHS - 1},
            },
        )
        # a population of 2 sampled from a range (PBT's population is num_samples)
        a_spec["search_space"]["lr"] = {"type": "loguniform", "low": 0.01, "high": 0.02}
        first = submit_spec(client, a_spec)
        cancel_at_teardown(request, shared_server, first)
        # A alone: one trial at a time, the next waiting on the quota and saying so
        waits = wait_for(
            lambda: [
                t["waiting_for"]
                for t in trials_of(client, first)
                if "quota" in (t["waiting_for"] or "")
            ],
            240,
            "a trial waiting on project A's quota",
        )
        lifted = client.patch("/api/v1/projects/fair-a", json={"max_workers": None})
        assert lifted.status_code == 200 and lifted.json()["max_workers"] is None
        lifted_at = datetime.now(UTC)
        wait_for(
            lambda: all(t["started_at"] and not t["waiting_for"] for t in trials_of(client, first)),
            120,
            "A to hold both slots",
        )
        second = submit_spec(
            client,
            one_worker_spec(
                "second",
                "fair-b",
                12,
                early_stopping={"scheduler": "none", "max_t": 2},
                stop={"budget": budget},
            ),
        )
        second_read, second_trials = ended_sweep(client, second, 400, "project B's sweep to end")
        # B is done: A's trial that yielded to it resumes from its checkpoint
        [preempted] = [e for e in events_of(client, first) if e["kind"] == "trial_preempted"]
        paused_at = preempted["data"]["iteration"]
        wait_for(
            lambda: any(
                t["id"] == preempted["trial_id"] and t["iteration"] > paused_at + 1
                for t in trials_of(client, first)
            ),
            120,
            "A's preempted trial to train again",
        )
        cancel = client.post(f"/api/v1/experiments/{first}/cancel")
        assert cancel.status_code == 200
        first_read = wait_for(
            lambda: experiment_state(client, first, "cancelled"), 240, "project A's sweep to end"
        )
        # each trial's epochs 1..n, each once: the preempted one's across its pause too
        check_results_contiguous(client, trials_of(client, first))
        events = {e: events_of(client, e) for e in (first, second)}
        jobs = [read["driver_job_id"] for read in (first_read, second_read)]
        a_rows, b_rows = segments(db, first), segments(db, second)
        window_start = min(r.started_at for r in b_rows)
        window_end = max(r.ended_at for r in b_rows)
        report = client.get(
            "/api/v1/usage", params={"from": iso(window_start), "to": iso(window_end)}
        ).json()
        everything = client.get(
            "/api/v1/usage",
            params={
                "from": iso(window_start - timedelta(hours=1)),
                "to": iso(window_end + timedelta(hours=1)),
            },
        ).json()
    for job in jobs:
        wait_released(ray_cluster, job)

    # the quota held A to 1 worker until it was lifted (2 fit), and said why the next waited
    assert most_at_once(a_rows, before=lifted_at) == 1
    waited = [e["message"] for e in events[first] if e["kind"] == "trial_waiting"]
    assert any("quota" in w and "max_workers 1" in w for w in waits + waited), (waits, waited)
    assert most_at_once(a_rows) == 2  # and A took both slots once it could

    # preemption: A's trial granted first stopped at a checkpoint when B's first trial asked;
    # B's trial got its slot then, not when one of A's trials would have ended (minutes later);
    # the preempted trial resumed once B was done, in a second lease
    assert "to yield its workers to a project below its fair share" in preempted["message"]
    assert 1 <= paused_at < LONG_EPOCHS
    with db.begin() as session:
        asked = min(
            row.started_at
            for row in session.scalars(select(TrialRow).where(TrialRow.experiment_id == second))
            if row.started_at is not None
        )
    assert (window_start - asked).total_seconds() <= 20, (window_start, asked)
    paused, resumed = sorted(
        (r for r in a_rows if r.trial_id == preempted["trial_id"]), key=lambda r: r.started_at
    )
    assert paused.started_at == min(r.started_at for r in a_rows)
    assert paused.ended_at <= window_start + timedelta(seconds=2), (paused, window_start)
    assert resumed.started_at >= window_end - timedelta(seconds=2), (resumed, window_end)

    # over the contested window the two projects held the cluster about equally
    split = report["by_project"]
    a_share, b_share = split["fair-a"]["worker_seconds"], split["fair-b"]["worker_seconds"]
    assert abs(a_share - b_share) <= 0.2 * max(a_share, b_share), (a_share, b_share, report)

    # B's budget ended it, with an event naming what was spent, trials left unrun
    assert second_read["state"] == "completed", second_read["error"]
    [spent] = [e for e in events[second] if e["kind"] == "budget_spent"]
    assert f"of {BUDGET_S / 3600:g} worker-hours (stop.budget)" in spent["message"], spent
    assert len(second_trials) < 12, second_trials
    b_total = everything["by_experiment"][second]["worker_seconds"]
    # it stopped within the ledger's 5 s poll and the last trials' ends after the budget
    longest = max((r.ended_at - r.started_at).total_seconds() for r in b_rows)
    assert BUDGET_S <= b_total <= BUDGET_S + 2 * longest + 10, b_total

    # the ledger: each of B's trials held one lease, for no longer than the trial ran; the
    # totals are the sum of the trials' leases
    with db.begin() as session:
        ran = {
            row.id: (row.finished_at - row.started_at).total_seconds()
            for row in session.scalars(select(TrialRow).where(TrialRow.experiment_id == second))
            if row.finished_at is not None and row.started_at is not None
        }
    held_by_trial: dict[int, float] = {}
    for row in b_rows:
        assert row.trial_id is not None and not row.holding
        seconds = (row.ended_at - row.started_at).total_seconds() * row.workers
        held_by_trial[row.trial_id] = held_by_trial.get(row.trial_id, 0.0) + seconds
    assert set(held_by_trial) <= set(ran) and held_by_trial
    # (a trial the budget's stop killed right after its grant ends its lease at its last
    # renewal, which may be the grant itself: 0 s)
    assert all(0 <= held_by_trial[t] <= ran[t] + 2 for t in held_by_trial), (held_by_trial, ran)
    assert abs(b_total - sum(held_by_trial.values())) <= 1
    a_total = sum((r.ended_at - r.started_at).total_seconds() * r.workers for r in a_rows)
    assert abs(everything["by_experiment"][first]["worker_seconds"] - a_total) <= 1
    assert abs(everything["by_experiment"][second]["cpu_seconds"] - 0.9 * b_total) <= 1
    assert everything["by_project"]["fair-b"]["gpu_seconds"] == 0
