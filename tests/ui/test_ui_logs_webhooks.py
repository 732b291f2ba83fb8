"""The trial page's logs (by rank and attempt, followed while the trial runs, a failed trial's
last lines beside its error) and the webhooks page (a project's own, "send test" landing). The
logs are written as a Train worker writes them (``LoggedFunction`` in this process, no Ray);
the webhook deliveries are sent by the controller's sender on a thread, as the server runs it."""

from __future__ import annotations

import re
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect
from sqlalchemy.orm import Session, sessionmaker

from raysweep.client import Client
from raysweep.lifecycle import TrialState
from service.controller.webhooks import WebhookSender
from service.db.models.sweeps import TrialRow
from service.engine.trial_logs import LoggedFunction
from service.settings import Settings
from tests.api.test_trial_logs import as_worker, run_dir, running_trial
from tests.conftest import ServerProcess
from tests.ui.conftest import sign_in
from tests.ui.test_ui_pages import ApiCalls, go
from tests.webhook_receiver import Receiver

pytestmark = pytest.mark.ui

TRACEBACK = "Traceback (most recent call last):"


def in_view(box: Locator, line: Locator) -> bool:
    """Whether ``line`` lies (at least half) inside the visible part of the box that scrolls it."""
    inside: bool = box.evaluate(
        """(box, line) => {
            const b = box.getBoundingClientRect(), l = line.getBoundingClientRect();
            return l.top + l.height / 2 > b.top && l.bottom - l.height / 2 < b.bottom;
        }""",
        line.element_handle(),
    )
    return inside


def log_lines(page: Page) -> Locator:
    return page.locator("[data-testid=log-box] .log-line")


def write_failed_attempt(
    server: ServerProcess,
    db: sessionmaker[Session],
    trial: TrialRow,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two workers of one attempt: rank 0 prints five steps, a warning on stderr and dies with a
    traceback; rank 1, later, prints 2,000 steps before its group is torn down, more than its
    log keeps (16 KiB: its head and its latest lines)."""

    def rank_0(config: dict[str, Any]) -> None:
        for step in range(1, 6):
            print(f"rank 0 step {step}")
        sys.stderr.write("a warning on stderr\n")
        raise ValueError("bad batch at step 5")

    def rank_1(config: dict[str, Any]) -> None:
        for step in range(1, 2001):
            print(f"rank 1 step {step}")

    as_worker(monkeypatch, "pgonly", 0)
    with pytest.raises(ValueError, match="bad batch"):
        LoggedFunction(rank_0, run_dir(server, trial), 1 << 20)({})
    time.sleep(0.02)  # rank 1's lines come after rank 0's
    as_worker(monkeypatch, "pgonly", 1)
    LoggedFunction(rank_1, run_dir(server, trial), 16 * 1024)({})
    with db.begin() as session:
        row = session.get_one(TrialRow, trial.id)
        row.state, row.error = TrialState.failed, "ValueError: bad batch at step 5"
        row.finished_at = datetime.now(UTC)


def test_a_failed_trials_logs_by_rank_with_its_last_lines_beside_its_error(
    page: Page, server: ServerProcess, db: sessionmaker[Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    trial = running_trial(db)
    write_failed_attempt(server, db, trial, monkeypatch)
    with server.client() as client:
        served = client.get(f"/api/v1/trials/{trial.id}/logs").json()
        rank_1 = client.get(f"/api/v1/trials/{trial.id}/logs", params={"rank": 1}).json()
    assert 0 < served["dropped"] == rank_1["dropped"] < 2000
    calls = ApiCalls(page)
    sign_in(page, server.admin_token)
    go(page, f"#/trials/{trial.id}")

    # beside its error: the last 20 lines of its latest attempt, the newest last
    tail = page.get_by_test_id("log-tail")
    expect(tail.locator(".log-line")).to_have_count(20)
    expect(tail.locator(".log-line").last).to_contain_text("rank 1 step 2000")
    expect(tail.locator(".log-line").first).to_contain_text("rank 1 step 1981")
    error_box = page.get_by_test_id("traceback").bounding_box()
    tail_box = tail.bounding_box()
    assert error_box and tail_box and tail_box["x"] >= error_box["x"] + error_box["width"]
    assert abs(tail_box["y"] - error_box["y"]) < 40  # side by side at 1400 px

    # the logs tab: every line kept, oldest first, stderr marked, what was dropped said where,
    # the box at its end
    tail.locator("button[data-action=open-logs]").click()
    expect(page).to_have_url(re.compile(r"\?tab=logs$"))
    lines = log_lines(page)
    expect(lines).to_have_count(len(served["lines"]))
    dropped = f"{served['dropped']:,} lines dropped between the head and the latest lines"
    expect(page.get_by_test_id("log-dropped")).to_have_text(dropped)
    expect(page.get_by_test_id("log-gap")).to_have_text(
        f"… {served['dropped']:,} lines of attempt 1 rank 1 dropped here …"
    )
    # oldest first (stdout's and stderr's lines are timed by their own readers: the warning
    # may sort before the steps printed just ahead of it)
    first_out = page.locator("[data-testid=log-box] .log-line:not(.stderr)").first
    assert first_out.locator(".log-text").text_content() == "rank 0 step 1"
    expect(first_out.locator(".log-meta")).to_contain_text(re.compile(r"a1 r0 out$"))
    warning = page.locator(".log-line.stderr", has_text="a warning on stderr")
    expect(warning.locator(".log-meta")).to_contain_text("a1 r0 err")
    box = page.get_by_test_id("log-box")
    start = page.locator(".log-line", has_text=TRACEBACK)
    assert in_view(box, lines.last) and not in_view(box, start)
    page.click("button[data-action=jump-to-error]")
    expect(start).to_have_class(re.compile("jumped"))
    assert in_view(box, start)
    assert calls.urls and not [url for url in calls.during(1.5) if "/logs" in url]  # ended

    # one rank, kept in the address: a reload shows it again
    page.select_option("select[name=log-rank]", "1")
    expect(lines).to_have_count(len(rank_1["lines"]))
    expect(page.locator("[data-testid=log-box] .log-line[data-rank='0']")).to_have_count(0)
    expect(page.locator("button[data-action=jump-to-error]")).to_be_disabled()
    expect(page).to_have_url(re.compile(r"tab=logs&rank=1$"))
    page.reload()
    expect(lines).to_have_count(len(rank_1["lines"]))
    expect(page.locator("select[name=log-rank]")).to_have_value("1")

    # a phone: the box scrolls its long lines itself, the page keeps its width
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(200)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_running_trials_logs_follow_its_new_lines_until_it_ends_or_the_page_is_left(
    page: Page, server: ServerProcess, db: sessionmaker[Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    trial = running_trial(db)
    as_worker(monkeypatch, "pgonly", 0)
    release = threading.Event()

    def slow(config: dict[str, Any]) -> None:
        print("first line")
        release.wait(30)
        print("second line, written after the page opened")

    worker = threading.Thread(
        target=LoggedFunction(slow, run_dir(server, trial), 1 << 20), args=({},)
    )
    worker.start()
    try:
        calls = ApiCalls(page)
        sign_in(page, server.admin_token)
        go(page, f"#/trials/{trial.id}?tab=logs")
        expect(log_lines(page)).to_have_text(re.compile("first line"))
        expect(page.get_by_test_id("logs")).to_have_attribute("data-following", "true")
        page.evaluate("window.sameDocument = true")
        release.set()
        expect(log_lines(page)).to_have_count(2)
        expect(log_lines(page).last).to_contain_text("second line, written after the page opened")
        assert page.evaluate("window.sameDocument") is True  # appended, not reloaded
    finally:
        release.set()
        worker.join(10)

    # left while following: the long poll waiting is dropped, nothing more is asked
    with page.expect_event("requestfailed", lambda r: "/logs" in r.url, timeout=5000) as dropped:
        go(page, "#/")
    assert "wait_s=25" in dropped.value.url and dropped.value.failure == "net::ERR_ABORTED"
    expect(page.locator("[data-testid=experiments] tbody tr")).to_have_count(1)
    assert not [url for url in calls.during(1.5) if "/logs" in url]

    go(page, f"#/trials/{trial.id}?tab=logs")  # back, following; then the trial ends
    expect(log_lines(page)).to_have_count(2)
    expect(page.get_by_test_id("logs")).to_have_attribute("data-following", "true")
    with db.begin() as session:
        row = session.get_one(TrialRow, trial.id)
        row.state, row.finished_at = TrialState.completed, datetime.now(UTC)
    expect(page.locator("h1 .badge[data-state]").first).to_have_text("completed")
    expect(page.get_by_test_id("logs")).to_have_attribute("data-following", "false")
    page.wait_for_timeout(300)
    assert not [url for url in calls.during(1.5) if "/logs" in url]


@contextmanager
def sending(db: sessionmaker[Session], home: Path) -> Iterator[None]:
    """The controller's webhook sender, a pass every 0.2 s on a thread, as the server runs it."""
    sender = WebhookSender(db, Settings(home=home))
    stop = threading.Event()

    def passes() -> None:
        while not stop.is_set():
            sender.run_once()
            stop.wait(0.2)

    thread = threading.Thread(target=passes, name="webhook-sender", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(10)
        sender.close()


def sign_in_again(page: Page, token: str) -> None:
    page.evaluate("localStorage.clear()")  # the token and the project chosen
    sign_in(page, token)


def test_the_webhooks_page_shows_a_projects_own_and_send_test_shows_the_delivery_land(
    page: Page, server: ServerProcess, db: sessionmaker[Session], tmp_path: Path
) -> None:
    admin = server.client(server.admin_token)
    assert admin.post("/api/v1/projects", json={"name": "other"}).status_code == 201
    member = server.create_token("m", "member")
    outsider = server.create_token("o", "viewer", project="other")
    with Receiver() as receiver, Client(server.url, server.admin_token) as client:
        hook = client.create_webhook("default", receiver.url, ["sweep.completed"])
        receiver.secret = hook.secret
        client.create_webhook("other", "http://127.0.0.1:9/other-hook?token=abc", ["sweep.failed"])

        # a member of default, every project chosen: default's webhook alone
        calls = ApiCalls(page)
        sign_in(page, member)
        go(page, "#/webhooks")
        card = page.get_by_test_id("webhook")
        expect(card).to_have_count(1)
        expect(card.get_by_test_id("webhook-url")).to_have_text(receiver.url)
        expect(card.get_by_test_id("webhook-events")).to_have_text("sweep.completed")
        expect(page.locator("main")).not_to_contain_text("other-hook")
        card.locator("button[data-action=send-test]").click()
        row = card.locator("[data-testid=deliveries] tbody tr")
        expect(row).to_have_count(1)
        expect(row.locator(".badge")).to_have_text("queued")
        with sending(db, tmp_path / "sender"):  # the controller's next pass sends it
            [delivered] = receiver.wait_for("webhook.test")
            # the page's next poll shows it (CI's loaded 2 cores took over 5 s for send + poll)
            expect(row).to_have_attribute("data-state", "delivered", timeout=20_000)
        expect(row.get_by_test_id("response-code")).to_have_text("200")
        expect(row.locator(".badge")).to_have_text("delivered")
        assert row.get_attribute("data-delivery") == str(delivered["id"])
        page.wait_for_timeout(300)
        assert not [url for url in calls.during(2) if "/deliveries" in url]  # all final

        # a member adds one: its secret shown once
        page.click("button[data-action=add-webhook]")
        page.fill("input[name=webhook-url]", receiver.url + "/second")
        page.click("button[data-action=create-webhook]")
        secret = page.locator("[data-testid=new-secret] code.secret")
        expect(secret).to_have_text(re.compile(r"^whsec_"))
        made = secret.text_content() or ""
        expect(card).to_have_count(2)
        page.reload()
        expect(card).to_have_count(2)
        expect(page.get_by_test_id("new-secret")).to_have_count(0)
        expect(card.nth(1)).to_contain_text(f"…{made[-4:]}")
        page.set_viewport_size({"width": 390, "height": 844})
        page.wait_for_timeout(200)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.set_viewport_size({"width": 1400, "height": 1000})

        # the admin choosing project other: other's alone, its URL's token hidden
        sign_in_again(page, server.admin_token)
        go(page, "#/webhooks")
        page.select_option("select[name=project]", "other")
        expect(card).to_have_count(1)
        expect(card.get_by_test_id("webhook-url")).to_have_text(
            "http://127.0.0.1:9/other-hook?token=***"
        )
        expect(page.locator("main")).not_to_contain_text(receiver.url)

        # a viewer of other: other's, without the member's buttons; default's never
        sign_in_again(page, outsider)
        go(page, "#/webhooks")
        expect(card).to_have_count(1)
        expect(card.get_by_test_id("webhook-url")).to_contain_text("other-hook")
        expect(page.locator("main")).not_to_contain_text(receiver.url)
        expect(page.locator("button[data-action=send-test]")).to_have_count(0)
        expect(page.locator("button[data-action=add-webhook]")).to_have_count(0)
