"""``raysweep`` commands beyond one sweep's lifecycle (promotion and final runs, the model
registry, schedules and code packages), and extending a sweep."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml
from rich.table import Table

from raysweep.cli_output import UsageError, console, key_values, print_final_runs, trial_label
from raysweep.cli_tables import (
    print_alias,
    print_firings,
    print_models,
    print_packages,
    print_schedule,
    print_schedules,
    print_version,
    print_versions,
)
from raysweep.client import Client
from raysweep.experiment import Experiment
from raysweep.spec_reader import read_mapping


def promote(client: Client, args: argparse.Namespace, as_json: bool) -> Any:
    overrides = {
        key: value
        for key, value in (
            ("top_k", args.top_k),
            ("num_workers", args.workers),
            ("epochs", args.epochs),
            ("model_name", args.model_name),
            ("cpus_per_worker", args.cpus_per_worker),
            ("gpus_per_worker", args.gpus_per_worker),
            ("precision", args.precision),
            ("trial_numbers", args.trials),
            ("trial_ids", args.trial_ids),
            ("pick", pick_of(args)),
        )
        if value is not None
    }
    experiment = client.experiment(args.id)
    # the API answers every final run of the sweep: those it had before are not news
    before = {run.id for run in experiment.final_runs()}
    runs = experiment.promote(**overrides)
    if as_json:
        return runs
    print_final_runs(runs)
    added = [run for run in runs if run.id not in before]
    if added:
        console.print(
            f"promoted {len(added)} trial(s): "
            + ", ".join(
                f"{trial_label(r.trial_number, r.trial_id)} as final run {r.id}" for r in added
            )
        )
    else:
        console.print(
            "nothing new promoted: the trials asked for were promoted before (their final "
            "runs are listed above)"
        )
    return None


def bound(text: str) -> tuple[str, float]:
    """``METRIC=VALUE`` from the command line."""
    metric, _, value = text.partition("=")
    try:
        return metric, float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not METRIC=NUMBER") from None


def pick_of(args: argparse.Namespace) -> dict[str, Any] | None:
    if args.pick is None:
        if args.max or args.min:
            raise UsageError("--max and --min bound a --pick; give --pick OBJECTIVE too")
        return None
    return {"objective": args.pick, "max": dict(args.max or []), "min": dict(args.min or [])}


def pareto(client: Client, args: argparse.Namespace, as_json: bool) -> Any:
    found = client.experiment(args.id).pareto(args.limit)
    if as_json:
        return found
    if found.message:
        console.print(found.message)
        return None
    names = [o.metric for o in found.objectives]
    console.print(
        f"Pareto front of {', '.join(f'{o.metric} ({o.mode})' for o in found.objectives)}: "
        f"{len(found.front)} of {found.completed_trials} completed trial(s)"
    )
    table = Table()
    for column in ("trial", *names, "feasible", "config"):
        table.add_column(column)
    for trial in found.trials:
        if trial.on_front:
            table.add_row(
                trial_label(trial.trial_number, trial.trial_id),
                *(f"{trial.values[n]:.6g}" for n in names),
                "" if trial.feasible is None else str(trial.feasible).lower(),
                key_values(trial.config),
            )
    console.print(table)
    return None


def final_runs(client: Client, args: argparse.Namespace, as_json: bool) -> Any:
    runs = client.experiment(args.id).final_runs()
    if as_json:
        return runs
    print_final_runs(runs)
    return None


def cancel_final_run(client: Client, args: argparse.Namespace, as_json: bool) -> Any:
    run = client.cancel_final_run(args.final_run_id)
    if as_json:
        return run
    console.print(f"final run {run.id} is {run.state.value}")
    return None


def models_command(client: Client, args: argparse.Namespace, as_json: bool) -> Any:
    """ls | versions NAME | show NAME VERSION-OR-ALIAS | alias NAME ALIAS VERSION |
    unalias NAME ALIAS."""
    needed = {"ls": 0, "versions": 1, "show": 2, "alias": 3, "unalias": 2}[args.action]
    if len(args.names) != needed:
        raise UsageError(f"models {args.action} takes {needed} argument(s): see --help")
    if args.action == "ls":
        result: Any = client.models()
    elif args.action == "versions":
        result = client.model_versions(args.names[0])
    elif args.action == "show":
        result = client.model_version(args.names[0], args.names[1])
    elif args.action == "alias":
        result = client.set_alias(args.names[0], args.names[1], version_number(args.names[2]))
    else:
        client.delete_alias(args.names[0], args.names[1])
        result = {"name": args.names[0], "alias": args.names[1], "deleted": True}
    if as_json:
        return result
    if args.action == "unalias":
        console.print(f"{args.names[0]}: alias {args.names[1]} removed")
    else:
        MODEL_PRINTERS[args.action](result)
    return None


MODEL_PRINTERS: dict[str, Callable[[Any], None]] = {
    "ls": print_models,
    "versions": print_versions,
    "show": print_version,
    "alias": print_alias,
}


def version_number(text: str) -> int:
    """A model version as typed: a whole number (anything else is a usage error, exit 2)."""
    if not (text.isascii() and text.isdigit()):
        raise UsageError(f"models alias: the version must be a number, not {text!r}")
    return int(text)


def schedules_command(client: Client, args: argparse.Namespace, as_json: bool) -> Any:
    """ls | create NAME CRON SPEC-FILE | create NAME CRON --retrain MODEL | pause ID |
    resume ID | firings ID | rm ID."""
    create_args = 2 if args.retrain else 3
    needed = {"ls": 0, "create": create_args, "pause": 1, "resume": 1, "firings": 1, "rm": 1}
    if len(args.names) != needed[args.action]:
        raise UsageError(
            f"schedules {args.action} takes {needed[args.action]} argument(s): see --help"
        )
    result: Any
    if args.action == "ls":
        result = client.schedules()
    elif args.action == "create":
        options = {"timezone": args.timezone, "overlap": args.overlap, "misfire": args.misfire}
        options = {k: v for k, v in options.items() if v is not None}
        if args.retrain:
            retrain = {"model": args.retrain, "margin": args.margin, "epochs": args.epochs}
            if args.retune_samples:
                retrain["retune"] = {"num_samples": args.retune_samples}
            retrain = {k: v for k, v in retrain.items() if v is not None}
            result = client.create_schedule(*args.names, retrain=retrain, **options)
        else:
            result = client.create_schedule(*args.names, **options)
    elif args.action in ("pause", "resume"):
        result = client.set_schedule_enabled(args.names[0], args.action == "resume")
    elif args.action == "firings":
        result = client.schedule_firings(args.names[0])
    else:
        client.delete_schedule(args.names[0])
        result = {"deleted": args.names[0]}
    if as_json:
        return result
    if args.action == "ls":
        print_schedules(result)
    elif args.action == "firings":
        print_firings(result)
    elif args.action == "rm":
        console.print(f"schedule {args.names[0]} deleted")
    else:
        print_schedule(result, {"create": "created", "pause": "paused"}.get(args.action, "resumed"))
    return None


def code_command(client: Client, args: argparse.Namespace) -> Any:
    """Upload a package (printing its sha256 for the spec) or list the uploaded ones."""
    if args.action == "upload":
        if not args.path:
            raise UsageError("code upload needs a path: a directory, .zip or .tar.gz")
        package = client.upload_code(args.path)
        if args.output == "json":
            return package
        console.print(package.sha256)
        console.print(f"{package.files} files, modules: {', '.join(package.modules)}")
        return None
    packages = client.code_packages()
    if args.output == "json":
        return packages
    print_packages(packages)
    return None


def earlier_value(text: str) -> tuple[str, Any]:
    """``NAME=VALUE`` of ``extend --earlier``: the value read as YAML reads a scalar (``0.9``
    a number, ``adam`` text, ``true`` a boolean)."""
    name, equals, value = text.partition("=")
    if not equals or not name:
        raise argparse.ArgumentTypeError(f"{text!r} is not NAME=VALUE (e.g. momentum=0.9)")
    parsed = yaml.safe_load(value) if value else ""
    if isinstance(parsed, dict | list):
        raise argparse.ArgumentTypeError(f"{text!r}: the value must be one number or word")
    return name, parsed


def extend(client: Client, args: argparse.Namespace) -> Experiment:
    """``extend``: a ``--search-space`` that names a file is read (YAML or JSON, a mapping of
    parameters as a spec's ``search_space``); any other text is a named space on the server."""
    given: str | None = args.search_space
    space = read_mapping(given) if given is not None and Path(given).is_file() else given
    return client.experiment(args.id).extend(
        num_samples=args.samples,
        max_t=args.max_t,
        time_budget_s=args.time_budget,
        search_space=space,
        earlier_values=dict(args.earlier) or None,
    )
