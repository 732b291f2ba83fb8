"""What a sweep's driver job and a final run's job read and write, as the API serves it to
them (``service.api.routes.jobs``): jobs hold a token scoped to their own sweep or final run,
never the database's credentials, because the member's code they run can read what they hold.

The driver's operations are the use cases it called directly before, each in its own short
transaction; the shapes they exchange are the use cases' dataclasses, which the API and the
job's client (``service.engine.job_api``) turn into JSON with pydantic alike.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from pydantic import Discriminator, Tag
from pydantic_core import to_json
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from raysweep.lifecycle import ExperimentState, TrialState
from raysweep.spec import ExperimentSpec
from service.db import repositories as repo
from service.db.models.sweeps import TrialRow
from service.resources import ProjectShare
from service.storage import train_runs_uri
from service.usecases.convergence import completed_points
from service.usecases.decisions import RungDecided, stored_decisions
from service.usecases.exploits import ExploitDecided
from service.usecases.extension import History, starting_history
from service.usecases.job_outcomes import FinalRunOutcome
from service.usecases.projects import budget_spent, project_share
from service.usecases.recording import ResultStore
from service.usecases.reports import (
    BatchSequence,
    Op,
    ReservationReclaimed,
    ResultReported,
    TrialEnded,
    TrialHeld,
    TrialRestarted,
    TrialStarted,
    TrialWaiting,
    TrialYielded,
)
from service.usecases.retention import prune_experiment

# the most reports one batch holds (the recorder's batch size, the records route's bound), and
# the largest body a job sends (the API's body limit on its routes; a driver splits a batch of
# larger reports)
MAX_BATCH = 5_000
MAX_BATCH_BYTES = 32 << 20


def _op_kind(value: Any) -> str:
    return str(value.get("op", "")) if isinstance(value, dict) else type(value).__name__


# one report of a running sweep, as JSON: the op's fields and its class's name under "op"
OpJson = Annotated[
    Annotated[TrialStarted, Tag("TrialStarted")]
    | Annotated[ResultReported, Tag("ResultReported")]
    | Annotated[TrialEnded, Tag("TrialEnded")]
    | Annotated[TrialRestarted, Tag("TrialRestarted")]
    | Annotated[ReservationReclaimed, Tag("ReservationReclaimed")]
    | Annotated[TrialYielded, Tag("TrialYielded")]
    | Annotated[TrialWaiting, Tag("TrialWaiting")]
    | Annotated[RungDecided, Tag("RungDecided")]
    | Annotated[ExploitDecided, Tag("ExploitDecided")]
    | Annotated[TrialHeld, Tag("TrialHeld")],
    Discriminator(_op_kind),
]


def ops_json(batch: list[Op]) -> bytes:
    """The batch as the records route takes it. pydantic-core's encoder on the ops' own fields:
    a TypeAdapter's dump and json.dumps took 6x as long, a tenth of a driver's storing rate."""
    return to_json([{"op": type(op).__name__, **vars(op)} for op in batch])


@dataclass(frozen=True)
class SweepStart:
    """What a driver starts from: the sweep's state, spec and extensions, and the Tune ids of
    its stored trials, final and not."""

    state: ExperimentState
    spec: dict[str, Any]
    extensions: int
    finished: list[str] = field(default_factory=list)
    unfinished: list[str] = field(default_factory=list)


def sweep_start(db: sessionmaker[Session], experiment_id: str) -> SweepStart:
    with db.begin() as session:
        row = repo.get_experiment_row(session, experiment_id)
        trials = session.execute(
            select(TrialRow.tune_trial_id, TrialRow.state).where(
                TrialRow.experiment_id == experiment_id
            )
        ).all()
        finished = sorted(tune_id for tune_id, state in trials if TrialState(state).is_final)
        unfinished = sorted({tune_id for tune_id, _ in trials} - set(finished))
        return SweepStart(row.state, row.spec, row.extensions, finished, unfinished)


def stored_spec(session: Session, experiment_id: str) -> ExperimentSpec:
    return ExperimentSpec.model_validate(repo.get_experiment_row(session, experiment_id).spec)


def control_request(
    db: sessionmaker[Session], experiment_id: str
) -> Literal["cancel", "pause"] | None:
    """The control request a running sweep must honour, if any."""
    with db.begin() as session:
        state = repo.get_experiment_row(session, experiment_id).state
    if state is ExperimentState.cancelling:
        return "cancel"
    return "pause" if state is ExperimentState.pausing else None


def decisions(db: sessionmaker[Session], experiment_id: str) -> list[tuple[str, RungDecided]]:
    with db.begin() as session:
        return stored_decisions(session, experiment_id)


def history(db: sessionmaker[Session], experiment_id: str) -> History | None:
    """What the sweep's next Tune run starts from (``starting_history``)."""
    with db.begin() as session:
        row = repo.get_experiment_row(session, experiment_id)
        spec = ExperimentSpec.model_validate(row.spec)
        return starting_history(session, experiment_id, spec, row.extensions)


def completed(
    db: sessionmaker[Session], experiment_id: str, judged: int
) -> list[tuple[dict, float]]:
    """For ``stop.converged``: the completed trials' points, once more completed than the
    ``judged`` the driver's terminator last saw (none without ``stop.converged``)."""
    with db.begin() as session:
        spec = stored_spec(session, experiment_id)
        if spec.stop.converged is None:
            return []
        space = spec.search_space if isinstance(spec.search_space, dict) else {}
        return completed_points(
            session, experiment_id, space, spec.stop.converged.min_trials, judged
        )


def spent(db: sessionmaker[Session], experiment_id: str) -> str | None:
    """For ``stop.budget``: what the sweep spent (the ledger, every driver's), once spent."""
    with db.begin() as session:
        spec = stored_spec(session, experiment_id)
    return None if spec.stop.budget is None else budget_spent(db, experiment_id, spec.stop.budget)


def share(db: sessionmaker[Session], experiment_id: str) -> ProjectShare:
    """The sweep's project's weight and quotas, for the cluster's gate."""
    with db.begin() as session:
        project = repo.get_experiment_row(session, experiment_id).project
    return project_share(db, project)


def record(
    db: sessionmaker[Session],
    experiment_id: str,
    storage_root: str,
    batch: list[Op],
    sequence: BatchSequence | None = None,
) -> None:
    """Store one batch of the sweep's reports (``ResultStore``: a batch sent again is stored
    once, by its ``sequence``)."""
    with db.begin() as session:
        spec = stored_spec(session, experiment_id)
    ResultStore.for_sweep(experiment_id, spec, storage_root).write(db, batch, {}, sequence)


def prune(db: sessionmaker[Session], experiment_id: str, storage_root: str) -> int:
    """Catch up on an earlier driver's pruning of finished trials' checkpoints."""
    with db.begin() as session:
        spec = stored_spec(session, experiment_id)
    keep = spec.fault_tolerance.checkpoints_to_keep
    if keep is None:
        return 0
    runs = train_runs_uri(storage_root, experiment_id)
    return prune_experiment(db, experiment_id, runs, keep, spec.primary.mode)


# what a driver may tell about Ray itself (what it removed that earlier drivers or its own
# trials left behind): the only events it adds beside its reports
DriverEventKind = Literal["ray_leftovers_removed", "ray_leak"]


@dataclass(frozen=True)
class DriverEvent:
    kind: DriverEventKind
    message: str
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ControlRequest:
    request: Literal["cancel", "pause"] | None


@dataclass(frozen=True)
class BudgetSpent:
    spent: str | None


@dataclass(frozen=True)
class Pruned:
    deleted: int


@dataclass(frozen=True)
class SweepEnded:
    state: ExperimentState


@dataclass(frozen=True)
class FinalRunEpoch:
    epoch: int
    metrics: dict[str, Any]


@dataclass(frozen=True)
class WorkerFailure:
    message: str


@dataclass(frozen=True)
class FinalRunEnd:
    outcome: FinalRunOutcome | None
    error: str | None


def add_driver_event(db: sessionmaker[Session], experiment_id: str, event: DriverEvent) -> None:
    with db.begin() as session:
        repo.add_event(session, experiment_id, event.kind, event.message, data=event.data)
