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
from datetime import datetime
from typing import Any

from rich.console import Group
from rich.live import Live
from rich.table import Table
from rich.text import Text

from raysweep.cli_commands import (
    bound,
    cancel_final_run,
    code_command,
    earlier_value,
    extend,
    final_runs,
    models_command,
    pareto,
    promote,
    schedules_command,
)
from raysweep.cli_logs import add_logs_command, logs_command
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
from raysweep.cli_tables import projects_command, usage_command
from raysweep.cli_tensorboard import add_tensorboard_command, tensorboard_command
from raysweep.cli_webhooks import add_webhooks_command, webhooks_command
from raysweep.client import Client
from raysweep.config import config_path, read_config, write_config
from raysweep.errors import RaysweepError, SubmitNote, Unreachable, WaitTimeout
from raysweep.experiment import Experiment
from raysweep.schemas import ExperimentState, TrialState

# what a script's `raysweep submit --wait && next-step` must not go past
SWEEP_ENDED_BADLY = 4
TRIAL_SORTS = ("best_metric", "last_metric", "iteration", "created_at")
COLUMNS_HELP = (
    "Comma-separated columns to show (default: the most important that fit the terminal; "
    "the others are named under the table)."
)


def column_list(text: str) -> list[str]:
    return [c.strip() for c in text.split(",") if c.strip()]


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


# --- parsing -------------------------------------------------------------------------------------


def options(defaults: bool) -> argparse.ArgumentParser:
    """The global options, accepted before or after the command. After it, their defaults are
    suppressed, or argparse would reset what was given before it."""
    common = argparse.ArgumentParser(add_help=False)
    default: Any = {} if defaults else {"default": argparse.SUPPRESS}
    common.add_argument(
        "--url", help="Server URL (default: RAYSWEEP_URL, config file, local).", **default
    )
    common.add_argument(
        "--token", help="API token (default: RAYSWEEP_TOKEN, config file, local).", **default
    )
    common.add_argument(
        "--project",
        help="Create in, and list only, this project (default: RAYSWEEP_PROJECT; else "
        "create in the token's project if it has a role in one only, else in `default`, and "
        "list every project the token has a role in).",
        **default,
    )
    common.add_argument(
        "--output",
        choices=("table", "json"),
        help="table (default) or json, for scripts.",
        **({"default": "table"} if defaults else default),
    )
    return common


def parser() -> argparse.ArgumentParser:
    common = options(defaults=False)
    root = argparse.ArgumentParser(
        prog="raysweep",
        description="Drive a raysweep server: submit sweeps, watch them, control them. Exit "
        "codes: 0 ok, 1 the server said no, 2 usage, 3 the server cannot be reached, 4 the "
        "sweep waited on (submit --wait, watch) ended failed or cancelled.",
        parents=[options(defaults=True)],
    )
    commands = root.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def add(name: str, text: str, with_id: bool = True) -> argparse.ArgumentParser:
        command = commands.add_parser(name, help=text, description=text, parents=[common])
        if with_id:
            command.add_argument("id", help="Experiment id.")
        return command

    submit_cmd = add("submit", "Submit a sweep from a YAML or JSON spec file.", with_id=False)
    submit_cmd.add_argument(
        "file", help="Spec file (YAML or JSON), e.g. examples/digits_asha.yaml of a checkout."
    )
    submit_cmd.add_argument(
        "--wait",
        action="store_true",
        help="Wait until it ends or pauses; exit 4 if it ended failed or cancelled.",
    )
    submit_cmd.add_argument("--timeout", type=float, help="With --wait: give up after seconds.")
    ls_cmd = add("ls", "List experiments, newest first.", with_id=False)
    ls_cmd.add_argument("--state", action="append", choices=[s.value for s in ExperimentState])
    ls_cmd.add_argument(
        "--label", action="append", default=[], type=label_pair, help="key:value (repeatable)."
    )
    ls_cmd.add_argument("--columns", type=column_list, help=COLUMNS_HELP)
    add("show", "One experiment: state, trial counts, best trial.")
    trials_cmd = add("trials", "An experiment's trials, best first.")
    trials_cmd.add_argument(
        "--sort",
        default="best_metric",
        help=f"{', '.join(TRIAL_SORTS)} or config.KEY (default: best_metric).",
    )
    trials_cmd.add_argument(
        "--where",
        action="append",
        metavar="CONDITION",
        help="KEY, OP and VALUE in one argument (quote it in a shell), OP one of = != < <= > "
        ">=, e.g. 'lr>0.01' or optimizer=adam; repeatable: all must hold. Its keys' columns "
        "are kept in the table.",
    )
    trials_cmd.add_argument("--state", action="append", choices=[s.value for s in TrialState])
    trials_cmd.add_argument("--columns", type=column_list, help=COLUMNS_HELP)
    watch_cmd = add(
        "watch",
        "A live table of the trials until the sweep ends or pauses; exit 4 if it ended failed "
        "or cancelled.",
    )
    watch_cmd.add_argument("--interval", type=float, default=2.0, help="Seconds between reads.")
    add(
        "cancel",
        "Cancel a queued, running or paused sweep (again while it cancels: no change; a "
        "finished sweep is refused, exit 1).",
    )
    add("pause", "Pause a sweep after its running trials checkpoint.")
    add("resume", "Resume a paused sweep.")
    extend_cmd = add(
        "extend",
        "Extend a completed, cancelled or paused sweep: more configurations, a larger budget "
        "(completed trials continue from their checkpoints) or more time.",
    )
    extend_cmd.add_argument(
        "--samples", type=int, help="The sweep's new number of configurations in all."
    )
    extend_cmd.add_argument("--max-t", type=int, help="The new budget of every trial (epochs).")
    extend_cmd.add_argument("--time-budget", type=float, help="Seconds the extension may run.")
    extend_cmd.add_argument(
        "--search-space",
        metavar="FILE|NAME",
        help="A new search space: a YAML/JSON file of parameters (as a spec's search_space) or "
        "a named space on the server. New configurations are sampled from it; earlier trials "
        "outside it are left out of the searcher's history.",
    )
    extend_cmd.add_argument(
        "--earlier",
        action="append",
        default=[],
        type=earlier_value,
        metavar="NAME=VALUE",
        help="For each parameter the new space adds: the value earlier trials had (repeatable).",
    )
    add("events", "An experiment's timeline.")
    importance_cmd = add(
        "importance",
        "Which hyperparameters decided the metric, most important first (the trials compared "
        "at the deepest iteration a quarter of them reached).",
    )
    importance_cmd.add_argument(
        "--evaluator",
        choices=("ped_anova", "fanova"),
        default="ped_anova",
        help="Optuna's PED-ANOVA (default) or fANOVA.",
    )
    pareto_cmd = add(
        "pareto",
        "The Pareto front of a sweep's objectives: the completed feasible trials no other "
        "dominates, by the first objective.",
    )
    pareto_cmd.add_argument(
        "--limit", type=int, default=1000, help="Trials fetched at most (the front first)."
    )
    promote_cmd = add(
        "promote",
        "Train an ended sweep's top completed trials again, with more workers and optionally "
        "other resources (final runs).",
    )
    promote_cmd.add_argument("--top-k", type=int, help="Trials to promote (default: the spec's).")
    promote_cmd.add_argument("--workers", type=int, help="Workers of each final run.")
    promote_cmd.add_argument("--epochs", type=int, help="Epochs of each final run.")
    promote_cmd.add_argument("--model-name", help="Registry name (default: the spec's).")
    promote_cmd.add_argument(
        "--cpus-per-worker",
        type=float,
        help="CPUs of each final-run worker (default: the sweep's).",
    )
    promote_cmd.add_argument(
        "--gpus-per-worker",
        type=float,
        help="GPUs of each final-run worker; above 0 trains on GPUs (default: the sweep's).",
    )
    promote_cmd.add_argument(
        "--precision",
        choices=["fp32", "bf16", "fp16"],
        help="Mixed precision of a bundled trainer's final run (default: the trial's).",
    )
    chosen = promote_cmd.add_mutually_exclusive_group()
    chosen.add_argument(
        "--trials",
        type=trial_number,
        nargs="+",
        metavar="N",
        help="Promote these trials instead of the top-k, by their number in the sweep: the "
        "`trial` column of `raysweep trials` and the web UI's #3 (3 or '#3').",
    )
    chosen.add_argument(
        "--trial-ids",
        type=int,
        nargs="+",
        metavar="ID",
        help="The same by the API's trial ids (the `id` of --output json), as before numbers "
        "were accepted: kept so that scripts that pass ids promote what they did.",
    )
    promote_cmd.add_argument(
        "--pick",
        metavar="OBJECTIVE",
        help="Promote the Pareto front's trials within --max/--min, best first by OBJECTIVE.",
    )
    promote_cmd.add_argument(
        "--max", type=bound, action="append", metavar="METRIC=VALUE", help="With --pick."
    )
    promote_cmd.add_argument(
        "--min", type=bound, action="append", metavar="METRIC=VALUE", help="With --pick."
    )
    add("final-runs", "An experiment's final runs and the model versions they made.")
    cancel_final_cmd = add(
        "cancel-final-run",
        "Cancel a final run (idempotent): a queued one at once, a running one once its job "
        "is stopped.",
        with_id=False,
    )
    cancel_final_cmd.add_argument("final_run_id", type=int, help="Final run id (see final-runs).")
    add(
        "projects",
        "The projects the token has a role in (an admin's: all), each with its weight, quotas, "
        "budgets and what it held this month.",
        with_id=False,
    )
    usage_cmd = add(
        "usage",
        "Compute held (worker-, CPU- and GPU-hours; seconds with --output json) in all and per "
        "project, sweep and UTC day (per trial: --output json); --project narrows it to one "
        "project.",
        with_id=False,
    )
    usage_cmd.add_argument(
        "--from",
        dest="start",
        type=datetime.fromisoformat,
        help="ISO time, UTC unless it names its offset (default: the first of this month).",
    )
    usage_cmd.add_argument(
        "--to", dest="end", type=datetime.fromisoformat, help="ISO time (default: now)."
    )
    models_cmd = add(
        "models",
        "The model registry: ls | versions NAME | show NAME VERSION-OR-ALIAS | "
        "alias NAME ALIAS VERSION (point ALIAS at VERSION) | unalias NAME ALIAS (remove it; "
        "refused while a retrain schedule follows it).",
        with_id=False,
    )
    models_cmd.add_argument("action", choices=("ls", "versions", "show", "alias", "unalias"))
    models_cmd.add_argument("names", nargs="*", help="NAME, then VERSION or ALIAS VERSION.")
    schedules_cmd = add(
        "schedules",
        "Cron schedules that submit sweeps or retrain models: ls | create NAME CRON SPEC-FILE | "
        "create NAME CRON --retrain MODEL | pause ID | resume ID | firings ID | rm ID.",
        with_id=False,
    )
    schedules_cmd.add_argument(
        "action", choices=("ls", "create", "pause", "resume", "firings", "rm")
    )
    schedules_cmd.add_argument("names", nargs="*", help="The action's arguments.")
    schedules_cmd.add_argument("--timezone", help="With create: IANA zone (default UTC).")
    schedules_cmd.add_argument(
        "--overlap", choices=("skip", "queue", "cancel_previous"), help="With create."
    )
    schedules_cmd.add_argument("--misfire", choices=("run_once", "skip"), help="With create.")
    schedules_cmd.add_argument(
        "--retrain",
        metavar="MODEL",
        help="With create, instead of SPEC-FILE: retrain MODEL's production version at each "
        "due time; it replaces production only if it beats it on the held-out test metric.",
    )
    schedules_cmd.add_argument(
        "--margin", type=float, help="With --retrain: how much better it must be (default 0)."
    )
    schedules_cmd.add_argument(
        "--epochs", type=int, help="With --retrain: epochs (default: the champion's)."
    )
    schedules_cmd.add_argument(
        "--retune-samples",
        type=int,
        help="With --retrain: re-tune first with this many trials, warm-started from the "
        "previous sweep's best configs.",
    )
    add_webhooks_command(add)
    add_tensorboard_command(add)
    add_logs_command(add)
    code_cmd = add(
        "code",
        "Upload training code (a directory, .zip or .tar.gz; prints the sha256 a spec's "
        "code.package names) or list the uploaded packages.",
        with_id=False,
    )
    code_cmd.add_argument("action", choices=("upload", "ls"))
    code_cmd.add_argument("path", nargs="?", help="With upload: what to upload.")
    token_cmd = commands.add_parser(
        "token",
        help="The token in the config file.",
        parents=[common],
        description=f"Save, show or clear the token (and URL) in {config_path()}.",
    )
    token_cmd.add_argument("action", choices=("set", "show", "clear"))
    token_cmd.add_argument("value", nargs="?", help="With set: the token.")
    return root


def trial_number(text: str) -> int:
    """A trial's number as read in a table or the web UI: ``3`` or ``#3``."""
    digits = text.removeprefix("#")
    if not (digits.isascii() and digits.isdigit()) or int(digits) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a trial number such as 3 or '#3'")
    return int(digits)


def label_pair(text: str) -> tuple[str, str]:
    key, colon, value = text.partition(":")
    if not colon or not key:
        raise argparse.ArgumentTypeError(f"{text!r} is not key:value")
    return key, value


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
