"""Test data built through the use cases the service runs (never create_all or hand-written
rows where a use case exists): seeded sweeps, promoted models, retrain schedules, a movable clock.
Test modules import these from here, never from each other."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from raysweep.lifecycle import ExperimentState, TrialState
from raysweep.promotion_spec import PromotionOverrides
from raysweep.schedules import ScheduleCreate
from raysweep.spec import ExperimentSpec
from service.db import repositories as repo
from service.db.models.registry import FinalRunRow
from service.db.models.schedules import ScheduleFiringRow
from service.db.models.sweeps import TrialRow
from service.engine.recorder import Recorder
from service.settings import REPO_ROOT
from service.specs import check_spec
from service.usecases.access import operator
from service.usecases.clusters import shared_final_clusters
from service.usecases.experiments import add_experiment
from service.usecases.firings import due_schedule_ids, fire_schedule
from service.usecases.job_outcomes import FinalRunOutcome, finish_final_run, start_final_run
from service.usecases.models import set_alias
from service.usecases.promotion import promote_experiment
from service.usecases.recording import ResultStore
from service.usecases.reports import ResultReported, TrialEnded, TrialStarted
from service.usecases.retrain import advance_retrains
from service.usecases.schedules import create_schedule
from tests.conftest import minimal_spec

T0 = datetime(2026, 11, 21, 12, 0, 30, tzinfo=UTC)
GRACE = timedelta(seconds=60)
CLUSTERS = shared_final_clusters(["local", "big"])
SPACES = REPO_ROOT / "search_spaces"


# a digits_mlp space with every kind of parameter
SPACE: dict[str, Any] = {
    "lr": {"type": "loguniform", "low": 1e-4, "high": 0.3},
    "dropout": {"type": "uniform", "low": 0.0, "high": 0.5},
    "depth": {"type": "int", "low": 1, "high": 3},
    "optimizer": {"type": "choice", "values": ["sgd", "adam"]},
}
OBJECTIVES = [
    {"metric": "val_accuracy", "mode": "max"},
    {"metric": "model_params", "mode": "min"},
]
CONSTRAINTS = [{"metric": "val_loss", "max": 1.0}]


def multi_spec(**changes: Any) -> dict[str, Any]:
    """A digits spec with two objectives (accuracy against size) and a val_loss bound."""
    data = minimal_spec(search_space=SPACE, objectives=OBJECTIVES, constraints=CONSTRAINTS)
    del data["metric"], data["mode"]
    data.update(changes)
    return data


def minute(n: int) -> datetime:
    return T0 + timedelta(minutes=n)


def tick(db: sessionmaker[Session], now: datetime) -> int:
    """One pass of the ScheduleFirer: move retrains on, then fire what is due."""
    moved = advance_retrains(db, CLUSTERS)
    return moved + sum(
        fire_schedule(db, sid, now, GRACE, CLUSTERS) for sid in due_schedule_ids(db, now)
    )


def completed_sweep(
    db: sessionmaker[Session], configs: list[tuple[dict[str, Any], float]], auto: bool = False
) -> str:
    """A completed digits sweep (val_loss, min) whose trials ended with these best metrics."""
    spec = check_spec(
        minimal_spec(
            metric="val_loss",
            mode="min",
            search={"algorithm": "random"},
            promotion={"num_workers": 2, "epochs": 3, "model_name": "digits", "auto": auto},
        ),
        SPACES,
    )
    with db.begin() as session:
        experiment = add_experiment(session, spec, "seeded", "tester")
        experiment.state = "completed"
        for index, (config, metric) in enumerate(configs):
            session.add(
                TrialRow(
                    experiment_id=experiment.id,
                    tune_trial_id=f"t{index}",
                    number=index + 1,
                    config=config,
                    state="completed",
                    iteration=3,
                    best_metric=metric,
                    last_metric=metric,
                    checkpoint_uri=f"/ckpt/{index}",
                )
            )
        return experiment.id


def complete_final_run(db: sessionmaker[Session], final_run_id: int, test_loss: float) -> None:
    """What the final-run job does around Train: the use cases it starts and finishes with."""
    job = start_final_run(db, final_run_id)
    assert job is not None
    outcome = FinalRunOutcome(
        {"epoch": job.epochs, "val_loss": test_loss},
        f"/final/{final_run_id}",
        {"test_loss": test_loss, "test_accuracy": 1 - test_loss},
        "fingerprint",
        {"raysweep": "test"},
    )
    finish_final_run(db, job.final_run_id, outcome, None)


def fail_final_run(db: sessionmaker[Session], final_run_id: int) -> None:
    job = start_final_run(db, final_run_id)
    assert job is not None
    finish_final_run(db, job.final_run_id, None, "Traceback ...\nRuntimeError: out of memory")


def production_model(db: sessionmaker[Session], test_loss: float = 0.30) -> str:
    """digits version 1 from a promoted sweep, aliased ``production``; returns the sweep."""
    experiment_id = completed_sweep(
        db, [({"lr": 0.01, "hidden": 64}, 0.2), ({"lr": 0.1, "hidden": 16}, 0.5)]
    )
    final = promote_experiment(db, experiment_id, PromotionOverrides(), "tester", CLUSTERS)
    complete_final_run(db, final.runs.items[0].id, test_loss)
    set_alias(db, "digits", "production", 1, "tester")
    return experiment_id


def retrain_schedule(db: sessionmaker[Session], **changes: Any) -> str:
    retrain = {"model": "digits", **changes.pop("retrain", {})}
    request = ScheduleCreate.model_validate(
        {"name": "retrain", "cron": "* * * * *", "kind": "retrain", "retrain": retrain, **changes}
    )
    return create_schedule(db, request, SPACES, CLUSTERS, T0, operator("tester")).id


def firing_rows(db: sessionmaker[Session]) -> list[ScheduleFiringRow]:
    with db.begin() as session:
        rows = list(
            session.scalars(select(ScheduleFiringRow).order_by(ScheduleFiringRow.scheduled_for))
        )
        session.expunge_all()
        return rows


def final_run(db: sessionmaker[Session], final_run_id: int | None) -> FinalRunRow:
    with db.begin() as session:
        row = session.get(FinalRunRow, final_run_id)
        assert row is not None
        session.expunge(row)
        return row


def set_time(clock: Path, moment: datetime) -> None:
    """Move a server's clock file (``devkit.clocked_server.FileClock``) atomically."""
    partial = clock.with_suffix(".tmp")
    partial.write_text(moment.isoformat())
    partial.replace(clock)


def submit_spec(client: httpx.Client, spec: dict[str, Any]) -> str:
    """POST the spec; the new experiment's id."""
    created = client.post("/api/v1/experiments", json=spec)
    assert created.status_code == 201, created.text
    experiment_id: str = created.json()["id"]
    return experiment_id


def submit(client: httpx.Client, **changes: Any) -> str:
    """POST the minimal spec with ``changes``; the new experiment's id."""
    return submit_spec(client, minimal_spec(**changes))


def record_multi_objective_sweep(
    db: sessionmaker[Session],
    trials: list[tuple[dict[str, float], TrialState]],
    objectives: list[dict[str, str]] = OBJECTIVES,
) -> tuple[ExperimentSpec, str, list[int]]:
    """A completed multi-objective sweep recorded by the driver's recorder (each trial reports
    two epochs, the metrics given at the second); returns its spec, id and trial ids."""
    # two epochs are the budget: an extension continues none of the completed trials
    data = multi_spec(
        objectives=objectives,
        early_stopping={"max_t": 2},
        promotion={"top_k": 2, "num_workers": 2},
    )
    spec = check_spec(data, SPACES)
    with db.begin() as session:
        experiment_id = add_experiment(session, spec, "seeded", "tester").id
    recorder = Recorder(ResultStore.for_sweep(experiment_id, spec, "").into(db)).start()
    config = {"lr": 0.01, "dropout": 0.1, "depth": 2, "optimizer": "adam"}
    for index, (metrics, state) in enumerate(trials):
        recorder.submit(TrialStarted(f"t{index}", {**config, "dropout": index / 100}))
        recorder.submit(ResultReported(f"t{index}", 1, {**metrics, "val_accuracy": 0.1}))
        recorder.submit(ResultReported(f"t{index}", 2, metrics))
        if state is not TrialState.running:
            recorder.submit(TrialEnded(f"t{index}", state))
    assert recorder.close(30)
    with db.begin() as session:
        ids = list(
            session.scalars(
                select(TrialRow.id)
                .where(TrialRow.experiment_id == experiment_id)
                .order_by(TrialRow.tune_trial_id)
            )
        )
        row = repo.get_experiment_row(session, experiment_id)
        row.state = ExperimentState.completed
    return spec, experiment_id, ids


MULTI_OBJECTIVE_TRIALS = [
    ({"val_accuracy": 0.90, "model_params": 1000, "val_loss": 0.3}, TrialState.completed),
    ({"val_accuracy": 0.95, "model_params": 5000, "val_loss": 0.2}, TrialState.completed),
    ({"val_accuracy": 0.85, "model_params": 3000, "val_loss": 0.4}, TrialState.completed),
    # would dominate every other, but breaks the constraint
    ({"val_accuracy": 0.99, "model_params": 900, "val_loss": 2.0}, TrialState.completed),
    ({"val_accuracy": 0.97, "model_params": 20000, "val_loss": 0.1}, TrialState.completed),
    ({"val_accuracy": 0.50, "model_params": 10, "val_loss": 0.5}, TrialState.running),
    ({"val_accuracy": 0.10, "model_params": 10}, TrialState.pruned),  # no val_loss: infeasible
]
