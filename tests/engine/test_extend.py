"""Extending a completed sweep on real Ray, with a changed search space: its completed trials
continue from their checkpoints under their own names and configs (their early epochs are not
run again), the new configuration is sampled from the new space (narrowed choices, an added
parameter) by a searcher told the stored trials that lie in it, and the experiment keeps its
id, trials and results. The sweep is a
multi-objective one with a constraint (loss against size, at most 2,000 parameters) searched
by GP, so the same run proves those on Ray: every objective and the constraint's metric stored
for each trial, infeasible trials marked and never on the front or best. It sweeps the torch-free
scripted trainer, which reports the size digits_mlp would have (orchestration is tested here,
not training)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from service.engine.cluster import RayConnection
from tests.conftest import RAY_TESTS, ServerProcess
from tests.engine.sweeps import (
    all_pages,
    ended_sweep,
    events_of,
    scripted_package,
    wait_released,
)
from tests.factories import submit_spec
from tests.packages import scripted_code

pytestmark = RAY_TESTS


def extend_spec(package: str) -> dict[str, Any]:
    return {
        "name": "scripted-extend",
        "code": scripted_code(
            package, metrics={"loss": "min", "epoch": "max", "model_params": "min"}
        ),
        "objectives": [
            {"metric": "loss", "mode": "min"},
            {"metric": "model_params", "mode": "min"},
        ],
        # hidden 32 is 2,410 parameters (infeasible), hidden 16 is 1,210
        "constraints": [{"metric": "model_params", "max": 2000}],
        "search_space": {
            "lr": {"type": "loguniform", "low": 1e-4, "high": 0.1},
            "optimizer": {"type": "choice", "values": ["adam", "bogus"]},
            "hidden": {"type": "choice", "values": [16, 32]},
            "epoch_s": {"type": "constant", "value": 0.5},
        },
        "search": {
            # GP in the driver: saved with the sweep, told the stored trials by the extension
            "algorithm": "gp",
            "num_samples": 2,
            "max_concurrent_trials": 2,
            "seed": 5,
            # one trial completes (infeasible), one fails (an optimizer the trainer refuses);
            # the extension's space keeps hidden 16 with adam alone: its new one is feasible
            "points_to_evaluate": [
                {"lr": 0.01, "optimizer": "adam", "hidden": 32},
                {"lr": 0.02, "optimizer": "bogus", "hidden": 16},
            ],
        },
        "early_stopping": {"scheduler": "none", "max_t": 2},
        "resources": {"num_workers": 1, "cpus_per_worker": 0.5},
        "fault_tolerance": {"max_failures": 0, "checkpoint_frequency": 1, "checkpoints_to_keep": 4},
    }


def test_an_extended_sweep_continues_its_trials_and_adds_new_ones(
    engine_server: ServerProcess, ray_cluster: RayConnection, tmp_path: Path
) -> None:
    with engine_server.client() as client:
        spec = extend_spec(scripted_package(engine_server))
        experiment_id = submit_spec(client, spec)
        first, old_trials = ended_sweep(client, experiment_id, 300, metric="loss")
        assert first["state"] == "completed", first["error"]
        # the only completed trial breaks the constraint: no best trial, an empty front
        assert first["best_trial"] is None and first["pareto_front"] == []
        first_job = first["driver_job_id"]
        old_results = {
            t["id"]: all_pages(client, f"/api/v1/trials/{t['id']}/results") for t in old_trials
        }

        # after a first look: drop the optimizer that failed, keep the size that fits the
        # constraint, add dropout (the first trials ran without it: 0.0)
        space = {
            **spec["search_space"],
            "optimizer": {"type": "choice", "values": ["adam"]},
            "hidden": {"type": "choice", "values": [16]},
            "dropout": {"type": "uniform", "low": 0.0, "high": 0.3},
        }
        answer = client.post(
            f"/api/v1/experiments/{experiment_id}/extend",
            json={
                "num_samples": 3,
                "max_t": 4,
                "search_space": space,
                "earlier_values": {"dropout": 0.0},
            },
        )
        assert answer.status_code == 200, answer.text
        assert [v["version"] for v in answer.json()["search_spaces"]] == [1, 2]
        experiment, trials = ended_sweep(client, experiment_id, 300, metric="loss")
        pareto = client.get(f"/api/v1/experiments/{experiment_id}/pareto").json()
        results = {t["id"]: all_pages(client, f"/api/v1/trials/{t['id']}/results") for t in trials}
        every_event = events_of(client, experiment_id)
        events = [e["kind"] for e in every_event]
        logs = ray_cluster.jobs.get_job_logs(experiment["driver_job_id"])

    assert experiment["state"] == "completed", experiment["error"]
    assert experiment["id"] == experiment_id and experiment["extensions"] == 1
    assert "extended" in events and events.count("completed") == 2
    assert len(trials) == 3
    by_id = {t["id"]: t for t in trials}
    done = next(t for t in old_trials if t["state"] == "completed")
    failed = next(t for t in old_trials if t["state"] == "failed")
    # the completed trial continued to the new budget: the same trial, its first two epochs the
    # ones stored before (ended_sweep checked every trial's epochs contiguous, none twice)
    assert by_id[done["id"]]["tune_trial_id"] == done["tune_trial_id"]
    assert by_id[done["id"]]["iteration"] == 4 and by_id[done["id"]]["state"] == "completed"
    assert results[done["id"]][:2] == old_results[done["id"]]
    # the continuing trial kept its config (outside the narrowed space) and its version
    assert by_id[done["id"]]["config"] == done["config"]
    assert by_id[done["id"]]["space_version"] == 1
    # the failed one stays failed; its optimizer is outside the new space, so the searcher was
    # not told of it, and the event says so
    assert by_id[failed["id"]] == failed
    extended = next(e for e in every_event if e["kind"] == "extended")
    assert "optimizer changed, hidden changed, dropout added (earlier 0.0)" in extended["message"]
    assert extended["data"]["left_out"] == 1 and extended["data"]["told_to_searcher"] == 0
    new = next(t for t in trials if t["id"] not in old_results)
    assert new["space_version"] == 2
    assert new["config"]["optimizer"] == "adam" and new["config"]["hidden"] == 16
    assert 0.0 <= new["config"]["dropout"] <= 0.3
    assert new["state"] in ("completed", "failed") and new["iteration"] in (0, 4)
    # every reported trial keeps its latest objective values; feasible follows its size
    for trial in trials:
        if not results[trial["id"]]:
            assert trial["feasible"] is None and trial["objective_values"] is None
            continue
        latest = results[trial["id"]][-1]["metrics"]
        assert trial["objective_values"] == {
            "loss": latest["loss"],
            "model_params": latest["model_params"],
        }
        assert latest["model_params"] in (1210, 2410)
        assert trial["feasible"] is (latest["model_params"] <= 2000), trial
    assert by_id[done["id"]]["feasible"] is False
    front = [
        t["id"] for t in trials if t["state"] == "completed" and t["feasible"]
    ]  # one feasible configuration at most: it is the front
    assert front == [new["id"]] and pareto["front"] == front == experiment["pareto_front"]
    assert experiment["best_trial"]["id"] == new["id"]
    on_front = {p["trial_id"]: p["on_front"] for p in pareto["trials"]}
    assert on_front == {new["id"]: True, done["id"]: False}
    assert "extension 1: 1 trial(s) continue, 0 known to the searcher, 1 new" in logs
    # no Train run under another name: nothing was started again from scratch
    storage = Path(engine_server.home) / "storage" / experiment_id / "train"
    ran = {p.name for p in storage.iterdir()}
    assert done["tune_trial_id"] in ran and ran <= {t["tune_trial_id"] for t in trials}
    wait_released(ray_cluster, first_job)
    wait_released(ray_cluster, experiment["driver_job_id"])
