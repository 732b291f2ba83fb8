"""Spec -> Tune: parameter space, search algorithm and scheduler."""

from __future__ import annotations

import math
import warnings
from typing import Any

from optuna.exceptions import ExperimentalWarning
from optuna.samplers import (
    BaseSampler,
    CmaEsSampler,
    GPSampler,
    QMCSampler,
    RandomSampler,
    TPESampler,
)
from optuna.trial import TrialState as OptunaTrialState
from optuna.trial import create_trial
from ray import tune
from ray.tune.schedulers import FIFOScheduler, TrialScheduler
from ray.tune.search import BasicVariantGenerator, SearchAlgorithm, Searcher
from ray.tune.search.optuna import OptunaSearch

from raysweep.lifecycle import TrialState
from raysweep.search_space import (
    Choice,
    Constant,
    Grid,
    IntRange,
    LogUniform,
    Parameter,
    Uniform,
)
from raysweep.spec import Constraint, ExperimentSpec
from service.engine.driver_context import DriverContext
from service.engine.pbt import PopulationTraining
from service.engine.promotion_asha import PromotionASHA
from service.engine.stopping_asha import StoppingASHA
from service.engine.trial import RUN_KEY
from service.usecases.extension import Evaluated, History
from service.usecases.studies import metric_in


def tune_domain(parameter: Parameter) -> Any:
    match parameter:
        case Uniform(low=low, high=high):
            return tune.uniform(low, high)
        case LogUniform(low=low, high=high):
            return tune.loguniform(low, high)
        case IntRange(low=low, high=high, log=True):
            return tune.lograndint(low, high + 1)
        case IntRange(low=low, high=high, step=1):
            return tune.randint(low, high + 1)
        case IntRange(low=low, high=high, step=step):
            return tune.qrandint(low, high, step)  # inclusive of high
        case Choice(values=values):
            return tune.choice(values)
        case Grid(values=values):
            return tune.grid_search(values)
        case Constant(value=value):
            return value
    raise TypeError(f"unknown parameter {parameter!r}")


def param_space(spec: ExperimentSpec) -> dict[str, Any]:
    if isinstance(spec.search_space, str):
        raise ValueError("the stored spec must carry its search space inline")
    return {name: tune_domain(p) for name, p in spec.search_space.items()}


# what a constraint violation that cannot be measured (the metric missing or not finite) is told
# as: Optuna refuses NaN, and an infinity would swamp the GP's constraint model
UNMEASURED_VIOLATION = 1e9


class ObjectiveSearch(OptunaSearch):
    """Optuna as the sweep's objectives and constraints ask: one metric or several (a list
    Tune's scalar ``metric`` must not replace: Tune passes the scalar ASHA uses), and each
    constraint's violation set on the Optuna trial before it is told, for the samplers that
    model feasibility (TPE, GP)."""

    def __init__(self, constraints: list[Constraint], **options: Any) -> None:
        super().__init__(**options)
        self.constraints = constraints

    def set_search_properties(
        self, metric: str | None, mode: str | None, config: dict[str, Any], **spec: Any
    ) -> bool:
        if isinstance(self._metric, list):
            metric, mode = None, None
        return bool(super().set_search_properties(metric, mode, config, **spec))

    def add_evaluated_points(self, point: Evaluated) -> None:
        """A stored trial told to a multi-objective study (``add_evaluated_point`` takes one
        value): completed with every objective's value, pruned (Optuna keeps no intermediate
        values of several objectives), or else failed."""
        state = (
            OptunaTrialState.PRUNED
            if point.state is TrialState.pruned
            else OptunaTrialState.COMPLETE
            if point.values is not None and point.state is TrialState.completed
            else OptunaTrialState.FAIL
        )
        if self._ot_study is None or not isinstance(self._space, dict):
            raise RuntimeError("the search space is not set yet")
        self._ot_study.add_trial(
            create_trial(
                state=state,
                values=point.values if state is OptunaTrialState.COMPLETE else None,
                params=point.params,
                distributions=self._space,
            )
        )

    def on_trial_complete(
        self, trial_id: str, result: dict[str, Any] | None = None, error: bool = False
    ) -> None:
        ot_trial = self._ot_trials.get(trial_id)
        if result and ot_trial is not None and trial_id not in self._completed_trials:
            for constraint in self.constraints:
                violation = constraint.violation(metric_in(result, constraint.metric))
                ot_trial.set_constraint(
                    constraint.metric,
                    violation if math.isfinite(violation) else UNMEASURED_VIOLATION,
                )
        super().on_trial_complete(trial_id, result=result, error=error)


class SweepSearcher(Searcher):
    """Optuna, with what a sweep adds: under promotion ASHA a new configuration only goes into
    a trial slot no promotion wants (Tune's ``ConcurrencyLimiter`` would count paused trials as
    running); in an extended sweep, the earlier trials known to Optuna from the start and the
    continuing ones suggested first (Optuna never hears of them: they are not its trials)."""

    def __init__(self, searcher: ObjectiveSearch, limit_slots: bool, history: History) -> None:
        super().__init__(metric=searcher.metric, mode=searcher.mode)
        self.searcher = searcher
        self.limit_slots = limit_slots
        self.history = history
        self.continuing = [(name, config) for name, config, _ in history.continuing]
        self.continued: set[str] = set()  # Tune ids of the continuing trials

    def set_search_properties(
        self, metric: str | None, mode: str | None, config: dict[str, Any], **spec: Any
    ) -> bool:
        if not self.searcher.set_search_properties(metric, mode, config, **spec):
            return False
        multi = isinstance(self.searcher.metric, list)
        for point in self.history.evaluated:
            if multi:
                self.searcher.add_evaluated_points(point)
                continue
            pruned = point.state is TrialState.pruned and point.value is not None
            self.searcher.add_evaluated_point(
                point.params,
                point.value if point.value is not None else math.nan,
                error=point.state is TrialState.failed or point.value is None,
                pruned=pruned,
                # Optuna reads a pruned trial's last intermediate value
                intermediate_values=[point.value] if pruned and point.value is not None else None,
            )
        return True

    def suggest(self, trial_id: str) -> dict[str, Any] | None:
        context = DriverContext.current() if self.limit_slots else None
        if context is not None and context.new_trial_slots <= 0:
            return None
        suggestion: dict[str, Any] | None
        if self.continuing:
            name, config = self.continuing.pop(0)
            self.continued.add(trial_id)
            suggestion = {**config, RUN_KEY: name}
        else:
            suggestion = self.searcher.suggest(trial_id)
        if context is not None and suggestion not in (None, Searcher.FINISHED):
            context.new_trial_slots -= 1
        return suggestion

    def on_trial_result(self, trial_id: str, result: dict[str, Any]) -> None:
        if trial_id not in self.continued:
            self.searcher.on_trial_result(trial_id, result)

    def on_trial_complete(
        self, trial_id: str, result: dict[str, Any] | None = None, error: bool = False
    ) -> None:
        if trial_id not in self.continued:
            self.searcher.on_trial_complete(trial_id, result=result, error=error)

    def get_state(self) -> dict[str, Any]:
        # its own state (Tune saves the wrapped searcher's); the slots are per driver
        return {"continuing": self.continuing, "continued": self.continued}

    def set_state(self, state: dict[str, Any]) -> None:
        self.continuing, self.continued = state["continuing"], state["continued"]

    def save(self, checkpoint_path: str) -> None:
        self.searcher.save(checkpoint_path)

    def restore(self, checkpoint_path: str) -> None:
        self.searcher.restore(checkpoint_path)


def sampler(algorithm: str, seed: int | None, num_samples: int) -> BaseSampler:
    """Optuna's sampler for ``search.algorithm``; the spec check (``service.specs``) has made
    sure it can take the space."""
    match algorithm:
        case "tpe":
            return TPESampler(seed=seed)
        case "random":
            return RandomSampler(seed=seed)
        case "gp":
            # GP is for small budgets: random for a third of them at most (Optuna's 10 would
            # leave a 12-trial sweep two modelled suggestions)
            startup = min(10, max(2, num_samples // 3))
            return GPSampler(seed=seed, n_startup_trials=startup)
        case "cmaes":
            # choices go to its independent sampler, seeded the same
            return CmaEsSampler(seed=seed, warn_independent_sampling=False)
        case "qmc":
            with warnings.catch_warnings():  # "experimental" since Optuna 3.0, said once a sweep
                warnings.simplefilter("ignore", ExperimentalWarning)
                return QMCSampler(
                    qmc_type="sobol", scramble=True, seed=seed, warn_independent_sampling=False
                )
    raise ValueError(f"no Optuna sampler for algorithm {algorithm!r}")


def search_algorithm(
    spec: ExperimentSpec, history: History | None = None
) -> Searcher | SearchAlgorithm:
    search = spec.search
    # an extension's searcher has evaluated them already
    extends = history is not None and history.extends
    points = None if extends else [dict(p) for p in search.points_to_evaluate] or None
    space = spec.search_space if isinstance(spec.search_space, dict) else {}
    nothing_sampled = all(isinstance(p, Constant) for p in space.values())
    # Optuna refuses a space with nothing to sample; a fixed config needs no searcher anyway
    if search.algorithm == "grid" or nothing_sampled:
        # Tune ignores max_concurrent_trials for a generator passed in: it carries the limit,
        # except under promotion ASHA, which parks what it cannot run yet (paused trials would
        # count against the generator's limit)
        segmented = spec.early_stopping.segmented
        return BasicVariantGenerator(
            points_to_evaluate=points,
            random_state=search.seed,
            max_concurrent=0 if segmented else search.max_concurrent_trials or 0,
        )
    objectives = spec.all_objectives if spec.multi_objective else None
    optuna = ObjectiveSearch(
        spec.constraints,
        sampler=sampler(search.algorithm, search.seed, search.num_samples),
        points_to_evaluate=points,
        metric=[o.metric for o in objectives] if objectives else None,
        mode=[o.mode for o in objectives] if objectives else None,
    )
    promotion = spec.early_stopping.scheduler == "asha_promotion"
    if not promotion and history is None:
        return optuna
    return SweepSearcher(optuna, promotion, history or History())


def scheduler(
    spec: ExperimentSpec, time_attr: str, max_running: int, storage_path: str = ""
) -> TrialScheduler:
    """``max_running``: how many trials promotion ASHA and PBT let train at once;
    ``storage_path``: where the trials' Train runs live (PBT copies checkpoints there)."""
    early = spec.early_stopping
    if early.scheduler == "none":
        return FIFOScheduler()
    if early.scheduler == "pbt":
        population = early.population
        return PopulationTraining(
            time_attr=time_attr,
            metric=spec.primary.metric,
            mode=spec.primary.mode,
            max_t=early.max_t,
            interval=population.perturbation_interval,
            quantile_fraction=population.quantile_fraction,
            resample_probability=population.resample_probability,
            space=spec.search_space if isinstance(spec.search_space, dict) else {},
            mutate=list(population.mutate or []),
            max_running=max_running,
            storage_path=storage_path,
            seed=spec.search.seed,
        )
    if early.scheduler == "asha_promotion":
        return PromotionASHA(
            time_attr=time_attr,
            metric=spec.primary.metric,
            mode=spec.primary.mode,
            max_t=early.max_t,
            grace_period=early.grace_period,
            reduction_factor=early.reduction_factor,
            brackets=early.brackets,
            max_running=max_running,
            seed=spec.search.seed,
        )
    return StoppingASHA(
        time_attr=time_attr,
        max_t=early.max_t,
        grace_period=early.grace_period,
        reduction_factor=early.reduction_factor,
        brackets=early.brackets,
    )
