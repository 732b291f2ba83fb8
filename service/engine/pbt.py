"""Population-based training (``early_stopping.scheduler: pbt``) for Train DDP trials, as Ray
Tune's PBT with ``synch=True`` and the segments of promotion ASHA.

Each trial trains in segments of ``perturbation_interval`` epochs: its budget (``BUDGET_KEY``,
read by ``run_trial``) is the end of its segment, where its Train run ends with a checkpoint and
the trial pauses (its actor, with a warm worker group, waits in Tune's cache for the next
segment of any trial). When every live trial of the population waits at the same epoch, the
step is decided: the worst ``quantile_fraction`` each exploit a trial drawn from the best as
many. Each exploit is stored first (``ExploitDecided``: the decision outlives this driver), then
the chosen trial's checkpoint at that epoch is copied into the exploiting trial's Train run and
registered there as its latest, and its config becomes the chosen trial's, explored. Every
trial then trains its next segment, resuming from its run's latest checkpoint; the ones that
exploited resume from the copy. A trial's stored results stay its own: it goes on from the
epoch it had reached, which the copy's trial had reached too, so no epoch is stored twice.

A restored driver rebuilds the steps from the stored exploits: a step with any stored exploit
was decided (its configs are set again: Tune's snapshot may predate them), a step with none is
decided again. An exploit is stored after its copy is made: a driver lost between the two
leaves a copy no decision names, and the trial's next segment resumes from it under its own
config (the step, decided again, may pick it again and copy anew).

Synchronous steps cost little here: a paused trial holds nothing, and every trial trains the
same epochs; a slow trial holds the others at the step (Ray's ``synch`` trade-off).
"""

from __future__ import annotations

import logging
import random
from typing import Any

from ray.tune.experiment import Trial
from ray.tune.schedulers import TrialScheduler

from raysweep.mode import Mode
from raysweep.search_space import Parameter
from service.engine.driver_context import DriverContext
from service.engine.exploit import copy_checkpoint, explore, pairs
from service.engine.segments import SegmentedScheduler
from service.engine.trial import BUDGET_KEY, CONTROL_KEYS, named
from service.usecases.exploits import ExploitDecided

log = logging.getLogger(__name__)


class PopulationTraining(SegmentedScheduler):
    def __init__(
        self,
        *,
        time_attr: str,
        metric: str,
        mode: str,
        max_t: int,
        interval: int,
        quantile_fraction: float,
        resample_probability: float,
        space: dict[str, Parameter],
        mutate: list[str],
        max_running: int,
        storage_path: str,
        seed: int | None,
    ) -> None:
        super().__init__(max_running)
        self._time_attr, self._objective, self._max_t = time_attr, metric, max_t
        self._sign = Mode(mode).sign
        self._interval, self._quantile = interval, quantile_fraction
        self._resample, self._space, self._mutate = resample_probability, space, mutate
        self._storage_path = storage_path
        self._rng = random.Random(seed)
        self._values: dict[int, dict[str, float]] = {}  # step -> trial -> signed value
        self._waiting: dict[str, int] = {}  # trials paused at a step (its epoch)
        self._ready: list[str] = []  # trials whose next segment is set, waiting for a slot
        self._parked: list[str] = []  # new trials waiting for a slot
        self._budget: dict[str, int] = {}  # the end of each trial's current segment
        self._decided: set[int] = set()  # steps decided (by this driver or a stored exploit)
        self._configs: dict[str, dict[str, Any]] = {}  # a restored trial's latest config
        self._names: dict[str, str] = {}  # Tune id -> the name the database knows it by
        self._restored = False

    # --- Tune's hooks ------------------------------------------------------------------------

    def on_trial_add(self, tune_controller: Any, trial: Trial) -> None:
        self._restore()
        tune_id, name = trial.trial_id, named(trial)
        self._names[tune_id] = name
        if name != tune_id:  # an extended sweep's trial continuing an earlier one
            if name in self._budget:
                self._budget[tune_id] = self._budget.pop(name)
            if name in self._configs:
                self._configs[tune_id] = self._configs.pop(name)
        if trial.status == Trial.TERMINATED:
            return
        self._adopt(trial)
        busy = self._running(tune_controller, but=trial) >= self._max_running
        if tune_id in self._waiting or tune_id in self._ready or busy:
            if tune_id not in self._waiting and tune_id not in self._ready:
                self._parked.append(tune_id)
            trial.set_status(Trial.PAUSED)

    def _adopt(self, trial: Trial) -> None:
        """Set a trial's segment: the first for a new one; for one a restored driver took over,
        the config its last stored exploit gave it and, if it had reached a step, a wait there
        (or its next segment, when the step was decided); one stopped mid-segment trains on to
        the segment's end (Tune's snapshot may predate the segment's budget)."""
        tune_id = trial.trial_id
        config = {**trial.config, **self._configs.pop(tune_id, {})}
        result = trial.last_result or {}
        step, value = result.get(self._time_attr), result.get(self._objective)
        budget = self._budget.get(tune_id, config.get(BUDGET_KEY, self._next_end(0)))
        if isinstance(step, int | float) and 0 < step < self._max_t:
            at = int(step)
            if at % self._interval:
                budget = self._next_end(at - at % self._interval)
            elif tune_id not in self._waiting and tune_id not in self._ready:
                if isinstance(value, int | float):
                    self._values.setdefault(at, {})[tune_id] = self._sign * float(value)
                if at in self._decided:
                    budget = self._next_end(at)
                    self._ready.append(tune_id)
                else:
                    self._waiting[tune_id] = at
        self._budget[tune_id] = budget
        if config != trial.config or config.get(BUDGET_KEY) != budget:
            trial.set_config({**config, BUDGET_KEY: budget})

    def on_trial_result(self, tune_controller: Any, trial: Trial, result: dict[str, Any]) -> str:
        step, value = result.get(self._time_attr), result.get(self._objective)
        if not isinstance(step, int | float):
            return TrialScheduler.CONTINUE
        tune_id = trial.trial_id
        if step >= self._max_t:
            self._hold_actors(tune_controller, trial)
            return TrialScheduler.STOP
        if step < trial.config.get(BUDGET_KEY, self._max_t):
            return TrialScheduler.CONTINUE
        # the segment's last epoch: its Train run ends here, with a checkpoint
        at = int(step)
        if isinstance(value, int | float):
            self._values.setdefault(at, {})[tune_id] = self._sign * float(value)
        self._waiting[tune_id] = at
        self._hold_actors(tune_controller, trial)
        tune_controller.pause_trial(trial, should_checkpoint=False)
        return TrialScheduler.NOOP

    def choose_trial_to_run(self, tune_controller: Any) -> Trial | None:
        self._restore()
        trials = {trial.trial_id: trial for trial in tune_controller.get_trials()}
        context = DriverContext.current()
        if context.request is None:
            self._decide_step(tune_controller, trials)
        free = self._max_running - self._running(tune_controller)
        if free > 0 and context.request is None:
            # the trials furthest behind first, so the population reaches each step together
            order = [*self._parked, *sorted(self._ready, key=self._budget.__getitem__)]
            for tune_id in order:
                trial = trials.get(tune_id)
                if trial is None or trial.status != Trial.PAUSED:
                    continue
                for queue in (self._parked, self._ready):
                    if tune_id in queue:
                        queue.remove(tune_id)
                return trial
        if context.request == "cancel" and self._running(tune_controller) == 0:
            for tune_id in [*self._waiting, *self._ready, *self._parked]:
                if tune_id in trials:
                    tune_controller.stop_trial(trials[tune_id])
            self._waiting.clear()
            self._ready.clear()
            self._parked.clear()
        if trials:
            self._hold_actors(tune_controller, next(iter(trials.values())))
        return None

    # --- the algorithm -------------------------------------------------------------------------

    def _decide_step(self, tune_controller: Any, trials: dict[str, Trial]) -> None:
        """Once every live trial of the whole population waits at the same step: its exploits,
        then every trial's next segment."""
        if not self._waiting or not tune_controller.search_alg.is_finished():
            return
        live = {
            tune_id
            for tune_id, trial in trials.items()
            if trial.status not in (Trial.TERMINATED, Trial.ERROR)
        }
        steps = set(self._waiting.values())
        if len(steps) != 1 or live != self._waiting.keys():
            return
        step = steps.pop()
        if step not in self._decided:
            self._decided.add(step)
            values = {t: v for t, v in self._values.get(step, {}).items() if t in live}
            for tune_id, source in pairs(values, self._quantile, self._rng):
                self._exploit(trials[tune_id], trials[source], step, values)
        for tune_id in list(self._waiting):
            del self._waiting[tune_id]
            self._budget[tune_id] = self._next_end(step)
            trial = trials[tune_id]
            trial.set_config({**trial.config, BUDGET_KEY: self._budget[tune_id]})
            self._ready.append(tune_id)

    def _exploit(self, trial: Trial, source: Trial, step: int, values: dict[str, float]) -> None:
        """Copy the source's checkpoint into the trial's run, then store the exploit and give
        the trial the source's config explored. A copy that fails (code that saved no checkpoint
        at the step) leaves the trial as it was, and says why in the driver's log."""
        old = {k: v for k, v in trial.config.items() if k not in CONTROL_KEYS}
        copied = {k: v for k, v in source.config.items() if k not in CONTROL_KEYS}
        new = explore(copied, self._space, self._mutate, self._resample, self._rng)
        name, source_name = self._names[trial.trial_id], self._names[source.trial_id]
        try:
            copy_checkpoint(self._storage_path, source_name, name, step, self._time_attr)
        except Exception:
            log.warning("trial %s could not copy trial %s", name, source_name, exc_info=True)
            return
        DriverContext.current().recorder.submit(
            ExploitDecided(
                name,
                step,
                source_name,
                values[trial.trial_id] * self._sign,
                values[source.trial_id] * self._sign,
                old,
                new,
            )
        )
        control = {k: v for k, v in trial.config.items() if k in CONTROL_KEYS}
        trial.set_config({**new, **control})
        log.info("trial %s copies trial %s at %s %d", name, source_name, self._time_attr, step)

    def _next_end(self, step: int) -> int:
        return min(step + self._interval, self._max_t)

    def _waiting_ids(self) -> set[str]:
        return self._waiting.keys() | set(self._ready) | set(self._parked)

    def _forget(self, tune_id: str) -> None:
        self._waiting.pop(tune_id, None)
        for queue in (self._ready, self._parked):
            if tune_id in queue:
                queue.remove(tune_id)

    def _restore(self) -> None:
        """Once per driver: the steps decided and each trial's latest config, from the stored
        exploits (each stored after its copy was made, so the copies are there)."""
        if self._restored:
            return
        self._restored = True
        for exploit in DriverContext.current().read_exploits():
            self._decided.add(exploit.epoch)
            self._configs[exploit.tune_id] = exploit.new_config
