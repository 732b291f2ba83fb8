"""Hyperparameter importance from the stored trials, by Optuna's evaluators: which parameters
decided the metric. PED-ANOVA (the default) compares where the best trials' parameters lie with
the whole space; fANOVA fits a random forest, which grows with the trials. Each sees a sample
of the trials past a size (``sample``), as the curves do. Under early stopping the trials
compared at one iteration are those that got there: ``skewed`` names the values of a choice
parameter that lost most of their trials on the way, where the ranking says little."""

from __future__ import annotations

import math
import warnings
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from optuna.distributions import BaseDistribution, CategoricalDistribution
from optuna.importance import (
    FanovaImportanceEvaluator,
    PedAnovaImportanceEvaluator,
    get_param_importances,
)
from sqlalchemy import func, select
from sqlalchemy.orm import sessionmaker
from sqlalchemy.orm.session import Session

from raysweep.analysis import (
    Importance,
    ImportanceEvaluator,
    ImportanceWarning,
    ParameterImportance,
)
from raysweep.spec import ExperimentSpec
from service.db import repositories as repo
from service.db.models.sweeps import ResultRow, TrialRow
from service.errors import InvalidInput
from service.usecases.decisions import milestones
from service.usecases.studies import completed_study, distributions_of, finite, params_in
from service.usecases.view_cache import CACHE, version
from service.usecases.views import evenly, metric_value, trial_values

MIN_TRIALS = 5
FANOVA_MAX_TRIALS = 200
PED_ANOVA_MAX_TRIALS = 1000
# a value of a choice parameter held by at least this share of the trials with a result, and
# by at most SKEWED_SHARE of those compared, is one early stopping took out of the comparison
WARN_SHARE_OF_ALL = 0.2
SKEWED_SHARE = 0.05


@dataclass(frozen=True)
class Inputs:
    metric: str
    mode: str
    distributions: dict[str, BaseDistribution]
    iteration: int | None  # the budget every ranked trial is compared at
    points: list[tuple[dict[str, Any], float]]  # best first
    reached: int = 0  # trials with a value at ``iteration``
    reporting: int = 0  # trials with any result
    iterations: list[int] = field(default_factory=list)  # where one may ask to compare
    warnings: list[ImportanceWarning] = field(default_factory=list)


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


def rung_iterations(spec: ExperimentSpec) -> list[int]:
    """The iterations a comparison may be asked at: ASHA's milestones and max_t (max_t alone
    for a sweep without early stopping, where every trial runs to it)."""
    early = spec.early_stopping
    if early.scheduler == "none":
        return [early.max_t]
    marks = milestones(early.grace_period, early.reduction_factor, early.max_t)
    return sorted({*marks, early.max_t})


def read_inputs(
    session: Session,
    experiment_id: str,
    evaluator: ImportanceEvaluator,
    at_iteration: int | None = None,
) -> Inputs:
    """The trials to rank, best first: every trial's value at the common iteration (or
    ``at_iteration``, one of the sweep's rungs) is read (two numbers a trial), then only the
    chosen trials' configs. Building an Optuna study costs ~0.25 ms a trial, so at 100,000
    trials all of them took 15 s."""
    experiment = repo.get_experiment_row(session, experiment_id)
    spec = ExperimentSpec.model_validate(experiment.spec)
    space = spec.search_space if isinstance(spec.search_space, dict) else {}
    distributions = distributions_of(space)
    iterations = rung_iterations(spec)
    if at_iteration is not None and at_iteration not in iterations:
        rungs = ", ".join(map(str, iterations))
        raise InvalidInput(f"at_iteration {at_iteration} is not one of this sweep's rungs: {rungs}")
    iteration = (
        at_iteration if at_iteration is not None else common_iteration(session, experiment_id)
    )
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
    categorical = [n for n, d in distributions.items() if isinstance(d, CategoricalDistribution)]
    reporting, warnings_found = skewed(session, experiment_id, categorical, iteration)
    return Inputs(
        experiment.metric,
        experiment.mode,
        distributions,
        iteration,
        points,
        reached=len(ranked),
        reporting=reporting,
        iterations=iterations,
        warnings=warnings_found,
    )


def skewed(
    session: Session, experiment_id: str, names: list[str], iteration: int | None
) -> tuple[int, list[ImportanceWarning]]:
    """The trials with a result, and the values of the choice parameters ``names`` that hold
    at least ``WARN_SHARE_OF_ALL`` of them but at most ``SKEWED_SHARE`` of those that reached
    ``iteration``: under ASHA a value whose trials did badly early is pruned at the first
    rungs, and the few left at a later one cannot show what it does (one sgd trial of 117
    compared, while sgd lost 128 of its 129 at rung 1). Counted by the database: one row per
    value and iteration reached."""
    mine = (TrialRow.experiment_id == experiment_id, TrialRow.iteration > 0)
    reporting = session.scalar(select(func.count()).select_from(TrialRow).where(*mine)) or 0
    if iteration is None or not reporting:
        return reporting, []
    found: list[ImportanceWarning] = []
    for name in names:
        value = repo.json_text(TrialRow.config, name)
        by_value: dict[str, Counter[int]] = defaultdict(Counter)
        for text, reached, count in session.execute(
            select(value, TrialRow.iteration, func.count())
            .where(*mine)
            .group_by(value, TrialRow.iteration)
        ):
            by_value[str(text)][int(reached)] += count
        compared_all = sum(n for c in by_value.values() for it, n in c.items() if it >= iteration)
        if compared_all == 0:
            continue
        for text, counts in sorted(by_value.items()):
            trials = sum(counts.values())
            compared = sum(n for it, n in counts.items() if it >= iteration)
            if trials / reporting < WARN_SHARE_OF_ALL or compared / compared_all > SKEWED_SHARE:
                continue
            earlier = Counter({it: n for it, n in counts.items() if it < iteration})
            stopped_at = earlier.most_common(1)[0][0] if earlier else iteration
            found.append(
                ImportanceWarning(
                    parameter=name,
                    value=text,
                    trials=trials,
                    compared=compared,
                    stopped_at=stopped_at,
                    message=f"{name}={text}: {trials} of the {reporting} trials with a result "
                    f"({100 * trials / reporting:.0f}%), but {compared} of the {compared_all} "
                    f"compared at iteration {iteration}: early stopping ended "
                    f"{trials - compared} of them before it, most at iteration {stopped_at}. "
                    f"The ranking says little about {name}; compare at an earlier rung.",
                )
            )
    return reporting, found


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
        trials_reached=inputs.reached,
        trials_reporting=inputs.reporting,
        iterations=inputs.iterations,
        warnings=inputs.warnings,
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
    db: sessionmaker[Session],
    experiment_id: str,
    evaluator: ImportanceEvaluator,
    at_iteration: int | None = None,
) -> Importance:
    """Cached like the other views while no trial changes; the trials are read in a short
    transaction of their own and ranked after it, so no connection waits on the evaluator.
    ``at_iteration`` (one of the sweep's rungs, else ``InvalidInput``) replaces the common
    iteration."""
    with db.begin() as session:
        key = ("importance", *version(session, experiment_id), evaluator, at_iteration)

    def compute() -> Importance:
        with db.begin() as session:
            inputs = read_inputs(session, experiment_id, evaluator, at_iteration)
        return evaluate(inputs, evaluator)

    return CACHE.get(key, compute)
