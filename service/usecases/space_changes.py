"""Changing a sweep's search space on extension: the new space from the request, each trial's
value for an added parameter, the space versions stored on the sweep and their one-line text."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from raysweep.errors import Problem
from raysweep.schemas import ExtendRequest, SpaceVersion
from raysweep.search_space import Constant, LogUniform, Parameter, Uniform
from raysweep.spec import ExperimentSpec
from service.errors import InvalidInput


def new_space(
    spec: ExperimentSpec,
    request: ExtendRequest,
    data: dict[str, Any],
    check: SpecCheck,
    extensions: int,
    versions: int,
) -> Extended:
    """The extended spec with the request's search space, checked as a submitted spec is
    (every problem at its path, the request's names: ``search_space.lr``), and the version it
    adds; the points to evaluate were run by the first run and are dropped (they may not lie in
    the new space)."""
    old = spec.search_space if isinstance(spec.search_space, dict) else {}
    data["search_space"] = request.search_space
    data["search"]["points_to_evaluate"] = []
    checked = check(data)
    space = checked.search_space if isinstance(checked.search_space, dict) else {}
    added = [name for name in space if name not in old]
    sampled_added = [name for name in added if not isinstance(space[name], Constant)]
    problems = [
        Problem(
            path=f"earlier_values.{name}",
            message=f"the new space adds {name}: give the value the earlier trials had "
            "(they ran without it)",
        )
        for name in sampled_added
        if name not in request.earlier_values
    ] + [
        Problem(
            path=f"earlier_values.{name}",
            message=f"{name} is not a sampled parameter the new space adds",
        )
        for name in request.earlier_values
        if name not in sampled_added
    ]
    if problems:
        raise InvalidInput("the extension is not valid", problems)
    changed = [
        name for name in space if name in old and space[name].model_dump() != old[name].model_dump()
    ]
    removed = [name for name in old if name not in space]
    if not (added or removed or changed):  # the same space: no new version, its points kept
        points = {"points_to_evaluate": spec.search.points_to_evaluate}
        return Extended(
            checked.model_copy(update={"search": checked.search.model_copy(update=points)})
        )
    version = SpaceVersion(
        version=versions + 1,
        extension=extensions + 1,
        search_space={name: p.model_dump(mode="json") for name, p in space.items()},
        added={
            name: as_parameter_value(space[name], request.earlier_values.get(name))
            for name in sampled_added
        },
        removed=removed,
        changed=changed,
    )
    return Extended(checked, version)


def as_parameter_value(parameter: Parameter, value: Any) -> Any:
    """An earlier value as the parameter's own trials hold it: a float parameter's ``0`` is
    ``0.0`` (JSON from a browser has no ``0.0``)."""
    real = isinstance(parameter, Uniform | LogUniform)
    if real and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    return value


def space_versions(spec: ExperimentSpec, stored: list[dict[str, Any]] | None) -> list[SpaceVersion]:
    """The sweep's space versions so far: the stored ones, or its first (the spec's)."""
    if stored:
        return [SpaceVersion.model_validate(v) for v in stored]
    space = spec.search_space if isinstance(spec.search_space, dict) else {}
    first = {name: p.model_dump(mode="json") for name, p in space.items()}
    return [SpaceVersion(version=1, extension=0, search_space=first)]


def space_change_text(version: SpaceVersion) -> str:
    """``search space v2: lr changed, momentum added (earlier 0.9), dropout removed``."""
    parts = [f"{name} changed" for name in version.changed]
    parts += [f"{name} added (earlier {value!r})" for name, value in version.added.items()]
    parts += [f"{name} removed" for name in version.removed]
    return f"search space v{version.version}: {', '.join(parts)}"


@dataclass(frozen=True)
class Extended:
    """An extension's spec, and the search-space version it adds (None: the space is kept)."""

    spec: ExperimentSpec
    space: SpaceVersion | None = None


# the whole check a submitted spec passes (``specs.check_spec``, with the sweep's project's
# packages and sweeps), for a spec whose search space an extension changes
SpecCheck = Callable[[dict[str, Any]], ExperimentSpec]
