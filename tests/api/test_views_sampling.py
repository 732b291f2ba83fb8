"""Views that do not mislead: importance names the trials it compared and warns when early
stopping left a value of a choice parameter out of them, at a rung one may choose; the
hyperparameter views' sample is the best, a seeded random one, or all trials of a small sweep."""

from __future__ import annotations

from collections import Counter

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from devkit.demo import seed_sweep
from raysweep.lifecycle import ExperimentState
from service.db.models.sweeps import TrialRow
from service.usecases.importance import common_iteration
from tests.conftest import BOTH_BACKENDS, ServerProcess


def sgd_stopped_early(db: sessionmaker[Session], sweep: str) -> tuple[int, Counter[int]]:
    """Every trial that reached the common iteration took adam, every other one sgd (as when
    sgd did badly at the first rungs); returns that iteration and where the sgd trials ended."""
    with db.begin() as session:
        at = common_iteration(session, sweep)
        assert at is not None
        trials = session.scalars(select(TrialRow).where(TrialRow.experiment_id == sweep)).all()
        ended: Counter[int] = Counter()
        for trial in trials:
            optimizer = "adam" if trial.iteration >= at else "sgd"
            trial.config = {**trial.config, "optimizer": optimizer}
            if optimizer == "sgd":
                ended[trial.iteration] += 1
    return at, ended


@BOTH_BACKENDS  # the values are counted by the database, out of the configs' JSON
def test_importance_warns_when_early_stopping_left_a_value_out_of_the_compared_trials(
    server: ServerProcess, db: sessionmaker[Session]
) -> None:
    sweep = seed_sweep(db, trials=60, max_t=9, running=0, state=ExperimentState.completed, seed=3)
    at, ended = sgd_stopped_early(db, sweep)
    url = f"/api/v1/experiments/{sweep}/importance"
    with server.client() as client:
        default = client.get(url).json()
        first_rung = client.get(url, params={"at_iteration": 1}).json()
        off_rung = client.get(url, params={"at_iteration": 2})
        zero = client.get(url, params={"at_iteration": 0})
    assert default["iterations"] == [1, 3, 9]  # rf 3 up to max_t 9
    assert default["at_iteration"] == at and default["trials_reporting"] == 60
    assert default["trials_reached"] == 60 - sum(ended.values())
    [warning] = default["warnings"]
    assert warning["parameter"] == "optimizer" and warning["value"] == "sgd"
    assert warning["trials"] == sum(ended.values()) and warning["compared"] == 0
    assert warning["stopped_at"] == ended.most_common(1)[0][0] < at
    assert f"compared at iteration {at}" in warning["message"]
    assert f"most at iteration {warning['stopped_at']}" in warning["message"]
    # at the first rung every trial is compared: sgd holds its share, nothing to warn of
    assert first_rung["at_iteration"] == 1 and first_rung["warnings"] == []
    assert first_rung["trials_reached"] == 60 and first_rung["trials_used"] == 60
    assert {p["name"] for p in first_rung["importances"]} == {"hidden", "lr", "optimizer"}
    assert off_rung.status_code == 422
    assert "not one of this sweep's rungs: 1, 3, 9" in off_rung.json()["error"]["message"]
    assert zero.status_code == 422


def test_importance_without_early_stopping_compares_at_max_t_only(
    server: ServerProcess, db: sessionmaker[Session]
) -> None:
    sweep = seed_sweep(
        db, trials=8, max_t=4, running=0, asha=False, state=ExperimentState.completed
    )
    url = f"/api/v1/experiments/{sweep}/importance"
    with server.client() as client:
        body = client.get(url, params={"at_iteration": 4}).json()
        refused = client.get(url, params={"at_iteration": 2})
    assert body["iterations"] == [4] and body["at_iteration"] == 4 and body["warnings"] == []
    assert body["trials_reached"] == 8 and len(body["importances"]) == 3
    assert refused.status_code == 422 and "rungs: 4" in refused.text


@BOTH_BACKENDS  # best first is ordered by the database
def test_configs_sample_best_random_or_all(
    server: ServerProcess, db: sessionmaker[Session]
) -> None:
    sweep = seed_sweep(db, trials=40, max_t=3, running=0, state=ExperimentState.completed)
    url = f"/api/v1/experiments/{sweep}/configs"
    with server.client() as client:
        best = client.get(url, params={"limit": 10}).json()
        random = client.get(url, params={"limit": 10, "sample": "random"}).json()
        again = client.get(url, params={"limit": 10, "sample": "random"}).json()
        wider = client.get(url, params={"limit": 20, "sample": "random"}).json()
        every = client.get(url, params={"limit": 10, "sample": "all"}).json()
        unknown = client.get(url, params={"sample": "worst"})
    with db.begin() as session:
        ranked = session.execute(
            select(TrialRow.id, TrialRow.best_metric)
            .where(TrialRow.experiment_id == sweep)
            .order_by(TrialRow.best_metric.desc(), TrialRow.id)
        ).all()
    assert best["sample"] == "best" and best["all_max"] == 5000 and best["total_trials"] == 40
    assert [r["trial_id"] for r in best["rows"]] == [i for i, _ in ranked[:10]]
    ids = [r["trial_id"] for r in random["rows"]]
    assert random["sample"] == "random" and len(ids) == 10
    assert ids == [r["trial_id"] for r in again["rows"]]  # seeded: the same trials each time
    assert set(ids) != {i for i, _ in ranked[:10]}  # not the best ones
    assert set(ids) <= {r["trial_id"] for r in wider["rows"]}  # a larger sample keeps them
    metrics = [r["metric"] for r in random["rows"]]
    assert metrics == sorted(metrics, reverse=True)  # still best first (mode max)
    assert every["sample"] == "all" and len(every["rows"]) == 40
    assert unknown.status_code == 422


def test_configs_refuse_all_past_the_bound(
    server: ServerProcess, db: sessionmaker[Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    sweep = seed_sweep(db, trials=12, max_t=2, running=0, state=ExperimentState.completed)
    monkeypatch.setattr("service.usecases.views.CONFIGS_ALL_MAX", 10)  # the server's, in-process
    with server.client() as client:
        refused = client.get(f"/api/v1/experiments/{sweep}/configs", params={"sample": "all"})
    assert refused.status_code == 422
    assert "at most 10 trials; this one has 12" in refused.json()["error"]["message"]
