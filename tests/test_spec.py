"""The experiment spec: the documented example, the bad-spec table, and search-space edge cases."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st
from ray.tune.search import BasicVariantGenerator
from ray.tune.search.optuna import OptunaSearch

from raysweep.errors import RaysweepError, SpecError
from raysweep.spec import ExperimentSpec
from raysweep.spec_reader import load_spec, parse_search_space, parse_spec
from service.engine.search import search_algorithm, tune_domain
from service.engine.trial_plan import TrialPlan
from service.errors import InvalidInput
from service.settings import REPO_ROOT
from service.specs import check_spec
from tests.conftest import minimal_spec

EXAMPLE = """
name: digits-asha
trainer: digits_mlp            # a registered trainer name
search_space: digits_mlp       # a file in search_spaces/, or an inline mapping
metric: val_accuracy
mode: max
search: {algorithm: tpe, num_samples: 8, max_concurrent_trials: 2, seed: 0}
early_stopping: {scheduler: asha, time_attr: epoch, max_t: 8, grace_period: 1, reduction_factor: 2}
resources: {num_workers: 2, use_gpu: false, cpus_per_worker: 0.5}
fault_tolerance: {max_failures: 2, checkpoint_frequency: 1, checkpoints_to_keep: 2}
stop: {time_budget_s: 3600}
promotion: {auto: false, top_k: 1, num_workers: 4, epochs: 20, lr_scaling: sqrt, warm_start: true}
labels: {team: vision}
"""
SPACES = REPO_ROOT / "search_spaces"


minimal = minimal_spec


def problems(data: Any) -> dict[str, str]:
    with pytest.raises(InvalidInput) as caught:
        check_spec(data, SPACES)
    return {p.path: p.message for p in caught.value.details}


def test_documented_example_validates_and_resolves_its_search_space(tmp_path: Path) -> None:
    path = tmp_path / "spec.yaml"
    path.write_text(EXAMPLE)
    spec = load_spec(path)
    assert spec.search.algorithm == "tpe" and spec.early_stopping.max_t == 8
    assert spec.resources.cpus_per_worker == 0.5 and spec.labels == {"team": "vision"}
    resolved = check_spec(yaml.safe_load(EXAMPLE), SPACES)
    assert isinstance(resolved.search_space, dict)
    assert set(resolved.search_space) == {
        "lr",
        "hidden",
        "depth",
        "dropout",
        "weight_decay",
        "batch_size",
        "optimizer",
    }


def test_defaults_fill_everything_but_the_five_required_fields() -> None:
    spec = parse_spec(minimal())
    assert spec.search.num_samples >= 1 and spec.early_stopping.scheduler == "asha"
    assert spec.resources.num_workers == 2 and spec.fault_tolerance.max_failures == 2
    with pytest.raises(SpecError) as caught:
        parse_spec({})
    # one hierarchy: a spec found bad here is a RaysweepError like one the server refused
    assert isinstance(caught.value, RaysweepError) and caught.value.status is None
    assert {p.path for p in caught.value.problems} == {
        "name",
        "trainer",
        "search_space",
        "metric",
        "mode",
    }


def test_elastic_workers_and_inline_space_are_accepted() -> None:
    spec = check_spec(
        minimal(
            resources={"num_workers": [1, 3]},
            search_space={
                "lr": {"type": "constant", "value": 0.1},
                "hidden": {"type": "grid", "values": [16, 32]},
            },
            search={"algorithm": "grid", "points_to_evaluate": [{"hidden": 16}]},
        ),
        SPACES,
    )
    assert spec.resources.num_workers == (1, 3) and spec.resources.max_workers == 3


BAD_SPECS = [
    (minimal(search={"num_samples": 0}), {"search.num_samples": "must be >= 1"}),
    (minimal(mode="maximize"), {"mode": "must be one of 'min' or 'max'"}),
    (minimal(surprise=1), {"surprise": "unknown field"}),
    (
        minimal(trainer="nope"),
        {"trainer": "unknown trainer 'nope'; known: diabetes_regression, digits_cnn, digits_mlp"},
    ),
    (
        minimal(search_space={"momentum": {"type": "constant", "value": 0.9}}),
        {"search_space.momentum": "trainer digits_mlp has no hyperparameter 'momentum'"},
    ),
    (
        minimal(code={"package": "0" * 64, "entrypoint": "t:f", "metrics": {"loss": "min"}}),
        {"trainer": "either trainer (a bundled trainer) or code (an uploaded package), not both"},
    ),
    (minimal(trainer=None), {"trainer": "is required, or give code"}),
    (
        minimal(
            search_space={
                "precision": {"type": "choice", "values": ["bf16", "fp8"]},
                "lr_scaling": {"type": "uniform", "low": 0, "high": 1},
            }
        ),
        {
            "search_space.precision": "'fp8' is not one of fp32, bf16, fp16",
            "search_space.lr_scaling": "must be a choice, grid or constant",
        },
    ),
    (
        minimal(trainer=None, code={"package": "xyz", "entrypoint": "t", "metrics": {}}),
        {
            "code.package": "has characters",
            "code.entrypoint": "has characters",
            "code.metrics": "at least 1",
        },
    ),
    (minimal(metric="bleu"), {"metric": "trainer digits_mlp does not report 'bleu'"}),
    (minimal(search_space="missing"), {"search_space": "no search space named 'missing'"}),
    (minimal(search_space="../etc"), {"search_space": "has characters"}),
    (
        minimal(search_space={"lr": {"type": "uniform", "low": 1, "high": 0}}),
        {"search_space.lr": "low must be < high"},
    ),
    (
        minimal(search_space={"lr": {"type": "loguniform", "low": 0, "high": 1}}),
        {"search_space.lr.low": "must be > 0"},
    ),
    (minimal(search_space={"lr": {"type": "gaussian"}}), {"search_space.lr": "tag"}),
    (
        minimal(search_space={"colour": {"type": "choice", "values": ["red"]}}),
        {"search_space.colour": "has no hyperparameter 'colour'"},
    ),
    (
        minimal(search_space={"lr": {"type": "grid", "values": [0.1]}}),
        {"search_space.lr": "grid parameters need search.algorithm: grid"},
    ),
    (
        minimal(search={"points_to_evaluate": [{"nope": 1}]}),
        {"search.points_to_evaluate.0.nope": "not a parameter"},
    ),
    (
        minimal(early_stopping={"grace_period": 5, "max_t": 2}),
        {"early_stopping": "grace_period must be <= max_t"},
    ),
    (
        minimal(early_stopping={"time_attr": "steps"}),
        {"early_stopping.time_attr": "does not report 'steps'"},
    ),
    (minimal(resources={"num_workers": [3, 1]}), {"resources.num_workers": "min <= max"}),
    (minimal(resources={"gpus_per_worker": 1}), {"resources": "needs use_gpu: true"}),
    (minimal(search={"num_samples": "many"}), {"search.num_samples": "valid integer"}),
    (minimal(stop={"time_budget_s": -1}), {"stop.time_budget_s": "must be > 0"}),
    (minimal(labels={"bad key!": "x"}), {"labels.bad key!": "has characters"}),
    ([1, 2], {"": "valid dictionary"}),
    # values no run could use, named with their bound
    (minimal(search={"seed": 10**30}), {"search.seed": "must be <= 4294967295"}),
    (
        minimal(fault_tolerance={"checkpoint_frequency": 10**19}),
        {"fault_tolerance.checkpoint_frequency": "must be <= 100000"},
    ),
    (
        minimal(search_space={"lr": {"type": "uniform", "low": -1e308, "high": 1e308}}),
        {
            "search_space.lr.low": "must be >= -1000000000000",
            "search_space.lr.high": "must be <= 1000000000000",
        },
    ),
    (
        minimal(search_space={"hidden": {"type": "int", "low": -(10**30), "high": 10**30}}),
        {
            "search_space.hidden.low": "must be >= -1000000000000",
            "search_space.hidden.high": "must be <= 1000000000000",
        },
    ),
    (
        minimal(early_stopping={"reduction_factor": 1e308}),
        {"early_stopping.reduction_factor": "must be <= 100"},
    ),
    # no coercion: a count is an integer, a switch a boolean
    (minimal(search={"num_samples": True}), {"search.num_samples": "valid integer"}),
    (minimal(search={"num_samples": "5"}), {"search.num_samples": "valid integer"}),
    (minimal(search={"num_samples": 1000.0}), {"search.num_samples": "valid integer"}),
    (minimal(resources={"cpus_per_worker": "1"}), {"resources.cpus_per_worker": "valid number"}),
    (minimal(promotion={"auto": "yes"}), {"promotion.auto": "valid boolean"}),
]


@pytest.mark.parametrize(("data", "expected"), BAD_SPECS)
def test_bad_spec_names_the_field_and_the_problem(data: Any, expected: dict[str, str]) -> None:
    found = problems(data)
    for path, fragment in expected.items():
        assert path in found, f"{path} not among {found}"
        assert fragment in found[path], f"{path}: {found[path]!r} lacks {fragment!r}"


def test_every_problem_is_listed_not_only_the_first() -> None:
    found = problems(
        minimal(
            trainer="nope",
            search={"num_samples": 0, "seed": -1},
            mode="up",
            resources={"cpus_per_worker": 0},
            extra=True,
        )
    )
    assert {
        "trainer",
        "search.num_samples",
        "search.seed",
        "mode",
        "resources.cpus_per_worker",
        "extra",
    } <= set(found)


# --- search-space edge cases (property-based) ----------------------------------------------

finite = st.floats(allow_nan=False, allow_infinity=False, min_value=-1e9, max_value=1e9)


@given(low=finite, high=finite)
def test_uniform_accepts_exactly_the_ordered_bounds(low: float, high: float) -> None:
    space = {"lr": {"type": "uniform", "low": low, "high": high}}
    if low < high:
        assert parse_search_space(space)["lr"].low == low  # type: ignore[union-attr]
    else:
        with pytest.raises(SpecError):
            parse_search_space(space)


@given(low=st.integers(-1000, 1000), high=st.integers(-1000, 1000), step=st.integers(-3, 50))
def test_int_ranges_need_ordered_bounds_and_a_dividing_positive_step(
    low: int, high: int, step: int
) -> None:
    space = {"depth": {"type": "int", "low": low, "high": high, "step": step}}
    valid = step >= 1 and low <= high and (high - low) % step == 0
    if valid:
        parse_search_space(space)
    else:
        with pytest.raises(SpecError):
            parse_search_space(space)


@given(value=st.sampled_from([math.nan, math.inf, -math.inf]))
def test_non_finite_numbers_are_rejected_everywhere(value: float) -> None:
    for space in (
        {"lr": {"type": "uniform", "low": value, "high": 1.0}},
        {"lr": {"type": "choice", "values": [0.1, value]}},
    ):
        with pytest.raises(SpecError):
            parse_search_space(space)


@given(
    low=st.floats(min_value=1e-12, max_value=1e3), ratio=st.floats(min_value=1.0001, max_value=1e6)
)
def test_loguniform_space_converts_to_tune_and_samples_within_bounds(
    low: float, ratio: float
) -> None:
    parameter = parse_search_space({"lr": {"type": "loguniform", "low": low, "high": low * ratio}})
    domain = tune_domain(parameter["lr"])
    sample = domain.sample()
    assert low * (1 - 1e-9) <= sample <= low * ratio * (1 + 1e-9)


def test_bundled_search_space_files_are_valid() -> None:
    for path in SPACES.glob("*.yaml"):
        assert parse_search_space(yaml.safe_load(path.read_text()))


def test_a_fixed_config_gets_a_searcher_that_accepts_it() -> None:
    fixed = check_spec(minimal(search_space={"lr": {"type": "constant", "value": 0.1}}), SPACES)
    sampled = check_spec(minimal(), SPACES)
    assert isinstance(search_algorithm(fixed), BasicVariantGenerator)  # Optuna would refuse it
    assert isinstance(search_algorithm(sampled), OptunaSearch)


def test_any_bundled_trainer_takes_the_kit_keys_in_its_search_space() -> None:
    kit = {
        "precision": {"type": "choice", "values": ["fp32", "bf16"]},
        "grad_accum_steps": {"type": "int", "low": 1, "high": 4},
        "warmup_epochs": {"type": "uniform", "low": 0.0, "high": 1.0},
        "lr_scaling": {"type": "constant", "value": "sqrt"},
        "batch_size_per_worker": {"type": "choice", "values": [16, 32]},
    }
    for trainer, metric in (("tiny_lm", "val_perplexity"), ("diabetes_regression", "val_rmse")):
        spec = check_spec(
            minimal(trainer=trainer, metric=metric, mode="min", search_space=kit), SPACES
        )
        assert set(spec.search_space) == set(kit)
    for name in ("digits_cnn", "tiny_lm", "diabetes_regression"):
        assert check_spec(minimal(trainer=name, search_space=name, metric="val_loss",
                                  mode="min"), SPACES).trainer == name  # fmt: skip


def test_yaml_exponents_without_a_dot_are_numbers(tmp_path: Path) -> None:
    """PyYAML alone reads `1e-4` as a string (YAML 1.1 wants `1.0e-4`); the spec's numbers take
    no strings, so a learning rate written the usual way must load as a float."""
    path = tmp_path / "sweep.yaml"
    space = "search_space: {lr: {type: loguniform, low: 1e-4, high: 3E-1}}"
    path.write_text(EXAMPLE.replace("search_space: digits_mlp", space))
    lr = parse_search_space(load_spec(path).search_space)["lr"]
    assert (lr.low, lr.high) == (1e-4, 0.3)  # type: ignore[union-attr]


def test_code_requirements_are_names_and_versions_only() -> None:
    """What a member may make every node install is a requirement specifier: no pip option, URL
    or path (a requirements file line such as ``--index-url`` would redirect every install)."""
    code = {
        "package": "0" * 64,
        "entrypoint": "train:train_loop",
        "metrics": {"loss": "min", "epoch": "max"},
    }
    good = ["tomli-w==1.0.0", "torchvision>=0.20,<1", 'requests[socks]>=2; python_version>"3.8"']
    spec = parse_spec(minimal_spec(trainer=None, code={**code, "requirements": good}))
    assert spec.code is not None and spec.code.requirements == good
    bad = ["--index-url http://evil.example/simple", "git+https://x.example/p.git", "./local",
           "pkg @ https://x.example/p.whl", "ok==1\n--extra-index-url http://evil"]  # fmt: skip
    with pytest.raises(SpecError) as refused:
        parse_spec(minimal_spec(trainer=None, code={**code, "requirements": bad}))
    paths = {p.path for p in refused.value.problems}
    assert paths == {f"code.requirements.{i}" for i in range(len(bad))}, paths


def test_code_sets_up_torch_distributed_unless_it_says_none() -> None:
    """``code.process_group``: torch by default (what DDP needs), ``none`` for code without
    torch.distributed; the trials' plan follows it, and a bundled trainer always gets torch."""
    code = {
        "package": "0" * 64,
        "entrypoint": "train:train_loop",
        "metrics": {"loss": "min", "epoch": "max"},
    }

    def plan(spec: ExperimentSpec) -> TrialPlan:
        return TrialPlan.from_spec(
            spec, epochs=1, num_workers=1, storage_path="/s", owner="e", resource_wait_s=0
        )

    default = parse_spec(minimal_spec(trainer=None, code=code))
    assert default.code is not None and default.code.process_group == "torch"
    assert plan(default).torch_process_group
    none = parse_spec(minimal_spec(trainer=None, code={**code, "process_group": "none"}))
    assert not plan(none).torch_process_group
    assert plan(parse_spec(minimal_spec())).torch_process_group  # the bundled digits_mlp
    with pytest.raises(SpecError) as refused:
        parse_spec(minimal_spec(trainer=None, code={**code, "process_group": "nccl"}))
    assert [p.path for p in refused.value.problems] == ["code.process_group"]
