"""What the ``raysweep`` command prints: tables and JSON of the API's answers.

Tables name trials by their number in the sweep (``#3``, as the web UI does); ``--output json``
keeps the API's ids (and numbers where the API has them). Times read in the terminal's local
time, or relative when within a day ("3 min ago"); compute reads in hours.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel
from rich.console import Console
from rich.table import Table

from raysweep.experiment import Experiment

# no markup: names, messages and errors come from users and would be read as rich tags
console = Console(markup=False, highlight=False)


class UsageError(ValueError):
    """The command line is wrong (exit code 2, like argparse's own errors)."""


def dump(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, Experiment):
        return value.data.model_dump(mode="json")
    if isinstance(value, list):
        return [dump(item) for item in value]
    return value


def fmt(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)


def key_values(mapping: Mapping[str, Any] | None) -> str:
    """``lr=0.01 hidden=64``: a config or metrics on one line, as typed in a spec or --where."""
    return " ".join(f"{key}={fmt(value)}" for key, value in (mapping or {}).items()) or "-"


def trial_label(number: int | None, trial_id: int | None = None) -> str:
    """A trial as the user reads and types it: ``#3``; its id only when no number is known."""
    if number is not None:
        return f"#{number}"
    return "-" if trial_id is None else f"id {trial_id}"


def local(moment: datetime) -> str:
    """``2026-11-26 23:10`` in the terminal's time zone (the API's times are UTC)."""
    aware = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    return aware.astimezone().strftime("%Y-%m-%d %H:%M")


def span(seconds: float) -> str:
    """A duration as people say it: ``45 s``, ``12 min``, ``3.5 h``, ``2.1 days``."""
    seconds = abs(seconds)
    if seconds < 60:
        return f"{seconds:.0f} s"
    if seconds < 3600:
        return f"{seconds / 60:.0f} min"
    if seconds < 48 * 3600:
        return f"{seconds / 3600:.1f} h".replace(".0 h", " h")
    return f"{seconds / 86400:.1f} days"


def when(moment: datetime | None, now: datetime | None = None) -> str:
    """Relative within a day (``3 min ago``, ``in 2.5 h``), else the local date and time."""
    if moment is None:
        return "-"
    aware = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    delta = ((now or datetime.now(UTC)) - aware).total_seconds()
    if abs(delta) >= 86400:
        return local(aware)
    if abs(delta) < 10:
        return "just now"
    return f"{span(delta)} ago" if delta > 0 else f"in {span(delta)}"


def stamp(moment: datetime | None) -> str:
    """The local time and how long ago: ``2026-11-26 23:10 (3 min ago)``."""
    if moment is None:
        return "-"
    relative = when(moment)
    shown = local(moment)
    return shown if relative == shown else f"{shown} ({relative})"


def hours(seconds: float) -> str:
    """Compute held, in hours: ``<0.01``, ``0.25``, ``12.5``, ``1,204``."""
    value = seconds / 3600
    if value == 0:
        return "0"
    if value < 0.005:
        return "<0.01"
    if value < 10:
        return f"{value:.2f}"
    return f"{value:,.1f}" if value < 1000 else f"{value:,.0f}"


def counts_text(counts: Mapping[str, int]) -> str:
    """``4 completed, 1 pruned, 1 running``: each state's count, the most first."""
    parts = sorted(((n, s) for s, n in counts.items() if n), key=lambda item: (-item[0], item[1]))
    return ", ".join(f"{n} {s}" for n, s in parts) or "none yet"


def fitted_table(
    headers: Sequence[str],
    rows: Sequence[Sequence[str]],
    priority: Sequence[str],
    columns: Sequence[str] | None = None,
) -> tuple[Table, list[str]]:
    """A table of the columns that fit the terminal at their full width, the most
    important first by ``priority`` (the rest after, in order), or of ``columns`` if given (a
    name that is not a column is a ``UsageError``). Returns the table and the columns it hid to
    fit: cutting every column to two letters, as rich does when all must fit, helps nobody."""
    if columns is not None:
        unknown = [c for c in columns if c not in headers]
        if unknown:
            raise UsageError(
                f"--columns: no column {', '.join(unknown)}; the columns are {', '.join(headers)}"
            )
        shown = set(columns)
    else:
        room = console.width - 1  # the table's last border
        natural = {
            h: max([len(h), *(len(row[i]) for row in rows)]) + 3  # padding and a border
            for i, h in enumerate(headers)
        }
        shown = set()
        for header in [*priority, *(h for h in headers if h not in priority)]:
            if header in natural and natural[header] <= room:
                shown.add(header)
                room -= natural[header]
    kept = [i for i, h in enumerate(headers) if h in shown]
    table = Table(*(headers[i] for i in kept))
    for row in rows:
        table.add_row(*(row[i] for i in kept))
    # columns a user chose are not news
    return table, [h for h in headers if h not in shown] if columns is None else []


def print_fitted(table: Table, hidden: Sequence[str]) -> None:
    console.print(table)
    if hidden:
        console.print(
            f"hidden to fit {console.width} columns: {', '.join(hidden)} "
            "(see --columns, --output json)"
        )


def experiments_table(
    experiments: Sequence[Experiment], columns: Sequence[str] | None = None
) -> tuple[Table, list[str]]:
    headers = ["id", "name", "state", "trainer", "trials", "best", "created"]
    rows = [
        [
            e.data.id,
            e.data.name,
            e.state.value,
            e.data.trainer,
            " ".join(f"{n} {s}" for s, n in sorted(e.data.trial_counts.items())) or "-",
            f"{fmt(e.data.best_metric)} {e.data.metric}",
            when(e.data.created_at),
        ]
        for e in experiments
    ]
    return fitted_table(headers, rows, ["id", "name", "state", "best", "trials"], columns)


CONDITION_KEY = re.compile(r"\s*(?:config\.)?([^\s=!<>]+)\s*(?:!=|<=|>=|=|<|>)")


def asked_params(where: Sequence[str] | None, sort: str | None) -> list[str]:
    """The config keys a ``--where`` or ``--sort config.KEY`` names: shown before the others."""
    keys = [m.group(1) for text in where or [] if (m := CONDITION_KEY.match(text))]
    if sort and sort.startswith("config."):
        keys.append(sort.removeprefix("config."))
    return list(dict.fromkeys(keys))


def trials_table(
    experiment: Experiment,
    trials: Sequence[Any],
    columns: Sequence[str] | None = None,
    asked: Sequence[str] = (),
) -> tuple[Table, list[str]]:
    """The trials by number (``#3``), their ids last; the params in ``asked`` (a filter's or
    sort's keys) are kept ahead of the other params."""
    params = sorted({key for t in trials for key in t.config})
    best = f"best {experiment.data.metric}"
    headers = ["trial", "state", *params, "iter", "last", best, "restarts", "id"]
    rows = [
        [
            trial_label(t.number, t.id),
            t.state.value + (" (waiting for resources)" if t.waiting_for else ""),
            *(fmt(t.config.get(p)) for p in params),
            str(t.iteration),
            fmt(t.last_metric),
            fmt(t.best_metric),
            str(t.restarts or ""),
            str(t.id),
        ]
        for t in trials
    ]
    first = [p for p in asked if p in params]
    priority = ["trial", "state", *first, best, "iter", *params]
    return fitted_table(headers, rows, priority, columns)


def show_experiment(experiment: Experiment) -> None:
    data = experiment.data
    console.print(f"{data.name} {data.id}  state: {data.state.value}", style="bold")
    console.print(f"trainer {data.trainer}, {data.mode} {data.metric}, project {data.project}")
    ran = ""
    if data.started_at is not None:
        seconds = ((data.finished_at or datetime.now(UTC)) - data.started_at).total_seconds()
        ran = f", ran {span(seconds)}" + ("" if data.finished_at else " so far")
    console.print(f"created {stamp(data.created_at)}{ran}")
    console.print(f"trials: {counts_text(data.trial_counts)}")
    if data.best_trial is not None:
        trial = data.best_trial
        console.print(
            f"best trial {trial_label(trial.number, trial.id)}: {data.metric} "
            f"{fmt(data.best_metric)}, {key_values(trial.config)}"
        )
    if data.error:
        console.print(f"error: {data.error}", style="red")


def final_runs_table(runs: Sequence[Any]) -> tuple[Table, list[str]]:
    """A sweep's final runs at the terminal's width (each failed run's error follows it)."""
    headers = ["run", "rank", "trial", "state", "workers", "epochs", "model", "test"]
    rows = [
        [
            str(run.id),
            str(run.rank),
            trial_label(run.trial_number, run.trial_id),
            run.state.value,
            str(run.num_workers),
            str(run.epochs),
            f"{run.model_name} v{run.model_version}" if run.model_version else run.model_name,
            key_values(run.test_metrics) if run.test_metrics else "-",
        ]
        for run in runs
    ]
    priority = ["run", "trial", "state", "model", "test", "rank", "workers", "epochs"]
    return fitted_table(headers, rows, priority)


def print_final_runs(runs: Sequence[Any]) -> None:
    if not runs:
        console.print("no final runs yet (see `raysweep promote --help`)")
        return
    print_fitted(*final_runs_table(runs))
    for run in runs:
        if run.error:
            console.print(f"run {run.id} {run.state.value}: {run.error.strip().splitlines()[-1]}")
