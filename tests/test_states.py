"""The one transition function: allowed moves happen with their timestamps, others raise."""

from __future__ import annotations

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
from service.db.models.sweeps import ExperimentRow, TrialRow
from service.states import (
    EXPERIMENT_MOVES,
    FINAL_RUN_MOVES,
    TRIAL_MOVES,
    IllegalTransition,
    move_experiment,
    move_trial,
)


@pytest.mark.parametrize("current", list(E))
@pytest.mark.parametrize("target", list(E))
def test_experiment_moves_follow_the_table(current: E, target: E) -> None:
    row = ExperimentRow(state=current.value)
    if target in EXPERIMENT_MOVES[current]:
        move_experiment(row, target)
        assert row.state == target.value
        assert (row.finished_at is not None) == target.is_final
    else:
        with pytest.raises(IllegalTransition, match=f"from {current.value} to {target.value}"):
            move_experiment(row, target)
        assert row.state == current.value


@pytest.mark.parametrize("current", list(T))
@pytest.mark.parametrize("target", list(T))
def test_trial_moves_follow_the_table(current: T, target: T) -> None:
    row = TrialRow(state=current.value)
    if target in TRIAL_MOVES[current]:
        move_trial(row, target)
        assert row.state == target.value
    else:
        with pytest.raises(IllegalTransition):
            move_trial(row, target)
        assert row.state == current.value


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
