"""API schemas shared by the server, the SDK and the CLI (one definition each)."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from raysweep.spec import Problem


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
        return self in {
            ExperimentState.completed,
            ExperimentState.failed,
            ExperimentState.cancelled,
        }


class TrialState(StrEnum):
    pending = "pending"
    running = "running"
    completed = "completed"
    pruned = "pruned"
    failed = "failed"
    cancelled = "cancelled"

    @property
    def is_final(self) -> bool:
        return self not in {TrialState.pending, TrialState.running}


class FinalRunState(StrEnum):
    queued = "queued"
    running = "running"
    completed = "completed"
    failed = "failed"

    @property
    def is_final(self) -> bool:
        return self in {FinalRunState.completed, FinalRunState.failed}


class DeploymentState(StrEnum):
    deploying = "deploying"
    running = "running"
    failed = "failed"
    deleting = "deleting"
    deleted = "deleted"


class Role(StrEnum):
    admin = "admin"
    member = "member"
    viewer = "viewer"


class ReadModel(BaseModel):
    model_config = ConfigDict(from_attributes=True)


class ExperimentCreated(ReadModel):
    id: str
    state: ExperimentState


class TrialSummary(ReadModel):
    id: int
    tune_trial_id: str
    state: TrialState
    config: dict[str, Any]
    iteration: int
    last_metric: float | None
    best_metric: float | None


class ExperimentRead(ReadModel):
    id: str
    name: str
    trainer: str
    metric: str
    mode: str
    state: ExperimentState
    spec: dict[str, Any]
    labels: dict[str, str]
    error: str | None
    driver_job_id: str | None
    driver_restarts: int
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
    best_trial: TrialSummary | None = None


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
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None


class ResultRead(ReadModel):
    iteration: int
    metrics: dict[str, Any]
    reported_at: datetime


class EventRead(ReadModel):
    id: int
    kind: str
    message: str
    trial_id: int | None
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
    state: TrialState
    config: dict[str, Any]
    points: list[tuple[int, float]] = Field(description="`[iteration, metric]` pairs.")


class Curves(BaseModel):
    """Learning curves, downsampled: at most ``max_trials`` series of at most ``max_points``."""

    metric: str
    mode: str
    total_trials: int
    series: list[CurveSeries]
    cursor: int = Field(description="The largest result id when read: poll `updates` after it.")


class Rung(BaseModel):
    milestone: int = Field(description="The iteration at which ASHA compares trials.")
    reached: int = Field(description="Trials that reported a result at this milestone.")
    continued: int = Field(description="Of those, trials that went on past it.")
    stopped: int = Field(description="Of those, trials that ended here (pruned or finished).")
    cutoff: float | None = Field(
        description="ASHA's cutoff from the results recorded at this milestone: a trial worse "
        "than it stops here."
    )


class Rungs(BaseModel):
    scheduler: str
    reduction_factor: float | None
    rungs: list[Rung] = Field(description="Lowest milestone first; empty without ASHA.")


class ConfigRow(BaseModel):
    trial_id: int
    state: TrialState
    metric: float | None
    values: list[Any] = Field(description="One value per entry of `params`.")


class ConfigTable(BaseModel):
    """Hyperparameters against the metric, best trials first, for parallel coordinates."""

    metric: str
    mode: str
    total_trials: int
    params: list[str]
    rows: list[ConfigRow]


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


class TokenCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}$")
    role: Role = Role.member


class TokenRead(ReadModel):
    id: int
    name: str
    role: Role
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
    uploaded_by: str | None
    created_at: datetime


class FinalRunRead(ReadModel):
    """A promoted trial trained again with more workers; it ends as a model version."""

    id: int
    experiment_id: str
    trial_id: int
    rank: int = Field(description="1 for the sweep's best trial.")
    state: FinalRunState
    config: dict[str, Any] = Field(description="What the workers got: the trial's, scaled.")
    num_workers: int
    epochs: int
    warm_start_uri: str | None
    model_name: str
    cluster: str = Field(description="The final cluster record it runs on.")
    job_id: str | None
    restarts: int = Field(description="Times its job was resubmitted after it died.")
    worker_failures: int = Field(description="Worker-group failures Ray Train retried.")
    error: str | None
    metrics: dict[str, Any] | None = Field(description="The last epoch's reported metrics.")
    test_metrics: dict[str, Any] | None = Field(description="On the held-out test split.")
    checkpoint_uri: str | None
    purpose: Literal["promotion", "retrain"] = Field(
        description="`promotion` (once per trial) or `retrain` (a retrain schedule's firing)."
    )
    challenge: dict[str, Any] | None = Field(
        description="A retrain's champion/challenger rule: alias, margin, metric, mode."
    )
    model_version: int | None = None
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None


class ModelVersionRead(ReadModel):
    """A registered model version and its lineage."""

    name: str
    version: int
    final_run_id: int
    experiment_id: str
    trial_id: int
    trainer: str
    config: dict[str, Any]
    metrics: dict[str, Any]
    test_metrics: dict[str, Any] | None
    checkpoint_uri: str
    code_version: dict[str, Any] = Field(
        description="raysweep version, git commit when known, or the uploaded package's sha256."
    )
    data_fingerprint: str | None = Field(description="sha256 of the dataset's splits.")
    comparison: dict[str, Any] | None = Field(
        default=None,
        description="A retrained version's champion/challenger result: the metric, both "
        "values, the margin and whether it was promoted.",
    )
    aliases: list[str] = Field(default_factory=list)
    created_at: datetime


class ModelRead(BaseModel):
    name: str
    latest_version: int
    versions: int
    aliases: dict[str, int]


class AliasSet(BaseModel):
    model_config = ConfigDict(extra="forbid")
    version: int = Field(ge=1, le=2**31 - 1)  # the registry's version column is 32-bit


class AliasRead(BaseModel):
    name: str
    alias: str
    version: int
    history: list[dict[str, Any]] = Field(description="Every move, newest first.")


class ClusterRead(BaseModel):
    """A Ray cluster record (its token is never shown)."""

    name: str
    address: str = Field(description="Its Jobs API, or `this server's Ray` for the default.")
    role: str = Field(description="sweep, final or both.")
    max_concurrent_jobs: int
    authenticated: bool = Field(description="Whether a token is configured for it.")


class DeploymentRead(ReadModel):
    """A model version served by Ray Serve. POST ``url`` with ``Authorization: Bearer <key>``
    and ``{"inputs": [...]}`` (one row per example, shaped like the trainer's inputs) for
    ``{"outputs": [...], "predictions": [...]}``; without the key the endpoint answers 401."""

    id: int
    name: str
    version: int
    app_name: str
    cluster: str
    state: DeploymentState
    route_prefix: str
    url: str | None = Field(description="The predict endpoint, once running.")
    error: str | None
    created_by: str | None
    created_at: datetime
    updated_at: datetime
    key: str | None = Field(
        default=None,
        description="The endpoint's bearer key: only in the answer to the deploy that made the "
        "deployment (raysweep keeps its hash); deploy again after an undeploy for a new one.",
    )


class Retune(BaseModel):
    """A small sweep before the retrain, warm-started from the previous study's best configs."""

    model_config = ConfigDict(extra="forbid")

    num_samples: int = Field(default=4, ge=1, le=1000, description="Trials of the re-tuning sweep.")
    warm_start_top: int = Field(
        default=3,
        ge=1,
        le=100,
        description="The previous study's best completed configs tried first "
        "(`points_to_evaluate`).",
    )


class RetrainSettings(BaseModel):
    """What a `retrain` schedule retrains and how the result may replace the model in use."""

    model_config = ConfigDict(extra="forbid")

    model: str = Field(min_length=1, max_length=128, description="A registered model's name.")
    alias: str = Field(
        default="production",
        min_length=1,
        max_length=64,
        description="The alias whose version is retrained, and which the retrained version "
        "takes only if it beats that version (the champion).",
    )
    margin: float = Field(
        default=0.0,
        ge=0,
        description="How much better (absolute, on the held-out test metric of the sweep's "
        "metric) the challenger must be; a tie or less keeps the champion.",
    )
    epochs: int | None = Field(
        default=None, ge=1, le=100_000, description="Default: the champion's final-run epochs."
    )
    num_workers: int | None = Field(
        default=None, ge=1, le=4096, description="Default: the champion's final-run workers."
    )
    cluster: str | None = Field(
        default=None, description="Final cluster; default: the champion's, else the first."
    )
    retune: Retune | None = Field(
        default=None, description="Re-tune first; the new sweep's best config is retrained."
    )


class ScheduleCreate(BaseModel):
    """A cron schedule. Kind `sweep` submits ``spec`` as a fresh sweep at every due time; kind
    `retrain` trains ``retrain.model``'s production version's config again on the current data
    as a final run (optionally after a small re-tuning sweep) and promotes it only if it wins.

    Example::

        ScheduleCreate(name="nightly", cron="0 3 * * *", timezone="Europe/Berlin",
                       spec={"name": "digits", "trainer": "digits_mlp", ...})
        ScheduleCreate(name="weekly-retrain", cron="0 4 * * 1", kind="retrain",
                       retrain={"model": "digits", "margin": 0.005})
    """

    model_config = ConfigDict(extra="forbid")

    name: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
    cron: str = Field(
        min_length=1, max_length=128, description="Five-field cron, e.g. `0 3 * * *`."
    )
    timezone: str = Field(default="UTC", description="IANA time zone the cron reads in.")
    kind: Literal["sweep", "retrain"] = Field(
        default="sweep",
        description="`sweep`: submit `spec` as a new experiment each time; `retrain`: retrain "
        "the model named in `retrain` and promote it only if it beats the current version.",
    )
    enabled: bool = True
    overlap: Literal["skip", "queue", "cancel_previous"] = Field(
        default="skip",
        description="When the previous firing's run is still going: skip this time, queue it "
        "until the previous one ends, or cancel the previous one (sweeps only: a final run "
        "cannot be cancelled).",
    )
    misfire: Literal["run_once", "skip"] = Field(
        default="run_once",
        description="Due times missed while no server ran: fire once for all, or skip them.",
    )
    spec: dict[str, Any] | None = Field(
        default=None, description="Kind `sweep`: the experiment spec each firing submits."
    )
    retrain: RetrainSettings | None = Field(
        default=None, description="Kind `retrain`: the model and the champion/challenger rule."
    )


class ScheduleUpdate(BaseModel):
    model_config = ConfigDict(extra="forbid")
    enabled: bool


class ScheduleFiringRead(ReadModel):
    id: int
    scheduled_for: datetime
    fired_at: datetime
    outcome: str = Field(
        description="submitted (a sweep), waiting (queued behind the previous run), skipped "
        "(overlap), missed (misfire: skip), failed; for retrains tuning, training, then "
        "promoted (the retrained version took the alias) or kept (the champion stayed; the "
        "retrained version is the `candidate`)."
    )
    experiment_id: str | None = Field(description="The sweep it submitted (or re-tuned with).")
    final_run_id: int | None = Field(description="The retrain's final run.")
    message: str


class ScheduleRead(ReadModel):
    id: str
    name: str
    kind: str
    cron: str
    timezone: str
    enabled: bool
    overlap: str
    misfire: str
    template: dict[str, Any] | None = Field(
        description="Kind `sweep`: the checked spec each firing submits."
    )
    retrain: RetrainSettings | None = Field(description="Kind `retrain`: what is retrained.")
    next_run_at: datetime | None = Field(description="The next due time (UTC); none when paused.")
    created_by: str | None
    created_at: datetime
    last_firing: ScheduleFiringRead | None = None
