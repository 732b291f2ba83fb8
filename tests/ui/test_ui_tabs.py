"""A sweep's page in tabs: the chosen one kept in the address, only the shown one asking the
API, the timeline drawing a bar per trial with its waits, the driver log showing what the
sweep's driver printed. A real server, headless Chromium."""

from __future__ import annotations

import sys
from datetime import UTC, timedelta

import pytest
from playwright.sync_api import Page, expect
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from service.db.models import EventRow, TrialRow
from service.demo import seed_sweep
from service.engine import trial_logs
from service.storage import driver_uri
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
