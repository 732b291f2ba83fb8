"""A simulated sweep written straight into the database: learning curves shaped by the config,
ASHA's pruning decisions, restarts, a failure. The UI tests and ``bench/ui_scale.py`` use it to
show real rows without spending minutes in Ray; nothing in the service calls it."""

from __future__ import annotations

import bisect
import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.orm import Session, make_transient_to_detached, sessionmaker

from raysweep.lifecycle import ExperimentState, RungDecisionKind, TrialState
from service.db import bulk
from service.db.models.sweeps import (
    CheckpointRow,
    EventRow,
    ExperimentRow,
    LabelRow,
    ResultRow,
    TrialRow,
)
from service.usecases.decisions import RungDecided, asha_cutoff, milestones, store_decisions
from service.usecases.experiments import new_experiment_id

FAILURE_TRACEBACK = """Traceback (most recent call last):
  File "trainers/digits_mlp.py", line 88, in train_loop_per_worker
    loss.backward()
RuntimeError: simulated: loss became NaN at epoch {epoch}"""


def demo_spec(name: str, max_t: int, reduction_factor: float, asha: bool) -> dict[str, Any]:
    return {
        "name": name,
        "trainer": "digits_mlp",
        "search_space": {
            "lr": {"type": "loguniform", "low": 1e-4, "high": 1e-1},
            "hidden": {"type": "int", "low": 16, "high": 256},
            "optimizer": {"type": "choice", "values": ["adam", "sgd"]},
        },
        "metric": "val_accuracy",
        "mode": "max",
        "early_stopping": {
            "scheduler": "asha" if asha else "none",
            "max_t": max_t,
            "grace_period": 1,
            "reduction_factor": reduction_factor,
        },
    }


def curve(config: dict[str, Any], epoch: int, noise: random.Random) -> float:
    # a good lr is near 1e-2, wider helps a little, adam converges faster
    quality = 0.97 - 0.08 * abs(math.log10(config["lr"]) + 2) - 0.1 / math.sqrt(config["hidden"])
    speed = 3 if config["optimizer"] == "adam" else 8
    return max(0.0, quality * (1 - math.exp(-epoch / speed)) + noise.gauss(0, 0.004))


SEED_BATCH = 500  # trials written per transaction: bounded memory at 100,000 trials


@dataclass
class SimulatedTrial:
    """One trial's rows before they are written: the trial, when it began, its metric by
    epoch, its rung decisions."""

    row: TrialRow
    began: datetime
    values: list[float]
    decisions: list[RungDecided]


def seed_sweep(
    db: sessionmaker[Session],
    *,
    trials: int,
    max_t: int,
    name: str = "demo",
    asha: bool = True,
    running: int = 2,
    state: ExperimentState = ExperimentState.running,
    seed: int = 0,
    reduction_factor: float = 3,
    prune: bool = True,
    progress: Callable[[int], None] | None = None,
) -> str:
    """Store one experiment with ``trials`` simulated trials; the last ``running`` are still
    running halfway. ``prune=False`` lets every other trial reach ``max_t`` (the scale
    benchmark's 100 results each) while the spec still names ASHA. Returns the experiment id."""
    rng = random.Random(seed)
    experiment_id = new_experiment_id()
    start = datetime.now(UTC) - timedelta(hours=1)
    marks = milestones(1, reduction_factor, max_t) if asha and prune else []
    recorded: dict[int, list[float]] = {mark: [] for mark in marks}
    with db.begin() as session:
        session.add(
            ExperimentRow(
                id=experiment_id,
                name=name,
                trainer="digits_mlp",
                metric="val_accuracy",
                mode="max",
                spec=demo_spec(name, max_t, reduction_factor, asha),
                state=state,
                created_by="demo",
                driver_restarts=0,
                started_at=start,
                labels=[LabelRow(key="team", value="vision"), LabelRow(key="demo", value="yes")],
            )
        )
        session.flush()
        session.add(EventRow(experiment_id=experiment_id, kind="submitted", message="demo"))
    for first in range(0, trials, SEED_BATCH):
        batch = []
        for number in range(first, min(trials, first + SEED_BATCH)):
            config = {
                "lr": 10 ** rng.uniform(-4, -1),
                "hidden": rng.randint(16, 256),
                "optimizer": rng.choice(["adam", "sgd"]),
            }
            batch.append(
                simulate_trial(
                    experiment_id,
                    number,
                    config,
                    rng,
                    start,
                    marks,
                    recorded,
                    max_t,
                    reduction_factor,
                    is_running=number >= trials - running,
                )
            )
        with db.begin() as session:
            write_trials(session, experiment_id, batch)
        if progress is not None:
            progress(first + len(batch))
    with db.begin() as session:
        top = session.execute(
            select(TrialRow.id, TrialRow.best_metric)
            .where(TrialRow.experiment_id == experiment_id)
            .order_by(TrialRow.best_metric.desc(), TrialRow.id)
            .limit(1)
        ).one_or_none()
        if top is not None:
            row = session.get_one(ExperimentRow, experiment_id)
            row.best_trial_id, row.best_metric = top
    return experiment_id


def simulate_trial(
    experiment_id: str,
    number: int,
    config: dict[str, Any],
    rng: random.Random,
    start: datetime,
    marks: list[int],
    recorded: dict[int, list[float]],
    max_t: int,
    reduction_factor: float,
    *,
    is_running: bool,
) -> SimulatedTrial:
    failed = number == 3
    last_epoch, state = max_t, TrialState.completed
    values: list[float] = []
    decisions: list[RungDecided] = []
    for epoch in range(1, max_t + 1):
        values.append(curve(config, epoch, rng))
        if is_running and epoch >= max(1, max_t // 2):
            last_epoch, state = epoch, TrialState.running
            break
        if failed and epoch == min(4, max_t):
            last_epoch, state = epoch, TrialState.failed
            break
        if (rung := recorded.get(epoch)) is not None:
            # the rung kept sorted: at 100,000 trials sorting it for every trial took hours
            cutoff = asha_cutoff(rung, reduction_factor, "max", ordered=True)
            bisect.insort(rung, values[-1])
            # the running and the failing trial are kept alive to show those states
            spared = is_running or failed
            pruned = cutoff is not None and values[-1] < cutoff and epoch < max_t and not spared
            kind = (
                RungDecisionKind.stop
                if pruned
                else RungDecisionKind.complete
                if epoch >= max_t
                else RungDecisionKind.continue_
            )
            rank = 1 + len(rung) - bisect.bisect_right(rung, values[-1])
            if not spared:  # the real scheduler decided nothing like their sparing
                decisions.append(
                    RungDecided("", 0, epoch, values[-1], cutoff, rank, len(rung), kind)
                )
            if pruned:
                last_epoch, state = epoch, TrialState.pruned
                break
    began = start + timedelta(seconds=number)
    trial = TrialRow(
        experiment_id=experiment_id,
        tune_trial_id=f"demo_{number:05d}",
        number=number + 1,
        config=config,
        state=state,
        iteration=last_epoch,
        last_metric=values[-1],
        best_metric=max(values),
        restarts=1 if number == 2 else 0,
        error=FAILURE_TRACEBACK.format(epoch=last_epoch) if failed else None,
        started_at=began,
        finished_at=None if state is TrialState.running else began + timedelta(seconds=last_epoch),
        # what storing its decisions sets; set here, it is written with the trial, not updated
        # after (an UPDATE a trial)
        early_stopping=decisions[-1].reason("val_accuracy", "max", "epoch") if decisions else None,
    )
    return SimulatedTrial(trial, began, values, decisions)


def write_trials(session: Session, experiment_id: str, batch: list[SimulatedTrial]) -> None:
    """A batch of simulated trials with their results, decisions and checkpoints: one insert
    per table, so seeding 100,000 trials takes minutes, not an hour."""
    # Core inserts, ids returned in order: the ORM's unit of work (and the webhook outbox's
    # look at every flushed row) spent more than the rest of the seeding
    columns = {column.key for column in TrialRow.__table__.columns} - {"id"}
    ids = session.scalars(
        insert(TrialRow).returning(TrialRow.id, sort_by_parameter_order=True),
        [{k: v for k, v in vars(s.row).items() if k in columns} for s in batch],
    ).all()
    for simulated, trial_id in zip(batch, ids, strict=True):
        # in the session as loaded (no second INSERT): storing the decisions finds it there
        simulated.row.id = trial_id
        make_transient_to_detached(simulated.row)
        session.add(simulated.row)
    # the recorder's own insert: the fastest this code base has (one JSON parameter on
    # PostgreSQL), where the ORM's bulk insert spent ~35 us a row in Python
    bulk.insert_ignoring_duplicates(
        session,
        ResultRow,
        [
            {
                "trial_id": simulated.row.id,
                "iteration": epoch,
                "metrics": {"epoch": epoch, "val_accuracy": value, "train_loss": 1 - value},
                "reported_at": simulated.began + timedelta(seconds=epoch),
            }
            for simulated in batch
            for epoch, value in enumerate(simulated.values, start=1)
        ],
        ["trial_id", "iteration"],
    )
    store_decisions(
        session,
        experiment_id,
        [(simulated.row.id, decision) for simulated in batch for decision in simulated.decisions],
        "val_accuracy",
        "max",
        "epoch",
    )
    session.execute(
        insert(CheckpointRow),
        [
            {
                "trial_id": s.row.id,
                "iteration": s.row.iteration,
                "uri": f"file:///demo/{experiment_id}/{s.row.tune_trial_id}/checkpoint_{s.row.iteration}",
                "metric": s.row.last_metric,
            }
            for s in batch
        ],
    )
    for simulated in batch:
        trial = simulated.row
        if trial.restarts:
            session.add(
                EventRow(
                    experiment_id=experiment_id,
                    trial_id=trial.id,
                    kind="trial_restarted",
                    message="worker group restarted from the latest checkpoint (1 of 2)",
                    data={"reason": "simulated: a worker was killed"},
                )
            )
