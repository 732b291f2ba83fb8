"""The experiment page end to end (its tabs, live views, trial table, charts, notes, extend,
cancel, the compare page): a real server on a real database, driven in headless Chromium."""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from devkit.demo import seed_sweep
from service.db.models.sweeps import EventRow, ExperimentRow, ResultRow, TrialRow
from tests.conftest import ServerProcess
from tests.factories import (
    MULTI_OBJECTIVE_TRIALS,
    OBJECTIVES,
    record_multi_objective_sweep,
    submit,
)
from tests.ui.conftest import Seeded, box_of, canvas_ink, matches, open_tab, sign_in

pytestmark = pytest.mark.ui


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
