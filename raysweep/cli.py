"""``raysweep``: the command line over the REST API.

Exit codes: 0 ok, 1 the server said no (its message is printed), 2 usage, 3 the server cannot be
reached, 4 the sweep waited on (``submit --wait``, ``watch``) ended failed or cancelled.
``--output json`` prints machine-readable JSON on every command; otherwise every command prints
tables and sentences that fit the terminal. Trials are read and typed by their number in the
sweep (``#3``, as the web UI shows them: ``promote --trials 3``); JSON keeps the API's ids.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import warnings
from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Group
from rich.live import Live
from rich.table import Table
from rich.text import Text

from raysweep.cli_commands import (
    cancel_final_run,
    code_command,
    extend,
    final_runs,
    models_command,
    pareto,
    promote,
    schedules_command,
)
from raysweep.cli_logs import logs_command
from raysweep.cli_output import (
    UsageError,
    asked_params,
    console,
    counts_text,
    dump,
    experiments_table,
    fmt,
    local,
    print_fitted,
    show_experiment,
    trial_label,
    trials_table,
)
from raysweep.cli_parser import parser
from raysweep.cli_tables import projects_command, usage_command
from raysweep.cli_tensorboard import tensorboard_command
from raysweep.cli_webhooks import webhooks_command
from raysweep.client import Client
from raysweep.config import config_path, read_config, write_config
from raysweep.errors import RaysweepError, SubmitNote, Unreachable, WaitTimeout
from raysweep.experiment import Experiment
from raysweep.lifecycle import ExperimentState

# what a script's `raysweep submit --wait && next-step` must not go past
SWEEP_ENDED_BADLY = 4


def watch(client: Client, experiment_id: str, interval_s: float) -> Experiment:
    experiment = client.experiment(experiment_id)

    def render() -> Group:
        table, hidden = trials_table(experiment, experiment.trials()[:30])
        data = experiment.data
        best = "" if data.best_metric is None else f", best {data.metric} {fmt(data.best_metric)}"
        title = f"{data.name} {data.id} {data.state.value}: {counts_text(data.trial_counts)}{best}"
        return Group(Text(title), table, *([Text(f"hidden: {', '.join(hidden)}")] * bool(hidden)))

    with Live(render(), console=console, refresh_per_second=2) as live:
        while not (experiment.state.is_final or experiment.state is ExperimentState.paused):
            time.sleep(interval_s)
            experiment.refresh()
            live.update(render())
    return experiment


# --- commands ------------------------------------------------------------------------------------


def run(args: argparse.Namespace) -> tuple[Any, int]:
    """Run one command; returns what ``--output json`` prints (None: printed already) and the
    exit code."""
    if args.command == "token":
        return token_command(args), 0
    client = Client(args.url, args.token, project=args.project)
    if args.command == "code":
        return code_command(client, args), 0
    as_json = args.output == "json"
    command: Callable[[], Any] = {
        "submit": lambda: submit(client, args),
        "ls": lambda: listing(client, args, as_json),
        "show": lambda: client.experiment(args.id),
        "trials": lambda: trials(client, args, as_json),
        "watch": lambda: watch(client, args.id, args.interval),
        "cancel": lambda: client.experiment(args.id).cancel(),
        "pause": lambda: client.experiment(args.id).pause(),
        "resume": lambda: client.experiment(args.id).resume(),
        "extend": lambda: extend(client, args),
        "events": lambda: events(client, args, as_json),
        "importance": lambda: importance(client, args, as_json),
        "pareto": lambda: pareto(client, args, as_json),
        "promote": lambda: promote(client, args, as_json),
        "final-runs": lambda: final_runs(client, args, as_json),
        "cancel-final-run": lambda: cancel_final_run(client, args, as_json),
        "models": lambda: models_command(client, args, as_json),
        "schedules": lambda: schedules_command(client, args, as_json),
        "projects": lambda: projects_command(client, as_json),
        "usage": lambda: usage_command(client, args, as_json),
        "webhooks": lambda: webhooks_command(client, args, as_json),
        "tensorboard": lambda: tensorboard_command(client, args, as_json),
        "logs": lambda: logs_command(client, args, as_json),
    }[args.command]
    result = command()
    status = waited_status(args, result)
    if isinstance(result, Experiment) and not as_json:
        show_experiment(result)
        return None, status
    return result, status


def waited_status(args: argparse.Namespace, result: Any) -> int:
    """The exit code of a command that waited for a sweep to stop: ``SWEEP_ENDED_BADLY`` when it
    ended failed or cancelled (a paused sweep may still complete: 0, as for a completed one)."""
    waited = args.command == "watch" or (args.command == "submit" and args.wait)
    if not (waited and isinstance(result, Experiment)):
        return 0
    if result.state in (ExperimentState.failed, ExperimentState.cancelled):
        print(
            f"raysweep {args.command}: experiment {result.data.id} ended {result.state.value}",
            file=sys.stderr,
        )
        return SWEEP_ENDED_BADLY
    return 0


def submit(client: Client, args: argparse.Namespace) -> Experiment:
    with warnings.catch_warnings(record=True) as notes:
        warnings.simplefilter("always", SubmitNote)
        experiment = client.submit(args.file)
    for note in notes:  # what the sweep gives up as submitted
        print(f"raysweep submit: note: {note.message}", file=sys.stderr)
    if args.output != "json":
        console.print(f"submitted {experiment.data.id}")
    if args.wait:
        experiment.wait(timeout=args.timeout, progress=args.output != "json")
    return experiment


def listing(client: Client, args: argparse.Namespace, as_json: bool) -> Any:
    labels = dict(args.label)
    experiments = client.experiments(state=args.state, label=labels)
    if as_json:
        return experiments
    print_fitted(*experiments_table(experiments, args.columns))
    return None


def trials(client: Client, args: argparse.Namespace, as_json: bool) -> Any:
    experiment = client.experiment(args.id)
    found = experiment.trials(state=args.state, sort=args.sort, where=args.where)
    if as_json:
        return found
    asked = asked_params(args.where, args.sort)
    print_fitted(*trials_table(experiment, found, args.columns, asked))
    return None


def events(client: Client, args: argparse.Namespace, as_json: bool) -> Any:
    found = client.experiment(args.id).events()
    if as_json:
        return found
    for event in found:
        trial = (
            f" trial {trial_label(event.trial_number, event.trial_id)}"
            if event.trial_id is not None
            else ""
        )
        console.print(f"{local(event.created_at)} {event.kind}{trial}: {event.message}")
    return None


def importance(client: Client, args: argparse.Namespace, as_json: bool) -> Any:
    ranked = client.experiment(args.id).importance(args.evaluator)
    if as_json:
        return ranked
    if ranked.message:
        console.print(ranked.message)
        return None
    console.print(
        f"{ranked.evaluator} importance for {ranked.metric} ({ranked.mode}): "
        f"{ranked.trials_used} trials compared at iteration {ranked.at_iteration}"
    )
    table = Table()
    table.add_column("parameter")
    table.add_column("importance", justify="right")
    for parameter in ranked.importances:
        table.add_row(parameter.name, f"{parameter.importance:.3f}")
    console.print(table)
    return None


def token_command(args: argparse.Namespace) -> Any:
    """The config file's url and token; the token is never printed, only its prefix."""
    values = read_config()
    if args.action == "set":
        values["token"] = args.value
        if args.url:
            values["url"] = args.url
        path = write_config(values)
        if args.output != "json":
            console.print(f"saved to {path} (mode 0600)")
    elif args.action == "clear":
        values.pop("token", None)
        write_config(values)
    token = values.get("token")
    shown = {"path": str(config_path()), "url": values.get("url"), "token": bool(token)}
    if token:
        shown["token_prefix"] = token[:8]
    if args.output == "json":
        return shown
    if args.action == "show":
        prefix = f"{token[:8]}… set" if token else "not set"
        console.print(f"{shown['path']}: url {shown['url'] or '(default)'}, token {prefix}")
    return None


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.command == "token" and args.action == "set" and not args.value:
        parser().error("token set needs the token")
    try:
        result, status = run(args)
    except Unreachable as error:
        print(f"raysweep: {error}", file=sys.stderr)
        return 3
    except UsageError as error:
        print(f"raysweep {args.command}: {error}", file=sys.stderr)
        return 2
    except (RaysweepError, WaitTimeout, OSError, ValueError) as error:
        # labelled by the command that failed: "raysweep promote: the promotion cannot run…"
        print(f"raysweep {args.command}: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    if args.output == "json":
        print(json.dumps(dump(result), indent=2, default=str))
    return status


if __name__ == "__main__":
    sys.exit(main())
