"""Population-based training's spec checks: what ``early_stopping.pbt.mutate`` may name, and the
parameters it names when left out (resolved at submit, so the stored spec says them)."""

from __future__ import annotations

from raysweep.errors import Problem
from raysweep.search_space import Choice, IntRange, LogUniform, Parameter, Uniform
from raysweep.spec import ExperimentSpec
from trainers.registry import TrainerInfo

# a population larger than this is a search, not PBT: each exploit step ranks every member, and
# the lineage view draws them all
MAX_POPULATION = 1_000
MUTABLE = Uniform | LogUniform | IntRange | Choice


def default_mutations(space: dict[str, Parameter], trainer: TrainerInfo | None) -> list[str]:
    """Every numeric and choice parameter, except those a bundled trainer's checkpoint state
    depends on (its model's shape, its optimizer's kind)."""
    fixed = trainer.model_keys if trainer is not None else frozenset()
    return [
        name
        for name, parameter in space.items()
        if isinstance(parameter, MUTABLE) and name not in fixed
    ]


def population_problems(
    spec: ExperimentSpec, space: dict[str, Parameter], trainer: TrainerInfo | None
) -> list[Problem]:
    early = spec.early_stopping
    if early.scheduler != "pbt":
        return []
    problems = []
    population = spec.search.num_samples
    if not 2 <= population <= MAX_POPULATION:
        problems.append(
            Problem(
                path="search.num_samples",
                message=f"is the population under pbt: between 2 and {MAX_POPULATION} "
                f"trials (got {population})",
            )
        )
    asked = early.population.mutate
    if asked is None:
        if not default_mutations(space, trainer):
            problems.append(
                Problem(
                    path="early_stopping.pbt.mutate",
                    message="the search space has no parameter pbt may perturb (a numeric or "
                    "choice parameter that is not part of the model's shape); name them here",
                )
            )
        return problems
    for index, name in enumerate(asked):
        path = f"early_stopping.pbt.mutate.{index}"
        parameter = space.get(name)
        if parameter is None:
            problems.append(Problem(path=path, message=f"{name!r} is not a search-space parameter"))
        elif not isinstance(parameter, MUTABLE):
            kind = type(parameter).__name__.lower()
            problems.append(
                Problem(
                    path=path,
                    message=f"{name!r} is a {kind} parameter: pbt perturbs numeric and choice "
                    "parameters only",
                )
            )
        elif trainer is not None and name in trainer.model_keys:
            problems.append(
                Problem(
                    path=path,
                    message=f"{name!r} shapes {trainer.name}'s model or optimizer state: a "
                    "checkpoint copied from a trial with another value would not load",
                )
            )
    if len(set(asked)) != len(asked):
        problems.append(
            Problem(path="early_stopping.pbt.mutate", message="names a parameter twice")
        )
    return problems


def with_mutations(
    spec: ExperimentSpec, space: dict[str, Parameter], trainer: TrainerInfo | None
) -> ExperimentSpec:
    """The spec with ``pbt.mutate`` spelled out (the default list), so what is stored says
    which parameters an exploit perturbs."""
    early = spec.early_stopping
    if early.scheduler != "pbt" or early.population.mutate is not None:
        return spec
    population = early.population.model_copy(update={"mutate": default_mutations(space, trainer)})
    return spec.model_copy(update={"early_stopping": early.model_copy(update={"pbt": population})})
