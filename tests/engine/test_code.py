"""User code end to end through REST: the README's example package is uploaded, swept on real
Ray (as the job's working_dir; the server never imports it), and a package whose function
cannot be loaded fails the sweep on its first trial instead of burning every trial; Ray's own
Fashion-MNIST example, ported, sweeps as written; Ray Data datasets reach the workers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyarrow
import pyarrow.parquet
import pytest

from raysweep.client import pack_directory
from raysweep.spec_reader import read_mapping
from service.engine.cluster import RayConnection
from tests.api.test_examples import EXAMPLES
from tests.client.test_cli import Cli
from tests.conftest import RAY_TESTS, ServerProcess
from tests.engine.sweeps import (
    ended_sweep,
    events_of,
    final_run_where,
    trials_of,
    upload_code,
    wait_for,
    wait_released,
)
from tests.packages import code_spec, readme_example
from tests.webhook_receiver import webhook_on

pytestmark = RAY_TESTS

ONE_WORKER = {"num_workers": 1, "cpus_per_worker": 0.5}


def test_the_readme_example_package_sweeps_end_to_end(engine_server: ServerProcess) -> None:
    sha = upload_code(engine_server, {"train.py": readme_example()})
    spec = code_spec(
        sha,
        search={"algorithm": "random", "num_samples": 2, "max_concurrent_trials": 2, "seed": 1},
        early_stopping={"scheduler": "none", "max_t": 3},
        resources={"num_workers": 2, "cpus_per_worker": 0.4},  # both trials at once
    )
    # a webhook of its project hears the sweep's end, which the driver job writes, signed
    ended = ["sweep.completed", "sweep.failed"]
    with (
        engine_server.client() as client,
        webhook_on(engine_server.url, engine_server.admin_token, events=ended) as receiver,
    ):
        created = client.post("/api/v1/experiments", json=spec)
        assert created.status_code == 201, created.text
        experiment, trials = ended_sweep(client, created.json()["id"], 300, metric="loss")
        assert experiment["state"] == "completed", experiment.get("error")
        (delivered,) = receiver.wait_for("sweep.completed", timeout_s=60)
        assert delivered["data"]["experiment_id"] == experiment["id"]
        assert receiver.deliveries("sweep.failed") == []
        assert len(trials) == 2 and {t["state"] for t in trials} == {"completed"}
        assert {t["config"]["lr"] for t in trials} <= {0.01, 0.05}
        for trial in trials:
            assert trial["iteration"] == 3 and trial["checkpoint_uri"]
            results = client.get(f"/api/v1/trials/{trial['id']}/results").json()["items"]
            losses = [r["metrics"]["loss"] for r in results]
            assert losses[-1] < losses[0], losses  # it trains
        best = min(trials, key=lambda t: t["best_metric"])
        assert experiment["best_trial"]["id"] == best["id"]

        # extended past its budget under the default retention (epoch 1's checkpoint deleted,
        # Ray Train's snapshot rewritten to match): each trial continues from its epoch-3
        # checkpoint, and its iterations run on 1..5 once each
        extended = client.post(f"/api/v1/experiments/{experiment['id']}/extend", json={"max_t": 5})
        assert extended.status_code == 200, extended.text
        experiment, continued = ended_sweep(client, experiment["id"], 300, metric="loss")
        events = events_of(client, experiment["id"])
        assert len(receiver.wait_for("sweep.completed", count=2, timeout_s=60)) == 2
    assert experiment["state"] == "completed", experiment.get("error")
    assert [t["id"] for t in continued] == [t["id"] for t in trials]
    assert all(t["state"] == "completed" and t["iteration"] == 5 for t in continued), continued
    assert all(t["restarts"] == 0 for t in continued)
    assert not [e for e in events if e["kind"] in ("trial_restarted", "trial_failed")], events


# the second imports a package this interpreter lacks (tomli_w) before the one nothing
# installs: its spec's requirements install the first, so the import fails on the second
NEEDS_TWO = "import tomli_w\nimport not_installed_anywhere\n\ndef train_loop(config):\n    pass\n"
# (a function the module lacks, and datasets that cannot be built, are the same CodeLoadError:
# tests/engine/test_trial_errors.py)
BAD_AT_RUNTIME: list[tuple[dict[str, str], str, str, list[str]]] = [
    (
        {"train.py": NEEDS_TWO},
        "train:train_loop",
        "No module named 'not_installed_anywhere'",
        ["tomli-w==1.0.0"],
    ),
]


@pytest.mark.parametrize(("files", "entrypoint", "message", "requirements"), BAD_AT_RUNTIME)
def test_code_that_cannot_load_fails_the_sweep_on_its_first_trial(
    engine_server: ServerProcess,
    files: dict[str, str],
    entrypoint: str,
    message: str,
    requirements: list[str],
) -> None:
    sha = upload_code(engine_server, files)
    spec: dict[str, Any] = code_spec(
        sha,
        entrypoint,
        search={"algorithm": "random", "num_samples": 6, "max_concurrent_trials": 1},
        early_stopping={"scheduler": "none", "max_t": 2},
        resources=ONE_WORKER,
        fault_tolerance={"max_failures": 2},
    )
    spec["code"]["requirements"] = requirements
    with engine_server.client() as client:
        created = client.post("/api/v1/experiments", json=spec)
        assert created.status_code == 201, created.text
        experiment_id = created.json()["id"]
        experiment, _ = ended_sweep(client, experiment_id, 240, metric="loss")
        trials = trials_of(client, experiment_id)
        events = events_of(client, experiment_id)
    assert experiment["state"] == "failed"
    assert (
        message in experiment["error"]
        and "cannot load the training function" in (experiment["error"])
    )
    failed = [t for t in trials if t["state"] == "failed"]
    assert len(failed) == 1 and message in failed[0]["error"]
    assert len(trials) < 6, "the sweep went on after the first trial failed to load its code"
    assert any(e["kind"] == "failed" and message in e["message"] for e in events)


EPOCH_TWO_BUG = """
import ray.train


def train_loop(config):
    import os
    import urllib.error
    import urllib.request

    # what a member's code finds: no database URL, secrets or server home in its environment,
    # and the job's token, which no route but the driver's own takes
    secret = ("RAYSWEEP_DATABASE_URL", "RAYSWEEP_SECRETS_DIR", "RAYSWEEP_HOME")
    seen = [name for name in secret if name in os.environ]
    request = urllib.request.Request(
        os.environ["RAYSWEEP_API_URL"] + "/api/v1/experiments",
        headers={"Authorization": "Bearer " + os.environ["RAYSWEEP_JOB_TOKEN"]},
    )
    try:
        answer = urllib.request.urlopen(request, timeout=30).status
    except urllib.error.HTTPError as error:
        answer = error.code
    print("secrets seen:", seen, "| GET /api/v1/experiments as the job:", answer)
    for epoch in range(1, config["epochs"] + 1):
        print(f"epoch {epoch} starts")
        if epoch == 2:
            raise ValueError(f"bad batch at step {epoch * 17} with lr {config['lr']}")
        ray.train.report({"epoch": epoch, "loss": 1.0 / epoch})
"""


def test_a_bug_every_trial_hits_fails_the_sweep_after_three_with_restarts_counted(
    engine_server: ServerProcess, tmp_path: Path
) -> None:
    sha = upload_code(engine_server, {"train.py": EPOCH_TWO_BUG})
    spec = code_spec(
        sha,
        search_space={"lr": {"type": "loguniform", "low": 0.001, "high": 0.1}},
        search={"algorithm": "random", "num_samples": 8, "max_concurrent_trials": 3, "seed": 2},
        early_stopping={"scheduler": "none", "max_t": 3},
        resources=ONE_WORKER,
        fault_tolerance={"max_failures": 1},  # one restart each, then the trial fails
    )
    hooked = ["sweep.failed", "sweep.completed", "trial.failed"]
    with (
        engine_server.client() as client,
        webhook_on(engine_server.url, engine_server.admin_token, events=hooked) as receiver,
    ):
        created = client.post("/api/v1/experiments", json=spec)
        assert created.status_code == 201, created.text
        experiment_id = created.json()["id"]
        experiment, trials = ended_sweep(client, experiment_id, 300, metric="loss")
        events = events_of(client, experiment_id)
        # the failure is told once, with its reason; trial failures once per sweep per window
        (told,) = receiver.wait_for("sweep.failed", timeout_s=60)
        trial_failures = receiver.wait_for("trial.failed", timeout_s=60)
        # a failed trial's logs: both attempts' lines, the traceback, no database URL
        first_failed = next(t for t in trials if t["state"] == "failed")
        logs = client.get(f"/api/v1/trials/{first_failed['id']}/logs").json()
        cli_logs = Cli(engine_server, tmp_path)("logs", str(first_failed["id"]), "--attempt", "2")
        # and the driver's: why it stopped the sweep, with what Ray forwarded from the trials
        driver = client.get(f"/api/v1/experiments/{experiment_id}/driver-logs").json()
    assert (
        told["data"]["experiment_id"] == experiment_id
        and receiver.deliveries("sweep.completed") == []
    )
    assert len(trial_failures) == 1, trial_failures
    # (CI once saw all 8 fail with fail-fast unmoved: each trial's error is shown should it again)
    errors = [(t["number"], (t["error"] or "")[-300:]) for t in trials]
    # and what the driver counted (it logs each failure's fingerprint, and what turned it off)
    counted = [line["text"] for line in driver["lines"] if "fail-fast" in line["text"]]
    told_error = told["data"]["error"]
    assert "3 trials failed with the same error" in told_error, (errors, counted)
    texts = [line["text"] for line in logs["lines"]]
    assert logs["attempts"] == [1, 2] and logs["ranks"] == [0] and not logs["running"]
    assert texts.count("epoch 1 starts") == 2 and texts.count("epoch 2 starts") == 2, texts
    assert any(text.startswith("ValueError: bad batch at step 34") for text in texts), texts
    assert "secrets seen: [] | GET /api/v1/experiments as the job: 401" in texts, texts
    assert engine_server.db_url not in "\n".join(texts)
    assert cli_logs.returncode == 0 and "a2 r0! ValueError: bad batch" in cli_logs.stdout
    driver_texts = "\n".join(line["text"] for line in driver["lines"])
    assert driver["attempts"] == [1] and driver["ranks"] == [0], driver["attempts"]
    assert "3 trials failed with the same error and none ended otherwise" in driver_texts
    assert engine_server.db_url not in driver_texts
    assert experiment["state"] == "failed"
    assert "3 trials failed with the same error and none ended otherwise" in experiment["error"]
    assert "ValueError: bad batch at step 34 with lr" in experiment["error"]
    failed = [t for t in trials if t["state"] == "failed"]
    assert len(failed) >= 3 and len(trials) < 8, trials  # it stopped: not every trial ran into it
    assert all(t["state"] in ("failed", "cancelled") for t in trials)
    # Ray Train restarted each failed trial's workers once before giving up: counted, and each
    # an event naming the error
    assert all(t["restarts"] == 1 for t in failed), failed
    restarted = [e for e in events if e["kind"] == "trial_restarted"]
    assert sorted(e["trial_id"] for e in restarted) == sorted(t["id"] for t in failed)
    assert all("ValueError: bad batch" in e["message"] for e in restarted), restarted
    assert experiment["best_trial"] is None  # a failed trial is never the best


def test_rays_fashion_mnist_example_ported_sweeps_as_written(engine_server: ServerProcess) -> None:
    """Ray Train's own example, changed only in its data source and its report's epoch
    (examples/fashion_mnist), swept from its example spec: two DDP workers, no checkpoints."""
    with engine_server.client() as client:
        uploaded = client.post(
            "/api/v1/code",
            content=pack_directory(EXAMPLES / "fashion_mnist"),
            headers={"Content-Type": "application/zip"},
        )
        assert uploaded.status_code == 201, uploaded.text
        spec = read_mapping(EXAMPLES / "fashion_mnist.yaml")
        spec["code"]["package"] = uploaded.json()["sha256"]
        # one trial of two epochs at a learning rate that trains: the suite's share of it
        spec["search_space"]["lr"] = {"type": "constant", "value": 0.02}
        spec["search"] = {"algorithm": "random", "num_samples": 1}
        spec["early_stopping"] = {**spec["early_stopping"], "max_t": 2}
        created = client.post("/api/v1/experiments", json=spec)
        assert created.status_code == 201, created.text
        experiment, (trial,) = ended_sweep(client, created.json()["id"], 300, metric="accuracy")
        results = client.get(f"/api/v1/trials/{trial['id']}/results").json()["items"]
    assert experiment["state"] == "completed", experiment.get("error")
    assert trial["state"] == "completed" and trial["iteration"] == 2
    assert [r["metrics"]["epoch"] for r in results] == [1, 2]
    # ten classes: chance is 0.1; the generated set is learnt within two epochs
    assert results[-1]["metrics"]["accuracy"] > 0.5, results
    assert experiment["best_metric"] == max(r["metrics"]["accuracy"] for r in results)


DATASET_CODE = {
    "data.py": (
        "import ray.data\n\n\ndef numbers():\n"
        "    return ray.data.from_items([{'x': float(i)} for i in range(48)])\n"
    ),
    "train.py": """
import json
import os
import tempfile

import ray.train


def train_loop(config):
    numbers = ray.train.get_dataset_shard("numbers")
    table = ray.train.get_dataset_shard("table")
    rank = ray.train.get_context().get_world_rank()
    for epoch in range(1, config["epochs"] + 1):
        rows = sum(len(batch["x"]) for batch in numbers.iter_batches(batch_size=8))
        table_rows = sum(len(batch["value"]) for batch in table.iter_batches(batch_size=4))
        metrics = {"epoch": epoch, "rows": rows, "table_rows": table_rows, "loss": 1.0 / epoch}
        with tempfile.TemporaryDirectory() as directory:
            saved = None
            if rank == 0:
                with open(os.path.join(directory, "state.json"), "w") as file:
                    json.dump(metrics, file)
                saved = ray.train.Checkpoint.from_directory(directory)
            ray.train.report(metrics, checkpoint=saved)
""",
}


def test_ray_data_datasets_reach_each_worker_as_its_shard_in_trials_and_final_runs(
    engine_server: ServerProcess, ray_cluster: RayConnection, tmp_path: Path
) -> None:
    """``code.datasets``: one dataset a function of the package builds, one read from a Parquet
    file; Ray Train splits each over the two workers, every epoch. The sweep's trial is then
    promoted: its final run imports the package's function and entrypoint as the trial did (a
    final run of user code, registered as a model version)."""
    table = tmp_path / "table.parquet"
    pyarrow.parquet.write_table(pyarrow.table({"value": list(range(10))}), table)
    sha = upload_code(engine_server, DATASET_CODE)
    spec = code_spec(
        sha,
        search={"algorithm": "random", "num_samples": 1},
        early_stopping={"scheduler": "none", "max_t": 2},
        # Ray Data's tasks run beside the group, on CPUs it leaves free
        resources={"num_workers": 2, "cpus_per_worker": 0.25},
    )
    spec["code"] = {
        **spec["code"],
        "process_group": "none",
        "metrics": {"loss": "min", "epoch": "max", "rows": "max", "table_rows": "max"},
        "datasets": {"numbers": {"function": "data:numbers"}, "table": {"path": str(table)}},
    }
    with engine_server.client() as client:
        created = client.post("/api/v1/experiments", json=spec)
        assert created.status_code == 201, created.text
        experiment, (trial,) = ended_sweep(client, created.json()["id"], 300, metric="loss")
        results = client.get(f"/api/v1/trials/{trial['id']}/results").json()["items"]
        assert experiment["state"] == "completed", experiment.get("error")
        promoted = client.post(
            f"/api/v1/experiments/{experiment['id']}/promote", json={"num_workers": 2}
        )
        assert promoted.status_code == 201, promoted.text
        final = wait_for(
            lambda: final_run_where(
                client, experiment["id"], lambda r: r["state"] in ("completed", "failed")
            ),
            300,
            "the final run to end",
        )
        final_results = client.get(f"/api/v1/final-runs/{final['id']}/results").json()["items"]
        version = client.get(f"/api/v1/models/{spec['name']}/versions/1")
    # what rank 0 reported: its half of each dataset, in each of the two epochs
    assert [(r["metrics"]["rows"], r["metrics"]["table_rows"]) for r in results] == [(24, 5)] * 2
    assert final["state"] == "completed", final["error"]
    assert [(r["metrics"]["rows"], r["metrics"]["table_rows"]) for r in final_results] == [
        (24, 5)
    ] * 2
    assert version.status_code == 200 and version.json()["final_run_id"] == final["id"]
    # neither job left anything in Ray (Ray Data's coordinator and tasks included)
    for job in (experiment["driver_job_id"], final["job_id"]):
        wait_released(ray_cluster, job)
