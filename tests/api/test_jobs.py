"""The routes Ray jobs read and store through (``/api/v1/jobs``), with the job's own token:
what a sweep's driver does there end to end (through the driver's own client, ``JobApi``), on
both databases, and what a holder of such a token cannot do: act on another sweep or final
run, use any other route, outlive its sweep or its attempt, or be forged. A member's token
cannot use these routes."""

from __future__ import annotations

from typing import Any, get_args

import httpx
import pytest
from pydantic import TypeAdapter
from sqlalchemy import update
from sqlalchemy.orm import Session, sessionmaker

from raysweep.lifecycle import TrialState
from service.db.models.sweeps import ExperimentRow
from service.engine import recorder
from service.engine.job_api import JobApi, Refused, Unavailable
from service.engine.recorder import BatchPoster, Recorder
from service.resources import HeldSegment, ProjectShare
from service.usecases.decisions import RungDecided
from service.usecases.driving import OpJson, SweepStart, ops_json
from service.usecases.exploits import ExploitDecided
from service.usecases.job_tokens import driver_job_id, final_run_job_id, job_token, job_token_key
from service.usecases.reports import (
    Op,
    ReservationReclaimed,
    ResultReported,
    TrialEnded,
    TrialHeld,
    TrialRestarted,
    TrialStarted,
    TrialWaiting,
    TrialYielded,
)
from tests.conftest import BOTH_BACKENDS, ServerProcess
from tests.engine.sweeps import events_of, trials_of
from tests.factories import submit


def test_every_kind_of_report_travels_to_the_records_route_and_back_unchanged() -> None:
    """What the driver encodes (``ops_json``) is what the route decodes (``OpJson``), for every
    op the recorder stores: the route's union names them all."""
    batch: list[Op] = [
        TrialStarted("t1", {"lr": 0.1, "layers": [1, 2]}),
        ResultReported("t1", 3, {"epoch": 3, "val_loss": 0.25}, "/storage/e/train/t1/checkpoint_3"),
        TrialEnded("t1", TrialState.failed, "ValueError: boom"),
        TrialRestarted("t1", "a worker died", 2),
        ReservationReclaimed("", "a run died while its workers started"),
        TrialYielded("t1", 4),
        TrialWaiting("t1", "waits for 2 CPUs"),
        RungDecided("t1", 0, 3, 0.25, 0.3, 1, 4, "promote"),
        ExploitDecided("t1", 2, "t2", 0.4, 0.2, {"lr": 0.1}, {"lr": 0.12, "layers": [1, 2]}),
        TrialHeld("t1", HeldSegment("k", "e1", "t1", 1.0, 2.5, False, 2, 1.0, 0.0)),
    ]
    assert {type(op) for op in batch} == set(get_args(Op))
    assert TypeAdapter(list[OpJson]).validate_json(ops_json(batch)) == batch


def driver_api(
    server: ServerProcess,
    db: sessionmaker[Session],
    experiment_id: str,
    attempt: int = 0,
    transport: httpx.BaseTransport | None = None,
) -> JobApi:
    token = job_token(job_token_key(db), driver_job_id(experiment_id, attempt))
    return JobApi(server.url, token, patience_s=5, transport=transport)


class LosesAnswers(httpx.BaseTransport):
    """Hands each request to the server, then loses the answer to the next ``lose`` batches of
    reports, as a connection dropped after the server's commit does."""

    def __init__(self) -> None:
        self.inner = httpx.HTTPTransport()
        self.lose = self.posted = 0

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = self.inner.handle_request(request)
        if request.url.path.endswith("/sweep/records"):
            self.posted += 1
            if self.lose:
                self.lose -= 1
                response.read()
                response.close()
                raise httpx.ReadError("the connection dropped after the answer", request=request)
        return response


@BOTH_BACKENDS
def test_a_driver_reads_its_sweep_and_stores_its_reports_through_the_api(
    server: ServerProcess, db: sessionmaker[Session]
) -> None:
    with server.client() as client:
        experiment_id = submit(client)
        api = driver_api(server, db, experiment_id)
        start: SweepStart = api.call("GET", "/sweep", SweepStart)
        assert start.spec["name"] and start.finished == start.unfinished == []
        recorder = Recorder(BatchPoster(api))
        recorder.start()
        recorder.submit(TrialStarted("t1", {"lr": 0.1, "hidden": 16}))
        for epoch in (1, 2):
            recorder.submit(
                ResultReported("t1", epoch, {"epoch": epoch, "val_accuracy": 0.4 * epoch})
            )
        recorder.submit(TrialEnded("t1", TrialState.completed))
        # the batch sent again (a restored driver): stored once
        recorder.submit(ResultReported("t1", 2, {"epoch": 2, "val_accuracy": 0.8}))
        assert recorder.close(30), recorder.last_error
        [trial] = trials_of(client, experiment_id)
        assert trial["state"] == "completed" and trial["iteration"] == 2
        assert api.call("GET", "/sweep", SweepStart).finished == ["t1"]
        assert api.call("GET", "/sweep/request", dict)["request"] is None
        assert api.call("GET", "/sweep/share", ProjectShare) == ProjectShare()
        assert api.call("GET", "/sweep/budget", dict)["spent"] is None
        client.post(f"/api/v1/experiments/{experiment_id}/cancel").raise_for_status()


def test_a_job_token_reaches_its_own_record_only_and_nothing_else(
    server: ServerProcess, db: sessionmaker[Session]
) -> None:
    with server.client() as client:
        mine, other = submit(client), submit(client)
        api = driver_api(server, db, mine)
        key = job_token_key(db)
        headers = {"Authorization": f"Bearer {api.token}"}
        # the token names the sweep: no path or body can point it at another one
        assert (
            api.call("GET", "/sweep", SweepStart).spec
            == client.get(f"/api/v1/experiments/{mine}").json()["spec"]
        )
        # no other route takes it, reading or writing (the body is never parsed)
        for method, path in (
            ("GET", "/api/v1/experiments"),
            ("GET", f"/api/v1/experiments/{mine}"),
            ("GET", f"/api/v1/experiments/{other}"),
            ("POST", f"/api/v1/experiments/{other}/cancel"),
            ("POST", "/api/v1/experiments"),
        ):
            answer = client.request(method, path, headers=headers, content=b"{not json")
            assert answer.status_code == 401, (method, path, answer.text)
        # a member's or admin's token does not reach the jobs' routes
        for token in (server.admin_token, server.create_token("m", "member")):
            answer = client.get("/api/v1/jobs/sweep", headers={"Authorization": f"Bearer {token}"})
            assert answer.status_code == 401, answer.text
        # a final run's token does not reach a sweep's routes, nor a sweep's a final run's
        final = job_token(key, final_run_job_id(1, 0))
        answer = client.get("/api/v1/jobs/sweep", headers={"Authorization": f"Bearer {final}"})
        assert answer.status_code == 403
        answer = client.post("/api/v1/jobs/final-run/start", headers=headers)
        assert answer.status_code == 403
        # forged or unsigned: 401 before the body is read
        forged = api.token[:-2] + ("AA" if not api.token.endswith("AA") else "BB")
        for bad in (forged, "rsj_raysweep-abc-0", "rsj_"):
            answer = client.post(
                "/api/v1/jobs/sweep/records",
                headers={"Authorization": f"Bearer {bad}"},
                content=b"[{broken",
            )
            assert answer.status_code == 401, answer.text
        # an op the store does not know, or a malformed one: a 422 naming it, nothing stored
        for batch in ([{"op": "DropTables"}], [{"op": "TrialStarted", "tune_id": 5}]):
            answer = client.post("/api/v1/jobs/sweep/records", headers=headers, json=batch)
            assert answer.status_code == 422, answer.text
        assert trials_of(client, mine) == []
        # only the events a driver tells about Ray
        answer = client.post(
            "/api/v1/jobs/sweep/events",
            headers=headers,
            json={"kind": "completed", "message": "sweep completed"},
        )
        assert answer.status_code == 422


def test_a_job_token_is_revoked_by_a_newer_attempt_and_by_its_sweep_ending(
    server: ServerProcess, db: sessionmaker[Session]
) -> None:
    with server.client() as client:
        experiment_id = submit(client)
        first, second = (
            driver_api(server, db, experiment_id, 0),
            driver_api(server, db, experiment_id, 1),
        )
        assert first.call("GET", "/sweep/request", dict)["request"] is None
        with db.begin() as session:  # the controller resubmitted the driver (attempt 1)
            session.execute(
                update(ExperimentRow)
                .where(ExperimentRow.id == experiment_id)
                .values(state="running", driver_attempts=2)
            )
        with pytest.raises(Refused) as refused:
            first.call("GET", "/sweep/request", dict)
        assert refused.value.status == 401 and "no longer running" in str(refused.value)
        assert second.call("GET", "/sweep/request", dict)["request"] is None
        client.post(f"/api/v1/experiments/{experiment_id}/cancel").raise_for_status()
        assert second.call("GET", "/sweep/request", dict)["request"] == "cancel"
        ended = second.call("POST", "/sweep/finish", dict, body={"error": None, "terminated": True})
        assert ended["state"] == "cancelled"
        with pytest.raises(Refused):  # the sweep ended: the token with it
            second.call("POST", "/sweep/records", body=ops_json([TrialStarted("t9", {})]))
        assert trials_of(client, experiment_id) == []


def test_a_batch_too_large_for_one_body_goes_in_halves_in_order(
    server: ServerProcess, db: sessionmaker[Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Reports so large that a batch's body would pass the API's limit are sent in halves,
    each stored; none is refused or lost. Sent again after the first half's answer was lost,
    each half keeps its number: the half stored before is not stored twice."""
    with server.client() as client:
        experiment_id = submit(client)
        bodies: list[int] = []
        network = LosesAnswers()
        api = driver_api(server, db, experiment_id, transport=network)
        call = api.call

        def counting(method: str, path: str, *args: Any, **kwargs: Any) -> Any:
            bodies.append(len(kwargs.get("body") or b""))
            return call(method, path, *args, **kwargs)

        monkeypatch.setattr(api, "call", counting)
        monkeypatch.setattr(recorder, "MAX_BATCH_BYTES", 3_000)
        batch: list[Op] = [TrialStarted("t1", {"lr": 0.1, "hidden": 16})]
        batch += [TrialRestarted("t1", "a worker died")]
        batch += [
            ResultReported("t1", epoch, {"epoch": epoch, "val_accuracy": 0.1, "note": "x" * 500})
            for epoch in range(1, 9)
        ]
        poster = BatchPoster(api)
        api.patience_s, network.lose = 0, 1
        with pytest.raises(Unavailable):
            poster(batch)  # the first half stored, its answer lost: the driver gives up
        poster(batch)  # the recorder sends the same batch again
        poster([TrialRestarted("t1", "its node was lost")])  # and the next one
        [trial] = trials_of(client, experiment_id)
        client.post(f"/api/v1/experiments/{experiment_id}/cancel").raise_for_status()
    assert len(bodies) > 2 and max(bodies) <= 3_000, bodies
    assert trial["iteration"] == 8 and trial["restarts"] == 2


@BOTH_BACKENDS
def test_a_batch_whose_answer_was_lost_is_stored_once(
    server: ServerProcess, db: sessionmaker[Session]
) -> None:
    """The server stored a batch and its answer was lost on the way: the driver sends the batch
    again (its client within its patience; past that, its recorder), and the server, which knows
    the batch by its number, stores it once: a restart is counted once, its event written once,
    while the next batch is stored as usual."""
    with server.client() as client:
        experiment_id = submit(client)
        network = LosesAnswers()
        api = driver_api(server, db, experiment_id, transport=network)
        poster = BatchPoster(api)
        # the client sends it again at once (patient: a loaded CI machine once took longer
        # than the 5 s driver_api gives to store the first)
        api.patience_s, network.lose = 60, 1
        poster(
            [
                TrialStarted("t1", {"lr": 0.1}),
                ResultReported("t1", 1, {"epoch": 1, "val_accuracy": 0.5}),
                TrialRestarted("t1", "a worker died"),
            ]
        )
        assert network.posted == 2
        api.patience_s, network.lose = 0, 1  # the client gives up: the recorder sends it again
        writer = Recorder(poster, max_backoff_s=0.1).start()
        writer.submit(TrialRestarted("t1", "its node was lost"))
        assert writer.close(timeout_s=30)
        assert network.posted == 4 and writer.last_error is None
        [trial] = trials_of(client, experiment_id)
        restarts = [e for e in events_of(client, experiment_id) if e["kind"] == "trial_restarted"]
        client.post(f"/api/v1/experiments/{experiment_id}/cancel").raise_for_status()
    assert trial["restarts"] == 2 and trial["iteration"] == 1
    assert sorted(e["data"]["restarts"] for e in restarts) == [1, 2]
