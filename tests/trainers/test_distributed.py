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
