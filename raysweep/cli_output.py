"""What the ``raysweep`` command prints: tables and JSON of the API's answers."""

from __future__ import annotations

from collections.abc import Sequence
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
            e.data.created_at.strftime("%Y-%m-%d %H:%M:%S"),
        ]
        for e in experiments
    ]
    return fitted_table(headers, rows, ["id", "name", "state", "best", "trials"], columns)


def trials_table(
    experiment: Experiment, trials: Sequence[Any], columns: Sequence[str] | None = None
) -> tuple[Table, list[str]]:
    params = sorted({key for t in trials for key in t.config})
    best = f"best {experiment.data.metric}"
    headers = ["trial", "state", *params, "iter", "last", best, "restarts"]
    rows = [
        [
            str(t.id),
            t.state.value + (" (waiting for resources)" if t.waiting_for else ""),
            *(fmt(t.config.get(p)) for p in params),
            str(t.iteration),
            fmt(t.last_metric),
            fmt(t.best_metric),
            str(t.restarts or ""),
        ]
        for t in trials
    ]
    return fitted_table(headers, rows, ["trial", "state", best, "iter", *params], columns)


def show_experiment(experiment: Experiment) -> None:
    data = experiment.data
    console.print(f"{data.name} {data.id}  state: {data.state.value}", style="bold")
    console.print(f"trainer {data.trainer}, {data.mode} {data.metric}, created {data.created_at}")
    console.print(f"trials: {experiment.progress_text()}")
    if data.best_trial is not None:
        console.print(f"best trial {data.best_trial.id}: {data.best_trial.config}")
    if data.error:
        console.print(f"error: {data.error}", style="red")


def final_runs_table(runs: Sequence[Any]) -> Table:
    table = Table("id", "rank", "trial", "state", "workers", "epochs", "model", "test", "error")
    for run in runs:
        table.add_row(
            str(run.id),
            str(run.rank),
            str(run.trial_id),
            run.state.value,
            str(run.num_workers),
            str(run.epochs),
            f"{run.model_name} v{run.model_version}" if run.model_version else run.model_name,
            ", ".join(f"{k} {fmt(v)}" for k, v in (run.test_metrics or {}).items()),
            (run.error or "").strip().splitlines()[-1][:60] if run.error else "",
        )
    return table
