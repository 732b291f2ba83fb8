"""What a spec trains, checked against the server's registries: a bundled trainer that reports
every metric the spec judges trials by (and its time attribute), or an uploaded package whose
entrypoint module (and each dataset function's) exists, parses and declares them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import ValidationError

from raysweep.code_ref import CodeRef
from raysweep.errors import Problem
from service.packages import module_problems
from trainers.registry import TrainerInfo

# a stored package's .py files (path -> syntax error or None), or None when there is no such one
PackageLookup = Callable[[str], dict[str, str | None] | None]


def metrics_read(spec_data: dict[str, Any]) -> list[tuple[str, str]]:
    """(path, metric) for every metric the spec judges trials by: ``metric``, each objective's
    and each constraint's."""
    named = [("metric", spec_data.get("metric"))]
    for field in ("objectives", "constraints"):
        items = spec_data.get(field)
        for index, item in enumerate(items if isinstance(items, list) else []):
            if isinstance(item, dict):
                named.append((f"{field}.{index}.metric", item.get("metric")))
    return [(path, metric) for path, metric in named if isinstance(metric, str)]


def trainer_problems(spec_data: dict[str, Any], trainer: TrainerInfo) -> list[Problem]:
    problems = [
        Problem(
            path=path,
            message=(
                f"trainer {trainer.name} does not report {metric!r}; it reports: "
                f"{', '.join(sorted(trainer.metrics))}"
            ),
        )
        for path, metric in metrics_read(spec_data)
        if not trainer.reports(metric)
    ]
    early = spec_data.get("early_stopping")
    time_attr = early.get("time_attr") if isinstance(early, dict) else None
    if isinstance(time_attr, str) and not trainer.reports(time_attr):
        problems.append(
            Problem(
                path="early_stopping.time_attr",
                message=(f"trainer {trainer.name} does not report {time_attr!r}"),
            )
        )
    return problems


def code_problems(spec_data: dict[str, Any], lookup: PackageLookup) -> list[Problem]:
    """The package exists, its entrypoint module exists and parses, and it declares the metric."""
    try:
        code = CodeRef.model_validate(spec_data.get("code"))
    except ValidationError:
        return []  # already reported by parse_spec
    problems = []
    python_files = lookup(code.package)
    if python_files is None:
        problems.append(
            Problem(
                path="code.package",
                message=f"no code package {code.package}; upload it first "
                "(POST /api/v1/code, or `raysweep code upload DIR`)",
            )
        )
    else:
        problems += [
            Problem(path="code.entrypoint", message=message)
            for message in module_problems(code.entrypoint, python_files)
        ]
        problems += [
            Problem(path=f"code.datasets.{name}.function", message=message)
            for name, source in code.datasets.items()
            if source.function is not None
            for message in module_problems(source.function, python_files)
        ]
    declared = ", ".join(sorted(code.metrics))
    problems += [
        Problem(path=path, message=f"code.metrics does not list {metric!r}: {declared}")
        for path, metric in metrics_read(spec_data)
        if metric not in code.metrics
    ]
    early = spec_data.get("early_stopping")
    early = early if isinstance(early, dict) else {}
    # schedulers that resume every trial from its checkpoints: code that saves none cannot run
    needs_checkpoints = {
        "asha_promotion": "asha_promotion pauses every trial at its rung's checkpoint and "
        "resumes it from there: code that saves no checkpoints (code.checkpoints: "
        "false) cannot be promoted; use asha or none",
        "pbt": "pbt copies a trial's checkpoint into another and resumes both from "
        "their checkpoints: code that saves no checkpoints (code.checkpoints: false) "
        "cannot take part; use asha or none",
    }
    refusal = needs_checkpoints.get(str(early.get("scheduler")))
    if code.checkpoints is False and refusal is not None:
        problems.append(Problem(path="early_stopping.scheduler", message=refusal))
    # early stopping judges trials at each value of the time attribute (default `epoch`, the
    # contract in trainers/README.md): code that does not report it would run unjudged
    scheduler = early.get("scheduler", "asha")
    time_attr = early.get("time_attr") or "epoch"
    if scheduler != "none" and isinstance(time_attr, str) and time_attr not in code.metrics:
        problems.append(
            Problem(
                path="early_stopping.time_attr" if early.get("time_attr") else "code.metrics",
                message=f"early_stopping.scheduler {scheduler!r} judges trials at each "
                f"{time_attr!r}, which code.metrics does not list ({declared}): report and "
                "declare it, or set early_stopping.scheduler: none",
            )
        )
    return problems


def no_packages(sha256: str) -> None:
    return None
