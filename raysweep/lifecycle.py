"""The states a sweep, a trial, a final run, a deployment, a promotion and a schedule's firing
pass through, and the sets of them every part of raysweep uses (defined once for the server,
its engine and the client: the engine may not import service.states, the client no service
module). Tuples in the enums' order, so that a message listing one reads the same every time."""

from __future__ import annotations

from enum import StrEnum


class ExperimentState(StrEnum):
    queued = "queued"
    running = "running"
    pausing = "pausing"
    paused = "paused"
    cancelling = "cancelling"
    completed = "completed"
    failed = "failed"
    cancelled = "cancelled"

    @property
    def is_final(self) -> bool:
        return self in EXPERIMENT_ENDED


class TrialState(StrEnum):
    pending = "pending"
    running = "running"
    # promotion ASHA: stopped at a rung, its checkpoint kept, waiting to be promoted
    paused = "paused"
    completed = "completed"
    pruned = "pruned"
    failed = "failed"
    cancelled = "cancelled"

    @property
    def is_final(self) -> bool:
        return self in TRIAL_ENDED


class RungDecisionKind(StrEnum):
    """What an early-stopping scheduler decided about a trial at a rung."""

    continue_ = "continue"  # asha: good enough, trains on
    stop = "stop"  # asha: below the cutoff, pruned
    pause = "pause"  # asha_promotion: waits at the rung for a promotion
    promote = "promote"  # asha_promotion: in the rung's top 1/reduction_factor, trains on
    complete = "complete"  # reached max_t at the last rung


class FinalRunState(StrEnum):
    queued = "queued"
    running = "running"
    cancelling = "cancelling"
    completed = "completed"
    failed = "failed"
    cancelled = "cancelled"

    @property
    def is_final(self) -> bool:
        return self in FINAL_RUN_ENDED


# final: the run ended and stays so (``is_final``)
EXPERIMENT_ENDED = (ExperimentState.completed, ExperimentState.failed, ExperimentState.cancelled)
TRIAL_ENDED = (TrialState.completed, TrialState.pruned, TrialState.failed, TrialState.cancelled)
FINAL_RUN_ENDED = (FinalRunState.completed, FinalRunState.failed, FinalRunState.cancelled)
# active: its Ray job runs, or is being stopped
EXPERIMENT_ACTIVE = (ExperimentState.running, ExperimentState.pausing, ExperimentState.cancelling)
FINAL_RUN_ACTIVE = (FinalRunState.running, FinalRunState.cancelling)
# a trial not ended: waiting to run, running, or paused at a rung (promotion ASHA)
TRIAL_OPEN = (TrialState.pending, TrialState.running, TrialState.paused)


class DeploymentState(StrEnum):
    deploying = "deploying"
    running = "running"
    failed = "failed"
    deleting = "deleting"
    deleted = "deleted"


class PromotionStatus(StrEnum):
    """What became of a completed sweep's promotion: the promoter's record, so it looks at each
    completed sweep once."""

    promoted = "promoted"  # final runs were queued (automatically or by hand)
    skipped = "skipped"  # the automatic promotion could not promote (an event says why)
    manual = "manual"  # promotion.auto is off: left to the user


class FiringOutcome(StrEnum):
    submitted = "submitted"
    waiting = "waiting"
    skipped = "skipped"
    missed = "missed"
    failed = "failed"
    tuning = "tuning"
    training = "training"
    promoted = "promoted"
    kept = "kept"
    cancelled = "cancelled"


# a retrain firing whose re-tuning sweep or final run goes on
FIRING_ACTIVE = (FiringOutcome.tuning, FiringOutcome.training)
