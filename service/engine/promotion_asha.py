"""Promotion ASHA (``asha_promotion`` in a spec): trials pause at each rung and the best are
promoted to train on from their checkpoints; every decision stored when it is made, and the
rungs rebuilt from the stored decisions in a restored driver. ``service/engine/asha.py`` says how
the two forms of ASHA differ."""

from __future__ import annotations

import logging
import math
import random
from typing import Any

from ray.tune.experiment import Trial
from ray.tune.schedulers import TrialScheduler

from raysweep.lifecycle import RungDecisionKind as Kind
from raysweep.mode import Mode
from service.engine.driver_context import DriverContext
from service.engine.segments import SegmentedScheduler
from service.engine.trial import BUDGET_KEY, named
from service.usecases.decisions import RungDecided, promotion_milestones, rank_in

log = logging.getLogger(__name__)


class PromotionASHA(SegmentedScheduler):
    """Promotion-based ASHA over Tune's PAUSE. Each trial trains in segments: its budget
    (``BUDGET_KEY`` in its config, read by ``run_trial``) is its next rung, so its Train run ends
    there with a checkpoint and the trial pauses; a promotion raises the budget to the next rung
    and Tune restarts the function, whose Train run resumes from that checkpoint. ``max_running``
    bounds the trials that train at once (paused ones hold nothing); new configurations start
    only in a slot no promotion wants, through ``SweepSearcher`` (searchers) or by parking extra
    trials (generators)."""

    def __init__(
        self,
        *,
        time_attr: str,
        metric: str,
        mode: str,
        max_t: int,
        grace_period: int,
        reduction_factor: float,
        brackets: int,
        max_running: int,
        seed: int | None,
    ) -> None:
        super().__init__(max_running)
        self._time_attr, self._objective, self._max_t = time_attr, metric, max_t
        self._sign = Mode(mode).sign
        self._rf = reduction_factor
        self._milestones = [
            promotion_milestones(grace_period, reduction_factor, max_t, s) for s in range(brackets)
        ]
        # bracket -> rung index -> trial -> sign-applied value (larger is better)
        self._rungs: list[list[dict[str, float]]] = [[{} for _ in m] for m in self._milestones]
        self._promoted: list[list[set[str]]] = [[set() for _ in m] for m in self._milestones]
        self._bracket_of: dict[str, int] = {}
        self._paused: dict[str, int] = {}  # waiting at a rung (its index) for a promotion
        self._budget: dict[str, int] = {}  # the rung a promotion sent a trial to
        self._names: dict[str, str] = {}  # Tune id -> the name the database knows it by
        self._parked: list[str] = []  # new trials waiting for a free slot
        self._rng = random.Random(seed)
        self._restored = False

    # --- Tune's hooks ------------------------------------------------------------------------

    def on_trial_add(self, tune_controller: Any, trial: Trial) -> None:
        self._restore()
        tune_id, name = trial.trial_id, named(trial)
        self._names[tune_id] = name
        if name != tune_id:
            self._rekey(name, tune_id)
        if tune_id not in self._bracket_of:
            # Ray's choice: a bracket with more rungs is likelier (softmax over rung counts)
            sizes = [len(m) for m in self._milestones]
            weights = [math.exp(size - max(sizes)) for size in sizes]
            self._bracket_of[tune_id] = self._rng.choices(range(len(sizes)), weights)[0]
        if trial.status == Trial.TERMINATED:
            return
        self._adopt(trial)
        busy = self._running(tune_controller, but=trial) >= self._max_running
        if tune_id in self._paused or busy:
            # a restored trial paused at a rung, or a new one with no free slot: Tune starts
            # every PENDING trial, so it waits as PAUSED until this scheduler chooses it (Tune
            # files a trial being added under the status it has after this hook)
            if tune_id not in self._paused:
                self._parked.append(tune_id)
            trial.set_status(Trial.PAUSED)

    def _adopt(self, trial: Trial) -> None:
        """Set a trial's budget: the first rung for a new one; for one a restored driver took
        over, the rung its last promotion set (Tune's snapshot may predate it), and if it had
        reached its rung before the last driver stopped, it is paused there (that decision may
        never have been stored)."""
        tune_id, bracket = trial.trial_id, self._bracket_of[trial.trial_id]
        marks = self._milestones[bracket]
        budget = self._budget.get(tune_id, trial.config.get(BUDGET_KEY, marks[0]))
        if trial.config.get(BUDGET_KEY) != budget:
            trial.set_config({**trial.config, BUDGET_KEY: budget})
        result = trial.last_result or {}
        step, value = result.get(self._time_attr), result.get(self._objective)
        if tune_id in self._paused or not isinstance(step, int | float):
            return
        if not budget <= step < self._max_t or not isinstance(value, int | float):
            return
        rung = max(r for r, mark in enumerate(marks) if mark <= step)
        if tune_id not in self._rungs[bracket][rung]:
            self._rungs[bracket][rung][tune_id] = self._sign * float(value)
            self._decide(tune_id, bracket, rung, Kind.pause)
        self._paused[tune_id] = rung

    def on_trial_result(self, tune_controller: Any, trial: Trial, result: dict[str, Any]) -> str:
        step, value = result.get(self._time_attr), result.get(self._objective)
        if not isinstance(step, int | float) or not isinstance(value, int | float):
            return TrialScheduler.CONTINUE
        tune_id = trial.trial_id
        bracket = self._bracket_of.setdefault(tune_id, 0)
        marks, rungs = self._milestones[bracket], self._rungs[bracket]
        due = [r for r, mark in enumerate(marks) if mark <= step and tune_id not in rungs[r]]
        if due:
            rungs[due[-1]][tune_id] = self._sign * float(value)
        if step >= self._max_t:
            if due:
                self._decide(tune_id, bracket, len(marks) - 1, Kind.complete)
            self._hold_actors(tune_controller, trial)
            return TrialScheduler.STOP
        if step < trial.config.get(BUDGET_KEY, self._max_t):
            return TrialScheduler.CONTINUE
        # the segment's last epoch: its Train run ends here, with a checkpoint
        rung = max(r for r, mark in enumerate(marks) if mark <= step)
        self._paused[tune_id] = rung
        if due:
            self._decide(tune_id, bracket, rung, Kind.pause)
        self._hold_actors(tune_controller, trial)
        tune_controller.pause_trial(trial, should_checkpoint=False)
        return TrialScheduler.NOOP

    def choose_trial_to_run(self, tune_controller: Any) -> Trial | None:
        self._restore()
        trials = {trial.trial_id: trial for trial in tune_controller.get_trials()}
        free = self._max_running - self._running(tune_controller)
        context = DriverContext.current()
        context.new_trial_slots = 0
        if free > 0 and context.request is None:
            promotion = self._best_promotable()
            if promotion is not None:
                return self._promote(trials[promotion[2]], *promotion)
            while self._parked:
                tune_id = self._parked.pop(0)
                if tune_id in trials and trials[tune_id].status == Trial.PAUSED:
                    return trials[tune_id]
            context.new_trial_slots = free
        no_more = tune_controller.search_alg.is_finished() or context.request == "cancel"
        if no_more and self._running(tune_controller) == 0 and not self._parked:
            self._end_paused(tune_controller, trials)
        if trials:
            self._hold_actors(tune_controller, next(iter(trials.values())))
        return None

    # --- the algorithm -------------------------------------------------------------------------

    def _best_promotable(self) -> tuple[int, int, str] | None:
        """(bracket, rung, trial) to promote: of the trials paused at a rung, those in their
        rung's top floor(n / rf) not promoted from it yet; the highest rung first, then the
        best value."""
        best: tuple[int, float, int, int, str] | None = None
        for bracket, rungs in enumerate(self._rungs):
            for rung, recorded in enumerate(rungs[:-1]):
                top = sorted(recorded, key=recorded.__getitem__, reverse=True)
                for tune_id in top[: int(len(recorded) / self._rf)]:
                    if self._paused.get(tune_id) != rung:
                        continue
                    if tune_id in self._promoted[bracket][rung]:
                        continue
                    mark = self._milestones[bracket][rung]
                    key = (mark, recorded[tune_id], bracket, rung, tune_id)
                    if best is None or key[:2] > best[:2]:
                        best = key
        return None if best is None else (best[2], best[3], best[4])

    def _promote(self, trial: Trial, bracket: int, rung: int, tune_id: str) -> Trial:
        """Raise the trial's budget to the next rung; Tune restarts it from PAUSED."""
        del self._paused[tune_id]
        self._promoted[bracket][rung].add(tune_id)
        self._decide(tune_id, bracket, rung, Kind.promote)
        self._budget[tune_id] = self._milestones[bracket][rung + 1]
        trial.set_config({**trial.config, BUDGET_KEY: self._budget[tune_id]})
        return trial

    def _rekey(self, name: str, tune_id: str) -> None:
        """A Tune trial continuing an earlier one (an extended sweep) takes over its rungs."""
        for rungs, promoted in zip(self._rungs, self._promoted, strict=True):
            for recorded, promoted_here in zip(rungs, promoted, strict=True):
                if name in recorded:
                    recorded[tune_id] = recorded.pop(name)
                if name in promoted_here:
                    promoted_here.discard(name)
                    promoted_here.add(tune_id)
        for by_trial in (self._bracket_of, self._paused, self._budget):
            if name in by_trial:
                by_trial[tune_id] = by_trial.pop(name)

    def _decide(self, tune_id: str, bracket: int, rung: int, kind: Kind) -> None:
        recorded = self._rungs[bracket][rung]
        keep = int(len(recorded) / self._rf)
        ordered = sorted(recorded.values(), reverse=True)
        # the worst value still promotable: what a trial had to reach
        cutoff = ordered[keep - 1] * self._sign if keep and kind is not Kind.complete else None
        DriverContext.current().recorder.submit(
            RungDecided(
                self._names.get(tune_id, tune_id),
                bracket,
                self._milestones[bracket][rung],
                recorded[tune_id] * self._sign,
                cutoff,
                rank_in(recorded, tune_id),
                len(recorded),
                kind,
            )
        )

    def _waiting_ids(self) -> set[str]:
        return self._paused.keys() | set(self._parked)

    def _end_paused(self, tune_controller: Any, trials: dict[str, Trial]) -> None:
        """Nothing trains, nothing can be promoted and no configuration is left: the trials
        waiting at a rung end there, pruned."""
        context = DriverContext.current()
        for tune_id, rung in list(self._paused.items()):
            self._decide(tune_id, self._bracket_of[tune_id], rung, Kind.stop)
            context.pruned.add(tune_id)
            del self._paused[tune_id]
            if tune_id in trials:
                tune_controller.stop_trial(trials[tune_id])

    def _forget(self, tune_id: str) -> None:
        self._paused.pop(tune_id, None)
        if tune_id in self._parked:
            self._parked.remove(tune_id)

    def _restore(self) -> None:
        """Once per driver: the rungs, promotions and paused trials from the stored decisions
        (a trial whose latest decision is a pause waits; the database's final trials do not)."""
        if self._restored:
            return
        self._restored = True
        context = DriverContext.current()
        for tune_id, decision in context.read_decisions():
            bracket = decision.bracket
            if bracket >= len(self._milestones) or decision.value is None:
                continue
            marks = self._milestones[bracket]
            if decision.milestone not in marks:
                continue
            rung = marks.index(decision.milestone)
            self._bracket_of[tune_id] = bracket
            self._rungs[bracket][rung][tune_id] = decision.value * self._sign
            # it waits at its rung: paused there, or ended there with a sweep since extended
            ended = decision.decision in (Kind.pause, Kind.stop)
            if ended and tune_id not in context.finished_trials:
                self._paused[tune_id] = rung
            elif decision.decision is Kind.promote:
                self._promoted[bracket][rung].add(tune_id)
                self._paused.pop(tune_id, None)
                self._budget[tune_id] = marks[rung + 1]
