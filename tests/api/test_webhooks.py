"""Webhook routes through a real server: a member manages a project's webhooks, a viewer reads
them and their delivery log, another project's token sees none; secrets and credential-bearing
URLs are never shown back; "send test" queues a signed delivery the controller's sender makes."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
from sqlalchemy.orm import Session, sessionmaker

from raysweep import cli
from raysweep.client import Client
from raysweep.webhooks import WebhookEvent
from service.controller.webhooks import WebhookSender
from service.settings import Settings
from tests.conftest import ServerProcess
from tests.factories import submit
from tests.webhook_receiver import Receiver, webhook_on

SECRET = "a-given-secret-0123456789"


def test_members_manage_viewers_read_and_secrets_never_come_back(
    server: ServerProcess, db: sessionmaker[Session], tmp_path: Path
) -> None:
    admin = server.client(server.admin_token)
    assert admin.post("/api/v1/projects", json={"name": "other"}).status_code == 201
    member = server.client(server.create_token("m", "member"))
    viewer = server.client(server.create_token("v", "viewer"))
    outsider = server.client(server.create_token("o", "member", project="other"))
    base = "/api/v1/projects/default/webhooks"
    with Receiver(secret=SECRET) as receiver:
        url = receiver.url.replace("http://", "http://user:pa55word@") + "?token=t0ps3cret"
        body = {"url": url, "events": ["sweep.failed", "sweep.completed"], "secret": SECRET}
        assert viewer.post(base, json=body).status_code == 403
        created = member.post(base, json=body)
        assert created.status_code == 201, created.text
        hook = created.json()
        assert hook["secret"] is None  # given, so not echoed
        assert hook["events"] == ["sweep.completed", "sweep.failed"]
        generated = member.post(base, json={"url": receiver.url, "events": ["alias.moved"]})
        made = generated.json()["secret"]
        assert made.startswith("whsec_") and len(made) > 40  # shown this once
        path = f"{base}/{hook['id']}"
        shown = [viewer.get(base), viewer.get(path), member.get(base)]
        for response in shown:
            assert response.status_code == 200
            for secret in ("pa55word", "t0ps3cret", SECRET, made):
                assert secret not in response.text
        assert viewer.get(path).json()["url"] == (
            f"http://***@127.0.0.1:{receiver.url.split(':')[2].split('/')[0]}/hook?token=***"
        )
        assert viewer.get(path).json()["url_redacted"] is True
        assert viewer.get(path).json()["secret_hint"] == f"…{SECRET[-4:]}"
        # a viewer may not change, test or delete; another project's token finds nothing
        assert viewer.patch(path, json={"enabled": False}).status_code == 403
        assert viewer.post(f"{path}/test").status_code == 403
        assert viewer.delete(path).status_code == 403
        for method, where in (("GET", path), ("GET", f"{path}/deliveries"), ("DELETE", path)):
            assert outsider.request(method, where).status_code == 404
        assert outsider.get(f"{base.replace('default', 'other')}/{hook['id']}").status_code == 404
        assert outsider.get(base).status_code == 404
        # send test: queued, sent by the controller's sender, signed, logged
        queued = member.post(f"{path}/test")
        assert queued.status_code == 202 and queued.json()["state"] == "pending"
        sender = WebhookSender(db, Settings(home=tmp_path))
        try:
            assert sender.run_once() == 1
        finally:
            sender.close()
        [test] = receiver.wait_for("webhook.test")
        assert test["id"] == queued.json()["id"] and test["project"] == "default"
        assert receiver.received[0].verified
        log = viewer.get(f"{path}/deliveries").json()
        assert log["total"] == 1
        [entry] = log["items"]
        assert (entry["state"], entry["attempts"], entry["response_code"]) == ("delivered", 1, 200)
        changed = member.patch(path, json={"enabled": False, "events": ["trial.failed"]})
        assert changed.json()["enabled"] is False and changed.json()["events"] == ["trial.failed"]
        assert member.delete(path).status_code == 204
        assert viewer.get(path).status_code == 404
    refused = member.post(base, json={"url": "ftp://example.com/x", "events": ["sweep.failed"]})
    assert refused.status_code == 422
    unknown = member.post(base, json={"url": "http://example.com", "events": ["sweep.exploded"]})
    assert unknown.status_code == 422


def test_the_sdk_helper_and_the_cli_register_a_receiver_that_gets_a_sweeps_cancel(
    server: ServerProcess,
    db: sessionmaker[Session],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    token = server.admin_token
    sender = WebhookSender(db, Settings(home=tmp_path))
    try:
        with webhook_on(server.url, token, events=["sweep.cancelled"]) as receiver:
            experiment_id = submit(server.client(token))
            cancel = server.client(token).post(f"/api/v1/experiments/{experiment_id}/cancel")
            assert cancel.status_code == 200, cancel.text
            assert sender.run_once() == 1
            [cancelled] = receiver.wait_for("sweep.cancelled")
            assert cancelled["data"]["experiment_id"] == experiment_id
        assert Client(server.url, token).webhooks("default") == []  # the helper deleted it
        common = ["--url", server.url, "--token", token, "--output", "json"]
        with Receiver() as receiver:
            assert cli.main(["webhooks", "add", receiver.url, "all", *common]) == 0
            created = json.loads(capsys.readouterr().out)
            assert len(created["events"]) == len(WebhookEvent) and created["secret"]
            receiver.secret = created["secret"]
            assert cli.main(["webhooks", "ls", *common]) == 0
            assert json.loads(capsys.readouterr().out)[0]["id"] == created["id"]
            tested = threading.Thread(target=sender.run_once)
            threading.Timer(1, tested.start).start()  # the controller, a pass later
            assert cli.main(["webhooks", "test", str(created["id"]), *common]) == 0
            [delivery] = json.loads(capsys.readouterr().out)
            assert (delivery["event"], delivery["state"]) == ("webhook.test", "delivered")
            assert receiver.received[0].verified
            assert cli.main(["webhooks", "rm", str(created["id"]), *common]) == 0
            assert cli.main(["webhooks", "rm", "x", *common]) == 2
    finally:
        sender.close()
