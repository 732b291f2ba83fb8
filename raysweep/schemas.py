"""API schemas shared by the server, the SDK and the CLI (one definition each)."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Annotated, Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field, StrictFloat, StrictInt

from raysweep.errors import Problem
from raysweep.search_space import (
    MAX_PARAMETERS,
    PARAMETER_NAME_PATTERN,
    SPACE_NAME_PATTERN,
    Scalar,
)
from raysweep.strict import StrictModel


class ExperimentState(StrEnum):
    queued = "queued"
    running = "running"
    pausing = "pausing"
    paused = "paused"
    cancelling = "cancelling"
    completed = "completed"
    failed = "failed"
    cancelled = "cancelled"

    @property
    def is_final(self) -> bool:
        return self in EXPERIMENT_ENDED


class TrialState(StrEnum):
    pending = "pending"
    running = "running"
    # promotion ASHA: stopped at a rung, its checkpoint kept, waiting to be promoted
    paused = "paused"
    completed = "completed"
    pruned = "pruned"
    failed = "failed"
    cancelled = "cancelled"

    @property
    def is_final(self) -> bool:
        return self in TRIAL_ENDED


class RungDecisionKind(StrEnum):
    """What an early-stopping scheduler decided about a trial at a rung."""

    continue_ = "continue"  # asha: good enough, trains on
    stop = "stop"  # asha: below the cutoff, pruned
    pause = "pause"  # asha_promotion: waits at the rung for a promotion
    promote = "promote"  # asha_promotion: in the rung's top 1/reduction_factor, trains on
    complete = "complete"  # reached max_t at the last rung


class FinalRunState(StrEnum):
    queued = "queued"
    running = "running"
    cancelling = "cancelling"
    completed = "completed"
    failed = "failed"
    cancelled = "cancelled"

    @property
    def is_final(self) -> bool:
        return self in FINAL_RUN_ENDED


# The state sets, defined once for the server, its engine and the client (the engine may not
# import service.states, the client no service module). Tuples in the enums' order, so that a
# message listing one reads the same every time.

# final: the run ended and stays so (``is_final``)
EXPERIMENT_ENDED = (ExperimentState.completed, ExperimentState.failed, ExperimentState.cancelled)
TRIAL_ENDED = (TrialState.completed, TrialState.pruned, TrialState.failed, TrialState.cancelled)
FINAL_RUN_ENDED = (FinalRunState.completed, FinalRunState.failed, FinalRunState.cancelled)
# active: its Ray job runs, or is being stopped
EXPERIMENT_ACTIVE = (ExperimentState.running, ExperimentState.pausing, ExperimentState.cancelling)
FINAL_RUN_ACTIVE = (FinalRunState.running, FinalRunState.cancelling)
# a trial not ended: waiting to run, running, or paused at a rung (promotion ASHA)
TRIAL_OPEN = (TrialState.pending, TrialState.running, TrialState.paused)


class DeploymentState(StrEnum):
    deploying = "deploying"
    running = "running"
    failed = "failed"
    deleting = "deleting"
    deleted = "deleted"


class PromotionStatus(StrEnum):
    """What became of a completed sweep's promotion: the promoter's record, so it looks at each
    completed sweep once."""

    promoted = "promoted"  # final runs were queued (automatically or by hand)
    skipped = "skipped"  # the automatic promotion could not promote (an event says why)
    manual = "manual"  # promotion.auto is off: left to the user


class ScheduleKind(StrEnum):
    sweep = "sweep"
    retrain = "retrain"


class Overlap(StrEnum):
    skip = "skip"
    queue = "queue"
    cancel_previous = "cancel_previous"


class Misfire(StrEnum):
    run_once = "run_once"
    skip = "skip"


class FiringOutcome(StrEnum):
    submitted = "submitted"
    waiting = "waiting"
    skipped = "skipped"
    missed = "missed"
    failed = "failed"
    tuning = "tuning"
    training = "training"
    promoted = "promoted"
    kept = "kept"
    cancelled = "cancelled"


# a retrain firing whose re-tuning sweep or final run goes on
FIRING_ACTIVE = (FiringOutcome.tuning, FiringOutcome.training)


class Role(StrEnum):
    admin = "admin"
    member = "member"
    viewer = "viewer"


class ReadModel(BaseModel):
    model_config = ConfigDict(from_attributes=True)


class ExperimentCreated(ReadModel):
    id: str
    state: ExperimentState
    notes: list[str] = Field(
        default_factory=list,
        description="What the sweep gives up as submitted (e.g. code that saves no "
        "checkpoints); the SDK and CLI show each as a warning.",
    )


class TrialSummary(ReadModel):
    id: int
    number: int = Field(
        description="The trial's place in its experiment: 1 for the first trial created, then "
        "2, 3, ... (the web UI names trials by it; `id` is the API's key)."
    )
    tune_trial_id: str
    state: TrialState
    config: dict[str, Any]
    iteration: int
    last_metric: float | None
    best_metric: float | None
    objective_values: dict[str, float | None] | None = Field(
        default=None,
        description="The latest result's value of each objective and constrained metric.",
    )
    feasible: bool | None = Field(
        default=None,
        description="Whether the latest result keeps the spec's constraints; null without "
        "constraints. An infeasible trial is never the best and never promoted.",
    )
    notes: str | None = Field(default=None, description="A member's notes on the trial.")
    space_version: int = Field(
        default=1,
        description="The version of the sweep's search space the trial was sampled from (see "
        "the experiment's `search_spaces`; 1 until an extension changes the space).",
    )


class TrialClock(BaseModel):
    """A running trial's clock in its sweep's read: whether it waits for resources and since
    when, and when it last reported (what the web UI says a stuck sweep is doing)."""

    trial_id: int
    trial_number: int
    iteration: int
    started_at: datetime | None
    last_reported_at: datetime | None = Field(description="Its latest result's; null before one.")
    waiting_for: str | None = Field(description="As TrialRead's: what its worker group waits for.")
    waiting_since: datetime | None = Field(description="When that wait began; null when none.")


class ExperimentRead(ReadModel):
    id: str
    name: str
    project: str = "default"
    trainer: str
    metric: str = Field(
        description="The metric best_metric and best_trial judge by: the spec's, or with "
        "`objectives` the one early_stopping.objective names (see GET .../pareto for the front)."
    )
    mode: str
    state: ExperimentState
    spec: dict[str, Any]
    labels: dict[str, str]
    notes: str | None = Field(default=None, description="A member's notes on the sweep.")
    error: str | None
    driver_job_id: str | None
    driver_restarts: int
    extensions: int = Field(default=0, description="Times the sweep was extended.")
    search_spaces: list[SpaceVersion] | None = Field(
        default=None,
        description="Every version of the search space, oldest first, once an extension "
        "changed it (the spec holds the latest); null while the sweep has its first space only.",
    )
    created_at: datetime
    updated_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    best_metric: float | None = Field(
        description="The best trial's metric: the best so far while the sweep runs, the one "
        "recorded when it ended afterwards."
    )
    trial_counts: dict[str, int] = Field(
        default_factory=dict, description="Number of trials in each state."
    )
    best_trial: TrialSummary | None = Field(
        default=None,
        description="The feasible trial with the best `metric` (with objectives: the scalar "
        "objective ASHA uses).",
    )
    pareto_front: list[int] | None = Field(
        default=None,
        description="With objectives, in GET /experiments/{id}: the best trials, the Pareto "
        "front's ids by the first objective (at most 100; GET .../pareto has their values). "
        "Null for one metric, and in lists.",
    )
    running: list[TrialClock] = Field(
        default_factory=list,
        description="Its running trials (and any other waiting for resources), with when each "
        "began waiting and last reported: longest waiting first, then longest silent. As many "
        "as run at once, which the cluster and max_concurrent_trials bound.",
    )


class TrialRead(TrialSummary):
    experiment_id: str
    checkpoint_uri: str | None
    restarts: int
    error: str | None
    waiting_for: str | None = Field(
        default=None,
        description="Set while the trial's worker group waits for cluster resources: what it "
        "needs and what is free (a running trial at iteration 0 with this set is queued, not "
        "stuck).",
    )
    waiting_since: datetime | None = Field(
        default=None,
        description="With waiting_for: when this wait began (its `trial_waiting` event).",
    )
    last_reported_at: datetime | None = Field(
        default=None, description="When its latest result was reported; null before its first."
    )
    early_stopping: str | None = Field(
        default=None,
        description="The latest early-stopping decision about this trial, in one line, as the "
        "scheduler made it: why it was pruned, paused, promoted or went on.",
    )
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None


class RungDecisionRead(ReadModel):
    """One decision ASHA made, with what it saw when it made it."""

    milestone: int = Field(description="The rung: the iteration at which trials are compared.")
    bracket: int = Field(description="The ASHA bracket the trial belongs to (0 with one).")
    value: float | None = Field(description="The trial's metric at the milestone.")
    cutoff: float | None = Field(
        description="The value the trial had to beat (asha), or the worst value still in the "
        "rung's top 1/reduction_factor (asha_promotion); null when the rung held no other trial."
    )
    rank: int | None = Field(description="The trial's rank in the rung then (1 = best).")
    rung_size: int = Field(description="Trials recorded at the rung then, this one included.")
    decision: RungDecisionKind
    reason: str = Field(description="The decision in one line.")
    decided_at: datetime


class ResultRead(ReadModel):
    iteration: int
    metrics: dict[str, Any]
    reported_at: datetime


class EventRead(ReadModel):
    id: int
    kind: str
    message: str
    trial_id: int | None
    trial_number: int | None = Field(
        default=None, description="The trial's number in its experiment (1 first), with trial_id."
    )
    data: dict[str, Any]
    created_at: datetime


class CheckpointRead(ReadModel):
    iteration: int
    uri: str
    metric: float | None
    created_at: datetime
    deleted: bool = Field(description="Removed by retention; the row stays as history.")


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


class ResultPoint(BaseModel):
    id: int
    trial_id: int
    iteration: int
    value: float | None = Field(description="The experiment's metric in this result.")


class ExperimentUpdates(BaseModel):
    """What changed since a cursor: pass `cursor` back as `after` to get only newer results."""

    experiment: ExperimentRead
    results: list[ResultPoint]
    events: list[EventRead]
    cursor: int = Field(description="The largest result id sent so far.")
    more: bool = Field(description="More results are waiting: ask again at once.")


T = TypeVar("T")


class Page(BaseModel, Generic[T]):
    items: list[T]
    total: int
    limit: int
    offset: int

    @classmethod
    def whole(cls, items: list[T]) -> Page[T]:
        """A listing that is never paged: every item in one page."""
        return cls(items=items, total=len(items), limit=len(items), offset=0)


class ExtendRequest(StrictModel):
    """More of a finished or paused sweep: any of these, each beyond the sweep's own."""

    num_samples: StrictInt | None = Field(
        default=None,
        ge=1,
        le=100_000,
        description="The sweep's new number of configurations in all (more than its spec's); "
        "the new ones are suggested knowing every trial so far.",
    )
    max_t: StrictInt | None = Field(
        default=None,
        ge=1,
        le=100_000,
        description="A budget at least the current one; with a larger one, completed trials "
        "continue from their checkpoints to it.",
    )
    time_budget_s: StrictFloat | None = Field(
        default=None, gt=0, le=10**8, description="The extension's own time budget."
    )
    # checked with the whole spec (``check_spec``), so each problem is named at its parameter
    # (``search_space.lr``) as a submitted spec's are, not at pydantic's union branches
    search_space: dict[str, Any] | Annotated[str, Field(pattern=SPACE_NAME_PATTERN)] | None = Field(
        default=None,
        description="A new search space, as a spec's `search_space` (a mapping of parameters, "
        "or a named space): ranges narrowed or widened, "
        "parameters added or removed. The new configurations are sampled from it; the earlier "
        "trials that lie in it (added parameters at `earlier_values`) are what its searcher is "
        "told, the others are left out and counted in the `extended` event; continuing trials "
        "keep their configs and checkpoints. The sweep's space gets a new version; each trial "
        "says which one it was sampled from.",
    )
    earlier_values: dict[Annotated[str, Field(pattern=PARAMETER_NAME_PATTERN)], Scalar] = Field(
        default_factory=dict,
        max_length=MAX_PARAMETERS,
        description="With `search_space`: for each sampled parameter it adds, the value the "
        "earlier trials had (they ran without it); every added one must be named.",
    )


class SpaceVersion(BaseModel):
    """One version of a sweep's search space: the first, or one an extension set."""

    version: int = Field(description="1 for the space the sweep was submitted with, then 2, …")
    extension: int = Field(description="The extension that set it (0: the submitted space).")
    search_space: dict[str, Any]
    added: dict[str, Any] = Field(
        default_factory=dict,
        description="Parameters it added, each with the value the earlier trials had.",
    )
    removed: list[str] = Field(default_factory=list, description="Parameters it removed.")
    changed: list[str] = Field(
        default_factory=list, description="Parameters whose distribution it changed."
    )


class NotesUpdate(StrictModel):
    """A member's notes on an experiment or a trial; an empty text removes them."""

    notes: str = Field(
        max_length=10_000,
        # no NUL: PostgreSQL cannot store it, and the notes must read the same on both backends
        pattern=r"^[^\x00]*$",
        description="Free text, at most 10,000 characters; empty removes the notes.",
    )


class TokenCreate(StrictModel):
    name: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}$")
    role: Role = Role.member


class TokenRead(ReadModel):
    id: int
    name: str
    role: Role = Field(
        description="`admin`: every project and the service's own settings; otherwise the "
        "highest of its project roles."
    )
    projects: dict[str, Role] = Field(
        default_factory=dict,
        description="Its role in each project it may see (an admin token: none listed, all "
        "of them).",
    )
    prefix: str
    created_at: datetime
    last_used_at: datetime | None
    revoked_at: datetime | None


class TokenCreated(TokenRead):
    token: str = Field(description="The secret; shown once, stored only as a hash.")


class ErrorBody(BaseModel):
    """The one shape of every 4xx: a code, a message and per-field details."""

    code: str
    message: str
    details: list[Problem] = Field(default_factory=list)


class ErrorResponse(BaseModel):
    error: ErrorBody


class CodePackageRead(ReadModel):
    """An uploaded training-code package; name it in a spec as ``code: {package: <sha256>}``."""

    sha256: str
    size_bytes: int
    files: int
    modules: list[str] = Field(description="Importable modules, e.g. `train` or `pkg.train`.")
    uploaded_by: str | None = Field(
        description="The token that uploaded it into the project it is read through (the first "
        "of the caller's projects to hold it): the same files uploaded in another project do "
        "not show who uploaded them there."
    )
    created_at: datetime = Field(description="When that project first held it.")


class ClusterRead(BaseModel):
    """A Ray cluster record (its token is never shown)."""

    name: str
    address: str = Field(description="Its Jobs API, or `this server's Ray` for the default.")
    role: str = Field(description="sweep, final or both.")
    max_concurrent_jobs: int
    authenticated: bool = Field(description="Whether a token is configured for it.")
    projects: list[str] = Field(
        default_factory=list,
        description="A cluster of these projects' own (those the caller has a role in; an "
        "admin sees all): as a sweep cluster their sweeps run there alone, as a final cluster "
        "their final runs and deployments may go there (and to no shared one), and no other "
        "project's do. Empty on a shared one.",
    )
