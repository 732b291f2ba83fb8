"""Spec -> Tune: parameter space, search algorithm and scheduler."""

from __future__ import annotations

from typing import Any

from optuna.samplers import RandomSampler, TPESampler
from ray import tune
from ray.tune.schedulers import FIFOScheduler, TrialScheduler
from ray.tune.search import BasicVariantGenerator, SearchAlgorithm, Searcher
from ray.tune.search.optuna import OptunaSearch

from raysweep.search_space import (
    Choice,
    Constant,
    Grid,
    IntRange,
    LogUniform,
    Parameter,
    Uniform,
)
from raysweep.spec import ExperimentSpec
from service.engine.asha import PromotionASHA, RecordingASHA, SlotLimiter


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


def search_algorithm(spec: ExperimentSpec) -> Searcher | SearchAlgorithm:
    search = spec.search
    points = [dict(p) for p in search.points_to_evaluate] or None
    space = spec.search_space if isinstance(spec.search_space, dict) else {}
    nothing_sampled = all(isinstance(p, Constant) for p in space.values())
    # Optuna refuses a space with nothing to sample; a fixed config needs no searcher anyway
    if search.algorithm == "grid" or nothing_sampled:
        # Tune ignores max_concurrent_trials for a generator passed in: it carries the limit,
        # except under promotion ASHA, which parks what it cannot run yet (paused trials would
        # count against the generator's limit)
        promotion = spec.early_stopping.scheduler == "asha_promotion"
        return BasicVariantGenerator(
            points_to_evaluate=points,
            random_state=search.seed,
            max_concurrent=0 if promotion else search.max_concurrent_trials or 0,
        )
    sampler = (
        TPESampler(seed=search.seed)
        if search.algorithm == "tpe"
        else RandomSampler(seed=search.seed)
    )
    optuna = OptunaSearch(sampler=sampler, points_to_evaluate=points)
    # promotion ASHA starts a configuration only in a slot no promotion wants
    return SlotLimiter(optuna) if spec.early_stopping.scheduler == "asha_promotion" else optuna


def scheduler(spec: ExperimentSpec, time_attr: str, max_running: int) -> TrialScheduler:
    """``max_running``: how many trials promotion ASHA lets train at once."""
    early = spec.early_stopping
    if early.scheduler == "none":
        return FIFOScheduler()
    if early.scheduler == "asha_promotion":
        return PromotionASHA(
            time_attr=time_attr,
            metric=spec.metric,
            mode=spec.mode,
            max_t=early.max_t,
            grace_period=early.grace_period,
            reduction_factor=early.reduction_factor,
            brackets=early.brackets,
            max_running=max_running,
            seed=spec.search.seed,
        )
    return RecordingASHA(
        time_attr=time_attr,
        max_t=early.max_t,
        grace_period=early.grace_period,
        reduction_factor=early.reduction_factor,
        brackets=early.brackets,
    )
