"""Population-based training on real Ray, through the server: a population of 2-worker DDP-style
trials (user code, torch-free) exploits at every step, paused and resumed mid-sweep, its resumed
driver SIGKILLed and resubmitted, then extended by two epochs; its best trial is then promoted
and the final run replays its schedule.

The trainer's state is one number per rank, ``weight``, kept in a file of each rank's own in
every checkpoint: each epoch adds the config's ``lr`` to it, and the loss is 1 / (1 + weight).
So what a trial trained from is visible in its results: after an exploit at epoch m its next
epoch's weight is the source trial's weight at m plus its new lr. A copy that missed a rank's
file fails that rank (it reads its own file on resume)."""

from __future__ import annotations

import math
from typing import Any

from devkit.harness import kill
from service.engine.cluster import RayConnection
from tests.conftest import RAY_TESTS, ServerProcess
from tests.engine.sweeps import (
    all_pages,
    driver_pid,
    ended_sweep,
    experiment_state,
    upload_code,
    wait_for,
)
from tests.factories import submit_spec

pytestmark = RAY_TESTS

PBT_TRAINER = """
import json
import os
import tempfile
import time

import ray.train


def train_loop(config: dict) -> None:
    rank = ray.train.get_context().get_world_rank()
    weight, start = 0.0, 1
    if checkpoint := ray.train.get_checkpoint():
        with checkpoint.as_directory() as directory:
            with open(os.path.join(directory, f"rank-{rank}.json")) as file:
                state = json.load(file)
        weight, start = state["weight"], state["epoch"] + 1
    for epoch in range(start, config["epochs"] + 1):
        time.sleep(1.0)  # the pause lands while steps are left
        weight += config["lr"]
        metrics = {"epoch": epoch, "weight": weight, "loss": 1.0 / (1.0 + weight)}
        with tempfile.TemporaryDirectory() as directory:
            with open(os.path.join(directory, f"rank-{rank}.json"), "w") as file:
                json.dump({"epoch": epoch, "weight": weight}, file)
            ray.train.report(metrics, checkpoint=ray.train.Checkpoint.from_directory(directory))
"""

MAX_T = 6
LOW, HIGH = 0.01, 1.0


def pbt_spec(package: str) -> dict[str, Any]:
    return {
        "name": "scripted-pbt",
        "code": {
            "package": package,
            "entrypoint": "pbt_trainer:train_loop",
            "metrics": {"loss": "min", "epoch": "max", "weight": "max"},
            "process_group": "none",
        },
        "metric": "loss",
        "mode": "min",
        "search_space": {
            "lr": {"type": "loguniform", "low": LOW, "high": HIGH},
            "tag": {"type": "choice", "values": ["a", "b"]},  # not mutated: copied
        },
        "search": {"algorithm": "random", "num_samples": 4, "seed": 5, "max_concurrent_trials": 2},
        "early_stopping": {
            "scheduler": "pbt",
            "max_t": MAX_T - 2,  # extended to MAX_T once it completes
            "pbt": {
                "perturbation_interval": 1,
                "quantile_fraction": 0.25,
                "resample_probability": 0.0,
                "mutate": ["lr"],
            },
        },
        "resources": {"num_workers": 2, "cpus_per_worker": 0.25},
        "fault_tolerance": {"max_failures": 0, "checkpoints_to_keep": 1},
    }


def results_of(client: Any, trial_id: int) -> dict[int, dict[str, Any]]:
    results = all_pages(client, f"/api/v1/trials/{trial_id}/results")
    return {r["iteration"]: r["metrics"] for r in results}


def running_job(client: Any, url: str, not_job: str) -> str | None:
    """The sweep's driver job when it is running and is not ``not_job``."""
    read = client.get(url).json()
    fresh = read["driver_job_id"] not in (None, not_job)
    return str(read["driver_job_id"]) if fresh and read["state"] == "running" else None


def test_a_population_survives_pause_a_killed_driver_and_extension_and_replays_its_winner(
    engine_process: ServerProcess, ray_cluster: RayConnection
) -> None:
    package = upload_code(engine_process, {"pbt_trainer.py": PBT_TRAINER})
    with engine_process.client() as client:
        experiment_id = submit_spec(client, pbt_spec(package))
        url = f"/api/v1/experiments/{experiment_id}"

        def exploited() -> list[dict[str, Any]]:
            sweep = client.get(url).json()
            assert sweep["state"] not in ("failed", "cancelled"), sweep
            return list(client.get(f"{url}/exploits").json())

        # paused once the first step is decided, resumed: the steps go on from the stored ones
        wait_for(exploited, 300, "a first exploit")
        paused_job = client.get(url).json()["driver_job_id"]
        assert client.post(f"{url}/pause").status_code == 200
        wait_for(lambda: experiment_state(client, experiment_id, "paused"), 120, "the pause")
        assert client.post(f"{url}/resume").status_code == 200
        # the resumed driver SIGKILLed once it runs: its successor restores Tune's snapshot and
        # the stored steps (the snapshot may predate an exploit: its config is set again)
        resumed = wait_for(lambda: running_job(client, url, paused_job), 120, "the resumed driver")
        kill(wait_for(lambda: driver_pid(ray_cluster, resumed), 60, "the driver's pid"))
        wait_for(lambda: running_job(client, url, resumed), 120, "the driver to be resubmitted")
        experiment, trials = ended_sweep(client, experiment_id, 420, metric="loss")
        assert experiment["state"] == "completed", experiment
        assert experiment["driver_restarts"] >= 1, experiment
        # extended by two epochs: the trials continue, each with its config after its last
        # exploit, and the population steps on
        extended = client.post(f"{url}/extend", json={"max_t": MAX_T})
        assert extended.status_code == 200, extended.text
        experiment, trials = ended_sweep(client, experiment_id, 420, metric="loss")
        assert experiment["state"] == "completed", experiment
        assert [t["state"] for t in trials] == ["completed"] * 4, trials
        assert [t["iteration"] for t in trials] == [MAX_T] * 4

        exploits = exploited()
        by_id = {t["id"]: t for t in trials}
        results = {t["id"]: results_of(client, t["id"]) for t in trials}
        # one exploit a step (the worst quarter of 4), at each step before max_t, each once; the
        # first max_t was no step (the extension went on to the next one)
        steps = [epoch for epoch in range(1, MAX_T) if epoch != MAX_T - 2]
        assert sorted(e["epoch"] for e in exploits) == steps, exploits
        lr: dict[int, float] = {t["id"]: t["config"]["lr"] for t in trials}
        for exploit in sorted(exploits, key=lambda e: e["epoch"]):
            trial, source, epoch = exploit["trial_id"], exploit["source_trial_id"], exploit["epoch"]
            at_step = {t: results[t][epoch]["loss"] for t in results}
            # the worst trial at the step copied the best one (a quarter of 4 is one each)
            # (two trials may tie: one copied the other, and both their lrs sit at the bound)
            assert at_step[trial] == max(at_step.values()), (exploit, at_step)
            assert at_step[source] == min(at_step.values()), (exploit, at_step)
            assert exploit["value"] == at_step[trial]
            assert exploit["source_value"] == at_step[source]
            assert exploit["old_config"]["lr"] == lr[trial]
            # the source's config, its lr perturbed x0.8 or x1.2 within the space's bounds
            new = exploit["new_config"]
            assert new["tag"] == exploit_source_config(exploits, by_id, source, epoch)["tag"]
            source_lr = lr[source]
            assert any(
                math.isclose(new["lr"], min(HIGH, max(LOW, source_lr * f))) for f in (0.8, 1.2)
            ), (new, source_lr)
            # it trained on from the source's weights (both ranks' files), with its new lr
            after = results[trial][epoch + 1]["weight"]
            assert math.isclose(after, results[source][epoch]["weight"] + new["lr"]), exploit
            lr[trial] = new["lr"]
        # (ended_sweep checked that no trial stored an epoch twice or skipped one); every other
        # epoch added the lr in force then: after the killed driver, and in the extension
        for trial in trials:
            weights, changes = (
                results[trial["id"]],
                {
                    e["epoch"]: e["new_config"]["lr"]
                    for e in exploits
                    if e["trial_id"] == trial["id"]
                },
            )
            in_force = trial["config"]["lr"]
            for epoch in range(2, MAX_T + 1):
                if epoch - 1 in changes:  # went on from another trial's weights (above)
                    in_force = changes[epoch - 1]
                    continue
                grown = weights[epoch]["weight"] - weights[epoch - 1]["weight"]
                assert math.isclose(grown, in_force), (trial["id"], epoch, grown, in_force)
        events = [e["kind"] for e in all_pages(client, f"{url}/events")]
        assert events.count("trial_exploited") == len(steps)

        # the winner's final run replays its schedule: its weight grows by each segment's lr
        best = min(trials, key=lambda t: t["best_metric"])
        promoted = client.post(
            f"{url}/promote",
            # one worker: the replay is what is checked here (each segment starts its group)
            json={"trial_ids": [best["id"]], "num_workers": 1, "epochs": MAX_T},
        )
        assert promoted.status_code == 201, promoted.text
        run = next(r for r in promoted.json()["items"] if r["trial_id"] == best["id"])
        schedule = [
            (e["epoch"], e["new_config"]["lr"]) for e in exploits if e["trial_id"] == best["id"]
        ]
        assert [(c["epoch"], c["config"]["lr"]) for c in run["schedule"] or []] == schedule
        done = wait_for(
            lambda: (
                r
                if (r := client.get(f"/api/v1/final-runs/{run['id']}").json())["state"]
                in ("completed", "failed")
                else None
            ),
            300,
            "the final run",
        )
        assert done["state"] == "completed", done
        epochs = all_pages(client, f"/api/v1/final-runs/{run['id']}/results")
        weights = {e["iteration"]: e["metrics"]["weight"] for e in epochs}
        expected, in_force = 0.0, best["config"]["lr"]
        changes = dict(schedule)
        for epoch in range(1, MAX_T + 1):
            expected += in_force
            assert math.isclose(weights[epoch], expected), (epoch, weights, schedule)
            in_force = changes.get(epoch, in_force)


def exploit_source_config(
    exploits: list[dict[str, Any]], trials: dict[int, dict[str, Any]], source: int, epoch: int
) -> dict[str, Any]:
    """The source trial's config in force at ``epoch``: its last exploit's before, else its own."""
    earlier = [e for e in exploits if e["trial_id"] == source and e["epoch"] < epoch]
    if earlier:
        return dict(max(earlier, key=lambda e: e["epoch"])["new_config"])
    return dict(trials[source]["config"])
