"""Promotion ASHA's rule, driven by a scripted Tune controller (no Ray cluster): Tune's own
``Trial`` objects and the scheduler's real hooks, with trials that "train" by reporting a known
curve up to the budget the scheduler set. The Ray test (test_promotion_asha.py) runs it for real;
this one covers the rule, the slot accounting and a restored driver in well under a second."""

from __future__ import annotations

import math
import pickle
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ray.tune.experiment import Trial
from ray.tune.schedulers import TrialScheduler
from ray.tune.utils.object_cache import _ObjectCache

from raysweep.lifecycle import RungDecisionKind as Kind
from service.engine.driver_context import DriverContext
from service.engine.promotion_asha import PromotionASHA
from service.engine.trial import BUDGET_KEY, RUN_KEY
from service.usecases.decisions import RungDecided, promotion_milestones

RF = 2
MAX_T = 8
RUNNING = 2


@dataclass
class Decisions:
    made: list[RungDecided] = field(default_factory=list)

    def submit(self, op: Any) -> None:
        assert isinstance(op, RungDecided)
        self.made.append(op)


@dataclass
class SearchAlg:
    remaining: int

    def is_finished(self) -> bool:
        return self.remaining == 0


@dataclass(eq=False)  # hashable by identity, as Tune's is
class Controller:
    """What Tune's controller offers a scheduler, as Tune does it for these calls."""

    scheduler: PromotionASHA
    search_alg: SearchAlg
    trials: list[Trial] = field(default_factory=list)
    # Tune's cache of stopped trials' actors (reuse_actors), which the scheduler holds open
    _actor_cache: _ObjectCache = field(default_factory=_ObjectCache)
    _staged_trials: set[Trial] = field(default_factory=set)
    # per pause: whether the trial's actor (its warm worker group) was kept, and whether the
    # searcher had made every configuration by then
    kept: list[tuple[bool, bool]] = field(default_factory=list)

    def get_trials(self) -> list[Trial]:
        return self.trials

    def _maybe_cache_trial_actor(self, trial: Trial) -> bool:
        # Tune's rule: none once the searcher is finished and no trial is staged
        if self.search_alg.is_finished() and not self._staged_trials:
            return False
        return self._actor_cache.cache_object(trial.placement_group_factory, trial.trial_id)

    def pause_trial(self, trial: Trial, should_checkpoint: bool = True) -> None:
        kept = self._maybe_cache_trial_actor(trial)
        self.kept.append((kept, self.search_alg.is_finished()))
        trial.set_status(Trial.PAUSED)

    def start(self, trial: Trial) -> None:
        """A trial Tune starts takes a kept actor if there is one."""
        self._actor_cache.pop_cached_object(trial.placement_group_factory)
        trial.set_status(Trial.RUNNING)

    def stop_trial(self, trial: Trial) -> None:
        if trial.status in (Trial.PENDING, Trial.PAUSED):
            self.scheduler.on_trial_remove(self, trial)
        trial.set_status(Trial.TERMINATED)

    def add(self, tune_id: str, config: dict[str, Any]) -> Trial:
        trial = Trial("run_trial", config=config, trial_id=tune_id, stub=True)
        self.trials.append(trial)
        self.scheduler.on_trial_add(self, trial)
        return trial


def quality(tune_id: str) -> float:
    """Trial n's final accuracy, in a shuffled order (7n mod 12: trial 5 is the best), and 0
    for the weak ones ("w_" trials); curves rise with the epoch and never cross."""
    prefix, number = tune_id.split("_")
    return 0.0 if prefix == "w" else (int(number) * 7 % 12) / 100


def value_at(tune_id: str, epoch: int) -> float:
    return quality(tune_id) * (1 - 0.5**epoch)


def new_context(decisions: Decisions, read: Callable[[], Any] = list) -> DriverContext:
    return DriverContext(
        recorder=decisions,  # type: ignore[arg-type]
        read_request=lambda: None,
        time_attr="epoch",
        max_t=MAX_T,
        metric="acc",
        mode="max",
        target=None,
        read_decisions=read,
    ).bind()


def scheduler() -> PromotionASHA:
    return PromotionASHA(
        time_attr="epoch",
        metric="acc",
        mode="max",
        max_t=MAX_T,
        grace_period=1,
        reduction_factor=RF,
        brackets=1,
        max_running=RUNNING,
        seed=0,
    )


def run(
    controller: Controller, epochs: dict[str, int], steps: int | None = None, prefix: str = "t"
) -> list[int]:
    """Tune's loop, one trial step at a time: the scheduler chooses, the searcher adds where
    it is allowed, each running trial reports its next epoch; until the sweep ends (or for
    ``steps`` steps). Returns the running counts."""
    context = DriverContext.current()
    running_seen = []
    for _ in range(steps or 10_000):
        chosen = controller.scheduler.choose_trial_to_run(controller)
        if chosen is not None:
            controller.start(chosen)
        while context.new_trial_slots > 0 and controller.search_alg.remaining:
            context.new_trial_slots -= 1
            controller.search_alg.remaining -= 1
            number = len(controller.trials)
            trial = controller.add(f"{prefix}_{number:05d}", {"lr": number})
            if trial.status == Trial.PENDING:
                controller.start(trial)  # Tune starts every PENDING trial
        running = [t for t in controller.trials if t.status == Trial.RUNNING]
        running_seen.append(len(running))
        ended = all(t.status == Trial.TERMINATED for t in controller.trials)
        if not running and ended and controller.search_alg.is_finished():
            return running_seen
        for trial in running:
            epoch = epochs[trial.trial_id] = epochs.get(trial.trial_id, 0) + 1
            assert epoch <= trial.config[BUDGET_KEY], "trained past its budget"
            result = {"epoch": epoch, "acc": value_at(trial.trial_id, epoch)}
            trial.update_last_result(result)
            decision = controller.scheduler.on_trial_result(controller, trial, result)
            if decision == TrialScheduler.STOP:
                controller.scheduler.on_trial_complete(controller, trial, result)
                trial.set_status(Trial.TERMINATED)
    if steps is None:
        raise AssertionError("the sweep did not end")
    return running_seen


def replay(made: list[RungDecided]) -> None:
    rungs: dict[int, dict[str, float]] = {}
    promoted: set[tuple[str, int]] = set()
    for d in made:
        rung = rungs.setdefault(d.milestone, {})
        if d.decision in (Kind.pause, Kind.complete):
            rung[d.tune_id] = d.value or 0.0
            assert (d.rank, d.rung_size) == (
                1 + sum(v > rung[d.tune_id] for v in rung.values()),
                len(rung),
            )
        elif d.decision is Kind.promote:
            top = sorted(rung, key=rung.__getitem__, reverse=True)
            assert d.tune_id in top[: math.floor(len(rung) / RF)]
            assert (d.tune_id, d.milestone) not in promoted
            promoted.add((d.tune_id, d.milestone))
        else:
            assert d.decision is Kind.stop and d.tune_id in rung


def test_the_best_trials_are_promoted_rung_by_rung_and_paused_ones_hold_no_slot() -> None:
    decisions = Decisions()
    context = new_context(decisions)
    controller = Controller(scheduler(), SearchAlg(remaining=12))
    epochs: dict[str, int] = {}

    running_seen = run(controller, epochs)

    assert max(running_seen) == RUNNING  # paused trials never took a slot
    replay(decisions.made)
    assert promotion_milestones(1, RF, MAX_T, 0) == [1, 2, 4, 8]
    completed = {d.tune_id for d in decisions.made if d.decision is Kind.complete}
    assert "t_00005" in completed  # the best configuration reached max_t
    assert all(epochs[t] == MAX_T for t in completed)
    # every trial ended: completed, or pruned at the rung it waited at
    assert context.pruned == {t.trial_id for t in controller.trials} - completed
    for tune_id in context.pruned:
        last = [d for d in decisions.made if d.tune_id == tune_id][-1]
        assert last.decision is Kind.stop and last.milestone == epochs[tune_id]
    # far fewer epochs than running every configuration to max_t
    assert sum(epochs.values()) <= 12 * MAX_T / 2
    # every paused trial's actor was kept for the next segment, also once the searcher had made
    # every configuration (Tune alone keeps none then), and the hold ended with the sweep
    assert any(finished for _, finished in controller.kept)
    assert all(kept for kept, _ in controller.kept)
    assert controller._actor_cache.total_max_objects == 0


def test_a_restored_driver_rebuilds_the_rungs_and_keeps_paused_trials_waiting() -> None:
    decisions = Decisions()
    new_context(decisions)
    first = Controller(scheduler(), SearchAlg(remaining=6))
    epochs: dict[str, int] = {}
    run(first, epochs, steps=6)  # stop midway, some trials paused at a rung
    paused = {t.trial_id for t in first.trials if t.status == Trial.PAUSED}
    assert paused
    # Tune pickles its scheduler (tuner.pkl) and its controller's attributes (the experiment
    # state): the actor hold (up now) takes no controller along, and an unpickled one holds
    # nothing (a new controller's cache is new)
    assert first.scheduler._actors.count == RUNNING
    saved = pickle.dumps(first.scheduler)
    assert b"Controller" not in saved and pickle.loads(saved)._actors.count == 0

    # a new driver: Tune restores every unfinished trial as PENDING with its last result; the
    # scheduler is a fresh one (Tune does not save it) and reads the stored decisions
    stored = [(d.tune_id, d) for d in decisions.made]
    context = new_context(decisions, read=lambda: stored)
    second = Controller(scheduler(), SearchAlg(remaining=first.search_alg.remaining))
    for old in first.trials:
        restored = Trial("run_trial", config=dict(old.config), trial_id=old.trial_id, stub=True)
        restored.update_last_result(dict(old.last_result or {}))
        if old.status == Trial.TERMINATED:
            restored.set_status(Trial.TERMINATED)
        second.trials.append(restored)
        second.scheduler.on_trial_add(second, restored)
    waiting = {t.trial_id for t in second.trials if t.status == Trial.PAUSED}
    assert paused <= waiting  # Tune would have started them as PENDING
    for trial in second.trials:
        if trial.status == Trial.PENDING:
            trial.set_status(Trial.RUNNING)

    run(second, epochs)

    replay(decisions.made)
    completed = {d.tune_id for d in decisions.made if d.decision is Kind.complete}
    assert completed and all(epochs[t] == MAX_T for t in completed)
    assert context.pruned | completed == {t.trial_id for t in second.trials}


def test_an_extension_revives_the_trials_ended_at_their_rungs_as_waiting_there() -> None:
    """A finished promotion sweep extended with more (weaker) configurations: its trials that
    ended paused at a rung (stop decisions) wait there again, and the grown rungs promote
    them."""
    decisions = Decisions()
    new_context(decisions)
    first = Controller(scheduler(), SearchAlg(remaining=4))
    epochs: dict[str, int] = {}
    run(first, epochs)
    ended = {d.tune_id: d.milestone for d in decisions.made if d.decision is Kind.stop}
    assert ended  # some trials ended paused at a rung

    stored = [(d.tune_id, d) for d in decisions.made]
    completed = {d.tune_id for d in decisions.made if d.decision is Kind.complete}
    context = new_context(decisions, read=lambda: stored)
    context.finished_trials = frozenset(completed)  # the revived ones are open again
    second = Controller(scheduler(), SearchAlg(remaining=8))
    for name in ended:  # the extension's Tune trials continuing them, under new Tune ids
        config = {"lr": 0, RUN_KEY: name, BUDGET_KEY: MAX_T}
        revived = second.add(f"x{name}", config)
        assert revived.status == Trial.PAUSED  # parked: it waits for a promotion
    for trial in second.trials:
        epochs[trial.trial_id] = ended[trial.config[RUN_KEY]]

    run(second, epochs, prefix="w")

    promoted_again = {
        d.tune_id for d in decisions.made[len(stored) :] if d.decision is Kind.promote
    }
    # decisions about a revived trial are stored under the name it continues
    assert promoted_again & ended.keys()
    assert not {d.tune_id for d in decisions.made} & {f"x{name}" for name in ended}
    replay([d for d in decisions.made if d.decision is not Kind.stop or d.tune_id not in ended])
