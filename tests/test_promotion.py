"""The LR-scaling maths of a final run: each worker keeps its share of the sweep's global batch,
so the global batch grows with the workers and the kit scales the LR from the sweep's. And the
promoter, which queues a completed sweep's final runs when its spec asks for it."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError
from sqlalchemy import select, update
from sqlalchemy.orm import Session, sessionmaker

from raysweep.promotion_spec import PromotionOverrides
from raysweep.spec import ExperimentSpec
from service.controller.promoter import Promoter
from service.db.models.registry import FinalRunRow
from service.db.models.sweeps import CheckpointRow, EventRow, ExperimentRow, TrialRow
from service.errors import InvalidInput
from service.final_config import final_config, final_epochs
from service.settings import Settings
from service.usecases.clusters import record_capacity
from service.usecases.promotion import (
    AUTO_PROMOTION_BATCH,
    promote_experiment,
    promotion_problems,
)
from tests.conftest import minimal_spec
from tests.factories import CLUSTERS, T0, completed_sweep
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
    left = [completed_sweep(db, [({"lr": 0.1}, 0.5)]) for _ in range(AUTO_PROMOTION_BATCH)]
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


def test_a_final_run_asks_for_its_own_gpus_and_precision_checked_against_a_fixed_cluster(
    db: sessionmaker[Session],
) -> None:
    """Search small, train big: a CPU sweep's winner trains on GPUs in bf16; a fixed final
    cluster that can never hold that is a 422 naming the resources, and nothing is queued."""
    sweep = completed_sweep(db, [({"lr": 0.1}, 0.5)])
    record_capacity(db, "big", [{"CPU": 8.0, "GPU": 2.0}])
    gpus = PromotionOverrides(gpus_per_worker=1, precision="bf16", cluster="big")
    with pytest.raises(InvalidInput) as refused:
        promote_experiment(
            db, sweep, gpus.model_copy(update={"num_workers": 4}), "tester", CLUSTERS, ["big"]
        )
    (problem,) = refused.value.details
    assert problem.path == "num_workers"
    assert "4 worker(s) x {CPU: 1, GPU: 1}" in problem.message
    assert "'big' has {CPU: 8, GPU: 2}" in problem.message
    with db.begin() as session:
        assert session.scalars(select(FinalRunRow)).all() == []
    # the same on an autoscaling cluster is queued: it may grow
    promote_experiment(db, sweep, gpus.model_copy(update={"num_workers": 4}), "t", CLUSTERS, [])
    with db.begin() as session:
        (run,) = session.scalars(select(FinalRunRow)).all()
    assert run.resources == {"use_gpu": True, "cpus_per_worker": 1.0, "gpus_per_worker": 1.0}
    assert run.config["precision"] == "bf16"
    # nothing asked: the sweep's resources (stored as None)
    other = completed_sweep(db, [({"lr": 0.1}, 0.5)])
    promote_experiment(db, other, PromotionOverrides(), "t", CLUSTERS, ["big"])
    with db.begin() as session:
        plain = session.scalars(select(FinalRunRow).where(FinalRunRow.experiment_id == other))
        assert [r.resources for r in plain] == [None]


def test_an_overrides_gpu_wish_wins_and_user_code_takes_no_precision() -> None:
    with pytest.raises(ValidationError, match="needs use_gpu"):
        PromotionOverrides(use_gpu=False, gpus_per_worker=1)
    cpu_sweep = spec()
    promotion = cpu_sweep.promotion.with_overrides(PromotionOverrides(gpus_per_worker=0.5))
    assert promotion.final_resources(cpu_sweep.resources) == {
        "use_gpu": True,
        "cpus_per_worker": 1.0,
        "gpus_per_worker": 0.5,
    }
    gpu_sweep = ExperimentSpec.model_validate(
        minimal_spec(resources={"num_workers": 2, "use_gpu": True, "gpus_per_worker": 1})
    )
    off = gpu_sweep.promotion.with_overrides(PromotionOverrides(use_gpu=False))
    assert off.final_resources(gpu_sweep.resources)["use_gpu"] is False
    code = ExperimentSpec.model_validate(
        {
            **minimal_spec(trainer=None, metric="loss", mode="min"),
            "search_space": {"lr": {"type": "constant", "value": 0.1}},
            "code": {"package": "a" * 64, "entrypoint": "t:f", "metrics": {"loss": "min"}},
        }
    )
    bf16 = code.promotion.with_overrides(PromotionOverrides(precision="bf16"))
    (problem,) = promotion_problems(code, bf16, "big", CLUSTERS(code.project))
    assert problem.path == "precision" and "bundled trainers" in problem.message


def test_a_cancelled_sweep_promotes_its_completed_trials_from_their_best_checkpoint(
    db: sessionmaker[Session],
) -> None:
    sweep = completed_sweep(db, [({"lr": 0.1}, 0.2)])
    with db.begin() as session:
        session.execute(
            update(ExperimentRow).where(ExperimentRow.id == sweep).values(state="cancelled")
        )
        trial = session.scalars(select(TrialRow).where(TrialRow.experiment_id == sweep)).one()
        # ASHA-like: the latest checkpoint (iteration 3) is worse than iteration 2's
        for iteration, metric, deleted in ((1, 0.5, True), (2, 0.2, False), (3, 0.4, False)):
            session.add(
                CheckpointRow(
                    trial_id=trial.id,
                    iteration=iteration,
                    uri=f"/ckpt/best-{iteration}",
                    metric=metric,
                    created_at=T0,
                    deleted=deleted,
                )
            )
    promoted = promote_experiment(
        db, sweep, PromotionOverrides(warm_start=True), "tester", CLUSTERS
    )
    (run,) = promoted.runs.items
    assert run.warm_start_uri == "/ckpt/best-2"
    with db.begin() as session:
        message = session.scalars(
            select(EventRow.message).where(
                EventRow.experiment_id == sweep, EventRow.kind == "promoted"
            )
        ).one()
    assert "the sweep was cancelled: its completed trials only" in message
