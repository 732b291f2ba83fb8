"""The one place experiment and trial states change, with the declared table of allowed moves."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy import select
from sqlalchemy.orm import Session

from raysweep.schemas import DeploymentState as D
from raysweep.schemas import ExperimentState as E
from raysweep.schemas import FinalRunState as F
from raysweep.schemas import TrialState as T
from service.db.models import ExperimentRow, FinalRunRow, ModelDeploymentRow, TrialRow, utcnow


class IllegalTransition(ValueError):
    def __init__(self, kind: str, current: str, target: str):
        self.current, self.target = current, target
        super().__init__(f"{kind} cannot move from {current} to {target}")


EXPERIMENT_MOVES: dict[E, frozenset[E]] = {
    E.queued: frozenset({E.running, E.cancelled, E.failed, E.paused}),
    E.running: frozenset({E.completed, E.failed, E.cancelling, E.pausing, E.cancelled}),
    E.cancelling: frozenset({E.cancelled, E.failed, E.completed}),
    E.pausing: frozenset({E.paused, E.cancelling, E.failed, E.completed, E.cancelled}),
    E.paused: frozenset({E.queued, E.cancelled}),
    E.completed: frozenset(),
    E.failed: frozenset(),
    E.cancelled: frozenset(),
}

TRIAL_MOVES: dict[T, frozenset[T]] = {
    T.pending: frozenset({T.running, T.failed, T.cancelled}),
    # running -> pending: the trial was paused with its sweep and will resume later
    T.running: frozenset({T.completed, T.pruned, T.failed, T.cancelled, T.pending}),
    T.completed: frozenset(),
    T.pruned: frozenset(),
    T.failed: frozenset(),
    T.cancelled: frozenset(),
}


FINAL_RUN_MOVES: dict[F, frozenset[F]] = {
    F.queued: frozenset({F.running, F.failed}),
    # running -> running is not a move: a resubmitted job continues the same run
    F.running: frozenset({F.completed, F.failed}),
    F.completed: frozenset(),
    F.failed: frozenset(),
}


def move_final_run(row: FinalRunRow, target: F) -> None:
    _move_timed(row, "final run", FINAL_RUN_MOVES, F(row.state), target, F.running)


DEPLOYMENT_MOVES: dict[D, frozenset[D]] = {
    D.deploying: frozenset({D.running, D.failed, D.deleting}),
    D.running: frozenset({D.failed, D.deleting}),
    D.failed: frozenset({D.deleting}),
    D.deleting: frozenset({D.deleted}),
    D.deleted: frozenset(),
}


def move_deployment(row: ModelDeploymentRow, target: D) -> None:
    current = D(row.state)
    if target not in DEPLOYMENT_MOVES[current]:
        raise IllegalTransition("deployment", current.value, target.value)
    row.state = target.value


def move_experiment(row: ExperimentRow, target: E) -> None:
    _move_timed(row, "experiment", EXPERIMENT_MOVES, E(row.state), target, E.running)


def move_trial(row: TrialRow, target: T) -> None:
    _move_timed(row, "trial", TRIAL_MOVES, T(row.state), target, T.running)


class _Timed(Protocol):
    state: str
    started_at: datetime | None
    finished_at: datetime | None


def _move_timed(
    row: _Timed,
    kind: str,
    moves: Mapping[Any, frozenset[Any]],
    current: Any,
    target: Any,
    running: Any,
) -> None:
    """Move ``row`` along its table; stamp ``started_at`` on first running, ``finished_at`` on
    a final state."""
    if target not in moves[current]:
        raise IllegalTransition(kind, current.value, target.value)
    row.state = target.value
    now = utcnow()
    if target is running and row.started_at is None:
        row.started_at = now
    if target.is_final:
        row.finished_at = now


def end_open_trials(session: Session, experiment_id: str, target: T) -> int:
    """Move the experiment's pending and running trials to ``target`` (``pending`` when the sweep
    pauses, ``cancelled`` when it ends without them); returns how many moved."""
    moved = 0
    for trial in session.scalars(
        select(TrialRow).where(
            TrialRow.experiment_id == experiment_id,
            TrialRow.state.in_([T.pending.value, T.running.value]),
        )
    ):
        if trial.state != target.value:
            move_trial(trial, target)
            moved += 1
    return moved
