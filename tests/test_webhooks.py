"""Webhooks on both databases, driven by the use cases the driver and controller run (no Ray):
what a sweep does reaches its project's webhooks through the outbox, signed, checked by a real
receiver on 127.0.0.1; failed attempts are retried with backoff or given up; a receiver that
never answers holds up neither a controller pass nor a sweep."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from raysweep.lifecycle import ExperimentState, TrialState
from raysweep.projects import ProjectCreate
from raysweep.promotion_spec import PromotionOverrides
from raysweep.schedules import ScheduleCreate
from raysweep.webhooks import DeliveryState, WebhookCreate, WebhookEvent
from service.controller.runner import Runner
from service.controller.webhooks import WebhookSender
from service.db import repositories as repo
from service.db.models.schedules import WebhookDeliveryRow
from service.engine.recorder import Recorder
from service.settings import Settings
from service.specs import check_spec
from service.usecases.access import operator
from service.usecases.experiments import submit_experiment
from service.usecases.job_outcomes import DriverOutcome, finish_sweep
from service.usecases.jobs import SweepJobs
from service.usecases.projects import create_project
from service.usecases.promotion import promote_experiment
from service.usecases.recording import ResultStore
from service.usecases.reports import ResultReported, TrialEnded, TrialStarted
from service.usecases.schedules import create_schedule
from service.usecases.sweep_control import cancel_experiment
from service.usecases.webhooks import create_webhook, list_deliveries, send_test
from tests.conftest import minimal_spec
from tests.factories import (
    CLUSTERS,
    SPACES,
    T0,
    completed_sweep,
    fail_final_run,
    minute,
    production_model,
    tick,
)
from tests.webhook_receiver import HANG, Receiver

ADMIN = operator("tester")


def settings_for(tmp_path: Path, **changes: float) -> Settings:
    """Retries 50 ms apart (then 100 ms, ...), so a test sees them."""
    return Settings.model_validate({"home": tmp_path, "webhook_retry_s": 0.05, **changes})


def hook(
    db: sessionmaker[Session], receiver: Receiver, events: list[str], project: str = "default"
) -> int:
    """A webhook of ``project`` pointing at ``receiver``, which learns the server-made secret."""
    created = create_webhook(
        db,
        ADMIN,
        project,
        WebhookCreate.model_validate({"url": receiver.url, "events": events}),
    )
    assert created.secret is not None
    receiver.secret = created.secret
    return created.id


def running_sweep(db: sessionmaker[Session], tmp_path: Path, name: str = "sweep") -> str:
    """A sweep the dispatcher has submitted (running), as the controller leaves it."""
    experiment = submit_experiment(db, minimal_spec(name=name), SPACES, ADMIN)
    SweepJobs(db, settings_for(tmp_path)).job_submitted(experiment.id, "job-0", 0)
    return experiment.id


def record_trials(db: sessionmaker[Session], experiment_id: str, ends: list[TrialState]) -> None:
    """What the driver's recorder writes for trials that report once and end so."""
    spec = check_spec(minimal_spec(), SPACES)
    recorder = Recorder(ResultStore.for_sweep(experiment_id, spec, "").into(db)).start()
    for index, state in enumerate(ends):
        recorder.submit(TrialStarted(f"t{index}", {"lr": 0.01, "hidden": 16}))
        recorder.submit(ResultReported(f"t{index}", 1, {"val_accuracy": 0.5 + index / 100}))
        recorder.submit(TrialEnded(f"t{index}", state, "Traceback ...\nValueError: bad lr"))
    assert recorder.close(30)


def delivery_rows(db: sessionmaker[Session]) -> list[WebhookDeliveryRow]:
    with db.begin() as session:
        rows = list(session.scalars(select(WebhookDeliveryRow).order_by(WebhookDeliveryRow.id)))
        session.expunge_all()
        return rows


def test_a_sweeps_events_reach_its_projects_webhook_signed_and_no_other_projects(
    db: sessionmaker[Session], tmp_path: Path
) -> None:
    create_project(db, ProjectCreate(name="other"))
    with Receiver() as mine, Receiver() as theirs:
        hook(db, mine, ["sweep.completed", "trial.failed"])
        hook(db, theirs, list(WebhookEvent), project="other")
        experiment_id = running_sweep(db, tmp_path)
        # three trials fail in a row: one trial.failed per sweep per few minutes
        record_trials(
            db,
            experiment_id,
            [TrialState.failed, TrialState.failed, TrialState.completed, TrialState.failed],
        )
        assert finish_sweep(db, experiment_id, DriverOutcome()) is ExperimentState.completed
        sender = WebhookSender(db, settings_for(tmp_path))
        try:
            assert sender.run_once() == 2
        finally:
            sender.close()
        [completed] = mine.deliveries("sweep.completed")
        [failed] = mine.deliveries("trial.failed")
        assert all(r.verified for r in mine.received) and len(mine.received) == 2
        assert completed["project"] == "default"
        assert completed["data"]["experiment_id"] == experiment_id
        assert completed["data"]["state"] == "completed"
        assert completed["data"]["best_metric"] == pytest.approx(0.52)
        assert failed["data"]["trial_number"] == 1
        assert "ValueError: bad lr" in failed["data"]["error"]
        assert theirs.received == []  # another project's webhook hears nothing of it
    rows = delivery_rows(db)
    assert [(r.event, r.state) for r in rows] == [
        ("trial.failed", DeliveryState.delivered),
        ("sweep.completed", DeliveryState.delivered),
    ]


def test_a_rolled_back_change_queues_nothing_and_a_cancel_is_notified(
    db: sessionmaker[Session], tmp_path: Path
) -> None:
    with Receiver() as receiver:
        hook(db, receiver, ["sweep.cancelled", "sweep.failed"])
        experiment_id = submit_experiment(db, minimal_spec(), SPACES, ADMIN).id
        with pytest.raises(RuntimeError), db.begin() as session:
            row = repo.get_experiment_row(session, experiment_id)
            row.state = ExperimentState.failed
            session.flush()  # the outbox row is written here ...
            raise RuntimeError("... and rolled back with the change")
        assert delivery_rows(db) == []
        cancel_experiment(db, experiment_id)  # queued: cancelled at once
        [row] = delivery_rows(db)
        assert (row.event, row.subject) == ("sweep.cancelled", experiment_id)


def test_a_500_is_retried_with_backoff_and_delivered_once_a_404_is_not_retried(
    db: sessionmaker[Session], tmp_path: Path
) -> None:
    sender = WebhookSender(db, settings_for(tmp_path, webhook_max_attempts=3))
    with Receiver([500, 200]) as flaky, Receiver([404]) as gone, Receiver([503] * 5) as down:
        ids = [hook(db, r, ["sweep.completed"]) for r in (flaky, gone, down)]
        tests = [send_test(db, ADMIN, "default", webhook_id) for webhook_id in ids]
        try:
            assert sender.run_once() == 3
            first = {r.webhook_id: r for r in delivery_rows(db)}
            retried = first[ids[0]]
            assert (retried.state, retried.attempts, retried.response_code) == (
                DeliveryState.pending,
                1,
                500,
            )
            # due again after its backoff, not at once
            assert retried.next_attempt_at is not None and retried.last_attempt_at is not None
            assert (retried.next_attempt_at - retried.last_attempt_at).total_seconds() >= 0.05
            assert first[ids[1]].state is DeliveryState.failed
            deadline = time.monotonic() + 10
            while any(r.state is DeliveryState.pending for r in delivery_rows(db)):
                assert time.monotonic() < deadline, delivery_rows(db)
                sender.run_once()
                time.sleep(0.02)
        finally:
            sender.close()
        assert [r.status for r in flaky.received] == [500, 200]
        assert flaky.received[0].delivery_id == flaky.received[1].delivery_id == str(tests[0].id)
        assert len(flaky.deliveries("webhook.test")) == 1  # one delivery, received once
        assert [r.status for r in gone.received] == [404]  # a 4xx is final
        assert [r.status for r in down.received] == [503, 503, 503]  # up to the bound
    logs = [list_deliveries(db, ADMIN, "default", i, 10, 0).items[0] for i in ids]
    assert [(d.state, d.attempts, d.response_code) for d in logs] == [
        (DeliveryState.delivered, 2, 200),
        (DeliveryState.failed, 1, 404),
        (DeliveryState.failed, 3, 503),
    ]
    assert logs[0].error is None and logs[0].delivered_at is not None
    assert logs[1].error is not None and logs[1].error.startswith("HTTP 404")
    # retries used up: nothing more is due
    assert logs[2].last_attempt_at is not None and logs[2].next_attempt_at is None


def test_a_receiver_that_never_answers_delays_no_controller_pass_and_no_sweep(
    db: sessionmaker[Session], tmp_path: Path
) -> None:
    settings = settings_for(tmp_path, webhook_timeout_s=2, webhook_interval_s=0.05)
    passes: list[float] = []

    class Probe:
        name = "probe"

        def run_once(self) -> int:
            passes.append(time.monotonic())
            return 0

    with Receiver([HANG] * 10) as dead, Receiver() as alive:
        dead_id = hook(db, dead, ["sweep.cancelled"])
        hook(db, alive, ["sweep.cancelled"])
        first = submit_experiment(db, minimal_spec(name="first"), SPACES, ADMIN).id
        second = submit_experiment(db, minimal_spec(name="second"), SPACES, ADMIN).id
        sender = WebhookSender(db, settings)
        controller = Runner([Probe()], 0.05)
        webhooks = Runner([sender], settings.webhook_interval_s)  # as build_controller
        controller.start()
        webhooks.start()
        try:
            cancel_experiment(db, first)
            deadline = time.monotonic() + 10
            while not dead.received:
                assert time.monotonic() < deadline, "the sender never called the receiver"
                time.sleep(0.01)
            hung_at = time.monotonic()
            # the dead receiver holds its attempt; the other webhook got the same event
            alive.wait_for("sweep.cancelled", timeout_s=1)
            # a sweep's state change commits at once, and controller passes go on
            started = time.monotonic()
            assert cancel_experiment(db, second).state is ExperimentState.cancelled
            assert time.monotonic() - started < 1
            time.sleep(1)
            assert len([t for t in passes if t > hung_at]) >= 5
            alive.wait_for("sweep.cancelled", count=2, timeout_s=5)
            deadline = time.monotonic() + 10
            while not (log := list_deliveries(db, ADMIN, "default", dead_id, 10, 0).items)[
                -1
            ].error:
                assert time.monotonic() < deadline
                time.sleep(0.05)
        finally:
            webhooks.stop()
            sender.close()
            controller.stop()
    timed_out = log[-1]
    assert timed_out.state is DeliveryState.pending  # retried later
    assert timed_out.error == "no answer within 2 s" and timed_out.response_code is None


def test_registry_schedule_and_stop_rule_events_are_queued_for_the_webhooks_that_want_them(
    db: sessionmaker[Session], tmp_path: Path
) -> None:
    with Receiver() as everything, Receiver() as sweeps_only:
        hook(db, everything, list(WebhookEvent))
        hook(db, sweeps_only, ["sweep.completed"])
        # a promoted sweep: its final run completes, version 1 registers, production moves to it
        production_model(db)
        experiment_id = running_sweep(db, tmp_path, name="converging")
        record_trials(db, experiment_id, [TrialState.completed])
        finish_sweep(db, experiment_id, DriverOutcome(converged="no better trial in 10"))
        # a schedule's second due time, while its first sweep still waits: skipped
        request = ScheduleCreate.model_validate(
            {"name": "every-minute", "cron": "* * * * *", "spec": minimal_spec(), "overlap": "skip"}
        )
        create_schedule(db, request, SPACES, CLUSTERS, T0, ADMIN)
        tick(db, minute(1))
        tick(db, minute(2))
        # a final run that runs out of memory
        failing = completed_sweep(db, [({"lr": 0.01, "hidden": 64}, 0.2)])
        promoted = promote_experiment(db, failing, PromotionOverrides(), "tester", CLUSTERS)
        fail_final_run(db, promoted.runs.items[0].id)
    by_hook: dict[int, list[str]] = {}
    for row in delivery_rows(db):
        by_hook.setdefault(row.webhook_id, []).append(row.event)
    everything_got, sweeps_got = by_hook.values()
    assert everything_got == [
        "sweep.completed",  # the promoted sweep (the factory completes it)
        "final_run.completed",
        "model_version.created",
        "alias.moved",
        "sweep.converged",
        "sweep.completed",
        "schedule.firing_skipped",
        "sweep.completed",  # the second promoted sweep
        "final_run.failed",
    ]
    assert sweeps_got == ["sweep.completed"] * 3
    [moved] = [r for r in delivery_rows(db) if r.event == "alias.moved"]
    assert moved.payload["data"] == {
        "name": "digits",
        "alias": "production",
        "version": 1,
        "previous_version": None,
        "set_by": "tester",
    }
