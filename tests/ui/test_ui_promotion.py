"""Promotion, final runs, model versions and schedules in the UI end to end: a real server on a
real database, driven in headless Chromium."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from devkit.demo import seed_sweep
from raysweep.lifecycle import ExperimentState, FinalRunState
from raysweep.schedules import ScheduleCreate
from service.db.models.registry import FinalRunRow
from service.db.models.schedules import ScheduleRow
from service.db.models.sweeps import TrialRow
from service.settings import REPO_ROOT
from service.states import move_final_run
from service.usecases.access import operator
from service.usecases.models import register_version
from service.usecases.schedules import create_schedule
from tests.conftest import ServerProcess, minimal_spec
from tests.factories import (
    complete_final_run,
    firing_rows,
    minute,
    production_model,
    retrain_schedule,
    tick,
)
from tests.ui.conftest import LOCAL_ONLY, Seeded, sign_in

pytestmark = pytest.mark.ui


def test_promote_from_the_ui_then_the_final_run_and_its_model_version(
    page: Page, server: ServerProcess, seeded: Seeded, db: sessionmaker[Session]
) -> None:
    sign_in(page, server.admin_token)
    page.goto(f"/#/experiments/{seeded.finished}?tab=final-runs")
    page.on("dialog", lambda dialog: dialog.accept())
    page.click("button[data-action=promote]")
    form = page.get_by_test_id("promote-form")
    with db.begin() as session:
        completed = session.scalars(
            select(TrialRow)
            .where(TrialRow.experiment_id == seeded.finished, TrialRow.state == "completed")
            .order_by(TrialRow.best_metric.desc(), TrialRow.id)
        ).all()
    # the form offers the completed trials, best first, by number; an override goes through
    expect(form.locator("input[name=trial]")).to_have_count(len(completed))
    expect(form.locator("ul.pick li").first).to_contain_text(f"#{completed[0].number}")
    form.locator("input[name=num_workers]").fill("3")
    form.locator("button[data-action=promote-now]").click()
    rows = page.locator("[data-testid=final-runs] tbody tr")
    expect(rows).to_have_count(1)
    expect(rows.first.locator(".badge")).to_have_text("queued")
    expect(rows.first.locator("td").nth(3)).to_have_text("3")  # workers
    expect(page.get_by_test_id("promote-outcome")).to_contain_text("Queued 1 final run:")
    # the same again promotes nothing new, and says so rather than nothing at all
    page.click("button[data-action=promote]")
    expect(form.locator(f"input[name=trial][value='{completed[0].id}']")).to_be_disabled()
    form.locator("button[data-action=promote-now]").click()
    expect(page.get_by_test_id("promote-outcome")).to_contain_text("Nothing new")
    expect(rows).to_have_count(1)
    # the runner-up too, then cancelled from its row (the confirm is accepted)
    with server.client() as client:
        second = client.post(
            f"/api/v1/experiments/{seeded.finished}/promote", json={"top_k": 2}
        ).json()["items"][1]
    page.reload()
    expect(rows).to_have_count(2)
    rows.nth(1).locator("button[data-action=cancel-final-run]").click()
    expect(rows.nth(1).locator(".badge")).to_have_text("cancelled")
    expect(rows.nth(1).locator("button[data-action=cancel-final-run]")).to_have_count(0)
    with db.begin() as session:
        assert session.get(FinalRunRow, second["id"]).state == "cancelled"  # type: ignore[union-attr]
    with db.begin() as session:  # what the engine records when the final run ends
        final = session.scalars(
            select(FinalRunRow).where(
                FinalRunRow.experiment_id == seeded.finished, FinalRunRow.rank == 1
            )
        ).one()
        final_trial_number = final.trial_number
        move_final_run(final, FinalRunState.running)
        move_final_run(final, FinalRunState.completed)
        final.metrics, final.checkpoint_uri = {"val_accuracy": 0.93}, "/ckpt/final"
        final.test_metrics = {"test_accuracy": 0.91, "test_loss": 0.3}
        register_version(session, final, "digits_mlp", {"raysweep": "0.1.0"}, "ab" * 32)
    page.reload()
    link = rows.first.locator("a", has_text="done-sweep v1")
    expect(link).to_be_visible()
    expect(rows.first).to_contain_text("test_accuracy 0.9100")
    link.click()
    version = page.locator("[data-version='1']")
    expect(version.get_by_test_id("test-metrics")).to_have_text(
        "test_accuracy 0.9100 · test_loss 0.3000"
    )
    expect(version).to_contain_text(f"experiment {seeded.finished}")
    expect(version).to_contain_text(f"trial #{final_trial_number}")  # by number, as elsewhere
    expect(version).to_contain_text("ab" * 32)
    page.click("nav >> text=models")
    expect(page.locator("[data-testid=models] tbody tr")).to_have_count(1)
    expect(page.locator("[data-testid=models] tbody tr")).to_contain_text("done-sweep")


def test_schedules_page_shows_due_times_firings_and_the_champion_challenger_record(
    page: Page, server: ServerProcess, db: sessionmaker[Session]
) -> None:
    production_model(db, test_loss=0.30)
    retrain_schedule(db, retrain={"margin": 0.05})
    for n, test_loss in ((1, 0.20), (2, 0.18)):  # better by the margin, then not by it
        tick(db, minute(n))
        complete_final_run(db, firing_rows(db)[-1].final_run_id or 0, test_loss)
        tick(db, minute(n))
    nightly = ScheduleCreate.model_validate(
        {"name": "nightly", "cron": "0 3 * * *", "timezone": "Europe/Berlin",
         "spec": minimal_spec(name="nightly-digits")}
    )  # fmt: skip
    create_schedule(
        db, nightly, REPO_ROOT / "search_spaces", LOCAL_ONLY, minute(0), operator("tester")
    )

    sign_in(page, server.create_token("schedule-watcher", "viewer"))
    page.click("nav >> text=schedules")
    rows = page.locator("[data-testid=schedules] tbody tr")
    expect(rows).to_have_count(2)
    # 03:00 in Berlin, as the cron reads it (02:00 UTC in November)
    expect(rows.nth(0)).to_contain_text("nightly")
    expect(rows.nth(0).get_by_test_id("next-run")).to_contain_text("2026-11-22 03:00")
    expect(rows.nth(0)).to_contain_text("sweep nightly-digits")
    expect(rows.nth(0)).to_contain_text("never")
    expect(rows.nth(1)).to_contain_text("retrain digits production (margin 0.05)")
    expect(rows.nth(1).locator(".badge")).to_have_text("kept")
    expect(page.locator("button[data-action]")).to_have_count(0)  # a viewer changes nothing

    rows.nth(1).locator("a").click()
    firings = page.locator("[data-testid=firings] tbody tr")
    expect(firings).to_have_count(2)
    expect(firings.nth(0)).to_have_attribute("data-outcome", "kept")
    expect(firings.nth(1)).to_have_attribute("data-outcome", "promoted")
    expect(firings.nth(1)).to_contain_text("version 2 took 'production'")
    firings.nth(0).locator("a", has_text="final run").click()
    expect(page.locator("[data-version='3'] [data-testid=comparison]")).to_have_attribute(
        "data-promoted", "false"
    )
    expect(page.locator("[data-version='3']")).to_contain_text("candidate")
    expect(page.locator("[data-version='3'] [data-testid=comparison]")).to_contain_text(
        "does not beat version 2's 0.2"
    )
    expect(page.locator("[data-version='2']")).to_contain_text("production")

    page.click("text=sign out")
    sign_in(page, server.admin_token)
    page.goto("/#/schedules")
    page.on("dialog", lambda dialog: dialog.accept())
    nightly_row = page.locator("[data-schedule=nightly]")
    nightly_row.locator("button[data-action=pause]").click()
    expect(nightly_row).to_contain_text("paused")
    with db.begin() as session:
        row = session.scalars(select(ScheduleRow).where(ScheduleRow.name == "nightly")).one()
        assert row.enabled is False and row.next_run_at is None
    nightly_row.locator("button[data-action=resume]").click()
    expect(nightly_row.get_by_test_id("next-run")).to_be_visible()


def test_the_promote_form_promotes_the_picked_trial_with_the_epochs_given(
    page: Page, server: ServerProcess, db: sessionmaker[Session]
) -> None:
    sweep = seed_sweep(
        db, trials=6, max_t=2, running=0, name="pick", prune=False,
        state=ExperimentState.completed,
    )  # fmt: skip
    with db.begin() as session:
        ranked = session.scalars(
            select(TrialRow)
            .where(TrialRow.experiment_id == sweep, TrialRow.state == "completed")
            .order_by(TrialRow.best_metric.desc(), TrialRow.id)
        ).all()
        third = ranked[2]
        third_id, third_number = third.id, third.number
    sign_in(page, server.admin_token)
    page.goto(f"/#/experiments/{sweep}?tab=final-runs")
    page.click("button[data-action=promote]")
    form = page.get_by_test_id("promote-form")
    choice = form.locator(f"input[name=trial][value='{third_id}']")
    expect(choice.locator("xpath=..")).to_contain_text(f"#{third_number}")
    choice.check()
    form.locator("input[name=epochs]").fill("4")
    form.locator("button[data-action=promote-now]").click()
    row = page.locator("[data-testid=final-runs] tbody tr")
    expect(row).to_have_count(1)
    expect(row.first).to_contain_text(f"trial #{third_number}")
    expect(row.first.locator("td").nth(4)).to_have_text("4")  # epochs
    with db.begin() as session:
        final = session.scalars(select(FinalRunRow).where(FinalRunRow.experiment_id == sweep)).one()
        assert (final.trial_id, final.epochs) == (third_id, 4)
