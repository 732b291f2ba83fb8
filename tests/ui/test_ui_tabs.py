"""A sweep's page in tabs: the chosen one kept in the address, only the shown one asking the
API, the timeline drawing a bar per trial with its waits, the driver log showing what the
sweep's driver printed. A real server, headless Chromium."""

from __future__ import annotations

import sys
from datetime import UTC, timedelta
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, Response, expect
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from devkit.demo import seed_sweep
from raysweep.lifecycle import TrialState
from service.db.models.sweeps import EventRow, TrialRow
from service.engine import trial_logs
from service.engine.recorder import Recorder
from service.storage import driver_uri
from service.usecases.recording import ResultStore
from service.usecases.reports import ResultReported, TrialEnded
from tests.conftest import InProcessServer, ServerProcess
from tests.ui.conftest import sign_in
from tests.ui.test_ui_pages import ApiCalls, go, settle

pytestmark = pytest.mark.ui

# what each tab alone asks for
TAB_READS = {
    "trials": ["/trials?"],
    "analysis": ["/curves", "/configs", "/rungs", "/history", "/importance"],
    "timeline": ["/timeline"],
    "driver-log": ["/driver-logs"],
    "final-runs": ["/final-runs"],
}


def read_by(urls: list[str], tab: str) -> list[str]:
    return [url for url in urls if any(part in url for part in TAB_READS[tab])]


def hash_of(page: Page) -> str:
    return str(page.evaluate("location.hash"))


def test_a_sweeps_tabs_are_kept_in_the_address_and_only_the_shown_one_asks(
    page: Page, server: ServerProcess, db: sessionmaker[Session]
) -> None:
    sweep = seed_sweep(db, trials=6, max_t=5, running=2, name="tabs")
    with db.begin() as session:  # the last trial waits for the cluster now
        last = session.scalars(
            select(TrialRow).where(TrialRow.experiment_id == sweep, TrialRow.number == 6)
        ).one()
        began = last.started_at
        assert began is not None
        session.add(
            EventRow(
                experiment_id=sweep,
                trial_id=last.id,
                kind="trial_waiting",
                message="waiting for 1 CPU",
                created_at=(began if began.tzinfo else began.replace(tzinfo=UTC))
                + timedelta(seconds=30),
            )
        )
        last.waiting_for = "waiting for 1 CPU"
    assert isinstance(server, InProcessServer) and server.uvicorn is not None
    storage_root = server.uvicorn.config.app.state.raysweep.settings.storage_root
    with trial_logs.kept_output(driver_uri(storage_root, sweep), "raysweep-driver-1", 0, 1 << 20):
        print(f"the driver of {sweep} started its tuner")
        sys.stdout.flush()
    calls = ApiCalls(page)
    sign_in(page, server.admin_token)

    go(page, f"#/experiments/{sweep}")  # no tab named: the overview
    expect(page.get_by_test_id("tab-panel")).to_have_attribute("data-tab", "overview")
    expect(page.locator("[data-testid=best] a")).to_be_visible()
    settle(page)
    polled = calls.urls[:]
    assert any(f"/experiments/{sweep}/updates" in url for url in polled), polled
    for hidden in TAB_READS:
        assert read_by(polled, hidden) == [], (hidden, polled)

    page.click("button[data-tab=analysis]")
    assert hash_of(page) == f"#/experiments/{sweep}?tab=analysis"
    expect(page.locator("[data-testid=parallel] polyline")).to_have_count(6)
    assert read_by(calls.urls, "analysis")

    page.click("button[data-tab=timeline]")
    assert hash_of(page) == f"#/experiments/{sweep}?tab=timeline"
    bars = page.get_by_test_id("timeline-bar")
    expect(bars).to_have_count(6)
    expect(bars.first).to_have_attribute("data-trial", "1")
    expect(page.locator("[data-testid=timeline-bar][data-state=running]")).to_have_count(2)
    expect(
        page.locator("[data-testid=timeline-bar][data-trial='6'] [data-testid=timeline-wait]")
    ).to_have_count(1)
    legend = page.locator("[data-testid=legend][data-chart=timeline] li")
    entries = {legend.nth(i).get_attribute("data-entry") for i in range(legend.count())}
    assert {"running", "completed", "failed", "waiting for resources"} <= entries
    assert page.locator(".timeline .tick text").count() >= 2
    # the analysis tab, hidden, asks nothing more while the poll goes on
    while_hidden = calls.during(2.5)
    assert any("/updates" in url for url in while_hidden), while_hidden
    assert read_by(while_hidden, "analysis") == [], while_hidden

    page.click("button[data-tab=driver-log]")
    assert hash_of(page) == f"#/experiments/{sweep}?tab=driver-log"
    expect(page.get_by_test_id("log-box")).to_contain_text(
        f"the driver of {sweep} started its tuner"
    )
    expect(page.get_by_test_id("logs")).to_have_attribute("data-following", "true")  # still running
    expect(page.locator("select[name=log-rank]")).to_have_count(0)  # a driver has rank 0 alone

    page.reload()  # the address keeps the tab
    expect(page.get_by_test_id("tab-panel")).to_have_attribute("data-tab", "driver-log")
    expect(page.get_by_test_id("log-box")).to_contain_text("started its tuner")

    page.click("button[data-tab=trials]")
    expect(page.locator("[data-testid=trials] tbody tr")).to_have_count(6)
    page.click("button[data-tab=overview]")
    assert hash_of(page) == f"#/experiments/{sweep}"
    expect(page.get_by_test_id("events")).to_be_visible()


def test_the_timeline_fits_a_phone_and_scrolls_inside_itself(
    page: Page, server: ServerProcess, db: sessionmaker[Session]
) -> None:
    sweep = seed_sweep(db, trials=60, max_t=3, running=0, name="phone")
    page.set_viewport_size({"width": 390, "height": 800})
    sign_in(page, server.admin_token)
    go(page, f"#/experiments/{sweep}?tab=timeline")
    expect(page.get_by_test_id("timeline-bar")).to_have_count(60)
    box = page.locator(".timeline-scroll")
    assert box.evaluate("e => e.getBoundingClientRect().right") <= 390
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_live_analysis_tab_reads_again_only_what_changed(
    page: Page, server: ServerProcess, db: sessionmaker[Session]
) -> None:
    """The tab's slow refresh (every 30 s while results arrive) asks for the curves only when
    the drawn trials may have changed (a trial started or ended): the poll's results keep the
    curves shown current; the configs then too, or once they are 2 minutes old. The other views
    are asked again, and what did not change comes back as a 304 to the browser's
    If-None-Match, its body taken from the browser's cache."""
    sweep = seed_sweep(db, trials=8, max_t=9, running=2, name="live-analysis")
    with db.begin() as session:
        running = session.execute(
            select(TrialRow.tune_trial_id, TrialRow.iteration).where(
                TrialRow.experiment_id == sweep, TrialRow.state == "running"
            )
        ).all()
    answers: list[Response] = []
    page.on("response", lambda answer: answers.append(answer))
    page.clock.install()  # the 30 s refresh, run on a clock the test moves
    sign_in(page, server.admin_token)
    go(page, f"#/experiments/{sweep}?tab=analysis")
    expect(page.locator("[data-testid=parallel] polyline")).to_have_count(8)
    expect(page.locator("[data-testid=curves]")).to_have_attribute("data-series", "8")

    def report(step: int, ended: TrialState | None = None) -> None:
        recorder = Recorder(ResultStore(sweep, "val_accuracy", "max").into(db)).start()
        for tune_id, iteration in running:
            metrics = {"val_accuracy": 0.5, "training_iteration": iteration + step}
            recorder.submit(ResultReported(tune_id, iteration + step, metrics))
        if ended is not None:
            recorder.submit(TrialEnded(running[0][0], ended))
        assert recorder.close(30)

    def slow_refresh() -> dict[str, str]:
        """What the tab reads when the page's poll has seen the change and 30 s have passed:
        each view's path and how it came (``network``: a body sent; ``304``: the cached one)."""
        start = len(answers)
        page.clock.run_for(2_000)  # the poll sees the results: the tab's refresh is due
        page.wait_for_timeout(500)
        page.clock.run_for(31_000)
        page.wait_for_timeout(1_500)  # its reads, real requests, answered
        # Chromium shows a 304 as the cached 200 it revalidated: no body came over the network
        read = {}
        for answer in answers[start:]:
            path = urlsplit(answer.url).path
            if "/api/v1/" in path and not path.endswith("/updates"):
                came = answer.request.sizes()["responseBodySize"]
                read[path.rsplit("/", 1)[1]] = "network" if came > 0 else "304"
        return read

    report(1)  # results, no trial started or ended
    read = slow_refresh()
    assert {"rungs", "history", "importance"} <= read.keys(), read
    assert "curves" not in read, read  # the poll's results keep them current
    assert "configs" not in read, read  # read 30 s ago: the running trials' values can wait
    assert read["history"] == "304", read  # no trial ended: the same history

    page.clock.run_for(90_000)
    report(2)  # 2 minutes after they were read the configs come again with the new values
    read = slow_refresh()
    assert read["configs"] == "network" and "curves" not in read, read

    report(3, ended=TrialState.completed)  # a trial ended: the curves are read again
    read = slow_refresh()
    assert read["curves"] == "network" and read["history"] == "network", read
    expect(page.locator("[data-testid=curves]")).to_have_attribute("data-series", "8")
