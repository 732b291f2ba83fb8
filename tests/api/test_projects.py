"""Projects through a real server on both databases: a token sees and changes only its
projects' objects. Every route of the API naming an object of another project answers exactly
as for one that does not exist, and no list shows it."""

from __future__ import annotations

import re
from typing import Any

import httpx
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from service.db.models import ExperimentRow, FinalRunRow, TrialRow
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


def spec_in(project: str) -> dict[str, Any]:
    return {**minimal_spec(name="scoped"), "project": project}


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
