"""The SDK against a real server process on both databases."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
import yaml
from sqlalchemy.orm import Session, sessionmaker

from devkit.demo import seed_sweep
from raysweep import (
    AuthError,
    Client,
    Conflict,
    ExperimentSpec,
    NotFound,
    RaysweepError,
    SpecError,
    Unreachable,
    WaitTimeout,
    load_model,
)
from raysweep.config import write_config
from raysweep.lifecycle import ExperimentState
from service.db.models.sweeps import ExperimentRow
from tests.conftest import ServerProcess, minimal_spec
from tests.factories import MULTI_OBJECTIVE_TRIALS, multi_spec, record_multi_objective_sweep


@pytest.fixture(autouse=True)
def isolated_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No developer's config file, env token or local admin token leaks into a test."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("RAYSWEEP_HOME", str(tmp_path / "no-home"))
    for name in ("RAYSWEEP_URL", "RAYSWEEP_TOKEN"):
        monkeypatch.delenv(name, raising=False)


def test_submit_a_dict_a_spec_object_and_a_yaml_file(server: ServerProcess, tmp_path: Path) -> None:
    client = Client(server.url, server.admin_token)
    from_dict = client.submit(minimal_spec(name="from-dict"))
    assert from_dict.state == "queued" and from_dict.name == "from-dict"
    spec = ExperimentSpec.model_validate(
        minimal_spec(name="from-object", search_space={"lr": {"type": "constant", "value": 0.1}})
    )
    assert client.submit(spec).spec["search_space"]["lr"]["value"] == 0.1
    path = tmp_path / "sweep.yaml"
    path.write_text(yaml.safe_dump(minimal_spec(name="from-yaml", labels={"team": "nlp"})))
    from_file = client.submit(path)
    assert from_file.labels == {"team": "nlp"}
    assert [e.name for e in client.experiments()] == ["from-yaml", "from-object", "from-dict"]
    assert [e.name for e in client.experiments(label={"team": "nlp"})] == ["from-yaml"]
    assert [e.name for e in client.experiments(state="running")] == []


def test_a_bad_spec_raises_spec_error_listing_every_problem(server: ServerProcess) -> None:
    client = Client(server.url, server.admin_token)
    bad = minimal_spec(mode="sideways", search={"num_samples": 0})
    with pytest.raises(SpecError) as caught:
        client.submit(bad)
    paths = {problem.path for problem in caught.value.problems}
    assert {"mode", "search.num_samples"} <= paths
    assert isinstance(caught.value, RaysweepError) and caught.value.status == 422
    assert client.experiments() == []  # nothing stored


def test_auth_not_found_conflict_and_unreachable_errors(
    server: ServerProcess, db: sessionmaker[Session]
) -> None:
    with pytest.raises(AuthError, match="HTTP 401"):
        Client(server.url, "rsw_wrong").experiments()
    viewer = Client(server.url, server.create_token("viewer", "viewer"))
    with pytest.raises(AuthError, match="HTTP 403"):
        viewer.submit(minimal_spec())
    client = Client(server.url, server.admin_token)
    with pytest.raises(NotFound, match="nope"):
        client.experiment("nope")
    finished = client.experiment(
        seed_sweep(db, trials=2, max_t=2, running=0, state=ExperimentState.completed)
    )
    with pytest.raises(Conflict, match="HTTP 409"):
        finished.cancel()
    started = time.monotonic()
    with pytest.raises(Unreachable, match="after 5 attempts"):
        Client("http://127.0.0.1:9", "rsw_x").experiments()
    assert time.monotonic() - started >= 7  # backed off between the read's retries


def test_handle_reads_trials_frames_events_and_controls(
    server: ServerProcess, db: sessionmaker[Session]
) -> None:
    client = Client(server.url, server.admin_token)
    experiment = client.experiment(seed_sweep(db, trials=12, max_t=9, running=2))
    trials = experiment.trials()
    assert len(trials) == 12 and trials[0].best_metric == experiment.best_metric
    assert {t.state for t in experiment.trials(state="running")} == {"running"}
    frame = experiment.trials_frame()
    assert len(frame) == 12 and frame.trial_id.is_unique
    assert {"lr", "hidden", "optimizer", "best_metric", "iteration"} <= set(frame.columns)
    results = experiment.results_frame()
    assert len(results) == sum(t.iteration for t in trials)
    assert {"trial_id", "iteration", "val_accuracy", "train_loss"} <= set(results.columns)
    best = experiment.best_trial()
    assert best is not None and best.id == trials[0].id and best.config == trials[0].config
    kinds = [e.kind for e in experiment.events()]
    assert kinds == ["submitted", "trial_restarted"]
    ranked = experiment.importance("fanova")
    assert ranked.evaluator == "fanova" and ranked.trials_used >= 5
    assert {p.name for p in ranked.importances} == {"lr", "hidden", "optimizer"}
    assert "<table>" in experiment._repr_html_() and experiment.name in experiment._repr_html_()
    assert experiment.set_notes("too few trials").notes == "too few trials"
    assert client.experiment(experiment.id).notes == "too few trials"
    assert experiment.set_notes("").notes is None
    assert experiment.pause().state == "pausing"
    with pytest.raises(Conflict):
        experiment.resume()
    assert experiment.cancel().state == "cancelling"
    assert experiment.refresh().state == "cancelling"


def finish_later(db: sessionmaker[Session], experiment_id: str, after_s: float) -> threading.Thread:
    """Stands in for the driver ending the sweep (the engine tests prove the real one)."""

    def finish() -> None:
        time.sleep(after_s)
        with db.begin() as session:
            session.get_one(ExperimentRow, experiment_id).state = "completed"

    thread = threading.Thread(target=finish, daemon=True)
    thread.start()
    return thread


def test_wait_ends_on_completion_and_on_timeout(
    server: ServerProcess, db: sessionmaker[Session], capsys: pytest.CaptureFixture[str]
) -> None:
    client = Client(server.url, server.admin_token)
    experiment = client.experiment(seed_sweep(db, trials=4, max_t=3, running=1))
    started = time.monotonic()
    with pytest.raises(WaitTimeout, match="still running after 1"):
        experiment.wait(timeout=1, poll_s=0.2)
    assert time.monotonic() - started < 10
    finish_later(db, experiment.id, 1.0).join(0)
    assert experiment.wait(timeout=30, poll_s=0.2).state == "completed"
    assert "digits" not in capsys.readouterr().out  # the bar goes to stderr, not stdout
    assert "completed" in experiment.progress_text()


def test_connection_falls_back_to_env_then_config_file_then_local(
    server: ServerProcess, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "local-home"
    home.mkdir()
    (home / "admin-token").write_text(server.admin_token)
    monkeypatch.setenv("RAYSWEEP_HOME", str(home))
    monkeypatch.setenv("RAYSWEEP_URL", server.url)
    assert "admin-token" in repr(Client())
    assert Client().experiments() == []
    write_config({"url": "http://127.0.0.1:9", "token": "rsw_from_file"})
    # the file's token goes to the file's server only: RAYSWEEP_URL names another one
    assert "admin-token" in repr(Client())
    monkeypatch.setenv("RAYSWEEP_TOKEN", server.admin_token)
    client = Client()
    assert "RAYSWEEP_TOKEN" in repr(client) and client.url == server.url
    assert "rsw_" not in repr(client)  # the secret never shows
    monkeypatch.delenv("RAYSWEEP_URL")
    monkeypatch.delenv("RAYSWEEP_TOKEN")
    from_file = Client()  # the file's url, with its token
    assert from_file.url == "http://127.0.0.1:9" and "config.toml" in repr(from_file)


def test_promote_final_runs_and_the_registry_through_the_sdk(
    server: ServerProcess, db: sessionmaker[Session]
) -> None:
    client = Client(server.url, server.admin_token)
    done = seed_sweep(
        db, trials=4, max_t=2, running=0, state=ExperimentState.completed, prune=False
    )
    experiment = client.experiment(done)
    runs = experiment.promote(top_k=2, num_workers=4)
    assert [r.rank for r in runs] == [1, 2] and {r.num_workers for r in runs} == {4}
    assert [r.id for r in experiment.final_runs()] == [r.id for r in runs]
    assert client.final_run_results(runs[0].id) == []
    with pytest.raises(Conflict, match="only a sweep that has ended"):
        client.experiment(seed_sweep(db, trials=2, max_t=2, running=1)).promote()
    assert client.models() == []
    with pytest.raises(NotFound):
        client.model_version("demo", "prod")
    with pytest.raises(NotFound, match="no model named 'demo'"):
        load_model("demo", "latest", client=client)


def test_a_multi_objective_sweep_through_rest_and_the_sdk(
    server: ServerProcess, db: sessionmaker[Session]
) -> None:
    """The front (REST and SDK), the experiment's pareto_front, infeasible trials marked, and a
    promotion by pick; a spec with both forms is a 422 naming it."""
    _, experiment_id, ids = record_multi_objective_sweep(db, MULTI_OBJECTIVE_TRIALS)
    client = Client(server.url, server.admin_token)
    experiment = client.experiment(experiment_id)
    assert experiment.data.pareto_front == [ids[4], ids[1], ids[0]]
    assert experiment.data.best_trial is not None and experiment.data.best_trial.id == ids[4]
    with server.client() as http:
        # lists carry no front (it is read per experiment)
        listed = http.get("/api/v1/experiments").json()["items"]
        assert [e["pareto_front"] for e in listed] == [None]
        direct = http.get(f"/api/v1/experiments/{experiment_id}/pareto", params={"limit": 4})
        assert direct.status_code == 200 and direct.json()["front"] == [ids[4], ids[1], ids[0]]
        assert len(direct.json()["trials"]) == 4
        assert http.get("/api/v1/experiments/nope/pareto").status_code == 404
        both = http.post(
            "/api/v1/experiments", json={**multi_spec(), "metric": "val_loss", "mode": "min"}
        )
        assert both.status_code == 422
        assert both.json()["error"]["details"] == [
            {"path": "objectives", "message": "give either metric and mode or objectives, not both"}
        ]
    front = experiment.pareto()
    assert front.front == [ids[4], ids[1], ids[0]] and front.completed_trials == 5
    frame = experiment.pareto_frame()
    assert list(frame.trial_id) == [ids[4], ids[1], ids[0], ids[2], ids[3]]
    assert list(frame.on_front) == [True, True, True, False, False]
    assert list(frame.feasible) == [True, True, True, True, False]
    assert list(frame.model_params[:3]) == [20000.0, 5000.0, 1000.0]
    assert {"lr", "dropout", "depth", "optimizer"} <= set(frame.columns)
    # filtered and sorted by config over all trials
    chosen = experiment.trials(where=["dropout>0.025"], sort="config.dropout", order="asc")
    assert [t.id for t in chosen] == ids[3:]
    trials = experiment.trials_frame()
    assert sorted(trials[trials.feasible == False].trial_id) == [ids[3], ids[6]]  # noqa: E712
    with pytest.raises(RaysweepError, match="none of the 3 trial"):
        experiment.promote(pick={"objective": "val_accuracy", "min": {"model_params": 1e6}})
    runs = experiment.promote(
        top_k=1, pick={"objective": "val_accuracy", "max": {"model_params": 6000}}
    )
    assert [r.trial_id for r in runs] == [ids[1]]
