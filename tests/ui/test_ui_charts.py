"""Charts that do not mislead and read at a glance: importance says which trials it compared
and warns when early stopping skewed them, sampled views say so and offer another sample, every
coloured chart has its legend and every axis ticks along its length, compare's columns line up
under headers in their lines' colours. A real server, headless Chromium."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from devkit.demo import seed_sweep
from raysweep.lifecycle import ExperimentState
from service.db.models.sweeps import ExperimentRow, TrialRow
from tests.api.test_views_sampling import sgd_stopped_early
from tests.conftest import ServerProcess
from tests.ui.conftest import sign_in

pytestmark = pytest.mark.ui
COMPLETED = ExperimentState.completed


def test_importance_names_the_compared_trials_and_warns_of_a_skewed_set(
    page: Page, server: ServerProcess, db: sessionmaker[Session]
) -> None:
    """sgd's trials all stopped before the compared iteration: the page says so, names the
    rung, and one click compares at that rung, where the warning goes."""
    sweep = seed_sweep(db, trials=60, max_t=9, running=0, state=COMPLETED, seed=3)
    at, ended = sgd_stopped_early(db, sweep)
    stopped_at = ended.most_common(1)[0][0]
    sign_in(page, server.admin_token)
    page.goto(f"/#/experiments/{sweep}?tab=analysis")
    compared = page.get_by_test_id("importance-compared")
    expect(compared).to_contain_text(
        f"the {60 - sum(ended.values())} trials of 60 with a result that reached iteration {at}"
    )
    warning = page.get_by_test_id("importance-warning")
    expect(warning).to_be_visible()
    expect(warning).to_contain_text("Early stopping skewed the compared trials")
    item = warning.locator("li[data-param=optimizer][data-value=sgd]")
    expect(item).to_contain_text(f"most at iteration {stopped_at}")
    expect(page.locator("select[name=importance-at] option")).to_have_text(
        ["iteration 1", "iteration 3", "iteration 9"]
    )
    warning.locator("button[data-action=compare-at-rung]").click()
    expect(compared).to_contain_text(f"reached iteration {stopped_at}")
    expect(page.locator("select[name=importance-at]")).to_have_value(str(stopped_at))
    expect(page).to_have_url(re.compile(rf"at={stopped_at}"))
    if stopped_at == 1:  # every trial is compared at the first rung: nothing skewed
        expect(warning).to_have_count(0)
    expect(page.locator("[data-testid=importance] tr[data-param]")).to_have_count(3)


def test_a_sampled_view_says_so_in_a_banner_and_the_sample_can_be_chosen(
    page: Page, server: ServerProcess, db: sessionmaker[Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    """1,040 trials: the hyperparameter views draw the best 1,000 and a banner says so; a
    random sample is the same after a reload; 'all' draws every one, and is refused (greyed)
    past the bound."""
    sweep = seed_sweep(db, trials=1040, max_t=2, running=0, state=COMPLETED, seed=7)
    sign_in(page, server.admin_token)
    page.goto(f"/#/experiments/{sweep}?tab=analysis")
    banner = page.get_by_test_id("sample-banner")
    expect(banner).to_be_visible()
    expect(banner).to_have_attribute("data-sample", "best")
    expect(banner).to_contain_text("Sampled: these charts draw the best 1,000 of 1040 trials")
    parallel = page.locator("[data-testid=parallel] polyline")
    expect(parallel).to_have_count(1000)
    with db.begin() as session:
        worst = session.scalar(
            select(TrialRow.id)
            .where(TrialRow.experiment_id == sweep, TrialRow.best_metric.is_not(None))
            .order_by(TrialRow.best_metric, TrialRow.id)
            .limit(1)
        )
    expect(page.locator(f"[data-testid=parallel] polyline[data-trial='{worst}']")).to_have_count(0)

    page.select_option("select[name=sample]", "random")
    expect(banner).to_have_attribute("data-sample", "random")
    expect(banner).to_contain_text("a random 1,000 (the same ones each time) of 1040 trials")
    drawn = sorted(p.get_attribute("data-trial") or "" for p in parallel.all())
    page.reload()  # the sample is in the address, and the same trials come back
    expect(banner).to_have_attribute("data-sample", "random")
    expect(parallel).to_have_count(1000)
    assert sorted(p.get_attribute("data-trial") or "" for p in parallel.all()) == drawn

    page.select_option("select[name=sample]", "all")
    expect(banner).to_have_attribute("data-sample", "all")
    expect(banner).to_contain_text("Every trial: these charts draw all 1,040 of 1040 trials")
    expect(parallel).to_have_count(1040)
    expect(page.locator("select[name=sample] option[value=all]")).to_have_text(
        "all (sweeps up to 5,000 trials)"
    )

    monkeypatch.setattr("service.usecases.views.CONFIGS_ALL_MAX", 1000)  # the server's
    with db.begin() as session:  # a changed sweep: the cached view is read again
        session.get_one(ExperimentRow, sweep).notes = "changed"
    page.reload()  # the address asks for all: refused now, the best instead
    expect(banner).to_have_attribute("data-sample", "best")
    expect(page).not_to_have_url(re.compile("sample=all"))
    expect(page.locator("select[name=sample] option[value=all]")).to_be_disabled()


def test_every_coloured_chart_has_a_legend_and_axes_tick_along_their_length(
    page: Page, server: ServerProcess, db: sessionmaker[Session]
) -> None:
    sweep = seed_sweep(db, trials=30, max_t=9, running=0, state=COMPLETED, seed=2)
    with db.begin() as session:
        best = session.get_one(ExperimentRow, sweep).best_trial_id
        number = session.get_one(TrialRow, best).number
    sign_in(page, server.admin_token)
    page.goto(f"/#/experiments/{sweep}?tab=analysis")

    # curves: the best trial listed first and drawn on top; each state drawn, in its colour
    curves = page.locator("ul[data-chart=curves] li")
    expect(curves.first).to_contain_text(f"best: trial #{number}")
    expect(page.locator("ul[data-chart=curves] li[data-entry=pruned]")).to_have_count(1)
    expect(page.locator("ul[data-chart=curves] li[data-entry=completed]")).to_have_count(1)
    y_ticks = page.get_by_test_id("curves").get_attribute("data-y-ticks") or ""
    labels = y_ticks.split("|")
    assert len(labels) >= 3, labels  # along the axis
    decimals = {len(label.partition(".")[2]) for label in labels}
    assert len(decimals) == 1, labels  # one format: 0.90, 0.95, 1.00

    # history and EDF: ticks along both axes, the history's marks in its legend
    # (waiting for the 6th and 7th: a count alone once read a chart not drawn yet, under load)
    history = page.get_by_test_id("history")
    expect(history.locator(".tick").nth(5)).to_be_attached()
    expect(page.locator("ul[data-chart=history] li[data-entry='best so far']")).to_have_count(1)
    expect(page.get_by_test_id("edf").locator(".tick").nth(6)).to_be_attached()

    # slices: a y title and y ticks on every panel, the dots' states in a legend
    panels = page.locator("[data-testid=slice] svg[data-param]")
    expect(panels).to_have_count(3)
    for panel in panels.all():
        expect(panel.locator("text.y-title")).to_have_text("val_accuracy (max)")
        expect(panel.locator(".tick").nth(3)).to_be_attached()
    expect(page.locator("ul[data-chart=slice] li").first).to_be_visible()
    lr_panel = page.locator("[data-testid=slice] svg[data-param=lr]")
    expect(lr_panel).to_contain_text("lr (log)")

    # contour and parallel coordinates: the metric's colour scale; the contour's log axis
    # marked; its dots outlined, so they show on the darkest cells
    expect(page.get_by_test_id("colour-scale")).to_have_count(2)
    contour = page.get_by_test_id("contour")
    for menu, name in (("y", "optimizer"), ("x", "lr"), ("y", "hidden")):  # never one pair
        page.select_option(f"select[name=contour-{menu}]", name)
    expect(contour.locator("[data-axis-title=x]")).to_have_text("lr (log)")
    expect(contour.locator("[data-axis-title=y]")).to_have_text("hidden")
    dot = contour.locator("circle.trial-dot").first
    assert dot.evaluate("d => getComputedStyle(d).stroke") == "rgb(255, 255, 255)"
    expect(contour.locator(".tick").nth(7)).to_be_attached()

    # no tick label leaves its chart
    clipped = page.evaluate(
        """() => [...document.querySelectorAll('svg .tick')].filter((t) => {
            const svg = t.ownerSVGElement.getBoundingClientRect(), box = t.getBoundingClientRect();
            return box.left < svg.left - 0.5 || box.right > svg.right + 0.5
                || box.top < svg.top - 0.5 || box.bottom > svg.bottom + 0.5;
        }).map((t) => t.textContent)"""
    )
    assert clipped == []


def test_compare_lines_its_columns_up_under_headers_in_the_lines_colours(
    page: Page, server: ServerProcess, db: sessionmaker[Session]
) -> None:
    sweep = seed_sweep(db, trials=8, max_t=3, running=0, state=COMPLETED, prune=False)
    with db.begin() as session:
        picked = session.execute(
            select(TrialRow.id, TrialRow.number)
            .where(TrialRow.experiment_id == sweep)
            .order_by(TrialRow.id)
            .limit(3)
        ).all()
    sign_in(page, server.admin_token)
    page.goto(f"/#/compare?trials={','.join(str(i) for i, _ in picked)}")
    headers = page.locator("[data-testid=compare-config] thead th.trial")
    expect(headers).to_have_text([f"trial #{n}" for _, n in picked])
    for header in headers.all():
        colour = header.get_attribute("data-colour") or ""
        red, green, blue = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
        link = header.locator("a")
        expect(link).to_have_css("color", f"rgb({red}, {green}, {blue})")

    def lefts(table: str) -> list[float]:
        cells = page.locator(f"[data-testid={table}] tbody tr").first.locator("td").all()
        return [round((cell.bounding_box() or {"x": 0.0})["x"]) for cell in cells]

    assert lefts("compare-config") == lefts("compare-final")  # one column a trial, aligned
    legend = page.locator("[data-testid=compare-metrics] ul.legend").first
    expect(legend.locator("li")).to_have_text([f"trial #{n}" for _, n in picked])
    expect(page.get_by_test_id("compare-metrics")).not_to_contain_text("--")
