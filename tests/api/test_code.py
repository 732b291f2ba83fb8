"""Code packages through a real server: upload (roles, formats, content addressing, bad
archives, size limit) and specs naming them (checked at submit without importing anything)."""

from __future__ import annotations

import hashlib
import io
import zipfile
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy.orm import Session, sessionmaker

from raysweep import Client
from raysweep.errors import SubmitNote
from tests.conftest import InProcessServer, ServerProcess, row_counts
from tests.packages import code_spec, readme_example, targz_of, zip_of

GOOD = {"train.py": "def train_loop(config):\n    pass\n", "helpers/__init__.py": ""}


def upload(client: httpx.Client, data: bytes, kind: str = "application/zip") -> httpx.Response:
    return client.post("/api/v1/code", content=data, headers={"Content-Type": kind})


def test_members_upload_packages_content_addressed_and_viewers_cannot(
    server: ServerProcess,
) -> None:
    viewer = server.create_token("viewer-c", "viewer")
    member = server.create_token("member-c", "member")
    with server.client(viewer) as client:
        refused = upload(client, zip_of(GOOD))
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "forbidden"
        assert client.get("/api/v1/code").json()["total"] == 0
    with server.client(member) as client:
        created = upload(client, zip_of(GOOD))
        assert created.status_code == 201, created.text
        package = created.json()
        assert created.headers["location"] == f"/api/v1/code/{package['sha256']}"
        assert package["modules"] == ["helpers", "train"] and package["files"] == 2
        assert package["uploaded_by"] == "member-c"
        # the same files as a tar.gz are the same package
        again = upload(client, targz_of(GOOD), "application/gzip")
        assert again.status_code == 200 and again.json()["sha256"] == package["sha256"]
    stored = server.home / "storage" / "code" / f"{package['sha256']}.zip"
    assert hashlib.sha256(stored.read_bytes()).hexdigest() == package["sha256"]
    assert sorted(zipfile.ZipFile(io.BytesIO(stored.read_bytes())).namelist()) == sorted(GOOD)
    with server.client(viewer) as client:
        listed = client.get("/api/v1/code").json()
        assert [p["sha256"] for p in listed["items"]] == [package["sha256"]]
        assert client.get(f"/api/v1/code/{package['sha256']}").json() == package
        assert client.get(f"/api/v1/code/{'0' * 64}").status_code == 404


def test_an_identical_upload_in_another_project_does_not_say_who_uploaded_it_there(
    server: ServerProcess,
) -> None:
    with server.client() as admin:
        assert admin.post("/api/v1/projects", json={"name": "other"}).status_code == 201
        first = upload(admin, zip_of(GOOD))
        assert first.status_code == 201 and first.json()["uploaded_by"] == "admin"
    alice = server.create_token("alice", "member", "other")
    with server.client(alice) as client:
        theirs = client.post(
            "/api/v1/code", params={"project": "other"}, content=zip_of(GOOD),
            headers={"Content-Type": "application/zip"},
        )  # fmt: skip
        assert theirs.status_code == 201, theirs.text  # new to this project
        package = theirs.json()
        assert package["sha256"] == first.json()["sha256"] and package["uploaded_by"] == "alice"
        assert client.get(f"/api/v1/code/{package['sha256']}").json() == package
        assert client.get("/api/v1/code").json()["items"] == [package]
    with server.client() as admin:  # the default project's holding is still the admin's
        assert (
            admin.get("/api/v1/code", params={"project": "default"}).json()["items"][0][
                "uploaded_by"
            ]
            == "admin"
        )


BAD_ARCHIVES = [
    (b"print('hello')", "must be a zip or a tar.gz"),
    (b"PK\x03\x04broken", "not a valid zip"),
    (b"\x1f\x8bbroken", "not a valid tar.gz"),
    (zip_of({"../escape.py": "x = 1"}), "points outside the package"),
    (zip_of({"/etc/evil.py": "x = 1"}), "points outside the package"),
    (zip_of({"README.txt": "no code"}), "no .py files"),
    (zip_of({"service/__init__.py": "", "train.py": ""}), "top-level service would shadow"),
    (zip_of({"service.pyc": "", "train.py": ""}), "service would shadow modules"),
    (zip_of({"raysweep.cpython-311-x86_64-linux-gnu.so": "", "t.py": ""}), "raysweep would"),
    (zip_of({"ray/__init__.py": "", "torch.py": "", "t.py": ""}), "top-level ray, torch would"),
    (zip_of({"big.py": "#" * 3_000_000}), "over 20 times its size"),
]


@pytest.mark.parametrize(("data", "message"), BAD_ARCHIVES, ids=[m for _, m in BAD_ARCHIVES])
def test_bad_archives_are_refused_with_the_reason_and_store_nothing(
    server: ServerProcess, db: sessionmaker[Session], data: bytes, message: str
) -> None:
    before = row_counts(db)
    with server.client() as client:
        response = upload(client, data)
    assert response.status_code == 422, response.text
    assert message in response.json()["error"]["details"][0]["message"]
    assert row_counts(db) == before
    assert not (server.home / "storage" / "code").exists()


def test_uploads_over_the_size_limit_get_413(db_url: str, tmp_path: Path) -> None:
    limited = InProcessServer(
        tmp_path / "home", db_url, {"RAYSWEEP_MAX_CODE_BYTES": "4096"}
    ).start()
    try:
        with limited.client() as client:
            assert upload(client, zip_of(GOOD)).status_code == 201
            response = upload(client, b"PK\x03\x04" + b"x" * 5000)
        assert response.status_code == 413
        assert "over 4096 bytes" in response.json()["error"]["message"]
    finally:
        limited.stop()


def test_specs_naming_code_are_checked_against_the_package_at_submit(
    server: ServerProcess, db: sessionmaker[Session]
) -> None:
    files = {
        "train.py": readme_example(),
        "broken.py": "def train_loop(config)\n    pass\n",
        "pkg/__init__.py": "",
        "pkg/deep.py": "def fit(config):\n    pass\n",
    }
    with server.client() as client:
        sha = upload(client, zip_of(files)).json()["sha256"]
        before = row_counts(db)
        cases = [
            (code_spec("f" * 64), "code.package", "no code package ffff"),
            (code_spec(sha, "nowhere:train_loop"), "code.entrypoint", "no module 'nowhere'"),
            (code_spec(sha, "broken:train_loop"), "code.entrypoint", "broken.py, line 1"),
            (code_spec(sha, metric="accuracy"), "metric", "code.metrics does not list"),
            (
                code_spec(sha, early_stopping={"time_attr": "step"}),
                "early_stopping.time_attr",
                "judges trials at each 'step', which code.metrics does not list (epoch, loss)",
            ),
            # ASHA (the default scheduler) judges at `epoch`: code that does not declare it
            # would run unjudged
            (
                {**code_spec(sha), "code": {**code_spec(sha)["code"], "metrics": {"loss": "min"}}},
                "code.metrics",
                "'asha' judges trials at each 'epoch', which code.metrics does not list (loss)",
            ),
        ]
        # Ray Data datasets: a function the package lacks, a path whose format cannot be told,
        # two sources for one dataset, a name Ray Data's shard lookup would not take
        datasets: list[tuple[dict[str, Any], str, str]] = [
            ({"train": {"function": "nowhere:make"}}, "code.datasets.train.function", "no module"),
            ({"train": {"path": "/data/train"}}, "code.datasets.train", "set format"),
            (
                {"train": {"path": "/d.csv", "function": "train:train_loop"}},
                "code.datasets.train",
                "give either path",
            ),
            ({"a b": {"path": "/d.csv"}}, "code.datasets.a b", "characters"),
        ]
        for named, path, fragment in datasets:
            spec = code_spec(sha)
            spec["code"] = {**spec["code"], "datasets": named}
            cases.append((spec, path, fragment))
        for spec, path, fragment in cases:
            response = client.post("/api/v1/experiments", json=spec)
            assert response.status_code == 422, response.text
            found = {d["path"]: d["message"] for d in response.json()["error"]["details"]}
            assert fragment.lower() in found.get(path, "").lower(), (path, found)
        assert row_counts(db) == before
        # code that saves no checkpoints: told at submit what it gives up; promotion refused
        no_checkpoints = code_spec(sha)
        no_checkpoints["code"] = {**no_checkpoints["code"], "checkpoints": False}
        told = client.post("/api/v1/experiments", json=no_checkpoints)
        assert told.status_code == 201, told.text
        (note,) = told.json()["notes"]
        assert note.startswith("code.checkpoints is false: a trial whose workers restart")
        promoted = client.post(
            "/api/v1/experiments",
            json={**no_checkpoints, "early_stopping": {"scheduler": "asha_promotion"}},
        )
        assert promoted.status_code == 422, promoted.text
        (detail,) = promoted.json()["error"]["details"]
        assert detail["path"] == "early_stopping.scheduler"
        assert "code that saves no checkpoints" in detail["message"]
        with Client(server.url, server.admin_token) as sdk, pytest.warns(SubmitNote) as warned:
            sdk.submit(no_checkpoints)
        assert str(warned[0].message) == note
        assert client.post("/api/v1/experiments", json=code_spec(sha)).json()["notes"] == []
        # without early stopping nothing needs `epoch`
        no_epoch = {
            **code_spec(sha),
            "code": {**code_spec(sha)["code"], "metrics": {"loss": "min"}},
        }
        no_epoch["early_stopping"] = {"scheduler": "none"}
        assert client.post("/api/v1/experiments", json=no_epoch).status_code == 201
        for entrypoint in ("train:train_loop", "pkg.deep:fit", "pkg:anything"):
            accepted = client.post("/api/v1/experiments", json=code_spec(sha, entrypoint))
            assert accepted.status_code == 201, accepted.text
        read = client.get(f"/api/v1/experiments/{accepted.json()['id']}").json()
    assert read["trainer"] == f"code:{sha[:12]}"
    assert read["spec"]["code"]["package"] == sha and read["spec"]["trainer"] is None
