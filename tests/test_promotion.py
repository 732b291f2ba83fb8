"""The LR-scaling maths of a final run: each worker keeps its share of the sweep's global batch,
so the global batch grows with the workers and the kit scales the LR from the sweep's. And the
promoter, which queues a completed sweep's final runs when its spec asks for it."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from raysweep.spec import ExperimentSpec, PromotionOverrides
from service.controller.finals import BATCH, Promoter
from service.db.models import EventRow, ExperimentRow, FinalRunRow
from service.promotion import final_config, final_epochs
from service.settings import Settings
from tests.conftest import minimal_spec
from tests.factories import completed_sweep
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


def test_the_promoter_deals_with_each_completed_sweep_once(
    db: sessionmaker[Session], tmp_path: Path
) -> None:
    """It records what it did in the sweep's ``promotion`` column, so a batch of sweeps left to
    their users (``promotion.auto`` off) never hides a later one that asked for it."""
    left = [completed_sweep(db, [({"lr": 0.1}, 0.5)]) for _ in range(BATCH)]
    auto = completed_sweep(db, [({"lr": 0.01}, 0.2), ({"lr": 0.1}, 0.5)], auto=True)
    nothing = completed_sweep(db, [], auto=True)  # no completed trial: skipped, saying why
    promoter = Promoter(db, Settings(home=tmp_path))
    assert promoter.run_once() + promoter.run_once() == 2  # 20, then 2 more looked at
    assert promoter.run_once() == 0
    with db.begin() as session:
        status = dict(session.execute(select(ExperimentRow.id, ExperimentRow.promotion)).all())
        runs = session.scalars(select(FinalRunRow.experiment_id)).all()
        skipped = session.scalars(
            select(EventRow.message).where(
                EventRow.experiment_id == nothing, EventRow.kind == "promotion_skipped"
            )
        ).all()
    assert {status[i] for i in left} == {"manual"}
    assert (status[auto], status[nothing]) == ("promoted", "skipped")
    assert runs == [auto]
    assert len(skipped) == 1 and "no completed trial" in skipped[0]
