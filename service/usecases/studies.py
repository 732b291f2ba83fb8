"""Stored trials as an in-memory Optuna study, for the analyses Optuna makes of one
(importance, convergence): the distributions Ray's ``OptunaSearch`` samples a spec's space from,
and one completed Optuna trial per stored configuration and value."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import optuna
from optuna.distributions import (
    BaseDistribution,
    CategoricalDistribution,
    FloatDistribution,
    IntDistribution,
)

from raysweep.mode import Mode
from raysweep.search_space import Choice, Constant, Grid, IntRange, LogUniform, Parameter, Uniform
from raysweep.spec import Constraint, ExperimentSpec, Objective

optuna.logging.set_verbosity(optuna.logging.WARNING)  # no line per in-memory study


def distribution(parameter: Parameter) -> BaseDistribution | None:
    """The Optuna distribution Ray's ``OptunaSearch`` samples the parameter from; None for a
    constant."""
    match parameter:
        case Uniform(low=low, high=high):
            return FloatDistribution(low, high)
        case LogUniform(low=low, high=high):
            return FloatDistribution(low, high, log=True)
        case IntRange(low=low, high=high, step=step, log=log):
            return IntDistribution(low, high, log=log, step=step)
        case Choice(values=values) | Grid(values=values):
            return CategoricalDistribution(values)
    return None


def metric_in(metrics: Mapping[str, Any], name: str) -> float | None:
    """A reported metric as a number: None when missing, not a number or not finite."""
    value = metrics.get(name)
    if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value):
        return float(value)
    return None


def feasible(constraints: Iterable[Constraint], metrics: Mapping[str, Any]) -> bool:
    """Whether a result keeps every constraint (a missing constrained metric does not)."""
    return all(c.violation(metric_in(metrics, c.metric)) <= 0 for c in constraints)


def tracked_metrics(spec: ExperimentSpec) -> list[str]:
    """The metrics whose latest values a trial keeps: every objective's and constraint's."""
    names = [o.metric for o in spec.all_objectives] + [c.metric for c in spec.constraints]
    return list(dict.fromkeys(names))


def stored_values(
    stored: Mapping[str, float | None] | None,
    last_metric: float | None,
    objectives: Sequence[Objective],
) -> list[float] | None:
    """A trial's latest value of each objective (its stored ``objective_values``), or None when
    one is missing or not finite."""
    if not stored and len(objectives) == 1:  # a trial recorded before the values were kept
        # (and every single-objective trial: the common case, ~100,000 calls for a large sweep)
        value = finite(last_metric)
        return None if value is None else [float(value)]
    known = dict(stored or {})
    values = [finite(known.get(o.metric)) for o in objectives]
    return None if any(v is None for v in values) else [float(v) for v in values if v is not None]


def finite(value: float | None) -> float | None:
    """A stored metric as Optuna may be told it: a NaN or infinite value as none (a failure)."""
    return value if value is not None and math.isfinite(value) else None


def fits(parameter: Parameter, value: Any) -> bool:
    """Whether ``value`` is one the parameter can take (Optuna refuses a trial outside its
    distributions)."""
    number = isinstance(value, int | float) and not isinstance(value, bool)
    match parameter:
        case Uniform(low=low, high=high) | LogUniform(low=low, high=high):
            return number and low <= value <= high
        case IntRange(low=low, high=high, step=step):
            return isinstance(value, int) and low <= value <= high and (value - low) % step == 0
        case Choice(values=values) | Grid(values=values):
            return value in values
    return False


def params_in(space: dict[str, Parameter], config: dict[str, Any]) -> dict[str, Any] | None:
    """A stored config's sampled parameters, or None when one is missing or outside ``space``
    (another sweep's, or a config from before the space changed)."""
    sampled = [name for name, p in space.items() if not isinstance(p, Constant)]
    if all(name in config and fits(space[name], config[name]) for name in sampled):
        return {name: config[name] for name in sampled}
    return None


def distributions_of(space: dict[str, Parameter]) -> dict[str, BaseDistribution]:
    """The sampled parameters' distributions."""
    return {name: found for name, p in space.items() if (found := distribution(p)) is not None}


def completed_study(
    mode: str,
    distributions: dict[str, BaseDistribution],
    points: list[tuple[dict[str, Any], float]],
) -> optuna.Study:
    """A study whose trials are ``points`` (params, value), completed, in that order."""
    study = optuna.create_study(direction=Mode(mode).direction)
    study.add_trials(
        [
            optuna.trial.create_trial(params=params, distributions=distributions, value=value)
            for params, value in points
        ]
    )
    return study
