"""What the API serves of when a sweep's trials ran (``GET /api/v1/experiments/{id}/timeline``)."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, Field

from raysweep.lifecycle import TrialState


class TrialWait(BaseModel):
    """A time the trial's worker group waited for the cluster to place it."""

    since: datetime = Field(description="When the wait began (its `trial_waiting` event).")
    until: datetime | None = Field(
        description="When it ended: its `trial_placed` event (the gate placed its workers; a "
        "wait stored before that event existed: the trial's next result or event after it), "
        "else the trial's end; null while it goes on."
    )
    ongoing: bool = Field(description="The trial waits now: this is its current wait.")


class TimelineTrial(BaseModel):
    trial_id: int
    trial_number: int = Field(description="The trial's number in its experiment (1 first).")
    state: TrialState
    started_at: datetime | None = Field(description="When the driver started it.")
    finished_at: datetime | None = Field(description="When it ended; null while it has not.")
    waits: list[TrialWait] = Field(description="Its waits for resources, oldest first.")


class Timeline(BaseModel):
    """When each trial ran and when it waited for resources (optuna-dashboard's timeline).

    Example: ``GET /api/v1/experiments/exp-1/timeline?limit=100`` answers the 100 latest
    trials, newest first, with ``total_trials`` and ``truncated`` saying whether any were left
    out."""

    total_trials: int = Field(description="The sweep's trials, all of them.")
    limit: int = Field(description="The most trials answered (the request's `limit`).")
    truncated: bool = Field(
        description="More trials exist than `trials` holds: the older ones are left out."
    )
    trials: list[TimelineTrial] = Field(description="The latest trials, by number, newest first.")
