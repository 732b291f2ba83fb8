"""The UI's read models through a real server: downsampled curves, the metric's history, ASHA
rungs, configs, the changes since a cursor, checkpoints, and who may read them."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import httpx
import numpy as np
import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from devkit.demo import seed_sweep
from raysweep.lifecycle import TrialState
from service.api.view_slots import ViewSlots
from service.db.models.sweeps import ResultRow, TrialRow
from service.engine.recorder import Recorder
from service.usecases.decisions import asha_cutoff, milestones, percentile
from service.usecases.history_view import edf
from service.usecases.recording import ResultStore
from service.usecases.reports import ResultReported, TrialStarted
from service.usecases.views import downsample
from tests.conftest import BOTH_BACKENDS, InProcessServer, ServerProcess, minimal_spec


@pytest.fixture
def sweep(db: sessionmaker[Session]) -> str:
    return seed_sweep(db, trials=30, max_t=27, running=3)


def trials_by_id(db: sessionmaker[Session], experiment_id: str) -> dict[int, TrialRow]:
    with db.begin() as session:
        rows = session.scalars(select(TrialRow).where(TrialRow.experiment_id == experiment_id))
        return {row.id: row for row in rows}


def metric_at(db: sessionmaker[Session], trial_id: int) -> dict[int, float]:
    with db.begin() as session:
        rows = session.scalars(select(ResultRow).where(ResultRow.trial_id == trial_id))
        return {row.iteration: row.metrics["val_accuracy"] for row in rows}


@BOTH_BACKENDS  # the metric is extracted from JSON by the database
def test_curves_send_running_best_and_spread_trials_downsampled(
    server: ServerProcess, db: sessionmaker[Session], sweep: str
) -> None:
    with server.client() as client:
        body = client.get(
            f"/api/v1/experiments/{sweep}/curves", params={"max_trials": 12, "max_points": 5}
        ).json()
    trials = trials_by_id(db, sweep)
    assert body["total_trials"] == 30 and len(body["series"]) == 12
    drawn = {series["trial_id"]: series for series in body["series"]}
    running = {t.id for t in trials.values() if t.state == "running"}
    best = max(trials.values(), key=lambda t: t.best_metric or -1)
    assert running <= drawn.keys() and best.id in drawn
    for trial_id, series in drawn.items():
        stored = metric_at(db, trial_id)
        points = series["points"]
        assert 1 <= len(points) <= 5
        # every point is a stored value, and the last stored one is always kept
        assert all(stored[x] == pytest.approx(y) for x, y in points)
        assert points[-1][0] == max(stored)
        assert series["state"] == trials[trial_id].state
    with db.begin() as session:
        largest = max(session.scalars(select(ResultRow.id)))
    assert body["cursor"] == largest


@BOTH_BACKENDS  # any reported metric is extracted from JSON by the database, text as none
def test_curves_of_any_reported_metric_and_the_metrics_there_are(
    server: ServerProcess, db: sessionmaker[Session], sweep: str
) -> None:
    with db.begin() as session:  # one result reports text where another reports a number
        oddity = session.scalars(select(ResultRow).order_by(ResultRow.id).limit(1)).one()
        oddity.metrics = {**oddity.metrics, "train_loss": "n/a"}
        odd_trial, odd_iteration = oddity.trial_id, oddity.iteration
    with server.client() as client:
        base = f"/api/v1/experiments/{sweep}/curves"
        default = client.get(base).json()
        assert default["metric"] == "val_accuracy"
        assert default["metrics"] == ["epoch", "train_loss", "val_accuracy"]
        loss = client.get(base, params={"metric": "train_loss", "max_points": 1000}).json()
        unknown = client.get(base, params={"metric": "never_reported"}).json()
        refused = client.get(base, params={"metric": "x') OR 1=1 --"})
    assert loss["metric"] == "train_loss" and len(loss["series"]) == 30
    with db.begin() as session:
        for series in loss["series"]:
            stored = {
                row.iteration: row.metrics["train_loss"]
                for row in session.scalars(
                    select(ResultRow).where(ResultRow.trial_id == series["trial_id"])
                )
            }
            expected = [[i, v] for i, v in sorted(stored.items()) if not isinstance(v, str)]
            assert series["points"] == expected
            if series["trial_id"] == odd_trial:
                assert odd_iteration not in [i for i, _ in series["points"]]
    assert unknown["series"] and all(s["points"] == [] for s in unknown["series"])
    assert refused.status_code == 422 and "metric" in refused.text


def test_rungs_and_trials_tell_the_stored_decisions(
    server: ServerProcess, db: sessionmaker[Session], sweep: str
) -> None:
    with server.client() as client:
        body = client.get(f"/api/v1/experiments/{sweep}/rungs").json()
        trials = trials_by_id(db, sweep)
        decisions = {t: client.get(f"/api/v1/trials/{t}/decisions").json() for t in trials}
        pruned = next(t for t in trials.values() if t.state == "pruned")
        pruned_read = client.get(f"/api/v1/trials/{pruned.id}").json()
    assert body["scheduler"] == "asha" and body["reduction_factor"] == 3
    assert [r["milestone"] for r in body["rungs"]] == [1, 3, 9, 27]
    made = [d for ds in decisions.values() for d in ds]
    for rung in body["rungs"]:
        here = [d for d in made if d["milestone"] == rung["milestone"]]
        assert rung["reached"] == len(here)
        assert rung["continued"] == sum(d["decision"] == "continue" for d in here)
        assert rung["stopped"] == sum(d["decision"] == "stop" for d in here)
        assert rung["completed"] == sum(d["decision"] == "complete" for d in here)
        # the cutoff the latest decision at this rung applied, not one recomputed afterwards
        # (decisions stored together may share a time; a later one saw a larger rung)
        latest = max(here, key=lambda d: (d["decided_at"], d["rung_size"])) if here else None
        assert rung["cutoff"] == (latest["cutoff"] if latest else None)
    assert body["rungs"][0]["stopped"] > 0 and body["rungs"][-1]["completed"] > 0
    for trial_id, trial_decisions in decisions.items():
        for d in trial_decisions:
            # every stored decision agrees with its own cutoff: a pruned trial was below it
            if d["decision"] == "stop":
                assert d["value"] < d["cutoff"]
            elif d["decision"] == "continue" and d["cutoff"] is not None:
                assert d["value"] >= d["cutoff"]
            assert 1 <= d["rank"] <= d["rung_size"]
        states = [d["decision"] for d in trial_decisions]
        assert ("stop" in states) == (trials[trial_id].state == "pruned")
    stop = decisions[pruned.id][-1]
    line = (
        f"pruned at epoch {stop['milestone']}: val_accuracy {stop['value']:.4g} < cutoff "
        f"{stop['cutoff']:.4g}, rank {stop['rank']} of {stop['rung_size']}"
    )
    assert pruned_read["early_stopping"] == stop["reason"] == line


def test_rungs_are_empty_without_early_stopping(
    server: ServerProcess, db: sessionmaker[Session]
) -> None:
    plain = seed_sweep(db, trials=3, max_t=4, asha=False, running=0)
    with server.client() as client:
        body = client.get(f"/api/v1/experiments/{plain}/rungs").json()
    assert body == {"scheduler": "none", "reduction_factor": None, "rungs": []}


@BOTH_BACKENDS  # the metric is extracted from JSON by the database
def test_configs_list_best_first_with_one_value_per_param(
    server: ServerProcess, db: sessionmaker[Session], sweep: str
) -> None:
    with server.client() as client:
        body = client.get(f"/api/v1/experiments/{sweep}/configs", params={"limit": 7}).json()
    assert body["params"] == ["hidden", "lr", "optimizer"] and body["total_trials"] == 30
    assert len(body["rows"]) == 7
    metrics = [row["metric"] for row in body["rows"]]
    assert metrics == sorted(metrics, reverse=True)  # mode max
    trials = trials_by_id(db, sweep)
    for row in body["rows"]:
        config = trials[row["trial_id"]].config
        assert row["values"] == [config["hidden"], config["lr"], config["optimizer"]]


def test_history_is_the_finished_trials_in_end_order_with_the_best_so_far(
    server: ServerProcess, db: sessionmaker[Session], sweep: str
) -> None:
    with db.begin() as session:  # one infeasible trial with the top value: never the best
        ended = session.scalars(
            select(TrialRow)
            .where(TrialRow.experiment_id == sweep, TrialRow.finished_at.is_not(None))
            .order_by(TrialRow.finished_at, TrialRow.id)
        ).all()
        ended[3].best_metric, ended[3].feasible = 2.0, False
        expected = [(t.id, t.best_metric) for t in ended]
        states = [t.state for t in ended]
    with server.client() as client:
        body = client.get(f"/api/v1/experiments/{sweep}/history").json()
        thinned = client.get(
            f"/api/v1/experiments/{sweep}/history", params={"max_points": 6}
        ).json()
    assert body["metric"] == "val_accuracy" and body["finished_trials"] == len(expected) == 27
    points = body["points"]
    assert [(p["trial_id"], p["value"]) for p in points] == expected
    assert [p["order"] for p in points] == list(range(1, 28))
    # the best so far counts feasible trials that neither failed nor were pruned
    eligible = [
        i != 3 and state not in (TrialState.failed, TrialState.pruned)
        for i, state in enumerate(states)
    ]
    bests, best = [], None
    for (_, value), counts in zip(expected, eligible, strict=True):
        best = value if counts and (best is None or value > best) else best  # mode max
        bests.append(best)
    assert [p["best"] for p in points] == bests
    assert any(not counts for counts in eligible[:3] + eligible[4:])  # the data has such trials
    assert points[3]["feasible"] is False and points[3]["best"] == points[2]["best"]
    assert all(best is None or best < 2.0 for best in bests)
    # thinned: in order, at most 6, each as in the full history, the last improvement kept
    kept = thinned["points"]
    assert thinned["finished_trials"] == 27 and len(kept) == 6
    assert [p["order"] for p in kept] == sorted(p["order"] for p in kept)
    assert all(p == points[p["order"] - 1] for p in kept)
    last_improvement = max(i for i in range(1, 27) if points[i]["best"] != points[i - 1]["best"])
    assert points[last_improvement] in kept
    # the EDF: every finished value but failed and infeasible trials' (thinning the points does
    # not thin it), ascending, each with the fraction of values at or below it
    values = sorted(
        v
        for i, ((_, v), state) in enumerate(zip(expected, states, strict=True))
        if state != "failed" and i != 3
    )
    assert TrialState.failed in states and len(values) < 26
    assert body["edf_trials"] == len(values) and 2.0 not in values
    assert body["edf"] == thinned["edf"]
    assert body["edf"] == [[v, sum(w <= v for w in values) / len(values)] for v in values]


def test_the_edf_of_many_trials_keeps_its_ends_and_evenly_spaced_ranks() -> None:
    values = [float(v % 997) for v in range(5000)]  # ties: each value about five times
    drawn = edf(values)
    ranked = sorted(values)
    assert len(drawn) <= 200 and drawn[0][0] == ranked[0] and drawn[-1] == (ranked[-1], 1.0)
    assert [v for v, _ in drawn] == sorted(v for v, _ in drawn)
    for value, fraction in drawn:
        assert fraction == sum(w <= value for w in values) / len(values)
    assert edf([]) == []


def test_importance_ranks_the_sampled_parameters_from_completed_and_pruned_trials(
    server: ServerProcess, db: sessionmaker[Session], sweep: str
) -> None:
    with server.client() as client:
        ranked = client.get(f"/api/v1/experiments/{sweep}/importance").json()
        fanova = client.get(
            f"/api/v1/experiments/{sweep}/importance", params={"evaluator": "fanova"}
        ).json()
        bad = client.get(f"/api/v1/experiments/{sweep}/importance", params={"evaluator": "shap"})
        missing = client.get("/api/v1/experiments/nope/importance")
    # ASHA stopped most trials early: they are compared at the deepest iteration a quarter of
    # them reached (30 trials: the 8th deepest), each by its value there
    reached = sorted((t.iteration for t in trials_by_id(db, sweep).values()), reverse=True)
    deepest = reached[7]
    for body, evaluator in ((ranked, "ped_anova"), (fanova, "fanova")):
        assert body["evaluator"] == evaluator and body["message"] is None
        assert body["at_iteration"] == deepest and body["metric"] == "val_accuracy"
        assert body["trials_used"] == sum(i >= deepest for i in reached)
        shares = {p["name"]: p["importance"] for p in body["importances"]}
        assert set(shares) == {"hidden", "lr", "optimizer"}
        assert sum(shares.values()) == pytest.approx(1.0)
        assert list(shares.values()) == sorted(shares.values(), reverse=True)
    assert bad.status_code == 422 and "evaluator" in bad.text
    assert missing.status_code == 404


@BOTH_BACKENDS  # the metric is extracted from JSON by the database
def test_updates_return_only_what_is_newer_than_the_cursor(
    server: ServerProcess, db: sessionmaker[Session], sweep: str
) -> None:
    url = f"/api/v1/experiments/{sweep}/updates"
    with server.client() as client:
        cursor = client.get(f"/api/v1/experiments/{sweep}/curves").json()["cursor"]
        quiet = client.get(url, params={"after": cursor}).json()
        assert quiet["results"] == [] and quiet["cursor"] == cursor and not quiet["more"]
        assert [e["kind"] for e in quiet["events"]] == ["submitted", "trial_restarted"]
        with db.begin() as session:
            trial = session.scalars(
                select(TrialRow).where(TrialRow.experiment_id == sweep, TrialRow.state == "running")
            ).first()
            assert trial is not None
            for step in (1, 2):
                session.add(
                    ResultRow(
                        trial_id=trial.id,
                        iteration=trial.iteration + step,
                        metrics={"val_accuracy": 0.1 * step},
                    )
                )
            trial_id, iteration = trial.id, trial.iteration
        first = client.get(url, params={"after": cursor, "limit": 1}).json()
        assert first["more"] is True
        assert [(r["trial_id"], r["iteration"], r["value"]) for r in first["results"]] == [
            (trial_id, iteration + 1, pytest.approx(0.1))
        ]
        rest = client.get(url, params={"after": first["cursor"], "events_after": 2}).json()
        assert [r["iteration"] for r in rest["results"]] == [iteration + 2] and not rest["more"]
        assert rest["events"] == [] and rest["experiment"]["id"] == sweep
        again = client.get(url, params={"after": rest["cursor"]}).json()
        assert again["results"] == []


def test_trial_checkpoints_events_filter_and_me(
    server: ServerProcess, db: sessionmaker[Session], sweep: str
) -> None:
    restarted = next(t for t in trials_by_id(db, sweep).values() if t.restarts == 1)
    with server.client() as client:
        checkpoints = client.get(f"/api/v1/trials/{restarted.id}/checkpoints").json()
        assert [c["iteration"] for c in checkpoints] == [restarted.iteration]
        assert checkpoints[0]["deleted"] is False
        events = client.get(
            f"/api/v1/experiments/{sweep}/events", params={"trial": restarted.id}
        ).json()
        assert [e["kind"] for e in events["items"]] == ["trial_restarted"]
        assert client.get("/api/v1/trials/999999/checkpoints").status_code == 404
        me = client.get("/api/v1/me").json()
        assert me["name"] == "admin" and me["role"] == "admin" and "token" not in me


def test_view_routes_need_a_token_and_viewers_may_read(server: ServerProcess, sweep: str) -> None:
    viewer = server.create_token("reader", "viewer")
    paths = ["curves", "history", "rungs", "configs", "importance", "updates"]
    for path in paths:
        url = f"{server.url}/api/v1/experiments/{sweep}/{path}"
        with server.client("rsw_wrong") as wrong:
            assert wrong.get(url).status_code == 401
        with server.client(viewer) as client:
            assert client.get(url).status_code == 200
    with server.client() as client:
        assert client.get("/api/v1/experiments/nope/rungs").status_code == 404
        bad = client.get(f"/api/v1/experiments/{sweep}/curves", params={"max_points": 1})
        assert bad.status_code == 422 and "max_points" in bad.text


def test_helpers_match_ray_and_keep_curve_ends() -> None:
    assert milestones(1, 3, 27) == [1, 3, 9, 27]
    assert milestones(2, 2, 20) == [2, 4, 8, 16]
    values = [0.3, 0.1, 0.9, 0.5, 0.7]
    assert percentile(values, 40) == pytest.approx(np.percentile(values, 40))
    assert asha_cutoff(values, 4, "min") == pytest.approx(np.percentile(values, 25))
    assert asha_cutoff([], 2, "max") is None
    points = [(i, float(i)) for i in range(1, 101)]
    kept = downsample(points, 10)
    assert len(kept) <= 10 and kept[0] == (1, 1.0) and kept[-1] == (100, 100.0)


@BOTH_BACKENDS  # the metric is extracted from JSON by the database
def test_cached_views_follow_every_result_the_recorder_stores(
    server: ServerProcess, db: sessionmaker[Session]
) -> None:
    """Views are cached until a trial changes; a late result that changes no trial column (a
    re-submitted, older iteration) must still show."""
    with server.client() as client:
        response = client.post("/api/v1/experiments", json=minimal_spec())
        experiment_id = response.json()["id"]
        recorder = Recorder(ResultStore(experiment_id, "val_accuracy", "max").into(db)).start()
        recorder.submit(TrialStarted("t1", {"lr": 0.1}))
        for epoch in (1, 2, 4):
            recorder.submit(ResultReported("t1", epoch, {"val_accuracy": 0.2 * epoch}))
        assert recorder.flush(30)
        url = f"/api/v1/experiments/{experiment_id}"
        # a running sweep shows its best trial so far (the driver records the final one)
        running = client.get(url).json()
        assert running["best_metric"] == pytest.approx(0.8)
        assert running["best_trial"]["tune_trial_id"] == "t1"
        before = client.get(f"{url}/curves").json()["series"][0]["points"]
        rungs_before = client.get(f"{url}/rungs").json()["rungs"]
        assert [x for x, _ in before] == [1, 2, 4]
        recorder.submit(ResultReported("t1", 3, {"val_accuracy": 0.1}))
        assert recorder.close(30)
        after = client.get(f"{url}/curves").json()["series"][0]["points"]
        assert [x for x, _ in after] == [1, 2, 3, 4]
        assert after[2][1] == pytest.approx(0.1)
        assert client.get(f"{url}/rungs").json()["rungs"] == rungs_before  # 3 is no milestone

        # the experiment, a page of its trials and the list are cached reads too
        def listed() -> dict[str, Any]:
            items = client.get("/api/v1/experiments").json()["items"]
            return next(item for item in items if item["id"] == experiment_id)

        assert listed()["best_metric"] == pytest.approx(0.8)
        assert [t["tune_trial_id"] for t in client.get(f"{url}/trials").json()["items"]] == ["t1"]
        recorder = Recorder(ResultStore(experiment_id, "val_accuracy", "max").into(db)).start()
        recorder.submit(TrialStarted("t2", {"lr": 0.2}))
        recorder.submit(ResultReported("t2", 1, {"val_accuracy": 0.9}))
        assert recorder.close(30)
        for read in (client.get(url).json(), listed()):
            assert read["best_metric"] == pytest.approx(0.9)
            assert read["best_trial"]["tune_trial_id"] == "t2"
            assert sum(read["trial_counts"].values()) == 2
        page = client.get(f"{url}/trials").json()
        assert [t["tune_trial_id"] for t in page["items"]] == ["t2", "t1"]
        assert page["total"] == 2
        # a kept answer is gzipped for clients that accept it, and is the same JSON either way
        plain = client.get(url, headers={"Accept-Encoding": "identity"})
        zipped = client.get(url, headers={"Accept-Encoding": "gzip"})
        assert len(plain.content) >= 1024  # the middleware's threshold: below it, never gzipped
        assert "content-encoding" not in plain.headers
        assert zipped.headers["content-encoding"] == "gzip"
        assert zipped.headers["vary"] == "Accept-Encoding, Authorization"  # kept per token
        assert plain.json() == zipped.json()
        assert plain.headers["x-content-type-options"] == "nosniff"


@BOTH_BACKENDS  # the JSON paths into config differ by backend
def test_trials_are_filtered_and_sorted_by_config_over_all_of_them(
    server: ServerProcess, db: sessionmaker[Session]
) -> None:
    """Filters and config sorts act on every trial, not a page of them: totals count all
    matches, the first page is the first of the whole ordering; bad conditions are 422s."""
    sweep = seed_sweep(db, trials=120, max_t=3, running=0, seed=11)
    trials = list(trials_by_id(db, sweep).values())
    url = f"/api/v1/experiments/{sweep}/trials"

    def listed(client: httpx.Client, **params: Any) -> dict[str, Any]:
        response = client.get(url, params={"limit": 50, **params})
        assert response.status_code == 200, response.text
        body: dict[str, Any] = response.json()
        return body

    with server.client() as client:
        sgd = listed(client, where="optimizer=sgd")
        assert sgd["total"] == sum(t.config["optimizer"] == "sgd" for t in trials) > 50
        assert {t["config"]["optimizer"] for t in sgd["items"]} == {"sgd"}
        both = listed(client, where=["lr>0.01", "optimizer=adam"])
        expected = [t for t in trials if t.config["lr"] > 0.01 and t.config["optimizer"] == "adam"]
        assert both["total"] == len(expected) > 0
        wide = listed(client, where=["config.hidden >= 100", "hidden<200", "best_metric>0.5"])
        assert wide["total"] == sum(
            100 <= t.config["hidden"] < 200 and (t.best_metric or 0) > 0.5 for t in trials
        )
        assert listed(client, where="optimizer!=adam")["total"] == sgd["total"]
        # a number against text, or text against a number: no match, never a failed query
        assert listed(client, where="optimizer>1")["total"] == 0
        assert listed(client, where="lr=fast")["total"] == 0
        assert listed(client, where="missing_key=1")["total"] == 0

        by_lr = sorted(t.config["lr"] for t in trials)
        ascending = listed(client, sort="config.lr", order="asc")
        assert [t["config"]["lr"] for t in ascending["items"]] == by_lr[:50]
        descending = listed(client, sort="config.lr", order="desc", offset=50)
        assert [t["config"]["lr"] for t in descending["items"]] == by_lr[::-1][50:100]
        named = listed(client, sort="config.optimizer", order="asc", limit=120)["items"]
        assert [t["config"]["optimizer"] for t in named] == sorted(
            t.config["optimizer"] for t in trials
        )

        bad = client.get(url, params={"where": ["lr>fast", "nonsense", "best_metric=x"]})
        assert bad.status_code == 422
        assert [d["path"] for d in bad.json()["error"]["details"]] == [
            "query.where.0",
            "query.where.1",
            "query.where.2",
        ]
        assert "is not KEY OP VALUE" in bad.json()["error"]["details"][1]["message"]
        too_many = client.get(url, params={"where": [f"lr>{i}" for i in range(17)]})
        assert too_many.status_code == 422
        unsorted = client.get(url, params={"sort": "config.it's"})
        assert unsorted.status_code == 422 and "sort" in unsorted.text


def test_expensive_views_wait_for_a_slot_and_say_busy_past_the_wait(
    db_url: str, tmp_path: Path, sweep: str
) -> None:
    """One slot, held here as a long view would hold it: the next view waits for it, and past
    RAYSWEEP_VIEW_WAIT_S is answered 503 busy with Retry-After (not queued without end, and the
    server stays free for everything else); once the slot frees, the same view answers."""
    env = {"RAYSWEEP_VIEWS_AT_ONCE": "1", "RAYSWEEP_VIEW_WAIT_S": "0.3"}
    running = InProcessServer(tmp_path / "home", db_url, env).start()
    try:
        assert running.uvicorn is not None
        slots: ViewSlots = running.uvicorn.config.app.state.raysweep.view_slots
        with running.client() as client:
            with slots.held():
                busy = client.get(f"/api/v1/experiments/{sweep}/curves")
                other = client.get(f"/api/v1/experiments/{sweep}")  # not a view: no slot
            assert busy.status_code == 503, busy.text
            assert busy.headers["Retry-After"] == "1"
            assert busy.json()["error"]["code"] == "busy"
            assert "RAYSWEEP_VIEW_WAIT_S" in busy.json()["error"]["message"]
            assert other.status_code == 200
            for view in ("curves", "history", "rungs", "configs", "importance", "pareto"):
                answer = client.get(f"/api/v1/experiments/{sweep}/{view}")
                assert answer.status_code == 200, (view, answer.text)
    finally:
        running.stop()


def test_views_waiting_for_a_slot_take_none_of_the_threads_cheap_requests_need(
    db_url: str, tmp_path: Path, sweep: str
) -> None:
    """Two API threads, the one view slot held, four views waiting for it: a cheap read still
    answers (the views wait on threads of their own); then every view answers."""
    env = {
        "RAYSWEEP_VIEWS_AT_ONCE": "1",
        "RAYSWEEP_VIEW_WAIT_S": "60",
        "RAYSWEEP_API_THREADS": "2",
    }
    running = InProcessServer(tmp_path / "home", db_url, env).start()
    answers: list[int] = []
    try:
        assert running.uvicorn is not None
        slots: ViewSlots = running.uvicorn.config.app.state.raysweep.view_slots

        def view(name: str) -> None:
            with running.client() as client:
                answers.append(client.get(f"/api/v1/experiments/{sweep}/{name}").status_code)

        with slots.held():
            waiting = [
                threading.Thread(target=view, args=(name,))
                for name in ("curves", "history", "configs", "rungs")
            ]
            for thread in waiting:
                thread.start()
            time.sleep(0.5)  # all four are waiting for the slot now
            with running.client() as client:
                cheap = client.get(f"/api/v1/experiments/{sweep}", timeout=30)
            assert answers == []  # still waiting: the cheap read did not wait for them
        for thread in waiting:
            thread.join(60)
        assert cheap.status_code == 200
        assert answers == [200, 200, 200, 200]
    finally:
        running.stop()


@BOTH_BACKENDS
def test_a_cached_read_answers_304_to_its_etag_until_what_it_shows_changes(
    server: ServerProcess, db: sessionmaker[Session], sweep: str
) -> None:
    base = f"/api/v1/experiments/{sweep}"
    views = ["curves", "history", "rungs", "configs", "importance", "trials", ""]
    paths = [f"{base}/{view}".rstrip("/") for view in views] + ["/api/v1/experiments"]
    with server.client() as client:
        first = {path: client.get(path) for path in paths}
        for path, answer in first.items():
            etag = answer.headers["etag"]
            assert answer.status_code == 200 and etag.startswith('W/"'), path
            assert answer.headers["cache-control"] == "private, no-cache"
            assert "Authorization" in answer.headers["vary"]
            unchanged = client.get(path, headers={"If-None-Match": etag})
            assert unchanged.status_code == 304 and unchanged.content == b"", path
            assert unchanged.headers["etag"] == etag
            # among others, and in its strong form (a weak comparison, as RFC 9110 says)
            listed = client.get(path, headers={"If-None-Match": f'"other", {etag[2:]}'})
            assert listed.status_code == 304, path
            assert client.get(path, headers={"If-None-Match": '"other"'}).status_code == 200
            assert client.get(path, headers={"If-None-Match": "*"}).status_code == 200
            plain = client.get(path, headers={"If-None-Match": etag, "Accept-Encoding": "identity"})
            assert plain.status_code == 304  # the same JSON, gzipped or not

        with db.begin() as session:
            trial = session.scalars(
                select(TrialRow).where(TrialRow.experiment_id == sweep, TrialRow.state == "running")
            ).first()
            assert trial is not None
            tune_id, iteration = trial.tune_trial_id, trial.iteration
        recorder = Recorder(ResultStore(sweep, "val_accuracy", "max").into(db)).start()
        metrics = {"val_accuracy": 0.999, "training_iteration": iteration + 1}
        recorder.submit(ResultReported(tune_id, iteration + 1, metrics))
        assert recorder.close(30)

        def etag_answer(path: str) -> httpx.Response:
            return client.get(path, headers={"If-None-Match": first[path].headers["etag"]})

        for changed in (f"{base}/curves", f"{base}/configs", f"{base}/trials", base):
            answer = etag_answer(changed)
            assert answer.status_code == 200, changed
            assert answer.headers["etag"] != first[changed].headers["etag"]
        # a running trial's result ends no trial: the history of finished ones is as it was
        assert etag_answer(f"{base}/history").status_code == 304
