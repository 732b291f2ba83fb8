"""What a job reports back from inside Ray: a sweep driver's outcome, a final run's start,
epochs, worker failures and outcome. The engine calls these; they make every state change."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from raysweep.lifecycle import ExperimentState, FinalRunState, TrialState
from raysweep.spec import ExperimentSpec
from service.db import repositories as repo
from service.db.models.registry import FinalRunResultRow, FinalRunRow
from service.db.models.sweeps import TrialRow
from service.states import STOPPED, end_sweep, move_final_run
from service.usecases.models import challenge_champion, register_version


@dataclass(frozen=True)
class DriverOutcome:
    """How a sweep's driver ended: its error (None when Tune returned), whether its job was
    stopped (SIGTERM) or Tune interrupted for a pause, which trial reached ``stop.target``, and
    why the terminator judged the sweep converged (``stop.converged``), and what it spent of
    ``stop.budget`` when that ended it."""

    error: str | None = None
    terminated: bool = False
    interrupted: bool = False
    target_reached_by: str | None = None
    converged: str | None = None
    budget_spent: str | None = None  # stop.budget: what was spent of what


def nothing_completed(session: Session, experiment_id: str) -> str | None:
    """Why the sweep failed when none of its trials completed (its trials by state, and the
    first failure's error line); None when one did."""
    counts = repo.trial_counts(session, [experiment_id]).get(experiment_id, {})
    if counts.get(TrialState.completed.value, 0):
        return None
    ended = ", ".join(f"{n} {state}" for state, n in sorted(counts.items()) if n) or "no trials"
    first = session.scalars(
        select(TrialRow.error)
        .where(TrialRow.experiment_id == experiment_id, TrialRow.error.is_not(None))
        .order_by(TrialRow.finished_at, TrialRow.id)
        .limit(1)
    ).first()
    reason = f"no trial completed ({ended})"
    return f"{reason}; the first failure: {error_line(first)}" if first else reason


def error_line(error_text: str) -> str:
    """The line of a traceback that says what was raised (its last ``Type: message`` line; the
    last line when none reads so): what a sweep's error and a fail-fast's fingerprint quote."""
    lines = [line.strip() for line in error_text.strip().splitlines() if line.strip()]
    raised = [line for line in lines if re.match(r"^[A-Za-z_][\w.]*(: |$)", line)]
    return (raised or lines or ["no error text"])[-1][:500]


def finish_sweep(
    db: sessionmaker[Session], experiment_id: str, outcome: DriverOutcome
) -> ExperimentState:
    """Record the best trial and the sweep's final (or paused) state; trials Tune left unfinished
    end with the sweep. A driver stopped without a request leaves the sweep running: the
    reconciler resubmits it and the next driver resumes."""
    with db.begin() as session:
        row = repo.get_experiment_row(session, experiment_id, for_update=True)
        best = repo.best_trial(session, experiment_id, row.mode)
        row.best_trial_id, row.best_metric = (best.id, best.best_metric) if best else (None, None)
        current = row.state
        if outcome.error is not None:
            target, message = ExperimentState.failed, f"sweep failed: {outcome.error}"
        elif current is ExperimentState.cancelling:
            target, message = STOPPED[current], "sweep cancelled"
        elif current is ExperimentState.running and outcome.terminated:
            # an operator or a node drain stopped the job: Tune saved its state
            repo.add_event(
                session,
                experiment_id,
                "driver_stopped",
                "the driver job was stopped (SIGTERM); Tune saved its state for the next driver",
            )
            return current
        elif current is ExperimentState.pausing and (outcome.interrupted or outcome.terminated):
            target, message = STOPPED[current], "sweep paused; resume continues it"
        elif no_trial_completed := nothing_completed(session, experiment_id):
            # a sweep that produced no trained model did not succeed, whatever stopped it
            target, message = ExperimentState.failed, f"sweep failed: {no_trial_completed}"
            outcome = replace(outcome, error=no_trial_completed)
        else:
            target = ExperimentState.completed
            by = outcome.target_reached_by
            message = "sweep completed" + (f" (target reached by trial {by})" if by else "")
            if outcome.converged and not by:
                message = f"sweep completed: {outcome.converged}"
                repo.add_event(session, experiment_id, "converged", outcome.converged)
            elif outcome.budget_spent and not by:
                message = f"sweep completed: {outcome.budget_spent}"
                repo.add_event(session, experiment_id, "budget_spent", outcome.budget_spent)
        end_sweep(session, row, target)
        row.error = outcome.error
        repo.add_event(
            session,
            experiment_id,
            target.value,
            message,
            data={"best_trial_id": row.best_trial_id, "best_metric": row.best_metric},
        )
    return target


@dataclass(frozen=True)
class FinalRunJob:
    final_run_id: int
    experiment_id: str
    spec: ExperimentSpec
    config: dict[str, Any]
    num_workers: int
    epochs: int
    warm_start_uri: str | None
    # {use_gpu, cpus_per_worker, gpus_per_worker} of each worker; None: the sweep's
    resources: dict[str, Any] | None = None
    # a PBT trial's config changes, replayed: [{"epoch": e, "config": ...}]; None: none
    schedule: list[dict[str, Any]] | None = None

    def segments(self) -> list[tuple[int, dict[str, Any]]]:
        """(the epoch each segment trains to, its config): the whole run in one, or a replayed
        schedule's segments, each config trained from the epoch after the change before it
        (as Ray Tune's PBT replay changes a config at the epochs it changed in the sweep)."""
        segments: list[tuple[int, dict[str, Any]]] = []
        config = self.config
        for change in sorted(self.schedule or [], key=lambda change: int(change["epoch"])):
            epoch = int(change["epoch"])
            if epoch >= self.epochs:
                break
            if epoch > (segments[-1][0] if segments else 0):
                segments.append((epoch, config))
            config = dict(change["config"])
        return [*segments, (self.epochs, config)]


@dataclass(frozen=True)
class FinalRunOutcome:
    metrics: dict[str, Any]
    checkpoint_uri: str
    test_metrics: dict[str, float] | None
    data_fingerprint: str | None
    code_version: dict[str, Any]


def start_final_run(db: sessionmaker[Session], final_run_id: int) -> FinalRunJob | None:
    """The job's first step: what to train, moving a queued run to running; None when the run
    has ended or is being cancelled (the job then trains nothing)."""
    with db.begin() as session:
        row = session.get(FinalRunRow, final_run_id, with_for_update=True)
        if row is None or row.state.is_final or row.state == FinalRunState.cancelling:
            return None
        if row.state == FinalRunState.queued:
            move_final_run(row, FinalRunState.running)
        spec = ExperimentSpec.model_validate(
            repo.get_experiment_row(session, row.experiment_id).spec
        )
        return FinalRunJob(
            row.id,
            row.experiment_id,
            spec,
            row.config,
            row.num_workers,
            row.epochs,
            row.warm_start_uri,
            row.resources,
            row.schedule,
        )


def store_final_run_epoch(
    db: sessionmaker[Session], final_run_id: int, epoch: int, metrics: dict[str, Any]
) -> None:
    """Idempotent: a resumed run re-reporting an epoch stores it once."""
    with db.begin() as session:
        exists = session.scalar(
            select(FinalRunResultRow.id).where(
                FinalRunResultRow.final_run_id == final_run_id, FinalRunResultRow.epoch == epoch
            )
        )
        if exists is None:
            session.add(FinalRunResultRow(final_run_id=final_run_id, epoch=epoch, metrics=metrics))
        row = session.get(FinalRunRow, final_run_id)
        if row is not None:
            row.metrics = metrics


def record_final_run_worker_failure(
    db: sessionmaker[Session], final_run_id: int, message: str
) -> None:
    with db.begin() as session:
        row = session.get(FinalRunRow, final_run_id, with_for_update=True)
        if row is not None:
            row.worker_failures += 1
            repo.add_event(session, row.experiment_id, "final_run_worker_failed", message)


def finish_final_run(
    db: sessionmaker[Session],
    final_run_id: int,
    outcome: FinalRunOutcome | None,
    error: str | None,
) -> None:
    """Failed with ``error``, or completed: the model version registered and, for a retrain,
    compared with the champion."""
    with db.begin() as session:
        row = session.get(FinalRunRow, final_run_id, with_for_update=True)
        if row is None or row.state.is_final:
            return
        if outcome is None:
            move_final_run(row, FinalRunState.failed)
            row.error = error
            repo.add_event(
                session,
                row.experiment_id,
                "final_run_failed",
                f"final run {row.id} failed: {error}",
            )
            return
        row.metrics, row.checkpoint_uri = outcome.metrics, outcome.checkpoint_uri
        row.test_metrics = outcome.test_metrics
        move_final_run(row, FinalRunState.completed)
        spec = ExperimentSpec.model_validate(
            repo.get_experiment_row(session, row.experiment_id).spec
        )
        version = register_version(
            session, row, spec.trainer_label, outcome.code_version, outcome.data_fingerprint
        )
        repo.add_event(
            session,
            row.experiment_id,
            "model_registered",
            f"final run {row.id} registered as {version.name} version {version.version}",
            data={"model": version.name, "version": version.version, "final_run_id": row.id},
        )
        if row.challenge is not None:  # a retrain: it replaces the champion only if it wins
            comparison = challenge_champion(session, version, row.challenge)
            outcome_text = (
                f"took {comparison['alias']!r}"
                if comparison["promoted"]
                else f"kept as 'candidate'; {comparison['alias']!r} stays"
            )
            repo.add_event(
                session,
                row.experiment_id,
                "champion_challenger",
                f"{version.name} version {version.version} {outcome_text}: {comparison['reason']}",
                data={"model": version.name, "version": version.version, **comparison},
            )
