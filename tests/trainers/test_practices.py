"""The kit's practices in plain torch (one process, no Ray): LR scaling rules and schedules,
gradient accumulation equivalence, clipping, mixed precision on CPU, seeds, held-out splits."""

from __future__ import annotations

import logging
import math
from typing import Any

import pytest
import torch

from trainers import distributed, practices
from trainers.performance import MixedPrecision
from trainers.practices import TrainSettings, scaled_lr
from trainers.registry import KIT_HYPERPARAMETERS, TRAINERS, load_reference

CPU = torch.device("cpu")


def settings(**config: Any) -> TrainSettings:
    return TrainSettings.from_config(config)


@pytest.mark.parametrize(
    ("rule", "global_batch", "reference", "expected"),
    [
        ("none", 512, 64, 0.1),
        ("linear", 512, 64, 0.8),
        ("sqrt", 512, 128, 0.2),
        ("linear", 32, 64, 0.05),
        ("sqrt", 64, 64, 0.1),
    ],
)
def test_lr_scaling_rules(rule: Any, global_batch: int, reference: int, expected: float) -> None:
    assert scaled_lr(0.1, rule, global_batch, reference) == pytest.approx(expected)


def test_lr_scales_with_world_size_when_the_batch_is_per_worker() -> None:
    linear = settings(batch_size_per_worker=32, lr_scaling="linear")
    sqrt = settings(batch_size_per_worker=32, lr_scaling="sqrt")
    assert [linear.global_batch(w) for w in (1, 2, 4)] == [32, 64, 128]
    assert [linear.lr(0.01, w) for w in (1, 2, 4)] == pytest.approx([0.01, 0.02, 0.04])
    assert [sqrt.lr(0.01, w) for w in (1, 4, 16)] == pytest.approx([0.01, 0.02, 0.04])
    # a global batch is split, not multiplied: more workers change nothing
    fixed = settings(batch_size=64, lr_scaling="linear")
    assert [fixed.lr(0.01, w) for w in (1, 2, 8)] == pytest.approx([0.01] * 3)
    # accumulation grows the global batch; an explicit reference batch is honoured
    accumulated = settings(batch_size=64, grad_accum_steps=4, lr_scaling="linear")
    assert accumulated.global_batch(2) == 256 and accumulated.lr(0.01, 2) == pytest.approx(0.01)
    referenced = settings(batch_size=64, grad_accum_steps=4, lr_scaling="linear",
                          lr_reference_batch=64)  # fmt: skip
    assert referenced.lr(0.01, 1) == pytest.approx(0.04)
    assert settings(batch_size=64).lr(0.01, 4) == 0.01  # lr_scaling defaults to none


def test_warmup_then_cosine_or_step_decay() -> None:
    cosine = practices.lr_factor(settings(epochs=10, warmup_epochs=1), steps_per_epoch=10)
    assert [cosine(s) for s in (0, 4, 9)] == pytest.approx([0.1, 0.5, 1.0])
    assert cosine(10) == pytest.approx(1.0)
    assert cosine(55) == pytest.approx(0.5)  # halfway through the 90 steps after warmup
    assert cosine(99) == pytest.approx(0.5 * (1 + math.cos(math.pi * 89 / 90)))
    step = practices.lr_factor(
        settings(epochs=9, lr_schedule="step", lr_step_epochs=3, lr_step_gamma=0.5),
        steps_per_epoch=4,
    )
    assert [step(s) for s in (0, 11, 12, 23, 24)] == pytest.approx([1, 1, 0.5, 0.5, 0.25])
    constant = practices.lr_factor(settings(epochs=5, lr_schedule="constant"), 7)
    assert {constant(s) for s in range(35)} == {1.0}


def test_bad_kit_values_are_named() -> None:
    with pytest.raises(ValueError, match="precision must be one of fp32, bf16, fp16"):
        settings(precision="fp8")
    with pytest.raises(ValueError, match="grad_accum_steps must be >= 1"):
        settings(grad_accum_steps=0)
    with pytest.raises(ValueError, match="lr_scaling must be one of"):
        settings(lr_scaling="cubic")


def build(trainer: str, **config: Any) -> tuple[practices.Task, dict[str, Any]]:
    info = TRAINERS[trainer]
    full = {**info.defaults, "epochs": 1, **config}
    distributed.seed_everything(int(full["seed"]))
    return load_reference(info.task)(full), full


def one_epoch(trainer: str, **config: Any) -> tuple[practices.Task, practices.EpochStats]:
    task, full = build(trainer, **config)
    run = TrainSettings.from_config(full)
    optimizer = torch.optim.SGD(task.model.parameters(), lr=float(full["lr"]))
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda step: 1.0)
    amp = MixedPrecision.for_device(run.precision, CPU)
    stats = practices.train_epoch(
        task.model, task, task.splits["train"], optimizer, scheduler, run, amp, epoch=1
    )
    return task, stats


def parameters(task: practices.Task) -> torch.Tensor:
    return torch.cat([p.detach().flatten() for p in task.model.parameters()])


def test_gradient_accumulation_of_k_steps_at_b_equals_one_step_at_k_times_b() -> None:
    accumulated, stats_k = one_epoch("digits_mlp", batch_size=16, grad_accum_steps=4, lr=0.1)
    large, stats_1 = one_epoch("digits_mlp", batch_size=64, grad_accum_steps=1, lr=0.1)
    assert stats_k.steps == stats_1.steps == 1257 // 64
    assert stats_k.samples == stats_1.samples == 19 * 64
    assert torch.allclose(parameters(accumulated), parameters(large), rtol=1e-4, atol=1e-6)
    assert stats_k.mean_loss == pytest.approx(stats_1.mean_loss, rel=1e-4)
    # and it is not vacuous: without accumulation, batch 16 trains differently
    small, _ = one_epoch("digits_mlp", batch_size=16, grad_accum_steps=1, lr=0.1)
    assert not torch.allclose(parameters(small), parameters(large), rtol=1e-3)


def test_gradient_clipping_bounds_every_step() -> None:
    start, _ = build("digits_mlp", batch_size=64, lr=0.5)
    before = parameters(start)
    clipped, stats = one_epoch("digits_mlp", batch_size=64, lr=0.5, grad_clip_norm=1e-3)
    assert stats.clipped_steps == stats.steps == 19
    # SGD without momentum: each step moves the weights by at most lr * clip norm
    assert float((parameters(clipped) - before).norm()) <= 19 * 0.5 * 1e-3 * (1 + 1e-4)
    _, free = one_epoch("digits_mlp", batch_size=64, lr=0.5, grad_clip_norm=1e6)
    assert free.clipped_steps == 0


def test_mixed_precision_is_off_on_cpu_and_says_why(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="raysweep.trainer"):
        amp = MixedPrecision.for_device("bf16", CPU)
    assert not amp.enabled and amp.scaler is None and amp.precision == "fp32"
    assert "precision bf16 asked for, but this trial runs on cpu" in caplog.text
    assert "training in fp32" in amp.note
    assert MixedPrecision.for_device("fp32", CPU).note == ""


def test_a_seed_fixes_initial_weights_and_data_order() -> None:
    first, stats_a = one_epoch("digits_cnn", seed=5)
    again, stats_b = one_epoch("digits_cnn", seed=5)
    other, stats_c = one_epoch("digits_cnn", seed=6)
    assert torch.equal(parameters(first), parameters(again))
    assert stats_a.mean_loss == stats_b.mean_loss != stats_c.mean_loss
    assert not torch.equal(parameters(first), parameters(other))
    order = list(distributed.global_batches(100, 10, seed=5, epoch=2))
    assert [b.tolist() for b in order] == [
        b.tolist() for b in distributed.global_batches(100, 10, seed=5, epoch=2)
    ]
    assert order[0].tolist() != next(distributed.global_batches(100, 10, seed=5, epoch=3)).tolist()


@pytest.mark.parametrize("trainer", sorted(TRAINERS))
def test_every_trainer_has_a_held_out_test_split(trainer: str) -> None:
    task, _ = build(trainer)
    splits = task.splits
    assert set(splits) == {"train", "val", "test"}
    sizes = {name: len(split) for name, split in splits.items()}
    assert sizes["test"] >= 0.08 * sum(sizes.values()), sizes
    train_rows = {tuple(row.flatten().tolist()) for row in splits["train"].inputs}
    overlap = sum(tuple(row.flatten().tolist()) in train_rows for row in splits["test"].inputs)
    # digits has a few identical images; generated text windows never repeat whole
    assert overlap <= 0.02 * sizes["test"], overlap
    metrics = practices.evaluate(task.model, task, splits["test"], CPU)
    assert set(metrics) >= {"loss"} and all(math.isfinite(v) for v in metrics.values())


def test_every_trainer_accepts_the_kit_keys_and_reports_the_kit_metrics() -> None:
    for info in TRAINERS.values():
        assert all(info.accepts(key) for key in KIT_HYPERPARAMETERS)
        assert set(practices.KIT_DEFAULTS) == KIT_HYPERPARAMETERS
        assert {"samples_per_second", "allreduce_share", "train_loss"} <= set(info.metrics)
