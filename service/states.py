"""The one place experiment, trial, final-run, deployment and schedule-firing states change,
each with its declared table of allowed moves."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Protocol, TypeVar

from sqlalchemy import select
from sqlalchemy.orm import Session

from raysweep.lifecycle import TRIAL_OPEN
from raysweep.lifecycle import DeploymentState as D
from raysweep.lifecycle import ExperimentState as E
from raysweep.lifecycle import FinalRunState as F
from raysweep.lifecycle import FiringOutcome as O
from raysweep.lifecycle import TrialState as T
from service.db.base import utcnow
from service.db.models.registry import FinalRunRow, ModelDeploymentRow
from service.db.models.schedules import ScheduleFiringRow
from service.db.models.sweeps import ExperimentRow, TrialRow


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
    # -> queued: extended (a new Tune run goes on from the stored trials)
    E.completed: frozenset({E.queued}),
    E.failed: frozenset(),
    E.cancelled: frozenset({E.queued}),
}

TRIAL_MOVES: dict[T, frozenset[T]] = {
    T.pending: frozenset({T.running, T.failed, T.cancelled}),
    # running -> pending: the trial was paused with its sweep and will resume later;
    # running -> paused: promotion ASHA paused it at a rung
    T.running: frozenset({T.completed, T.pruned, T.failed, T.cancelled, T.pending, T.paused}),
    # promoted (running), or ended at its rung with the sweep (pruned)
    T.paused: frozenset({T.running, T.pruned, T.failed, T.cancelled}),
    # -> pending: its sweep was extended to a larger max_t; it continues from its checkpoint;
    # pruned -> paused: a promotion-ASHA sweep was extended, its rungs may grow
    T.completed: frozenset({T.pending}),
    T.pruned: frozenset({T.paused}),
    T.failed: frozenset(),
    # -> pending: its sweep, cancelled, was extended; it continues from its checkpoint
    T.cancelled: frozenset({T.pending}),
}


FINAL_RUN_MOVES: dict[F, frozenset[F]] = {
    F.queued: frozenset({F.running, F.failed, F.cancelled}),
    # running -> running is not a move: a resubmitted job continues the same run
    F.running: frozenset({F.completed, F.failed, F.cancelling}),
    # the controller stops the job; a run that ended first keeps its outcome
    F.cancelling: frozenset({F.cancelled, F.completed, F.failed}),
    F.completed: frozenset(),
    F.failed: frozenset(),
    F.cancelled: frozenset(),
}


def move_final_run(row: FinalRunRow, target: F) -> None:
    _move_timed(row, "final run", FINAL_RUN_MOVES, target, F.running)


DEPLOYMENT_MOVES: dict[D, frozenset[D]] = {
    D.deploying: frozenset({D.running, D.failed, D.deleting}),
    D.running: frozenset({D.failed, D.deleting}),
    D.failed: frozenset({D.deleting}),
    D.deleting: frozenset({D.deleted}),
    D.deleted: frozenset(),
}


def move_deployment(row: ModelDeploymentRow, target: D) -> None:
    if target not in DEPLOYMENT_MOVES[row.state]:
        raise IllegalTransition("deployment", row.state, target)
    row.state = target


# a firing is recorded in its first outcome (submitted, waiting, skipped, missed, failed);
# these are the moves after that. Kind sweep: submitted is final. Kind retrain: submitted goes
# on at once to tuning (a re-tuning sweep) or training (a final run), or failed.
FIRING_MOVES: dict[O, frozenset[O]] = {
    O.waiting: frozenset({O.submitted}),
    O.submitted: frozenset({O.tuning, O.training, O.failed}),
    O.tuning: frozenset({O.training, O.failed, O.cancelled}),
    O.training: frozenset({O.promoted, O.kept, O.failed, O.cancelled}),
    O.skipped: frozenset(),
    O.missed: frozenset(),
    O.failed: frozenset(),
    O.promoted: frozenset(),
    O.kept: frozenset(),
    O.cancelled: frozenset(),
}


def move_firing(row: ScheduleFiringRow, target: O) -> None:
    # a firing being built has no outcome yet: its first one is not a move
    current = row.outcome
    if current is not None and target not in FIRING_MOVES[current]:
        raise IllegalTransition("schedule firing", current, target)
    row.outcome = target


def move_experiment(row: ExperimentRow, target: E) -> None:
    _move_timed(row, "experiment", EXPERIMENT_MOVES, target, E.running)


def move_trial(row: TrialRow, target: T) -> None:
    _move_timed(row, "trial", TRIAL_MOVES, target, T.running)


State = TypeVar("State", E, T, F)


class _Timed(Protocol[State]):
    state: State
    started_at: datetime | None
    finished_at: datetime | None


def _move_timed(
    row: _Timed[State],
    kind: str,
    moves: Mapping[State, frozenset[State]],
    target: State,
    running: State,
) -> None:
    """Move ``row`` along its table; stamp ``started_at`` on first running, ``finished_at`` on
    a final state."""
    if target not in moves[row.state]:
        raise IllegalTransition(kind, row.state, target)
    row.state = target
    now = utcnow()
    if target is running and row.started_at is None:
        row.started_at = now
    if target.is_final:
        row.finished_at = now


# where a sweep asked to stop ends once its driver is gone (or never started): the one map the
# driver's finish, the reconciler and the cancel use case share
STOPPED: dict[E, E] = {E.cancelling: E.cancelled, E.pausing: E.paused}


def end_sweep(session: Session, row: ExperimentRow, target: E) -> None:
    """Move the sweep to ``target`` (a final state, or paused) with its open trials: back to
    pending when it pauses (its next driver resumes them), cancelled otherwise."""
    end_open_trials(session, row.id, T.pending if target is E.paused else T.cancelled)
    move_experiment(row, target)


def end_open_trials(session: Session, experiment_id: str, target: T) -> int:
    """Move the experiment's pending and running trials to ``target`` (``pending`` when the sweep
    pauses, ``cancelled`` when it ends without them); returns how many moved. A trial paused at
    a rung (promotion ASHA) stays paused with a pausing sweep and ends there, pruned, with an
    ending one."""
    moved = 0
    open_states = [state.value for state in TRIAL_OPEN]
    if target is T.pending:  # a trial paused at a rung stays paused with a pausing sweep
        open_states.remove(T.paused.value)
    for trial in session.scalars(
        select(TrialRow).where(
            TrialRow.experiment_id == experiment_id, TrialRow.state.in_(open_states)
        )
    ):
        if trial.state is T.paused:
            move_trial(trial, T.pruned)
            trial.early_stopping = f"pruned when the sweep ended; {trial.early_stopping}"
            moved += 1
        elif trial.state != target.value:
            move_trial(trial, target)
            moved += 1
    return moved
