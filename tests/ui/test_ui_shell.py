"""The UI's frame end to end: signing in, the experiments list and the project switcher, and
every page on a phone's screen. A real server on a real database, driven in headless Chromium."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from service.db.models.sweeps import ResultRow, TrialRow
from tests.conftest import ServerProcess
from tests.factories import (
    production_model,
    submit,
)
from tests.ui.conftest import Seeded, sign_in

pytestmark = pytest.mark.ui


def test_sign_in_refuses_a_bad_token_then_lists_experiments(
    page: Page, server: ServerProcess, seeded: Seeded
) -> None:
    page.goto("/")
    page.fill("input[name=token]", "rsw_not-a-real-token")
    page.click("button[type=submit]")
    expect(page.get_by_role("alert")).to_contain_text("not accepted")

    sign_in(page, server.admin_token)
    rows = page.locator("[data-testid=experiments] tbody tr")
    expect(rows).to_have_count(2)
    # newest first: the finished sweep was seeded second
    expect(rows.nth(0)).to_contain_text("done-sweep")
    expect(rows.nth(1)).to_contain_text("live-sweep")
    expect(rows.nth(1)).to_contain_text("team:vision")
    # one bar segment per state: running, completed, pruned, failed
    expect(rows.nth(1).locator(".progress span")).to_have_count(4)
    # beside it, the trials ended of those planned (no num_samples in the seeded spec: all so far)
    with server.client() as client:
        live = client.get(f"/api/v1/experiments/{seeded.running}").json()
    counts = live["trial_counts"]
    ended = sum(n for state, n in counts.items() if state in ("completed", "pruned", "failed"))
    assert 0 < ended < sum(counts.values())
    expect(rows.nth(1).locator(".progress-count")).to_have_text(f"{ended}/{sum(counts.values())}")
    # the tab names the page; the icon is inline, so it needs no route of its own
    expect(page).to_have_title("experiments · raysweep")
    icon = page.locator("link[rel=icon]")
    expect(icon).to_have_attribute("href", re.compile(r"^data:image/svg\+xml,"))

    page.select_option("select[name=state]", "completed")
    expect(rows).to_have_count(1)
    expect(rows.nth(0)).to_contain_text("done-sweep")

    page.reload()  # the token is kept in the browser: no second sign-in
    expect(page.get_by_test_id("who")).to_contain_text("admin")


PHONE = {"width": 390, "height": 844}


def test_on_a_phone_no_page_is_wider_than_the_screen_and_the_trial_axes_read_well(
    browser: Browser,
    server: ServerProcess,
    seeded: Seeded,
    db: sessionmaker[Session],
) -> None:
    model_sweep = production_model(db)
    with db.begin() as session:  # a trial that reported a decaying lr and a throughput
        trial = session.scalars(
            select(TrialRow).where(
                TrialRow.experiment_id == seeded.running, TrialRow.state == "completed"
            )
        ).first()
        assert trial is not None
        trial_id = trial.id
        for result in session.scalars(select(ResultRow).where(ResultRow.trial_id == trial_id)):
            decay = 1 - result.iteration / 10
            result.metrics = {
                **result.metrics,
                "lr": 1e-4 * decay,
                "throughput": 12_000 + 150 * result.iteration,
            }
    context = browser.new_context(base_url=server.url, viewport=PHONE)
    context.add_init_script(f"localStorage.setItem('raysweep.token', '{server.admin_token}')")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    pages = {
        "experiments": ("/#/", "[data-testid=experiments] tbody tr"),
        "experiment": (
            f"/#/experiments/{seeded.running}?tab=analysis",
            "[data-testid=parallel] polyline",
        ),
        "timeline": (f"/#/experiments/{seeded.running}?tab=timeline", "[data-testid=timeline-bar]"),
        "trial": (f"/#/trials/{trial_id}", "[data-metric=lr][data-y-ticks]"),
        "promoted sweep": (
            f"/#/experiments/{model_sweep}?tab=final-runs",
            "[data-testid=final-runs] tbody tr",
        ),
        "models": ("/#/models", "[data-testid=models] tbody tr"),
        "schedules": ("/#/schedules", "h1"),
    }
    for name, (route, drawn) in pages.items():
        page.goto(route)
        expect(page.locator(drawn).first).to_be_attached()
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], name
        # the header wraps between its items, never inside one ("sch/edules")
        split = page.eval_on_selector_all(
            "header.top nav a, header.top .who, header.top .brand",
            "items => items.filter(i => i.getClientRects().length > 1).map(i => i.textContent)",
        )
        assert split == [], name

    page.goto(f"/#/trials/{trial_id}")
    expect(page.get_by_test_id("metric-card").locator("h3")).to_have_text("val_accuracy")
    expect(page.locator("[data-metric=throughput][data-y-ticks]")).to_be_attached()
    for metric in ("lr", "throughput", "val_accuracy"):
        chart = page.locator(f"[data-metric={metric}]")
        y_ticks = chart.get_attribute("data-y-ticks").split("|")  # type: ignore[union-attr]
        x_ticks = chart.get_attribute("data-x-ticks").split("|")  # type: ignore[union-attr]
        assert len(set(y_ticks)) == len(y_ticks) > 1, (metric, y_ticks)  # no "0 0 0"
        assert all("," not in tick for tick in y_ticks), (metric, y_ticks)  # no "0,000"
        assert all(re.fullmatch(r"\d+", tick) for tick in x_ticks), (metric, x_ticks)
    lr_ticks = page.locator("[data-metric=lr]").get_attribute("data-y-ticks")
    assert lr_ticks is not None and "e-5" in lr_ticks  # 1e-4 decaying: exponent form
    # the final-runs and models tables have the grid style of every other table
    for table in ("final-runs", "models"):
        page.goto(
            f"/#/experiments/{model_sweep}?tab=final-runs" if table == "final-runs" else "/#/models"
        )
        expect(page.locator(f"table.grid[data-testid={table}]")).to_be_attached()
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def test_the_project_switcher_narrows_the_list_and_shows_the_projects_usage(
    page: Page, server: ServerProcess
) -> None:
    with server.client() as admin:
        assert (
            admin.post("/api/v1/projects", json={"name": "vision", "weight": 3}).status_code == 201
        )
        default_sweep = submit(admin, name="in-default")
        vision_sweep = submit(admin, name="in-vision", project="vision")
    sign_in(page, server.create_token("admin-2", "admin"))
    rows = page.locator("[data-testid=experiments] tbody tr")
    expect(rows).to_have_count(2)
    page.get_by_test_id("project").select_option("vision")
    expect(rows).to_have_count(1)
    expect(rows.nth(0)).to_have_attribute("data-experiment", vision_sweep)
    expect(page.get_by_test_id("project-usage")).to_contain_text("weight 3")
    expect(page.get_by_test_id("project-usage")).to_contain_text("0.000 worker-hours")
    page.reload()  # the choice is kept
    expect(page.get_by_test_id("project")).to_have_value("vision")
    expect(rows).to_have_count(1)
    page.get_by_test_id("project").select_option("")
    expect(page.locator(f"[data-experiment='{default_sweep}']")).to_be_visible()
    page.click(f"[data-experiment='{vision_sweep}'] a")
    compute = page.get_by_test_id("compute")
    expect(compute).to_contain_text("project vision")
    expect(compute).to_contain_text("0.000 worker-h")
