"""What a running sweep reports, one dataclass per kind (a trial started, a result, a restart,
a wait, a lease held, a trial ended, ...), and the progress measure its results count in. The
engine's recorder batches them; ``service.usecases.recording`` stores a batch in one
transaction."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from raysweep.lifecycle import TrialState
from raysweep.spec import ExperimentSpec
from service.resources import HeldSegment
from service.usecases.decisions import RungDecided
from service.usecases.exploits import ExploitDecided
from trainers.registry import get_trainer


@dataclass(frozen=True)
class TrialStarted:
    tune_id: str
    config: dict[str, Any]


@dataclass(frozen=True)
class ResultReported:
    tune_id: str
    iteration: int
    metrics: dict[str, Any]
    checkpoint_uri: str | None = None


@dataclass(frozen=True)
class TrialEnded:
    tune_id: str
    state: TrialState
    error: str | None = None


@dataclass(frozen=True)
class TrialRestarted:
    """Ray Train restarted the trial's worker group ``count`` times (from its latest checkpoint)."""

    tune_id: str
    reason: str
    count: int = 1


@dataclass(frozen=True)
class BatchSequence:
    """A batch's place among those the sweep's driver job (its ``attempt``) sent: 1, 2, ...
    in the order they are stored."""

    attempt: int
    number: int


@dataclass(frozen=True)
class ReservationReclaimed:
    """The gate removed a worker-group reservation the trial's run left behind (its trial or
    its Train controller died first); ``message`` says which and what it held. ``tune_id`` is
    empty for one no trial had registered (its run died while its workers started)."""

    tune_id: str
    message: str


@dataclass(frozen=True)
class TrialYielded:
    """The trial's worker group stopped at its checkpoint at ``iteration`` to yield its workers to
    a project below its fair share; the trial waits for a slot and resumes from there."""

    tune_id: str
    iteration: int


@dataclass(frozen=True)
class TrialWaiting:
    """The trial's worker group waits for resources (``reason``), or no longer does (None)."""

    tune_id: str
    reason: str | None


@dataclass(frozen=True)
class TrialHeld:
    """One lease of the trial's worker group, as the gate counts it: stored (again, as it goes
    on) in the compute ledger."""

    tune_id: str
    segment: HeldSegment


Op = (
    TrialStarted
    | ResultReported
    | TrialEnded
    | TrialRestarted
    | ReservationReclaimed
    | TrialYielded
    | TrialWaiting
    | RungDecided
    | ExploitDecided
    | TrialHeld
)


def time_attr_of(spec: ExperimentSpec) -> str:
    """The progress measure ASHA and the recorder use: the spec's, else the trainer's; user code
    reports ``epoch`` (the contract in trainers/README.md)."""
    if spec.early_stopping.time_attr:
        return spec.early_stopping.time_attr
    return get_trainer(spec.trainer).time_attr if spec.trainer is not None else "epoch"
