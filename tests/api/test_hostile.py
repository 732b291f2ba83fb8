"""Hostile input never reaches the database as a 500: numbers past the columns' ranges, paths
and filters with NUL characters, time zones that are directories, JSON past the parser's limits,
unbounded label filters. Each is a 4xx in the one error body, naming what is wrong."""

from __future__ import annotations

import struct
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx

from service.package_check import TIME_LIMIT_S
from tests.conftest import BOTH_BACKENDS, ServerProcess, minimal_spec
from tests.factories import submit
from tests.packages import code_spec, zip_of

HUGE = "99999999999999999999"  # past 64 bits
PAST_INT64 = str(2**63)
PAST_INT32 = str(2**31)


def problem_paths(response: httpx.Response) -> list[str]:
    error: dict[str, Any] = response.json()["error"]
    return [d["path"] for d in error["details"]]


def test_integers_past_the_database_columns_are_422_naming_the_parameter(
    server: ServerProcess,
) -> None:
    with server.client() as client:
        experiment_id = submit(client)
        cases = {
            f"/api/v1/code?offset={HUGE}": "query.offset",
            f"/api/v1/trials/{PAST_INT64}": "path.trial_id",
            f"/api/v1/trials/{PAST_INT64}/checkpoints": "path.trial_id",
            f"/api/v1/trials/1/results?first={PAST_INT32}": "query.first",
            f"/api/v1/final-runs/{HUGE}": "path.final_run_id",
            f"/api/v1/experiments/{experiment_id}/events?after={HUGE}": "query.after",
            f"/api/v1/experiments/{experiment_id}/events?trial={PAST_INT64}": "query.trial",
            f"/api/v1/experiments/{experiment_id}/updates?after={HUGE}": "query.after",
            f"/api/v1/experiments/{experiment_id}/updates?events_after={HUGE}": (
                "query.events_after"
            ),
        }
        for url, path in cases.items():
            response = client.get(url)
            assert response.status_code == 422, (url, response.text)
            assert problem_paths(response) == [path], url
        alias = client.put("/api/v1/models/m/aliases/prod", json={"version": int(PAST_INT32)})
        assert alias.status_code == 422 and problem_paths(alias) == ["version"], alias.text
        # a version is a number or an alias; neither of these names one
        for version in (PAST_INT32, HUGE, "²"):
            response = client.get(f"/api/v1/models/m/versions/{version}")
            assert response.status_code == 404, (version, response.text)


def test_json_past_the_parsers_limits_is_400_and_stores_nothing(server: ServerProcess) -> None:
    with server.client() as client:
        digits = '{"name": "x", "seed": ' + "9" * 5000 + "}"
        nested = "[" * 100_000 + "]" * 100_000
        for body in (digits, nested):
            response = client.post(
                "/api/v1/experiments", content=body, headers={"Content-Type": "application/json"}
            )
            assert response.status_code == 400, response.text[:300]
            assert response.json()["error"]["code"] == "bad_request"
        assert client.get("/api/v1/experiments").json()["total"] == 0


def test_a_body_without_a_valid_token_is_a_401_before_it_is_read(server: ServerProcess) -> None:
    """Not a 400 about its JSON, nor a 413 about its size: nobody is told about a body they may
    not send; a member's token is checked once (the routes reuse the holder)."""
    broken = {"content": "{not json", "headers": {"Content-Type": "application/json"}}
    huge = {"content": b"x" * (2 << 20), "headers": {"Content-Type": "application/json"}}
    for token in (None, "rsw_not-a-token"):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        for body in (broken, huge):
            answer = httpx.post(
                f"{server.url}/api/v1/experiments",
                content=body["content"],
                headers={**body["headers"], **headers},  # type: ignore[dict-item]
            )
            assert answer.status_code == 401, answer.text[:300]
            assert answer.json()["error"]["code"] == "unauthorized"
            assert answer.headers["www-authenticate"] == "Bearer"
        gone = httpx.delete(f"{server.url}/api/v1/experiments/abc", headers=headers)
        assert gone.status_code == 401
    with server.client() as client:  # with a token, the body is read and judged
        assert client.post("/api/v1/experiments", **broken).status_code == 400  # type: ignore[arg-type]
        assert client.post("/api/v1/experiments", **huge).status_code == 413  # type: ignore[arg-type]
        viewer = server.create_token("reader", "viewer")
    with server.client(viewer) as client:  # a known token without the role: 403, as before
        forbidden = client.post("/api/v1/experiments", json=minimal_spec())
        assert forbidden.status_code == 403 and forbidden.json()["error"]["code"] == "forbidden"


def test_a_usage_window_utc_cannot_hold_is_a_422(server: ServerProcess) -> None:
    with server.client() as client:
        for moment in ("0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59-01:00"):
            response = client.get("/api/v1/usage", params={"from": moment})
            assert response.status_code == 422, (moment, response.text)
            assert "outside the times UTC can hold" in response.text
        fine = client.get("/api/v1/usage", params={"from": "0001-01-01T00:00:00Z"})
        assert fine.status_code == 200, fine.text


def test_a_time_zone_must_be_a_zone_name(server: ServerProcess) -> None:
    with server.client() as client:
        for timezone in ("America", "../../etc/passwd", "Europe/" + "x" * 5000):
            response = client.post(
                "/api/v1/schedules",
                json={"name": "tz", "cron": "0 3 * * *", "timezone": timezone,
                      "spec": minimal_spec()},
            )  # fmt: skip
            assert response.status_code == 422, (timezone[:20], response.text[:300])
            assert "timezone" in problem_paths(response)
        assert client.get("/api/v1/schedules").json()["total"] == 0


@BOTH_BACKENDS
def test_label_filters_are_bounded_and_all_must_match(server: ServerProcess) -> None:
    """At most 16 filters, matched in one subquery (one EXISTS each made PostgreSQL's time grow
    with their number); an experiment matches when it has every pair."""
    with server.client() as client:
        small = submit(client, labels={"team": "a", "size": "s"})
        submit(client, labels={"team": "a", "size": "l"})
        submit(client, labels={"team": "b", "size": "s"})

        def matching(*labels: str) -> list[str]:
            params = [("label", label) for label in labels]
            response = client.get("/api/v1/experiments", params=params)
            assert response.status_code == 200, response.text
            return [e["id"] for e in response.json()["items"]]

        assert len(matching("team:a")) == 2 and len(matching("size:s")) == 2
        assert matching("team:a", "size:s") == [small]
        assert matching("team:a", "size:x") == [] and matching("team:a", "team:b") == []
        allowed = [f"k{i}:v" for i in range(14)] + ["team:a", "size:s"]
        assert matching(*allowed) == []  # 16 filters: the 14 unknown keys match nothing
        many = client.get(
            "/api/v1/experiments", params=[("label", v) for v in [*allowed, "one:more"]]
        )
        assert many.status_code == 422 and problem_paths(many) == ["query.label"]
        assert "at most 16 items" in many.text
        for bad in ("", "no-separator"):  # the documented key:value, or a 422 naming it
            refused = client.get("/api/v1/experiments", params={"label": bad})
            assert refused.status_code == 422 and problem_paths(refused) == ["query.label.0"]


@BOTH_BACKENDS
def test_nul_characters_are_refused_on_every_backend(server: ServerProcess, db_url: str) -> None:
    """PostgreSQL cannot store NUL in text; SQLite can. Either way a NUL is a 4xx, never a 500."""
    postgres = db_url.startswith("postgresql")
    with server.client() as client:
        label = client.get("/api/v1/experiments", params={"label": "team:a\x00b"})
        assert label.status_code == 422 and problem_paths(label) == ["query.label.0"]
        for url in (
            "/api/v1/experiments/abc%00def",
            "/api/v1/schedules/abc%00def",
            "/api/v1/models/abc%00def/versions",
        ):
            response = client.get(url)
            assert response.status_code == (422 if postgres else 404), (url, response.text)
            assert "error" in response.json()
        submitted = client.post("/api/v1/experiments", json=minimal_spec(labels={"team": "a\x00b"}))
        assert submitted.status_code == 422, submitted.text
        assert client.get("/api/v1/experiments").json()["total"] == 0


def upload(client: httpx.Client, data: bytes) -> httpx.Response:
    # past the checker's own 30 s limit, so that on a loaded machine the server's answer (a 422
    # naming the limit) arrives rather than the client giving up first
    return client.post(
        "/api/v1/code",
        content=data,
        headers={"Content-Type": "application/zip"},
        timeout=TIME_LIMIT_S + 60,
    )


def raw_zip(name: str, payload: bytes, *, flags: int = 0, method: int = 8) -> bytes:
    """A one-member zip whose header says ``flags`` and compression ``method`` over ``payload``
    (the zipfile module will not write an encrypted member or an unknown method itself)."""
    header = struct.pack(
        "<4s5H3L2H", b"PK\x03\x04", 20, flags, method, 0, 0x21, 0, len(payload), 100,
        len(name), 0,
    ) + name.encode()  # fmt: skip
    central = struct.pack(
        "<4s6H3L5H2L", b"PK\x01\x02", 20, 20, flags, method, 0, 0x21, 0, len(payload), 100,
        len(name), 0, 0, 0, 0, 0, 0,
    ) + name.encode()  # fmt: skip
    body = header + payload
    end = struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, 1, 1, len(central), len(body), 0)
    return body + central + end


def test_archives_the_reader_cannot_read_are_422_with_the_reason(server: ServerProcess) -> None:
    cases = {
        "encrypted": raw_zip("train.py", b"x" * 20, flags=0x1),
        "unknown method": raw_zip("train.py", b"x" * 20, method=99),
        "corrupt deflate": raw_zip("train.py", b"\xff" * 20),
        "corrupt lzma": raw_zip("train.py", b"\x09\x14\x05\x00" + b"\xff" * 40, method=14),
        "corrupt bzip2": raw_zip("train.py", b"BZh9" + b"\xff" * 40, method=12),
        "python over 1 MiB": zip_of({"train.py": "x = 1\n" * 200_000}),
    }
    with server.client() as client:
        for case, data in cases.items():
            response = upload(client, data)
            assert response.status_code == 422, (case, response.text)
            assert problem_paths(response) == ["body"], case
        assert client.get("/api/v1/code").json()["total"] == 0


def test_a_module_too_deep_to_parse_is_refused_when_a_spec_names_it(server: ServerProcess) -> None:
    deep = zip_of(
        {"train.py": "def train_loop(config):\n    pass\n", "deep.py": "1+" * 400_000 + "1"}
    )
    with server.client() as client:
        uploaded = upload(client, deep)
        assert uploaded.status_code == 201, uploaded.text
        sha = uploaded.json()["sha256"]
        refused = client.post("/api/v1/experiments", json=code_spec(sha, "deep:train_loop"))
        assert refused.status_code == 422, refused.text
        assert "too deeply nested" in refused.text
        accepted = client.post("/api/v1/experiments", json=code_spec(sha, "train:train_loop"))
        assert accepted.status_code == 201, accepted.text


def test_the_server_answers_while_a_slow_package_is_checked(server: ServerProcess) -> None:
    """A 2 kB upload whose 900 kB literal takes seconds to parse runs in the checker's child
    process: /healthz keeps answering meanwhile, nine in ten within a second (one request can
    wait longer for a core on a machine as busy as CI's; a blocked event loop answered none
    until the parse ended)."""
    slow = zip_of({"train.py": "x = [" + "1," * 450_000 + "]\n"})
    with server.client() as client, ThreadPoolExecutor(1) as pool:
        uploading = pool.submit(upload, client, slow)
        latencies = []
        while not uploading.done():
            started = time.monotonic()
            assert client.get("/healthz").status_code == 200
            latencies.append(time.monotonic() - started)
            time.sleep(0.05)
        assert uploading.result().status_code == 201
    assert len(latencies) >= 5, latencies
    assert sorted(latencies)[len(latencies) * 9 // 10 - 1] < 1.0, latencies
