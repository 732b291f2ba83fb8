"""Whether a sweep has converged, by Optuna's terminator over its completed trials: the regret
bound (a Gaussian process's bound on how much better than the best completed trial the space
could still do) against a threshold set from the early trials (Optuna's
``MedianErrorEvaluator``: ``threshold_ratio`` of the median regret bound over the trials after
the first ``min_trials/2``). The trials come from the database, so a restored or extended driver
judges the same ones."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from optuna.exceptions import ExperimentalWarning
from optuna.terminator import MedianErrorEvaluator, RegretBoundEvaluator
from optuna.trial import TrialState as OptunaTrialState
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from raysweep.lifecycle import TrialState
from raysweep.spec import Converged, ExperimentSpec
from service.db.models.sweeps import TrialRow
from service.usecases.studies import completed_study, distributions_of, finite, params_in


@dataclass(frozen=True)
class Verdict:
    trials: int
    regret_bound: float
    threshold: float

    @property
    def converged(self) -> bool:
        return bool(self.regret_bound < self.threshold)

    @property
    def reason(self) -> str:
        return (
            f"converged after {self.trials} completed trials: the regret bound "
            f"{self.regret_bound:.4g} fell below the threshold {self.threshold:.4g}"
        )


class ConvergenceCheck:
    """One per driver: the threshold, once set, is kept; the terminator is asked again only
    when more trials have completed."""

    def __init__(self, spec: ExperimentSpec, converged: Converged):
        self.metric_mode = spec.primary.mode
        self.space = spec.search_space if isinstance(spec.search_space, dict) else {}
        self.distributions = distributions_of(self.space)
        self.min_trials = converged.min_trials
        warm_up = self.min_trials // 2
        with quiet():
            self.improvement = RegretBoundEvaluator(seed=spec.search.seed)
            self.error = MedianErrorEvaluator(
                self.improvement,
                warm_up_trials=warm_up,
                n_initial_trials=self.min_trials - warm_up,
                threshold_ratio=converged.threshold_ratio,
            )
        self.judged = 0  # completed trials at the last verdict

    def completed(self, session: Session, experiment_id: str) -> list[tuple[dict, float]]:
        return completed_points(session, experiment_id, self.space, self.min_trials, self.judged)

    def judge(self, points: list[tuple[dict, float]]) -> Verdict | None:
        """The terminator's verdict on ``completed``'s points (a Gaussian process fit: outside
        any transaction); None below ``min_trials`` or when none completed since the last."""
        if len(points) < self.min_trials or len(points) == self.judged:
            return None
        self.judged = len(points)
        study = completed_study(self.metric_mode, self.distributions, points)
        trials = study.get_trials(deepcopy=False, states=(OptunaTrialState.COMPLETE,))
        with quiet():
            threshold = self.error.evaluate(trials, study.direction)
            bound = self.improvement.evaluate(trials, study.direction)
        return Verdict(len(points), float(bound), float(threshold))


def completed_points(
    session: Session,
    experiment_id: str,
    space: dict[str, Any],
    min_trials: int,
    judged: int,
) -> list[tuple[dict, float]]:
    """The completed trials' params and values, in the order they were created (as the
    searcher saw them); none while fewer than ``min_trials`` completed or none completed
    since the last verdict (``judged`` of them; told by a count on the trials index, without
    reading every trial's config: the driver asks every few seconds)."""
    count = session.scalar(
        select(func.count()).where(
            TrialRow.experiment_id == experiment_id,
            TrialRow.state == TrialState.completed,
        )
    )
    if not count or count < min_trials or count == judged:
        return []
    rows = session.execute(
        select(TrialRow.config, TrialRow.last_metric)
        .where(
            TrialRow.experiment_id == experiment_id,
            TrialRow.state == TrialState.completed,
        )
        .order_by(TrialRow.id)
    ).all()
    return [
        (params, value)
        for config, value in rows
        if (params := params_in(space, config)) is not None and finite(value) is not None
    ]


@contextmanager
def quiet() -> Iterator[None]:
    """Optuna marks the evaluators experimental and the terminator module deprecated (from
    4.9, to leave Optuna in 6; pyproject.toml keeps optuna below 6): said once in the notes,
    not in every driver's log."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ExperimentalWarning)
        warnings.simplefilter("ignore", FutureWarning)
        yield
