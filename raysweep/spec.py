"""The experiment spec: one definition used by the API, the SDK, the CLI and the driver.

Example::

    from raysweep.spec import load_spec
    spec = load_spec("digits.yaml")        # or ExperimentSpec.model_validate({...})
    print(spec.search.algorithm)           # "tpe"

Structural checks live here; checks that need the server's registries (does the trainer exist, does
it report the metric, does the search-space file exist) are made by the server, which reports them
in the same problem list.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import (
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    ValidationError,
    model_validator,
)

from raysweep.compute import FinalRunResources, Resources
from raysweep.errors import Problem, SpecError
from raysweep.mode import ModeName
from raysweep.search_space import (
    PARAMETER_TYPES,
    SEARCH_SPACE_ADAPTER,
    Parameter,
    Scalar,
    SearchSpaceRef,
)
from raysweep.strict import StrictModel

NAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$"
LABEL_KEY_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$"
# a project's name: lower case, as it appears in URLs and CLI flags
PROJECT_PATTERN = r"^[a-z0-9][a-z0-9_-]{0,62}$"
DEFAULT_PROJECT = "default"


# --- the experiment spec ------------------------------------------------------------------------


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
    scheduler: Literal["asha", "asha_promotion", "none"] = Field(
        default="asha",
        description="`asha` stops a trial below its rung's cutoff; `asha_promotion` pauses "
        "every trial at each rung (its checkpoint kept, its resources freed) and promotes the "
        "best paused ones, the top 1/reduction_factor of a rung, when a trial slot frees; "
        "`none` runs every trial to max_t.",
    )
    time_attr: str | None = Field(
        default=None, description="Progress measure; defaults to the trainer's (usually epoch)."
    )
    max_t: StrictInt = Field(default=10, ge=1, le=100_000, description="Budget of every trial.")
    grace_period: StrictInt = Field(default=1, ge=1, le=100_000)
    reduction_factor: StrictFloat = Field(default=2, gt=1, le=100)
    brackets: StrictInt = Field(default=1, ge=1, le=10)

    @model_validator(mode="after")
    def _grace_within_budget(self) -> EarlyStopping:
        if self.grace_period > self.max_t:
            raise ValueError("grace_period must be <= max_t")
        return self


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
        description="Stop the sweep, failed with that error, once the first N trials to end have "
        "all failed with the same error (exception type and message, numbers aside) and none "
        "ended otherwise: a bug every trial hits is reported once, not run into by every "
        "trial. 0: never.",
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


class Pick(StrictModel):
    """Which trials of the Pareto front to promote: those within the bounds, best first by
    one objective."""

    objective: str = Field(min_length=1, max_length=128, description="The objective to rank by.")
    max: dict[Annotated[str, Field(min_length=1, max_length=128)], StrictFloat | StrictInt] = Field(
        default_factory=dict, max_length=8, description="Upper bounds on objectives."
    )
    min: dict[Annotated[str, Field(min_length=1, max_length=128)], StrictFloat | StrictInt] = Field(
        default_factory=dict, max_length=8, description="Lower bounds on objectives."
    )


class PromotionOverrides(FinalRunResources):
    """What ``POST /experiments/{id}/promote`` may change from the spec's ``promotion``, and
    which trials it promotes (default: the top_k completed feasible trials by the metric; with
    ``objectives``, the Pareto front's by the first objective)."""

    trial_ids: list[StrictInt] | None = Field(
        default=None,
        min_length=1,
        max_length=100,
        description="Promote these trials (completed and feasible, of this sweep) instead, "
        "by id (as the API's trial reads key them).",
    )
    trial_numbers: list[StrictInt] | None = Field(
        default=None,
        min_length=1,
        max_length=100,
        description="Promote these trials instead, by their number in the sweep (`#3` in the "
        "web UI and the CLI's tables); give trial_ids, trial_numbers or pick, one at most.",
    )
    pick: Pick | None = Field(
        default=None,
        description="Promote the top_k trials of the Pareto front that keep `max`/`min`, best "
        "first by `objective`; e.g. {objective: val_loss, max: {latency_ms: 20}}.",
    )

    top_k: StrictInt | None = Field(default=None, ge=1, le=100)
    num_workers: StrictInt | None = Field(default=None, ge=1, le=4096)
    epochs: StrictInt | None = Field(default=None, ge=1, le=100_000)
    lr_scaling: Literal["none", "linear", "sqrt"] | None = None
    warm_start: StrictBool | None = None
    model_name: str | None = Field(default=None, pattern=NAME_PATTERN)
    cluster: str | None = Field(default=None, pattern=NAME_PATTERN)


class Promotion(FinalRunResources):
    """Training the sweep's top trials again, bigger (more workers, other resources), as
    registered model versions."""

    auto: StrictBool = Field(default=False, description="Promote when the sweep completes.")
    top_k: StrictInt = Field(default=1, ge=1, le=100, description="Trials promoted, best first.")
    num_workers: StrictInt = Field(default=4, ge=1, le=4096, description="Workers of a final run.")
    epochs: StrictInt | None = Field(
        default=None, ge=1, le=100_000, description="Final budget; default: max_t_multiple x max_t."
    )
    max_t_multiple: StrictFloat = Field(default=1.0, gt=0, le=1000)
    lr_scaling: Literal["none", "linear", "sqrt"] = Field(
        default="sqrt",
        description="Bundled trainers keep each worker's batch, so the global batch grows with "
        "the workers; the LR follows it by this rule, after a warmup.",
    )
    warmup_epochs: StrictFloat = Field(
        default=1.0, ge=0, le=100_000, description="LR warmup of a final run."
    )
    warm_start: StrictBool = Field(
        default=False, description="Start from the trial's best checkpoint's weights."
    )
    model_name: str | None = Field(
        default=None, pattern=NAME_PATTERN, description="Registry name; default: the experiment's."
    )
    cluster: str | None = Field(
        default=None,
        pattern=NAME_PATTERN,
        description="The final cluster record (GET /api/v1/clusters); default: the first with "
        "the final role.",
    )

    def with_overrides(self, overrides: PromotionOverrides) -> Promotion:
        update = overrides.model_dump(
            exclude_none=True, exclude={"trial_ids", "trial_numbers", "pick"}
        )
        # the override's GPU wish wins over the spec's: GPUs asked for mean use_gpu, and
        # use_gpu: false drops the spec's GPUs
        if update.get("gpus_per_worker", 0) > 0:
            update.setdefault("use_gpu", True)
        if update.get("use_gpu") is False:
            update["gpus_per_worker"] = None
        return self.model_copy(update=update)


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


PACKAGE_HASH_PATTERN = r"^[0-9a-f]{64}$"
# a pip requirement specifier: a name, extras, version clauses and an environment marker; no
# option (`--index-url`), URL or path: what a member may make every node install is a name
REQUIREMENT_PATTERN = (
    r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}"  # the name
    r"(\[[A-Za-z0-9._, -]{1,100}\])?"  # extras
    r"[A-Za-z0-9._ ,<>=!~*+;'\"()-]{0,200}$"  # versions and a marker
)
ENTRYPOINT_PATTERN = r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*:[A-Za-z_][A-Za-z0-9_]*$"


class CodeRef(StrictModel):
    """User training code: an uploaded package (``POST /api/v1/code``) and the function in it that
    Ray Train runs on every worker (see trainers/README.md for the contract).

    Example::

        CodeRef(package="9f2c...", entrypoint="train:train_loop",
                metrics={"val_loss": "min", "epoch": "max"})
    """

    package: str = Field(
        pattern=PACKAGE_HASH_PATTERN, description="The package's sha256, as the upload returned."
    )
    entrypoint: str = Field(
        pattern=ENTRYPOINT_PATTERN,
        description="`module:function` inside the package, e.g. `train:train_loop`.",
    )
    metrics: dict[Annotated[str, Field(min_length=1, max_length=128)], ModeName] = Field(
        min_length=1,
        max_length=256,
        description="Every metric the function reports and its direction; must include "
        "every metric the spec reads (`metric`, or each of `objectives`, and `constraints`) "
        "and, unless early_stopping.scheduler is `none`, the early-stopping time attribute "
        "(default `epoch`): a spec (or schedule template) without them is a 422 naming each.",
    )
    requirements: list[Annotated[str, Field(pattern=REQUIREMENT_PATTERN)]] = Field(
        default_factory=list,
        max_length=64,
        description="Python packages the code needs beyond raysweep's own (torch, Ray, numpy, "
        "...), as pip requirement specifiers (`torchvision==0.28.0`, `tomli-w>=1`): installed "
        "by Ray's runtime environment into a virtualenv on each node that runs the sweep "
        "(over raysweep's packages, cached per list), before its first trial starts. A "
        "requirement pip cannot install fails the sweep with pip's error. Names and versions "
        "only: no options, URLs or paths.",
    )
    process_group: Literal["torch", "none"] = Field(
        default="torch",
        description="`torch`: Ray Train sets up torch.distributed on the workers before the "
        "function runs (gloo on CPUs, NCCL on GPUs), as its TorchTrainer does: what DDP "
        "(`ray.train.torch.prepare_model`) needs. `none`: no process group, for code that does "
        "not use torch.distributed (each worker still has its rank and world size from "
        "`ray.train.get_context()`, and reports and checkpoints as usual); its trials' Ray "
        "processes then never import torch, which saves seconds of start-up per trial.",
    )
    checkpoints: StrictBool = Field(
        default=True,
        description="Whether the function saves checkpoints (`ray.train.report(metrics, "
        "checkpoint=...)`) and resumes from `ray.train.get_checkpoint()`. Without them a "
        "trial whose workers restart starts over from its first epoch, resuming a paused sweep "
        "ends its trials that trained, an extension cannot continue a trial, and "
        "`asha_promotion` (which pauses trials at their checkpoints) is refused; the submit "
        "answer's `notes` say so.",
    )

    @property
    def gives_up(self) -> list[str]:
        """What a sweep of this code gives up, for the submit answer's ``notes``."""
        if self.checkpoints:
            return []
        return [
            "code.checkpoints is false: a trial whose workers restart trains again from its "
            "first epoch, resuming a paused sweep ends its trials that trained (they would "
            "start over), an extension cannot continue a trial, and a final run has no "
            "checkpoint to register as a model version"
        ]


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


# --- problems ------------------------------------------------------------------------------------


_SHORT_MESSAGES = {
    "greater_than_equal": "must be >= {ge}",
    "greater_than": "must be > {gt}",
    "less_than_equal": "must be <= {le}",
    "less_than": "must be < {lt}",
    "missing": "is required",
    "extra_forbidden": "unknown field",
    "literal_error": "must be one of {expected}",
    "too_short": "must have at least {min_length} item(s)",
    "too_long": "must have at most {max_length} item(s)",
    "string_pattern_mismatch": "has characters or a length that are not allowed",
    "finite_number": "must be a finite number",
}


def _location(loc: tuple[str | int, ...]) -> str:
    """Dotted path without pydantic's union tags (which name a branch, not a field)."""
    parts = list(loc)
    if parts[:1] == ["search_space"] and len(parts) > 1:
        del parts[1]  # "file" / "inline" tag
        if len(parts) > 2 and parts[2] in PARAMETER_TYPES:
            del parts[2]
    # dict-key errors are reported at "<key>.[key]"; the key itself is the location
    parts = [p for p in parts if p != "[key]"]
    return ".".join(str(p) for p in parts)


def problems_from_error(error: ValidationError, prefix: str = "") -> list[Problem]:
    """Turn every pydantic error into a ``Problem`` with a dotted path and a short message."""
    problems = []
    for item in error.errors(include_url=False):
        template = _SHORT_MESSAGES.get(item["type"])
        message = template.format(**item.get("ctx", {})) if template else item["msg"]
        message = message.removeprefix("Value error, ")
        path = _location(item["loc"])
        problems.append(Problem(path=f"{prefix}{path}" if prefix else path, message=message))
    return problems


def parse_spec(data: Any) -> ExperimentSpec:
    """Validate a mapping into an ``ExperimentSpec`` or raise ``SpecError`` naming every problem."""
    try:
        return ExperimentSpec.model_validate(data)
    except ValidationError as error:
        problems = problems_from_error(error)
        if isinstance(data, dict):
            # the model's own checks run only when every field passed: name their problems
            # either way, each at the field a user fixes
            problems = [p for p in problems if p.path != ""] + _cross_field_problems(data)
        raise SpecError(problems) from None


def _cross_field_problems(data: dict[str, Any]) -> list[Problem]:
    problems = []
    if source := training_source_problem(
        data.get("trainer") is not None, data.get("code") is not None
    ):
        problems.append(Problem(path="trainer", message=source))
    objectives = data.get("objectives")
    names = (
        None
        if objectives is None
        else [str(o.get("metric")) for o in objectives if isinstance(o, dict)]
        if isinstance(objectives, list)
        else []
    )
    early = data.get("early_stopping")
    chosen = early.get("objective") if isinstance(early, dict) else None
    return problems + objective_problems(data.get("metric"), data.get("mode"), names, chosen)


def parse_search_space(data: Any, prefix: str = "") -> dict[str, Parameter]:
    """Validate a search-space mapping (as found in a YAML file) or raise ``SpecError``."""
    try:
        return SEARCH_SPACE_ADAPTER.validate_python(data)
    except ValidationError as error:
        problems = problems_from_error(error, prefix)
        raise SpecError(problems) from None


class _YamlLoader(yaml.SafeLoader):
    """PyYAML's safe loader reading floats as YAML 1.2 does: ``1e-4`` and ``3E5`` are numbers
    (YAML 1.1, which PyYAML follows, wants a dot: it read ``lr: 1e-4`` as the string "1e-4",
    which the spec's numbers refuse)."""


_YamlLoader.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(
        r"""^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+]?[0-9]+)?
        |[-+]?(?:[0-9][0-9_]*)(?:[eE][-+]?[0-9]+)
        |\.[0-9_]+(?:[eE][-+]?[0-9]+)?
        |[-+]?\.(?:inf|Inf|INF)
        |\.(?:nan|NaN|NAN))$""",
        re.X,
    ),
    list("-+0123456789."),
)


def read_mapping(path: str | Path) -> Any:
    """Read a YAML or JSON file (JSON is YAML, but its errors read better from ``json``); a file
    that is neither is a ``SpecError`` naming the file and the line."""
    text = Path(path).read_text()
    try:
        if str(path).endswith(".json"):
            return json.loads(text)
        return yaml.load(text, Loader=_YamlLoader)
    except json.JSONDecodeError as error:
        where = f"{path}: line {error.lineno}, column {error.colno}"
        raise SpecError([Problem(path="", message=f"{where}: {error.msg}")]) from None
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f"{path}: line {mark.line + 1}, column {mark.column + 1}" if mark else str(path)
        problem = getattr(error, "problem", None) or str(error)
        raise SpecError([Problem(path="", message=f"{where}: not valid YAML: {problem}")]) from None


def load_spec(path: str | Path) -> ExperimentSpec:
    """Load and validate a spec from a YAML or JSON file."""
    return parse_spec(read_mapping(path))
