"""Retrain schedules on a real database (SQLite and PostgreSQL), with time passed in: the
champion's config retrained as a final run, champion/challenger when its version registers (the
final-run job's own ``finish``), re-tuning first, overlap, and every 422. Ray runs none of it
here: ``tests/engine/test_retrain.py`` trains for real."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session, sessionmaker

from raysweep.promotion_spec import PromotionOverrides
from raysweep.schedules import ScheduleCreate
from service.db import repositories as repo
from service.db.models.registry import FinalRunRow, ModelVersionRow
from service.db.models.sweeps import ExperimentRow, TrialRow
from service.errors import Conflict, InvalidInput, NotFound
from service.usecases.access import operator
from service.usecases.experiments import delete_experiment
from service.usecases.final_runs import cancel_final_run
from service.usecases.job_outcomes import start_final_run
from service.usecases.models import delete_alias, get_alias, get_version
from service.usecases.promotion import promote_experiment
from service.usecases.schedules import create_schedule, delete_schedule
from tests.conftest import minimal_spec, row_counts
from tests.factories import (
    CLUSTERS,
    SPACES,
    T0,
    complete_final_run,
    completed_sweep,
    fail_final_run,
    final_run,
    firing_rows,
    minute,
    production_model,
    retrain_schedule,
    tick,
)


def test_a_better_retrain_takes_production_and_a_worse_one_stays_a_candidate(
    db: sessionmaker[Session],
) -> None:
    production_model(db, test_loss=0.30)
    retrain_schedule(db, retrain={"margin": 0.05, "epochs": 7, "cluster": "big"})
    assert tick(db, minute(1)) == 1
    [firing] = firing_rows(db)
    assert firing.outcome == "training" and firing.experiment_id is None
    run = final_run(db, firing.final_run_id)
    v1 = get_version(db, "digits", "1")
    # the champion's own config, trained again (no warm start) with the retrain's overrides
    assert run.purpose == "retrain" and run.config == v1.config and run.warm_start_uri is None
    assert (run.epochs, run.num_workers, run.cluster) == (7, 2, "big")
    assert run.challenge == {"alias": "production", "margin": 0.05, "metric": "test_loss",
                             "mode": "min"}  # fmt: skip
    # still training at the next due time: overlap skip
    assert tick(db, minute(2)) == 1 and firing_rows(db)[1].outcome == "skipped"

    complete_final_run(db, run.id, test_loss=0.20)  # 0.20 < 0.30 - 0.05: better by the margin
    assert get_alias(db, "digits", "production").version == 2
    v2 = get_version(db, "digits", "2")
    assert v2.comparison is not None and v2.comparison["promoted"] is True
    assert (v2.comparison["champion"], v2.comparison["challenger"]) == (0.30, 0.20)
    assert v2.comparison["champion_version"] == 1 and "beats version 1" in v2.comparison["reason"]
    assert tick(db, minute(2)) == 1  # the firing moves on; nothing is due
    assert firing_rows(db)[0].outcome == "promoted"
    assert "version 2 took 'production'" in firing_rows(db)[0].message

    # better, but not by the margin: the champion (now version 2) stays
    tick(db, minute(3))
    third = firing_rows(db)[2]
    complete_final_run(db, third.final_run_id or 0, test_loss=0.17)  # 0.17 > 0.20 - 0.05
    tick(db, minute(3))
    assert firing_rows(db)[2].outcome == "kept"
    assert get_alias(db, "digits", "production").version == 2
    assert get_alias(db, "digits", "candidate").version == 3
    v3 = get_version(db, "digits", "3")
    assert v3.comparison is not None and v3.comparison["promoted"] is False
    assert "does not beat version 2's 0.2" in v3.comparison["reason"]
    # history says who moved the alias
    history = get_alias(db, "digits", "production").history
    assert [(h["version"], h["set_by"]) for h in history] == [
        (2, "champion/challenger"),
        (1, "tester"),
    ]


def test_a_retrain_of_a_pbt_champion_replays_its_schedule(db: sessionmaker[Session]) -> None:
    production_model(db, test_loss=0.30)
    schedule = [{"epoch": 2, "config": {"lr": 0.02}}, {"epoch": 4, "config": {"lr": 0.016}}]
    with db.begin() as session:  # the champion's final run replayed a PBT trial's schedule
        session.execute(update(FinalRunRow).values(schedule=schedule))
    retrain_schedule(db, retrain={"margin": 0.05, "epochs": 7, "precision": "bf16"})
    assert tick(db, minute(1)) == 1
    [firing] = firing_rows(db)
    run = final_run(db, firing.final_run_id)
    assert run.purpose == "retrain" and run.config["precision"] == "bf16"
    assert run.schedule == [
        {"epoch": 2, "config": {"lr": 0.02, "precision": "bf16"}},
        {"epoch": 4, "config": {"lr": 0.016, "precision": "bf16"}},
    ]


def test_a_worse_retrain_never_replaces_production(db: sessionmaker[Session]) -> None:
    production_model(db, test_loss=0.30)
    retrain_schedule(db)  # margin 0: even a tie keeps the champion
    tick(db, minute(1))
    complete_final_run(db, firing_rows(db)[0].final_run_id or 0, test_loss=0.30)
    tick(db, minute(1))
    assert firing_rows(db)[0].outcome == "kept"
    assert get_alias(db, "digits", "production").version == 1
    tick(db, minute(2))
    complete_final_run(db, firing_rows(db)[1].final_run_id or 0, test_loss=0.45)
    tick(db, minute(2))
    assert [f.outcome for f in firing_rows(db)] == ["kept", "kept"]
    assert get_alias(db, "digits", "production").version == 1
    assert get_alias(db, "digits", "candidate").version == 3


def test_a_failed_retrain_fails_its_firing_and_a_queued_one_starts_after_it(
    db: sessionmaker[Session],
) -> None:
    production_model(db)
    retrain_schedule(db, overlap="queue")
    tick(db, minute(1))
    tick(db, minute(2))
    assert [f.outcome for f in firing_rows(db)] == ["training", "waiting"]
    fail_final_run(db, firing_rows(db)[0].final_run_id or 0)
    assert tick(db, minute(2)) == 2  # the failure recorded, then the waiting firing started
    first, second = firing_rows(db)
    assert first.outcome == "failed" and "Traceback" not in first.message  # its last line
    assert f"final run {first.final_run_id} failed: RuntimeError: out of memory" in first.message
    assert second.outcome == "training" and second.final_run_id != first.final_run_id
    assert second.message == (
        "queued behind the previous run; "
        f"retraining digits version 1's config as final run {second.final_run_id}"
    )
    assert get_alias(db, "digits", "production").version == 1


def test_cancel_previous_cancels_the_previous_retrains_run_and_a_cancelled_run_ends_its_firing(
    db: sessionmaker[Session],
) -> None:
    """``overlap: cancel_previous``: the next due time cancels the running retrain's final run
    (``cancelling``: the controller stops its job) or its queued one at once, then starts its
    own; a final run cancelled by hand ends its firing ``cancelled`` too."""
    production_model(db)
    retrain_schedule(db, overlap="cancel_previous")
    tick(db, minute(1))
    first_run = firing_rows(db)[0].final_run_id
    assert start_final_run(db, first_run or 0) is not None  # its job started: running
    tick(db, minute(2))
    first, second = firing_rows(db)
    assert first.outcome == "cancelled" and "cancel_previous" in first.message
    assert final_run(db, first_run).state == "cancelling"
    assert start_final_run(db, first_run or 0) is None  # a job (re)started now trains nothing
    assert second.outcome == "training" and f"firing {first.id}" in second.message
    tick(db, minute(3))  # the second's run is still queued: cancelled at once
    assert final_run(db, second.final_run_id).state == "cancelled"
    third = firing_rows(db)[2]
    cancel_final_run(db, third.final_run_id or 0, "tester")  # by hand
    tick(db, minute(3))
    assert firing_rows(db)[2].outcome == "cancelled"
    assert f"final run {third.final_run_id} was cancelled" in firing_rows(db)[2].message
    assert get_alias(db, "digits", "production").version == 1


def test_retune_first_warm_starts_from_the_best_configs_then_retrains_the_new_best(
    db: sessionmaker[Session],
) -> None:
    previous = production_model(db)
    retrain_schedule(db, retrain={"retune": {"num_samples": 5, "warm_start_top": 2}})
    tick(db, minute(1))
    [firing] = firing_rows(db)
    assert firing.outcome == "tuning" and firing.final_run_id is None
    with db.begin() as session:
        sweep = session.get(ExperimentRow, firing.experiment_id)
        assert sweep is not None
        spec, labels = sweep.spec, {label.key: label.value for label in sweep.labels}
    assert spec["search"]["num_samples"] == 5 and spec["promotion"]["auto"] is False
    # the previous study's best configs first, best first
    assert spec["search"]["points_to_evaluate"] == [{"lr": 0.01, "hidden": 64},
                                                    {"lr": 0.1, "hidden": 16}]  # fmt: skip
    # and its searcher told every finished trial of the champion's sweep
    with db.begin() as session:
        champion_run = session.scalars(select(FinalRunRow)).first()
        assert champion_run is not None
        assert spec["search"]["warm_start_from"] == [champion_run.experiment_id]
    assert labels["schedule"] == "retrain" and sweep.name.startswith("digits-retune-")
    assert tick(db, minute(1)) == 0  # the sweep is still queued

    with db.begin() as session:
        sweep = session.get(ExperimentRow, firing.experiment_id)
        assert sweep is not None
        sweep.state = "completed"
        session.add(
            TrialRow(
                experiment_id=sweep.id,
                tune_trial_id="new",
                number=repo.next_trial_number(session, sweep.id),
                config={"lr": 0.02, "hidden": 128},
                state="completed",
                iteration=3,
                best_metric=0.1,
                checkpoint_uri="/ckpt/new",
            )
        )
    assert tick(db, minute(1)) == 1
    [firing] = firing_rows(db)
    run = final_run(db, firing.final_run_id)
    assert firing.outcome == "training" and run.experiment_id == firing.experiment_id
    assert f"retraining the re-tuning sweep's best trial {run.trial_id} as final run" in (
        firing.message
    )
    assert run.config["lr"] == 0.02 and run.config["hidden"] == 128 and run.purpose == "retrain"
    assert (run.epochs, run.num_workers) == (3, 2)  # the champion's final run's
    assert run.experiment_id != previous
    assert tick(db, minute(1)) == 0  # created once, however often the firer looks


def test_retrain_schedules_are_checked_completely(db: sessionmaker[Session]) -> None:
    def problems(**body: Any) -> dict[str, str]:
        request = ScheduleCreate.model_validate(
            {"name": "r", "cron": "* * * * *", "kind": "retrain", **body}
        )
        before = row_counts(db)
        with pytest.raises(InvalidInput) as error:
            create_schedule(db, request, SPACES, CLUSTERS, T0, operator("tester"))
        assert row_counts(db) == before
        return {p.path: p.message for p in error.value.details}

    assert (
        "no model named 'digits'; models: none yet"
        in problems(retrain={"model": "digits"})["retrain.model"]
    )
    production_model(db)
    found = problems(
        retrain={"model": "digits", "alias": "staging", "cluster": "nowhere"},
        spec=minimal_spec(),
    )
    assert "has no alias 'staging' (its aliases: production)" in found["retrain.alias"]
    assert "no final cluster named 'nowhere'" in found["retrain.cluster"]
    assert found["spec"] == "kind retrain takes no spec"
    assert problems()["retrain"] == "kind retrain needs retrain"
    assert (
        "no model named 'other'; models: digits"
        in problems(retrain={"model": "other"})["retrain.model"]
    )
    with db.begin() as session:  # a version without held-out metrics (user code) cannot compete
        version = session.scalars(select(ModelVersionRow)).one()
        version.test_metrics = None
    assert "has no held-out test_loss" in problems(retrain={"model": "digits"})["retrain.model"]
    sweep = ScheduleCreate.model_validate(
        {"name": "s", "cron": "* * * * *", "retrain": {"model": "digits"}}
    )
    with pytest.raises(InvalidInput) as error:
        create_schedule(db, sweep, SPACES, CLUSTERS, T0, operator("tester"))
    assert {p.path: p.message for p in error.value.details} == {
        "spec": "kind sweep needs spec",
        "retrain": "kind sweep takes no retrain",
    }


def test_a_firing_whose_champion_is_gone_fails_with_the_reason(
    db: sessionmaker[Session], tmp_path: Path
) -> None:
    experiment_id = production_model(db)
    other = completed_sweep(db, [({"lr": 0.05, "hidden": 32}, 0.3)])
    final = promote_experiment(db, other, PromotionOverrides(), "tester", CLUSTERS)
    complete_final_run(db, final.runs.items[0].id, 0.4)  # digits version 2, not production
    retrain_schedule(db)
    # a sweep whose version an alias names cannot be deleted (409 naming it), and nothing goes
    with pytest.raises(Conflict, match=r"aliases name: digits v1 \(production\)"):
        delete_experiment(db, str(tmp_path), experiment_id)
    with db.begin() as session:
        assert session.scalars(select(ModelVersionRow.version)).all() == [1, 2]
        # a database from before that rule can still hold an alias of a deleted version
        session.execute(delete(ModelVersionRow).where(ModelVersionRow.version == 1))
    tick(db, minute(1))
    [firing] = firing_rows(db)
    assert firing.outcome == "failed" and firing.final_run_id is None
    assert "'production' names digits version 1, which no longer exists" in firing.message
    with db.begin() as session:  # no retrain final run was queued: only the two promotions
        assert session.scalars(select(FinalRunRow.purpose)).all() == ["promotion"] * 2


def test_an_alias_a_retrain_schedule_follows_is_kept_until_the_schedule_goes(
    db: sessionmaker[Session], tmp_path: Path
) -> None:
    experiment_id = production_model(db)
    schedule_id = retrain_schedule(db)
    # every firing would fail without its champion: refused, naming the schedule
    with pytest.raises(
        Conflict,
        match=rf"retrain schedule retrain \({schedule_id}\) follows alias 'production' of "
        "model 'digits'",
    ):
        delete_alias(db, "digits", "production")
    assert get_alias(db, "digits", "production").version == 1
    delete_schedule(db, schedule_id)
    delete_alias(db, "digits", "production")
    with pytest.raises(NotFound, match="model 'digits' has no alias 'production'"):
        get_alias(db, "digits", "production")
    assert get_version(db, "digits", "1").aliases == []
    with pytest.raises(NotFound, match="has no alias 'production'"):
        delete_alias(db, "digits", "production")
    with pytest.raises(NotFound, match="no model named 'nope'"):
        delete_alias(db, "nope", "production")
    # with no alias naming its version, the sweep can be deleted (as the 409 advised)
    delete_experiment(db, str(tmp_path), experiment_id)
    with db.begin() as session:
        assert session.get(ExperimentRow, experiment_id) is None
