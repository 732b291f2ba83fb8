"""``raysweep`` commands beyond one sweep's lifecycle: promotion and final runs, the model
registry, schedules and code packages."""

from __future__ import annotations

import argparse
import json
from typing import Any

from rich.table import Table

from raysweep.cli_output import UsageError, console, dump, final_runs_table
from raysweep.client import Client


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
            ("trial_ids", args.trial_ids),
            ("pick", pick_of(args)),
        )
        if value is not None
    }
    runs = client.experiment(args.id).promote(**overrides)
    if as_json:
        return runs
    console.print(final_runs_table(runs))
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
                str(trial.trial_id),
                *(f"{trial.values[n]:.6g}" for n in names),
                "" if trial.feasible is None else str(trial.feasible).lower(),
                ", ".join(f"{k}={v}" for k, v in trial.config.items()),
            )
    console.print(table)
    return None


def final_runs(client: Client, args: argparse.Namespace, as_json: bool) -> Any:
    runs = client.experiment(args.id).final_runs()
    if as_json:
        return runs
    console.print(final_runs_table(runs))
    return None


def cancel_final_run(client: Client, args: argparse.Namespace, as_json: bool) -> Any:
    run = client.cancel_final_run(args.final_run_id)
    if as_json:
        return run
    console.print(f"final run {run.id} is {run.state.value}")
    return None


def models_command(client: Client, args: argparse.Namespace, as_json: bool) -> Any:
    """ls | versions NAME | show NAME VERSION-OR-ALIAS | alias NAME ALIAS VERSION."""
    needed = {"ls": 0, "versions": 1, "show": 2, "alias": 3}[args.action]
    if len(args.names) != needed:
        raise UsageError(f"models {args.action} takes {needed} argument(s): see --help")
    if args.action == "ls":
        result: Any = client.models()
    elif args.action == "versions":
        result = client.model_versions(args.names[0])
    elif args.action == "show":
        result = client.model_version(args.names[0], args.names[1])
    else:
        result = client.set_alias(args.names[0], args.names[1], int(args.names[2]))
    if as_json:
        return result
    console.print_json(json.dumps(dump(result), default=str))
    return None


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
    console.print_json(json.dumps(dump(result), default=str))
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
    table = Table("sha256", "files", "size", "modules", "uploaded by", "created")
    for package in packages:
        table.add_row(
            package.sha256,
            str(package.files),
            f"{package.size_bytes} B",
            ", ".join(package.modules),
            package.uploaded_by or "",
            f"{package.created_at:%Y-%m-%d %H:%M}",
        )
    console.print(table)
    return None


def shown(result: Any, as_json: bool) -> Any:
    """What ``--output json`` prints; otherwise the same, pretty-printed here."""
    if as_json:
        return result
    console.print_json(json.dumps(dump(result), default=str))
    return None
