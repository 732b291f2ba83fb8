"""What the API serves to compare a sweep's trials: learning curves, rungs, the config table,
parameter importance, the Pareto front and the best-so-far history."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import BaseModel, Field

from raysweep.lifecycle import TrialState


class CurveSeries(BaseModel):
    trial_id: int
    trial_number: int = Field(description="The trial's number in its experiment (1 first).")
    state: TrialState
    config: dict[str, Any]
    points: list[tuple[int, float]] = Field(description="`[iteration, metric]` pairs.")


class Curves(BaseModel):
    """Learning curves, downsampled: at most ``max_trials`` series of at most ``max_points``."""

    metric: str = Field(description="The metric drawn.")
    mode: str
    metrics: list[str] = Field(
        default_factory=list,
        description="The numbers the trials report, by name (any of them can be drawn).",
    )
    total_trials: int
    series: list[CurveSeries]
    cursor: int = Field(description="The largest result id when read: poll `updates` after it.")


class Rung(BaseModel):
    milestone: int = Field(description="The iteration at which ASHA compares trials.")
    reached: int = Field(description="Trials the scheduler judged at this milestone.")
    continued: int = Field(description="Of those, trials it let go on (asha's continue).")
    stopped: int = Field(description="Of those, trials it pruned here.")
    paused: int = Field(
        default=0, description="asha_promotion: trials paused here and not (yet) promoted."
    )
    promoted: int = Field(default=0, description="asha_promotion: trials promoted from here.")
    completed: int = Field(default=0, description="Trials that reached max_t at this rung.")
    cutoff: float | None = Field(
        description="The cutoff of the latest decision made at this milestone, as the scheduler "
        "applied it (null until a second trial reached it)."
    )


class Rungs(BaseModel):
    scheduler: str
    reduction_factor: float | None
    rungs: list[Rung] = Field(description="Lowest milestone first; empty without ASHA.")


class ConfigRow(BaseModel):
    trial_id: int
    trial_number: int = Field(description="The trial's number in its experiment (1 first).")
    state: TrialState
    metric: float | None
    values: list[Any] = Field(description="One value per entry of `params`.")


class ConfigSample(StrEnum):
    """Which trials a hyperparameter view gets when it cannot get all of them."""

    best = "best"  # the best `limit`, by their best metric
    random = "random"  # `limit` drawn at random, seeded by the sweep: the same ones each time
    all = "all"  # every trial: sweeps up to CONFIGS_ALL_MAX trials only


CONFIGS_ALL_MAX = 5000


class ConfigTable(BaseModel):
    """Hyperparameters against the metric, best trials first, for parallel coordinates, the
    slice and contour plots."""

    metric: str
    mode: str
    total_trials: int
    params: list[str]
    rows: list[ConfigRow]
    sample: ConfigSample = Field(
        default=ConfigSample.best, description="How `rows` were chosen from the trials."
    )
    all_max: int = Field(
        default=CONFIGS_ALL_MAX, description="The most trials `sample=all` sends (else 422)."
    )


class ImportanceEvaluator(StrEnum):
    ped_anova = "ped_anova"  # Optuna's PED-ANOVA: where the best trials lie vs the whole space
    fanova = "fanova"  # Optuna's fANOVA: variance explained, from a random forest


class ParameterImportance(BaseModel):
    name: str
    importance: float = Field(description="Share of the importance, 0-1; all sum to 1.")


class ImportanceWarning(BaseModel):
    """A value of a choice parameter that holds a real share of the trials with a result but
    next to none of those compared at `at_iteration`: most of its trials stopped earlier."""

    parameter: str
    value: str = Field(description="The value as text.")
    trials: int = Field(description="Trials with a result that took this value.")
    compared: int = Field(description="Of those, trials with a value at `at_iteration`.")
    stopped_at: int = Field(description="The iteration where most of its other trials ended.")
    message: str


class Importance(BaseModel):
    """Which sampled hyperparameters decided the metric, most important first."""

    evaluator: ImportanceEvaluator
    metric: str
    mode: str
    at_iteration: int | None = Field(
        description="The iteration every ranked trial is compared at: the deepest that a "
        "quarter of the trials, and at least 5, reached (under ASHA most stop early); null "
        "before any result."
    )
    trials_used: int = Field(
        description="Trials ranked: those with a value at `at_iteration`, whatever their state "
        "now; fANOVA takes at most 200 (the best 100 and an even spread of the rest), "
        "PED-ANOVA at most 1,000 (an even spread over the ranking, which keeps the best tenth "
        "it compares with the rest)."
    )
    importances: list[ParameterImportance]
    message: str | None = Field(
        default=None, description="Why there is no ranking yet (too few trials), else null."
    )
    trials_reached: int = Field(
        default=0,
        description="Trials with a value at `at_iteration`: the set compared (before "
        "`trials_used` samples it).",
    )
    trials_reporting: int = Field(
        default=0, description="Trials with any result: the set `trials_reached` is drawn from."
    )
    iterations: list[int] = Field(
        default_factory=list,
        description="The iterations `at_iteration` may be asked at: the sweep's rungs (ASHA's "
        "milestones and max_t; max_t alone without early stopping).",
    )
    warnings: list[ImportanceWarning] = Field(
        default_factory=list,
        description="Values of a choice parameter that early stopping left out of the compared "
        "set: the ranking says little about that parameter.",
    )


class ObjectiveRead(BaseModel):
    metric: str
    mode: str


class ParetoTrial(BaseModel):
    trial_id: int
    trial_number: int = Field(description="The trial's number in its experiment (1 first).")
    config: dict[str, Any]
    values: dict[str, float] = Field(description="Its latest value of each objective.")
    feasible: bool | None = Field(description="Null when the sweep has no constraints.")
    on_front: bool = Field(description="Feasible and dominated by no other trial.")


class Pareto(BaseModel):
    """The completed trials against the objectives, the Pareto front first (ordered by the
    first objective), then a spread of the rest."""

    objectives: list[ObjectiveRead]
    front: list[int] = Field(description="The front's trial ids, by the first objective.")
    trials: list[ParetoTrial]
    completed_trials: int = Field(
        description="Completed trials with every objective's value: those the front is of."
    )
    message: str | None = Field(
        default=None, description="Why the front is empty (no completed trial yet), else null."
    )


class HistoryPoint(BaseModel):
    trial_id: int
    trial_number: int = Field(description="The trial's number in its experiment (1 first).")
    order: int = Field(description="Its place among the finished trials by end time, from 1.")
    state: TrialState
    value: float = Field(description="Its best reported metric (as the trial table shows).")
    best: float | None = Field(
        description="The best value of the feasible trials finished up to and including this "
        "one (null while none is feasible): at the end, the best trial's among finished ones."
    )
    feasible: bool | None = Field(description="Null when the sweep has no constraints.")


class History(BaseModel):
    """The finished trials' metric in the order they ended, with the best so far."""

    metric: str
    mode: str
    finished_trials: int = Field(
        description="Trials that ended with a metric value. Past `max_points`, every point where "
        "the best improved and an even spread of the rest are sent, in order."
    )
    points: list[HistoryPoint]
    edf: list[tuple[float, float]] = Field(
        default_factory=list,
        description="The empirical distribution of the finished trials' values (Optuna's EDF "
        "plot), failed and infeasible ones left out: (value, fraction of the trials at or below "
        "it), ascending, at most 200 points at evenly spaced ranks, the lowest and highest always "
        "among them.",
    )
    edf_trials: int = Field(
        default=0, description="The trials the distribution is of: finished, not failed, feasible."
    )
