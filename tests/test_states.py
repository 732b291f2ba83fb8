"""The one transition function: allowed moves happen with their timestamps, others raise. The
allowed moves are written out here from the documented lifecycles, apart from the tables in
service/states.py that they test."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from raysweep.lifecycle import (
    EXPERIMENT_ACTIVE,
    EXPERIMENT_ENDED,
    FINAL_RUN_ACTIVE,
    FINAL_RUN_ENDED,
    TRIAL_ENDED,
    TRIAL_OPEN,
    FinalRunState,
)
from raysweep.lifecycle import ExperimentState as E
from raysweep.lifecycle import TrialState as T
from service.db.models.registry import FinalRunRow
from service.db.models.sweeps import ExperimentRow, TrialRow
from service.states import (
    EXPERIMENT_MOVES,
    FINAL_RUN_MOVES,
    TRIAL_MOVES,
    IllegalTransition,
    move_experiment,
    move_final_run,
    move_trial,
)

# the allowed moves, written out here as the lifecycles are documented (not read from the table
# under test): a change to service/states.py's tables must be made here too, on purpose
ALLOWED_EXPERIMENT_MOVES = {
    E.queued: {E.running, E.paused, E.cancelled, E.failed},  # paused: resumed later
    E.running: {E.pausing, E.cancelling, E.completed, E.failed, E.cancelled},
    E.pausing: {E.paused, E.cancelling, E.completed, E.failed, E.cancelled},
    E.cancelling: {E.cancelled, E.completed, E.failed},  # its driver ends it as it finds it
    E.paused: {E.queued, E.cancelled},  # resumed: queued again
    E.completed: {E.queued},  # extended
    E.cancelled: {E.queued},  # extended
    E.failed: set(),
}
ALLOWED_TRIAL_MOVES = {
    T.pending: {T.running, T.cancelled, T.failed},
    # pending again: its worker group is restarted
    T.running: {T.pending, T.paused, T.completed, T.pruned, T.failed, T.cancelled},
    T.paused: {T.running, T.pruned, T.failed, T.cancelled},  # promotion ASHA's rungs
    T.completed: {T.pending},  # an extension continues it
    T.cancelled: {T.pending},  # an extension continues it
    T.pruned: {T.paused},  # promotion ASHA: it waits at its rung again
    T.failed: set(),
}
ALLOWED_FINAL_RUN_MOVES = {
    FinalRunState.queued: {FinalRunState.running, FinalRunState.cancelled, FinalRunState.failed},
    FinalRunState.running: {
        FinalRunState.cancelling,
        FinalRunState.completed,
        FinalRunState.failed,
    },
    FinalRunState.cancelling: {
        FinalRunState.cancelled,
        FinalRunState.completed,
        FinalRunState.failed,
    },
    FinalRunState.completed: set(),
    FinalRunState.failed: set(),
    FinalRunState.cancelled: set(),
}


def moved_as_allowed(
    row: Any, move: Callable[[Any, Any], None], allowed: set[Any], target: Any
) -> bool:
    """Move ``row`` to ``target`` if ``allowed`` holds it; else the move must raise, naming both
    states, and leave the row as it was. Whether it moved."""
    current = row.state
    if target in allowed:
        move(row, target)
        assert row.state == target.value
        return True
    with pytest.raises(IllegalTransition, match=f"from {current} to {target.value}"):
        move(row, target)
    assert row.state == current
    return False


@pytest.mark.parametrize("current", list(E))
@pytest.mark.parametrize("target", list(E))
def test_an_experiment_moves_exactly_as_its_lifecycle_allows(current: E, target: E) -> None:
    row = ExperimentRow(state=current.value)
    if moved_as_allowed(row, move_experiment, ALLOWED_EXPERIMENT_MOVES[current], target):
        assert (row.finished_at is not None) == target.is_final


@pytest.mark.parametrize("current", list(T))
@pytest.mark.parametrize("target", list(T))
def test_a_trial_moves_exactly_as_its_lifecycle_allows(current: T, target: T) -> None:
    moved_as_allowed(
        TrialRow(state=current.value), move_trial, ALLOWED_TRIAL_MOVES[current], target
    )


@pytest.mark.parametrize("current", list(FinalRunState))
@pytest.mark.parametrize("target", list(FinalRunState))
def test_a_final_run_moves_exactly_as_its_lifecycle_allows(
    current: FinalRunState, target: FinalRunState
) -> None:
    row = FinalRunRow(state=current.value)
    moved_as_allowed(row, move_final_run, ALLOWED_FINAL_RUN_MOVES[current], target)


def test_the_documented_lifecycles_are_allowed_and_finals_are_final() -> None:
    for path in (
        [E.queued, E.running, E.completed],
        [E.queued, E.running, E.failed],
        [E.queued, E.cancelled],
        [E.queued, E.running, E.cancelling, E.cancelled],
    ):
        row = ExperimentRow(state=path[0].value)
        for state in path[1:]:
            move_experiment(row, state)
        assert row.started_at is not None or E.running not in path
    # a final sweep moves only when extended (queued again); a failed one never
    assert EXPERIMENT_MOVES[E.failed] == frozenset()
    for final in (E.completed, E.cancelled):
        assert EXPERIMENT_MOVES[final] == frozenset({E.queued})
    # a final trial moves only when an extension continues it: a completed one, or one
    # promotion ASHA ended at its rung (it waits there again)
    assert TRIAL_MOVES[T.completed] == TRIAL_MOVES[T.cancelled] == frozenset({T.pending})
    assert TRIAL_MOVES[T.pruned] == frozenset({T.paused})
    assert TRIAL_MOVES[T.failed] == frozenset()
    # promotion ASHA: a trial pauses at a rung and is promoted, or ends there
    row = TrialRow(state=T.running.value)
    for state in (T.paused, T.running, T.paused, T.pruned):
        move_trial(row, state)
    assert row.finished_at is not None


def test_the_state_sets_split_each_kind_of_state_as_its_moves_say() -> None:
    """An ended state has no move on but the ones that start a run again (an extension); an
    open trial is every trial not ended; an active sweep or final run is one its job holds."""
    assert set(TRIAL_OPEN) == set(T) - set(TRIAL_ENDED)
    assert [s for s in T if s.is_final] == list(TRIAL_ENDED)
    assert [s for s in E if s.is_final] == list(EXPERIMENT_ENDED)
    assert [s for s in FinalRunState if s.is_final] == list(FINAL_RUN_ENDED)
    assert all(FINAL_RUN_MOVES[s] == frozenset() for s in FINAL_RUN_ENDED)
    assert all(EXPERIMENT_MOVES[s] <= {E.queued} for s in EXPERIMENT_ENDED)
    assert set(EXPERIMENT_ACTIVE) == {E.running, E.pausing, E.cancelling}
    assert set(FINAL_RUN_ACTIVE) == {FinalRunState.running, FinalRunState.cancelling}
