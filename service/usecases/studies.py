"""Stored trials as an in-memory Optuna study, for the analyses Optuna makes of one
(importance, convergence): the distributions Ray's ``OptunaSearch`` samples a spec's space from,
and one completed Optuna trial per stored configuration and value."""

from __future__ import annotations

from typing import Any

import optuna
from optuna.distributions import (
    BaseDistribution,
    CategoricalDistribution,
    FloatDistribution,
    IntDistribution,
)

from raysweep.search_space import Choice, Grid, IntRange, LogUniform, Parameter, Uniform

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


def distributions_of(space: dict[str, Parameter]) -> dict[str, BaseDistribution]:
    """The sampled parameters' distributions."""
    return {name: found for name, p in space.items() if (found := distribution(p)) is not None}


def completed_study(
    mode: str,
    distributions: dict[str, BaseDistribution],
    points: list[tuple[dict[str, Any], float]],
) -> optuna.Study:
    """A study whose trials are ``points`` (params, value), completed, in that order."""
    study = optuna.create_study(direction="maximize" if mode == "max" else "minimize")
    study.add_trials(
        [
            optuna.trial.create_trial(params=params, distributions=distributions, value=value)
            for params, value in points
        ]
    )
    return study
