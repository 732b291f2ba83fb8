"""The web UI tells the truth page by page: nothing of one page carried to the next, an error
kept to the view it broke, no polling of what cannot change, charts whose best and ranges come
from trials that count, words that read as sentences. A real server, headless Chromium."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, Request, Route, expect
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from devkit.demo import seed_sweep
from raysweep.lifecycle import ExperimentState, TrialState
from service.db.models.access import ProjectRow
from service.db.models.sweeps import ExperimentRow, TrialRow
from tests.conftest import ServerProcess
from tests.ui.conftest import open_tab, sign_in

pytestmark = pytest.mark.ui


def go(page: Page, route: str) -> None:
    """Follow a link inside the app: the hash changes, the page is not loaded again."""
    page.evaluate("route => { location.hash = route; }", route)


def brush(page: Page, axis: str, top: float, bottom: float) -> None:
    """Drag along a parallel-coordinates axis from ``top`` to ``bottom`` (fractions of its
    height from the top)."""
    area = page.locator(f"rect[data-brush-axis={axis}]")
    area.scroll_into_view_if_needed()
    box = area.bounding_box()
    assert box is not None
    middle = box["x"] + box["width"] / 2
    page.mouse.move(middle, box["y"] + box["height"] * top)
    page.mouse.down()
    page.mouse.move(middle, box["y"] + box["height"] * bottom, steps=5)
    page.mouse.up()


def keep_only_lr(db: sessionmaker[Session], sweep: str) -> None:
    """A sweep that sampled one hyperparameter: its parallel chart has two axes, not four."""
    with db.begin() as session:
        experiment = session.get_one(ExperimentRow, sweep)
        space = experiment.spec["search_space"]
        experiment.spec = {**experiment.spec, "search_space": {"lr": space["lr"]}}
        for trial in session.scalars(select(TrialRow).where(TrialRow.experiment_id == sweep)):
            trial.config = {"lr": trial.config["lr"]}


def trial_ids(db: sessionmaker[Session], sweep: str) -> set[int]:
    with db.begin() as session:
        query = select(TrialRow.id).where(TrialRow.experiment_id == sweep)
        return set(session.scalars(query))


def shown_trials(page: Page) -> set[int]:
    rows = page.locator("[data-testid=trials] tbody tr").all()
    return {int(row.get_attribute("data-trial") or 0) for row in rows}


def test_a_sweep_page_keeps_nothing_of_the_sweep_seen_before(
    page: Page, server: ServerProcess, db: sessionmaker[Session]
) -> None:
    """Sweep A with a brush on its third axis and the promote form open, then sweep B (two
    axes) and a failed sweep without trials, by hash: each page is its sweep's alone (the
    brush once filtered B's table and, on an axis B lacks, threw and left a dead app)."""
    completed = ExperimentState.completed
    wide = seed_sweep(db, trials=30, max_t=3, running=0, name="wide", seed=4, state=completed)
    narrow = seed_sweep(db, trials=12, max_t=3, running=0, name="narrow", seed=5, state=completed)
    keep_only_lr(db, narrow)
    broken = seed_sweep(
        db, trials=0, max_t=3, running=0, name="broken", state=ExperimentState.failed
    )
    with db.begin() as session:
        session.get_one(ExperimentRow, broken).error = "the driver exited with code 1"

    sign_in(page, server.admin_token)
    go(page, f"#/experiments/{wide}?tab=analysis")
    expect(page.locator("[data-testid=parallel] polyline")).to_have_count(30)
    brush(page, "optimizer", 0.02, 0.4)  # sgd only
    expect(page.get_by_test_id("brushed")).to_contain_text("optimizer!=adam")
    open_tab(page, "trials")
    expect(page.get_by_test_id("matching")).to_contain_text("with the chart's brushes")
    open_tab(page, "final-runs")
    page.click("button[data-action=promote]")
    expect(page.get_by_test_id("promote-form")).to_be_visible()

    go(page, f"#/experiments/{narrow}?tab=final-runs")
    expect(page.locator("h1")).to_contain_text("narrow")
    expect(page.get_by_test_id("promote-form")).to_have_count(0)
    expect(page.locator("button[data-action=promote]")).to_be_visible()
    open_tab(page, "trials")
    expect(page.get_by_test_id("matching")).to_have_count(0)
    expect(page.locator("[data-testid=trials] tbody tr")).to_have_count(12)
    assert shown_trials(page) == trial_ids(db, narrow)
    expect(page.locator("[data-testid=trials] th.sortable")).to_have_text(
        ["lr", "Iteration", "Last", re.compile("^Best val_accuracy")]
    )
    open_tab(page, "analysis")
    parallel = page.get_by_test_id("parallel")
    expect(parallel.locator("g.axis")).to_have_count(2)  # lr and the metric
    expect(parallel.locator("polyline")).to_have_count(12)
    expect(parallel.locator("polyline[data-brushed=out]")).to_have_count(0)
    expect(page.get_by_test_id("brushed")).to_have_count(0)
    expect(page.locator("[data-testid=slice] svg[data-param]")).to_have_count(1)
    expect(page.get_by_test_id("curves")).to_have_attribute("data-series", "12")
    expect(page.get_by_test_id("view-error")).to_have_count(0)

    go(page, f"#/experiments/{broken}?tab=analysis")
    expect(page.locator("h1")).to_contain_text("broken")
    expect(page.locator("h1 .badge")).to_have_text("failed")
    expect(page.locator("pre.error")).to_have_text("the driver exited with code 1")
    expect(page.get_by_test_id("curves-empty")).to_contain_text("No results yet")
    expect(page.locator("[data-testid=curves] canvas")).to_have_count(0)
    expect(page.get_by_test_id("history-empty")).to_be_visible()
    expect(page.get_by_test_id("importance")).to_have_count(0)
    expect(page.locator("[data-testid=parallel] polyline")).to_have_count(0)
    expect(page.get_by_test_id("view-error")).to_have_count(0)
    open_tab(page, "trials")
    expect(page.get_by_test_id("no-trials")).to_have_text("No trials yet.")
    open_tab(page, "final-runs")
    expect(page.locator("button[data-action=promote]")).to_have_count(0)  # nothing to promote
    expect(page.get_by_test_id("view-error")).to_have_count(0)

    go(page, "#/")  # the app lives on: the list draws on its own
    expect(page.locator("[data-testid=experiments] tbody tr")).to_have_count(3)


BROKEN_CONFIGS = {
    "metric": "val_accuracy",
    "mode": "max",
    "total_trials": 1,
    "params": ["lr"],
    "rows": [
        {"trial_id": 1, "trial_number": 1, "state": "completed", "metric": 0.5, "values": None}
    ],
}


def test_a_view_that_fails_to_draw_shows_an_error_in_its_place_and_the_rest_lives(
    page: Page, server: ServerProcess, db: sessionmaker[Session]
) -> None:
    sweep = seed_sweep(
        db, trials=8, max_t=3, running=0, name="odd", state=ExperimentState.completed
    )
    other = seed_sweep(
        db, trials=5, max_t=3, running=0, name="fine", seed=3, state=ExperimentState.completed
    )

    def broken(route: Route) -> None:  # a configs table its charts cannot draw
        route.fulfill(json=BROKEN_CONFIGS)

    page.route(re.compile(rf"/api/v1/experiments/{sweep}/configs"), broken)
    sign_in(page, server.admin_token)
    go(page, f"#/experiments/{sweep}?tab=analysis")
    errors = page.get_by_test_id("view-error")
    expect(errors.first).to_be_visible()
    expect(errors.first).to_contain_text("could not be drawn")
    expect(page.locator("[data-testid=view-error][data-view=parallel]")).to_have_count(1)
    # the other views are drawn as ever
    expect(page.get_by_test_id("curves")).to_have_attribute("data-series", "8")
    expect(page.locator("[data-testid=history] [data-order]")).to_have_count(8)
    open_tab(page, "trials")
    expect(page.locator("[data-testid=trials] tbody tr")).to_have_count(8)

    go(page, f"#/experiments/{other}?tab=analysis")
    expect(page.locator("h1")).to_contain_text("fine")
    expect(page.locator("[data-testid=parallel] polyline")).to_have_count(5)
    expect(errors).to_have_count(0)


class ApiCalls:
    """The API requests a page makes: how much it polls."""

    def __init__(self, page: Page):
        self.page = page
        self.urls: list[str] = []
        page.on("request", self.seen)

    def seen(self, request: Request) -> None:
        if "/api/v1/" in request.url:
            self.urls.append(request.url)

    def during(self, seconds: float) -> list[str]:
        start = len(self.urls)
        self.page.wait_for_timeout(seconds * 1000)  # (a sleep would hold the events back)
        return self.urls[start:]


def settle(page: Page, seconds: float = 1.5) -> None:
    """Let the first loads (and the one poll that sees the end) finish."""
    page.wait_for_timeout(seconds * 1000)


def test_polling_stops_when_a_sweep_has_ended_and_on_a_missing_trial(
    page: Page, server: ServerProcess, db: sessionmaker[Session]
) -> None:
    live = seed_sweep(db, trials=6, max_t=5, running=2, name="live")
    calls = ApiCalls(page)
    sign_in(page, server.admin_token)

    go(page, f"#/experiments/{live}?tab=trials")
    expect(page.locator("[data-testid=trials] tbody tr")).to_have_count(6)
    polled = calls.during(3)
    assert sum(f"/experiments/{live}/updates" in url for url in polled) >= 2, polled

    with db.begin() as session:  # the sweep ends while the page is open
        for trial in session.scalars(select(TrialRow).where(TrialRow.experiment_id == live)):
            if trial.state is TrialState.running:
                trial.state = TrialState.completed
        session.get_one(ExperimentRow, live).state = ExperimentState.completed
    expect(page.locator("h1 .badge")).to_have_text("completed")
    # its last poll refreshed the views: no trial is drawn as running any more
    expect(page.locator("[data-testid=trials] .badge[data-state=running]")).to_have_count(0)
    settle(page)
    assert calls.during(4) == []

    go(page, "#/")  # left, the sweep extended elsewhere, entered again: polled again
    expect(page.locator("[data-testid=experiments] tbody tr")).to_have_count(1)
    with db.begin() as session:
        session.get_one(ExperimentRow, live).state = ExperimentState.running
    go(page, f"#/experiments/{live}")
    expect(page.locator("h1 .badge")).to_have_text("running")
    polled = calls.during(3)
    assert sum(f"/experiments/{live}/updates" in url for url in polled) >= 2, polled

    go(page, "#/trials/999999")  # a trial that does not exist: asked once, not every 2 s
    expect(page.get_by_role("alert")).to_contain_text("not found")
    settle(page)
    assert calls.during(4) == []
    page.get_by_test_id("page-error").locator("a", has_text="experiments").click()
    expect(page.locator("[data-testid=experiments] tbody tr")).to_have_count(1)


def test_history_and_edf_leave_failed_and_infeasible_trials_out_of_the_best_and_the_axes(
    page: Page, server: ServerProcess, db: sessionmaker[Session]
) -> None:
    """A failed trial far below the rest and an infeasible one above them: the best-so-far
    never takes either, and neither stretches the history's or the EDF's axis; the failed one
    is still drawn, at the axis's edge."""
    sweep = seed_sweep(db, trials=12, max_t=3, running=0, name="odd-ends", prune=False)
    with db.begin() as session:
        trials = session.scalars(
            select(TrialRow).where(TrialRow.experiment_id == sweep).order_by(TrialRow.number)
        ).all()
        failed = next(t for t in trials if t.state is TrialState.failed)
        failed.best_metric = failed.last_metric = 0.0001
        infeasible = next(t for t in trials if t.state is TrialState.completed)
        infeasible.best_metric, infeasible.feasible = 0.9999, False
        counted = [
            t.best_metric
            for t in trials
            if t.id not in (failed.id, infeasible.id) and t.best_metric is not None
        ]
        failed_id, infeasible_id = failed.id, infeasible.id
    low, high = min(counted), max(counted)
    with server.client() as client:
        history = client.get(f"/api/v1/experiments/{sweep}/history").json()
    assert history["points"][-1]["best"] == pytest.approx(high)
    edf_values = [value for value, _ in history["edf"]]
    assert edf_values[0] == pytest.approx(low) and edf_values[-1] == pytest.approx(high)

    sign_in(page, server.admin_token)
    go(page, f"#/experiments/{sweep}?tab=analysis")
    chart = page.get_by_test_id("history")
    expect(chart.locator("[data-order]")).to_have_count(12)
    best = float(chart.locator("polyline.best").get_attribute("data-best") or "nan")
    assert best == pytest.approx(high)
    ticks = chart.get_attribute("data-range") or ""
    assert [float(v) for v in ticks.split(",")] == pytest.approx([low, high])
    edge = chart.locator(f"[data-trial='{failed_id}']")
    expect(edge).to_have_attribute("data-off-scale", "below")
    expect(chart.locator(f"[data-trial='{infeasible_id}']")).to_have_attribute(
        "data-off-scale", "above"
    )
    expect(chart).to_contain_text("off the scale")
    edf = page.get_by_test_id("edf")
    assert [float(v) for v in (edf.get_attribute("data-range") or "").split(",")] == (
        pytest.approx([low, high])
    )
    expect(edf).to_contain_text("10 finished trials that count")


def test_the_words_read_as_sentences(
    page: Page, server: ServerProcess, db: sessionmaker[Session]
) -> None:
    one = seed_sweep(
        db, trials=1, max_t=2, running=0, name="single", asha=False,
        state=ExperimentState.completed,
    )  # fmt: skip
    with db.begin() as session:
        trial = session.scalars(select(TrialRow).where(TrialRow.experiment_id == one)).one()
        trial.config = {**trial.config, "lr": 0.01}
        trial_id = trial.id
        session.get_one(ProjectRow, "default").monthly_worker_hours = 500
        session.get_one(ProjectRow, "default").monthly_gpu_hours = 120

    sign_in(page, server.admin_token)
    go(page, f"#/experiments/{one}")
    expect(page.get_by_test_id("best")).to_contain_text("lr=0.01,")
    expect(page.get_by_test_id("best")).not_to_contain_text("0.01000")
    open_tab(page, "analysis")
    expect(page.get_by_test_id("curves-count")).to_have_text("1 trial.")
    # no early stopping: no rungs heading, the section says what happens instead
    expect(page.locator("h2", has_text="ASHA rungs")).to_have_count(0)
    expect(page.locator("h2", has_text="Early stopping")).to_be_visible()
    open_tab(page, "trials")
    expect(page.locator(f"[data-testid=trials] tr[data-trial='{trial_id}']")).to_contain_text(
        "0.01"
    )
    expect(page.locator(f"[data-testid=trials] tr[data-trial='{trial_id}']")).not_to_contain_text(
        "0.01000"
    )
    # a quantity and its unit never part across lines, even on a phone
    open_tab(page, "overview")
    page.set_viewport_size({"width": 390, "height": 844})
    compute = page.get_by_test_id("compute")
    expect(compute).to_contain_text("CPU-h")
    broken = page.eval_on_selector_all(
        "[data-testid=compute] .quantity",
        """items => items.filter(i => new Set([...i.getClientRects()].map(r => r.top)).size > 1)
                         .map(i => i.textContent)""",
    )
    assert broken == []
    assert page.locator("[data-testid=compute] .quantity").count() >= 2

    page.set_viewport_size({"width": 1400, "height": 1000})
    go(page, "#/")
    page.get_by_test_id("project").select_option("default")
    usage = page.get_by_test_id("project-usage")
    expect(usage).to_have_text(
        re.compile(
            r"^Project default \(weight 1\)\. This month it has held 0\.000 worker-hours of its "
            r"500, 0\.000 CPU-hours and 0\.000 GPU-hours of its 120\.$"
        )
    )

    for route, back in (
        ("#/experiments/nope", "experiments"),
        ("#/trials/987654", "experiments"),
        ("#/models/nope", "models"),
        ("#/schedules/nope", "schedules"),
    ):
        go(page, route)
        error = page.get_by_test_id("page-error")
        expect(error.get_by_role("alert")).to_contain_text(re.compile("not found|no model named"))
        expect(error.locator("a", has_text=back)).to_be_visible()
    error.locator("a", has_text="schedules").click()
    expect(page.locator("h1")).to_have_text("Schedules")
