"""A sweep's best-so-far history (the best value after each finished trial, with the empirical
distribution of the values reached) as the analysis view serves it."""

from __future__ import annotations

import bisect
import math
from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from raysweep.analysis import (
    History,
    HistoryPoint,
)
from raysweep.lifecycle import TrialState
from raysweep.mode import Mode
from service.db import repositories as repo
from service.db.models.sweeps import ExperimentRow, TrialRow
from service.usecases.view_cache import cached
from service.usecases.views import evenly, trial_values


def experiment_history(db: sessionmaker[Session], experiment_id: str, max_points: int) -> History:
    return cached(db, experiment_id, history, max_points)


def history(session: Session, experiment: ExperimentRow, max_points: int) -> History:
    """Optuna's history plot: each finished trial's best value in end order, and the best so
    far, which picks as ``repo.best_trial`` does (feasible, never failed or pruned): its last
    point is the best finished trial's. The best is kept over every trial; only what is sent is
    thinned. The distribution (EDF) is of the trials that neither failed nor broke a constraint:
    a failed trial's last value is no result, and one far from the rest set the EDF's range."""
    rows = session.execute(
        select(TrialRow.id, TrialRow.best_metric, TrialRow.feasible, TrialRow.state)
        .where(
            TrialRow.experiment_id == experiment.id,
            TrialRow.finished_at.is_not(None),
            TrialRow.best_metric.is_not(None),
        )
        .order_by(TrialRow.finished_at, TrialRow.id)
    ).all()
    better = max if Mode(experiment.mode) is Mode.max else min
    best: float | None = None
    # (trial id, value, best so far, feasible) as plain tuples: at 100,000 trials only the
    # points sent become models, and only their states are read
    ended: list[tuple[int, float, float | None, bool | None]] = []
    improved: set[int] = set()  # indexes into ended
    left_out: set[int] = set()  # indexes into ended: failed or infeasible, not in the EDF
    for trial_id, value, feasible, state in rows:
        if value is None or not math.isfinite(value):  # the query leaves out None already
            continue
        if state is TrialState.failed or feasible is False:
            left_out.add(len(ended))
        eligible = feasible is not False and state not in repo.NEVER_BEST
        if eligible and (best is None or better(best, value) != best):
            best = value
            improved.add(len(ended))
        ended.append((trial_id, value, best, feasible))
    finished = len(ended)
    chosen: Sequence[int] = range(finished)
    if finished > max_points:
        kept = sorted(improved)[-(max_points // 2) :]  # the latest improvements, at most half
        rest = [i for i in range(finished) if i not in improved]
        chosen = sorted(set(kept) | set(evenly(rest, max_points - len(kept))))
    shown = trial_values(session, [ended[i][0] for i in chosen], TrialRow.state, TrialRow.number)
    points = [
        HistoryPoint(
            trial_id=ended[i][0],
            trial_number=shown[ended[i][0]].number,
            order=i + 1,
            state=shown[ended[i][0]].state,
            value=ended[i][1],
            best=ended[i][2],
            feasible=ended[i][3],
        )
        for i in chosen
    ]
    return History(
        metric=experiment.metric,
        mode=experiment.mode,
        finished_trials=finished,
        points=points,
        edf=edf([point[1] for i, point in enumerate(ended) if i not in left_out]),
        edf_trials=finished - len(left_out),
    )


EDF_POINTS = 200


def edf(values: list[float]) -> list[tuple[float, float]]:
    """(value, fraction of ``values`` at or below it) at evenly spaced ranks of the sorted values,
    the first and last always, at most ``EDF_POINTS``."""
    ranked = sorted(values)
    count = len(ranked)
    if count == 0:
        return []
    ranks = sorted({round(i * (count - 1) / (EDF_POINTS - 1)) for i in range(EDF_POINTS)})
    # at a tie, the fraction is of every value equal to it: the step's top
    return [(ranked[r], bisect.bisect_right(ranked, ranked[r]) / count) for r in ranks]
