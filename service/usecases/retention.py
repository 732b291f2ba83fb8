"""Checkpoint retention: a finished trial keeps its latest N checkpoints plus its best one.

Ray Train keeps every checkpoint while the trial runs (its own ``num_to_keep`` keeps the latest
N or the best N, not both), so a trial is pruned once it is final. A final trial's Train run can
still resume (an extension continues it), and Ray Train refuses a run whose snapshot names a
checkpoint that is gone (``CheckpointManagerInitializationError``): the pruning rewrites the
run's snapshot to name only the checkpoints it kept, so the two agree on what exists.
"""

from __future__ import annotations

import logging
import posixpath
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session, sessionmaker

from raysweep.lifecycle import TRIAL_ENDED
from raysweep.mode import Mode
from raysweep.spec import ExperimentSpec
from service.db.models.sweeps import CheckpointRow, ResultRow, TrialRow
from service.storage import delete_tree, subdirectories
from service.train_snapshot import rewrite_snapshots
from service.usecases.decisions import pbt_steps, promotion_milestones
from service.usecases.reports import ResultReported
from service.usecases.studies import metric_in

log = logging.getLogger(__name__)
FINAL = [state.value for state in TRIAL_ENDED]
CHECKPOINT_PREFIX = "checkpoint_"  # how Ray Train names a run's checkpoint directories


def checkpoints_to_delete(
    rows: list[tuple[int, int, float | None]], keep_latest: int, mode: str
) -> list[int]:
    """From (id, iteration, metric) rows: the ids outside the latest ``keep_latest`` and best."""
    kept = {row[0] for row in sorted(rows, key=lambda r: r[1])[-keep_latest:]}
    scored = [(row[0], row[1], row[2]) for row in rows if row[2] is not None]
    if scored:
        sign = Mode(mode).sign
        # the earliest of equal bests
        kept.add(max(scored, key=lambda r: (sign * r[2], -r[1]))[0])
    return [row[0] for row in rows if row[0] not in kept]


def prune_trial(
    db: sessionmaker[Session], trial_id: int, runs_uri: str, keep_latest: int, mode: str
) -> int:
    """Delete a final trial's surplus checkpoints, then mark their rows deleted. Checkpoint
    directories no row refers to (an epoch redone after a restart) go too."""
    with db.begin() as session:
        trial = session.get(TrialRow, trial_id)
        if trial is None or trial.state not in FINAL:
            return 0
        tune_trial_id = trial.tune_trial_id
        rows = session.execute(
            select(
                CheckpointRow.id, CheckpointRow.iteration, CheckpointRow.metric, CheckpointRow.uri
            ).where(CheckpointRow.trial_id == trial_id, CheckpointRow.deleted.is_(False))
        ).all()
    doomed = set(checkpoints_to_delete([(r[0], r[1], r[2]) for r in rows], keep_latest, mode))
    kept_names = {posixpath.basename(r[3].rstrip("/")) for r in rows if r[0] not in doomed}
    deleted = 0
    for row in rows:
        if row[0] in doomed:
            deleted += delete_tree(row[3])  # already gone (a crash after deleting) is fine
    for uri in subdirectories(f"{runs_uri}/{tune_trial_id}"):
        name = posixpath.basename(uri.rstrip("/"))
        if name.startswith(CHECKPOINT_PREFIX) and name not in kept_names:
            deleted += delete_tree(uri)
    keep_in_snapshot(f"{runs_uri}/{tune_trial_id}", kept_names)
    if doomed:
        with db.begin() as session:
            session.execute(
                update(CheckpointRow).where(CheckpointRow.id.in_(doomed)).values(deleted=True)
            )
    return deleted


def keep_in_snapshot(run_uri: str, kept: set[str]) -> None:
    """Rewrite the Train run's checkpoint snapshot, and its copy, to name only the ``kept``
    checkpoint directories (its latest stays: retention always keeps the latest)."""
    rewrite_snapshots(run_uri, lambda snapshot: kept_only(snapshot, kept))


def kept_only(snapshot: dict[str, Any], kept: set[str]) -> dict[str, Any]:
    """The snapshot (changed in place) naming only the ``kept`` checkpoint directories."""
    results = snapshot.get("checkpoint_results") or []
    indices = snapshot.get("checkpoint_report_indices") or [None] * len(results)
    pairs = [
        (result, index)
        for result, index in zip(results, indices, strict=False)
        if result.get("checkpoint_dir_name") in kept
    ]
    snapshot["checkpoint_results"] = [result for result, _ in pairs]
    if "checkpoint_report_indices" in snapshot:
        snapshot["checkpoint_report_indices"] = [index for _, index in pairs]
    latest = snapshot.get("latest_checkpoint_result")
    if isinstance(latest, dict) and latest.get("checkpoint_dir_name") not in kept:
        snapshot["latest_checkpoint_result"] = pairs[-1][0] if pairs else None
    pending = list(
        zip(
            snapshot.get("pending_training_results") or [],
            snapshot.get("pending_validation_specs") or [],
            strict=False,
        )
    )
    if pending:
        kept_pending = [p for p in pending if p[0].get("checkpoint_dir_name") in kept]
        snapshot["pending_training_results"] = [p[0] for p in kept_pending]
        snapshot["pending_validation_specs"] = [p[1] for p in kept_pending]
    for key in (
        "validated_checkpoint_dir_names",
        "timed_out_validation_checkpoint_dir_names",
        "failed_validation_checkpoint_dir_names",
    ):
        if isinstance(snapshot.get(key), list):
            snapshot[key] = [name for name in snapshot[key] if name in kept]
    return snapshot


def prune_experiment(
    db: sessionmaker[Session], experiment_id: str, runs_uri: str, keep_latest: int, mode: str
) -> int:
    """Catch up on every final trial (a driver may have died between a trial's end and its
    pruning)."""
    with db.begin() as session:
        trial_ids = session.scalars(
            select(TrialRow.id).where(
                TrialRow.experiment_id == experiment_id, TrialRow.state.in_(FINAL)
            )
        ).all()
    return sum(prune_trial(db, trial_id, runs_uri, keep_latest, mode) for trial_id in trial_ids)


@dataclass(frozen=True)
class KeptResults:
    """Which results a trial keeps (the spec's ``results``), its rungs resolved: the values of
    the time attribute at which ASHA judges trials, ``max_t`` included."""

    keep: str = "all"
    n: int = 1
    k: int = 1
    milestones: frozenset[int] = frozenset()

    @classmethod
    def of(cls, spec: ExperimentSpec) -> KeptResults:
        early = spec.early_stopping
        marks = {early.max_t}
        if early.scheduler == "pbt":
            marks.update(pbt_steps(early.population.perturbation_interval, early.max_t))
        elif early.scheduler != "none":
            for bracket in range(early.brackets):
                marks.update(
                    promotion_milestones(
                        early.grace_period, early.reduction_factor, early.max_t, bracket
                    )
                )
        return cls(spec.results.keep, spec.results.n, spec.results.k, frozenset(marks))

    def at_milestone(self, iteration: int, metrics: dict[str, Any], time_attr: str) -> bool:
        return metrics.get(time_attr, iteration) in self.milestones

    def not_kept(
        self,
        session: Session,
        reported: list[ResultReported],
        trial_ids: Mapping[str, int],
        objective: Objective,
    ) -> list[ResultReported]:
        """``every_n``: the results that are neither at a multiple of n, nor at a rung, nor
        better than their trial's best when they came (so the best is always kept)."""
        if self.keep != "every_n":
            return []
        best = best_metrics(session, {trial_ids[op.tune_id] for op in reported})
        dropped = []
        for op in reported:
            trial_id = trial_ids[op.tune_id]
            value = objective.value(op.metrics)
            improves = value is not None and objective.mode.better(value, best.get(trial_id))
            if improves:
                best[trial_id] = value
            if not (
                improves
                or op.iteration % self.n == 0
                or self.at_milestone(op.iteration, op.metrics, objective.time_attr)
            ):
                dropped.append(op)
        return dropped

    def keep_last(self, session: Session, trial_ids: set[int], objective: Objective) -> None:
        """``last_k_per_trial``: delete the results of these trials older than their latest k,
        except those at a rung and the best (re-read each batch: a few per trial)."""
        if self.keep != "last_k_per_trial" or not trial_ids:
            return
        best = best_metrics(session, trial_ids)
        older = session.execute(
            select(ResultRow.id, ResultRow.trial_id, ResultRow.iteration, ResultRow.metrics)
            .join(TrialRow, TrialRow.id == ResultRow.trial_id)
            .where(
                ResultRow.trial_id.in_(trial_ids),
                ResultRow.iteration <= TrialRow.iteration - self.k,
            )
        ).all()
        doomed = [
            result_id
            for result_id, trial_id, iteration, metrics in older
            if not self.at_milestone(iteration, metrics, objective.time_attr)
            and objective.value(metrics) != best[trial_id]
        ]
        if doomed:
            session.execute(delete(ResultRow).where(ResultRow.id.in_(doomed)))


@dataclass(frozen=True)
class Objective:
    """What a sweep's results are judged by: the metric, its mode, and the time attribute."""

    metric: str
    mode: Mode
    time_attr: str

    def value(self, metrics: Mapping[str, Any]) -> float | None:
        return metric_in(metrics, self.metric)


def best_metrics(session: Session, trial_ids: set[int]) -> dict[int, float | None]:
    return dict(
        session.execute(select(TrialRow.id, TrialRow.best_metric).where(TrialRow.id.in_(trial_ids)))
        .tuples()
        .all()
    )
