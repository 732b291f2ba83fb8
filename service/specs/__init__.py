"""Server-side spec checks: everything ``raysweep.spec`` cannot know (registries, files).

``check_spec`` returns the spec with its search space resolved inline, so a stored experiment
never depends on a file that may change later; or raises ``InvalidInput`` listing every problem.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

from raysweep.errors import Problem, SpecError
from raysweep.search_space import Choice, Constant, Grid, IntRange, LogUniform, Parameter, Uniform
from raysweep.spec import MAX_GRID_POINTS, ExperimentSpec
from raysweep.spec_reader import parse_search_space, parse_spec, read_mapping
from service.errors import InvalidInput
from service.specs.population import population_problems, with_mutations
from service.specs.training import PackageLookup, code_problems, no_packages, trainer_problems
from trainers.registry import KIT_CHOICES, TRAINERS, TrainerInfo

# a stored experiment's spec, or None when there is no such experiment
ExperimentLookup = Callable[[str], ExperimentSpec | None]


def load_search_space_file(name: str, directory: Path) -> dict[str, Parameter]:
    """A named search space from ``directory``; raises ``SpecError`` with located problems."""
    path = directory / f"{name}.yaml"
    if not path.is_file():
        known = sorted(p.stem for p in directory.glob("*.yaml"))
        raise SpecError(
            [
                Problem(
                    path="search_space",
                    message=f"no search space named {name!r}; known: {', '.join(known) or 'none'}",
                )
            ]
        )
    try:
        data = read_mapping(path)
    except Exception as error:  # a broken file on the server is reported, not a 500
        raise SpecError([Problem(path="search_space", message=f"{path.name}: {error}")]) from None
    return parse_search_space(data, prefix=f"search_space({name}).")


def _kit_choice_problems(space: dict[str, Parameter]) -> list[Problem]:
    """The kit's named options (precision, lr_schedule, lr_scaling) take only known names."""
    problems = []
    for name, allowed in KIT_CHOICES.items():
        parameter = space.get(name)
        if parameter is None:
            continue
        values = (
            [parameter.value]
            if isinstance(parameter, Constant)
            else getattr(parameter, "values", None)
        )
        if values is None:
            problems.append(
                Problem(path=f"search_space.{name}", message="must be a choice, grid or constant")
            )
            continue
        problems += [
            Problem(
                path=f"search_space.{name}",
                message=f"{value!r} is not one of {', '.join(allowed)}",
            )
            for value in values
            if value not in allowed
        ]
    return problems


def _hyperparameter_problems(space: dict[str, Parameter], trainer: TrainerInfo) -> list[Problem]:
    return _kit_choice_problems(space) + [
        Problem(
            path=f"search_space.{name}",
            message=(
                f"trainer {trainer.name} has no hyperparameter {name!r}; it takes: "
                f"{', '.join(sorted(trainer.hyperparameters))} and the kit's keys "
                "(see trainers/README.md)"
            ),
        )
        for name in space
        if not trainer.accepts(name)
    ]


# samplers that model numeric parameters only (choices go to their independent random sampler)
NUMERIC_SAMPLERS = {"cmaes": 2, "qmc": 1}


def _sampler_problems(algorithm: str, space: dict[str, Parameter]) -> list[Problem]:
    """CMA-ES needs two numeric parameters, QMC one; a space without them would be sampled at
    random under the algorithm's name."""
    needed = NUMERIC_SAMPLERS.get(algorithm)
    if needed is None:
        return []
    numeric = [n for n, p in space.items() if isinstance(p, Uniform | LogUniform | IntRange)]
    if len(numeric) >= needed:
        return []
    choices = [n for n, p in space.items() if isinstance(p, Choice)]
    which = f"; {', '.join(choices)} {'is a choice' if len(choices) == 1 else 'are choices'}"
    return [
        Problem(
            path="search.algorithm",
            message=f"{algorithm} needs at least {needed} numeric parameter(s) (uniform, "
            f"loguniform, int) to sample; the space has {len(numeric)}"
            + (which if choices else ""),
        )
    ]


def _space_problems(spec: ExperimentSpec, space: dict[str, Parameter]) -> list[Problem]:
    problems = _sampler_problems(spec.search.algorithm, space)
    if spec.search.algorithm != "grid":
        problems += [
            Problem(
                path=f"search_space.{name}", message="grid parameters need search.algorithm: grid"
            )
            for name, parameter in space.items()
            if isinstance(parameter, Grid)
        ]
    points = math.prod(len(p.values) for p in space.values() if isinstance(p, Grid))
    if points * spec.search.num_samples > MAX_GRID_POINTS:
        problems.append(
            Problem(
                path="search_space",
                message=f"the grid has {points:,} points x num_samples "
                f"{spec.search.num_samples}: at most {MAX_GRID_POINTS:,} trials",
            )
        )
    for index, point in enumerate(spec.search.points_to_evaluate):
        problems += [
            Problem(
                path=f"search.points_to_evaluate.{index}.{key}",
                message="not a parameter of the search space",
            )
            for key in point
            if key not in space
        ]
    return problems


def no_experiments(experiment_id: str) -> None:
    return None


def parameter_kinds(space: dict[str, Parameter]) -> dict[str, str]:
    """The sampled parameters and the kind of value each takes, as Optuna tells them apart."""
    kinds = {}
    for name, parameter in space.items():
        if isinstance(parameter, Uniform | LogUniform):
            kinds[name] = "float"
        elif isinstance(parameter, IntRange):
            kinds[name] = "int"
        elif isinstance(parameter, Choice | Grid):
            kinds[name] = "choice"
    return kinds


def has_searcher(spec: ExperimentSpec, space: dict[str, Parameter]) -> bool:
    """Whether an Optuna searcher runs the sweep: not for a grid or a fixed config."""
    return spec.search.algorithm != "grid" and bool(parameter_kinds(space))


def _converged_problems(spec: ExperimentSpec, space: dict[str, Parameter]) -> list[Problem]:
    if spec.stop.converged is None:
        return []
    if not has_searcher(spec, space):
        return [
            Problem(
                path="stop.converged",
                message="a grid, or a space with nothing sampled, has no search to converge",
            )
        ]
    if spec.stop.converged.min_trials > spec.search.num_samples:
        return [
            Problem(
                path="stop.converged.min_trials",
                message=f"must be <= search.num_samples ({spec.search.num_samples}): the "
                "terminator would never be asked",
            )
        ]
    return []


def objectives_text(spec: ExperimentSpec) -> str:
    return ", ".join(f"{o.metric} ({o.mode})" for o in spec.all_objectives)


def _objectives_problems(spec: ExperimentSpec) -> list[Problem]:
    """What a multi-objective sweep cannot have (yet)."""
    if not spec.multi_objective:
        return []
    refused = [
        ("search.algorithm", spec.search.algorithm == "cmaes", "cmaes optimises one objective"),
        (
            "stop.converged",
            spec.stop.converged is not None,
            "Optuna's terminator judges one objective",
        ),
        (
            "search.warm_start_from",
            bool(spec.search.warm_start_from),
            "warm starts tell the searcher one value per trial",
        ),
    ]
    return [
        Problem(path=path, message=f"not with objectives: {why}; use metric and mode")
        for path, applies, why in refused
        if applies
    ]


def _warm_start_problems(
    spec: ExperimentSpec, space: dict[str, Parameter], experiments: ExperimentLookup
) -> list[Problem]:
    """Each sweep to warm-start from exists, is judged by the same metric and mode, and samples
    the same parameters with values of the same kinds."""
    ours = parameter_kinds(space)
    if spec.search.warm_start_from and not has_searcher(spec, space):
        return [
            Problem(
                path="search.warm_start_from",
                message="a grid, or a space with nothing sampled, has no searcher to warm-start",
            )
        ]
    problems = []
    for index, source_id in enumerate(spec.search.warm_start_from):
        path = f"search.warm_start_from.{index}"
        source = experiments(source_id)
        if source is None:
            problems.append(Problem(path=path, message=f"no experiment {source_id!r}"))
            continue
        if source.all_objectives != spec.all_objectives:
            problems.append(
                Problem(
                    path=path,
                    message=f"experiment {source_id} optimises {objectives_text(source)}; "
                    f"this sweep {objectives_text(spec)}",
                )
            )
        theirs = (
            parameter_kinds(source.search_space) if isinstance(source.search_space, dict) else {}
        )
        mismatches = [
            f"{name}: {theirs.get(name, 'not sampled')} there, {ours.get(name, 'not sampled')} here"
            for name in sorted(ours.keys() | theirs.keys())
            if ours.get(name) != theirs.get(name)
        ]
        if mismatches:
            problems.append(
                Problem(
                    path=path,
                    message=f"experiment {source_id} samples other parameters: "
                    + "; ".join(mismatches),
                )
            )
    return problems


def check_spec(
    data: Any,
    search_spaces_dir: Path,
    packages: PackageLookup = no_packages,
    final_clusters: list[str] | None = None,
    experiments: ExperimentLookup = no_experiments,
) -> ExperimentSpec:
    problems: list[Problem] = []
    spec: ExperimentSpec | None = None
    try:
        spec = parse_spec(data)
    except SpecError as error:
        problems += error.problems
    spec_data = data if isinstance(data, dict) else {}

    trainer_name = spec_data.get("trainer")
    trainer = TRAINERS.get(trainer_name) if isinstance(trainer_name, str) else None
    if isinstance(trainer_name, str) and trainer is None:
        problems.append(
            Problem(
                path="trainer",
                message=(f"unknown trainer {trainer_name!r}; known: {', '.join(sorted(TRAINERS))}"),
            )
        )
    if trainer is not None:
        problems += trainer_problems(spec_data, trainer)
    if spec_data.get("code") is not None:
        problems += code_problems(spec_data, packages)

    space: dict[str, Parameter] | None = None
    raw_space = spec_data.get("search_space")
    if isinstance(raw_space, str) and not any(p.path == "search_space" for p in problems):
        try:
            space = load_search_space_file(raw_space, search_spaces_dir)
        except SpecError as error:
            problems += error.problems
    elif spec is not None and not isinstance(spec.search_space, str):
        space = spec.search_space
    if space is not None and trainer is not None:
        problems += _hyperparameter_problems(space, trainer)
    if spec is not None and space is not None:
        problems += _space_problems(spec, space)
        problems += _warm_start_problems(spec, space, experiments)
        problems += _converged_problems(spec, space)
        problems += _objectives_problems(spec)
        problems += population_problems(spec, space, trainer)

    cluster = spec.promotion.cluster if spec is not None else None
    if cluster is not None and final_clusters is not None and cluster not in final_clusters:
        problems.append(
            Problem(
                path="promotion.cluster",
                message=f"no final cluster named {cluster!r}; final clusters: "
                f"{', '.join(final_clusters)}",
            )
        )
    if problems or spec is None or space is None:
        raise InvalidInput(f"the experiment spec has {len(problems)} problem(s)", problems)
    return with_mutations(spec.model_copy(update={"search_space": space}), space, trainer)
