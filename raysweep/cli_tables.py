"""What ``raysweep`` prints for the registry, schedules, projects, compute usage and code
packages in table mode (``--output json`` prints the API's answers instead): tables that fit the
terminal, local or relative times, compute in hours, configs as key=value."""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from typing import Any

from raysweep.cli_output import (
    console,
    fitted_table,
    hours,
    key_values,
    local,
    print_fitted,
    stamp,
    trial_label,
    when,
)
from raysweep.client import Client
from raysweep.code_ref import CodePackageRead
from raysweep.projects import ProjectRead, Usage, UsageRead
from raysweep.registry import AliasRead, ModelRead, ModelVersionRead
from raysweep.schedules import ScheduleFiringRead, ScheduleRead

SWEEPS_SHOWN = 20  # usage by sweep: the largest, the rest summed in one line


# --- the model registry --------------------------------------------------------------------------


def print_models(models: Sequence[ModelRead]) -> None:
    if not models:
        console.print("no models yet: a promoted sweep's final runs register them")
        return
    rows = [
        [
            m.name,
            str(m.latest_version),
            str(m.versions),
            ", ".join(f"{alias}→v{version}" for alias, version in sorted(m.aliases.items())) or "-",
        ]
        for m in models
    ]
    headers = ["model", "latest", "versions", "aliases"]
    print_fitted(*fitted_table(headers, rows, headers))


def print_versions(versions: Sequence[ModelVersionRead]) -> None:
    headers = ["version", "aliases", "sweep", "trial", "test", "created"]
    rows = [
        [
            f"v{v.version}",
            ", ".join(v.aliases) or "-",
            v.experiment_id,
            trial_label(v.trial_number, v.trial_id),
            key_values(v.test_metrics) if v.test_metrics else "-",
            when(v.created_at),
        ]
        for v in versions
    ]
    priority = ["version", "aliases", "trial", "test", "sweep", "created"]
    print_fitted(*fitted_table(headers, rows, priority))


def print_version(v: ModelVersionRead) -> None:
    """One version's lineage: the sweep and trial (by number) it came from, what it learned."""
    aliases = f"  aliases: {', '.join(v.aliases)}" if v.aliases else ""
    console.print(f"{v.name} v{v.version}{aliases}", style="bold")
    console.print(
        f"from sweep {v.experiment_id} trial {trial_label(v.trial_number, v.trial_id)} "
        f"(final run {v.final_run_id}), trainer {v.trainer}"
    )
    console.print(f"created {stamp(v.created_at)}")
    console.print(f"config: {key_values(v.config)}")
    console.print(f"metrics: {key_values(v.metrics)}")
    console.print(f"test: {key_values(v.test_metrics)}")
    if v.comparison:
        console.print(f"comparison: {key_values(v.comparison)}")
    console.print(f"checkpoint: {v.checkpoint_uri}")
    console.print(f"code: {key_values(v.code_version)}")
    if v.data_fingerprint:
        console.print(f"data sha256: {v.data_fingerprint}")


def print_alias(moved: AliasRead) -> None:
    previous = moved.history[0].get("previous_version") if moved.history else None
    was = "" if previous is None else f" (was v{previous})"
    if previous == moved.version:
        was = " (it did already: nothing changed)"
    console.print(f"{moved.name}: alias {moved.alias} → v{moved.version}{was}")


# --- schedules -----------------------------------------------------------------------------------


def cron_text(schedule: ScheduleRead) -> str:
    return f"{schedule.cron} {schedule.timezone}"


def print_schedules(schedules: Sequence[ScheduleRead]) -> None:
    if not schedules:
        console.print("no schedules")
        return
    headers = ["name", "id", "kind", "cron", "state", "next run", "last firing"]
    rows = [
        [
            s.name,
            s.id,
            s.kind.value + (f" {s.retrain.model}" if s.retrain else ""),
            cron_text(s),
            "on" if s.enabled else "paused",
            when(s.next_run_at),
            f"{s.last_firing.outcome.value} {when(s.last_firing.fired_at)}"
            if s.last_firing
            else "-",
        ]
        for s in schedules
    ]
    priority = ["name", "id", "next run", "state", "cron", "kind", "last firing"]
    print_fitted(*fitted_table(headers, rows, priority))


def print_schedule(schedule: ScheduleRead, did: str) -> None:
    """One line on what a create, pause or resume left: when it runs next."""
    following = f" (retrains {schedule.retrain.model})" if schedule.retrain else ""
    next_run = (
        f"next run {local(schedule.next_run_at)} ({when(schedule.next_run_at)})"
        if schedule.next_run_at
        else "no next run while paused"
    )
    console.print(
        f"schedule {schedule.name} ({schedule.id}) {did}{following}: {cron_text(schedule)}, "
        f"{next_run}"
    )


def print_firings(firings: Sequence[ScheduleFiringRead]) -> None:
    if not firings:
        console.print("no firings yet")
        return
    headers = ["due", "fired", "outcome", "sweep", "final run", "message"]
    rows = [
        [
            local(f.scheduled_for),
            when(f.fired_at),
            f.outcome.value,
            f.experiment_id or "-",
            "-" if f.final_run_id is None else str(f.final_run_id),
            f.message,
        ]
        for f in firings
    ]
    priority = ["due", "outcome", "sweep", "final run", "fired", "message"]
    print_fitted(*fitted_table(headers, rows, priority))


# --- projects and compute ------------------------------------------------------------------------


def limits_text(project: ProjectRead) -> str:
    limits = [
        f"{what} {value:g}"
        for what, value in (
            ("workers", project.max_workers),
            ("CPUs", project.max_cpus),
            ("GPUs", project.max_gpus),
            ("queued", project.max_queued),
        )
        if value is not None
    ]
    return ", ".join(limits) or "none"


def budgets_text(project: ProjectRead) -> str:
    budgets = [
        f"{value:g} {what}-h"
        for what, value in (
            ("worker", project.monthly_worker_hours),
            ("GPU", project.monthly_gpu_hours),
        )
        if value is not None
    ]
    return ", ".join(budgets) or "none"


def projects_command(client: Client, as_json: bool) -> Any:
    projects = client.projects()
    if as_json:
        return projects
    headers = ["project", "weight", "at once", "monthly budget", "this month"]
    rows = [
        [
            p.name,
            f"{p.weight:g}",
            limits_text(p),
            budgets_text(p),
            f"{hours(p.usage_this_month.worker_seconds)} worker-h, "
            f"{hours(p.usage_this_month.gpu_seconds)} GPU-h",
        ]
        for p in projects
    ]
    print_fitted(*fitted_table(headers, rows, ["project", "this month", "weight"]))
    return None


def usage_rows(usage: Mapping[str, Usage], largest_first: bool) -> list[list[str]]:
    items = list(usage.items())
    if largest_first:
        items.sort(key=lambda item: -item[1].worker_seconds)
    rows = [
        [key, hours(u.worker_seconds), hours(u.cpu_seconds), hours(u.gpu_seconds)]
        for key, u in items[:SWEEPS_SHOWN]
    ]
    rest = [u for _, u in items[SWEEPS_SHOWN:]]
    if rest:
        rows.append(
            [
                f"{len(rest)} more",
                *(hours(sum(getattr(u, f) for u in rest)) for f in Usage.model_fields),
            ]
        )
    return rows


def usage_command(client: Client, args: argparse.Namespace, as_json: bool) -> Any:
    usage: UsageRead = client.usage(args.start, args.end)
    if as_json:
        return usage
    total = usage.total
    console.print(f"compute held from {local(usage.start)} to {local(usage.end)} (local time)")
    console.print(
        f"total: {hours(total.worker_seconds)} worker-hours, {hours(total.cpu_seconds)} "
        f"CPU-hours, {hours(total.gpu_seconds)} GPU-hours"
    )
    for title, by, largest_first in (
        ("project", usage.by_project, False),
        ("sweep", usage.by_experiment, True),
        ("UTC day", usage.by_day, False),
    ):
        if by:
            headers = [title, "worker-h", "CPU-h", "GPU-h"]
            print_fitted(*fitted_table(headers, usage_rows(by, largest_first), headers))
    if usage.by_trial:
        console.print(f"per trial ({len(usage.by_trial)}): see --output json")
    return None


# --- code packages -------------------------------------------------------------------------------


def print_packages(packages: Sequence[CodePackageRead]) -> None:
    """Each package's whole sha256 on a line of its own (the value a spec's code.package
    takes, never cut to fit), its files and modules under it."""
    if not packages:
        console.print("no code packages uploaded (see `raysweep code upload --help`)")
    for package in packages:
        console.print(package.sha256)
        by = f" by {package.uploaded_by}" if package.uploaded_by else ""
        console.print(
            f"  {package.files} file{'s' * (package.files != 1)}, "
            f"{package.size_bytes / 1024:.1f} KiB, uploaded{by} "
            f"{when(package.created_at)}; modules: {', '.join(package.modules)}"
        )
