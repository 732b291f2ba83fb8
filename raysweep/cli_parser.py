"""The ``raysweep`` command line's parser: every command, its arguments and their help
(``raysweep.cli`` runs what it parses)."""

from __future__ import annotations

import argparse
from datetime import datetime
from typing import Any

from raysweep.cli_commands import bound, earlier_value
from raysweep.cli_logs import add_logs_command
from raysweep.cli_tensorboard import add_tensorboard_command
from raysweep.cli_webhooks import add_webhooks_command
from raysweep.config import config_path
from raysweep.lifecycle import ExperimentState, TrialState

TRIAL_SORTS = ("best_metric", "last_metric", "iteration", "created_at")
COLUMNS_HELP = (
    "Comma-separated columns to show (default: the most important that fit the terminal; "
    "the others are named under the table)."
)


def column_list(text: str) -> list[str]:
    return [c.strip() for c in text.split(",") if c.strip()]


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
