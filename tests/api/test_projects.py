"""Projects through a real server on both databases: a token sees and changes only its
projects' objects. Every route of the API naming an object of another project answers exactly
as for one that does not exist, and no list shows it."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
from sqlalchemy import select, update
from sqlalchemy.orm import Session, sessionmaker

from raysweep.tokens import Role
from service.db.models.registry import FinalRunRow, ModelNameRow
from service.db.models.sweeps import ExperimentRow, TrialRow
from service.engine.recorder import Recorder
from service.resources import HeldSegment
from service.usecases.projects import store_held
from service.usecases.promotion import reserve_model_name
from service.usecases.recording import ResultStore
from service.usecases.reports import ResultReported, TrialStarted
from service.usecases.tokens import grant_token
from tests.conftest import BOTH_BACKENDS, ServerProcess, minimal_spec
from tests.factories import production_model, retrain_schedule, submit
from tests.packages import code_spec, readme_example, zip_of

# a value that names no object, for each path parameter (the same shape as a real one)
MISSING = {
    "experiment_id": "0123456789ab",
    "trial_id": 987654321,
    "final_run_id": 987654321,
    "name": "no-such-model",
    "schedule_id": "0123456789ab",
    "sha256": "0" * 64,
}
# routes whose path names no object of a project (or names a project itself)
UNSCOPED = {"/api/v1/projects/{name}"}


def seeded(db: sessionmaker[Session], client: httpx.Client) -> dict[str, Any]:
    """One of every kind of object, all in the default project."""
    promoted = production_model(db)
    with db.begin() as session:
        trial_id = session.scalars(select(TrialRow.id).where(TrialRow.experiment_id == promoted))
        final_run_id = session.scalars(select(FinalRunRow.id)).first()
        first_trial = trial_id.first()
    upload = client.post(
        "/api/v1/code",
        content=zip_of({"train.py": readme_example()}),
        headers={"Content-Type": "application/zip"},
    )
    assert upload.status_code == 201, upload.text
    return {
        "experiment_id": promoted,
        "trial_id": first_trial,
        "final_run_id": final_run_id,
        "schedule_id": retrain_schedule(db),
        "name": "digits",
        "sha256": upload.json()["sha256"],
        "version": 1,
        "alias": "production",
    }


def object_routes(client: httpx.Client) -> list[tuple[str, str]]:
    """Every (method, path) of the OpenAPI document whose path names an object."""
    paths = client.get("/openapi.json").json()["paths"]
    return [
        (method.upper(), path)
        for path, operations in paths.items()
        for method in operations
        if any(f"{{{key}}}" in path for key in MISSING) and path not in UNSCOPED
    ]


def spec_in(project: str, **changes: Any) -> dict[str, Any]:
    return {**minimal_spec(name="scoped", **changes), "project": project}


def fill(path: str, values: dict[str, Any]) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: str(values[m.group(1)]), path)


def call(client: httpx.Client, method: str, url: str) -> httpx.Response:
    body = {"notes": "x", "version": 1} if method in ("PUT", "POST", "PATCH") else None
    return client.request(method, url, json=body)


@BOTH_BACKENDS
def test_a_token_of_another_project_gets_the_404_of_a_missing_object_on_every_route(
    server: ServerProcess, db: sessionmaker[Session]
) -> None:
    with server.client() as admin:
        created = admin.post("/api/v1/projects", json={"name": "alpha", "weight": 2})
        assert created.status_code == 201, created.text
        assert created.headers["location"] == "/api/v1/projects/alpha"
        values = seeded(db, admin)
        queued = submit(admin)
        routes = object_routes(admin)
        # what the use cases themselves answer for nothing there (an admin passes every check)
        absent = {
            path: admin.get(fill(path, {**values, **MISSING}))
            for method, path in routes
            if method == "GET"
        }
    outsider = server.create_token("alpha-member", "member", project="alpha")
    insider = server.create_token("default-viewer", "viewer")
    assert len(routes) >= 35, routes  # every kind of object is covered below
    kinds = set()
    with server.client(outsider) as client:
        for method, path in routes:
            foreign = call(client, method, fill(path, values))
            assert foreign.status_code == 404, (method, path, foreign.text)
            # the same words as for nothing there: no existence leaks
            if method == "GET" and absent[path].status_code == 404:
                said = foreign.text
                for key in re.findall(r"\{(\w+)\}", path):
                    said = said.replace(str(values[key]), str(MISSING.get(key, values[key])))
                assert said == absent[path].text, (path, absent[path].text)
            kinds |= {key for key in MISSING if f"{{{key}}}" in path}
        assert kinds == set(MISSING)
        # no list shows another project's objects; naming the project finds nothing either
        for url in ("/api/v1/experiments", "/api/v1/schedules", "/api/v1/code"):
            assert client.get(url).json()["items"] == [], url
            assert client.get(url, params={"project": "default"}).json()["items"] == [], url
        assert client.get("/api/v1/models").json() == []
        assert [p["name"] for p in client.get("/api/v1/projects").json()] == ["alpha"]
        assert client.get("/api/v1/projects/default").status_code == 404
        assert client.get("/api/v1/usage", params={"project": "default"}).status_code == 404
        me = client.get("/api/v1/me").json()
        assert me["role"] == "member" and me["projects"] == {"alpha": "member"}
        # submitting into a project it has no role in is the same 404 as an unknown project
        into_default = client.post("/api/v1/experiments", json=spec_in("default"))
        into_nothing = client.post("/api/v1/experiments", json=spec_in("nothing"))
        assert into_default.status_code == into_nothing.status_code == 404
        assert "default" in into_default.json()["error"]["message"]
        # another project's code and sweeps are unknown to a spec in its own
        borrowing = client.post(
            "/api/v1/experiments",
            json={
                **code_spec(values["sha256"]),
                "project": "alpha",
                "search": {"warm_start_from": [values["experiment_id"]]},
            },
        )
        assert borrowing.status_code == 422, borrowing.text
        paths = {p["path"] for p in borrowing.json()["error"]["details"]}
        assert {"code.package", "search.warm_start_from.0"} <= paths, paths
        # its own project works, and its sweep is its only one
        own = client.post("/api/v1/experiments", json=spec_in("alpha"))
        assert own.status_code == 201, own.text
        listed = client.get("/api/v1/experiments").json()["items"]
        assert [(e["id"], e["project"]) for e in listed] == [(own.json()["id"], "alpha")]
    with server.client(insider) as client:
        # the default project's viewer reads what the outsider could not, and cannot change it
        for method, path in routes:
            if method == "GET":
                response = client.get(fill(path, values))
                # (the version was never deployed: the route's own 404 about it)
                assert response.status_code == 200 or "not deployed" in response.text, (
                    path,
                    response.text,
                )
        cancel = client.post(f"/api/v1/experiments/{queued}/cancel")
        assert cancel.status_code == 403 and "viewer" in cancel.json()["error"]["message"]
        listed = {e["id"] for e in client.get("/api/v1/experiments").json()["items"]}
        assert listed == {values["experiment_id"], queued}
        assert client.get(f"/api/v1/experiments/{own.json()['id']}").status_code == 404
    with db.begin() as session:  # nothing the refusals touched changed
        states = dict(session.execute(select(ExperimentRow.id, ExperimentRow.state)).all())
    assert states[queued] == "queued"


def test_a_token_of_one_project_creates_there_when_it_names_no_project(
    server: ServerProcess, db: sessionmaker[Session]
) -> None:
    with server.client() as admin:
        for name in ("solo", "other"):
            assert admin.post("/api/v1/projects", json={"name": name}).status_code == 201
    solo = server.create_token("solo-member", "member", project="solo")
    both = server.create_token("two-projects", "member", project="solo")
    grant_token(db, "two-projects", "other", Role.member)
    with server.client(solo) as client:
        submitted = client.post("/api/v1/experiments", json=minimal_spec(name="homed"))
        assert submitted.status_code == 201, submitted.text
        shown = client.get(f"/api/v1/experiments/{submitted.json()['id']}").json()
        assert shown["project"] == "solo"
        uploaded = client.post(
            "/api/v1/code",
            content=zip_of({"train.py": readme_example()}),
            headers={"Content-Type": "application/zip"},
        )
        assert uploaded.status_code == 201, uploaded.text
        assert client.get("/api/v1/code", params={"project": "solo"}).json()["total"] == 1
        schedule = client.post(
            "/api/v1/schedules",
            json={"name": "nightly", "cron": "0 3 * * *", "spec": minimal_spec(name="n")},
        )
        assert schedule.status_code == 201, schedule.text
        assert schedule.json()["project"] == "solo"
        assert schedule.json()["template"]["project"] == "solo"
        # a project it names is still the one used
        elsewhere = client.post("/api/v1/experiments", json=spec_in("other"))
        assert elsewhere.status_code == 404
    with server.client(both) as client:  # two projects: which one is not guessed
        refused = client.post("/api/v1/experiments", json=minimal_spec(name="unhomed"))
        assert refused.status_code == 404
        assert "no project 'default'" in refused.json()["error"]["message"]


def held(key: str, start: datetime, seconds: float, workers: int = 2) -> HeldSegment:
    return HeldSegment(
        key=key,
        owner="x",
        label="t",
        started=start.timestamp(),
        ended=start.timestamp() + seconds,
        holding=False,
        workers=workers,
        cpus=0.5 * workers,
        gpus=1.0 * workers,
    )


def test_the_ledger_sums_leases_per_project_sweep_trial_and_day_within_the_window(
    server: ServerProcess, db: sessionmaker[Session]
) -> None:
    with server.client() as admin:
        admin.post("/api/v1/projects", json={"name": "ledger", "monthly_gpu_hours": 1})
        sweep = submit(admin, project="ledger")
    midnight = datetime(2026, 11, 3, tzinfo=UTC)
    with db.begin() as session:
        trial = TrialRow(
            experiment_id=sweep, tune_trial_id="t", number=1, config={}, state="running"
        )
        session.add(trial)
        session.flush()
        # one lease across midnight (an hour each side), one written twice as it went on
        segments = [
            (trial.id, held("a", midnight - timedelta(hours=1), 7200)),
            (trial.id, held("b", midnight + timedelta(hours=5), 60)),
        ]
        store_held(session, "ledger", sweep, segments)
        store_held(
            session, "ledger", sweep, [(trial.id, held("b", midnight + timedelta(hours=5), 600))]
        )
        trial_id = trial.id
    member = server.create_token("ledger-viewer", "viewer", project="ledger")
    with server.client(member) as client:
        day = client.get(
            "/api/v1/usage",
            params={"from": "2026-11-02T00:00:00Z", "to": "2026-11-04T00:00:00Z"},
        ).json()
        assert day["total"]["worker_seconds"] == 2 * (7200 + 600)
        assert day["by_day"]["2026-11-02"]["worker_seconds"] == 2 * 3600
        assert day["by_day"]["2026-11-03"]["worker_seconds"] == 2 * (3600 + 600)
        assert day["by_trial"] == {str(trial_id): day["total"]}
        assert day["by_experiment"][sweep]["gpu_seconds"] == 2 * (7200 + 600)
        # a window clips the leases it cuts
        clipped = client.get(
            "/api/v1/usage",
            params={
                "from": "2026-11-03T00:30:00Z",
                "to": "2026-11-03T05:05:00Z",
                "experiment": sweep,
            },
        ).json()
        assert clipped["total"]["worker_seconds"] == 2 * (1800 + 300)
        # other projects' sweeps are not the token's to measure
        with server.client() as admin:
            other = submit(admin)
        assert client.get("/api/v1/usage", params={"experiment": other}).status_code == 404
        metrics = client.get("/metrics").text
    assert 'raysweep_compute_worker_seconds_total{project="ledger"} 15600.0' in metrics
    assert 'raysweep_compute_gpu_seconds_total{project="ledger"} 15600.0' in metrics
    # another project's token sees its own ledger only (not even the project's name)
    with server.client(server.create_token("elsewhere", "viewer", project="default")) as other:
        assert 'project="ledger"' not in other.get("/metrics").text


def test_a_project_refuses_sweeps_past_its_queue_quota_and_monthly_budget(
    server: ServerProcess, db: sessionmaker[Session]
) -> None:
    with server.client() as admin:
        created = admin.post(
            "/api/v1/projects",
            json={"name": "tight", "max_workers": 1, "max_queued": 1, "monthly_gpu_hours": 1},
        )
        assert created.status_code == 201, created.text
        too_big = admin.post(
            "/api/v1/experiments",
            json={**spec_in("tight"), "resources": {"num_workers": 2, "cpus_per_worker": 0.5}},
        )
        assert too_big.status_code == 422, too_big.text
        [problem] = too_big.json()["error"]["details"]
        assert problem["path"] == "resources.num_workers" and "allows 1" in problem["message"]
        one_worker = {"num_workers": 1, "cpus_per_worker": 0.5}
        assert submit(admin, project="tight", resources=one_worker)
        full = admin.post("/api/v1/experiments", json=spec_in("tight", resources=one_worker))
        assert full.status_code == 409 and "max_queued 1" in full.json()["error"]["message"]
        queued = admin.get("/api/v1/experiments", params={"project": "tight"}).json()["items"]
        admin.post(f"/api/v1/experiments/{queued[0]['id']}/cancel")
        now = datetime.now(UTC)
        with db.begin() as session:
            store_held(
                session,
                "tight",
                queued[0]["id"],
                [(None, held("c", now - timedelta(hours=1), 1800))],
            )
        spent = admin.post("/api/v1/experiments", json=spec_in("tight", resources=one_worker))
        assert spent.status_code == 409, spent.text
        message = spent.json()["error"]["message"]
        assert "spent 1.00 of its 1 GPU hours this month" in message, message
        # extending or resuming queues a sweep again: the same admission refuses it
        ended = queued[0]["id"]
        extend = admin.post(f"/api/v1/experiments/{ended}/extend", json={"num_samples": 99})
        assert extend.status_code == 409, extend.text
        assert "spent 1.00 of its 1 GPU hours" in extend.json()["error"]["message"]
        with db.begin() as session:
            session.execute(
                update(ExperimentRow).where(ExperimentRow.id == ended).values(state="paused")
            )
        resume = admin.post(f"/api/v1/experiments/{ended}/resume")
        assert resume.status_code == 409, resume.text
        assert "spent 1.00 of its 1 GPU hours" in resume.json()["error"]["message"]
        assert admin.get(f"/api/v1/experiments/{ended}").json()["state"] == "paused"
        project = admin.get("/api/v1/projects/tight").json()
        assert project["usage_this_month"]["gpu_seconds"] == 3600
        # an admin raises it: the next sweep is queued
        raised = admin.patch("/api/v1/projects/tight", json={"monthly_gpu_hours": 2})
        assert raised.status_code == 200 and raised.json()["max_workers"] == 1
        again = admin.post("/api/v1/experiments", json=spec_in("tight", resources=one_worker))
        assert again.status_code == 201, again.text
    # only an admin creates or changes projects
    member = server.create_token("tight-member", "member", project="tight")
    with server.client(member) as client:
        assert client.post("/api/v1/projects", json={"name": "mine"}).status_code == 403
        assert client.patch("/api/v1/projects/tight", json={"weight": 9}).status_code == 403


@BOTH_BACKENDS
def test_a_deleted_objects_id_never_comes_back_so_its_cached_owner_reaches_nothing(
    server: ServerProcess, db: sessionmaker[Session]
) -> None:
    with server.client() as admin:
        for name in ("alpha", "beta"):
            assert admin.post("/api/v1/projects", json={"name": name}).status_code == 201
        betas, alphas = submit(admin, project="beta"), submit(admin, project="alpha")
    beta = server.create_token("beta-member", "member", project="beta")

    def trial_of(experiment_id: str, name: str) -> int:
        recorder = Recorder(ResultStore(experiment_id, "val_accuracy", "max").into(db)).start()
        recorder.submit(TrialStarted(name, {"lr": 0.1}))
        recorder.submit(ResultReported(name, 1, {"val_accuracy": 0.5}, None))
        assert recorder.close(30)
        with db.begin() as session:
            return session.scalars(select(TrialRow.id).where(TrialRow.tune_trial_id == name)).one()

    old = trial_of(betas, "beta-1")
    with server.client(beta) as client:
        assert client.get(f"/api/v1/trials/{old}").status_code == 200  # its owner now cached
        with db.begin() as session:
            session.execute(
                update(ExperimentRow).where(ExperimentRow.id == betas).values(state="cancelled")
            )
        assert client.delete(f"/api/v1/experiments/{betas}").status_code == 204
        new = trial_of(alphas, "alpha-1")
        # SQLite reused the largest id after a DELETE before migration 0017
        assert new != old
        for trial_id in (old, new):
            assert client.get(f"/api/v1/trials/{trial_id}").status_code == 404
            notes = client.put(f"/api/v1/trials/{trial_id}/notes", json={"notes": "mine"})
            assert notes.status_code == 404, notes.text


@BOTH_BACKENDS
def test_a_model_name_is_one_projects_from_its_first_promotion_for_good(
    server: ServerProcess, db: sessionmaker[Session]
) -> None:
    with server.client() as admin:
        assert admin.post("/api/v1/projects", json={"name": "alpha"}).status_code == 201
    with db.begin() as session:
        assert reserve_model_name(session, "shared", "alpha")
        assert reserve_model_name(session, "shared", "alpha")  # again: still its own
        assert not reserve_model_name(session, "shared", "default")
        assert reserve_model_name(session, "other", "default")
    with db.begin() as session:
        owners = dict(session.execute(select(ModelNameRow.name, ModelNameRow.project)).all())
    assert owners == {"shared": "alpha", "other": "default"}
