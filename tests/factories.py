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

from raysweep.schedules import ScheduleCreate
from raysweep.spec import PromotionOverrides
from service.db.models import FinalRunRow, ScheduleFiringRow, TrialRow
from service.settings import REPO_ROOT
from service.specs import check_spec
from service.usecases.experiments import add_experiment
from service.usecases.firings import due_schedule_ids, fire_schedule
from service.usecases.job_outcomes import FinalRunOutcome, finish_final_run, start_final_run
from service.usecases.models import set_alias
from service.usecases.promotion import promote_experiment
from service.usecases.retrain import advance_retrains
from service.usecases.schedules import create_schedule
from tests.conftest import minimal_spec

T0 = datetime(2026, 11, 21, 12, 0, 30, tzinfo=UTC)
GRACE = timedelta(seconds=60)
CLUSTERS = ["local", "big"]
SPACES = REPO_ROOT / "search_spaces"


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
    finish_final_run(db, job, outcome, None)


def fail_final_run(db: sessionmaker[Session], final_run_id: int) -> None:
    job = start_final_run(db, final_run_id)
    assert job is not None
    finish_final_run(db, job, None, "Traceback ...\nRuntimeError: out of memory")


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
    return create_schedule(db, request, SPACES, CLUSTERS, T0, "tester").id


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
    """Move a server's clock file (RAYSWEEP_CLOCK_FILE) atomically."""
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
