"""The events no other webhook test isolates, each on both databases and driven by the use cases
the controller and the driver call (no Ray): a schedule's failed firing (refused by its project,
or a retrain whose final run failed), a skipped or missed one, and a sweep that ended because its
budget was spent. Each queues one delivery for a webhook that asked for it and none for a webhook
of the project that asked only for other events, and reaches a real receiver signed, with what
a receiver acts on."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from raysweep.lifecycle import ExperimentState, TrialState
from raysweep.projects import ProjectCreate
from raysweep.schedules import ScheduleCreate
from raysweep.webhooks import WebhookCreate, WebhookEvent
from service.controller.webhooks import WebhookSender
from service.db.models.schedules import WebhookDeliveryRow
from service.engine.recorder import Recorder
from service.settings import Settings
from service.specs import check_spec
from service.usecases.access import operator
from service.usecases.experiments import submit_experiment
from service.usecases.job_outcomes import DriverOutcome, finish_sweep
from service.usecases.jobs import SweepJobs
from service.usecases.projects import create_project
from service.usecases.recording import ResultStore
from service.usecases.reports import ResultReported, TrialEnded, TrialStarted
from service.usecases.schedules import create_schedule, set_enabled
from service.usecases.webhooks import create_webhook
from tests.conftest import minimal_spec
from tests.factories import (
    CLUSTERS,
    SPACES,
    T0,
    fail_final_run,
    firing_rows,
    minute,
    production_model,
    retrain_schedule,
    tick,
)
from tests.webhook_receiver import Receiver

ADMIN = operator("tester")
ENVELOPE = {"id", "event", "project", "created_at", "message", "data"}


def hook(
    db: sessionmaker[Session], receiver: Receiver, events: list[str], project: str = "default"
) -> int:
    """A webhook of ``project`` pointing at ``receiver``, which learns the server-made secret."""
    request = WebhookCreate.model_validate({"url": receiver.url, "events": events})
    created = create_webhook(db, ADMIN, project, request)
    assert created.secret is not None
    receiver.secret = created.secret
    return created.id


def all_but(*events: WebhookEvent) -> list[str]:
    return [str(event) for event in WebhookEvent if event not in events]


def queued(db: sessionmaker[Session]) -> dict[int, list[str]]:
    """Each webhook's queued events, in order."""
    by_hook: dict[int, list[str]] = {}
    with db.begin() as session:
        for row in session.scalars(select(WebhookDeliveryRow).order_by(WebhookDeliveryRow.id)):
            by_hook.setdefault(row.webhook_id, []).append(row.event)
    return by_hook


def send_all(db: sessionmaker[Session], tmp_path: Path) -> int:
    """One pass of the controller's sender (every delivery here is due and answered 200)."""
    sender = WebhookSender(db, Settings(home=tmp_path))
    try:
        return sender.run_once()
    finally:
        sender.close()


def received(receiver: Receiver, event: WebhookEvent) -> list[dict[str, Any]]:
    """What ``receiver`` accepted, checked as a receiver would: every body signed and whole."""
    assert receiver.received and all(r.verified for r in receiver.received)
    bodies = receiver.deliveries()
    assert all(set(body) == ENVELOPE and body["event"] == event for body in bodies), bodies
    return bodies


def test_a_firing_its_project_refuses_is_sent_as_firing_failed_to_the_webhook_that_wants_it(
    db: sessionmaker[Session], tmp_path: Path
) -> None:
    create_project(db, ProjectCreate(name="nightly", max_queued=1))
    with Receiver() as wants, Receiver() as others, Receiver() as elsewhere:
        hook(db, wants, ["schedule.firing_failed"], project="nightly")
        hook(db, others, all_but(WebhookEvent.schedule_firing_failed), project="nightly")
        hook(db, elsewhere, list(WebhookEvent))  # the default project's
        spec = minimal_spec(project="nightly")
        first = schedule(db, name="first", spec=spec, project="nightly")
        second = schedule(db, name="second", spec=spec, project="nightly", cron="0 * * * *")
        assert tick(db, minute(1)) == 1  # the first queues a sweep: the project's queue is full
        set_enabled(db, first, False, minute(1))
        on_the_hour = datetime(2026, 11, 21, 13, 0, tzinfo=UTC)
        assert tick(db, on_the_hour) == 1
        assert list(queued(db).values()) == [["schedule.firing_failed"]]
        assert send_all(db, tmp_path) == 1
        [body] = received(wants, WebhookEvent.schedule_firing_failed)
        assert others.received == [] and elsewhere.received == []
    assert body["project"] == "nightly"
    data = body["data"]
    assert data == {
        "schedule_id": second,
        "schedule": "second",
        "kind": "sweep",
        "scheduled_for": on_the_hour.isoformat(),
        "outcome": "failed",
        "message": data["message"],
        "experiment_id": None,
        "final_run_id": None,
    }
    assert "project 'nightly' has 1 sweeps queued" in data["message"]
    assert body["message"].startswith("schedule second: the firing due 2026-11-21T13:00:00+00:00")
    assert "max_queued 1" in body["message"]


def test_a_retrain_whose_final_run_failed_is_sent_as_firing_failed_naming_the_run(
    db: sessionmaker[Session], tmp_path: Path
) -> None:
    with Receiver() as wants, Receiver() as others:
        wants_id = hook(db, wants, ["schedule.firing_failed"])
        hook(db, others, ["schedule.firing_skipped", "sweep.failed", "sweep.cancelled"])
        production_model(db)
        schedule_id = retrain_schedule(db)
        tick(db, minute(1))
        [training] = firing_rows(db)
        assert training.outcome == "training" and training.final_run_id is not None
        assert queued(db) == {}  # nothing either asked for yet
        fail_final_run(db, training.final_run_id)
        tick(db, minute(1))  # the retrain moves on: its firing fails (an existing row changes)
        assert queued(db) == {wants_id: ["schedule.firing_failed"]}
        assert send_all(db, tmp_path) == 1
        [body] = received(wants, WebhookEvent.schedule_firing_failed)
        assert others.received == []
    data = body["data"]
    assert (data["schedule_id"], data["schedule"], data["kind"]) == (
        schedule_id,
        "retrain",
        "retrain",
    )
    assert (data["outcome"], data["final_run_id"]) == ("failed", training.final_run_id)
    assert data["scheduled_for"] == datetime(2026, 11, 21, 12, 1, tzinfo=UTC).isoformat()
    assert "RuntimeError: out of memory" in data["message"]


def test_a_skipped_and_a_missed_firing_are_sent_as_firing_skipped_with_their_outcome(
    db: sessionmaker[Session], tmp_path: Path
) -> None:
    with Receiver() as wants, Receiver() as others:
        wants_id = hook(db, wants, ["schedule.firing_skipped"])
        hook(db, others, all_but(WebhookEvent.schedule_firing_skipped))
        # overlap skip: its second due time comes while its first sweep still waits
        overlapping = schedule(db, name="overlapping", overlap="skip")
        tick(db, minute(1))
        tick(db, minute(2))
        set_enabled(db, overlapping, False, minute(2))
        # misfire skip: two hourly due times passed while no server ran
        hourly = schedule(db, name="hourly", cron="0 * * * *", misfire="skip")
        back = datetime(2026, 11, 21, 15, 0, 30, tzinfo=UTC)
        assert tick(db, back) == 2  # the missed times as one row, then 15:00 on time
        assert [f.outcome for f in firing_rows(db)] == [
            "submitted",
            "skipped",
            "missed",
            "submitted",
        ]
        assert queued(db) == {wants_id: ["schedule.firing_skipped"] * 2}
        assert send_all(db, tmp_path) == 2
        # sent at once, on the sender's threads: in either order
        bodies = received(wants, WebhookEvent.schedule_firing_skipped)
        missed, skipped = sorted(bodies, key=lambda body: body["data"]["outcome"])
        assert others.received == []
    experiment_id = firing_rows(db)[0].experiment_id
    assert skipped["data"]["schedule_id"] == overlapping
    assert (skipped["data"]["outcome"], skipped["data"]["experiment_id"]) == ("skipped", None)
    assert skipped["data"]["scheduled_for"] == minute(2).replace(second=0).isoformat()
    assert f"the previous sweep {experiment_id} is still queued" in skipped["data"]["message"]
    assert (missed["data"]["schedule_id"], missed["data"]["outcome"]) == (hourly, "missed")
    assert missed["data"]["scheduled_for"] == datetime(2026, 11, 21, 13, 0, tzinfo=UTC).isoformat()
    assert "2 due time(s) from 2026-11-21T13:00:00+00:00" in missed["data"]["message"]
    assert "(misfire: skip)" in missed["message"]


def test_a_sweep_its_budget_stopped_is_sent_as_budget_spent_with_its_best_trial(
    db: sessionmaker[Session], tmp_path: Path
) -> None:
    with Receiver() as wants, Receiver() as others:
        wants_id = hook(db, wants, ["sweep.budget_spent"])
        hook(db, others, ["sweep.converged", "trial.failed", "schedule.firing_failed"])
        experiment_id = running_sweep(db, tmp_path)
        record_trials(db, experiment_id, [0.7, 0.9, 0.8])
        reason = "stop.budget: 2.1 of 2 worker-hours spent"
        outcome = DriverOutcome(budget_spent=reason)
        assert finish_sweep(db, experiment_id, outcome) is ExperimentState.completed
        assert queued(db) == {wants_id: ["sweep.budget_spent"]}
        assert send_all(db, tmp_path) == 1
        [body] = received(wants, WebhookEvent.sweep_budget_spent)
        assert others.received == []
    assert body["project"] == "default"
    assert body["message"] == f"sweep budgeted ({experiment_id}): {reason}"
    data = body["data"]
    best_trial_id = data["best_trial_id"]
    assert isinstance(best_trial_id, int)
    assert data == {
        "experiment_id": experiment_id,
        "name": "budgeted",
        "reason": reason,
        "metric": "val_accuracy",
        "mode": "max",
        "best_metric": 0.9,
        "best_trial_id": best_trial_id,
    }


def schedule(db: sessionmaker[Session], **changes: Any) -> str:
    request = ScheduleCreate.model_validate(
        {"name": "every-minute", "cron": "* * * * *", "spec": minimal_spec(), **changes}
    )
    return create_schedule(db, request, SPACES, CLUSTERS, T0, ADMIN).id


def running_sweep(db: sessionmaker[Session], tmp_path: Path) -> str:
    """A sweep the dispatcher has submitted (running), as the controller leaves it."""
    experiment = submit_experiment(db, minimal_spec(name="budgeted"), SPACES, ADMIN)
    SweepJobs(db, Settings(home=tmp_path)).job_submitted(experiment.id, "job-0", 0)
    return experiment.id


def record_trials(db: sessionmaker[Session], experiment_id: str, accuracies: list[float]) -> None:
    """What the driver's recorder writes for trials that report once and complete."""
    spec = check_spec(minimal_spec(), SPACES)
    recorder = Recorder(ResultStore.for_sweep(experiment_id, spec, "").into(db)).start()
    for index, accuracy in enumerate(accuracies):
        recorder.submit(TrialStarted(f"t{index}", {"lr": 0.01, "hidden": 16}))
        recorder.submit(ResultReported(f"t{index}", 1, {"val_accuracy": accuracy}))
        recorder.submit(TrialEnded(f"t{index}", TrialState.completed))
    assert recorder.close(30)
