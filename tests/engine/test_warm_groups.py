"""Warm worker groups (service/engine/warm_group.py) on the shared Ray cluster: trials that run
one after another on one DDP group see none of the global state an earlier trial left dirty, a
group whose trial left a thread running is replaced, and the same sweep reports the same
metrics with warm groups as with a cold group per trial (RAYSWEEP_WARM_GROUPS=false)."""

from __future__ import annotations

import zlib
from pathlib import Path, PurePosixPath
from typing import Any

import pytest

from service.db import migrate
from service.engine.cluster import RayConnection
from tests.conftest import RAY_TESTS, InProcessServer, ServerProcess, engine_env
from tests.engine.sweeps import ended_sweep, upload_code, wait_released
from tests.factories import submit_spec

pytestmark = RAY_TESTS

# A DDP trainer that leaves every kind of global state dirty after its trial (torch's default
# dtype and random generator, an environment variable, a module's global list, the working
# directory and sys.path, and on request a thread), and reports, at each epoch, what it found at
# its start: among it a draw from torch's generator before the trial seeds it (a fresh process's
# state differs from one process to the next), then trains a seeded model.
DIRTY_TRAINER = """
import os
import sys
import tempfile
import threading
import time
import zlib

import ray.train
import ray.train.torch
import torch

import grown


def train_loop(config):
    found = {
        "worker_pid": float(os.getpid()),
        "dtype64": float(torch.get_default_dtype() == torch.float64),
        "env_set": float("RAYSWEEP_TEST_DIRTY" in os.environ),
        "list_len": float(len(grown.ITEMS)),
        "leaked_threads": float(sum(t.name == "leaked" for t in threading.enumerate())),
        "cwd_root": float(os.getcwd() == "/"),
        "path_grown": float("/nonexistent-dirty" in sys.path),
        "resumed": float(ray.train.get_checkpoint() is not None),
        "named": float(zlib.crc32(ray.train.get_context().get_experiment_name().encode())),
        "draw": torch.rand(1).item(),
    }
    torch.manual_seed(config["seed"])  # a seeded model: the same with warm groups or cold
    model = ray.train.torch.prepare_model(torch.nn.Linear(4, 1))
    optimizer = torch.optim.SGD(model.parameters(), lr=config["lr"])
    inputs, targets = torch.ones(8, 4), torch.zeros(8, 1)
    for epoch in range(1, config["epochs"] + 1):
        loss = (model(inputs) - targets).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        with tempfile.TemporaryDirectory() as directory:
            saved = None
            if ray.train.get_context().get_world_rank() == 0:
                torch.save({"epoch": epoch}, os.path.join(directory, "state.pt"))
                saved = ray.train.Checkpoint.from_directory(directory)
            ray.train.report({**found, "epoch": epoch, "loss": loss.item()}, checkpoint=saved)
    torch.set_default_dtype(torch.float64)
    torch.manual_seed(1234)
    os.environ["RAYSWEEP_TEST_DIRTY"] = "1"
    grown.ITEMS.append(len(grown.ITEMS))
    os.chdir("/")
    sys.path.append("/nonexistent-dirty")
    if config["leak_thread"]:
        threading.Thread(target=time.sleep, args=(3600,), name="leaked", daemon=True).start()
"""
FOUND = ("dtype64", "env_set", "list_len", "leaked_threads", "cwd_root", "path_grown", "resumed")


def dirty_spec(package: str, trials: int) -> dict[str, Any]:
    """Up to three trials one at a time: the second leaves a thread running."""
    points = [
        {"lr": 0.1, "leak_thread": False},
        {"lr": 0.2, "leak_thread": True},
        {"lr": 0.3, "leak_thread": False},
    ]
    return {
        "name": "dirty-trials",
        "code": {
            "package": package,
            "entrypoint": "dirty:train_loop",
            "metrics": {"loss": "min", "epoch": "max"},
        },
        "metric": "loss",
        "mode": "min",
        "search_space": {
            "lr": {"type": "choice", "values": [0.1, 0.2, 0.3]},
            "leak_thread": {"type": "choice", "values": [False, True]},
        },
        "search": {
            "algorithm": "random",
            "num_samples": trials,
            "max_concurrent_trials": 1,
            "seed": 7,
            "points_to_evaluate": points[:trials],
        },
        "early_stopping": {"scheduler": "none", "max_t": 2},
        "resources": {"num_workers": 2, "cpus_per_worker": 0.5},
    }


def run_sweep(
    server: ServerProcess, ray_cluster: RayConnection, trials: int
) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """The dirty sweep of ``trials`` trials; each with its results, in the order they ran."""
    package = upload_code(server, {"dirty.py": DIRTY_TRAINER, "grown.py": "ITEMS = []\n"})
    with server.client() as client:
        experiment_id = submit_spec(client, dirty_spec(package, trials))
        experiment, trials = ended_sweep(client, experiment_id, 300, metric="loss")
        assert experiment["state"] == "completed", experiment.get("error")
        job = client.get(f"/api/v1/experiments/{experiment_id}").json()["driver_job_id"]
        ran = []
        for trial in sorted(trials, key=lambda t: t["number"]):
            results = client.get(f"/api/v1/trials/{trial['id']}/results").json()["items"]
            ran.append((trial, [r["metrics"] for r in results]))
    wait_released(ray_cluster, job)
    return ran


def test_trials_on_one_warm_group_see_none_of_the_state_earlier_trials_left(
    engine_server: ServerProcess, ray_cluster: RayConnection, tmp_path: Path
) -> None:
    warm = run_sweep(engine_server, ray_cluster, 3)
    assert [t["config"]["leak_thread"] for t, _ in warm] == [False, True, False]
    for trial, results in warm:
        assert trial["state"] == "completed" and [r["epoch"] for r in results] == [1, 2]
        # every trial found the worker as a fresh process has it, and its own empty run
        assert {k: results[0][k] for k in FOUND} == dict.fromkeys(FOUND, 0.0), trial
        # ray.train.get_context() names the trial's own run, where its checkpoints are
        run = PurePosixPath(trial["checkpoint_uri"]).parent.name
        assert results[0]["named"] == float(zlib.crc32(run.encode())), run
    first, second, third = (results[0]["worker_pid"] for _, results in warm)
    assert first == second, "the second trial did not run on the first one's warm group"
    assert third != second, "a group whose trial left a thread running was reused"
    # the first trial left torch's generator seeded anew; the second still drew what the first
    # did: the generator was put back as the group's process had it
    assert warm[0][1][0]["draw"] == warm[1][1][0]["draw"]

    # the same sweep's first two trials with a group per trial: the same configs and, within
    # float tolerance, the same losses (the second trial ran on the first one's warm group)
    # (a database of its own: the warm server's controller would run its sweeps too)
    cold_db = f"sqlite:///{tmp_path / 'cold.db'}"
    migrate.upgrade(cold_db)
    env = {**engine_env(ray_cluster), "RAYSWEEP_WARM_GROUPS": "false"}
    cold_server = InProcessServer(tmp_path / "cold-home", cold_db, env, controller=True).start()
    try:
        cold = run_sweep(cold_server, ray_cluster, 2)
    finally:
        cold_server.stop()
    assert [t["config"] for t, _ in cold] == [t["config"] for t, _ in warm[:2]]
    assert len({results[0]["worker_pid"] for _, results in cold}) == 2
    for (_, warm_results), (_, cold_results) in zip(warm[:2], cold, strict=True):
        assert [r["loss"] for r in warm_results] == pytest.approx(
            [r["loss"] for r in cold_results], rel=1e-6
        )
