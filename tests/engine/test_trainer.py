"""The kit's training loop on Ray Train (the runtime of every trial and final run): 2 epochs of
digits_mlp with 1 and with 2 workers follow the same validation trajectory, and a run resumed
from its epoch-1 Ray Train checkpoint matches the uninterrupted run. What a driver reads back
from a Train run's storage after it died (``stored_reports``) is every epoch, including those
reported without a checkpoint. A run whose checkpoint snapshot was cut short (its node lost while
Train rewrote it) resumes from the snapshot's copy. The other trainers make the
same checks on gloo processes (tests/trainers/test_distributed.py)."""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import ray
from ray.train import CheckpointConfig, RunConfig, ScalingConfig

from raysweep.spec import ExperimentSpec
from service.engine.cluster import RAY_AUTH_TOKEN_PATH, RayConnection
from service.engine.driver import stored_reports
from service.engine.train_run import LeanTrainer, torch_backend
from service.engine.trial import build_trainer
from service.engine.trial_plan import TrialPlan
from service.engine.trial_plan import train_config as trial_config
from service.settings import Settings
from service.train_snapshot import SNAPSHOT_COPY, TRAIN_SNAPSHOT
from tests.conftest import RAY_TESTS, minimal_spec
from tests.trainers.cases import check_one_vs_two_workers, check_resumed, train_config
from trainers.kit import train_loop_per_worker

pytestmark = RAY_TESTS


@pytest.fixture(scope="module")
def ray_driver(ray_cluster: RayConnection) -> Iterator[None]:
    # as raysweep's jobs do (service/engine/launcher.py): reports reach the controller each 0.5 s
    interval = str(Settings.model_fields["train_poll_interval_s"].default)
    ray.init(
        address=ray_cluster.gcs_address,
        runtime_env={"env_vars": {"RAY_TRAIN_HEALTH_CHECK_INTERVAL_S": interval}},
    )
    yield
    ray.shutdown()


def fit(storage: Path, name: str, workers: int, config: dict[str, Any]) -> Any:
    return LeanTrainer(  # the Train V2 trainer every trial and final run uses
        train_loop_per_worker,
        train_loop_config=config,
        backend_config=torch_backend(False, 0.0, workers),
        scaling_config=ScalingConfig(num_workers=workers, resources_per_worker={"CPU": 0.5}),
        run_config=RunConfig(
            name=name,
            storage_path=str(storage),
            checkpoint_config=CheckpointConfig(num_to_keep=None),
        ),
    ).fit()


def rows(result: Any) -> list[dict[str, Any]]:
    frame = result.metrics_dataframe.sort_values("epoch")
    return [dict(row) for _, row in frame.iterrows()]


def test_digits_mlp_scales_to_two_workers_and_resumes_exactly_on_ray_train(
    ray_driver: None, tmp_path: Path
) -> None:
    config = train_config("digits_mlp", epochs=2)
    # a checkpoint every 2 epochs changes no trajectory, and Ray Train keeps only epoch 2's
    # report with it; the kit's checkpoint carries epoch 1's, which the driver reads back
    last = rows(fit(tmp_path, "one", 1, {**config, "checkpoint_frequency": 2}))
    stored = stored_reports(str(tmp_path / "one"), "one", "epoch")
    assert [(r.iteration, r.checkpoint_uri is not None) for r in stored] == [(1, False), (2, True)]
    single = [r.metrics for r in stored]
    assert [row["val_accuracy"] for row in last] == [single[-1]["val_accuracy"]]
    double_result = fit(tmp_path, "two", 2, config)
    double = rows(double_result)
    check_one_vs_two_workers("digits_mlp", single, double)
    epoch_1 = next(c for c, m in double_result.best_checkpoints if m["epoch"] == 1)
    resumed = rows(fit(tmp_path, "resumed", 2, {**config, "resume_from": epoch_1.path}))
    check_resumed("digits_mlp", resumed, double)


def test_a_run_whose_snapshot_was_cut_short_resumes_from_its_copy(
    ray_driver: None, tmp_path: Path
) -> None:
    """Ray Train rewrites a run's checkpoint snapshot by emptying the file and writing it: a
    node lost in between leaves it empty, and Train refuses to start the run again
    (CheckpointManagerInitializationError), so the trial could never resume. Every run raysweep
    builds keeps a copy of each report's snapshot and puts it back before it starts."""
    spec = ExperimentSpec.model_validate(minimal_spec(resources={"cpus_per_worker": 0.5}))
    plan = TrialPlan.from_spec(
        spec, epochs=2, num_workers=1, storage_path=str(tmp_path), owner="t", resource_wait_s=0
    )
    build_trainer(plan, trial_config(plan, {}), "cut", None, []).fit()
    run = tmp_path / "cut"
    kept = json.loads((run / TRAIN_SNAPSHOT).read_text())
    assert json.loads((run / SNAPSHOT_COPY).read_text()) == kept  # the last report's
    (run / TRAIN_SNAPSHOT).write_bytes(b"")  # what Train leaves when killed mid-write
    longer = replace(plan, epochs=3)
    build_trainer(longer, trial_config(longer, {}), "cut", None, []).fit()
    # epochs 1 and 2 were not redone: their checkpoints are the ones it had, and one more
    names = [r["checkpoint_dir_name"] for r in kept["checkpoint_results"]]
    after = json.loads((run / TRAIN_SNAPSHOT).read_text())["checkpoint_results"]
    assert [r["metrics"]["epoch"] for r in after] == [1, 2, 3]
    assert [r["checkpoint_dir_name"] for r in after][:2] == names
    assert len([p for p in run.glob("checkpoint_*") if p.is_dir()]) == 3


def test_the_embedded_heads_auth_token_is_readable_by_its_owner_only(
    ray_cluster: RayConnection,
) -> None:
    """Ray writes ~/.ray/auth_token 0644; it opens every job and actor of the cluster. Its temp
    dir (logs with every job's details), which Ray makes 0777, is inside a directory that is its
    owner's alone, and what its processes write is their owner's alone."""
    assert stat.S_IMODE(RAY_AUTH_TOKEN_PATH.stat().st_mode) == 0o600
    assert ray_cluster.temp_dir is not None
    assert stat.S_IMODE(ray_cluster.temp_dir.parent.stat().st_mode) == 0o700
    # (this test process's own driver logs are written with its umask, not Ray's)
    logs = [
        p
        for p in (ray_cluster.temp_dir / "session_latest" / "logs").iterdir()
        if p.is_file() and not p.name.endswith(f"_{os.getpid()}.log")
    ]
    assert logs and all(stat.S_IMODE(p.stat().st_mode) & 0o077 == 0 for p in logs), [
        (p.name, oct(p.stat().st_mode)) for p in logs if p.stat().st_mode & 0o077
    ]
