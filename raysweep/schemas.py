"""API schemas shared by the server, the SDK and the CLI (one definition each)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field, StrictFloat, StrictInt

# ExperimentState, RungDecisionKind and TrialState were defined here once: pickles Tune made then
# (a searcher's history, tests/test_restorable_pickles.py) find them here still
from raysweep.lifecycle import ExperimentState, RungDecisionKind, TrialState
from raysweep.search_space import (
    MAX_PARAMETERS,
    PARAMETER_NAME_PATTERN,
    SPACE_NAME_PATTERN,
    Scalar,
)
from raysweep.strict import StrictModel

# The state sets, defined once for the server, its engine and the client (the engine may not
# import service.states, the client no service module). Tuples in the enums' order, so that a
# message listing one reads the same every time.


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


class ExploitRead(ReadModel):
    """One exploit of population-based training: at ``epoch`` the trial continued from a copy
    of the source trial's checkpoint with ``new_config``."""

    trial_id: int
    trial_number: int | None = Field(default=None, description="The trial's number (1 first).")
    source_trial_id: int = Field(description="The trial whose checkpoint was copied.")
    source_trial_number: int | None = Field(default=None, description="Its number (1 first).")
    epoch: int = Field(description="The epoch both had reached; training went on after it.")
    value: float | None = Field(description="The trial's metric at the epoch.")
    source_value: float | None = Field(description="The source trial's metric at the epoch.")
    old_config: dict[str, Any] = Field(description="The trial's config until the epoch.")
    new_config: dict[str, Any] = Field(
        description="Its config after: the source's, with the mutated parameters perturbed."
    )
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
