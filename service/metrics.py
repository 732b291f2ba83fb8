"""Operator metrics in Prometheus format (``GET /metrics``).

Counts of what is stored (experiments, trials, final runs and firings by state, results stored,
driver restarts) are read from the database at scrape time, for the projects the scraping token
may see, so every server process reports the same numbers however many there are; request
latency and the controller loops' timing are this process's own.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from service.db.models.access import ComputeUsageRow
from service.db.models.registry import FinalRunRow
from service.db.models.schedules import ScheduleFiringRow, ScheduleRow
from service.db.models.sweeps import ExperimentRow, ResultRow, TrialRow


class ComputeLedger:
    """The ledger's totals per project, for the projects a caller may see (read per scrape;
    not in the registry, since what it shows depends on the token)."""

    def __init__(self, db: sessionmaker[Session]):
        self.db = db

    def collect(self, projects: list[str] | None) -> Iterator[CounterMetricFamily]:
        query = select(
            ComputeUsageRow.project,
            func.sum(ComputeUsageRow.seconds * ComputeUsageRow.workers),
            func.sum(ComputeUsageRow.seconds * ComputeUsageRow.cpus),
            func.sum(ComputeUsageRow.seconds * ComputeUsageRow.gpus),
        ).group_by(ComputeUsageRow.project)
        if projects is not None:
            query = query.where(ComputeUsageRow.project.in_(projects))
        with self.db.begin() as session:
            held = session.execute(query).all()
        for index, unit in enumerate(("worker", "cpu", "gpu"), start=1):
            family = CounterMetricFamily(
                f"raysweep_compute_{unit}_seconds",
                f"{'Worker' if unit == 'worker' else unit.upper()}-seconds held by sweeps' and "
                "final runs' worker groups, by project (the compute ledger; the token's "
                "projects only).",
                labels=["project"],
            )
            for row in held:
                family.add_metric([row[0]], float(row[index] or 0.0))
            yield family


class Scrape:
    """One scrape: the registry, and what the database holds for the caller's projects."""

    def __init__(
        self,
        registry: CollectorRegistry,
        stored: StoredCounts,
        ledger: ComputeLedger,
        projects: list[str] | None,
    ):
        self.registry, self.stored, self.ledger = registry, stored, ledger
        self.projects = projects

    def collect(self) -> Iterator[Any]:
        yield from self.registry.collect()
        yield from self.stored.collect(self.projects)
        yield from self.ledger.collect(self.projects)


class StoredCounts:
    """What the database holds, read once per scrape (a few grouped counts on indexed columns),
    for the projects a caller may see (None: all of them); not in the registry, since what it
    shows depends on the token."""

    def __init__(self, db: sessionmaker[Session]):
        self.db = db

    def collect(self, projects: list[str] | None) -> Iterator[GaugeMetricFamily | Any]:
        def scoped(query: Any, *joins: tuple[Any, Any]) -> Any:
            """The query over the given projects' rows: ``joins`` lead to the project column
            (the first table's own when none)."""
            if projects is None:
                return query
            for table, on in joins:
                query = query.join(table, on)
            column = joins[-1][0].project if joins else ExperimentRow.project
            return query.where(column.in_(projects))

        of_trial = (ExperimentRow, TrialRow.experiment_id == ExperimentRow.id)
        of_final_run = (ExperimentRow, FinalRunRow.experiment_id == ExperimentRow.id)
        with self.db.begin() as session:
            by_state = {
                name: dict(
                    session.execute(
                        scoped(select(column, func.count()), *joins).group_by(column)
                    ).all()
                )
                for name, column, joins in (
                    ("experiments", ExperimentRow.state, ()),
                    ("trials", TrialRow.state, (of_trial,)),
                    ("final_runs", FinalRunRow.state, (of_final_run,)),
                )
            }
            firings = dict(
                session.execute(
                    scoped(
                        select(ScheduleFiringRow.outcome, func.count()),
                        (ScheduleRow, ScheduleFiringRow.schedule_id == ScheduleRow.id),
                    ).group_by(ScheduleFiringRow.outcome)
                ).all()
            )
            results = (
                session.scalar(
                    scoped(
                        select(func.count()).select_from(ResultRow),
                        (TrialRow, ResultRow.trial_id == TrialRow.id),
                        of_trial,
                    )
                )
                or 0
            )
            driver_restarts = (
                session.scalar(scoped(select(func.sum(ExperimentRow.driver_restarts)))) or 0
            )
            final_restarts = (
                session.scalar(scoped(select(func.sum(FinalRunRow.restarts)), of_final_run)) or 0
            )
        for name, counts in by_state.items():
            family = GaugeMetricFamily(
                f"raysweep_{name}",
                f"{name.replace('_', ' ').capitalize()} by state.",
                labels=["state"],
            )
            for state, count in sorted(counts.items()):
                family.add_metric([state], count)
            yield family
        family = GaugeMetricFamily(
            "raysweep_schedule_firings", "Schedule firings by outcome.", labels=["outcome"]
        )
        for outcome, count in sorted(firings.items()):
            family.add_metric([outcome], count)
        yield family
        yield CounterMetricFamily(
            "raysweep_results_stored", "Trial results (one per trial and epoch) stored.", results
        )
        yield CounterMetricFamily(
            "raysweep_driver_restarts",
            "Sweep drivers resubmitted after they died.",
            driver_restarts,
        )
        yield CounterMetricFamily(
            "raysweep_final_run_restarts",
            "Final-run jobs resubmitted after they died.",
            final_restarts,
        )


class Metrics:
    """One registry per server: handed to the API (requests, ``/metrics``) and the controller."""

    def __init__(self, db: sessionmaker[Session]):
        self.registry = CollectorRegistry()
        self.stored = StoredCounts(db)
        self.ledger = ComputeLedger(db)
        self.request_seconds = Histogram(
            "raysweep_http_request_duration_seconds",
            "API request latency by route template, method and status.",
            ["method", "route", "status"],
            registry=self.registry,
            buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
        )
        self.pass_seconds = Histogram(
            "raysweep_controller_pass_seconds",
            "Time one pass of a controller loop took.",
            ["loop"],
            registry=self.registry,
        )
        self.pass_errors = Counter(
            "raysweep_controller_pass_errors",
            "Controller passes that raised (and were retried).",
            ["loop"],
            registry=self.registry,
        )
        self.lag = Gauge(
            "raysweep_controller_lag_seconds",
            "Seconds since each controller loop last finished a pass (how stale its view is).",
            ["loop"],
            registry=self.registry,
        )
        self._last_pass: dict[str, float] = {}

    def controller_pass(self, loop: str, seconds: float, failed: bool) -> None:
        self.pass_seconds.labels(loop).observe(seconds)
        if failed:
            self.pass_errors.labels(loop).inc()
        if loop not in self._last_pass:  # read at scrape time
            self.lag.labels(loop).set_function(lambda: time.time() - self._last_pass[loop])
        self._last_pass[loop] = time.time()
