"""Every endpoint through a real server process (uvicorn, real database, real HTTP)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import update
from sqlalchemy.orm import Session, sessionmaker

from devkit.demo import seed_sweep
from raysweep.lifecycle import TrialState
from service.db.models.sweeps import ExperimentRow
from service.engine.recorder import Recorder
from service.usecases import tokens
from service.usecases.recording import ResultStore
from service.usecases.reports import ResultReported, TrialEnded, TrialStarted
from tests.conftest import InProcessServer, ManualClock, ServerProcess, minimal_spec, row_counts
from tests.factories import submit

spec = minimal_spec


def test_submit_stores_a_queued_experiment_with_location_and_event(server: ServerProcess) -> None:
    with server.client() as client:
        response = client.post("/api/v1/experiments", json=spec(labels={"team": "vision"}))
        assert response.status_code == 201
        body = response.json()
        assert body["state"] == "queued"
        assert response.headers["location"] == f"/api/v1/experiments/{body['id']}"
        read = client.get(response.headers["location"]).json()
    assert read["state"] == "queued" and read["trainer"] == "digits_mlp"
    assert read["labels"] == {"team": "vision"} and read["trial_counts"] == {}
    assert read["best_trial"] is None
    # the stored spec carries its search space inline, resolved from the named file
    assert read["spec"]["search_space"]["lr"]["type"] == "loguniform"
    with server.client() as client:
        events = client.get(f"/api/v1/experiments/{body['id']}/events").json()
    assert [e["kind"] for e in events["items"]] == ["submitted"]


def test_list_is_newest_first_filters_by_state_and_label_and_paginates(
    server: ServerProcess,
) -> None:
    with server.client() as client:
        ids = [
            submit(client, name=f"e{i}", labels={"team": "a" if i % 2 else "b"}) for i in range(5)
        ]
        client.post(f"/api/v1/experiments/{ids[0]}/cancel")
        first = client.get("/api/v1/experiments", params={"limit": 2}).json()
        second = client.get("/api/v1/experiments", params={"limit": 2, "offset": 2}).json()
        queued = client.get("/api/v1/experiments", params={"state": "queued"}).json()
        team_a = client.get("/api/v1/experiments", params={"label": "team:a"}).json()
        both = client.get(
            "/api/v1/experiments", params={"label": "team:b", "state": "cancelled"}
        ).json()
        bad = client.get("/api/v1/experiments", params={"label": "nocolon"})
    assert [e["id"] for e in first["items"] + second["items"]] == ids[::-1][:4]
    assert first["total"] == 5 and first["limit"] == 2 and second["offset"] == 2
    assert {e["id"] for e in queued["items"]} == set(ids[1:]) and queued["total"] == 4
    assert {e["id"] for e in team_a["items"]} == {ids[1], ids[3]}
    assert [e["id"] for e in both["items"]] == [ids[0]]
    assert bad.status_code == 422 and bad.json()["error"]["details"][0]["path"] == "query.label.0"


def test_cancel_is_idempotent_and_a_finished_experiment_cannot_be_cancelled(
    server: ServerProcess, db: sessionmaker[Session]
) -> None:
    with server.client() as client:
        queued = submit(client)
        first = client.post(f"/api/v1/experiments/{queued}/cancel")
        again = client.post(f"/api/v1/experiments/{queued}/cancel")
        finished = submit(client)
        with db.begin() as session:
            session.execute(
                update(ExperimentRow).where(ExperimentRow.id == finished).values(state="completed")
            )
        conflict = client.post(f"/api/v1/experiments/{finished}/cancel")
        missing = client.post("/api/v1/experiments/nope/cancel")
        events = client.get(f"/api/v1/experiments/{queued}/events").json()["items"]
    assert first.status_code == again.status_code == 200
    assert first.json()["state"] == again.json()["state"] == "cancelled"
    assert first.json()["finished_at"] is not None
    assert [e["kind"] for e in events] == ["submitted", "cancelled"]
    assert conflict.status_code == 409
    assert (
        conflict.json()["error"]["message"] == "experiment cannot move from completed to cancelling"
    )
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"


def seed_trials(db: sessionmaker[Session], experiment_id: str) -> None:
    """Trials written by the real recorder, as a driver would write them."""
    recorder = Recorder(ResultStore(experiment_id, "val_accuracy", "max").into(db)).start()
    curves = {"t_good": [0.5, 0.7, 0.9], "t_mid": [0.4, 0.6], "t_bad": [0.1]}
    for tune_id, curve in curves.items():
        recorder.submit(TrialStarted(tune_id, {"lr": len(curve) / 10}))
        for epoch, value in enumerate(curve, start=1):
            recorder.submit(ResultReported(tune_id, epoch, {"epoch": epoch, "val_accuracy": value}))
    recorder.submit(TrialEnded("t_good", TrialState.completed))
    recorder.submit(TrialEnded("t_bad", TrialState.pruned))
    assert recorder.close(30)


def test_trials_sort_by_metric_filter_by_state_and_results_by_iteration_range(
    server: ServerProcess, db: sessionmaker[Session]
) -> None:
    with server.client() as client:
        experiment_id = submit(client)
        seed_trials(db, experiment_id)
        best_first = client.get(f"/api/v1/experiments/{experiment_id}/trials").json()
        ascending = client.get(
            f"/api/v1/experiments/{experiment_id}/trials",
            params={"order": "asc", "limit": 1, "offset": 1},
        ).json()
        pruned = client.get(
            f"/api/v1/experiments/{experiment_id}/trials", params={"state": "pruned"}
        ).json()
        good = best_first["items"][0]
        trial = client.get(f"/api/v1/trials/{good['id']}").json()
        window = client.get(
            f"/api/v1/trials/{good['id']}/results", params={"first": 2, "last": 3}
        ).json()
        experiment = client.get(f"/api/v1/experiments/{experiment_id}").json()
        missing = client.get("/api/v1/trials/999999")
    assert [t["tune_trial_id"] for t in best_first["items"]] == ["t_good", "t_mid", "t_bad"]
    assert [t["tune_trial_id"] for t in ascending["items"]] == ["t_mid"]
    assert ascending["total"] == 3
    assert [t["tune_trial_id"] for t in pruned["items"]] == ["t_bad"]
    assert trial["best_metric"] == 0.9 and trial["iteration"] == 3 and trial["state"] == "completed"
    assert [r["iteration"] for r in window["items"]] == [2, 3]
    assert window["items"][1]["metrics"]["val_accuracy"] == 0.9
    assert experiment["trial_counts"] == {"completed": 1, "running": 1, "pruned": 1}
    assert missing.status_code == 404


def test_every_api_route_needs_a_valid_token(server: ServerProcess) -> None:
    # built on the first request (about half a second idle, seconds on a loaded machine), in
    # the server's thread pool: the event loop goes on answering meanwhile
    openapi = httpx.get(f"{server.url}/openapi.json", timeout=60).json()
    routes = [
        (method, path.replace("{experiment_id}", "x").replace("{trial_id}", "1"))
        for path, item in openapi["paths"].items()
        if path.startswith("/api/v1")
        for method in item
    ]
    assert len(routes) >= 8
    for method, path in routes:
        for headers in ({}, {"Authorization": "Bearer rsw_wrong"}, {"Authorization": "Basic x"}):
            response = httpx.request(method, f"{server.url}{path}", headers=headers)
            assert response.status_code == 401, (method, path, headers)
            assert response.json()["error"]["code"] == "unauthorized"


def test_roles_viewers_read_members_write_and_revoked_tokens_fail(server: ServerProcess) -> None:
    viewer = server.create_token("viewer-1", "viewer")
    member = server.create_token("member-1", "member")
    with server.client(member) as client:
        experiment_id = submit(client)
    with server.client(viewer) as client:
        assert client.get(f"/api/v1/experiments/{experiment_id}").status_code == 200
        denied = client.post("/api/v1/experiments", json=spec())
        assert denied.status_code == 403 and "needs member" in denied.json()["error"]["message"]
        assert client.post(f"/api/v1/experiments/{experiment_id}/cancel").status_code == 403
    assert server.manage("token", "revoke", "member-1").returncode == 0
    # a token admitted in the last RAYSWEEP_TOKEN_CACHE_S (1 s) needs no lookup: let it pass
    token_cache_clock(server).advance(1.1)
    with server.client(member) as client:
        revoked = client.get("/api/v1/experiments")
    assert revoked.status_code == 401 and "revoked" in revoked.json()["error"]["message"]


def token_cache_clock(server: ServerProcess) -> ManualClock:
    """Give an in-process server's token cache a clock the test moves, instead of sleeping."""
    assert isinstance(server, InProcessServer) and server.uvicorn is not None
    clock = ManualClock()
    server.uvicorn.config.app.state.raysweep.recent_tokens.clock = clock
    return clock


def test_a_revoked_token_is_refused_once_its_admission_is_older_than_the_token_cache(
    db_url: str, db: sessionmaker[Session], tmp_path: Path
) -> None:
    """RAYSWEEP_TOKEN_CACHE_S (1 s by default) bounds how long a revoked token still works on a
    server that admitted it just before; 0 looks every request's token up."""
    servers = {
        cache: InProcessServer(
            tmp_path / f"home-{cache}", db_url, {"RAYSWEEP_TOKEN_CACHE_S": cache}
        )
        for cache in ("0", "1")
    }
    for server in servers.values():
        server.start()
    try:
        for cache, server in servers.items():
            name = f"member-{cache}"
            member = server.create_token(name, "member")
            clock = token_cache_clock(server)
            with server.client(member) as client:
                assert client.get("/api/v1/me").status_code == 200  # admitted, so remembered
                tokens.revoke_token(db, name)  # what `token revoke` does, in another process
                if cache == "1":
                    # still admitted within the moment, refused once it has passed
                    assert client.get("/api/v1/me").status_code == 200
                    clock.advance(1.1)
                revoked = client.get("/api/v1/me")
            assert revoked.status_code == 401, cache
            assert "revoked" in revoked.json()["error"]["message"]
    finally:
        for server in servers.values():
            server.stop()


BAD_REQUESTS: list[tuple[str, Any, int, str]] = [
    ("malformed json", b"{not json", 400, "bad_request"),
    ("unknown field", spec(colour="red"), 422, "colour"),
    ("wrong type", spec(search={"num_samples": "lots"}), 422, "search.num_samples"),
    ("out of range", spec(search={"num_samples": 0}), 422, "search.num_samples"),
    ("unknown trainer", spec(trainer="resnet"), 422, "trainer"),
    ("unknown search space", spec(search_space="nope"), 422, "search_space"),
    ("metric not reported", spec(metric="bleu"), 422, "metric"),
    ("not an object", [1, 2], 422, "validation_error"),
    ("body over 1 MiB", spec(description="x" * (1 << 20)), 413, "too_large"),
]


@pytest.mark.parametrize(
    ("case", "body", "status", "mentions"), BAD_REQUESTS, ids=[case[0] for case in BAD_REQUESTS]
)
def test_bad_input_gets_a_clear_4xx_and_changes_nothing(
    server: ServerProcess,
    db: sessionmaker[Session],
    case: str,
    body: Any,
    status: int,
    mentions: str,
) -> None:
    before = row_counts(db)
    content = body if isinstance(body, bytes) else json.dumps(body).encode()
    with server.client() as client:
        response = client.post(
            "/api/v1/experiments", content=content, headers={"content-type": "application/json"}
        )
    assert response.status_code == status, response.text
    assert mentions in response.text
    error = response.json()["error"]
    assert set(error) == {"code", "message", "details"}
    assert row_counts(db) == before


def test_unauthorised_writes_change_nothing(
    server: ServerProcess, db: sessionmaker[Session]
) -> None:
    viewer = server.create_token("viewer-2", "viewer")
    before = row_counts(db)
    for headers in (
        {},
        {"Authorization": "Bearer rsw_nope"},
        {"Authorization": f"Bearer {viewer}"},
    ):
        response = httpx.post(f"{server.url}/api/v1/experiments", json=spec(), headers=headers)
        assert response.status_code in (401, 403)
    assert row_counts(db) == before


def test_health_readiness_and_openapi(server: ServerProcess) -> None:
    assert httpx.get(f"{server.url}/healthz").json() == {"status": "ok"}
    ready = httpx.get(f"{server.url}/readyz")
    assert ready.status_code == 200 and ready.json()["checks"] == {"database": "ok"}
    assert httpx.get(f"{server.url}/docs").status_code == 200
    # built on the first request (about half a second idle, seconds on a loaded machine), in
    # the server's thread pool: the event loop goes on answering meanwhile
    openapi = httpx.get(f"{server.url}/openapi.json", timeout=60).json()
    assert "ExperimentSpec" in openapi["components"]["schemas"]
    assert "HTTPBearer" in openapi["components"]["securitySchemes"]
    body = openapi["paths"]["/api/v1/experiments"]["post"]["requestBody"]
    assert body["content"]["application/json"]["schema"]["$ref"].endswith("/ExperimentSpec")


def test_a_warm_start_names_stored_sweeps_with_the_same_parameters(
    server: ServerProcess, db: sessionmaker[Session]
) -> None:
    space = {"lr": {"type": "loguniform", "low": 1e-4, "high": 0.1}}
    with server.client() as client:
        source = submit(client, search_space=space)
        before = row_counts(db)
        refused = client.post(
            "/api/v1/experiments",
            json=minimal_spec(
                search_space={**space, "dropout": {"type": "uniform", "low": 0.0, "high": 0.5}},
                search={"algorithm": "gp", "warm_start_from": [source, "0123456789ab"]},
            ),
        )
        assert row_counts(db) == before
        accepted = client.post(
            "/api/v1/experiments",
            json=minimal_spec(search_space=space, search={"warm_start_from": [source]}),
        )
    assert refused.status_code == 422
    assert refused.json()["error"]["details"] == [
        {
            "path": "search.warm_start_from.0",
            "message": f"experiment {source} samples other parameters: dropout: not sampled "
            "there, float here",
        },
        {"path": "search.warm_start_from.1", "message": "no experiment '0123456789ab'"},
    ]
    assert accepted.status_code == 201, accepted.text


def test_notes_on_a_sweep_and_a_trial_show_in_the_lists_and_need_a_member(
    server: ServerProcess, db: sessionmaker[Session]
) -> None:
    sweep = seed_sweep(db, trials=3, max_t=2, running=0, name="noted")
    viewer = server.create_token("notes-viewer", "viewer")
    with server.client() as client:
        trial_id = client.get(f"/api/v1/experiments/{sweep}/trials").json()["items"][0]["id"]
        written = client.put(f"/api/v1/experiments/{sweep}/notes", json={"notes": "lr too high"})
        assert written.status_code == 200 and written.json()["notes"] == "lr too high"
        trial = client.put(f"/api/v1/trials/{trial_id}/notes", json={"notes": "diverged at 2"})
        assert trial.status_code == 200 and trial.json()["notes"] == "diverged at 2"
        listed = client.get("/api/v1/experiments").json()["items"]
        assert [e["notes"] for e in listed if e["id"] == sweep] == ["lr too high"]
        page = client.get(f"/api/v1/experiments/{sweep}/trials").json()["items"]
        assert {t["id"]: t["notes"] for t in page}[trial_id] == "diverged at 2"
        assert client.get(f"/api/v1/trials/{trial_id}").json()["notes"] == "diverged at 2"

        before = row_counts(db)
        for bad, problem in [
            ({"notes": "x" * 10_001}, "at most 10000 characters"),
            ({"notes": "a\u0000b"}, "pattern"),
            ({"notes": 12}, "valid string"),
            ({"note": "typo"}, "notes"),
        ]:
            refused = client.put(f"/api/v1/experiments/{sweep}/notes", json=bad)
            assert refused.status_code == 422, bad
            assert problem in refused.text and "notes" in refused.text, refused.text
        missing = client.put("/api/v1/experiments/nope/notes", json={"notes": "x"})
        assert missing.status_code == 404
        assert client.put("/api/v1/trials/999999/notes", json={"notes": "x"}).status_code == 404
        assert row_counts(db) == before
        cleared = client.put(f"/api/v1/trials/{trial_id}/notes", json={"notes": ""})
        assert cleared.json()["notes"] is None
    with server.client(viewer) as client:
        denied = client.put(f"/api/v1/experiments/{sweep}/notes", json={"notes": "mine"})
        assert denied.status_code == 403
        assert client.get(f"/api/v1/experiments/{sweep}").json()["notes"] == "lr too high"
