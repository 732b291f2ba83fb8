"""Retrain schedules: a model's aliased version (the champion) trained again on the current data
as a final run, optionally after a small re-tuning sweep warm-started from the previous study's
best configs. The run's new version then challenges the alias (``models.challenge_champion``,
called when the version registers), so a retrain never silently replaces a better model.

A retrain firing moves ``tuning`` (its sweep runs) -> ``training`` (its final run runs) ->
``promoted`` | ``kept`` | ``failed``; ``advance_retrains`` makes those moves from the rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session, sessionmaker

from raysweep.compute import FinalRunResources
from raysweep.errors import Problem
from raysweep.lifecycle import FIRING_ACTIVE, ExperimentState, FinalRunState, FiringOutcome
from raysweep.promotion_spec import PromotionOverrides
from raysweep.schedules import RetrainSettings, Retune
from raysweep.search_space import Constant
from raysweep.spec import ExperimentSpec
from service.db import repositories as repo
from service.db.models.registry import FinalRunRow, ModelAliasRow, ModelVersionRow
from service.db.models.schedules import ScheduleFiringRow, ScheduleRow
from service.db.models.sweeps import ExperimentRow
from service.states import move_firing
from service.usecases.admission import Refusal
from service.usecases.clusters import FinalClusters, FixedSweepCluster, no_fixed_cluster
from service.usecases.experiments import queue_sweep
from service.usecases.promotion import (
    cluster_problem,
    final_run_resources,
    new_final_run,
    queued_final_run,
)
from service.usecases.promotion_choice import top_completed_trials

BATCH = 20


@dataclass(frozen=True)
class Champion:
    version: ModelVersionRow
    final_run: FinalRunRow
    experiment: ExperimentRow

    @property
    def spec(self) -> ExperimentSpec:
        return ExperimentSpec.model_validate(self.experiment.spec)

    def resources(self, settings: RetrainSettings) -> FinalRunResources:
        """The retrain's resources: the settings' where given, else the champion's final run's
        (which may differ from its sweep's)."""
        own = self.final_run.resources or {}
        given = settings.model_dump(include=set(FinalRunResources.model_fields), exclude_none=True)
        return FinalRunResources.model_validate({**own, **given})

    def challenge(self, settings: RetrainSettings) -> dict[str, Any]:
        """What the retrained version must beat: the sweep's metric on the held-out test split
        (the kit reports ``val_<name>`` during training and ``test_<name>`` at the end)."""
        return {
            "alias": settings.alias,
            "margin": settings.margin,
            "metric": f"test_{self.experiment.metric.removeprefix('val_')}",
            "mode": self.experiment.mode,
        }


def find_champion(
    session: Session, settings: RetrainSettings, project: str | None = None
) -> tuple[Champion | None, list[Problem]]:
    """The version ``settings.alias`` names, with the final run and sweep it came from; or every
    reason it cannot be retrained."""
    names_query = select(ModelVersionRow.name).distinct()
    if project is not None:
        names_query = names_query.where(ModelVersionRow.project == project)
    names = session.scalars(names_query).all()
    if settings.model not in names:
        known = ", ".join(sorted(names)) or "none yet"
        return None, [
            Problem(
                path="retrain.model", message=f"no model named {settings.model!r}; models: {known}"
            )
        ]
    aliases = {
        row.alias: row.version
        for row in session.scalars(
            select(ModelAliasRow).where(ModelAliasRow.name == settings.model)
        )
    }
    if settings.alias not in aliases:
        held = ", ".join(sorted(aliases)) or "none"
        return None, [
            Problem(
                path="retrain.alias",
                message=f"model {settings.model!r} has no alias {settings.alias!r} (its aliases: "
                f"{held}); point it at the version to retrain first",
            )
        ]
    version = session.scalars(
        select(ModelVersionRow).where(
            ModelVersionRow.name == settings.model,
            ModelVersionRow.version == aliases[settings.alias],
        )
    ).one_or_none()
    if version is None:  # its sweep was deleted, and the version with it
        return None, [
            Problem(
                path="retrain.alias",
                message=f"{settings.alias!r} names {settings.model} version "
                f"{aliases[settings.alias]}, which no longer exists",
            )
        ]
    # a version's final run and sweep exist while it does (their rows cascade to it)
    final_run = session.get(FinalRunRow, version.final_run_id)
    experiment = session.get(ExperimentRow, version.experiment_id)
    assert final_run is not None and experiment is not None
    label = f"{settings.model} version {version.version}"
    champion = Champion(version, final_run, experiment)
    metric = champion.challenge(settings)["metric"]
    if metric not in (version.test_metrics or {}):
        return None, [
            Problem(
                path="retrain.model",
                message=f"{label} has no held-out {metric} (user code reports no test metrics): "
                "there is nothing to compare a retrained version with",
            )
        ]
    return champion, []


def retrain_problems(
    session: Session,
    settings: RetrainSettings,
    final_clusters: list[str],
    project: str | None = None,
) -> list[Problem]:
    """Why the model cannot be retrained (``project``: it must be one of that project's)."""
    problems = find_champion(session, settings, project)[1]
    if settings.cluster is not None and settings.cluster not in final_clusters:
        problems.append(
            Problem(
                path="retrain.cluster", message=cluster_problem(settings.cluster, final_clusters)
            )
        )
    return problems


def retrain_cluster(
    champion: Champion, settings: RetrainSettings, final_clusters: list[str]
) -> str:
    if settings.cluster is not None and settings.cluster in final_clusters:
        return settings.cluster
    return (
        champion.final_run.cluster
        if champion.final_run.cluster in final_clusters
        else final_clusters[0]
    )


def start_retrain(
    session: Session,
    schedule: ScheduleRow,
    firing: ScheduleFiringRow,
    final_clusters: FinalClusters,
    fixed_sweep_cluster: FixedSweepCluster = no_fixed_cluster,
) -> None:
    """Start the firing's retrain (the firing is flushed, in the caller's transaction): a
    re-tuning sweep (``tuning``) or straight away the champion's config as a final run
    (``training``); ``failed`` naming the reason when there is no champion to retrain."""
    settings = RetrainSettings.model_validate(schedule.retrain)
    champion, problems = find_champion(session, settings, schedule.project)
    if champion is None:
        move_firing(firing, FiringOutcome.failed)
        tell(firing, "; ".join(p.message for p in problems))
        return
    if settings.retune is not None:
        spec = retune_spec(session, champion, settings.retune, schedule.name, firing.scheduled_for)
        experiment = queue_sweep(
            session,
            spec,
            f"re-tuning {settings.model} version {champion.version.version} for schedule "
            f"{schedule.name} ({firing.scheduled_for.isoformat()})",
            f"schedule:{schedule.name}"[:64],
            {"schedule_id": schedule.id, "scheduled_for": firing.scheduled_for.isoformat()},
            fixed_sweep_cluster,
        )
        if isinstance(experiment, Refusal):
            move_firing(firing, FiringOutcome.failed)
            tell(firing, f"the re-tuning sweep was not submitted: {experiment.reason}")
            return
        move_firing(firing, FiringOutcome.tuning)
        firing.experiment_id = experiment.id
        tell(
            firing,
            f"re-tuning {settings.model} version {champion.version.version} in sweep "
            f"{experiment.id} ({len(spec.search.points_to_evaluate)} warm-start config(s))",
        )
        return
    resources = champion.resources(settings)
    config = dict(champion.version.config)
    overrides: dict[str, Any] = {}
    if resources.precision is not None and champion.spec.trainer is not None:
        overrides["precision"] = resources.precision
    config.update(overrides)
    run = queued_final_run(
        champion.final_run.experiment_id,
        champion.final_run.trial_id,
        config,
        settings.num_workers or champion.final_run.num_workers,
        settings.epochs or champion.final_run.epochs,
        settings.model,
        retrain_cluster(champion, settings, final_clusters(schedule.project)),
        resources=final_run_resources(champion.spec, resources),
    )
    # a PBT trial's champion trained a schedule of configs: the retrain replays it too
    if champion.final_run.schedule:
        run.schedule = [
            {"epoch": change["epoch"], "config": {**change["config"], **overrides}}
            for change in champion.final_run.schedule
        ]
    source = f"{settings.model} version {champion.version.version}'s config"
    training(session, firing, champion, settings, run, source)


def training(
    session: Session,
    firing: ScheduleFiringRow,
    champion: Champion,
    settings: RetrainSettings,
    run: FinalRunRow,
    source: str,
) -> None:
    """Queue ``run`` (training ``source``) as the firing's challenger of the champion."""
    run.purpose, run.challenge = "retrain", champion.challenge(settings)
    session.add(run)
    session.flush()
    move_firing(firing, FiringOutcome.training)
    firing.final_run_id = run.id
    tell(firing, f"retraining {source} as final run {run.id}")
    repo.add_event(
        session,
        run.experiment_id,
        "retrain_queued",
        f"final run {run.id} retrains {settings.model} (challenging {settings.alias!r}, "
        f"version {champion.version.version})",
        data={"final_run_id": run.id, "firing_id": firing.id},
    )


def retune_spec(
    session: Session, champion: Champion, retune: Retune, schedule_name: str, due: datetime
) -> ExperimentSpec:
    """The champion's sweep again, smaller: its best completed configs are tried first (the
    data may have moved), and its searcher knows every finished trial of the champion's sweep
    (``warm_start_from``) where it samples anything beyond a grid."""
    spec = champion.spec
    space = spec.search_space if isinstance(spec.search_space, dict) else {}
    sampled = {name for name, parameter in space.items() if not isinstance(parameter, Constant)}
    best = top_completed_trials(
        session, champion.experiment.id, champion.experiment.mode, retune.warm_start_top
    )
    points: list[dict[str, Any]] = []
    for trial in best:
        point = {k: v for k, v in trial.config.items() if k in sampled}
        if point and point not in points:
            points.append(point)
    return spec.model_copy(
        update={
            "name": f"{spec.name[:90]}-retune-{due.strftime('%Y%m%dT%H%M')}",
            "labels": {**spec.labels, "schedule": schedule_name},
            "search": spec.search.model_copy(
                update={
                    "num_samples": retune.num_samples,
                    "points_to_evaluate": points[: retune.num_samples],
                    "warm_start_from": []
                    if spec.search.algorithm == "grid" or not sampled
                    else [champion.experiment.id],
                }
            ),
            "promotion": spec.promotion.model_copy(update={"auto": False}),
        }
    )


def advance_retrains(db: sessionmaker[Session], final_clusters: FinalClusters) -> int:
    """Move retrain firings on from what their sweep or final run did; returns the moves."""
    with db.begin() as session:
        firings = session.scalars(
            select(ScheduleFiringRow)
            .where(ScheduleFiringRow.outcome.in_(FIRING_ACTIVE))
            .order_by(ScheduleFiringRow.id)
            .limit(BATCH)
            .with_for_update(skip_locked=True)
        ).all()
        return sum(advance(session, firing, final_clusters) for firing in firings)


def advance(session: Session, firing: ScheduleFiringRow, final_clusters: FinalClusters) -> int:
    if firing.outcome == FiringOutcome.tuning:
        return tuned(session, firing, final_clusters)
    run = session.get(FinalRunRow, firing.final_run_id) if firing.final_run_id else None
    if run is None:
        return fail(firing, f"final run {firing.final_run_id} was deleted")
    if run.state == FinalRunState.failed:
        last_line = ((run.error or "").strip().splitlines() or ["no error recorded"])[-1]
        return fail(firing, f"final run {run.id} failed: {last_line[:300]}")
    if run.state == FinalRunState.cancelled:
        return end(firing, FiringOutcome.cancelled, f"final run {run.id} was cancelled")
    if run.state != FinalRunState.completed:
        return 0
    version = session.scalars(
        select(ModelVersionRow).where(ModelVersionRow.final_run_id == run.id)
    ).one_or_none()
    if version is None or version.comparison is None:
        return 0  # registered in the same transaction as completed: not yet visible
    comparison = version.comparison
    move_firing(firing, FiringOutcome.promoted if comparison["promoted"] else FiringOutcome.kept)
    verdict = "took" if comparison["promoted"] else "is the 'candidate', kept out of"
    tell(
        firing,
        f"version {version.version} {verdict} {comparison['alias']!r}: {comparison['reason']}",
    )
    return 1


def tuned(session: Session, firing: ScheduleFiringRow, final_clusters: FinalClusters) -> int:
    """The re-tuning sweep ended: its best completed trial is retrained as a final run."""
    experiment = session.get(ExperimentRow, firing.experiment_id) if firing.experiment_id else None
    if experiment is None:
        return fail(firing, f"the re-tuning sweep {firing.experiment_id} was deleted")
    if not experiment.state.is_final:
        return 0
    if experiment.state == ExperimentState.cancelled:
        return end(
            firing, FiringOutcome.cancelled, f"the re-tuning sweep {experiment.id} was cancelled"
        )
    if experiment.state != ExperimentState.completed:
        return fail(firing, f"the re-tuning sweep {experiment.id} ended {experiment.state}")
    best = top_completed_trials(session, experiment.id, experiment.mode, 1)
    schedule = session.get(ScheduleRow, firing.schedule_id)
    assert schedule is not None  # firings go with their schedule
    settings = RetrainSettings.model_validate(schedule.retrain)
    champion, problems = find_champion(session, settings, schedule.project)
    if not best or champion is None:
        reason = "; ".join(p.message for p in problems) or "no trial completed"
        return fail(firing, f"the re-tuning sweep {experiment.id} ended: {reason}")
    # claim the move so that two servers (or a retried pass) create one final run
    claimed = session.execute(
        update(ScheduleFiringRow)
        .where(ScheduleFiringRow.id == firing.id, ScheduleFiringRow.outcome == FiringOutcome.tuning)
        .values(outcome=FiringOutcome.training)
        .execution_options(synchronize_session=False)
    )
    if getattr(claimed, "rowcount", 0) != 1:
        return 0
    spec = ExperimentSpec.model_validate(experiment.spec)
    promotion = spec.promotion.with_overrides(
        PromotionOverrides(
            num_workers=settings.num_workers or champion.final_run.num_workers,
            epochs=settings.epochs or champion.final_run.epochs,
            warm_start=False,
            **champion.resources(settings).model_dump(exclude_none=True),
        )
    )
    cluster = retrain_cluster(champion, settings, final_clusters(experiment.project))
    run = new_final_run(session, spec, best[0], promotion, settings.model, cluster)
    source = f"the re-tuning sweep's best trial {best[0].id}"
    training(session, firing, champion, settings, run, source)
    return 1


def fail(firing: ScheduleFiringRow, reason: str) -> int:
    return end(firing, FiringOutcome.failed, reason)


def end(firing: ScheduleFiringRow, outcome: FiringOutcome, reason: str) -> int:
    move_firing(firing, outcome)
    tell(firing, reason)
    return 1


def tell(firing: ScheduleFiringRow, text: str) -> None:
    """Add to the firing's story, one clause after another."""
    joined = firing.message and not firing.message.endswith("; ")
    firing.message = f"{firing.message}; {text}" if joined else f"{firing.message}{text}"
