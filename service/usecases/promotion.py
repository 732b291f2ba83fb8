"""Promotion use cases: promote a sweep's top trials to final runs (which trials:
``promotion_choice``; reading and cancelling final runs: ``final_runs``)."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from raysweep.compute import FinalRunResources
from raysweep.errors import Problem
from raysweep.lifecycle import (
    EXPERIMENT_ENDED,
    ExperimentState,
    FinalRunState,
    PromotionStatus,
)
from raysweep.promotion_spec import Promotion, PromotionOverrides
from raysweep.registry import FinalRunRead
from raysweep.schemas import Page
from raysweep.spec import ExperimentSpec
from service.db import bulk
from service.db import repositories as repo
from service.db.base import utcnow
from service.db.models.registry import FinalRunRow, ModelNameRow
from service.db.models.sweeps import CheckpointRow, ExperimentRow, TrialRow
from service.errors import Conflict, InvalidInput
from service.final_config import final_config, final_epochs
from service.resources import ResourceRequest, worker_bundle
from service.usecases.clusters import FinalClusters, observed_capacity
from service.usecases.exploits import schedule_of
from service.usecases.final_runs import list_final_runs
from service.usecases.promotion_choice import chosen_trials


def cluster_problem(name: str, final_clusters: list[str]) -> str:
    return f"no final cluster named {name!r}; final clusters: {', '.join(final_clusters)}"


def promotion_problems(
    spec: ExperimentSpec,
    promotion: Promotion,
    cluster: str,
    final_clusters: list[str],
) -> list[Problem]:
    problems = []
    if cluster not in final_clusters:
        problems.append(Problem(path="cluster", message=cluster_problem(cluster, final_clusters)))
    if promotion.precision is not None and spec.trainer is None:
        problems.append(
            Problem(
                path="precision",
                message="applies to bundled trainers; user code reads its own config",
            )
        )
    return problems


def final_run_never_fits(
    session: Session, spec: ExperimentSpec, promotion: Promotion, cluster: str
) -> str | None:
    """Why the final cluster, which does not autoscale, can never hold one final run's workers
    (its capacity as the controller last saw it); None when it can, or is unseen."""
    capacity = observed_capacity(session, cluster)
    if capacity is None:
        return None
    resources = promotion.final_resources(spec.resources)
    request = ResourceRequest(
        owner="",
        label="",
        bundle=worker_bundle(
            resources["cpus_per_worker"], resources["gpus_per_worker"], resources["use_gpu"]
        ),
        count=promotion.num_workers,
    )
    reason = request.unplaceable(capacity)
    if reason is None:
        return None
    return (
        f"a final run needs {request.describe()}: {reason}, but the final cluster {cluster!r} "
        f"has {capacity.describe()} and does not autoscale"
    )


def best_checkpoint_uri(session: Session, trial: TrialRow, mode: str) -> str | None:
    """The trial's best kept checkpoint by the sweep's metric (retention always keeps it); the
    latest when no checkpoint carries the metric. With ASHA the latest can be the worse one."""
    best = session.scalar(
        select(CheckpointRow.uri)
        .where(
            CheckpointRow.trial_id == trial.id,
            CheckpointRow.deleted.is_(False),
            CheckpointRow.metric.is_not(None),
        )
        .order_by(repo.metric_order(CheckpointRow.metric, mode), CheckpointRow.iteration.desc())
        .limit(1)
    )
    return best or trial.checkpoint_uri


def new_final_run(
    session: Session,
    spec: ExperimentSpec,
    trial: TrialRow,
    promotion: Promotion,
    model_name: str,
    cluster: str,
    rank: int = 1,
) -> FinalRunRow:
    """A queued final run of ``trial``: its config scaled for the promotion's workers, on the
    promotion's resources, warm-started (if asked) from the trial's best checkpoint; a PBT
    trial's schedule of configs replayed at the epochs they changed."""
    warm_start = (
        best_checkpoint_uri(session, trial, spec.primary.mode) if promotion.warm_start else None
    )
    run = queued_final_run(
        trial.experiment_id,
        trial.id,
        final_config(spec, dict(trial.config), promotion),
        promotion.num_workers,
        final_epochs(spec, promotion),
        model_name,
        cluster,
        rank=rank,
        warm_start_uri=warm_start,
        resources=final_run_resources(spec, promotion),
    )
    # a PBT trial's config changed as it trained: the final run replays the changes
    changes = schedule_of(session, trial)
    if changes:
        run.schedule = [
            {"epoch": epoch, "config": final_config(spec, config, promotion)}
            for epoch, config in changes
        ]
    return run


def final_run_resources(spec: ExperimentSpec, asked: FinalRunResources) -> dict[str, Any] | None:
    """The resources to store on a final run: None where they are the sweep's."""
    resources = asked.final_resources(spec.resources)
    sweep = FinalRunResources().final_resources(spec.resources)
    return None if resources == sweep else resources


def queued_final_run(
    experiment_id: str,
    trial_id: int,
    config: dict[str, Any],
    num_workers: int,
    epochs: int,
    model_name: str,
    cluster: str,
    *,
    rank: int = 1,
    warm_start_uri: str | None = None,
    resources: dict[str, Any] | None = None,
) -> FinalRunRow:
    """A final run waiting for the dispatcher: the one shape promotions and retrains share."""
    return FinalRunRow(
        experiment_id=experiment_id,
        trial_id=trial_id,
        rank=rank,
        state=FinalRunState.queued,
        config=config,
        num_workers=num_workers,
        resources=resources,
        epochs=epochs,
        warm_start_uri=warm_start_uri,
        model_name=model_name,
        cluster=cluster,
        purpose="promotion",
        attempts=0,
        restarts=0,
        worker_failures=0,
    )


@dataclass(frozen=True)
class Promoted:
    """The experiment's final runs after a promotion, and which of them it added."""

    runs: Page[FinalRunRead]
    added: list[int]


# a sweep that ended without completing all its trials can still promote those that did


def reserve_model_name(session: Session, name: str, project: str) -> bool:
    """Hold the model ``name`` for ``project`` (a name is the project's that queued its first
    promotion, for good); False when it is another project's. Racing reservations of a new
    name: the first to commit holds it, the other reads it as another's."""
    bulk.insert_ignoring_duplicates(
        session,
        ModelNameRow,
        [{"name": name, "project": project, "created_at": utcnow()}],
        ["name"],
    )
    return session.scalar(select(ModelNameRow.project).where(ModelNameRow.name == name)) == project


def promote_experiment(
    db: sessionmaker[Session],
    experiment_id: str,
    overrides: PromotionOverrides,
    requested_by: str | None,
    final_clusters: FinalClusters,
    fixed_clusters: Collection[str] = (),
) -> Promoted:
    """Queue a final run for each of the top-k completed trials not promoted yet, on the named
    final cluster (default: the first of the project's ``final_clusters``); returns the
    experiment's final runs. A sweep still going, or without a completed trial, is a
    ``Conflict`` naming the reason; an unknown cluster (or another project's own), a precision
    for user code, or a final run that one of ``fixed_clusters`` (those that do not autoscale)
    can never hold is ``InvalidInput``."""
    with db.begin() as session:
        row = repo.get_experiment_row(session, experiment_id, for_update=True)
        if row.state not in EXPERIMENT_ENDED:
            raise Conflict(
                f"experiment {experiment_id} is {row.state}; only a sweep that has ended "
                "(completed, cancelled or failed) can be promoted"
            )
        spec = ExperimentSpec.model_validate(row.spec)
        promotion = spec.promotion.with_overrides(overrides)
        allowed = final_clusters(row.project)
        cluster = promotion.cluster or allowed[0]
        problems = promotion_problems(spec, promotion, cluster, allowed)
        if cluster in fixed_clusters and (
            never := final_run_never_fits(session, spec, promotion, cluster)
        ):
            problems.append(Problem(path="num_workers", message=never))
        model_name = promotion.model_name or row.name
        if not reserve_model_name(session, model_name, row.project):
            problems.append(
                Problem(
                    path="model_name",
                    message=f"the model name {model_name!r} is another project's; name the "
                    "model differently",
                )
            )
        if problems:
            raise InvalidInput("the promotion cannot run as asked", problems)
        winners = chosen_trials(session, row, spec, overrides, promotion.top_k)
        promoted = set(
            session.scalars(
                select(FinalRunRow.trial_id).where(
                    FinalRunRow.experiment_id == experiment_id,
                    FinalRunRow.purpose == "promotion",
                )
            )
        )
        created = []
        numbers = {}
        for rank, trial in enumerate(winners, start=1):
            if trial.id in promoted:
                continue
            final = new_final_run(session, spec, trial, promotion, model_name, cluster, rank)
            session.add(final)
            created.append(final)
            numbers[trial.id] = trial.number
        session.flush()
        if created:
            row.promotion = PromotionStatus.promoted
            repo.add_event(
                session,
                experiment_id,
                "promoted",
                f"{len(created)} trial(s) promoted by {requested_by or 'auto-promotion'}: "
                + ", ".join(
                    f"trial #{numbers[f.trial_id]} (id {f.trial_id}) as final run {f.id}"
                    for f in created
                )
                + (
                    f" (the sweep was {row.state.value}: its completed trials only)"
                    if row.state is not ExperimentState.completed
                    else ""
                ),
                data={"final_runs": [f.id for f in created]},
            )
        added = [f.id for f in created]
    return Promoted(list_final_runs(db, experiment_id), added)


AUTO_PROMOTION_BATCH = 20


def auto_promote(
    db: sessionmaker[Session], final_clusters: FinalClusters, fixed_clusters: Collection[str] = ()
) -> int:
    """One pass of auto-promotion: completed sweeps with ``promotion.auto`` that were neither
    promoted nor skipped get their final runs; the others are marked, so that the next pass
    looks past them (a batch of them would otherwise hide every later sweep)."""
    with db.begin() as session:
        candidates = session.execute(
            select(ExperimentRow.id, ExperimentRow.spec)
            .where(
                ExperimentRow.state == ExperimentState.completed,
                ExperimentRow.promotion.is_(None),
            )
            .order_by(ExperimentRow.finished_at)
            .limit(AUTO_PROMOTION_BATCH)
        ).all()
    acted = 0
    for experiment_id, spec in candidates:
        if not ExperimentSpec.model_validate(spec).promotion.auto:
            record_promotion(db, experiment_id, PromotionStatus.manual)
            continue
        try:
            promote_experiment(
                db, experiment_id, PromotionOverrides(), None, final_clusters, fixed_clusters
            )
        except (Conflict, InvalidInput) as error:
            record_promotion(db, experiment_id, PromotionStatus.skipped, error.message)
        acted += 1
    return acted


def record_promotion(
    db: sessionmaker[Session], experiment_id: str, status: PromotionStatus, reason: str = ""
) -> None:
    with db.begin() as session:
        row = session.get(ExperimentRow, experiment_id, with_for_update=True)
        if row is None or row.promotion is not None:
            return  # deleted, or promoted by hand meanwhile
        row.promotion = status
        if status is PromotionStatus.skipped:
            repo.add_event(session, experiment_id, "promotion_skipped", reason)
