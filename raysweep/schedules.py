"""API schemas of cron schedules (sweeps and retrains) and their firings, shared by the
server, the SDK and the CLI."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from pydantic import Field, StrictBool, StrictFloat, StrictInt

from raysweep.compute import FinalRunResources
from raysweep.lifecycle import FiringOutcome
from raysweep.names import DEFAULT_PROJECT, PROJECT_PATTERN
from raysweep.schemas import ReadModel
from raysweep.strict import StrictModel


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


class Retune(StrictModel):
    """A small sweep before the retrain: the previous study's best configs tried first, and
    its searcher told every finished trial of that study (``search.warm_start_from``)."""

    num_samples: StrictInt = Field(
        default=4, ge=1, le=1000, description="Trials of the re-tuning sweep."
    )
    warm_start_top: StrictInt = Field(
        default=3,
        ge=1,
        le=100,
        description="The previous study's best completed configs tried first "
        "(`points_to_evaluate`).",
    )


class RetrainSettings(FinalRunResources):
    """What a `retrain` schedule retrains and how the result may replace the model in use; the
    resources default to the champion's final run's."""

    model: str = Field(min_length=1, max_length=128, description="A registered model's name.")
    alias: str = Field(
        default="production",
        min_length=1,
        max_length=64,
        description="The alias whose version is retrained, and which the retrained version "
        "takes only if it beats that version (the champion).",
    )
    margin: StrictFloat = Field(
        default=0.0,
        ge=0,
        le=1e12,
        description="How much better (absolute, on the held-out test metric of the sweep's "
        "metric) the challenger must be; a tie or less keeps the champion.",
    )
    epochs: StrictInt | None = Field(
        default=None, ge=1, le=100_000, description="Default: the champion's final-run epochs."
    )
    num_workers: StrictInt | None = Field(
        default=None, ge=1, le=4096, description="Default: the champion's final-run workers."
    )
    cluster: str | None = Field(
        default=None, description="Final cluster; default: the champion's, else the first."
    )
    retune: Retune | None = Field(
        default=None, description="Re-tune first; the new sweep's best config is retrained."
    )


class ScheduleCreate(StrictModel):
    """A cron schedule. Kind `sweep` submits ``spec`` as a fresh sweep at every due time; kind
    `retrain` trains ``retrain.model``'s production version's config again on the current data
    as a final run (optionally after a small re-tuning sweep) and promotes it only if it wins.

    Example::

        ScheduleCreate(name="nightly", cron="0 3 * * *", timezone="Europe/Berlin",
                       spec={"name": "digits", "trainer": "digits_mlp", ...})
        ScheduleCreate(name="weekly-retrain", cron="0 4 * * 1", kind="retrain",
                       retrain={"model": "digits", "margin": 0.005})
    """

    name: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
    project: str = Field(
        default=DEFAULT_PROJECT,
        pattern=PROJECT_PATTERN,
        description="The project the schedule, and what it runs, belong to: a `sweep` spec's "
        "project is this one, a `retrain` model must be one of its models. Left out: the "
        "token's project when the token has a role in one project only, else `default`.",
    )
    cron: str = Field(
        min_length=1, max_length=128, description="Five-field cron, e.g. `0 3 * * *`."
    )
    timezone: str = Field(default="UTC", description="IANA time zone the cron reads in.")
    kind: ScheduleKind = Field(
        default=ScheduleKind.sweep,
        description="`sweep`: submit `spec` as a new experiment each time; `retrain`: retrain "
        "the model named in `retrain` and promote it only if it beats the current version.",
    )
    enabled: StrictBool = True
    overlap: Overlap = Field(
        default=Overlap.skip,
        description="When the previous firing's run is still going: skip this time, queue it "
        "until the previous one ends, or cancel the previous one (its sweep, or a retrain's "
        "re-tuning sweep or final run) and start this one.",
    )
    misfire: Misfire = Field(
        default=Misfire.run_once,
        description="Due times missed while no server ran: fire once for all, or skip them.",
    )
    spec: dict[str, Any] | None = Field(
        default=None, description="Kind `sweep`: the experiment spec each firing submits."
    )
    retrain: RetrainSettings | None = Field(
        default=None, description="Kind `retrain`: the model and the champion/challenger rule."
    )


class ScheduleUpdate(StrictModel):
    enabled: StrictBool


class ScheduleFiringRead(ReadModel):
    id: int
    scheduled_for: datetime
    fired_at: datetime
    outcome: FiringOutcome = Field(
        description="submitted (a sweep), waiting (queued behind the previous run), skipped "
        "(overlap), missed (misfire: skip), failed; for retrains tuning, training, then "
        "promoted (the retrained version took the alias) or kept (the champion stayed; the "
        "retrained version is the `candidate`), or cancelled (its sweep or final run was "
        "cancelled, by hand or by the next firing's `cancel_previous`)."
    )
    experiment_id: str | None = Field(description="The sweep it submitted (or re-tuned with).")
    final_run_id: int | None = Field(description="The retrain's final run.")
    message: str


class ScheduleRead(ReadModel):
    id: str
    name: str
    project: str
    kind: ScheduleKind
    cron: str
    timezone: str
    enabled: bool
    overlap: Overlap
    misfire: Misfire
    template: dict[str, Any] | None = Field(
        description="Kind `sweep`: the checked spec each firing submits."
    )
    retrain: RetrainSettings | None = Field(description="Kind `retrain`: what is retrained.")
    next_run_at: datetime | None = Field(description="The next due time (UTC); none when paused.")
    created_by: str | None
    created_at: datetime
    last_firing: ScheduleFiringRead | None = None
