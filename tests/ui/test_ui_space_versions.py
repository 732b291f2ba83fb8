"""Changing a sweep's search space from the web UI: the extend form (new totals, the space
edited from the current one, the earlier value of each parameter it adds, the server's problems
at their paths), then the versions on the sweep's page, the trial table's space column and
filter, and the trial page's version. A real server (no controller: the sweep stays queued),
headless Chromium."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from devkit.demo import seed_sweep
from raysweep.lifecycle import ExperimentState
from service.db.models.sweeps import TrialRow
from tests.conftest import ServerProcess
from tests.ui.conftest import open_tab, sign_in
from tests.ui.test_ui_pages import go, shown_trials, trial_ids

pytestmark = pytest.mark.ui

TRIALS = 12
# narrower lr, dropout added, optimizer removed (the bundled trainer takes dropout)
NEW_SPACE = {
    "lr": {"type": "loguniform", "low": 1e-3, "high": 1e-1},
    "hidden": {"type": "int", "low": 16, "high": 256},
    "dropout": {"type": "uniform", "low": 0.0, "high": 0.5},
}
CHANGES = "lr changed, dropout added (earlier 0.0), optimizer removed"


def read_sweep(server: ServerProcess, sweep: str) -> dict[str, Any]:
    with server.client() as client:
        answer = client.get(f"/api/v1/experiments/{sweep}")
    assert answer.status_code == 200, answer.text
    return answer.json()


def submit_extension(page: Page) -> None:
    page.get_by_test_id("extend-form").locator("button[data-action=extend-now]").click()


def test_the_extend_form_changes_the_space_naming_each_problem_at_its_path(
    page: Page, server: ServerProcess, db: sessionmaker[Session]
) -> None:
    """A wrong-way range, then a missing earlier value: each a 422 shown at its path with the
    form kept open and the sweep unchanged; with the value the sweep is queued with version 2,
    shown on its page and in its trial table."""
    sweep = seed_sweep(
        db, trials=TRIALS, max_t=9, running=0, name="space", state=ExperimentState.completed
    )
    submitted = read_sweep(server, sweep)
    sign_in(page, server.admin_token)
    go(page, f"#/experiments/{sweep}")
    expect(page.locator("h1 .badge")).to_have_text("completed")
    expect(page.get_by_test_id("space-versions")).to_have_count(0)  # one space so far
    open_tab(page, "trials")
    expect(page.locator("[data-testid=trials] tbody tr")).to_have_count(TRIALS)
    expect(page.locator("select[name=space-version]")).to_have_count(0)
    open_tab(page, "overview")

    page.click("button[data-action=extend]")
    form = page.get_by_test_id("extend-form")
    # an empty field keeps the spec's value, shown as its placeholder
    expect(form.locator("input[name=max_t]")).to_have_attribute("placeholder", "9")
    expect(form.locator("input[name=time_budget_s]")).to_have_attribute("placeholder", "none")
    form.locator("input[name=num_samples]").fill(str(TRIALS + 4))
    form.locator("input[name=change-space]").check()
    textarea = form.locator("textarea[name=search-space]")
    # prefilled with the current space, pretty-printed
    assert json.loads(textarea.input_value()) == submitted["spec"]["search_space"]
    assert '\n  "lr": {' in textarea.input_value()
    expect(form.get_by_test_id("earlier-values")).to_have_count(0)  # nothing added yet

    wrong_way = {**NEW_SPACE, "lr": {"type": "loguniform", "low": 1e-1, "high": 1e-3}}
    textarea.fill(json.dumps(wrong_way, indent=2))
    # one value asked for: the sampled parameter added (not lr, hidden nor the one removed)
    expect(form.locator("[data-testid=earlier-values] input")).to_have_count(1)
    expect(form.locator("input[name=earlier-dropout]")).to_be_visible()
    submit_extension(page)
    problems = form.get_by_test_id("extend-problems")
    expect(problems.locator("li")).to_have_count(1)
    expect(problems.locator("li[data-path='search_space.lr']")).to_contain_text("search_space.lr")

    textarea.fill(json.dumps(NEW_SPACE, indent=2))
    submit_extension(page)  # dropout's earlier value left empty
    expect(problems.locator("li[data-path='earlier_values.dropout']")).to_contain_text(
        "the new space adds dropout"
    )
    expect(problems.locator("li")).to_have_count(1)
    expect(problems.locator("li code")).to_have_text("earlier_values.dropout")
    expect(form).to_be_visible()
    unchanged = read_sweep(server, sweep)
    assert unchanged["state"] == "completed" and unchanged["extensions"] == 0
    assert unchanged["search_spaces"] is None and unchanged["spec"] == submitted["spec"]

    form.locator("input[name=earlier-dropout]").fill("0.0")
    submit_extension(page)
    expect(page.locator("h1 .badge")).to_have_text("queued")
    expect(page.get_by_test_id("extend-form")).to_have_count(0)
    expect(page.locator("button[data-action=extend]")).to_have_count(0)
    extended = read_sweep(server, sweep)
    assert extended["state"] == "queued" and extended["extensions"] == 1
    assert extended["spec"]["search"]["num_samples"] == TRIALS + 4
    assert extended["spec"]["search_space"]["lr"]["low"] == 1e-3
    second = extended["search_spaces"][1]
    assert second["added"] == {"dropout": 0} and second["removed"] == ["optimizer"]

    versions = page.get_by_test_id("space-versions")
    expect(versions.locator("li")).to_have_count(2)
    expect(versions.locator("li[data-version='1'] summary")).to_have_text("v1 submitted")
    expect(versions.locator("li[data-version='2'] summary")).to_have_text(
        f"v2 from extension 1: {CHANGES}"
    )
    full = versions.locator("li[data-version='2'] pre")
    expect(full).to_be_hidden()  # a click away
    versions.locator("li[data-version='2'] summary").click()
    expect(full).to_be_visible()
    assert json.loads(full.inner_text())["dropout"] == second["search_space"]["dropout"]
    # the event's own words (the browser sends 0.0 as JSON's 0: the server writes "earlier 0")
    expect(page.locator("[data-testid=events] li[data-kind=extended]")).to_contain_text(
        re.compile(
            r"search space v2: lr changed, dropout added \(earlier 0(\.0)?\), optimizer removed"
        )
    )

    open_tab(page, "trials")
    table = page.get_by_test_id("trials")
    expect(table.locator("thead th").nth(3)).to_have_text("Space")
    expect(table.locator("td[data-col=space]")).to_have_count(TRIALS)
    expect(table.locator("td[data-col=space]", has_text="v1")).to_have_count(TRIALS)
    page.select_option("select[name=space-version]", "1")
    expect(page.get_by_test_id("matching")).to_have_text(f"{TRIALS} trials match")
    assert shown_trials(page) == trial_ids(db, sweep)
    page.select_option("select[name=space-version]", "2")
    expect(page.get_by_test_id("no-trials")).to_have_text("No trial matches.")
    expect(table.locator("tbody tr")).to_have_count(0)


def test_a_changed_space_is_shown_on_the_trial_page_in_the_table_and_on_the_axes(
    page: Page, server: ServerProcess, db: sessionmaker[Session]
) -> None:
    """A sweep extended through the API, one trial sampled from version 2: the address's
    version filter finds it alone, its page names v2, an earlier one's v1, and the charts'
    lr axis spans both versions; a sweep with one space shows none of it."""
    sweep = seed_sweep(
        db, trials=TRIALS, max_t=9, running=0, name="changed", state=ExperimentState.completed
    )
    plain = seed_sweep(
        db, trials=4, max_t=3, running=0, name="plain", seed=2, state=ExperimentState.completed
    )
    with server.client() as client:
        answer = client.post(
            f"/api/v1/experiments/{sweep}/extend",
            json={
                "num_samples": TRIALS + 2,
                "search_space": NEW_SPACE,
                "earlier_values": {"dropout": 0.0},
            },
        )
    assert answer.status_code == 200, answer.text
    with db.begin() as session:  # as the extension's first new trial is recorded
        trials = session.scalars(
            select(TrialRow).where(TrialRow.experiment_id == sweep).order_by(TrialRow.id)
        ).all()
        earlier, newer, first_number = trials[0].id, trials[-1].id, trials[0].number
        trials[-1].space_version = 2

    sign_in(page, server.admin_token)
    go(page, f"#/experiments/{sweep}")
    expect(page.get_by_test_id("space-versions").locator("li")).to_have_count(2)
    go(page, f"#/experiments/{sweep}?tab=trials&space=2")
    expect(page.locator("select[name=space-version]")).to_have_value("2")
    expect(page.locator("[data-testid=trials] tbody tr")).to_have_count(1)
    assert shown_trials(page) == {newer}
    expect(page.locator("td[data-col=space]")).to_have_text(["v2"])
    open_tab(page, "analysis")
    # the lr axis spans v1's 1e-4 too: the earlier trials lie on it
    lr_ticks = page.locator("[data-testid=parallel] g[data-axis=lr] text.tick")
    expect(lr_ticks.first).to_have_text("1e-4")
    expect(page.locator("[data-testid=parallel] polyline")).to_have_count(TRIALS)

    go(page, f"#/trials/{newer}")
    expect(page.get_by_test_id("space-version")).to_have_text("sampled from search space v2")
    go(page, f"#/trials/{earlier}")
    expect(page.locator("h1")).to_contain_text(f"Trial #{first_number}")
    expect(page.get_by_test_id("space-version")).to_have_text("sampled from search space v1")

    go(page, f"#/experiments/{plain}")
    expect(page.locator("h1")).to_contain_text("plain")
    expect(page.get_by_test_id("space-versions")).to_have_count(0)
    open_tab(page, "trials")
    expect(page.locator("[data-testid=trials] tbody tr")).to_have_count(4)
    expect(page.locator("select[name=space-version]")).to_have_count(0)
    expect(page.locator("td[data-col=space]")).to_have_count(0)
    go(page, f"#/trials/{trial_ids(db, plain).pop()}")
    expect(page.get_by_test_id("trial-clock")).to_be_visible()
    expect(page.get_by_test_id("space-version")).to_have_count(0)


def test_a_named_space_asks_for_the_earlier_values_the_server_names(
    page: Page, server: ServerProcess, db: sessionmaker[Session]
) -> None:
    """Text that is no space is refused in the page, nothing sent; a server-side space by its
    name: the parameters it adds are the server's to name, and its 422 puts a field for each
    in the form; with them the sweep is queued with that space as version 2."""
    sweep = seed_sweep(
        db, trials=6, max_t=3, running=0, name="named", state=ExperimentState.completed
    )
    sign_in(page, server.admin_token)
    go(page, f"#/experiments/{sweep}")
    page.click("button[data-action=extend]")
    form = page.get_by_test_id("extend-form")
    form.locator("input[name=num_samples]").fill("10")
    form.locator("input[name=change-space]").check()
    textarea = form.locator("textarea[name=search-space]")
    textarea.fill('{"lr": ')
    expect(form.get_by_test_id("space-unparsed")).to_contain_text("not JSON")
    submit_extension(page)
    problems = form.get_by_test_id("extend-problems")
    expect(problems.locator("li[data-path=search_space]")).to_contain_text("not JSON")

    textarea.fill('"digits_mlp"')  # search_spaces/digits_mlp.yaml: four parameters more
    expect(form.get_by_test_id("earlier-values")).to_have_count(0)
    submit_extension(page)
    asked = ["depth", "dropout", "weight_decay", "batch_size"]
    expect(problems.locator("li")).to_have_count(4)
    for name in asked:
        expect(problems.locator(f"li[data-path='earlier_values.{name}']")).to_be_visible()
    assert read_sweep(server, sweep)["state"] == "completed"
    for name, value in zip(asked, ["1", "0.0", "0", "64"], strict=True):
        form.locator(f"input[name=earlier-{name}]").fill(value)
    submit_extension(page)
    expect(page.locator("h1 .badge")).to_have_text("queued")
    extended = read_sweep(server, sweep)
    second = extended["search_spaces"][1]
    assert second["added"] == {"depth": 1, "dropout": 0, "weight_decay": 0, "batch_size": 64}
    expect(page.locator("[data-testid=space-versions] li[data-version='2'] summary")).to_have_text(
        "v2 from extension 1: lr changed, hidden changed, optimizer changed, depth added "
        "(earlier 1), dropout added (earlier 0.0), weight_decay added (earlier 0.0), batch_size "
        "added (earlier 64)"
    )
