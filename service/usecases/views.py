"""Read models for the web UI: aggregated and downsampled, so an experiment with 10,000 trials of
100 results each is still answered with a few hundred kilobytes, never everything at once."""

from __future__ import annotations

import hashlib
import heapq
import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any, TypeVar

from sqlalchemy import Row, Select, func, select
from sqlalchemy.orm import Session, sessionmaker

from raysweep.analysis import (
    CONFIGS_ALL_MAX,
    ConfigRow,
    ConfigSample,
    ConfigTable,
    Curves,
    CurveSeries,
    Rung,
    Rungs,
)
from raysweep.lifecycle import RungDecisionKind, TrialState
from raysweep.mode import Mode
from raysweep.schemas import EventRead, ExperimentUpdates, ResultPoint
from service.db import repositories as repo
from service.db.models.sweeps import EventRow, ExperimentRow, ResultRow, RungDecisionRow, TrialRow
from service.errors import InvalidInput
from service.usecases.decisions import milestones
from service.usecases.experiments import experiment_read
from service.usecases.view_cache import cached, cached_in

T = TypeVar("T")


def metric_value(metric: str) -> Any:
    """``metric`` out of a result's JSON, extracted by the database."""
    return ResultRow.metrics[metric].as_float()


def pick_trials(session: Session, experiment: ExperimentRow, limit: int) -> list[TrialRow]:
    """Which trials a chart draws when it cannot draw all: every running one (up to a quarter),
    the best ones, and the rest spread evenly over the others so their shape still shows."""
    base = select(TrialRow).where(TrialRow.experiment_id == experiment.id)
    total = repo.count(session, base)
    if total <= limit:
        return list(session.scalars(base.order_by(TrialRow.id)))
    chosen: dict[int, TrialRow] = {}
    running = base.where(TrialRow.state == TrialState.running)
    for row in session.scalars(running.order_by(TrialRow.id).limit(limit // 4)):
        chosen[row.id] = row
    best = base.order_by(repo.metric_order(TrialRow.best_metric, experiment.mode), TrialRow.id)
    for row in session.scalars(best.limit(limit // 2)):
        chosen.setdefault(row.id, row)
    ids = session.scalars(select(TrialRow.id).where(TrialRow.experiment_id == experiment.id))
    rest = sorted(set(ids) - chosen.keys())
    wanted = limit - len(chosen)
    for chunk in chunks(evenly(rest, wanted), 500):
        for row in session.scalars(base.where(TrialRow.id.in_(chunk))):
            chosen[row.id] = row
    return sorted(chosen.values(), key=lambda row: row.id)


def downsample(points: list[tuple[int, float]], max_points: int) -> list[tuple[int, float]]:
    """Every k-th point and always the last, so the curve keeps its end."""
    if len(points) <= max_points:
        return points
    stride = math.ceil(len(points) / (max_points - 1))
    kept = points[::stride]
    return [*kept, points[-1]] if kept[-1] != points[-1] else kept


def experiment_curves(
    db: sessionmaker[Session],
    experiment_id: str,
    max_trials: int,
    max_points: int,
    metric: str | None = None,
) -> Curves:
    return cached(db, experiment_id, curves, max_trials, max_points, metric)


def curves(
    session: Session,
    experiment: ExperimentRow,
    max_trials: int,
    max_points: int,
    metric: str | None = None,
) -> Curves:
    # read first, so a result stored meanwhile is sent again by `updates`, never missed; the
    # newest id of all experiments is as good a cursor and needs no join
    cursor = session.scalar(select(func.max(ResultRow.id))) or 0
    total = repo.count(session, select(TrialRow).where(TrialRow.experiment_id == experiment.id))
    trials = pick_trials(session, experiment, max_trials)
    drawn = metric or experiment.metric
    # another metric may hold text in some result: read as NULL there, never a failed cast
    value = (
        metric_value(drawn)
        if drawn == experiment.metric
        else repo.json_number(session, ResultRow.metrics, drawn)
    )
    points: dict[int, list[tuple[int, float]]] = defaultdict(list)
    for chunk in chunks([t.id for t in trials], 500):
        rows = session.execute(
            select(ResultRow.trial_id, ResultRow.iteration, value)
            .where(ResultRow.trial_id.in_(chunk))
            .order_by(ResultRow.trial_id, ResultRow.iteration)
        )
        for trial_id, iteration, value in rows:
            if value is not None and math.isfinite(value):
                points[trial_id].append((iteration, value))
    series = [
        CurveSeries(
            trial_id=t.id,
            trial_number=t.number,
            state=t.state,
            config=t.config,
            points=downsample(points[t.id], max_points),
        )
        for t in trials
    ]
    return Curves(
        metric=drawn,
        mode=experiment.mode,
        metrics=reported_metrics(session, trials),
        total_trials=total,
        series=series,
        cursor=cursor,
    )


def reported_metrics(session: Session, trials: Sequence[TrialRow]) -> list[str]:
    """The numbers the trials report, by name: those of the latest result of the trial that
    went furthest (one index lookup, not a scan of every result)."""
    furthest = max(trials, key=lambda t: (t.iteration, -t.id), default=None)
    if furthest is None:
        return []
    latest = session.scalar(
        select(ResultRow.metrics)
        .where(ResultRow.trial_id == furthest.id)
        .order_by(ResultRow.iteration.desc())
        .limit(1)
    )
    return sorted(
        name
        for name, number in (latest or {}).items()
        if isinstance(number, int | float) and not isinstance(number, bool)
    )


def evenly(items: Sequence[T], count: int) -> list[T]:
    """``count`` of the items spread evenly over them (all when there are no more)."""
    if len(items) <= count:
        return list(items)
    return [items[i * len(items) // count] for i in range(count)]


def chunks(values: Sequence[int], size: int) -> Iterable[Sequence[int]]:
    # bounded IN lists: SQLite caps bound parameters per statement
    return (values[i : i + size] for i in range(0, len(values), size))


def trial_values(session: Session, ids: Sequence[int], *columns: Any) -> dict[int, Row[Any]]:
    """``columns`` of each trial in ``ids`` (a row with them by name), by id: the few trials a
    view shows, read after it ranked all of them by a couple of columns (whole rows of 100,000
    trials took seconds)."""
    return {
        row.id: row
        for chunk in chunks(ids, 500)
        for row in session.execute(select(TrialRow.id, *columns).where(TrialRow.id.in_(chunk)))
    }


def experiment_rungs(db: sessionmaker[Session], experiment_id: str) -> Rungs:
    return cached(db, experiment_id, rungs)


def rungs(session: Session, experiment: ExperimentRow) -> Rungs:
    """The rungs as the scheduler decided them: counts of its stored decisions per milestone,
    and the cutoff its latest decision there applied."""
    early = experiment.spec.get("early_stopping", {})
    scheduler = early.get("scheduler", "asha")
    if scheduler in ("none", "pbt"):  # PBT's steps are its exploits (list_exploits)
        return Rungs(scheduler=scheduler, reduction_factor=None, rungs=[])
    rf = float(early.get("reduction_factor", 2))
    # counted by the database: one row per milestone and kind, however many trials were judged
    mine = RungDecisionRow.experiment_id == experiment.id
    counts: dict[int, dict[RungDecisionKind, int]] = defaultdict(lambda: defaultdict(int))
    for milestone, decision, number in session.execute(
        select(RungDecisionRow.milestone, RungDecisionRow.decision, func.count())
        .where(mine)
        .group_by(RungDecisionRow.milestone, RungDecisionRow.decision)
    ):
        counts[milestone][decision] = number
    # a paused trial promoted later was judged once
    judged: dict[int, int] = {
        milestone: number
        for milestone, number in session.execute(
            select(RungDecisionRow.milestone, func.count(RungDecisionRow.trial_id.distinct()))
            .where(mine)
            .group_by(RungDecisionRow.milestone)
        )
    }
    latest = select(func.max(RungDecisionRow.id)).where(mine).group_by(RungDecisionRow.milestone)
    cutoffs: dict[int, float | None] = {
        milestone: cutoff
        for milestone, cutoff in session.execute(
            select(RungDecisionRow.milestone, RungDecisionRow.cutoff).where(
                RungDecisionRow.id.in_(latest)
            )
        )
    }
    grace, max_t = int(early.get("grace_period", 1)), int(early.get("max_t", 10))
    marks = sorted(set(milestones(grace, rf, max_t)) | judged.keys())
    kind = RungDecisionKind
    return Rungs(
        scheduler=scheduler,
        reduction_factor=rf,
        rungs=[
            Rung(
                milestone=mark,
                reached=judged.get(mark, 0),
                continued=counts[mark][kind.continue_],
                stopped=counts[mark][kind.stop],
                # promotion ASHA stops only trials paused at a rung, when its sweep ends
                paused=max(
                    0,
                    counts[mark][kind.pause] - counts[mark][kind.promote] - counts[mark][kind.stop],
                ),
                promoted=counts[mark][kind.promote],
                completed=counts[mark][kind.complete],
                cutoff=cutoffs.get(mark),
            )
            for mark in marks
        ],
    )


def experiment_configs(
    db: sessionmaker[Session],
    experiment_id: str,
    limit: int,
    sample: ConfigSample = ConfigSample.best,
) -> ConfigTable:
    return cached(db, experiment_id, configs, limit, sample)


def configs(
    session: Session,
    experiment: ExperimentRow,
    limit: int,
    sample: ConfigSample = ConfigSample.best,
) -> ConfigTable:
    """The trials' configs and best metric, best first: the best ``limit``, ``limit`` drawn at
    random (``random_ids``), or every trial of a sweep of at most ``CONFIGS_ALL_MAX`` (past it
    ``InvalidInput``: the browser draws each as an SVG element)."""
    query = select(TrialRow).where(TrialRow.experiment_id == experiment.id)
    total = repo.count(session, query)
    best_first = (repo.metric_order(TrialRow.best_metric, experiment.mode), TrialRow.id)
    if sample is ConfigSample.all:
        if total > CONFIGS_ALL_MAX:
            raise InvalidInput(
                f"sample=all sends sweeps of at most {CONFIGS_ALL_MAX:,} trials; this one has "
                f"{total:,}: ask for the best or a random sample"
            )
        trials: Sequence[TrialRow] = session.scalars(query.order_by(*best_first)).all()
    elif sample is ConfigSample.random and total > limit:
        chosen = random_ids(session, experiment.id, limit)
        trials = [
            row
            for chunk in chunks(chosen, 500)
            for row in session.scalars(query.where(TrialRow.id.in_(chunk)))
        ]
        sign = Mode(experiment.mode).sign
        trials = sorted(
            trials,
            key=lambda t: (t.best_metric is None, -sign * (t.best_metric or 0.0), t.id),
        )
    else:
        trials = session.scalars(query.order_by(*best_first).limit(limit)).all()
    params = sorted({key for t in trials for key in t.config})
    return ConfigTable(
        metric=experiment.metric,
        mode=experiment.mode,
        total_trials=total,
        params=params,
        sample=sample,
        all_max=CONFIGS_ALL_MAX,
        rows=[
            ConfigRow(
                trial_id=t.id,
                trial_number=t.number,
                state=t.state,
                metric=t.best_metric,
                values=[t.config.get(name) for name in params],
            )
            for t in trials
        ],
    )


def random_ids(session: Session, experiment_id: str, limit: int) -> list[int]:
    """``limit`` of the sweep's trial ids in a random order seeded by the sweep: each trial's
    rank is a hash of its id and the sweep's, so the sample is the same on every read, and a
    new trial displaces at most one of it."""
    ids = session.scalars(select(TrialRow.id).where(TrialRow.experiment_id == experiment_id))
    salt = experiment_id.encode()

    def rank(trial_id: int) -> bytes:
        return hashlib.blake2b(str(trial_id).encode(), digest_size=8, key=salt[:64]).digest()

    return sorted(heapq.nsmallest(limit, ids, key=rank))


def results_after(experiment_id: str, metric: str, after: int) -> Select[Any]:
    # a correlated owner check rather than a join: the planner then walks the primary key from
    # the cursor (a handful of new rows) instead of every trial of a large experiment
    owner = select(TrialRow.experiment_id).where(TrialRow.id == ResultRow.trial_id)
    return (
        select(ResultRow.id, ResultRow.trial_id, ResultRow.iteration, metric_value(metric))
        .where(ResultRow.id > after, owner.scalar_subquery() == experiment_id)
        .order_by(ResultRow.id)
    )


def experiment_updates(
    db: sessionmaker[Session], experiment_id: str, after: int, events_after: int, limit: int
) -> ExperimentUpdates:
    """The experiment now, plus the results and events newer than the cursors. The recorder is
    the only writer of an experiment's results and inserts them in order, so result ids only
    grow and a cursor never skips one."""
    with db.begin() as session:
        # as GET /experiments/{id} answers it, kept until it changes
        read = cached_in(session, experiment_id, experiment_read)
        results_query = results_after(experiment_id, read.metric, after)
        rows = session.execute(results_query.limit(limit + 1)).all()
        more = len(rows) > limit
        results = [
            ResultPoint(id=i, trial_id=t, iteration=n, value=v) for i, t, n, v in rows[:limit]
        ]
        events = session.scalars(
            select(EventRow)
            .where(EventRow.experiment_id == experiment_id, EventRow.id > events_after)
            .order_by(EventRow.id)
            .limit(limit)
        ).all()
        return ExperimentUpdates(
            experiment=read,
            results=results,
            events=[EventRead.model_validate(e) for e in events],
            cursor=results[-1].id if results else after,
            more=more,
        )
