"""The LR-scaling maths of a final run: each worker keeps its share of the sweep's global batch,
so the global batch grows with the workers and the kit scales the LR from the sweep's."""

from __future__ import annotations

import pytest

from raysweep.spec import ExperimentSpec, PromotionOverrides
from service.promotion import final_config, final_epochs
from tests.conftest import minimal_spec
from trainers.practices import TrainSettings


def spec(**changes: object) -> ExperimentSpec:
    return ExperimentSpec.model_validate(
        minimal_spec(
            search_space={"lr": {"type": "constant", "value": 0.01}},
            resources={"num_workers": 2},
            **changes,
        )
    )


@pytest.mark.parametrize(("rule", "factor"), [("none", 1.0), ("linear", 4.0), ("sqrt", 2.0)])
def test_eight_final_workers_scale_the_lr_of_a_two_worker_sweep(rule: str, factor: float) -> None:
    sweep = spec(promotion={"num_workers": 8, "lr_scaling": rule, "warmup_epochs": 2})
    trial = {"lr": 0.01, "batch_size": 64, "grad_accum_steps": 2, "hidden": 32}
    config = final_config(sweep, trial, sweep.promotion)
    assert config["batch_size_per_worker"] == 32 and "batch_size" not in config
    assert config["lr_reference_batch"] == 128  # the sweep's global batch (64 x 2 steps)
    assert config["warmup_epochs"] == 2 and config["hidden"] == 32
    settings = TrainSettings.from_config({**config, "epochs": 5})
    assert settings.global_batch(8) == 32 * 8 * 2 == 4 * 128
    assert settings.lr(0.01, 8) == pytest.approx(0.01 * factor)
    # the same config on the sweep's two workers reproduces the sweep's batch and LR
    assert settings.global_batch(2) == 128 and settings.lr(0.01, 2) == pytest.approx(0.01)


def test_budget_overrides_and_user_code() -> None:
    sweep = spec(early_stopping={"max_t": 6}, promotion={"max_t_multiple": 1.5})
    assert final_epochs(sweep, sweep.promotion) == 9
    overridden = sweep.promotion.with_overrides(PromotionOverrides(epochs=3, num_workers=16))
    assert final_epochs(sweep, overridden) == 3 and overridden.num_workers == 16
    assert overridden.max_t_multiple == 1.5  # what the overrides leave out stays
    code = ExperimentSpec.model_validate(
        {
            **minimal_spec(trainer=None, metric="loss", mode="min"),
            "search_space": {"lr": {"type": "constant", "value": 0.1}},
            "code": {"package": "a" * 64, "entrypoint": "t:f", "metrics": {"loss": "min"}},
        }
    )
    assert final_config(code, {"lr": 0.1}, code.promotion) == {"lr": 0.1}
