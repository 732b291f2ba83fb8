"""The Pareto front of a multi-objective sweep: its completed, feasible trials that no other
dominates (as good in every objective and better in one), judged by each trial's latest value of
every objective, the values its searcher was told. A single-objective sweep's front is its best
trial (ties included), so every sweep answers the same way."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from raysweep.analysis import ObjectiveRead, Pareto, ParetoTrial
from raysweep.lifecycle import TrialState
from raysweep.mode import Mode
from raysweep.spec import ExperimentSpec, Objective
from service.db.models.sweeps import ExperimentRow, TrialRow
from service.usecases.studies import stored_values
from service.usecases.view_cache import cached
from service.usecases.views import chunks, evenly, trial_values

# the front trial ids one experiment's read carries at most (GET .../pareto has them all)
FRONT_LIMIT = 100


def non_dominated(points: Sequence[Sequence[float]]) -> list[bool]:
    """Which points no other dominates, every coordinate to be minimised. In lexicographic order
    a point can only be dominated by one before it, and if by any then by one already on the
    front (dominance is transitive): O(n log n + n * front). With one coordinate the front is
    the points at the minimum: O(n)."""
    if points and len(points[0]) == 1:
        lowest = min(p[0] for p in points)
        return [p[0] == lowest for p in points]
    order = sorted(range(len(points)), key=lambda i: tuple(points[i]))
    front: list[int] = []
    for i in order:
        p = points[i]
        if not any(
            all(a <= b for a, b in zip(points[j], p, strict=True)) and points[j] != p for j in front
        ):
            front.append(i)
    on_front = [False] * len(points)
    for i in front:
        on_front[i] = True
    return on_front


def minimised(values: Sequence[float], objectives: Sequence[Objective]) -> list[float]:
    return [-Mode(o.mode).sign * v for v, o in zip(values, objectives, strict=True)]


# a completed trial's id, its objective values and whether it kept the constraints
Scored = tuple[int, list[float], bool | None]


def front_trials(session: Session, experiment_id: str, spec: ExperimentSpec) -> list[TrialRow]:
    """The front's trials, by the first objective (then id)."""
    ids = ranked(session, experiment_id, spec)[0]
    rows = {
        trial.id: trial
        for chunk in chunks(ids, 500)
        for trial in session.scalars(select(TrialRow).where(TrialRow.id.in_(chunk)))
    }
    return [rows[i] for i in ids]


def ranked(
    session: Session, experiment_id: str, spec: ExperimentSpec
) -> tuple[list[int], list[Scored]]:
    """(the front's trial ids by the first objective, every completed trial scored). Only the
    columns the ranking needs are read: at 100,000 trials whole rows took seconds."""
    objectives = spec.all_objectives
    rows = session.execute(
        select(TrialRow.id, TrialRow.objective_values, TrialRow.last_metric, TrialRow.feasible)
        .where(TrialRow.experiment_id == experiment_id, TrialRow.state == TrialState.completed)
        .order_by(TrialRow.id)
    )
    scored = [
        (trial_id, values, feasible)
        for trial_id, stored, last_metric, feasible in rows
        if (values := stored_values(stored, last_metric, objectives)) is not None
    ]
    candidates = [(i, v) for i, v, feasible in scored if feasible is not False]
    flags = non_dominated([minimised(v, objectives) for _, v in candidates])
    front = [(i, v) for (i, v), on in zip(candidates, flags, strict=True) if on]
    front.sort(key=lambda iv: (minimised(iv[1], objectives)[0], iv[0]))
    return [i for i, _ in front], scored


def experiment_pareto(db: sessionmaker[Session], experiment_id: str, limit: int) -> Pareto:
    """The front and up to ``limit`` trials in all (the front first, complete when it is
    longer)."""
    return cached(db, experiment_id, pareto, limit)


def pareto(session: Session, experiment: ExperimentRow, limit: int) -> Pareto:
    """The front, then an even spread of the other completed trials up to ``limit`` in all."""
    spec = ExperimentSpec.model_validate(experiment.spec)
    objectives = spec.all_objectives
    front, scored = ranked(session, experiment.id, spec)
    on_front = set(front)
    rest = [i for i, _, _ in scored if i not in on_front]
    shown = front + evenly(rest, max(0, limit - len(front)))
    scores = {i: (values, feasible) for i, values, feasible in scored}
    trials = trial_values(session, shown, TrialRow.config, TrialRow.number)
    return Pareto(
        objectives=[ObjectiveRead(metric=o.metric, mode=o.mode) for o in objectives],
        front=front,
        trials=[
            ParetoTrial(
                trial_id=i,
                trial_number=trials[i].number,
                config=trials[i].config,
                values={o.metric: v for o, v in zip(objectives, scores[i][0], strict=True)},
                feasible=scores[i][1],
                on_front=i in on_front,
            )
            for i in shown
        ],
        completed_trials=len(scored),
        message=None
        if scored
        else "no completed trial with every objective's value yet: the front is empty",
    )
