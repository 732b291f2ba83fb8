"""A sweep whose one trial can never be placed on a fixed-size sweep cluster is refused at
submit, naming the resources; an autoscaling cluster, or one not yet observed, accepts it.
Schedules are held to the same check."""

from __future__ import annotations

import pytest
from sqlalchemy.orm import Session, sessionmaker

from raysweep.schedules import ScheduleCreate
from service.errors import InvalidInput
from service.usecases.access import operator
from service.usecases.clusters import FixedSweepCluster, record_capacity
from service.usecases.experiments import submit_experiment
from service.usecases.firings import due_schedule_ids, fire_schedule
from service.usecases.schedules import create_schedule
from tests.conftest import minimal_spec, row_counts
from tests.factories import (
    CLUSTERS,
    GRACE,
    SPACES,
    T0,
    firing_rows,
    minute,
    production_model,
    retrain_schedule,
)

ONE_NODE = [{"CPU": 2.0, "memory": 8e9, "node:127.0.0.1": 1.0}]


def on(cluster: str | None) -> FixedSweepCluster:
    """Every project's sweeps on ``cluster``, fixed-size (None: it autoscales)."""
    return lambda project: cluster


def submit(db: sessionmaker[Session], cluster: str | None, **resources: object) -> str:
    spec = minimal_spec(resources={"num_workers": 2, "cpus_per_worker": 0.5, **resources})
    return submit_experiment(db, spec, SPACES, operator("tester"), None, on(cluster)).id


def test_a_trial_that_can_never_fit_a_fixed_cluster_is_refused_and_nothing_is_stored(
    db: sessionmaker[Session],
) -> None:
    record_capacity(db, "local", ONE_NODE)
    before = row_counts(db)
    with pytest.raises(InvalidInput) as refused:
        submit(db, "local", num_workers=4, use_gpu=True, gpus_per_worker=1)
    (problem,) = refused.value.details
    assert problem.path == "resources"
    assert "4 worker(s) x {CPU: 0.5, GPU: 1}" in problem.message
    assert "it needs {GPU: 4} in all" in problem.message  # its 2 CPU (0.01 its function's) fit
    assert "'local' has {CPU: 2} on 1 node(s)" in problem.message
    assert "does not autoscale" in problem.message
    with pytest.raises(InvalidInput, match="never run one trial"):
        submit(db, "local", num_workers=3, cpus_per_worker=1.0)  # 3 CPU on 2
    assert row_counts(db) == before


def test_a_trial_that_fits_an_autoscaling_or_unobserved_cluster_is_accepted(
    db: sessionmaker[Session],
) -> None:
    # no capacity observed yet: nothing to check against
    assert submit(db, "local", num_workers=4, use_gpu=True, gpus_per_worker=1)
    record_capacity(db, "local", ONE_NODE)
    assert submit(db, "local")  # 2 x 0.5 CPU fits
    assert submit(db, None, num_workers=4, use_gpu=True, gpus_per_worker=1)  # autoscaling
    record_capacity(db, "local", [*ONE_NODE, {"CPU": 4.0, "GPU": 4.0}])  # a GPU node joined
    assert submit(db, "local", num_workers=4, use_gpu=True, gpus_per_worker=1)


def test_schedules_get_the_same_check_when_made_and_when_they_fire(
    db: sessionmaker[Session],
) -> None:
    """A template that can never fit is a 422 at ``spec.resources``; a firing (a scheduled sweep,
    or a retrain's re-tuning sweep) whose trial no longer fits the shrunken cluster is a failed
    firing naming why, and no sweep is stored to wait forever."""
    record_capacity(db, "local", ONE_NODE)
    before = row_counts(db)
    with pytest.raises(InvalidInput) as refused:
        sweep_schedule(db, num_workers=3, cpus_per_worker=1.0)
    assert [p.path for p in refused.value.details] == ["spec.resources"]
    assert "does not autoscale" in refused.value.details[0].message
    assert row_counts(db) == before

    sweep_schedule(db)  # 2 x 0.5 CPU fits the 2-CPU node
    production_model(db)  # a sweep of its own, for the retrain to re-tune
    retrain_schedule(db, retrain={"retune": {"num_samples": 2}})
    record_capacity(db, "local", [{"CPU": 0.5}])  # the node was replaced by a smaller one
    sweeps_before = row_counts(db)["experiments"]
    for schedule_id in due_schedule_ids(db, minute(1)):
        fire_schedule(db, schedule_id, minute(1), GRACE, CLUSTERS, on("local"))
    outcomes = {(f.outcome, f.experiment_id) for f in firing_rows(db)}
    assert outcomes == {("failed", None)}, outcomes
    messages = " | ".join(f.message for f in firing_rows(db))
    assert "not submitted: one trial needs" in messages
    assert "the re-tuning sweep was not submitted: one trial needs" in messages
    assert row_counts(db)["experiments"] == sweeps_before


def sweep_schedule(db: sessionmaker[Session], **resources: object) -> str:
    spec = minimal_spec(resources={"num_workers": 2, "cpus_per_worker": 0.5, **resources})
    request = ScheduleCreate.model_validate({"name": "nightly", "cron": "* * * * *", "spec": spec})
    return create_schedule(db, request, SPACES, CLUSTERS, T0, operator("tester"), on("local")).id
