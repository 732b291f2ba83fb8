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


def experiments_table(experiments: Sequence[Experiment]) -> Table:
    table = Table("id", "name", "state", "trainer", "trials", "best", "created")
    for e in experiments:
        counts = " ".join(f"{n} {s}" for s, n in sorted(e.data.trial_counts.items()))
        table.add_row(
            e.data.id,
            e.data.name,
            e.state.value,
            e.data.trainer,
            counts or "-",
            f"{fmt(e.data.best_metric)} {e.data.metric}",
            e.data.created_at.strftime("%Y-%m-%d %H:%M:%S"),
        )
    return table


def trials_table(experiment: Experiment, trials: Sequence[Any]) -> Table:
    params = sorted({key for t in trials for key in t.config})
    table = Table(
        "trial", "state", *params, "iter", "last", f"best {experiment.data.metric}", "restarts"
    )
    for t in trials:
        table.add_row(
            str(t.id),
            t.state.value + (" (waiting for resources)" if t.waiting_for else ""),
            *(fmt(t.config.get(p)) for p in params),
            str(t.iteration),
            fmt(t.last_metric),
            fmt(t.best_metric),
            str(t.restarts or ""),
        )
    return table


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
