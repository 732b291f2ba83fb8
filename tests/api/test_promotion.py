"""Promotion and the model registry through a real server (no Ray): which trials a promote
picks, the 409s, roles, and the registry's reads and aliases."""

from __future__ import annotations

import hashlib
import json
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from pydantic import ValidationError
from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session, sessionmaker

from devkit.demo import seed_sweep
from raysweep.lifecycle import ExperimentState
from service.db.models.registry import (
    FinalRunRow,
    ModelAliasHistoryRow,
    ModelAliasRow,
    ModelDeploymentRow,
)
from service.db.models.sweeps import TrialRow
from service.engine.serving import key_refusal, parse_inputs, serve_config
from service.settings import REPO_ROOT, Settings
from service.usecases.deployments import wanted_applications
from service.usecases.models import register_version
from tests.conftest import (
    BOTH_BACKENDS,
    InProcessServer,
    ServerProcess,
    minimal_spec,
    row_counts,
)
from tests.factories import production_model


def test_promote_picks_the_top_completed_trials_and_refuses_what_it_cannot(
    server: ServerProcess, db: sessionmaker[Session]
) -> None:
    viewer = server.create_token("viewer-p", "viewer")
    running = seed_sweep(db, trials=4, max_t=3, running=2)
    done = seed_sweep(
        db, trials=6, max_t=3, running=0, state=ExperimentState.completed, prune=False
    )
    empty = seed_sweep(
        db, trials=2, max_t=3, running=0, state=ExperimentState.completed, prune=False
    )
    with db.begin() as session:  # no completed trial in "empty"
        session.execute(
            update(TrialRow).where(TrialRow.experiment_id == empty).values(state="failed")
        )
        trials = session.query(TrialRow).where(TrialRow.experiment_id == done).all()
        completed = sorted(
            (t for t in trials if t.state == "completed"),
            key=lambda t: (-t.best_metric, t.iteration, t.id),
        )
    before = row_counts(db)
    with server.client() as client:
        for experiment_id, fragment in (
            (running, "only a sweep that has ended"),
            (empty, "no completed trial"),
        ):
            refused = client.post(f"/api/v1/experiments/{experiment_id}/promote")
            assert refused.status_code == 409 and fragment in refused.json()["error"]["message"]
        bad = client.post(f"/api/v1/experiments/{done}/promote", json={"top_k": 0, "surprise": 1})
        assert bad.status_code == 422
        assert {d["path"] for d in bad.json()["error"]["details"]} >= {"top_k", "surprise"}
    with server.client(viewer) as client:
        assert client.post(f"/api/v1/experiments/{done}/promote").status_code == 403
    assert row_counts(db) == before
    with server.client() as client:
        promoted = client.post(
            f"/api/v1/experiments/{done}/promote", json={"top_k": 2, "num_workers": 8}
        )
        assert promoted.status_code == 201, promoted.text
        runs = promoted.json()["items"]
        assert [r["trial_id"] for r in runs] == [t.id for t in completed[:2]]
        assert [r["rank"] for r in runs] == [1, 2]
        assert {r["state"] for r in runs} == {"queued"} and {r["num_workers"] for r in runs} == {8}
        assert runs[0]["config"]["lr_scaling"] == "sqrt" and runs[0]["epochs"] == 3
        # promoting again adds nothing (200, not 201); top_k 3 adds the third only
        same = client.post(f"/api/v1/experiments/{done}/promote", json={"top_k": 2})
        assert same.status_code == 200 and len(same.json()["items"]) == 2
        third = client.post(f"/api/v1/experiments/{done}/promote", json={"top_k": 3})
        assert third.status_code == 201, third.text
        again = third.json()
        assert [r["trial_id"] for r in again["items"]] == [t.id for t in completed[:3]]
        listed = client.get(f"/api/v1/experiments/{done}/final-runs").json()["items"]
        assert len(listed) == 3
        assert (
            client.get(f"/api/v1/final-runs/{runs[0]['id']}").json()["trial_id"]
            == runs[0]["trial_id"]
        )
        assert client.get(f"/api/v1/final-runs/{runs[0]['id']}/results").json()["items"] == []
        assert client.get("/api/v1/final-runs/999999").status_code == 404
        events = client.get(f"/api/v1/experiments/{done}/events").json()["items"]
        assert [e["kind"] for e in events].count("promoted") == 2

        # cancel: a viewer may not; a queued run is cancelled at once, once; a running one
        # is asked to stop (the controller stops its job: tests/engine/test_promotion.py)
        with server.client(viewer) as as_viewer:
            assert as_viewer.post(f"/api/v1/final-runs/{runs[0]['id']}/cancel").status_code == 403
        with db.begin() as session:  # as the dispatcher leaves it once the job is submitted
            session.execute(
                update(FinalRunRow)
                .where(FinalRunRow.id == runs[1]["id"])
                .values(state="running", job_id="job-1")
            )
        queued = client.post(f"/api/v1/final-runs/{runs[0]['id']}/cancel")
        running = client.post(f"/api/v1/final-runs/{runs[1]['id']}/cancel")
        twice = client.post(f"/api/v1/final-runs/{runs[1]['id']}/cancel")
        ended = client.post(f"/api/v1/final-runs/{runs[0]['id']}/cancel")
        unknown = client.post("/api/v1/final-runs/999999/cancel")
        kinds = [
            e["kind"] for e in client.get(f"/api/v1/experiments/{done}/events").json()["items"]
        ]
    assert queued.status_code == 200 and queued.json()["state"] == "cancelled"
    assert running.json()["state"] == "cancelling" and twice.json()["state"] == "cancelling"
    assert ended.status_code == 409 and "is cancelled" in ended.json()["error"]["message"]
    assert unknown.status_code == 404
    assert (
        kinds.count("final_run_cancelled") == 1 and kinds.count("final_run_cancel_requested") == 1
    )


def test_registry_versions_and_aliases(server: ServerProcess, db: sessionmaker[Session]) -> None:
    done = seed_sweep(
        db, trials=4, max_t=2, running=0, state=ExperimentState.completed, prune=False
    )
    with server.client() as client:
        runs = client.post(f"/api/v1/experiments/{done}/promote", json={"top_k": 2}).json()["items"]
    with db.begin() as session:  # what a finished final run records (the engine test runs one)
        for run in runs:
            row = session.get(FinalRunRow, run["id"])
            assert row is not None
            row.metrics, row.checkpoint_uri = {"val_accuracy": 0.9}, f"/ckpt/{row.id}"
            register_version(session, row, "digits_mlp", {"raysweep": "0.1.0"}, "f" * 64)
    member = server.create_token("member-p", "member")
    viewer = server.create_token("viewer-m", "viewer")
    with server.client(viewer) as client:
        assert client.get("/api/v1/models").json() == [
            {
                "name": "demo",
                "project": "default",
                "latest_version": 2,
                "versions": 2,
                "aliases": {},
            }
        ]
        versions = client.get("/api/v1/models/demo/versions").json()["items"]
        assert [v["version"] for v in versions] == [2, 1]
        assert {v["project"] for v in versions} == {"default"}  # the model page names it
        assert versions[1]["final_run_id"] == runs[0]["id"] and versions[1]["data_fingerprint"]
        assert (
            client.put("/api/v1/models/demo/aliases/prod", json={"version": 1}).status_code == 403
        )
        assert client.get("/api/v1/models/nope/versions").status_code == 404
    with server.client(member) as client:
        assert (
            client.put("/api/v1/models/demo/aliases/prod", json={"version": 1}).status_code == 200
        )
        moved = client.put("/api/v1/models/demo/aliases/prod", json={"version": 2}).json()
        assert moved["version"] == 2
        assert [(h["version"], h["previous_version"]) for h in moved["history"]] == [
            (2, 1),
            (1, None),
        ]
        assert (
            client.put("/api/v1/models/demo/aliases/prod", json={"version": 9}).status_code == 404
        )
        assert client.get("/api/v1/models/demo/versions/prod").json()["version"] == 2
        assert client.get("/api/v1/models/demo/versions/1").json()["aliases"] == []
        assert client.get("/api/v1/models/demo/versions/2").json()["aliases"] == ["prod"]
        assert client.get("/api/v1/models").json()[0]["aliases"] == {"prod": 2}
    with server.client(viewer) as client:  # removing an alias is a member's change
        assert client.delete("/api/v1/models/demo/aliases/prod").status_code == 403
    with server.client(member) as client:
        assert client.delete("/api/v1/models/demo/aliases/prod").status_code == 204
        assert client.get("/api/v1/models/demo/aliases/prod").status_code == 404
        assert client.get("/api/v1/models/demo/versions/2").json()["aliases"] == []
        gone = client.delete("/api/v1/models/demo/aliases/prod")
        assert gone.status_code == 404
        assert gone.json()["error"]["message"] == "model 'demo' has no alias 'prod'"
        # with no alias naming its versions, the sweep can be deleted
        assert client.delete(f"/api/v1/experiments/{done}").status_code == 204


def test_trials_are_promoted_by_their_number_and_lineage_names_it(
    server: ServerProcess, db: sessionmaker[Session]
) -> None:
    """The web UI and the CLI name trials by number (#3), the API keys them by id: a promote
    takes either, and final runs, model versions and the promoted event carry both."""
    seed_sweep(db, trials=3, max_t=2, running=0)  # trial ids now differ from numbers
    done = seed_sweep(
        db, trials=4, max_t=2, running=1, state=ExperimentState.completed, prune=False
    )
    with db.begin() as session:
        trials = session.scalars(
            select(TrialRow).where(TrialRow.experiment_id == done).order_by(TrialRow.number)
        ).all()
        by_number = {t.number: (t.id, t.state) for t in trials}
    completed = [n for n, (_, state) in by_number.items() if state == "completed"]
    unfinished = next(n for n, (_, state) in by_number.items() if state != "completed")
    wanted = completed[-1]
    assert all(trial_id != number for number, (trial_id, _) in by_number.items())
    with server.client() as client:
        url = f"/api/v1/experiments/{done}/promote"
        refused = client.post(url, json={"trial_numbers": [unfinished, 99]})
        assert refused.status_code == 422
        assert {d["path"]: d["message"] for d in refused.json()["error"]["details"]} == {
            "trial_numbers.0": f"trial #{unfinished} is {by_number[unfinished][1]}; only a "
            "completed trial can be promoted",
            "trial_numbers.1": f"no trial #99 in experiment {done}",
        }
        both = client.post(url, json={"trial_numbers": [wanted], "trial_ids": [1]})
        assert both.status_code == 422
        assert both.json()["error"]["details"][0]["message"] == (
            "give one of trial_ids, trial_numbers and pick, not trial_ids and trial_numbers"
        )
        promoted = client.post(url, json={"trial_numbers": [wanted]})
        assert promoted.status_code == 201, promoted.text
        [run] = promoted.json()["items"]
        assert (run["trial_id"], run["trial_number"]) == (by_number[wanted][0], wanted)
        listed = client.get(f"/api/v1/experiments/{done}/final-runs").json()["items"]
        assert [(r["trial_id"], r["trial_number"]) for r in listed] == [
            (by_number[wanted][0], wanted)
        ]
        events = client.get(f"/api/v1/experiments/{done}/events").json()["items"]
        [event] = [e for e in events if e["kind"] == "promoted"]
        assert (
            f"trial #{wanted} (id {by_number[wanted][0]}) as final run {run['id']}"
            in (event["message"])
        )
    with db.begin() as session:  # what a finished final run records
        row = session.get_one(FinalRunRow, run["id"])
        row.metrics, row.checkpoint_uri = {"val_accuracy": 0.9}, "/ckpt/x"
        register_version(session, row, "digits_mlp", {"raysweep": "0.1.0"}, "f" * 64)
    with server.client() as client:
        version = client.get("/api/v1/models/demo/versions/1").json()
        assert (version["trial_id"], version["trial_number"]) == (by_number[wanted][0], wanted)
        assert client.get("/api/v1/models/demo/versions").json()["items"][0]["trial_number"] == (
            wanted
        )


def test_clusters_are_listed_without_tokens_and_specs_must_name_a_final_one(
    server: ServerProcess,
) -> None:
    with server.client() as client:
        assert client.get("/api/v1/clusters").json() == [
            {
                "name": "local",
                "address": "this server's Ray (embedded)",
                "role": "both",
                "max_concurrent_jobs": 1,
                "authenticated": False,
                "projects": [],
            }
        ]
        refused = client.post(
            "/api/v1/experiments", json=minimal_spec(promotion={"cluster": "nope"})
        )
        assert refused.status_code == 422
        assert refused.json()["error"]["details"] == [
            {
                "path": "promotion.cluster",
                "message": "no final cluster named 'nope'; final clusters: local",
            }
        ]
        assert (
            client.post(
                "/api/v1/experiments", json=minimal_spec(promotion={"cluster": "local"})
            ).status_code
            == 201
        )


def test_cluster_tokens_never_leave_the_server(db_url: str, tmp_path: Path) -> None:
    secret = "ray-cluster-secret-123"
    clusters = [
        {"name": "here", "role": "sweep"},
        {"name": "big", "address": "http://big:8265", "role": "final", "token": secret},
    ]
    process = ServerProcess(
        tmp_path / "home",
        db_url,
        {"RAYSWEEP_CONTROLLER": "false", "RAYSWEEP_CLUSTERS": json.dumps(clusters)},
    ).start()
    try:
        with process.client() as client:
            listed = client.get("/api/v1/clusters")
            openapi = client.get("/openapi.json")
        assert [c["authenticated"] for c in listed.json()] == [False, True]
        assert secret not in listed.text and secret not in openapi.text
    finally:
        process.stop()
    assert secret not in process.log_path.read_text()


def readme_clusters_example() -> str:
    """The JSON the README's settings table gives for RAYSWEEP_CLUSTERS, verbatim."""
    row = next(
        line for line in (REPO_ROOT / "README.md").read_text().splitlines()
        if line.startswith("| `RAYSWEEP_CLUSTERS`")
    )  # fmt: skip
    example = re.search(r"`(\[\{.*?\}\])`", row)
    assert example is not None, row
    return example.group(1)


def test_the_readme_clusters_example_starts_a_server_that_sweeps_here(
    db_url: str, tmp_path: Path
) -> None:
    """Naming only a big final cluster keeps this server's own Ray as the sweep cluster."""
    example = readme_clusters_example()
    server = InProcessServer(tmp_path / "home", db_url, {"RAYSWEEP_CLUSTERS": example}).start()
    try:
        with server.client() as client:
            listed = client.get("/api/v1/clusters").json()
            submitted = client.post("/api/v1/experiments", json=minimal_spec())
    finally:
        server.stop()
    assert [(c["name"], c["role"]) for c in listed] == [("local", "sweep"), ("big", "final")]
    assert submitted.status_code == 201, submitted.text


def test_a_cluster_list_that_hides_the_implicit_record_says_which_role_is_missing() -> None:
    clusters = [{"name": "local", "address": "http://big:8265", "role": "final"}]
    with pytest.raises(ValidationError) as refused:
        Settings(clusters=clusters)
    message = str(refused.value)
    assert "no cluster has the sweep role" in message and "'local'" in message


def test_a_deployment_gives_its_key_once_and_keeps_only_its_hash(
    server: ServerProcess, db: sessionmaker[Session]
) -> None:
    production_model(db)
    with server.client() as client:
        made = client.post("/api/v1/models/digits/versions/production/deploy")
        again = client.post("/api/v1/models/digits/versions/1/deploy")
        read = client.get("/api/v1/models/digits/versions/1/deploy")
    assert made.status_code == 202 and again.status_code == 200, (made.text, again.text)
    key = made.json()["key"]
    assert len(key) >= 40
    assert again.json()["key"] is None and read.json()["key"] is None
    assert key not in again.text + read.text
    with db.begin() as session:
        (row,) = session.scalars(select(ModelDeploymentRow)).all()
        assert row.key_sha256 == hashlib.sha256(key.encode()).hexdigest()
    # the Serve application gets the hash, never the key
    ((wanted,), _) = wanted_applications(db, row.cluster)
    config = serve_config([wanted], "127.0.0.1", 8000)
    (app,) = config["applications"]
    assert app["args"]["key_sha256"] == row.key_sha256 and key not in json.dumps(config)


def test_a_models_requests_are_read_as_inputs_or_told_what_is_wrong() -> None:
    assert parse_inputs(b'{"inputs": [[1, 2], [3, 4]]}') == [[1, 2], [3, 4]]
    assert "not JSON" in str(parse_inputs(b"{not json"))
    assert "not JSON" in str(parse_inputs(b"\xff\xfe"))
    for body in (b"[]", b'{"rows": []}', b'{"inputs": 3}', b"null"):
        assert parse_inputs(body) == 'send {"inputs": [...]}: one row per example', body


def test_a_deployed_model_answers_only_to_its_key() -> None:
    digest = hashlib.sha256(b"s3cret-key").hexdigest()
    assert key_refusal("Bearer s3cret-key", digest) is None
    assert key_refusal("bearer s3cret-key", digest) is None
    assert "wrong key" in (key_refusal("Bearer other", digest) or "")
    for header in (None, "", "Bearer", "Basic s3cret-key", "s3cret-key"):
        assert "Authorization: Bearer <key>" in (key_refusal(header, digest) or ""), header
    assert "deploy it again" in (key_refusal("Bearer s3cret-key", None) or "")


@BOTH_BACKENDS
def test_a_deleted_sweeps_deployment_goes_with_it_and_never_serves_a_later_version(
    server: ServerProcess, db: sessionmaker[Session]
) -> None:
    sweep = production_model(db)
    url = "/api/v1/models/digits/versions/1/deploy"

    def deploy(_: int) -> httpx.Response:
        with server.client() as client:
            return client.post(url)

    # racing requests for one version make one deployment, with one key
    with ThreadPoolExecutor(max_workers=20) as pool:
        answers = list(pool.map(deploy, range(20)))
    assert sorted(a.status_code for a in answers) == [200] * 19 + [202], [a.text for a in answers]
    assert len([a for a in answers if a.json()["key"]]) == 1
    with db.begin() as session:
        (first,) = session.scalars(select(ModelDeploymentRow)).all()
        session.execute(delete(ModelAliasRow))  # an alias would hold the sweep back
    with server.client() as client:
        assert client.delete(f"/api/v1/experiments/{sweep}").status_code == 204
    with db.begin() as session:
        row = session.get_one(ModelDeploymentRow, first.id)
        assert row.state == "deleting" and row.model_version_id is None
    # the Deployer removes its application: wanted no more, and seen to be deleting
    apps, deleting = wanted_applications(db, row.cluster)
    assert apps == [] and deleting == [first.id]
    # the same name and number again (the name is still this project's): a deployment of its own
    production_model(db)
    with server.client() as client:
        again = client.post(url)
    assert again.status_code == 202 and again.json()["key"], again.text
    assert again.json()["id"] != first.id


@BOTH_BACKENDS
def test_racing_promotions_and_alias_moves_are_each_one_change_never_a_500(
    server: ServerProcess, db: sessionmaker[Session]
) -> None:
    production_model(db)  # digits v1, and its sweep
    done = seed_sweep(
        db, trials=6, max_t=3, running=0, state=ExperimentState.completed, prune=False
    )

    def post(path_and_body: tuple[str, str, dict[str, Any]]) -> httpx.Response:
        method, path, body = path_and_body
        with server.client() as client:
            return client.request(method, path, json=body)

    promote = ("POST", f"/api/v1/experiments/{done}/promote", {"top_k": 2, "model_name": "race"})
    alias = ("PUT", "/api/v1/models/digits/aliases/staging", {"version": 1})
    with ThreadPoolExecutor(max_workers=20) as pool:
        promoted = list(pool.map(post, [promote] * 20))
        moved = list(pool.map(post, [alias] * 20))
    assert sorted(r.status_code for r in promoted) == [200] * 19 + [201], promoted[0].text
    assert all(r.status_code == 200 for r in moved), [r.text for r in moved]
    with db.begin() as session:
        runs = session.scalars(select(FinalRunRow).where(FinalRunRow.experiment_id == done)).all()
        assert len(runs) == 2  # one promotion, however many asked at once
        (staging,) = session.scalars(
            select(ModelAliasRow).where(ModelAliasRow.alias == "staging")
        ).all()
        assert staging.version == 1
        history = session.scalars(
            select(ModelAliasHistoryRow)
            .where(ModelAliasHistoryRow.alias == "staging")
            .order_by(ModelAliasHistoryRow.id)
        ).all()
    # every move is in the history, the first made it, the others found it there
    assert len(history) == 20
    assert [h.previous_version for h in history] == [None] + [1] * 19


def test_a_projects_own_sweep_cluster_is_listed_with_the_callers_projects_alone(
    db_url: str, tmp_path: Path
) -> None:
    clusters = [
        {"name": "shared", "role": "both"},
        {"name": "teams", "address": "http://t:8265", "role": "sweep", "projects": ["a", "b"]},
    ]
    server = InProcessServer(
        tmp_path / "home", db_url, {"RAYSWEEP_CLUSTERS": json.dumps(clusters)}
    ).start()
    try:
        with server.client() as admin:
            for name in ("a", "b"):
                assert admin.post("/api/v1/projects", json={"name": name}).status_code == 201
            as_admin = admin.get("/api/v1/clusters").json()
        with server.client(server.create_token("m", "member", project="a")) as member:
            as_member = member.get("/api/v1/clusters").json()
    finally:
        server.stop()
    assert [(c["name"], c["projects"]) for c in as_admin] == [("shared", []), ("teams", ["a", "b"])]
    assert [(c["name"], c["projects"]) for c in as_member] == [("shared", []), ("teams", ["a"])]
