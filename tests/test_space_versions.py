"""An extension that changes a sweep's search space, on both databases: the versions stored,
the searcher told only the earlier trials inside the new space (added parameters at their
earlier values), continuing trials given their own configs, new trials stamped with the new
version (the route's answers: tests/api/test_extend.py; a real run: tests/engine/test_extend.py)."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from devkit.demo import seed_sweep
from raysweep.lifecycle import ExperimentState, TrialState
from raysweep.schemas import ExtendRequest
from raysweep.spec import ExperimentSpec
from service.db.models.sweeps import ExperimentRow, TrialRow
from service.engine.search import SweepSearcher, param_space, search_algorithm
from service.engine.trial import RUN_KEY
from service.usecases.extension import extend_experiment, sweep_history
from service.usecases.recording import ResultStore
from service.usecases.reports import TrialStarted

SEARCH_SPACES = Path(__file__).resolve().parent.parent / "search_spaces"
NARROWED = {
    "lr": {"type": "loguniform", "low": 1e-3, "high": 1e-1},
    "hidden": {"type": "int", "low": 16, "high": 256},
    "dropout": {"type": "uniform", "low": 0.0, "high": 0.5},
}


def test_a_changed_space_is_a_new_version_its_searcher_and_new_trials_follow(
    db: sessionmaker[Session],
) -> None:
    sweep = seed_sweep(db, trials=12, max_t=9, running=0, state=ExperimentState.completed)
    request = ExtendRequest(
        num_samples=16, max_t=12, search_space=NARROWED, earlier_values={"dropout": 0.0}
    )

    read = extend_experiment(db, sweep, request, SEARCH_SPACES)

    assert [v.version for v in read.search_spaces or []] == [1, 2]
    spec = ExperimentSpec.model_validate(read.spec)
    with db.begin() as session:
        history = sweep_history(session, sweep, spec)
        trials = session.scalars(select(TrialRow).where(TrialRow.experiment_id == sweep)).all()
    assert history.evaluated and history.left_out and history.continuing
    searcher = search_algorithm(spec, history)
    assert isinstance(searcher, SweepSearcher)
    # Optuna refuses a trial outside its distributions: every one told lies in the new space
    assert searcher.set_search_properties("val_accuracy", "max", param_space(spec))
    study = searcher.searcher._ot_study
    assert study is not None and len(study.trials) == len(history.evaluated)
    # the continuing trials first, each with its own config and dropout as it ran
    for name, _, _ in history.continuing:
        config = searcher.suggest(f"tune-{name}")
        assert config is not None and config[RUN_KEY] == name
        stored = next(t.config for t in trials if t.tune_trial_id == name)
        assert {k: v for k, v in config.items() if k != RUN_KEY} == {**stored, "dropout": 0.0}
    # then new configurations, from the new space
    fresh = searcher.suggest("tune-new")
    assert fresh is not None and set(fresh) == {"lr", "hidden", "dropout"}
    assert 1e-3 <= fresh["lr"] <= 1e-1

    # the next driver's new trial says it was sampled from version 2; the old ones keep 1
    store = ResultStore(experiment_id=sweep, metric="val_accuracy", mode="max")
    store.write(db, [TrialStarted("new_trial", fresh)], {})
    with db.begin() as session:
        versions = {
            name: version
            for name, version in session.execute(
                select(TrialRow.tune_trial_id, TrialRow.space_version).where(
                    TrialRow.experiment_id == sweep
                )
            )
        }
    assert versions.pop("new_trial") == 2 and set(versions.values()) == {1}


def test_a_named_space_can_add_back_what_an_earlier_version_removed(
    db: sessionmaker[Session],
) -> None:
    """Version 2 drops optimizer; version 3 (the named digits_mlp space) adds it back with
    depth and the rest: the trials of version 1 keep their own optimizer, those of version 2
    take the stated one."""
    sweep = seed_sweep(db, trials=8, max_t=4, running=0, state=ExperimentState.completed)
    extend_experiment(
        db,
        sweep,
        ExtendRequest(num_samples=10, search_space=NARROWED, earlier_values={"dropout": 0.0}),
        SEARCH_SPACES,
    )
    with db.begin() as session:  # its driver ran a trial of version 2 and the sweep ended
        session.add(
            TrialRow(
                experiment_id=sweep, tune_trial_id="v2_trial", number=99, state=TrialState.pruned,
                config={"lr": 0.01, "hidden": 64, "dropout": 0.2}, iteration=1, restarts=0,
                last_metric=0.5, space_version=2,
            )
        )  # fmt: skip
        session.get_one(ExperimentRow, sweep).state = ExperimentState.completed
    earlier = {"depth": 2, "weight_decay": 1e-4, "batch_size": 64, "optimizer": "sgd"}

    read = extend_experiment(
        db,
        sweep,
        ExtendRequest(num_samples=14, search_space="digits_mlp", earlier_values=earlier),
        SEARCH_SPACES,
    )

    assert [v.version for v in read.search_spaces or []] == [1, 2, 3]
    third = (read.search_spaces or [])[2]
    assert third.added == earlier and set(third.changed) == {"lr", "hidden"}
    spec = ExperimentSpec.model_validate(read.spec)
    with db.begin() as session:
        history = sweep_history(session, sweep, spec)
        first_optimizers = {
            t.config["optimizer"]
            for t in session.scalars(
                select(TrialRow).where(TrialRow.experiment_id == sweep, TrialRow.space_version == 1)
            )
        }
    told = {tuple(sorted(p.params.items())) for p in history.evaluated}
    v2 = dict(lr=0.01, hidden=64, dropout=0.2, **earlier)
    assert tuple(sorted(v2.items())) in told  # version 2's trial, at the stated values
    # version 1's trials told with their own optimizer (both values occur), not the stated one
    assert {p.params["optimizer"] for p in history.evaluated if p.params != v2} <= first_optimizers


def test_the_same_space_given_again_is_no_new_version(db: sessionmaker[Session]) -> None:
    sweep = seed_sweep(db, trials=4, max_t=4, running=0, state=ExperimentState.completed)
    point = {"lr": 0.01, "hidden": 64, "optimizer": "adam"}
    with db.begin() as session:
        row = session.get_one(ExperimentRow, sweep)
        row.spec = {**row.spec, "search": {"num_samples": 8, "points_to_evaluate": [point]}}
        space = row.spec["search_space"]

    read = extend_experiment(
        db, sweep, ExtendRequest(num_samples=12, search_space=space), SEARCH_SPACES
    )

    assert read.search_spaces is None and read.spec["search"]["num_samples"] == 12
    assert read.spec["search"]["points_to_evaluate"] == [point]
