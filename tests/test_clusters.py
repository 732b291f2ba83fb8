"""A sweep whose one trial can never be placed on a fixed-size sweep cluster is refused at
submit, naming the resources; an autoscaling cluster, or one not yet observed, accepts it."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy.orm import Session, sessionmaker

from service.errors import InvalidInput
from service.settings import REPO_ROOT
from service.usecases.clusters import record_capacity
from service.usecases.experiments import submit_experiment
from tests.conftest import minimal_spec, row_counts

SPACES: Path = REPO_ROOT / "search_spaces"
ONE_NODE = [{"CPU": 2.0, "memory": 8e9, "node:127.0.0.1": 1.0}]


def submit(db: sessionmaker[Session], cluster: str | None, **resources: object) -> str:
    spec = minimal_spec(resources={"num_workers": 2, "cpus_per_worker": 0.5, **resources})
    return submit_experiment(db, spec, SPACES, "tester", None, cluster).id


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
    assert "{CPU: 2.01, GPU: 4} in all" in problem.message
    assert "'local' has {CPU: 2} on 1 node(s)" in problem.message
    assert "does not autoscale" in problem.message
    with pytest.raises(InvalidInput, match="never run one trial"):
        submit(db, "local", num_workers=3, cpus_per_worker=1.0)  # 3.01 CPU on 2
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
