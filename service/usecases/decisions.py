"""Early-stopping decisions: stored as the scheduler makes them, each with what it saw (the
trial's value, the cutoff, its rank and the rung's size), and told in one line on the trial and
in the experiment's events."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from raysweep.lifecycle import RungDecisionKind as Kind
from raysweep.lifecycle import TrialState
from raysweep.mode import Mode
from service.db import repositories as repo
from service.db.bulk import insert_ignoring_duplicates
from service.db.models.sweeps import RungDecisionRow, TrialRow
from service.states import move_trial

# decisions worth an event of their own; the others show on the trial (a pruned trial's
# ``trial_pruned`` event carries its line)
EVENT_KINDS = {Kind.pause: "trial_paused", Kind.promote: "trial_promoted"}


def percentile(values: list[float], q: float, *, ordered: bool = False) -> float:
    """Linear interpolation between closest ranks, as numpy's default (ASHA's cutoff uses it);
    ``ordered``: the values are sorted already (the demo's 100,000-trial rungs are kept sorted,
    where numpy would copy and partition every rung for every trial)."""
    ranked = values if ordered else sorted(values)
    rank = (len(ranked) - 1) * q / 100
    low, high = math.floor(rank), math.ceil(rank)
    return ranked[low] + (ranked[high] - ranked[low]) * (rank - low)


def milestones(grace_period: int, reduction_factor: float, max_t: int) -> list[int]:
    """ASHA's rungs for its first bracket: grace * rf**k up to max_t (Ray's ``_Bracket``)."""
    count = int(math.log(max_t / grace_period) / math.log(reduction_factor) + 1)
    return sorted({math.ceil(grace_period * reduction_factor**k) for k in range(count)})


def asha_cutoff(
    values: list[float], reduction_factor: float, mode: str, *, ordered: bool = False
) -> float | None:
    """The value a trial must beat to continue: ASHA keeps the best 1/rf of a rung."""
    if not values:
        return None
    keep = 100 / reduction_factor
    return percentile(values, 100 - keep if Mode(mode) is Mode.max else keep, ordered=ordered)


def promotion_milestones(
    grace_period: int, reduction_factor: float, max_t: int, bracket: int
) -> list[int]:
    """A bracket's rungs as Ray's ``_Bracket`` spaces them (grace * rf**(k + s)), rounded up
    to iterations, with ``max_t`` as the last: reaching it completes a trial."""
    count = int(math.log(max_t / grace_period) / math.log(reduction_factor) - bracket + 1)
    marks = {math.ceil(grace_period * reduction_factor ** (k + bracket)) for k in range(count)}
    return sorted({mark for mark in marks if mark < max_t} | {max_t})


def pbt_steps(interval: int, max_t: int) -> list[int]:
    """Population-based training's segment ends: every ``interval`` epochs, and ``max_t``."""
    return [*range(interval, max_t, interval), max_t]


def rank_in(recorded: dict[str, float], trial_id: str) -> int:
    """1 + the number of trials with a better (larger, sign-applied) value."""
    mine = recorded[trial_id]
    return 1 + sum(1 for other, value in recorded.items() if value > mine and other != trial_id)


@dataclass(frozen=True)
class RungDecided:
    """The scheduler's decision about one trial at one rung (values in the metric's own sign)."""

    tune_id: str
    bracket: int
    milestone: int
    value: float | None
    cutoff: float | None
    rank: int | None
    rung_size: int
    decision: Kind

    def reason(self, metric: str, mode: str, time_attr: str) -> str:
        """e.g. ``pruned at epoch 4: val_accuracy 0.48 < cutoff 0.78, rank 5 of 6``."""
        where = f"{time_attr} {self.milestone}"
        standing = f"rank {self.rank} of {self.rung_size}" if self.rank else ""
        value = f"{metric} {self.value:.4g}" if self.value is not None else f"no {metric}"
        if self.cutoff is None or self.value is None:
            compared = f"{value}, the first at this rung" if self.rung_size <= 1 else value
        else:
            larger = Mode(mode) is Mode.max
            sign = (
                ("≥" if larger else "≤")
                if Mode(mode).better(self.value, self.cutoff) or self.value == self.cutoff
                else ("<" if larger else ">")
            )
            compared = f"{value} {sign} cutoff {self.cutoff:.4g}"
        detail = ", ".join(part for part in (compared, standing) if part)
        match self.decision:
            case Kind.stop:
                return f"pruned at {where}: {detail}"
            case Kind.continue_:
                return f"continued at {where}: {detail}"
            case Kind.pause:
                return f"paused at {where}: {detail}"
            case Kind.promote:
                return f"promoted at {where}: {detail}"
            case Kind.complete:
                return f"completed at {where}: {detail}"


def store_decisions(
    session: Session,
    experiment_id: str,
    decisions: list[tuple[int, RungDecided]],
    metric: str,
    mode: str,
    time_attr: str,
) -> None:
    """Store each (trial row id, decision) once; a new one becomes its trial's line and, for a
    pause or a promotion, an event."""
    rows: list[dict[str, Any]] = [
        {
            "experiment_id": experiment_id,
            "trial_id": trial_id,
            "bracket": op.bracket,
            "milestone": op.milestone,
            "value": op.value,
            "cutoff": op.cutoff,
            "rank": op.rank,
            "rung_size": op.rung_size,
            "decision": op.decision.value,
            "reason": op.reason(metric, mode, time_attr),
        }
        for trial_id, op in decisions
    ]
    stored = insert_ignoring_duplicates(
        session, RungDecisionRow, rows, ["trial_id", "milestone", "decision"]
    )
    for row in rows:
        key = (row["trial_id"], row["milestone"], row["decision"])
        if key not in stored:
            continue
        stored.discard(key)
        trial = session.get_one(TrialRow, row["trial_id"])
        trial.early_stopping = row["reason"]
        # promotion ASHA: a paused trial holds nothing until promoted (the end of a trial is
        # the recorder's ``TrialEnded``)
        if row["decision"] == Kind.pause and trial.state is TrialState.running:
            move_trial(trial, TrialState.paused)
        elif row["decision"] == Kind.promote and trial.state is TrialState.paused:
            move_trial(trial, TrialState.running)
        if kind := EVENT_KINDS.get(Kind(row["decision"])):
            repo.add_event(
                session,
                experiment_id,
                kind,
                f"trial {trial.tune_trial_id} {row['reason']}",
                trial_id=trial.id,
                data={"milestone": row["milestone"], "rank": row["rank"]},
            )


def stored_decisions(session: Session, experiment_id: str) -> list[tuple[str, RungDecided]]:
    """Every decision stored for the experiment, oldest first, by Tune trial id."""
    found = session.execute(
        select(TrialRow.tune_trial_id, RungDecisionRow)
        .join(TrialRow, TrialRow.id == RungDecisionRow.trial_id)
        .where(RungDecisionRow.experiment_id == experiment_id)
        .order_by(RungDecisionRow.id)
    )
    return [
        (
            tune_id,
            RungDecided(
                tune_id,
                row.bracket,
                row.milestone,
                row.value,
                row.cutoff,
                row.rank,
                row.rung_size,
                row.decision,
            ),
        )
        for tune_id, row in found
    ]
