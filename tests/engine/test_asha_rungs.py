"""The stopping ASHA decides as Ray's ``ASHAScheduler`` does (no Ray cluster needed: a scheduler
is fed results): the same random streams of results, over several brackets, grace periods and
reduction factors, NaNs included, get the same CONTINUE/STOP from both, and ours stores a
decision for every rung it recorded a trial at, with the cutoff it compared against."""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np
import pytest
from ray.tune.experiment import Trial
from ray.tune.schedulers import ASHAScheduler, TrialScheduler

from raysweep.lifecycle import RungDecisionKind
from service.engine.driver_context import DriverContext
from service.engine.stopping_asha import StoppingASHA
from service.usecases.decisions import RungDecided


class Decisions:
    """Where the scheduler's decisions go (the recorder's place in a driver)."""

    def __init__(self) -> None:
        self.stored: list[RungDecided] = []

    def submit(self, op: Any) -> None:
        self.stored.append(op)


def bind_context(decisions: Decisions, mode: str, max_t: int) -> DriverContext:
    return DriverContext(
        recorder=decisions,  # type: ignore[arg-type]
        read_request=lambda: None,
        time_attr="epoch",
        max_t=max_t,
        metric="loss",
        mode=mode,
        target=None,
    ).bind()


class Feed:
    """Results fed to a scheduler: (trial index, value) in order, each the trial's next epoch;
    a stopped trial or one at ``max_t`` completes and reports no more."""

    def __init__(self, trials: list[Trial], max_t: int) -> None:
        self.trials, self.max_t = trials, max_t
        self.epoch = [0] * len(trials)
        self.done = [False] * len(trials)

    def run(self, scheduler: Any, stream: list[tuple[int, float]], add: bool = False) -> list[str]:
        """Every action the scheduler answers (``add``: the trials are added first)."""
        if add:
            for trial in self.trials:
                scheduler.on_trial_add(None, trial)
        actions = []
        for index, value in stream:
            if self.done[index]:
                continue
            self.epoch[index] += 1
            result = {"epoch": self.epoch[index], "loss": value}
            action = scheduler.on_trial_result(None, self.trials[index], result)
            actions.append(action)
            if action == TrialScheduler.STOP or self.epoch[index] >= self.max_t:
                self.done[index] = True
                scheduler.on_trial_complete(None, self.trials[index], result)
        return actions


def run(
    scheduler: Any, stream: list[tuple[int, float]], trials: list[Trial], max_t: int
) -> list[str]:
    return Feed(trials, max_t).run(scheduler, stream, add=True)


CASES = [
    # (mode, max_t, grace_period, reduction_factor, brackets)
    ("min", 9, 1, 3, 1),
    ("max", 27, 1, 3, 3),
    ("min", 20, 2, 2, 2),
    ("max", 16, 1, 4, 1),
    ("min", 10, 3, 2.5, 2),
]


@pytest.mark.parametrize(("mode", "max_t", "grace", "factor", "brackets"), CASES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_stopping_asha_decides_as_rays_asha_does(
    mode: str, max_t: int, grace: int, factor: float, brackets: int, seed: int
) -> None:
    rng = random.Random(seed)
    count = 40
    trials = [
        Trial("fake", config={"lr": i}, trial_id=f"t{i:03d}", stub=True) for i in range(count)
    ]
    stream = [
        (rng.randrange(count), math.nan if rng.random() < 0.03 else rng.gauss(0, 1))
        for _ in range(count * max_t * 2)
    ]
    options = {"time_attr": "epoch", "max_t": max_t, "grace_period": grace,
               "reduction_factor": factor, "brackets": brackets}  # fmt: skip

    rays = ASHAScheduler(metric="loss", mode=mode, **options)
    np.random.seed(seed)
    expected = run(rays, stream, trials, max_t)

    ours = StoppingASHA(**options)
    assert ours.set_search_properties("loss", mode)
    decisions = Decisions()
    context = bind_context(decisions, mode, max_t)
    np.random.seed(seed)  # the same bracket for each trial
    actual = run(ours, stream, trials, max_t)

    assert actual == expected
    assert TrialScheduler.STOP in actual and TrialScheduler.CONTINUE in actual
    # a decision for every rung a trial was recorded at, the pruned ones noted for Tune's end
    recorded = sum(len(r) for bracket in ours._brackets for _, r in bracket.rungs)
    assert len(decisions.stored) == recorded
    stopped = [d for d in decisions.stored if d.decision is RungDecisionKind.stop]
    # each stop below max_t is a stored stop decision and a pruned trial (a stop at max_t
    # completes its trial)
    assert len(context.pruned) == len(stopped) <= actual.count(TrialScheduler.STOP)
    for decision in stopped:  # stopped below the cutoff it saw
        assert decision.cutoff is not None and decision.value is not None
        worse = (
            decision.value > decision.cutoff if mode == "min" else decision.value < decision.cutoff
        )
        assert worse, decision


def test_a_restored_driver_rebuilds_the_rungs_from_the_stored_decisions() -> None:
    """A driver that died mid-sweep: the next one's scheduler starts from the decisions the
    first stored (Tune saves no scheduler state) and decides the rest as Ray's ASHA, which saw
    the whole sweep, does."""
    rng = random.Random(7)
    count, max_t = 30, 9
    trials = [
        Trial("fake", config={"lr": i}, trial_id=f"t{i:03d}", stub=True) for i in range(count)
    ]
    stream = [(rng.randrange(count), rng.gauss(0, 1)) for _ in range(count * max_t * 2)]
    first_half, second_half = stream[: len(stream) // 3], stream[len(stream) // 3 :]
    options = {"time_attr": "epoch", "max_t": max_t, "grace_period": 1, "reduction_factor": 3,
               "brackets": 1}  # fmt: skip

    rays = ASHAScheduler(metric="loss", mode="min", **options)
    state = Feed(trials, max_t)
    state.run(rays, first_half, add=True)
    expected = state.run(rays, second_half)

    first = StoppingASHA(metric="loss", mode="min", **options)
    decisions = Decisions()
    bind_context(decisions, "min", max_t)
    state = Feed(trials, max_t)
    state.run(first, first_half, add=True)
    stored = [(d.tune_id, d) for d in decisions.stored]
    assert stored

    restored = StoppingASHA(metric="loss", mode="min", **options)
    context = bind_context(Decisions(), "min", max_t)
    context.read_decisions = lambda: stored
    for index, trial in enumerate(trials):  # the trials that have not ended come back
        if not state.done[index]:
            restored.on_trial_add(None, trial)
    actual = state.run(restored, second_half)

    assert actual == expected and TrialScheduler.STOP in actual
