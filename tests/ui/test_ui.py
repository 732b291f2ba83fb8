"""The web UI end to end: a real server on a real database, driven in headless Chromium."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass

import httpx
import pytest
from playwright.sync_api import Browser, FloatRect, Locator, Page, expect
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from devkit.demo import seed_sweep
from raysweep.lifecycle import ExperimentState, FinalRunState
from raysweep.schedules import ScheduleCreate
from service.db.models.registry import FinalRunRow
from service.db.models.schedules import ScheduleRow
from service.db.models.sweeps import EventRow, ExperimentRow, ResultRow, TrialRow
from service.settings import REPO_ROOT
from service.states import move_final_run
from service.usecases.access import operator
from service.usecases.clusters import shared_final_clusters
from service.usecases.models import register_version
from service.usecases.schedules import create_schedule
from tests.conftest import ServerProcess, minimal_spec
from tests.factories import (
    MULTI_OBJECTIVE_TRIALS,
    OBJECTIVES,
    complete_final_run,
    firing_rows,
    minute,
    production_model,
    record_multi_objective_sweep,
    retrain_schedule,
    submit,
    tick,
)
from tests.ui.conftest import open_tab, sign_in

LOCAL_ONLY = shared_final_clusters(["local"])

pytestmark = pytest.mark.ui


@dataclass
class Seeded:
    running: str
    finished: str


@pytest.fixture
def seeded(db: sessionmaker[Session]) -> Seeded:
    running = seed_sweep(db, trials=24, max_t=9, name="live-sweep", running=2)
    finished = seed_sweep(
        db, trials=5, max_t=3, name="done-sweep", running=0, state=ExperimentState.completed
    )
    return Seeded(running=running, finished=finished)


def matches(total: int) -> str:
    """The trial table's count of the trials its filter keeps."""
    return "1 trial matches" if total == 1 else f"{total} trials match"


def box_of(element: Locator, timeout_s: float = 10) -> FloatRect:
    """Its bounding box once it is drawn: a live chart is drawn again (new trials, new states)
    at any moment, and between the old plot's removal and the new one's there is no box."""
    deadline = time.monotonic() + timeout_s
    while (box := element.bounding_box()) is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert box is not None, f"{element} was not drawn within {timeout_s} s"
    return box


def canvas_ink(page: Page, selector: str) -> int:
    """Pixels of the chart's canvas that are not transparent: the curves were really drawn."""
    return page.eval_on_selector(
        f"{selector} canvas",
        """canvas => {
            const context = canvas.getContext('2d');
            const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
            let ink = 0;
            for (let i = 3; i < data.length; i += 4) if (data[i] > 0) ink++;
            return ink;
        }""",
    )


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


def test_experiment_page_draws_every_view_and_updates_live(
    page: Page, server: ServerProcess, seeded: Seeded, db: sessionmaker[Session]
) -> None:
    api = server.client()
    base = f"/api/v1/experiments/{seeded.running}"
    rungs = api.get(f"{base}/rungs").json()["rungs"]
    sign_in(page, server.admin_token)
    page.goto(f"/#/experiments/{seeded.running}")

    expect(page).to_have_title("live-sweep · raysweep")
    expect(page.get_by_test_id("best")).to_contain_text("trial")
    restarted = page.locator("[data-testid=events] li[data-kind=trial_restarted]")
    expect(restarted).to_have_count(1)
    with db.begin() as session:  # events read as words, and name the trial by its number
        number = session.scalars(
            select(TrialRow.number).where(
                TrialRow.experiment_id == seeded.running, TrialRow.restarts == 1
            )
        ).one()
    expect(restarted).to_contain_text(f"trial restarted trial #{number}")
    open_tab(page, "trials")
    expect(page.locator("[data-testid=trials] tbody tr")).to_have_count(24)
    open_tab(page, "analysis")
    curves = page.get_by_test_id("curves")
    expect(curves).to_have_attribute("data-series", "24")
    assert canvas_ink(page, "[data-testid=curves]") > 1000
    rung_rows = page.locator("[data-testid=rungs] tbody tr")
    expect(rung_rows).to_have_count(len(rungs))
    for row, rung in zip(rung_rows.all(), rungs, strict=True):
        reached = row.locator("[data-reached]")
        expect(reached).to_have_attribute("data-reached", str(rung["reached"]))
    assert rungs[0]["reached"] >= 20 and rungs[0]["stopped"] > 0  # ASHA pruned some
    expect(page.locator("[data-testid=parallel] polyline")).to_have_count(24)
    expect(page.locator("[data-testid=parallel]")).to_contain_text("optimizer")
    # the axes span the search space (lr 1e-4..0.1, hidden 16..256), not the trials drawn
    lr_axis = page.locator("[data-testid=parallel] g.axis", has_text="lr (log)")
    # ticks along every axis: the ends and the decades between (log, in exponent form), or
    # round steps (linear)
    expect(lr_axis.locator(".tick")).to_have_text(["1e-4", "1e-3", "1e-2", "1e-1"])
    hidden_axis = page.locator("[data-testid=parallel] g.axis", has_text="hidden")
    expect(hidden_axis.locator(".tick")).to_have_text(["50", "100", "150", "200", "250"])
    # importance: one bar per sampled parameter, in the API's order
    ranked = api.get(f"{base}/importance").json()["importances"]
    bars = page.locator("[data-testid=importance] tr[data-param]")
    expect(bars).to_have_count(3)
    assert [b.get_attribute("data-param") for b in bars.all()] == [p["name"] for p in ranked]
    expect(page.get_by_test_id("importance")).to_contain_text("PED-ANOVA")
    # history: a mark per finished trial in end order; the best-so-far line ends at the best
    history = api.get(f"{base}/history").json()
    assert history["finished_trials"] == 22  # 24 seeded, 2 running
    marks = page.locator("[data-testid=history] [data-order]")
    expect(marks).to_have_count(22)
    orders = [int(m.get_attribute("data-order") or 0) for m in marks.all()]
    assert orders == [p["order"] for p in history["points"]] == list(range(1, 23))
    best_line = page.locator("[data-testid=history] polyline.best")
    assert float(best_line.get_attribute("data-best") or "nan") == pytest.approx(
        history["points"][-1]["best"]
    )
    # the contour: the two most important parameters first, a cell holding the best trial
    # shows the best metric of all; another pair can be chosen
    contour = page.get_by_test_id("contour")
    ranked_names = [p["name"] for p in api.get(f"{base}/importance").json()["importances"]]
    expect(contour).to_have_attribute("data-x", ranked_names[0])
    expect(contour).to_have_attribute("data-y", ranked_names[1])
    configs_now = api.get(f"{base}/configs").json()
    top = max(r["metric"] for r in configs_now["rows"] if r["metric"] is not None)
    cells = contour.locator("rect.cell").all()
    bests = [float(c.get_attribute("data-best") or "nan") for c in cells]
    counts = [int(c.get_attribute("data-count") or 0) for c in cells]
    assert max(bests) == pytest.approx(top)
    assert sum(counts) == sum(r["metric"] is not None for r in configs_now["rows"])
    contour.locator("select[name=contour-y]").select_option(ranked_names[2])
    expect(contour).to_have_attribute("data-y", ranked_names[2])
    # the EDF: a step per distinct finished value, up to every trial
    edf_line = page.locator("[data-testid=edf] polyline")
    expect(edf_line).to_have_attribute("data-points", str(len(history["edf"])))
    # (the demo sweep's one failed trial is left out of the distribution)
    assert len(history["edf"]) == 21 and history["edf"][-1][1] == 1.0
    # slices: a panel per sampled parameter on the space's axis, a point per trial with a metric
    configs = api.get(f"{base}/configs").json()
    with_metric = [row for row in configs["rows"] if row["metric"] is not None]
    panels = page.locator("[data-testid=slice] svg[data-param]")
    expect(panels).to_have_count(3)
    assert [p.get_attribute("data-param") for p in panels.all()] == ["hidden", "lr", "optimizer"]
    for panel in panels.all():
        expect(panel.locator("circle")).to_have_count(len(with_metric))
    expect(page.locator("[data-testid=slice] svg[data-param=lr]")).to_contain_text("lr (log)")
    expect(page.locator("[data-testid=slice] svg[data-param=optimizer]")).to_contain_text("adam")

    # hovering a curve names its trial and config: sweep the pointer over the chart until one
    # is under it (which one depends on the seeded curves' shapes)
    box = box_of(page.locator("[data-testid=curves] .u-over"))
    hover = page.get_by_test_id("curve-hover")
    for step in range(40):
        pointer = (box["x"] + box["width"] * 0.9, box["y"] + box["height"] * step / 40)
        page.mouse.move(*pointer)
        if "optimizer=" in (hover.text_content() or ""):
            break
    expect(hover).to_contain_text("trial")
    expect(hover).to_contain_text("optimizer=")

    # a drag zooms in on x and offers to reset it; the y axis can go log (accuracies are > 0)
    reset = page.get_by_test_id("reset-zoom")
    expect(reset).to_have_count(0)
    page.mouse.move(box["x"] + box["width"] * 0.3, box["y"] + box["height"] * 0.5)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] * 0.6, box["y"] + box["height"] * 0.5, steps=5)
    page.mouse.up()
    expect(curves).to_have_attribute("data-zoomed", "true")
    reset.click()
    expect(curves).to_have_attribute("data-zoomed", "false")
    expect(reset).to_have_count(0)
    page.check("input[name=log]")
    expect(curves).to_have_attribute("data-log", "true")
    assert canvas_ink(page, "[data-testid=curves]") > 1000
    page.uncheck("input[name=log]")
    expect(curves).to_have_attribute("data-log", "false")
    box = box_of(page.locator("[data-testid=curves] .u-over"))  # a new plot
    pointer = (box["x"] + box["width"] * 0.9, pointer[1])

    # a result stored while the page is open appears without a reload
    points_before = int(curves.get_attribute("data-points") or 0)
    with db.begin() as session:
        trial = session.scalars(
            select(TrialRow).where(
                TrialRow.experiment_id == seeded.running, TrialRow.state == "running"
            )
        ).first()
        assert trial is not None
        trial.iteration += 1
        trial.last_metric = 0.5
        session.add(
            ResultRow(
                trial_id=trial.id,
                iteration=trial.iteration,
                metrics={"val_accuracy": 0.5, "epoch": trial.iteration},
            )
        )
        trial_id, iteration = trial.id, trial.iteration
    expect(curves).to_have_attribute("data-points", str(points_before + 1))
    pruned_before = int(curves.get_attribute("data-pruned") or 0)
    open_tab(page, "trials")
    cell = page.locator(f"[data-testid=trials] tr[data-trial='{trial_id}'] [data-col=iteration]")
    expect(cell).to_have_text(str(iteration))

    # ASHA stopping that trial restyles its curve and badge without a reload (the chart's
    # trial states refresh every few seconds, after the last change)
    with db.begin() as session:
        stopped = session.get_one(TrialRow, trial_id)
        stopped.state = "pruned"
        session.add(
            EventRow(
                experiment_id=seeded.running,
                trial_id=trial_id,
                kind="trial_pruned",
                message="pruned",
            )
        )
    badge = page.locator(f"[data-testid=trials] tr[data-trial='{trial_id}'] .badge")
    expect(badge).to_have_text("pruned")
    open_tab(page, "analysis")
    expect(curves).to_have_attribute("data-pruned", str(pruned_before + 1), timeout=20_000)

    # clicking the hovered curve opens its trial
    box_of(page.locator("[data-testid=curves] .u-over"))  # drawn again
    page.mouse.move(*pointer)
    hovered = (hover.locator("b").text_content() or "").strip()  # "#7": its number
    assert re.fullmatch(r"#\d+", hovered), hovered
    with db.begin() as session:
        hovered_id = session.scalars(
            select(TrialRow.id).where(
                TrialRow.experiment_id == seeded.running, TrialRow.number == int(hovered[1:])
            )
        ).one()
    page.mouse.click(*pointer)
    expect(page).to_have_url(re.compile(rf"#/trials/{hovered_id}$"))
    expect(page.locator("h1")).to_contain_text(f"Trial {hovered}")


def test_cancel_from_the_ui_cancels_in_the_database(
    page: Page, server: ServerProcess, seeded: Seeded, db: sessionmaker[Session]
) -> None:
    sign_in(page, server.admin_token)
    page.goto(f"/#/experiments/{seeded.running}")
    dialogs: list[str] = []

    def answer(dialog: object) -> None:
        dialogs.append(dialog.message)  # type: ignore[attr-defined]
        dialog.accept()  # type: ignore[attr-defined]

    page.on("dialog", answer)
    page.click("button[data-action=cancel]")
    expect(page.locator("h1 .badge")).to_have_text("cancelling")
    assert dialogs and "Cancel this sweep" in dialogs[0]
    with db.begin() as session:
        row = session.get(ExperimentRow, seeded.running)
        assert row is not None and row.state == "cancelling"
    # a finished sweep offers no control but to be extended
    page.goto(f"/#/experiments/{seeded.finished}")
    expect(page.locator("h1 .badge")).to_have_text("completed")
    expect(page.locator("[data-testid=actions] button")).to_have_text(["extend"])
    # a sweep without results says so where its curves will be, instead of a blank box
    with server.client() as client:
        queued = submit(client)
    page.goto(f"/#/experiments/{queued}?tab=analysis")
    expect(page.get_by_test_id("curves-empty")).to_contain_text("No results yet")
    expect(page.locator("[data-testid=curves] canvas")).to_have_count(0)
    expect(page.locator("input[name=log]")).to_be_disabled()


def test_a_viewer_sees_no_action_buttons_and_the_trial_page(
    page: Page, server: ServerProcess, seeded: Seeded, db: sessionmaker[Session]
) -> None:
    viewer = server.create_token("watcher", "viewer")
    reason = "2 worker(s) x {CPU: 0.5} plus 0.01 CPU: 0.49 CPU free of {CPU: 2}"
    with db.begin() as session:  # what the recorder stores while the worker group waits
        waiting = session.scalars(
            select(TrialRow).where(
                TrialRow.experiment_id == seeded.running, TrialRow.state == "running"
            )
        ).first()
        assert waiting is not None
        waiting.waiting_for, waiting_id = reason, waiting.id
    sign_in(page, viewer)
    page.goto(f"/#/experiments/{seeded.running}?tab=trials")
    expect(page.locator("[data-testid=trials] tbody tr")).to_have_count(24)
    badges = page.locator("[data-testid=trials] [data-waiting]")
    expect(badges).to_have_count(1)
    expect(badges).to_have_text("waiting for resources")
    expect(badges).to_have_attribute("title", reason)
    expect(page.get_by_test_id("actions")).to_have_count(0)
    expect(page.locator("button[data-action]")).to_have_count(0)
    # the API refuses the viewer too: hidden buttons are not the only guard
    refused = httpx.post(
        f"{server.url}/api/v1/experiments/{seeded.running}/cancel",
        headers={"Authorization": f"Bearer {viewer}"},
    )
    assert refused.status_code == 403

    with db.begin() as session:
        failed = session.scalars(
            select(TrialRow).where(
                TrialRow.experiment_id == seeded.running, TrialRow.state == "failed"
            )
        ).one()
        failed_id, failed_number, traceback = failed.id, failed.number, failed.error
    assert traceback is not None
    page.goto(f"/#/trials/{waiting_id}")
    expect(page.get_by_test_id("waiting-for")).to_have_text(reason)
    page.goto(f"/#/trials/{failed_id}")
    expect(page.get_by_test_id("traceback")).to_have_text(traceback)
    expect(page).to_have_title(f"trial #{failed_number} · raysweep")
    metrics = page.get_by_test_id("metrics")
    expect(metrics).to_have_attribute("data-count", "2")  # val_accuracy and train_loss
    expect(metrics.locator("canvas")).to_have_count(2)
    expect(page.locator("[data-testid=checkpoints] tbody tr")).to_have_count(1)
    expect(page.get_by_test_id("config")).to_contain_text("optimizer")

    with db.begin() as session:  # a pruned trial says why, as the scheduler decided it
        pruned = session.scalars(
            select(TrialRow).where(
                TrialRow.experiment_id == seeded.running, TrialRow.state == "pruned"
            )
        ).first()
        assert pruned is not None and pruned.early_stopping is not None
        pruned_id, line = pruned.id, pruned.early_stopping
    assert line.startswith("pruned at epoch ") and "< cutoff" in line
    page.goto(f"/#/trials/{pruned_id}")
    expect(page.get_by_test_id("early-stopping")).to_have_text(line)


def test_extend_a_finished_sweep_from_the_ui(
    page: Page, server: ServerProcess, seeded: Seeded
) -> None:
    sign_in(page, server.admin_token)
    page.goto(f"/#/experiments/{seeded.finished}")
    page.click("button[data-action=extend]")
    form = page.get_by_test_id("extend-form")
    form.locator("input[name=num_samples]").fill("12")  # configurations in all
    form.locator("input[name=max_t]").fill("5")
    form.locator("button[data-action=extend-now]").click()
    expect(page.locator(".title .badge")).to_have_text("queued")
    expect(page.locator("button[data-action=extend]")).to_have_count(0)
    with server.client() as client:
        read = client.get(f"/api/v1/experiments/{seeded.finished}").json()
    assert read["extensions"] == 1 and read["spec"]["search"]["num_samples"] == 12
    assert read["spec"]["early_stopping"]["max_t"] == 5


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


def test_the_pareto_front_is_drawn_for_two_objectives_and_listed_for_three(
    page: Page, server: ServerProcess, db: sessionmaker[Session]
) -> None:
    _, two, ids = record_multi_objective_sweep(db, MULTI_OBJECTIVE_TRIALS)
    three_objectives = [*OBJECTIVES, {"metric": "val_loss", "mode": "min"}]
    _, three, _ = record_multi_objective_sweep(db, MULTI_OBJECTIVE_TRIALS, three_objectives)
    sign_in(page, server.admin_token)
    page.goto(f"/#/experiments/{two}?tab=analysis")
    chart = page.get_by_test_id("pareto")
    expect(chart).to_contain_text("3 of 5 completed trials on the front")
    on_front = chart.locator("[data-front=true]")
    expect(on_front).to_have_count(3)
    assert sorted(int(p.get_attribute("data-trial") or 0) for p in on_front.all()) == sorted(
        [ids[0], ids[1], ids[4]]
    )
    expect(chart.locator("[data-infeasible=true]")).to_have_attribute("data-trial", str(ids[3]))
    expect(chart.locator("circle[data-front=false]")).to_have_count(1)  # the dominated one
    # infeasible trials are marked in the trial table too (the pruned one lacks val_loss)
    open_tab(page, "trials")
    expect(page.locator("table .badge.infeasible")).to_have_count(2)
    open_tab(page, "analysis")
    chart.locator(f"[data-trial='{ids[1]}']").click()
    expect(page).to_have_url(re.compile(f"#/trials/{ids[1]}$"))

    page.goto(f"/#/experiments/{three}?tab=analysis")
    with server.client() as client:
        front = client.get(f"/api/v1/experiments/{three}/pareto").json()["front"]
    rows = page.locator("[data-testid=pareto-table] tr[data-trial]")
    expect(rows).to_have_count(len(front))
    assert [int(r.get_attribute("data-trial") or 0) for r in rows.all()] == front
    expect(page.get_by_test_id("pareto-table")).to_contain_text("val_loss")


def test_the_trial_table_filters_and_sorts_over_every_trial(
    page: Page, server: ServerProcess, db: sessionmaker[Session]
) -> None:
    """More trials than a page: the filter's count and the config sort agree with the API's
    over all of them (they acted on the 50 rows shown before), by mouse and by keyboard."""
    sweep = seed_sweep(db, trials=120, max_t=3, running=0, name="many", seed=11)
    with server.client() as client:
        url = f"/api/v1/experiments/{sweep}/trials"
        matching = client.get(url, params={"where": ["lr>0.01", "optimizer=adam"]}).json()
        smallest = client.get(url, params={"sort": "config.lr", "order": "asc", "limit": 1})
    first = smallest.json()["items"][0]["id"]
    sign_in(page, server.admin_token)
    page.goto(f"/#/experiments/{sweep}?tab=trials")
    rows = page.locator("[data-testid=trials] tbody tr")
    expect(rows).to_have_count(50)
    expect(page.locator(".pager")).to_contain_text("50 of 120")

    page.fill("input[name=config-filter]", "lr>0.01, optimizer=adam")
    page.press("input[name=config-filter]", "Enter")
    expect(page.get_by_test_id("matching")).to_have_text(matches(matching["total"]))
    expect(rows).to_have_count(min(50, matching["total"]))
    shown = {int(r.get_attribute("data-trial") or 0) for r in rows.all()}
    assert shown == {t["id"] for t in matching["items"]}

    page.fill("input[name=config-filter]", "lr>0.5")
    page.press("input[name=config-filter]", "Enter")
    expect(page.get_by_test_id("no-trials")).to_have_text("No trial matches.")
    page.fill("input[name=config-filter]", "lr>>1")
    page.press("input[name=config-filter]", "Enter")
    expect(page.get_by_role("alert")).to_contain_text("> on lr compares numbers: '>1' is not one")

    page.fill("input[name=config-filter]", "")
    page.press("input[name=config-filter]", "Enter")
    header = page.locator("[data-testid=trials] th", has_text=re.compile("^lr"))
    header.focus()
    page.keyboard.press("Enter")  # sortable headers answer the keyboard
    expect(header).to_have_attribute("aria-sort", "ascending")
    expect(rows.first).to_have_attribute("data-trial", str(first))

    # what the table shows is in the address: a second tab opened on it shows the same page
    page.fill("input[name=config-filter]", "hidden>0")  # every trial: two pages and more
    page.press("input[name=config-filter]", "Enter")
    expect(page.get_by_test_id("matching")).to_have_text("120 trials match")
    page.click(".pager >> text=next")
    expect(page.locator(".pager")).to_contain_text("100 of 120")
    expect(page).to_have_url(re.compile(r"[?&]offset=50(&|$)"))
    shared = page.url
    for part in ("where=hidden%3E0", "sort=config.lr", "order=asc"):
        assert part in shared.split("?", 1)[1].split("&"), shared
    with server.client() as client:
        second_page = client.get(
            url,
            params={"where": "hidden>0", "sort": "config.lr", "order": "asc", "offset": 50},
        ).json()["items"]
    expected = [t["id"] for t in second_page]
    expect(rows.first).to_have_attribute("data-trial", str(expected[0]))
    assert [int(r.get_attribute("data-trial") or 0) for r in rows.all()] == expected
    other = page.context.new_page()
    other.goto(shared)
    opened = other.locator("[data-testid=trials] tbody tr")
    expect(opened).to_have_count(50)
    expect(other.locator(".pager")).to_contain_text("100 of 120")
    expect(opened.first).to_have_attribute("data-trial", str(expected[0]))
    assert [int(r.get_attribute("data-trial") or 0) for r in opened.all()] == expected
    expect(other.locator("input[name=config-filter]")).to_have_value("hidden>0")
    expect(other.locator("[data-testid=trials] th[aria-sort=ascending]")).to_contain_text("lr")
    other.close()


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


def test_members_write_notes_on_a_sweep_and_a_trial_and_the_lists_show_them(
    page: Page, browser: Browser, server: ServerProcess, seeded: Seeded, db: sessionmaker[Session]
) -> None:
    sign_in(page, server.admin_token)
    page.goto(f"/#/experiments/{seeded.finished}")
    notes = page.get_by_test_id("notes")
    expect(notes).to_contain_text("No notes.")
    notes.locator("button[data-action=edit-notes]").click()
    notes.locator("textarea[name=notes]").fill("baseline run\nlr range too narrow")
    notes.locator("button[data-action=save-notes]").click()
    expect(notes.get_by_test_id("notes-text")).to_have_text("baseline run\nlr range too narrow")
    with db.begin() as session:
        stored = session.get(ExperimentRow, seeded.finished)
        assert stored is not None and stored.notes == "baseline run\nlr range too narrow"

    open_tab(page, "trials")
    row = page.locator("[data-testid=trials] tbody tr").first
    trial_id = int(row.get_attribute("data-trial") or 0)
    row.locator("a").first.click()
    expect(page).to_have_url(re.compile(rf"#/trials/{trial_id}$"))
    trial_notes = page.get_by_test_id("notes")
    trial_notes.locator("button[data-action=edit-notes]").click()
    trial_notes.locator("textarea[name=notes]").fill("odd loss spike at epoch 2")
    trial_notes.locator("button[data-action=save-notes]").click()
    expect(trial_notes.get_by_test_id("notes-text")).to_have_text("odd loss spike at epoch 2")

    page.goto(f"/#/experiments/{seeded.finished}?tab=trials")
    cell = page.locator(f"[data-testid=trials] tr[data-trial='{trial_id}'] td.notes-cell")
    expect(cell).to_have_text("odd loss spike at epoch 2")
    page.goto("/#/")
    line = page.locator(f"tr[data-experiment='{seeded.finished}'] [data-testid=notes-line]")
    expect(line).to_contain_text("baseline run")

    # a viewer reads them and is offered no editing
    viewer = server.create_token("reader", "viewer")
    context = browser.new_context(base_url=server.url)
    context.add_init_script(f"localStorage.setItem('raysweep.token', '{viewer}')")
    other = context.new_page()
    other.goto(f"/#/trials/{trial_id}")
    expect(other.get_by_test_id("notes-text")).to_have_text("odd loss spike at epoch 2")
    expect(other.locator("button[data-action=edit-notes]")).to_have_count(0)
    context.close()


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


def test_the_curves_draw_any_reported_metric_and_smooth_it(
    page: Page, server: ServerProcess, seeded: Seeded
) -> None:
    with server.client() as client:
        base = f"/api/v1/experiments/{seeded.running}/curves"
        loss = client.get(base, params={"metric": "train_loss"}).json()
    loss_points = sum(len(s["points"]) for s in loss["series"])
    sign_in(page, server.admin_token)
    page.goto(f"/#/experiments/{seeded.running}?tab=analysis")
    curves = page.get_by_test_id("curves")
    expect(curves).to_have_attribute("data-metric", "val_accuracy")
    choice = page.locator("select[name=curve-metric]")
    expect(choice.locator("option")).to_have_text(["epoch", "train_loss", "val_accuracy"])
    ink_before = canvas_ink(page, "[data-testid=curves]")
    choice.select_option("train_loss")
    expect(curves).to_have_attribute("data-metric", "train_loss")
    expect(curves).to_have_attribute("data-points", str(loss_points))
    page.locator("select[name=smoothing]").select_option("0.9")
    expect(curves).to_have_attribute("data-smoothing", "0.9")
    assert canvas_ink(page, "[data-testid=curves]") != ink_before  # other lines drawn
    # both choices are in the address: a second tab opened on it draws the same
    expect(page).to_have_url(re.compile(r"metric=train_loss"))
    expect(page).to_have_url(re.compile(r"smoothing=0\.9"))
    other = page.context.new_page()
    other.goto(page.url)
    other_curves = other.get_by_test_id("curves")
    expect(other_curves).to_have_attribute("data-metric", "train_loss")
    expect(other_curves).to_have_attribute("data-smoothing", "0.9")
    other.close()
    choice.select_option("val_accuracy")  # back to the sweep's metric, live again
    expect(curves).to_have_attribute("data-metric", "val_accuracy")
    expect(page).not_to_have_url(re.compile(r"metric="))


def test_two_to_four_trials_compared_side_by_side(
    page: Page, server: ServerProcess, seeded: Seeded, db: sessionmaker[Session]
) -> None:
    with db.begin() as session:
        picked = session.scalars(
            select(TrialRow)
            .where(TrialRow.experiment_id == seeded.running, TrialRow.state == "completed")
            .order_by(TrialRow.id)
            .limit(3)
        ).all()
        configs = [t.config for t in picked]
        ids, numbers = [t.id for t in picked], [t.number for t in picked]
        bests = [t.best_metric for t in picked]
    sign_in(page, server.admin_token)
    page.goto(f"/#/experiments/{seeded.running}?tab=trials")
    for trial_id in ids:
        page.locator(f"input[name=compare][value='{trial_id}']").check()
    link = page.get_by_test_id("compare-link")
    expect(link).to_have_text("compare 3 trials")
    link.click()
    expect(page).to_have_url(re.compile(rf"#/compare\?trials={','.join(map(str, ids))}$"))
    header = page.locator("[data-testid=compare-config] thead th")
    expect(header).to_have_text(["", *[f"trial #{n}" for n in numbers]])
    for key in ("lr", "hidden", "optimizer"):
        row = page.locator(f"[data-testid=compare-config] tr[data-key={key}]")
        differs = len({str(c[key]) for c in configs}) > 1
        expect(row).to_have_attribute("data-differs", str(differs).lower())
    best_cells = page.locator("[data-testid=compare-final] tr[data-row=best] td")
    expect(best_cells).to_have_count(3)
    for cell, best in zip(best_cells.all(), bests, strict=True):
        assert float(cell.text_content() or "nan") == pytest.approx(best, rel=1e-3)
    metrics = page.get_by_test_id("compare-metrics")
    expect(metrics).to_have_attribute("data-count", "2")  # val_accuracy and train_loss
    expect(metrics.locator("[data-metric=val_accuracy]")).to_have_attribute("data-lines", "3")
    expect(metrics.locator("canvas")).to_have_count(2)
    page.goto("/#/compare?trials=5")
    expect(page.get_by_role("alert")).to_contain_text("Compare takes 2 to 4 trials")


def test_brushing_the_parallel_coordinates_fades_lines_and_filters_the_table(
    page: Page, server: ServerProcess, db: sessionmaker[Session]
) -> None:
    sweep = seed_sweep(db, trials=60, max_t=3, running=0, name="brushing", seed=4)
    sign_in(page, server.admin_token)
    page.goto(f"/#/experiments/{sweep}?tab=analysis")
    lines = page.locator("[data-testid=parallel] polyline")
    expect(lines).to_have_count(60)
    # lines are coloured by the metric, not by state: the best and the worst differ
    colours = {line.get_attribute("stroke") for line in lines.all()}
    assert len(colours) > 10
    axis = page.locator("rect[data-brush-axis=hidden]")
    axis.scroll_into_view_if_needed()
    area = box_of(axis)
    middle = area["x"] + area["width"] / 2
    page.mouse.move(middle, area["y"] + area["height"] * 0.2)
    page.mouse.down()
    page.mouse.move(middle, area["y"] + area["height"] * 0.6, steps=5)
    page.mouse.up()
    brushed = page.get_by_test_id("brushed")
    expect(brushed).to_contain_text("hidden>=")
    conditions = re.findall(r"hidden[<>]=[\d.e+-]+", brushed.text_content() or "")
    assert len(conditions) == 2
    inside = int(brushed.get_attribute("data-shown") or -1)
    expect(page.locator("[data-testid=parallel] polyline[data-brushed=in]")).to_have_count(inside)
    with server.client() as client:
        matching = client.get(
            f"/api/v1/experiments/{sweep}/trials", params={"where": conditions, "limit": 500}
        ).json()
    assert 0 < matching["total"] < 60 and inside == matching["total"]
    # hovering a line names its trial
    lines.first.hover(force=True)
    expect(page.get_by_test_id("parallel-hover")).to_contain_text("trial #")
    # the brushes filter the trial tab's table
    open_tab(page, "trials")
    expect(page.get_by_test_id("matching")).to_contain_text(matches(matching["total"]))
    shown = {
        int(r.get_attribute("data-trial") or 0)
        for r in page.locator("[data-testid=trials] tbody tr").all()
    }
    assert shown == {t["id"] for t in matching["items"]}
    # clearing the brush brings every trial back
    open_tab(page, "analysis")
    brush_again = page.locator("rect[data-brush-axis=hidden]")
    brush_again.scroll_into_view_if_needed()
    area = box_of(brush_again)
    page.mouse.move(middle, area["y"] + area["height"] * 0.2)
    page.mouse.down()
    page.mouse.move(middle, area["y"] + area["height"] * 0.6, steps=5)
    page.mouse.up()
    expect(brushed).to_contain_text("hidden>=")
    brushed.locator("button", has_text="clear").click()
    expect(page.locator("[data-testid=parallel] polyline[data-brushed=out]")).to_have_count(0)
    open_tab(page, "trials")
    expect(page.locator("[data-testid=trials] tbody tr")).to_have_count(50)


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
