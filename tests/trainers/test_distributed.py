"""The bundled trainers with 1 and 2 DDP workers on plain torch.distributed (gloo) processes:
the same validation trajectory (the global batch is split, not multiplied), and a run resumed
from its epoch-1 checkpoint matches the uninterrupted run. digits_mlp makes the same checks on
Ray Train in tests/engine/test_trainer.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.trainers.cases import CASES, check_one_vs_two_workers, check_resumed, train_config
from tests.trainers.gloo import fit


@pytest.mark.parametrize("trainer", sorted(set(CASES) - {"digits_mlp"}))
def test_trainer_scales_to_two_workers_and_resumes_exactly(trainer: str, tmp_path: Path) -> None:
    config = train_config(trainer, epochs=2)
    single = fit(tmp_path / "one", 1, config)
    double = fit(tmp_path / "two", 2, config)
    check_one_vs_two_workers(trainer, single, double)
    resumed = fit(tmp_path / "resumed", 2, {**config, "resume_from": double[0]["checkpoint"]})
    check_resumed(trainer, resumed, double)


def test_dropout_masks_resume_exactly_because_rng_states_travel(tmp_path: Path) -> None:
    config = train_config("digits_mlp", dropout=0.3, epochs=2)
    full = fit(tmp_path / "full", 2, config)
    resumed = fit(tmp_path / "resumed", 2, {**config, "resume_from": full[0]["checkpoint"]})
    assert resumed[0]["train_loss"] == pytest.approx(full[1]["train_loss"], rel=1e-6)


@pytest.mark.parametrize(
    ("use_gpu", "gpus_per_worker", "workers", "backend"),
    [
        (False, 0.0, 2, "gloo"),
        (True, 1.0, 2, "nccl"),
        (True, 0.0, 2, "nccl"),  # use_gpu with no gpus_per_worker: one GPU each
        (True, 2.0, 4, "nccl"),
        # NCCL refuses two ranks on one GPU (seen on an H200: "Duplicate GPU detected : rank 1
        # and rank 0 both on CUDA device"), and fractional GPUs may put two workers on one
        (True, 0.5, 2, "gloo"),
        (True, 0.5, (1, 4), "gloo"),
        (True, 0.5, 1, "nccl"),  # a lone worker has no one to share its GPU with
    ],
)
def test_workers_that_may_share_a_gpu_get_gloo_and_whole_gpus_nccl(
    use_gpu: bool, gpus_per_worker: float, workers: int | tuple[int, int], backend: str
) -> None:
    from service.engine.train_run import torch_backend

    assert torch_backend(use_gpu, gpus_per_worker, workers).backend == backend
