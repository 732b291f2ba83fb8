"""Stopping ASHA (``asha`` in a spec): a trial below its rung's cutoff stops, decided as
Ray's ``ASHAScheduler`` decides; every decision stored when it is made, and the rungs rebuilt
from the stored decisions in a restored driver. ``service/engine/asha.py`` says how the two
forms of ASHA differ."""

from __future__ import annotations

import logging
import math
from typing import Any

import numpy as np
from ray.tune.experiment import Trial
from ray.tune.schedulers import FIFOScheduler, TrialScheduler

from raysweep.lifecycle import RungDecisionKind as Kind
from raysweep.mode import Mode
from service.engine.driver_context import DriverContext
from service.engine.trial import named
from service.usecases.decisions import RungDecided, percentile, rank_in

log = logging.getLogger(__name__)


class Bracket:
    """One bracket of stopping ASHA, spaced as Ray's ``_Bracket`` (rungs at
    grace * rf**(k + s), the highest first), each rung the values its trials had there (signed:
    larger is better)."""

    def __init__(self, grace_period: int, max_t: int, reduction_factor: float, index: int):
        self.reduction_factor = reduction_factor
        count = int(math.log(max_t / grace_period) / math.log(reduction_factor) - index + 1)
        self.rungs: list[tuple[float, dict[str, float]]] = [
            (grace_period * reduction_factor ** (k + index), {}) for k in reversed(range(count))
        ]

    def cutoff(self, recorded: dict[str, float]) -> float | None:
        """The value a trial must reach to go on: the rung's top 1/rf (NaNs left out, as
        numpy's ``nanpercentile`` leaves them); None for an empty rung."""
        values = [v for v in recorded.values() if not math.isnan(v)]
        if not recorded:
            return None
        if not values:
            return math.nan  # nothing compares below it: the trial goes on
        return percentile(values, (1 - 1 / self.reduction_factor) * 100)

    def on_result(self, tune_id: str, iteration: float, value: float | None) -> bool:
        """Record the trial at the highest rung it reached and has no value at; whether it is
        below that rung's cutoff (and stops)."""
        for milestone, recorded in self.rungs:
            if iteration < milestone or tune_id in recorded:
                continue
            cutoff = self.cutoff(recorded)
            stop = value is not None and cutoff is not None and value < cutoff
            if value is not None:
                recorded[tune_id] = value
            return stop
        return False

    def recorded_at(self, tune_id: str) -> set[float]:
        return {milestone for milestone, recorded in self.rungs if tune_id in recorded}


class StoppingASHA(FIFOScheduler):
    """Asynchronous successive halving that stops a trial below its rung's cutoff (Li et al.,
    MLSys 2020), deciding as Ray's ``ASHAScheduler`` does (its brackets, bracket choice, rungs
    and cutoffs; ``tests/engine/test_asha_rungs.py`` compares them) on rung code of its own: it
    stores each decision with the cutoff, rank and rung size it saw, notes the trials it pruned
    (stopped before ``max_t``: Tune ends both kinds as TERMINATED), and a restored driver's
    rungs are rebuilt from the stored decisions."""

    def __init__(
        self,
        time_attr: str,
        max_t: int,
        grace_period: int,
        reduction_factor: float,
        brackets: int,
        metric: str | None = None,
        mode: str | None = None,
    ) -> None:
        super().__init__()
        self._metric: str | None = metric
        self._mode: str | None = mode
        self._time_attr, self._max_t = time_attr, max_t
        self._brackets = [
            Bracket(grace_period, max_t, reduction_factor, index) for index in range(brackets)
        ]
        self._bracket_of: dict[str, Bracket] = {}  # each running trial's
        self._restored = False
        self._stored_bracket: dict[str, int] = {}  # restored trials' brackets

    def set_search_properties(self, metric: str | None, mode: str | None, **spec: Any) -> bool:
        if (self._metric and metric) or (self._mode and mode):
            return False
        self._metric, self._mode = metric or self._metric, mode or self._mode
        return True

    @property
    def _sign(self) -> float:
        return float(Mode(self._mode or "max").sign)

    def on_trial_add(self, tune_controller: Any, trial: Trial) -> None:
        if not self._metric or not self._mode:
            raise ValueError("ASHA needs the sweep's metric and mode")
        self._restore()
        name = named(trial)
        stored = self._stored_bracket.get(name)
        # as Ray chooses: brackets with more rungs likelier (softmax of their rung counts)
        sizes = [len(bracket.rungs) for bracket in self._brackets]
        weights = [math.exp(size - max(sizes)) for size in sizes]
        chosen = int(np.random.choice(len(sizes), p=[w / sum(weights) for w in weights]))
        bracket = self._brackets[chosen if stored is None else stored]
        self._bracket_of[trial.trial_id] = bracket
        if stored is not None and name != trial.trial_id:
            # it continues an earlier trial: its rungs are its own
            for _, recorded in bracket.rungs:
                if name in recorded:
                    recorded[trial.trial_id] = recorded.pop(name)

    def on_trial_result(self, tune_controller: Any, trial: Trial, result: dict[str, Any]) -> str:
        if self._time_attr not in result or self._metric not in result:
            return TrialScheduler.CONTINUE
        if result[self._time_attr] >= self._max_t:
            return TrialScheduler.STOP  # its budget is spent: completed (recorded at its end)
        bracket = self._bracket_of[trial.trial_id]
        before = bracket.recorded_at(trial.trial_id)
        value = result[self._metric]
        stop = bracket.on_result(
            trial.trial_id, result[self._time_attr], None if value is None else self._sign * value
        )
        if stop:
            DriverContext.current().pruned.add(trial.trial_id)
        self._submit_new(trial, bracket, before, Kind.stop if stop else Kind.continue_)
        return TrialScheduler.STOP if stop else TrialScheduler.CONTINUE

    def on_trial_complete(self, tune_controller: Any, trial: Trial, result: dict[str, Any]) -> None:
        bracket = self._bracket_of.pop(trial.trial_id, None)
        if bracket is None or self._time_attr not in result or self._metric not in result:
            return
        before = bracket.recorded_at(trial.trial_id)
        value = result[self._metric]
        bracket.on_result(
            trial.trial_id, result[self._time_attr], None if value is None else self._sign * value
        )
        if result.get(self._time_attr, 0) >= self._max_t:
            self._submit_new(trial, bracket, before, Kind.complete)

    def on_trial_remove(self, tune_controller: Any, trial: Trial) -> None:
        self._bracket_of.pop(trial.trial_id, None)

    def on_trial_error(self, tune_controller: Any, trial: Trial) -> None:
        self._bracket_of.pop(trial.trial_id, None)

    def debug_string(self) -> str:
        return f"Using stopping ASHA: {len(self._brackets)} bracket(s)"

    def _submit_new(self, trial: Trial, bracket: Bracket, before: set[float], kind: Kind) -> None:
        """Submit the decision at the rung where the bracket just recorded the trial."""
        for milestone, recorded in bracket.rungs:
            if trial.trial_id not in recorded or milestone in before:
                continue
            others = {k: v for k, v in recorded.items() if k != trial.trial_id}
            cutoff = bracket.cutoff(others)
            DriverContext.current().recorder.submit(
                RungDecided(
                    named(trial),
                    self._brackets.index(bracket),
                    math.ceil(milestone),
                    recorded[trial.trial_id] * self._sign,
                    None if cutoff is None or math.isnan(cutoff) else cutoff * self._sign,
                    rank_in(recorded, trial.trial_id),
                    len(recorded),
                    kind,
                )
            )
            return

    def _restore(self) -> None:
        """Once per driver: put the stored decisions back into the brackets."""
        if self._restored:
            return
        self._restored = True
        for tune_id, decision in DriverContext.current().read_decisions():
            if decision.value is None or decision.bracket >= len(self._brackets):
                continue
            self._stored_bracket[tune_id] = decision.bracket
            for milestone, recorded in self._brackets[decision.bracket].rungs:
                if math.ceil(milestone) == decision.milestone:
                    recorded[tune_id] = decision.value * self._sign
