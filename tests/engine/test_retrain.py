"""Scheduled retraining end to end on real Ray: a sweep is promoted into version 1 of a model
aliased `production`; a retrain schedule fires (time moved through the clock file) and trains
the champion's config longer, which beats it on the held-out test loss and takes `production`;
a second schedule re-tunes from the previous study's best config and retrains it for one epoch,
which loses and stays the `candidate`, with the comparison recorded."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from service.engine.cluster import RayConnection
from tests.conftest import RAY_TESTS, ServerProcess
from tests.engine.sweeps import ended_sweep, wait_for
from tests.factories import T0, set_time

pytestmark = RAY_TESTS

MODEL = "digits-retrain"
SPEC: dict[str, Any] = {
    "name": "retrain-me",
    "trainer": "digits_mlp",
    "metric": "val_loss",
    "mode": "min",
    "search_space": {
        "lr": {"type": "loguniform", "low": 0.01, "high": 0.05},
        "hidden": {"type": "constant", "value": 32},
    },
    "search": {"algorithm": "random", "num_samples": 1, "seed": 7},
    "early_stopping": {"scheduler": "none", "max_t": 1},
    "resources": {"num_workers": 1, "cpus_per_worker": 0.5},
    "promotion": {"auto": True, "num_workers": 1, "epochs": 2, "model_name": MODEL},
}


@pytest.fixture
def clocked_server(
    db_url: str, tmp_path: Path, ray_cluster: RayConnection
) -> Iterator[tuple[ServerProcess, Path]]:
    clock = tmp_path / "clock"
    set_time(clock, T0)
    process = ServerProcess(
        tmp_path / "home",
        db_url,
        {"RAYSWEEP_RAY_ADDRESS": str(ray_cluster.address), "RAYSWEEP_CLOCK_FILE": str(clock)},
    ).start()
    yield process, clock
    process.stop()


def ended_firing(client: httpx.Client, schedule_id: str) -> dict[str, Any] | None:
    firings = client.get(f"/api/v1/schedules/{schedule_id}/firings").json()["items"]
    ended = [f for f in firings if f["outcome"] in ("promoted", "kept", "failed")]
    return ended[0] if ended else None


def retrain_schedule(client: httpx.Client, name: str, retrain: dict[str, Any]) -> str:
    created = client.post(
        "/api/v1/schedules",
        json={"name": name, "cron": "* * * * *", "kind": "retrain",
              "retrain": {"model": MODEL, **retrain}},
    )  # fmt: skip
    assert created.status_code == 201, created.text
    schedule_id: str = created.json()["id"]
    return schedule_id


@pytest.mark.parametrize("empty_db_url", ["sqlite"], indirect=True)
def test_a_retrain_promotes_when_better_and_refuses_when_worse(
    clocked_server: tuple[ServerProcess, Path],
) -> None:
    server, clock = clocked_server
    with server.client() as client:
        created = client.post("/api/v1/experiments", json=SPEC)
        assert created.status_code == 201, created.text
        sweep_id = created.json()["id"]
        experiment, [trial] = ended_sweep(client, sweep_id, 240, metric="val_loss")
        assert experiment["state"] == "completed", experiment["error"]
        wait_for(
            lambda: client.get(f"/api/v1/models/{MODEL}/versions/1").is_success,
            240,
            "version 1 (the promoted sweep)",
        )
        assert client.put(f"/api/v1/models/{MODEL}/aliases/production", json={"version": 1})
        champion = client.get(f"/api/v1/models/{MODEL}/versions/production").json()

        # better: the champion's config trained for 12 epochs instead of 2
        better = retrain_schedule(client, "longer", {"epochs": 12})
        set_time(clock, T0 + timedelta(minutes=1))
        firing = wait_for(lambda: ended_firing(client, better), 300, "the better retrain")
        assert firing["outcome"] == "promoted", firing["message"]
        assert client.patch(f"/api/v1/schedules/{better}", json={"enabled": False}).is_success
        run = client.get(f"/api/v1/final-runs/{firing['final_run_id']}").json()
        v2 = client.get(f"/api/v1/models/{MODEL}/versions/production").json()

        # worse: re-tuned from the previous study's best config, then one epoch
        worse = retrain_schedule(
            client, "shorter", {"epochs": 1, "retune": {"num_samples": 1, "warm_start_top": 1}}
        )
        set_time(clock, T0 + timedelta(minutes=2))
        refused = wait_for(lambda: ended_firing(client, worse), 360, "the worse retrain")
        assert refused["outcome"] == "kept", refused["message"]
        retune = client.get(f"/api/v1/experiments/{refused['experiment_id']}").json()
        retune_trials = client.get(f"/api/v1/experiments/{retune['id']}/trials").json()["items"]
        refused_run = client.get(f"/api/v1/final-runs/{refused['final_run_id']}").json()
        v3 = client.get(f"/api/v1/models/{MODEL}/versions/candidate").json()
        production = client.get(f"/api/v1/models/{MODEL}/aliases/production").json()
        models = client.get("/api/v1/models").json()

    # the better retrain: the champion's config, retrained from scratch, won on test loss
    assert run["purpose"] == "retrain" and run["state"] == "completed"
    assert run["config"] == champion["config"] and run["epochs"] == 12
    assert run["warm_start_uri"] is None and run["trial_id"] == trial["id"]
    assert v2["version"] == 2 and v2["final_run_id"] == run["id"]
    assert v2["comparison"]["promoted"] is True and v2["comparison"]["champion_version"] == 1
    assert v2["comparison"]["metric"] == "test_loss"
    assert v2["test_metrics"]["test_loss"] < champion["test_metrics"]["test_loss"]
    assert v2["comparison"]["champion"] == champion["test_metrics"]["test_loss"]

    # the worse one: a re-tuning sweep that tried the previous best config first
    assert retune["state"] == "completed" and retune["labels"]["schedule"] == "shorter"
    assert [t["config"]["lr"] for t in retune_trials] == [trial["config"]["lr"]]
    assert refused_run["experiment_id"] == retune["id"] and refused_run["epochs"] == 1
    assert v3["version"] == 3 and v3["comparison"]["promoted"] is False
    assert v3["comparison"]["champion_version"] == 2
    assert v3["test_metrics"]["test_loss"] >= v2["test_metrics"]["test_loss"]
    # production never moved to the loser
    assert production["version"] == 2
    assert [h["version"] for h in production["history"]] == [2, 1]
    assert models == [
        {"name": MODEL, "latest_version": 3, "versions": 3,
         "aliases": {"production": 2, "candidate": 3}}
    ]  # fmt: skip
