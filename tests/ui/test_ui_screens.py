"""The web UI on the screens people use and with the work they run (issue 45): the experiments
list fits 1440 px whatever the names, no page is wider than a phone, stuck and silent trials are
named where the sweep is, and the project switcher scopes every list. A real server, headless
Chromium."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from playwright.sync_api import Page, expect
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from devkit.demo import seed_sweep
from raysweep.lifecycle import ExperimentState, TrialState
from raysweep.promotion_spec import PromotionOverrides
from raysweep.schedules import ScheduleCreate
from service.db.models.access import ProjectRow
from service.db.models.sweeps import EventRow, ExperimentRow, LabelRow, ResultRow, TrialRow
from service.settings import REPO_ROOT
from service.usecases.access import operator
from service.usecases.clusters import shared_final_clusters
from service.usecases.promotion import promote_experiment
from service.usecases.schedules import create_schedule
from tests.conftest import ServerProcess, minimal_spec
from tests.factories import (
    CLUSTERS,
    MULTI_OBJECTIVE_TRIALS,
    complete_final_run,
    completed_sweep,
    minute,
    production_model,
    record_multi_objective_sweep,
    retrain_schedule,
)
from tests.ui.conftest import open_tab, sign_in

LOCAL_ONLY = shared_final_clusters(["local"])

pytestmark = pytest.mark.ui

LONG_PROJECT = "computer-vision-research-and-production-models-of-the-team-x"  # 60 chars
REASON = (
    "waiting for resources: needs 2 worker(s) x {CPU: 0.5} plus 0.01 CPU; free {CPU: 0.49} "
    "of {CPU: 2}; 1 run(s) ahead in the queue"
)


def go(page: Page, route: str) -> None:
    """Follow a link inside the app: the hash changes, the page is not loaded again."""
    page.evaluate("route => { location.hash = route; }", route)


def add_project(db: sessionmaker[Session], name: str) -> None:
    with db.begin() as session:
        session.add(ProjectRow(name=name))


def move_to_project(db: sessionmaker[Session], experiment_id: str, project: str) -> None:
    with db.begin() as session:
        row = session.get_one(ExperimentRow, experiment_id)
        row.project, row.spec = project, {**row.spec, "project": project}


def page_width(page: Page) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth"))


def too_wide(page: Page, width: int) -> list[str]:
    """The outermost elements that reach past ``width``: what makes a page too wide."""
    return page.evaluate(
        """width => {
            const right = e => e.getBoundingClientRect().right;
            const past = e => right(e) > width + 0.5;
            const clips = a => ['auto', 'scroll', 'hidden'].includes(getComputedStyle(a).overflowX);
            const scrolled = e => { // inside a box that scrolls it: the page keeps its width
                for (let a = e.parentElement; a; a = a.parentElement) if (clips(a)) return true;
                return false;
            };
            return [...document.querySelectorAll('body *')]
            .filter(e => past(e) && !(e.parentElement && past(e.parentElement)) && !scrolled(e))
            .map(e => `${e.tagName.toLowerCase()}.${[...e.classList].join('.')}`
                      + `[${e.dataset.testid ?? ''}] ${Math.round(right(e))}`);
        }""",
        width,
    )


def test_the_experiments_list_fits_1440_px_whatever_the_names(
    page: Page, server: ServerProcess, db: sessionmaker[Session]
) -> None:
    """Long names, a long project and many long labels (the list was 3,161 px wide and showed
    only Name and Project): cut with their whole in the title, labels wrapped, and state,
    progress and best in view."""
    add_project(db, LONG_PROJECT)
    name = "resnet50-imagenet-subset-" + "augmentation-ablation-" * 4 + "final"
    labels = {
        "group": "computer-vision-research-and-production",
        "dataset": "imagenet-subset-with-extra-augmentations-v2",
        "owner": "someone-with-a-very-long-user-name@example.com",
        "purpose": "ablation-of-augmentations-for-the-quarterly-report",
    }
    sweeps = []
    for index in range(3):
        sweep = seed_sweep(db, trials=4, max_t=3, running=1, name=f"{name}-{index}", seed=index)
        move_to_project(db, sweep, LONG_PROJECT)
        with db.begin() as session:
            session.add_all(
                LabelRow(experiment_id=sweep, key=k, value=v) for k, v in labels.items()
            )
        sweeps.append(sweep)

    page.set_viewport_size({"width": 1440, "height": 900})
    sign_in(page, server.admin_token)
    rows = page.locator("[data-testid=experiments] tbody tr")
    expect(rows).to_have_count(3)
    assert page_width(page) <= 1440
    for column in ("state", "progress", "best"):
        for cell in page.locator(f"[data-testid=experiments] td[data-col={column}]").all():
            box = cell.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 1440, column
    first = rows.nth(0)
    expect(first.locator("td[data-col=state] .badge")).to_have_text("running")
    expect(first.locator("td[data-col=best]")).to_contain_text("val_accuracy")
    # the long texts are cut, each whole in its title
    link = first.locator("td.name-cell a")
    expect(link).to_have_attribute("title", f"{name}-2")
    assert link.evaluate("a => a.scrollWidth > a.clientWidth")
    project = first.locator("td[data-col=project] .clip")
    expect(project).to_have_attribute("title", LONG_PROJECT)
    assert project.evaluate("p => p.scrollWidth > p.clientWidth")
    expect(first.locator(".labels .chip[title='owner:" + labels["owner"] + "']")).to_have_count(1)
    # the labels wrap: their chips lie on more than one line
    tops = first.locator(".labels .chip").evaluate_all("cs => cs.map(c => c.offsetTop)")
    assert len(set(tops)) > 1, tops


def test_no_page_is_wider_than_a_phone_and_charts_fit_it(
    page: Page, server: ServerProcess, db: sessionmaker[Session]
) -> None:
    """Every page at 390x844 (each was 459 px wide: the project menu grew to the longest name,
    charts were cut at the right edge): the document no wider than the screen, every chart
    inside it."""
    add_project(db, LONG_PROJECT)
    sweep = seed_sweep(db, trials=20, max_t=9, running=2, name="phone-sweep-" + "x" * 60)
    move_to_project(db, sweep, LONG_PROJECT)
    with db.begin() as session:
        session.add(LabelRow(experiment_id=sweep, key="purpose", value="p" * 80))
        trials = session.scalars(
            select(TrialRow.id).where(TrialRow.experiment_id == sweep).order_by(TrialRow.id)
        ).all()
    _, pareto, _ = record_multi_objective_sweep(db, MULTI_OBJECTIVE_TRIALS)
    production_model(db)
    schedule = retrain_schedule(db)

    page.set_viewport_size({"width": 390, "height": 844})
    sign_in(page, server.admin_token)
    pages = {
        "#/": "[data-testid=experiments] tbody tr",
        f"#/experiments/{sweep}?tab=analysis": "[data-testid=parallel] polyline",
        f"#/experiments/{sweep}?tab=timeline": "[data-testid=timeline-bar]",
        f"#/experiments/{pareto}?tab=analysis": "[data-testid=pareto] circle",
        f"#/trials/{trials[0]}": "[data-testid=metrics] canvas",
        f"#/compare?trials={trials[0]},{trials[1]}": "[data-testid=compare-metrics] canvas",
        "#/models": "[data-testid=models] tbody tr",
        "#/models/digits": "[data-version]",
        "#/schedules": "[data-testid=schedules] tbody tr",
        f"#/schedules/{schedule}": "dl.lineage",
        "#/experiments/nope": "[data-testid=page-error]",
        "#/models/nope": "[data-testid=page-error]",
    }
    widths = {}
    for route, drawn in pages.items():
        go(page, route)
        expect(page.locator(drawn).first).to_be_attached()
        page.wait_for_timeout(300)  # charts are sized after their first frame
        widths[route] = page_width(page)
        assert widths[route] <= 390, (route, widths[route], too_wide(page, 390))
        outside = page.eval_on_selector_all(
            "main svg, main canvas",
            """items => items.map(i => [i.closest('[data-testid]')?.dataset.testid ?? i.tagName,
                                         i.getBoundingClientRect()])
                             .filter(([, r]) => r.width > 0 && (r.left < 0 || r.right > 390.5))
                             .map(([name, r]) => `${name}: ${r.left}..${r.right}`)""",
        )
        assert outside == [], (route, outside)
    assert all(width <= 390 for width in widths.values()), widths
    # the list on a phone: each sweep a card, its state, progress and best in view
    go(page, "#/")
    row = page.locator("[data-testid=experiments] tbody tr").first
    for column in ("state", "progress", "best"):
        box = row.locator(f"td[data-col={column}]").bounding_box()
        assert box is not None and box["x"] + box["width"] <= 390, column
    menu = page.get_by_test_id("project").bounding_box()
    assert menu is not None and menu["x"] + menu["width"] <= 390


def stuck_sweep(db: sessionmaker[Session]) -> tuple[str, dict[str, int]]:
    """A running sweep of three running trials: one waiting 31 min for CPU, one silent for
    58 min (it reported every minute before), one that reported just now."""
    sweep = seed_sweep(db, trials=8, max_t=9, running=3, name="stuck")
    now = datetime.now(UTC)
    with db.begin() as session:
        waiting, silent, fresh = session.scalars(
            select(TrialRow)
            .where(TrialRow.experiment_id == sweep, TrialRow.state == TrialState.running)
            .order_by(TrialRow.number)
        ).all()
        waiting.waiting_for = REASON
        session.add(
            EventRow(
                experiment_id=sweep,
                trial_id=waiting.id,
                kind="trial_waiting",
                message=f"trial {waiting.tune_trial_id} is {REASON}",
                created_at=now - timedelta(minutes=31),
            )
        )
        for trial, last in ((silent, now - timedelta(minutes=58)), (fresh, now)):
            trial.started_at = last - timedelta(minutes=trial.iteration)
            results = session.scalars(select(ResultRow).where(ResultRow.trial_id == trial.id))
            for result in results:
                result.reported_at = last - timedelta(minutes=trial.iteration - result.iteration)
        numbers = {"waiting": waiting.number, "silent": silent.number, "fresh": fresh.number}
        ids = {name: t.id for name, t in zip(numbers, (waiting, silent, fresh), strict=True)}
    return sweep, {**{f"{k}#": v for k, v in numbers.items()}, **ids}


def test_a_stuck_sweep_says_which_trials_wait_and_which_went_silent(
    page: Page, server: ServerProcess, db: sessionmaker[Session]
) -> None:
    """The list and header said "running 3/4" while a trial waited 31 minutes: now both say
    so, and name the trial that reported nothing for longer than its bound (three of its own
    iterations, at least 10 min); each trial shows its start, last report, duration and wait."""
    sweep, trial = stuck_sweep(db)
    done = seed_sweep(
        db, trials=4, max_t=3, running=0, name="done", state=ExperimentState.completed
    )
    waiting_line = re.compile(r"^1 trial waiting 3[12] min for CPU$")
    silent_line = re.compile(rf"^trial #{trial['silent#']} silent for 5[89] min$")

    sign_in(page, server.admin_token)
    row = page.locator(f"[data-testid=experiments] tr[data-experiment='{sweep}']")
    expect(row.get_by_test_id("waiting-line")).to_have_text(waiting_line)
    expect(row.get_by_test_id("waiting-line")).to_have_attribute("title", REASON)
    expect(row.get_by_test_id("silent-line")).to_have_text(silent_line)
    ended = page.locator(f"[data-testid=experiments] tr[data-experiment='{done}']")
    expect(ended.get_by_test_id("attention")).to_have_count(0)

    go(page, f"#/experiments/{sweep}")
    expect(page.locator("h1")).to_contain_text("stuck")
    header = page.locator("section > [data-testid=attention]")
    expect(header.get_by_test_id("waiting-line")).to_have_text(waiting_line)
    expect(header.get_by_test_id("silent-line")).to_have_text(silent_line)
    open_tab(page, "trials")
    table = page.get_by_test_id("trials")
    waiting = table.locator(f"tr[data-trial='{trial['waiting']}']")
    expect(waiting.get_by_test_id("waited")).to_have_text(re.compile(r"^3[12] min for CPU$"))
    expect(waiting.locator("[data-silent]")).to_have_count(0)  # its wait says why
    silent = table.locator(f"tr[data-trial='{trial['silent']}']")
    expect(silent.locator("[data-silent]")).to_have_text(re.compile(r"^silent 5[89] min$"))
    expect(silent.locator("td[data-col=last-report]")).to_have_text(re.compile(r"^5[89]m ago$"))
    expect(silent.locator("td[data-col=duration]")).to_have_text(re.compile(r"^1 h [23] min$"))
    expect(silent.locator("td[data-col=started]")).to_have_text(re.compile(r"^1h ago$"))
    fresh = table.locator(f"tr[data-trial='{trial['fresh']}']")
    expect(fresh.locator("[data-silent]")).to_have_count(0)
    expect(fresh.locator("td[data-col=last-report]")).to_have_text(re.compile(r"^\d+s ago$"))
    expect(fresh.locator("td[data-col=duration]")).to_have_text(re.compile(r"^[45] min$"))
    # an ended trial ran from its start to its end
    expect(table.locator("td[data-col=duration]").first).not_to_be_empty()
    assert page_width(page) <= 1400  # the clock's columns scroll in the table's box

    go(page, f"#/trials/{trial['silent']}")
    expect(page.get_by_test_id("trial-clock")).to_contain_text("running for 1 h")
    expect(page.get_by_test_id("last-report")).to_have_text(re.compile(r"^last result 5[89]m ago$"))
    expect(page.locator("h1 [data-silent]")).to_be_visible()
    go(page, f"#/trials/{trial['waiting']}")
    expect(page.get_by_test_id("waiting-since")).to_have_text(
        re.compile(r"^waiting 3[12] min\s*for CPU$")
    )
    expect(page.get_by_test_id("waiting-for")).to_have_text(REASON)

    go(page, f"#/experiments/{done}")
    expect(page.locator("h1 .badge")).to_have_text("completed")
    expect(page.get_by_test_id("attention")).to_have_count(0)


def model_in(db: sessionmaker[Session], project: str, model: str) -> None:
    """Version 1 of ``model``, promoted from a completed sweep of ``project``."""
    sweep = completed_sweep(db, [({"lr": 0.01, "hidden": 64}, 0.2)])
    with db.begin() as session:
        row = session.get_one(ExperimentRow, sweep)
        promotion = {**row.spec["promotion"], "model_name": model}
        row.project, row.spec = project, {**row.spec, "project": project, "promotion": promotion}
    final = promote_experiment(db, sweep, PromotionOverrides(), "tester", CLUSTERS)
    complete_final_run(db, final.runs.items[0].id, 0.3)


def test_the_project_switcher_scopes_every_list(
    page: Page, server: ServerProcess, db: sessionmaker[Session]
) -> None:
    """Models and schedules of other projects were still listed with a project chosen."""
    add_project(db, "vision")
    production_model(db)  # digits, in default
    model_in(db, "vision", "vision-net")
    retrain_schedule(db)  # "retrain", in default
    nightly = ScheduleCreate.model_validate(
        {"name": "nightly-vision", "cron": "0 3 * * *", "project": "vision",
         "spec": minimal_spec(name="nightly-vision", project="vision")}
    )  # fmt: skip
    create_schedule(db, nightly, REPO_ROOT / "search_spaces", LOCAL_ONLY, minute(0), operator("t"))
    sweep = seed_sweep(db, trials=3, max_t=3, running=0, name="vision-sweep")
    move_to_project(db, sweep, "vision")

    def shown(what: str, cell: str = "td:first-child") -> list[str]:
        return page.locator(f"[data-testid={what}] tbody tr {cell}").all_inner_texts()

    sign_in(page, server.admin_token)
    switch = page.get_by_test_id("project")
    expect(page.locator("[data-testid=experiments] tbody tr")).to_have_count(3)
    switch.select_option("vision")
    expect(page.locator("[data-testid=experiments] tbody tr")).to_have_count(2)
    expect(page.locator("[data-testid=experiments] td[data-col=project]")).to_have_text(
        ["vision", "vision"]
    )
    expect(page.get_by_test_id("project-usage")).to_contain_text("Project vision")
    page.click("nav >> text=models")
    expect(page.locator("[data-testid=models] tbody tr")).to_have_count(1)
    assert shown("models") == ["vision-net"]
    expect(page.get_by_test_id("scope")).to_contain_text("Project vision's models")
    page.click("nav >> text=schedules")
    expect(page.locator("[data-testid=schedules] tbody tr")).to_have_count(1)
    assert shown("schedules") == ["nightly-vision"]

    switch.select_option("default")  # on the page itself: it follows
    expect(page.locator("[data-testid=schedules] tbody tr td:first-child")).to_have_text(
        ["retrain"]
    )
    page.click("nav >> text=models")
    expect(page.locator("[data-testid=models] tbody tr td:first-child")).to_have_text(["digits"])

    page.reload()  # the choice is kept across visits
    expect(page.get_by_test_id("project")).to_have_value("default")
    expect(page.locator("[data-testid=models] tbody tr")).to_have_count(1)
    switch.select_option("")
    expect(page.locator("[data-testid=models] tbody tr")).to_have_count(2)
    expect(page.get_by_test_id("scope")).to_have_count(0)
    page.click("nav >> text=schedules")
    expect(page.locator("[data-testid=schedules] tbody tr")).to_have_count(2)
