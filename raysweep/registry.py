"""API schemas of final runs, the model registry and deployments, shared by the server, the
SDK and the CLI."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field, StrictInt

from raysweep.lifecycle import DeploymentState, FinalRunState
from raysweep.schemas import ReadModel
from raysweep.strict import StrictModel


class FinalRunRead(ReadModel):
    """A promoted trial trained again with more workers; it ends as a model version."""

    id: int
    experiment_id: str
    trial_id: int
    trial_number: int | None = Field(
        default=None, description="The trial's number in its experiment (1 first)."
    )
    rank: int = Field(description="1 for the sweep's best trial.")
    state: FinalRunState
    config: dict[str, Any] = Field(description="What the workers got: the trial's, scaled.")
    num_workers: int
    resources: dict[str, Any] | None = Field(
        default=None,
        description="Each worker's use_gpu, cpus_per_worker and gpus_per_worker; null: the "
        "sweep's.",
    )
    epochs: int
    schedule: list[dict[str, Any]] | None = Field(
        default=None,
        description="A PBT trial's config changes, replayed: each {epoch, config} trained from "
        "the epoch after `epoch` (scaled as `config`); null: `config` throughout.",
    )
    warm_start_uri: str | None = Field(
        description="The checkpoint its weights start from (the trial's best), or null."
    )
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
    project: str = Field(default="", description="The project the model belongs to.")
    final_run_id: int
    experiment_id: str
    trial_id: int
    trial_number: int | None = Field(
        default=None, description="The trial's number in its experiment (1 first)."
    )
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
    project: str = Field(default="", description="The project the model belongs to.")
    latest_version: int
    versions: int
    aliases: dict[str, int]


class AliasSet(StrictModel):
    version: StrictInt = Field(ge=1, le=2**31 - 1)  # the registry's version column is 32-bit


class AliasRead(BaseModel):
    name: str
    alias: str
    version: int
    history: list[dict[str, Any]] = Field(description="Every move, newest first.")


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
