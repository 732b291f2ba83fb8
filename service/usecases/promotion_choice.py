"""Which trials a promotion trains again: the sweep's top completed ones, those named by number, or
those picked from the Pareto front within bounds."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from raysweep.errors import Problem
from raysweep.lifecycle import (
    TrialState,
)
from raysweep.mode import Mode
from raysweep.promotion_spec import Pick, PromotionOverrides
from raysweep.spec import ExperimentSpec
from service.db import repositories as repo
from service.db.models.sweeps import ExperimentRow, TrialRow
from service.errors import Conflict, InvalidInput
from service.usecases.pareto import front_trials


def top_completed_trials(
    session: Session, experiment_id: str, mode: str, top_k: int
) -> list[TrialRow]:
    """Completed feasible trials, best metric first; on a tie the one that used fewer epochs."""
    return list(
        session.scalars(
            select(TrialRow)
            .where(
                TrialRow.experiment_id == experiment_id,
                TrialRow.state == TrialState.completed,
                TrialRow.best_metric.is_not(None),
                TrialRow.feasible.is_not(False),
            )
            .order_by(
                repo.metric_order(TrialRow.best_metric, mode), TrialRow.iteration, TrialRow.id
            )
            .limit(top_k)
        )
    )


def chosen_trials(
    session: Session,
    row: ExperimentRow,
    spec: ExperimentSpec,
    overrides: PromotionOverrides,
    top_k: int,
) -> list[TrialRow]:
    """The trials a promotion trains: ``trial_ids`` or ``trial_numbers``; else the Pareto
    front's by ``pick``; else the top_k completed feasible ones by the metric (with objectives:
    the front's by the first). A trial that cannot be promoted, more than one way of choosing,
    or a pick nothing on the front keeps, is ``InvalidInput``; no completed trial at all is a
    ``Conflict``."""
    ways = [
        name
        for name, value in (
            ("trial_ids", overrides.trial_ids),
            ("trial_numbers", overrides.trial_numbers),
            ("pick", overrides.pick),
        )
        if value is not None
    ]
    if len(ways) > 1:
        message = f"give one of trial_ids, trial_numbers and pick, not {' and '.join(ways)}"
        raise InvalidInput(
            "the promotion cannot run as asked", [Problem(path=ways[-1], message=message)]
        )
    if overrides.trial_ids is not None:
        return named_trials(session, row.id, overrides.trial_ids)
    if overrides.trial_numbers is not None:
        return named_trials(session, row.id, overrides.trial_numbers, by_number=True)
    if overrides.pick is None and not spec.multi_objective:
        winners = top_completed_trials(session, row.id, row.mode, top_k)
    else:
        front = front_trials(session, row.id, spec)
        winners = front[:top_k] if overrides.pick is None else picked(front, spec, overrides.pick)
    if not winners:
        raise Conflict(
            f"experiment {row.id} has no completed trial with a {row.metric}"
            + (" that keeps its constraints" if spec.constraints else "")
            + ": nothing to promote"
        )
    return winners[:top_k]


def named_trials(
    session: Session, experiment_id: str, keys: list[int], by_number: bool = False
) -> list[TrialRow]:
    """The trials named by id, or with ``by_number`` by their number in the sweep (``#3``),
    in the order named; each must be completed and feasible, else ``InvalidInput`` naming it."""
    column = TrialRow.number if by_number else TrialRow.id
    rows = {
        (t.number if by_number else t.id): t
        for t in session.scalars(
            select(TrialRow).where(TrialRow.experiment_id == experiment_id, column.in_(keys))
        )
    }
    field = "trial_numbers" if by_number else "trial_ids"
    problems = []
    for index, key in enumerate(keys):
        trial = rows.get(key)
        name = f"trial #{key}" if by_number else f"trial {key}"
        why = (
            f"no {name} in experiment {experiment_id}"
            if trial is None
            else f"{name} is {trial.state}; only a completed trial can be promoted"
            if trial.state is not TrialState.completed
            else f"{name} is infeasible: its latest result breaks a constraint"
            if trial.feasible is False
            else None
        )
        if why:
            problems.append(Problem(path=f"{field}.{index}", message=why))
    if problems:
        raise InvalidInput("the promotion cannot run as asked", problems)
    return [rows[k] for k in dict.fromkeys(keys)]


def picked(front: list[TrialRow], spec: ExperimentSpec, pick: Pick) -> list[TrialRow]:
    """The front's trials within the pick's bounds, best first by its objective."""
    objectives = {o.metric: o for o in spec.all_objectives}
    problems = [
        Problem(
            path=path,
            message=f"{name!r} is not an objective of this sweep ({', '.join(objectives)})",
        )
        for path, name in [("pick.objective", pick.objective)]
        + [(f"pick.max.{k}", k) for k in pick.max]
        + [(f"pick.min.{k}", k) for k in pick.min]
        if name not in objectives
    ]
    if problems:
        raise InvalidInput("the promotion cannot run as asked", problems)

    def value(trial: TrialRow, metric: str) -> float:
        return float((trial.objective_values or {}).get(metric) or 0.0)

    kept = [
        t
        for t in front
        if all(value(t, k) <= bound for k, bound in pick.max.items())
        and all(value(t, k) >= bound for k, bound in pick.min.items())
    ]
    if front and not kept:
        bounds = [f"{k} <= {b}" for k, b in pick.max.items()]
        bounds += [f"{k} >= {b}" for k, b in pick.min.items()]
        raise InvalidInput(
            "the promotion cannot run as asked",
            [
                Problem(
                    path="pick",
                    message=f"none of the {len(front)} trial(s) on the Pareto front keeps "
                    + " and ".join(bounds),
                )
            ],
        )
    sign = Mode(objectives[pick.objective].mode).sign  # best first
    return sorted(kept, key=lambda t: (-sign * value(t, pick.objective), t.id))
