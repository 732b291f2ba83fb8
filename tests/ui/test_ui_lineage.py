"""Population-based training in the web UI: the experiment page's lineage (which trial copied
which, at which epoch, what changed) and a trial's page (where its weights came from, its
config over epochs), and the SDK's read of the same. A real server on a seeded database
(exploits stored as the recorder stores them), headless Chromium."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from sqlalchemy import select, update
from sqlalchemy.orm import Session, sessionmaker

from devkit.demo import seed_sweep
from raysweep import Client
from raysweep.lifecycle import ExperimentState
from service.db.models.sweeps import ExperimentRow, TrialRow
from service.usecases.exploits import ExploitDecided, store_exploit
from tests.conftest import ServerProcess
from tests.ui.conftest import sign_in
from tests.ui.test_ui_pages import go

pytestmark = pytest.mark.ui


def pbt_sweep(db: sessionmaker[Session]) -> tuple[str, list[TrialRow]]:
    """A finished sweep of 4 trials under pbt: trial #4 copied #1 at epoch 2 and #2 at epoch 4;
    #3 copied #1 at epoch 4."""
    sweep = seed_sweep(
        db, trials=4, max_t=6, running=0, name="pbt", state=ExperimentState.completed, prune=False
    )
    with db.begin() as session:
        row = session.get_one(ExperimentRow, sweep)
        spec = dict(row.spec)
        spec["early_stopping"] = {"scheduler": "pbt", "max_t": 6, "pbt": {"mutate": ["lr"]}}
        session.execute(update(ExperimentRow).where(ExperimentRow.id == sweep).values(spec=spec))
        trials = list(
            session.scalars(
                select(TrialRow).where(TrialRow.experiment_id == sweep).order_by(TrialRow.number)
            )
        )
        one, two, three, four = trials
        for trial, source, epoch, lr in (
            (four, one, 2, 0.012),
            (four, two, 4, 0.0144),
            (three, one, 4, 0.008),
        ):
            old = {**trial.config}
            op = ExploitDecided(
                trial.tune_trial_id,
                epoch,
                source.tune_trial_id,
                0.5,
                0.9,
                old,
                {**source.config, "lr": lr},
            )
            store_exploit(session, sweep, trial.id, op, "val_accuracy", "epoch")
        session.flush()  # the last exploit too, before the rows leave the session
        session.expunge_all()
    return sweep, trials


def test_the_lineage_and_a_trials_schedule_are_shown(
    page: Page, server: ServerProcess, db: sessionmaker[Session]
) -> None:
    sweep, (one, two, _, four) = pbt_sweep(db)
    sign_in(page, server.admin_token)
    go(page, f"#/experiments/{sweep}")
    rows = page.locator("[data-testid=lineage] tbody tr")
    expect(rows).to_have_count(3)
    expect(rows.nth(0)).to_contain_text("trial #4")
    expect(rows.nth(0)).to_contain_text("← trial #1")
    expect(rows.nth(0)).to_contain_text("lr ")
    expect(rows.nth(0)).to_contain_text("→ 0.012")
    expect(page.locator("[data-testid=events] li[data-kind=trial_exploited]")).to_have_count(3)

    rows.nth(0).get_by_role("link", name="trial #4").click()
    expect(page.get_by_test_id("weights-from")).to_contain_text("Weights from trial #2")
    expect(page.get_by_test_id("weights-from")).to_contain_text("copied at epoch 4 (2 exploits")
    stretches = page.locator("[data-testid=schedule] tbody tr")
    expect(stretches).to_have_count(3)
    for stretch, (start, config, weights) in zip(
        stretches.all(),
        ((1, "", "its own"), (3, "lr=0.012", "from trial #1"), (5, "lr=0.0144", "from trial #2")),
        strict=True,
    ):
        expect(stretch.locator("td").nth(0)).to_have_text(str(start))
        expect(stretch.locator("td").nth(1)).to_contain_text(config)
        expect(stretch.locator("td").nth(2)).to_contain_text(weights)
    expect(page.get_by_test_id("early-stopping")).to_contain_text(
        f"copied trial {two.tune_trial_id} at epoch 4"
    )
    go(page, f"#/trials/{one.id}")  # a trial that never exploited shows no schedule
    expect(page.get_by_test_id("config")).to_be_visible()
    expect(page.get_by_test_id("schedule")).to_have_count(0)
    with Client(server.url, server.admin_token) as client:
        lineage = client.experiment(sweep).exploits()
        schedule = client.experiment(sweep).exploits(trial_id=four.id)
    assert [(e.trial_number, e.source_trial_number, e.epoch) for e in lineage] == [
        (4, 1, 2),
        (4, 2, 4),
        (3, 1, 4),
    ]
    assert [e.new_config["lr"] for e in schedule] == [0.012, 0.0144]
