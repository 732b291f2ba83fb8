"""The experiment spec: one definition used by the API, the SDK, the CLI and the driver.

Example::

    from raysweep import load_spec           # raysweep.spec_reader reads files and mappings
    spec = load_spec("digits.yaml")          # or ExperimentSpec.model_validate({...})
    print(spec.search.algorithm)             # "tpe"

Its ``code`` and ``promotion`` blocks are defined in raysweep.code_ref and raysweep.promotion_spec,
the name patterns in raysweep.names. Structural checks live here; checks that need the server's
registries (does the trainer exist, does it report the metric, does the search-space file exist)
are made by the server, which reports them in the same problem list.
"""

from __future__ import annotations

import math
from typing import Annotated, Literal

from pydantic import (
    Field,
    StrictFloat,
    StrictInt,
    model_validator,
)

from raysweep.code_ref import CodeRef
from raysweep.compute import Resources
from raysweep.errors import Problem
from raysweep.mode import ModeName
from raysweep.names import DEFAULT_PROJECT, LABEL_KEY_PATTERN, NAME_PATTERN, PROJECT_PATTERN
from raysweep.population_spec import PopulationConfig
from raysweep.promotion_spec import Promotion
from raysweep.search_space import (
    Scalar,
    SearchSpaceRef,
)
from raysweep.strict import StrictModel

EXPERIMENT_ID_PATTERN = r"^[0-9a-f]{12}$"
# what one spec may ask of the searcher and the store: a bound on each (a 422 past it)
MAX_POINTS_TO_EVALUATE = 1_000
MAX_GRID_POINTS = 100_000


class SearchConfig(StrictModel):
    algorithm: Literal["tpe", "random", "grid", "gp", "cmaes", "qmc"] = Field(
        default="tpe",
        description="Optuna's samplers, each seeded by `seed`: `tpe` (the default), `random`, "
        "`gp` (Gaussian process, for small budgets: random for the first third of "
        "num_samples, at most 10, then modelled), `cmaes` "
        "(CMA-ES: two or more numeric parameters; choices are sampled at random beside it), "
        "`qmc` (Sobol quasi-random, scrambled); `grid` is Tune's grid over `grid` parameters.",
    )
    num_samples: StrictInt = Field(default=8, ge=1, le=100_000)
    max_concurrent_trials: StrictInt = Field(default=2, ge=1, le=1_000)
    seed: StrictInt | None = Field(default=None, ge=0, le=2**32 - 1)  # NumPy's seed range
    points_to_evaluate: list[dict[str, Scalar]] = Field(
        default_factory=list,
        max_length=MAX_POINTS_TO_EVALUATE,
        description="Configurations tried first, each a mapping of parameter to value.",
    )
    warm_start_from: list[Annotated[str, Field(pattern=EXPERIMENT_ID_PATTERN)]] = Field(
        default_factory=list,
        max_length=20,
        description="Experiments whose finished trials the searcher is told before it "
        "suggests anything: they must sample the same parameters (names and types) for the "
        "same metric and mode; their configurations outside this space are left out.",
    )


class EarlyStopping(StrictModel):
    objective: str | None = Field(
        default=None,
        min_length=1,
        max_length=128,
        description="With `objectives`: the one ASHA judges trials by (and stop.target, "
        "best_metric, importance and retention read); default the first. Without: the metric.",
    )
    scheduler: Literal["asha", "asha_promotion", "pbt", "none"] = Field(
        default="asha",
        description="`asha` stops a trial below its rung's cutoff; `asha_promotion` pauses "
        "every trial at each rung (its checkpoint kept, its trial slot freed) and promotes the "
        "best paused ones, the top 1/reduction_factor of a rung, when a trial slot frees; "
        "`pbt` is population-based training (the `pbt` block; num_samples is the population): "
        "every trial trains to max_t, and every perturbation_interval epochs the bottom "
        "quantile continues from a copy of a top trial's checkpoint with a perturbed config; "
        "`none` runs every trial to max_t.",
    )
    time_attr: str | None = Field(
        default=None, description="Progress measure; defaults to the trainer's (usually epoch)."
    )
    max_t: StrictInt = Field(default=10, ge=1, le=100_000, description="Budget of every trial.")
    grace_period: StrictInt = Field(default=1, ge=1, le=100_000)
    reduction_factor: StrictFloat = Field(default=2, gt=1, le=100)
    brackets: StrictInt = Field(default=1, ge=1, le=10)
    pbt: PopulationConfig | None = Field(
        default=None,
        description="Population-based training's settings, with `scheduler: pbt` only "
        "(defaults when left out).",
    )

    @model_validator(mode="after")
    def _grace_within_budget(self) -> EarlyStopping:
        if self.grace_period > self.max_t:
            raise ValueError("grace_period must be <= max_t")
        if self.pbt is not None and self.scheduler != "pbt":
            raise ValueError("pbt: applies to scheduler pbt only")
        interval = self.population.perturbation_interval
        if self.scheduler == "pbt" and interval >= self.max_t:
            raise ValueError(
                f"pbt.perturbation_interval ({interval}) must be < max_t ({self.max_t}): "
                "no trial would ever exploit another"
            )
        return self

    @property
    def segmented(self) -> bool:
        """Whether trials train in segments, pausing between them with a checkpoint (promotion
        ASHA's rungs, PBT's exploit steps): the scheduler then bounds how many train at once."""
        return self.scheduler in ("asha_promotion", "pbt")

    @property
    def population(self) -> PopulationConfig:
        """The PBT settings in force (the defaults when the spec gives none)."""
        return self.pbt or PopulationConfig()


class FaultTolerance(StrictModel):
    max_failures: StrictInt = Field(
        default=2,
        ge=0,
        le=1000,
        description="Restarts (from the latest checkpoint) a trial may use before it fails: "
        "of its worker group, and as many of the trial itself when its own process is lost "
        "with its node.",
    )
    checkpoint_frequency: StrictInt = Field(
        default=1, ge=1, le=100_000, description="Checkpoint every N epochs."
    )
    checkpoints_to_keep: StrictInt = Field(
        default=2,
        ge=1,
        le=1000,
        description="Latest checkpoints kept per finished trial, besides its best one.",
    )
    fail_fast_after: StrictInt = Field(
        default=3,
        ge=0,
        le=1000,
        description="Stop the sweep, failed with that error, once N trials have failed with the "
        "same error (exception type and message, numbers aside) while none ended otherwise: "
        "a bug every trial hits is reported once, not run into by every trial. 0: never.",
    )


class ResultRetention(StrictModel):
    """Which reported results a trial keeps in the store: a sweep of very long trials need not
    keep every step. Whatever the policy, a trial keeps its results at the rungs (the
    early-stopping milestones, max_t included), and its progress (iteration, last and best
    values) counts every result."""

    keep: Literal["all", "every_n", "last_k_per_trial"] = Field(
        default="all",
        description="`all`; `every_n`: results at iterations that are multiples of `n`, and "
        "each that improved the trial's best when it came; `last_k_per_trial`: a trial's "
        "latest `k` results and its best.",
    )
    n: StrictInt = Field(default=10, ge=1, le=100_000, description="For `every_n`.")
    k: StrictInt = Field(default=100, ge=1, le=100_000, description="For `last_k_per_trial`.")


class Converged(StrictModel):
    """Ending a sweep once more trials are unlikely to help, by Optuna's terminator."""

    min_trials: StrictInt = Field(
        default=20,
        ge=4,
        le=100_000,
        description="Completed trials before the terminator is asked; the regret bounds of "
        "the second half of them set the threshold.",
    )
    threshold_ratio: StrictFloat = Field(
        default=0.01,
        gt=0,
        le=10**6,
        description="The threshold as a share of the median early regret bound (Optuna's "
        "default 0.01); larger stops sooner.",
    )


class Objective(StrictModel):
    """One metric a sweep optimises, in its direction."""

    metric: str = Field(min_length=1, max_length=128)
    mode: ModeName


class Constraint(StrictModel):
    """A bound a trial's final result must keep to be feasible; infeasible trials are marked,
    never best and never promoted, and the samplers that can (tpe, gp) learn to avoid them."""

    metric: str = Field(min_length=1, max_length=128)
    max: StrictFloat | StrictInt | None = None
    min: StrictFloat | StrictInt | None = None

    @model_validator(mode="after")
    def _a_bound(self) -> Constraint:
        if self.max is None and self.min is None:
            raise ValueError("give max, min or both")
        if self.max is not None and self.min is not None and self.min > self.max:
            raise ValueError("min must be <= max")
        return self

    def violation(self, value: float | None) -> float:
        """How far ``value`` is outside the bounds (Optuna's convention: > 0 is infeasible);
        a missing or non-finite value violates it."""
        if value is None or not math.isfinite(value):
            return math.inf
        over = value - self.max if self.max is not None else -math.inf
        under = self.min - value if self.min is not None else -math.inf
        return float(max(over, under))


class ComputeBudget(StrictModel):
    """Compute a sweep may spend, as the ledger counts it (what its worker groups held, restarts
    included); the sweep ends when either is spent."""

    gpu_hours: StrictFloat | StrictInt | None = Field(default=None, gt=0, le=10**7)
    worker_hours: StrictFloat | StrictInt | None = Field(default=None, gt=0, le=10**7)

    @model_validator(mode="after")
    def _some_limit(self) -> ComputeBudget:
        if self.gpu_hours is None and self.worker_hours is None:
            raise ValueError("name gpu_hours or worker_hours (or both)")
        return self


class StopConfig(StrictModel):
    time_budget_s: StrictFloat | None = Field(default=None, gt=0, le=10**8)
    budget: ComputeBudget | None = Field(
        default=None,
        description="End the sweep once its trials have held this much compute (checked "
        "every few seconds while it runs; trials still running are cancelled and a "
        "`budget_spent` event says what was spent).",
    )
    target: StrictFloat | None = Field(
        default=None, description="A trial reaching this metric value ends the sweep."
    )
    converged: Converged | None = Field(
        default=None,
        description="End the sweep when Optuna's terminator judges it converged: the regret "
        "bound (a Gaussian process's bound on how much better than the best completed trial "
        "the space could still do) falls below threshold_ratio (1%) of its median over the "
        "trials after the first min_trials/2. Asked at most every 2 s; trials still running "
        "are cancelled and an event says why the sweep ended. Not with a grid; an extension "
        "of the sweep drops it.",
    )


def objective_problems(
    metric: object, mode: object, objectives: list[str] | None, chosen: object
) -> list[Problem]:
    """Exactly one way to say what is optimised (``metric`` and ``mode``, or ``objectives``,
    each a distinct metric), and ``early_stopping.objective`` one of them."""
    if objectives is not None and (metric is not None or mode is not None):
        message = "give either metric and mode or objectives, not both"
        return [Problem(path="objectives", message=message)]
    if objectives is None and (metric is None or mode is None):
        message = "is required, or give objectives instead of metric and mode"
        return [
            Problem(path=path, message=message)
            for path, value in (("metric", metric), ("mode", mode))
            if value is None
        ]
    problems = []
    names = objectives if objectives is not None else [str(metric)]
    if len(set(names)) != len(names):
        problems.append(Problem(path="objectives", message="must name distinct metrics"))
    if chosen is not None and chosen not in names:
        message = f"{chosen!r} is not one of the objectives ({', '.join(names)})"
        problems.append(Problem(path="early_stopping.objective", message=message))
    return problems


def training_source_problem(has_trainer: bool, has_code: bool) -> str | None:
    if has_trainer and has_code:
        return "give either trainer (a bundled trainer) or code (an uploaded package), not both"
    if not has_trainer and not has_code:
        return "is required, or give code (an uploaded package) instead"
    return None


class ExperimentSpec(StrictModel):
    """A sweep: what to train, over which space, judged by which metric, within which budget.
    Exactly one of ``trainer`` (a bundled trainer) and ``code`` (an uploaded package) names what
    to train.

    Example::

        ExperimentSpec(name="digits", trainer="digits_mlp", search_space="digits_mlp",
                       metric="val_accuracy", mode="max")
    """

    name: str = Field(pattern=NAME_PATTERN)
    project: str = Field(
        default=DEFAULT_PROJECT,
        pattern=PROJECT_PATTERN,
        description="The project the sweep belongs to: who may see it, whose quota and "
        "budget it counts against. Submitted without one, a sweep goes to the token's project "
        "when the token has a role in one project only, else to `default`.",
    )
    priority: Literal["high", "normal", "low"] = Field(
        default="normal",
        description="Among its project's waiting trials, a higher priority's start first.",
    )
    trainer: str | None = Field(default=None, pattern=NAME_PATTERN)
    code: CodeRef | None = None
    search_space: SearchSpaceRef
    metric: str | None = Field(
        default=None, min_length=1, max_length=128, description="The metric optimised."
    )
    mode: ModeName | None = None
    objectives: list[Objective] | None = Field(
        default=None,
        min_length=2,
        max_length=4,
        description="Multi-objective search instead of metric/mode: Optuna's sampler looks for "
        "the Pareto front (GET /experiments/{id}/pareto); ASHA and best_metric use the "
        "objective early_stopping.objective names (default the first).",
    )
    constraints: list[Constraint] = Field(default_factory=list, max_length=8)
    description: str = Field(default="", max_length=10_000)
    search: SearchConfig = Field(default_factory=SearchConfig)
    early_stopping: EarlyStopping = Field(default_factory=EarlyStopping)
    resources: Resources = Field(default_factory=Resources)
    fault_tolerance: FaultTolerance = Field(default_factory=FaultTolerance)
    results: ResultRetention = Field(default_factory=ResultRetention)
    stop: StopConfig = Field(default_factory=StopConfig)
    promotion: Promotion = Field(default_factory=Promotion)
    labels: dict[
        Annotated[str, Field(pattern=LABEL_KEY_PATTERN)],
        # no NUL: PostgreSQL cannot store it, and a value must read the same on both backends
        Annotated[str, Field(max_length=256, pattern=r"^[^\x00]*$")],
    ] = Field(default_factory=dict, max_length=64)

    @model_validator(mode="after")
    def _one_source_of_code(self) -> ExperimentSpec:
        message = training_source_problem(self.trainer is not None, self.code is not None)
        if message:
            raise ValueError(message)
        return self

    @model_validator(mode="after")
    def _one_form_of_objective(self) -> ExperimentSpec:
        names = None if self.objectives is None else [o.metric for o in self.objectives]
        problems = objective_problems(self.metric, self.mode, names, self.early_stopping.objective)
        if problems:
            raise ValueError(f"{problems[0].path}: {problems[0].message}")
        return self

    @property
    def all_objectives(self) -> list[Objective]:
        """Every objective: ``objectives``, or the one ``metric``/``mode`` names."""
        if self.objectives:
            return list(self.objectives)
        return [Objective(metric=str(self.metric), mode=self.mode or "max")]

    @property
    def primary(self) -> Objective:
        """The scalar objective: the one ASHA, stop.target, best_metric, importance and
        checkpoint retention use."""
        chosen = self.early_stopping.objective
        objectives = self.all_objectives
        return next((o for o in objectives if o.metric == chosen), objectives[0])

    @property
    def multi_objective(self) -> bool:
        return bool(self.objectives)

    @property
    def trainer_label(self) -> str:
        """What trains: the bundled trainer's name, or ``code:<package hash prefix>``."""
        if self.code is not None:
            return f"code:{self.code.package[:12]}"
        return str(self.trainer)
