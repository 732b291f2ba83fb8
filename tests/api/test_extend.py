"""Extending a sweep through REST, without Ray: who may, when, what a bad extension is told, and
what a good one changes (the run itself: tests/engine/test_extend.py)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session, sessionmaker

from devkit.demo import seed_sweep
from raysweep.lifecycle import ExperimentState, TrialState
from raysweep.spec import ExperimentSpec
from service.db.models.sweeps import CheckpointRow, ExperimentRow, TrialRow
from service.usecases.extension import sweep_history
from tests.conftest import ServerProcess, row_counts


def extend(server: ServerProcess, experiment_id: str, **body: Any) -> Any:
    with server.client() as client:
        return client.post(f"/api/v1/experiments/{experiment_id}/extend", json=body)


def test_a_completed_sweep_is_extended_in_place_and_its_history_is_what_the_searcher_gets(
    server: ServerProcess, db: sessionmaker[Session]
) -> None:
    sweep = seed_sweep(db, trials=10, max_t=9, running=0, state=ExperimentState.completed)
    before = row_counts(db)
    with db.begin() as session:
        completed = set(
            session.scalars(
                select(TrialRow.tune_trial_id).where(
                    TrialRow.experiment_id == sweep, TrialRow.state == TrialState.completed
                )
            )
        )

    answer = extend(server, sweep, num_samples=14, max_t=12)

    assert answer.status_code == 200, answer.text
    read = answer.json()
    assert read["id"] == sweep and read["state"] == "queued" and read["extensions"] == 1
    assert read["spec"]["search"]["num_samples"] == 14
    assert read["spec"]["early_stopping"]["max_t"] == 12
    after = row_counts(db)
    assert after["trials"] == before["trials"] and after["trial_results"] == before["trial_results"]
    with server.client() as client:
        events = client.get(f"/api/v1/experiments/{sweep}/events").json()["items"]
    extended = next(e for e in events if e["kind"] == "extended")
    assert "num_samples 8 -> 14" in extended["message"] and "max_t 9 -> 12" in extended["message"]
    with db.begin() as session:
        trials = session.scalars(select(TrialRow).where(TrialRow.experiment_id == sweep)).all()
        spec = ExperimentSpec.model_validate(session.get_one(ExperimentRow, sweep).spec)
        history = sweep_history(session, sweep, spec)
    # every completed trial has budget left (9 < 12): open again, it continues under its name
    assert {name for name, _, _ in history.continuing} == completed
    assert {t.tune_trial_id for t in trials if t.state is TrialState.pending} == completed
    assert all(at == 9 for _, _, at in history.continuing)
    # the pruned and failed ones are told to the searcher, with their sampled params only
    told = [t for t in trials if t.state in (TrialState.pruned, TrialState.failed)]
    assert len(history.evaluated) == len(told) > 0
    assert all(set(e.params) == {"lr", "hidden", "optimizer"} for e in history.evaluated)
    assert {e.state for e in history.evaluated} <= {TrialState.pruned, TrialState.failed}
    assert history.new_samples == 14 - 10
    assert extended["data"] == {
        "extension": 1,
        "continuing": len(completed),
        "new_samples": 4,
        "told_to_searcher": len(history.evaluated),
        "left_out": 0,
        "space_version": 1,
    }


def test_a_bad_extension_names_every_problem_and_changes_nothing(
    server: ServerProcess, db: sessionmaker[Session]
) -> None:
    # as many trials as the spec's num_samples (8): a time budget alone would run nothing
    sweep = seed_sweep(db, trials=8, max_t=6, running=0, state=ExperimentState.completed)
    before = row_counts(db)

    answer = extend(server, sweep, num_samples=8, max_t=3)
    assert answer.status_code == 422
    paths = {d["path"]: d["message"] for d in answer.json()["error"]["details"]}
    assert paths == {
        "num_samples": "must be more than the sweep's 8",
        "max_t": "must be at least the sweep's 6",
    }
    empty = extend(server, sweep)
    assert (
        empty.status_code == 422
        and "give num_samples, max_t, time_budget_s or search_space" in empty.text
    )
    # every trial at the budget and no new configuration: nothing would run
    nothing = extend(server, sweep, time_budget_s=60)
    assert nothing.status_code == 422 and "would run nothing" in nothing.text
    strict = extend(server, sweep, num_samples="12")
    assert strict.status_code == 422 and "num_samples" in strict.text
    assert row_counts(db) == before
    with db.begin() as session:
        row = session.get_one(ExperimentRow, sweep)
        assert row.state is ExperimentState.completed and row.extensions == 0
        assert row.spec["early_stopping"]["max_t"] == 6


def test_only_members_extend_and_only_an_ended_or_paused_sweep(
    server: ServerProcess, db: sessionmaker[Session]
) -> None:
    running = seed_sweep(db, trials=3, max_t=4, running=1)
    answer = extend(server, running, num_samples=20)
    assert answer.status_code == 409
    assert (
        "the sweep is running: only a completed, cancelled or paused sweep can be extended"
        in (answer.json()["error"]["message"])
    )
    finished = seed_sweep(db, trials=3, max_t=4, running=0, state=ExperimentState.completed)
    viewer = server.create_token("reader", "viewer")
    with server.client(token=viewer) as client:
        refused = client.post(f"/api/v1/experiments/{finished}/extend", json={"num_samples": 20})
    assert refused.status_code == 403
    # a finished sweep is extended, never resumed
    with server.client() as client:
        resumed = client.post(f"/api/v1/experiments/{finished}/resume")
    assert resumed.status_code == 409


def test_extending_a_promotion_sweep_puts_its_pruned_trials_back_at_their_rungs(
    server: ServerProcess, db: sessionmaker[Session]
) -> None:
    sweep = seed_sweep(db, trials=8, max_t=9, running=0, state=ExperimentState.completed)
    with db.begin() as session:
        row = session.get_one(ExperimentRow, sweep)
        row.spec = {
            **row.spec,
            "early_stopping": {**row.spec["early_stopping"], "scheduler": "asha_promotion"},
        }
        pruned = set(
            session.scalars(
                select(TrialRow.tune_trial_id).where(
                    TrialRow.experiment_id == sweep, TrialRow.state == TrialState.pruned
                )
            )
        )
    assert pruned

    answer = extend(server, sweep, num_samples=12)

    assert answer.status_code == 200, answer.text
    with db.begin() as session:
        states = dict(
            session.execute(
                select(TrialRow.tune_trial_id, TrialRow.state).where(
                    TrialRow.experiment_id == sweep
                )
            ).all()
        )
    assert {name for name, state in states.items() if state is TrialState.paused} == pruned


def test_a_cancelled_sweeps_interrupted_trials_continue_when_it_is_extended(
    server: ServerProcess, db: sessionmaker[Session]
) -> None:
    sweep = seed_sweep(db, trials=8, max_t=9, running=2, state=ExperimentState.running)
    with server.client() as client:  # no driver runs here: a running sweep's cancel waits
        assert client.post(f"/api/v1/experiments/{sweep}/cancel").status_code == 200
    with db.begin() as session:  # what the driver records when it stops
        row = session.get_one(ExperimentRow, sweep)
        row.state = ExperimentState.cancelled
        interrupted = set()
        for trial in session.scalars(select(TrialRow).where(TrialRow.experiment_id == sweep)):
            if trial.state is TrialState.running:
                trial.state = TrialState.cancelled
                interrupted.add(trial.tune_trial_id)
    assert len(interrupted) == 2

    answer = extend(server, sweep, time_budget_s=600)

    assert answer.status_code == 200, answer.text
    with db.begin() as session:
        history = sweep_history(session, sweep, ExperimentSpec.model_validate(row.spec))
        pending = set(
            session.scalars(
                select(TrialRow.tune_trial_id).where(
                    TrialRow.experiment_id == sweep, TrialRow.state == TrialState.pending
                )
            )
        )
    assert pending == interrupted == {name for name, _, _ in history.continuing}


def test_an_extension_drops_the_convergence_stop_that_ended_the_sweep(
    server: ServerProcess, db: sessionmaker[Session]
) -> None:
    sweep = seed_sweep(db, trials=6, max_t=4, running=0, state=ExperimentState.completed)
    with db.begin() as session:
        row = session.get_one(ExperimentRow, sweep)
        row.spec = {**row.spec, "stop": {"converged": {"min_trials": 5}}}
    answer = extend(server, sweep, num_samples=12)
    assert answer.status_code == 200, answer.text
    # the terminator would judge the same trials again and end the extension at once
    assert answer.json()["spec"]["stop"]["converged"] is None
    with server.client() as client:
        events = client.get(f"/api/v1/experiments/{sweep}/events").json()["items"]
    extended = next(e for e in events if e["kind"] == "extended")
    assert "num_samples 8 -> 12, stop.converged dropped" in extended["message"]


def test_an_extension_that_would_retrain_a_trial_without_a_checkpoint_is_refused_naming_it(
    server: ServerProcess, db: sessionmaker[Session]
) -> None:
    sweep = seed_sweep(db, trials=6, max_t=9, running=0, state=ExperimentState.completed)
    with db.begin() as session:  # code that never checkpoints: no checkpoint kept for trial 2
        trial = session.scalars(
            select(TrialRow).where(
                TrialRow.experiment_id == sweep, TrialRow.state == TrialState.completed
            )
        ).first()
        assert trial is not None
        number = trial.number
        session.execute(
            update(CheckpointRow).where(CheckpointRow.trial_id == trial.id).values(deleted=True)
        )
    before = row_counts(db)

    refused = extend(server, sweep, max_t=12)

    assert refused.status_code == 422, refused.text
    (detail,) = refused.json()["error"]["details"]
    assert f"trial(s) #{number} have trained but saved no checkpoint" in detail["message"]
    assert row_counts(db) == before
    with server.client() as client:
        assert client.get(f"/api/v1/experiments/{sweep}").json()["state"] == "completed"
    # more configurations continue nothing: that extension is fine
    assert extend(server, sweep, num_samples=12).status_code == 200


def test_an_extension_changes_the_search_space_telling_the_searcher_what_lies_in_it(
    server: ServerProcess, db: sessionmaker[Session]
) -> None:
    """Narrow lr, add dropout (the earlier trials ran at 0.0), drop optimizer: a bad new space
    changes nothing; a good one is version 2, its searcher hears only the trials inside it."""
    sweep = seed_sweep(db, trials=12, max_t=9, running=0, state=ExperimentState.completed)
    space = {
        "lr": {"type": "loguniform", "low": 1e-3, "high": 1e-1},
        "hidden": {"type": "int", "low": 16, "high": 256},
        "dropout": {"type": "uniform", "low": 0.0, "high": 0.5},
    }
    before = row_counts(db)
    with db.begin() as session:
        stored_spec = session.get_one(ExperimentRow, sweep).spec

    # each problem named, nothing changed: a bound the wrong way round, a parameter the
    # trainer does not take, a missing earlier value, an earlier value for no added parameter
    wrong_way = {**space, "lr": {"type": "loguniform", "low": 1e-1, "high": 1e-3}}
    unknown = {**space, "momentum": {"type": "uniform", "low": 0.8, "high": 0.99}}
    for bad, path in ((wrong_way, "search_space.lr"), (unknown, "search_space.momentum")):
        refused = extend(
            server, sweep, num_samples=16, search_space=bad, earlier_values={"dropout": 0.0}
        )
        assert refused.status_code == 422, refused.text
        assert [d["path"] for d in refused.json()["error"]["details"]] == [path]
    refused = extend(server, sweep, num_samples=16, search_space=space, earlier_values={"depth": 2})
    assert refused.status_code == 422, refused.text
    assert {d["path"] for d in refused.json()["error"]["details"]} == {
        "earlier_values.dropout",
        "earlier_values.depth",
    }
    assert extend(server, sweep, earlier_values={"dropout": 0.0}).status_code == 422
    assert row_counts(db) == before
    with db.begin() as session:
        row = session.get_one(ExperimentRow, sweep)
        assert row.spec == stored_spec and row.search_spaces is None and row.extensions == 0

    answer = extend(  # 0, as a browser's JSON says 0.0: stored as the float parameter's 0.0
        server, sweep, num_samples=16, max_t=12, search_space=space, earlier_values={"dropout": 0}
    )

    assert answer.status_code == 200, answer.text
    read = answer.json()
    assert read["spec"]["search_space"]["lr"]["low"] == 1e-3
    assert "optimizer" not in read["spec"]["search_space"]
    first, second = read["search_spaces"]
    assert (first["version"], first["extension"]) == (1, 0)
    submitted = ExperimentSpec.model_validate(stored_spec).search_space
    assert isinstance(submitted, dict)
    assert first["search_space"] == {n: p.model_dump(mode="json") for n, p in submitted.items()}
    assert (second["version"], second["extension"]) == (2, 1)
    assert second["added"] == {"dropout": 0.0} and second["removed"] == ["optimizer"]
    assert second["changed"] == ["lr"]
    with db.begin() as session:
        trials = session.scalars(select(TrialRow).where(TrialRow.experiment_id == sweep)).all()
        spec = ExperimentSpec.model_validate(session.get_one(ExperimentRow, sweep).spec)
        history = sweep_history(session, sweep, spec)
    ended = [t for t in trials if t.state in (TrialState.pruned, TrialState.failed)]
    inside = [t for t in ended if t.config["lr"] >= 1e-3]
    assert inside and len(inside) < len(ended), "the seed should put trials on both sides"
    # the searcher is told the ones inside, mapped: dropout at its earlier value, no optimizer
    assert sorted(p.params["lr"] for p in history.evaluated) == sorted(
        t.config["lr"] for t in inside
    )
    assert all(set(p.params) == {"lr", "hidden", "dropout"} for p in history.evaluated)
    assert all(p.params["dropout"] == 0.0 for p in history.evaluated)
    assert history.left_out == len(ended) - len(inside)
    # continuing trials keep their configs (optimizer too), with dropout as they had it
    assert history.continuing
    for name, config, _ in history.continuing:
        stored = next(t.config for t in trials if t.tune_trial_id == name)
        assert config == {**stored, "dropout": 0.0}
    with server.client() as client:
        events = client.get(f"/api/v1/experiments/{sweep}/events").json()["items"]
        extended = next(e for e in events if e["kind"] == "extended")
        assert (
            "search space v2: lr changed, dropout added (earlier 0.0), optimizer removed"
            in (extended["message"])
        )
        assert f"{history.left_out} earlier trial(s) outside the new space" in extended["message"]
        assert extended["data"]["left_out"] == history.left_out
        assert extended["data"]["space_version"] == 2
        # every stored trial was sampled from version 1; a filter by version finds them
        listed = client.get(
            f"/api/v1/experiments/{sweep}/trials", params={"where": "space_version=1"}
        ).json()
        assert listed["total"] == len(trials)
        assert {t["space_version"] for t in listed["items"]} == {1}
        assert (
            client.get(
                f"/api/v1/experiments/{sweep}/trials", params={"where": "space_version=2"}
            ).json()["total"]
            == 0
        )
