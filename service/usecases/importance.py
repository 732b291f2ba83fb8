"""Hyperparameter importance from the stored trials, by Optuna's evaluators: which parameters
decided the metric. PED-ANOVA (the default) compares where the best trials' parameters lie with
the whole space; fANOVA fits a random forest, which grows with the trials. Each sees a sample
of the trials past a size (``sample``), as the curves do."""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import Any

from optuna.distributions import BaseDistribution
from optuna.importance import (
    FanovaImportanceEvaluator,
    PedAnovaImportanceEvaluator,
    get_param_importances,
)
from sqlalchemy import func, select
from sqlalchemy.orm import sessionmaker
from sqlalchemy.orm.session import Session

from raysweep.schemas import Importance, ImportanceEvaluator, ParameterImportance
from raysweep.spec import ExperimentSpec
from service.db import repositories as repo
from service.db.models import ResultRow, TrialRow
from service.usecases.studies import completed_study, distributions_of, finite, params_in
from service.usecases.view_cache import CACHE, version
from service.usecases.views import evenly, metric_value, trial_values

MIN_TRIALS = 5
FANOVA_MAX_TRIALS = 200
PED_ANOVA_MAX_TRIALS = 1000


@dataclass(frozen=True)
class Inputs:
    metric: str
    mode: str
    distributions: dict[str, BaseDistribution]
    iteration: int | None  # the budget every ranked trial is compared at
    points: list[tuple[dict[str, Any], float]]  # best first


def common_iteration(session: Session, experiment_id: str) -> int | None:
    """The deepest iteration that a quarter of the trials with a result, and at least
    ``MIN_TRIALS``, reached: under ASHA most trials stop early, and a pruned trial's value after
    one epoch says little next to a finished one's after fifty, so every ranked trial is
    compared at the same budget, with enough of them to rank."""
    reached = session.execute(
        select(TrialRow.iteration, func.count())
        .where(TrialRow.experiment_id == experiment_id, TrialRow.iteration > 0)
        .group_by(TrialRow.iteration)
        .order_by(TrialRow.iteration.desc())
    ).all()
    if not reached:
        return None
    needed = max(MIN_TRIALS, math.ceil(sum(count for _, count in reached) / 4))
    total = 0
    for iteration, count in reached:
        total += count
        if total >= needed:
            return int(iteration)
    return int(reached[-1][0])


def read_inputs(session: Session, experiment_id: str, evaluator: ImportanceEvaluator) -> Inputs:
    """The trials to rank, best first: every trial's value at the common iteration is read (two
    numbers a trial), then only the chosen trials' configs. Building an Optuna study costs
    ~0.25 ms a trial, so at 100,000 trials all of them took 15 s."""
    experiment = repo.get_experiment_row(session, experiment_id)
    spec = ExperimentSpec.model_validate(experiment.spec)
    space = spec.search_space if isinstance(spec.search_space, dict) else {}
    distributions = distributions_of(space)
    iteration = common_iteration(session, experiment_id)
    value = metric_value(experiment.metric)
    ranked = session.execute(
        select(ResultRow.trial_id, value)
        .join(TrialRow, ResultRow.trial_id == TrialRow.id)
        .where(TrialRow.experiment_id == experiment_id, ResultRow.iteration == iteration)
        .order_by(repo.metric_order(value, experiment.mode), ResultRow.trial_id)
    ).all()
    chosen = sample(
        [(trial_id, found) for trial_id, found in ranked if finite(found) is not None], evaluator
    )
    configs = trial_values(session, [trial_id for trial_id, _ in chosen], TrialRow.config)
    points = [
        (params, found)
        for trial_id, found in chosen
        if (params := params_in(space, configs[trial_id].config)) is not None
    ]
    return Inputs(experiment.metric, experiment.mode, distributions, iteration, points)


def sample(ranked: list[Any], evaluator: ImportanceEvaluator) -> list[Any]:
    """The trials an evaluator sees, best first. fANOVA: the best ``FANOVA_MAX_TRIALS // 2``
    and an even spread of the rest. PED-ANOVA compares where the best tenth lie with where all
    lie, so an even spread over the ranking keeps both; it sees ``PED_ANOVA_MAX_TRIALS``."""
    if evaluator is ImportanceEvaluator.fanova:
        return spread(ranked, FANOVA_MAX_TRIALS)
    return evenly(ranked, PED_ANOVA_MAX_TRIALS)


def spread(points: list[Any], limit: int) -> list[Any]:
    """The first half of ``limit`` (the best) and the rest evenly over the others."""
    if len(points) <= limit:
        return points
    best, rest = points[: limit // 2], points[limit // 2 :]
    wanted = limit - len(best)
    return best + evenly(rest, wanted)


def evaluate(inputs: Inputs, evaluator: ImportanceEvaluator) -> Importance:
    points = inputs.points
    answer = Importance(
        evaluator=evaluator,
        metric=inputs.metric,
        mode=inputs.mode,
        trials_used=len(points),
        at_iteration=inputs.iteration,
        importances=[],
    )
    if not inputs.distributions:
        return answer.model_copy(update={"message": "nothing is sampled: no parameter to rank"})
    if len(points) < MIN_TRIALS:
        return answer.model_copy(
            update={
                "message": f"needs at least {MIN_TRIALS} trials with a value of "
                f"{inputs.metric} at one iteration; {len(points)} so far"
            }
        )
    study = completed_study(inputs.mode, inputs.distributions, points)
    chosen = (
        PedAnovaImportanceEvaluator()
        if evaluator is ImportanceEvaluator.ped_anova
        else FanovaImportanceEvaluator(seed=0)
    )
    with warnings.catch_warnings():  # PED-ANOVA is marked experimental
        warnings.simplefilter("ignore")
        ranked = get_param_importances(study, evaluator=chosen)
    return answer.model_copy(
        update={
            "importances": [
                ParameterImportance(name=name, importance=float(value))
                for name, value in ranked.items()
            ]
        }
    )


def experiment_importance(
    db: sessionmaker[Session], experiment_id: str, evaluator: ImportanceEvaluator
) -> Importance:
    """Cached like the other views while no trial changes; the trials are read in a short
    transaction of their own and ranked after it, so no connection waits on the evaluator."""
    with db.begin() as session:
        key = ("importance", *version(session, experiment_id), evaluator)

    def compute() -> Importance:
        with db.begin() as session:
            inputs = read_inputs(session, experiment_id, evaluator)
        return evaluate(inputs, evaluator)

    return CACHE.get(key, compute)
