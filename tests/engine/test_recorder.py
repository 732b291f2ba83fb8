"""The recorder (what the Tune callback writes through) on SQLite and PostgreSQL."""

from __future__ import annotations

import random
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from raysweep.lifecycle import RungDecisionKind, TrialState
from raysweep.spec import ExperimentSpec
from service.db.models.sweeps import CheckpointRow, EventRow, ResultRow, RungDecisionRow, TrialRow
from service.db.session import create_db_engine, session_factory
from service.engine.cluster import free_port
from service.engine.job_api import Refused
from service.engine.recorder import BufferFull, Recorder
from service.settings import REPO_ROOT
from service.usecases.access import operator
from service.usecases.decisions import RungDecided
from service.usecases.experiments import submit_experiment
from service.usecases.recording import ResultStore
from service.usecases.reports import (
    Op,
    ReservationReclaimed,
    ResultReported,
    TrialEnded,
    TrialRestarted,
    TrialStarted,
)
from service.usecases.retention import checkpoints_to_delete, prune_experiment
from tests.conftest import BOTH_BACKENDS

SPEC = {
    "name": "r",
    "trainer": "digits_mlp",
    "search_space": "digits_mlp",
    "metric": "val_loss",
    "mode": "min",
}


def new_experiment(db: sessionmaker[Session]) -> str:
    return submit_experiment(db, SPEC, REPO_ROOT / "search_spaces", operator("test")).id


def result(
    tune_id: str, iteration: int, loss: float, checkpoint: str | None = None
) -> ResultReported:
    return ResultReported(tune_id, iteration, {"epoch": iteration, "val_loss": loss}, checkpoint)


@BOTH_BACKENDS
def test_results_delivered_twice_are_stored_once_and_progress_is_kept(
    db: sessionmaker[Session],
) -> None:
    experiment_id = new_experiment(db)
    recorder = Recorder(
        ResultStore(experiment_id, "val_loss", "min").into(db), batch_size=3
    ).start()
    recorder.submit(TrialStarted("a", {"lr": 0.1}))
    for iteration, loss in [(1, 0.9), (2, 0.5), (3, 0.7)]:
        recorder.submit(result("a", iteration, loss, f"/ckpt/a/{iteration}"))
    assert recorder.flush(30)
    # a restored driver or a restarted worker group re-delivers: same batch and later batches
    recorder.submit(TrialStarted("a", {"lr": 0.1}))
    for iteration, loss in [(2, 0.1), (2, 0.1), (3, 0.7), (1, 0.9)]:
        recorder.submit(result("a", iteration, loss, f"/ckpt/a/{iteration}"))
    recorder.submit(result("a", 4, 0.6))
    recorder.submit(TrialEnded("a", TrialState.completed))
    recorder.submit(TrialEnded("a", TrialState.completed))
    assert recorder.close(30)

    with db.begin() as session:
        trial = session.scalars(select(TrialRow)).one()
        iterations = session.scalars(
            select(ResultRow.iteration)
            .where(ResultRow.trial_id == trial.id)
            .order_by(ResultRow.iteration)
        ).all()
        stored_2 = session.scalars(select(ResultRow.metrics).where(ResultRow.iteration == 2)).one()
        checkpoints = session.scalar(select(func.count()).select_from(CheckpointRow))
        kinds = session.scalars(select(EventRow.kind).order_by(EventRow.id)).all()
    assert iterations == [1, 2, 3, 4]
    assert stored_2["val_loss"] == 0.5  # the first delivery wins; nothing is overwritten
    assert checkpoints == 3
    assert trial.state == "completed" and trial.iteration == 4
    assert trial.best_metric == 0.5 and trial.last_metric == 0.6  # mode min
    assert trial.checkpoint_uri == "/ckpt/a/3" and trial.config == {"lr": 0.1}
    assert kinds.count("trial_completed") == 1 and kinds.count("trial_started") == 1


@BOTH_BACKENDS
def test_many_trials_in_shuffled_redelivered_batches_keep_the_progress_their_rows_give(
    db: sessionmaker[Session],
) -> None:
    """Progress is updated for a whole batch at once: whatever the order, batch boundaries and
    re-deliveries, each trial's iteration, last and best equal what its stored rows give."""
    experiment_id = new_experiment(db)
    rng = random.Random(7)
    reported = [
        result(f"t{trial}", iteration, rng.random())
        for trial in range(30)
        for iteration in range(1, 21)
    ]
    deliveries = reported + rng.sample(reported, 150)  # a restored driver repeats some
    rng.shuffle(deliveries)
    recorder = Recorder(
        ResultStore(experiment_id, "val_loss", "min").into(db), batch_size=97
    ).start()
    for op in deliveries:
        recorder.submit(op)
    assert recorder.close(30)
    with db.begin() as session:
        trials = session.scalars(select(TrialRow)).all()
        rows = session.execute(
            select(ResultRow.trial_id, ResultRow.iteration, ResultRow.metrics)
        ).all()
    assert len(trials) == 30 and len(rows) == 600
    for trial in trials:
        mine = sorted((iteration, m["val_loss"]) for t, iteration, m in rows if t == trial.id)
        assert [iteration for iteration, _ in mine] == list(range(1, 21))
        assert trial.iteration == 20 and trial.last_metric == mine[-1][1]
        assert trial.best_metric == min(loss for _, loss in mine)


@BOTH_BACKENDS
def test_rung_decisions_are_stored_once_with_their_time_and_tell_the_trial_why(
    db: sessionmaker[Session],
) -> None:
    experiment_id = new_experiment(db)
    recorder = Recorder(
        ResultStore(experiment_id, "val_loss", "min").into(db), batch_size=2
    ).start()
    recorder.submit(TrialStarted("a", {}))
    recorder.submit(result("a", 1, 0.9))
    stop = RungDecided("a", 0, 1, 0.9, 0.5, 2, 2, RungDecisionKind.stop)
    for _ in range(2):  # re-delivered by a restored driver
        recorder.submit(stop)
    recorder.submit(TrialEnded("a", TrialState.pruned))
    assert recorder.close(30)
    with db.begin() as session:
        decision = session.scalars(select(RungDecisionRow)).one()
        trial = session.scalars(select(TrialRow)).one()
        message = session.scalars(
            select(EventRow.message).where(EventRow.kind == "trial_pruned")
        ).one()
    assert decision.decided_at is not None and decision.bracket == 0
    assert decision.reason == "pruned at epoch 1: val_loss 0.9 > cutoff 0.5, rank 2 of 2"
    assert trial.state == "pruned" and trial.early_stopping == decision.reason
    assert message == f"trial a {decision.reason}"


@BOTH_BACKENDS
def test_a_gate_notice_naming_no_trial_creates_none_and_is_told_on_the_sweep(
    db: sessionmaker[Session],
) -> None:
    # a worker group's watch once told a restart "of" its label, and a trial "warm group" appeared
    experiment_id = new_experiment(db)
    recorder = Recorder(ResultStore(experiment_id, "val_loss", "min").into(db)).start()
    recorder.submit(TrialStarted("a", {"lr": 0.1}))
    recorder.submit(TrialRestarted("a", "rank 0: ValueError: boom"))
    recorder.submit(TrialRestarted("warm group", "a worker died"))
    recorder.submit(ReservationReclaimed("gone", "removed the reservation pg1"))
    assert recorder.close(30)
    with db.begin() as session:
        trials = {t.tune_trial_id: t.restarts for t in session.scalars(select(TrialRow))}
        events = session.execute(
            select(EventRow.kind, EventRow.trial_id, EventRow.message).where(
                EventRow.kind.in_(["trial_restarted", "reservation_reclaimed"])
            )
        ).all()
    assert trials == {"a": 1}
    told = {(kind, trial_id is None, message.split(":")[0]) for kind, trial_id, message in events}
    assert told == {
        ("trial_restarted", False, "trial a"),
        ("trial_restarted", True, "warm group (no trial of this sweep)"),
        ("reservation_reclaimed", True, "trial gone"),
    }, events


@BOTH_BACKENDS
def test_a_result_for_an_unseen_trial_creates_it_and_failures_keep_their_text(
    db: sessionmaker[Session],
) -> None:
    experiment_id = new_experiment(db)
    recorder = Recorder(ResultStore(experiment_id, "val_loss", "min").into(db)).start()
    recorder.submit(result("b", 1, 0.3))
    recorder.submit(TrialEnded("b", TrialState.failed, "Traceback...\nValueError: boom\n"))
    assert recorder.close(30)
    with db.begin() as session:
        trial = session.scalars(select(TrialRow)).one()
        message = session.scalars(
            select(EventRow.message).where(EventRow.kind == "trial_failed")
        ).one()
    assert trial.state == "failed" and trial.error.endswith("ValueError: boom\n")
    assert message == "trial b failed: ValueError: boom"


def test_while_the_database_is_unreachable_writes_wait_in_a_bounded_buffer() -> None:
    """A real PostgreSQL URL with nothing listening: writes are retried, never dropped, and past
    the bound the next submit fails with a clear error naming the cause."""
    engine = create_db_engine(f"postgresql+psycopg://postgres@127.0.0.1:{free_port()}/none")
    store = ResultStore("e1", "val_loss", "min").into(session_factory(engine))
    recorder = Recorder(store, max_buffered=3, max_backoff_s=0.2).start()
    for iteration in (1, 2, 3):
        recorder.submit(result("t1", iteration, 1.0))
    wait_until = time.monotonic() + 30
    while recorder.last_error is None and time.monotonic() < wait_until:
        time.sleep(0.1)
    with pytest.raises(BufferFull, match=r"3 writes are waiting to be stored \(last error: "):
        recorder.submit(result("t1", 4, 1.0))
    assert recorder.last_error is not None and "OperationalError" in recorder.last_error
    assert recorder.close(timeout_s=1) is False  # nothing was written, nothing was dropped
    # given up on: the writer stops retrying instead of running for the rest of the process
    assert recorder._thread is not None
    recorder._thread.join(timeout=10)
    assert not recorder._thread.is_alive()
    engine.dispose()


@BOTH_BACKENDS
def test_a_batch_that_cannot_be_written_is_kept_and_named_not_the_end_of_the_writer(
    db: sessionmaker[Session],
) -> None:
    """A write that fails outside the database (here a value JSON cannot encode) is retried
    like a database error: the writer keeps running, nothing is dropped, the error is named."""
    experiment_id = new_experiment(db)
    recorder = Recorder(
        ResultStore(experiment_id, "val_loss", "min").into(db), max_backoff_s=0.2
    ).start()
    recorder.submit(ResultReported("t1", 1, {"epoch": 1, "val_loss": 0.5, "bad": {1, 2}}))
    assert recorder.flush(timeout_s=2) is False
    assert recorder.last_error is not None and "not JSON serializable" in recorder.last_error
    assert recorder._thread is not None and recorder._thread.is_alive()
    assert recorder.close(timeout_s=1) is False  # still buffered, never dropped
    with db.begin() as session:
        assert session.scalar(select(func.count()).select_from(ResultRow)) == 0


def test_a_batch_the_api_refuses_stops_the_writer_at_once_and_keeps_what_was_not_stored() -> None:
    """A 4xx (the sweep ended and the job's token with it) will not turn into a 2xx by
    retrying: the writer stops, keeps the batch, and the driver's drain is not held for its
    whole timeout."""
    sent: list[list[Op]] = []

    def refusing(batch: list[Op]) -> None:
        sent.append(batch)
        raise Refused(401, "this job token's sweep is no longer running")

    recorder = Recorder(refusing, max_backoff_s=0.2).start()
    recorder.submit(ResultReported("t1", 1, {"epoch": 1, "val_loss": 0.5}))
    started = time.monotonic()
    assert recorder.close(timeout_s=60) is False
    assert time.monotonic() - started < 10 and len(sent) == 1  # no retry, no 60 s wait
    assert recorder.last_error is not None and "no longer running" in recorder.last_error


@BOTH_BACKENDS
def test_a_finished_trial_keeps_its_latest_checkpoints_and_its_best(
    db: sessionmaker[Session], tmp_path: Path
) -> None:
    experiment_id = new_experiment(db)
    runs = tmp_path / experiment_id / "train"
    run = runs / "t1"
    losses = {1: 0.5, 2: 0.2, 3: 0.4, 4: 0.3, 5: 0.35}
    store = ResultStore(
        experiment_id, "val_loss", "min", storage_root=str(tmp_path), checkpoints_to_keep=2
    )
    recorder = Recorder(store.into(db)).start()
    recorder.submit(TrialStarted("t1", {}))
    for epoch, loss in losses.items():
        (run / f"checkpoint_{epoch}").mkdir(parents=True)
        recorder.submit(result("t1", epoch, loss, str(run / f"checkpoint_{epoch}")))
    # an epoch redone after a worker-group restart wrote a second checkpoint no row names
    (run / "checkpoint_5_redone").mkdir()
    (run / "other-file-of-train").mkdir()
    recorder.submit(TrialEnded("t1", TrialState.completed))
    assert recorder.close(30)
    with db.begin() as session:
        rows = session.execute(
            select(CheckpointRow.iteration, CheckpointRow.deleted).order_by(CheckpointRow.iteration)
        ).all()
    # latest two (4, 5) and the best (2: lowest loss)
    assert [(r.iteration, r.deleted) for r in rows] == [
        (1, True),
        (2, False),
        (3, True),
        (4, False),
        (5, False),
    ]
    assert sorted(p.name for p in run.iterdir()) == [
        "checkpoint_2",
        "checkpoint_4",
        "checkpoint_5",
        "other-file-of-train",
    ]
    # catching up again (a restarted driver) changes nothing
    assert prune_experiment(db, experiment_id, str(runs), 2, "min") == 0


def test_checkpoint_choice_keeps_latest_and_earliest_best() -> None:
    rows = [(10, 1, 0.9), (11, 2, 0.9), (12, 3, None), (13, 4, 0.1), (14, 5, 0.2)]
    assert checkpoints_to_delete(rows, 1, "max") == [11, 12, 13]
    assert checkpoints_to_delete(rows, 2, "min") == [10, 11, 12]
    assert checkpoints_to_delete(rows[2:3], 1, "max") == []


def retention_recorder(
    db: sessionmaker[Session], results: dict[str, Any], batch_size: int
) -> tuple[Recorder, str]:
    """A recorder for a sweep with ASHA rungs at epochs 1, 3, 9, 27 and max_t 50."""
    spec = ExperimentSpec.model_validate(
        {
            **SPEC,
            "early_stopping": {"max_t": 50, "grace_period": 1, "reduction_factor": 3},
            "results": results,
        }
    )
    experiment_id = new_experiment(db)
    recorder = Recorder(ResultStore.for_sweep(experiment_id, spec, "").into(db))
    return replace(recorder, batch_size=batch_size).start(), experiment_id


def kept_iterations(db: sessionmaker[Session]) -> tuple[list[int], TrialRow]:
    with db.begin() as session:
        trial = session.scalars(select(TrialRow)).one()
        iterations = session.scalars(select(ResultRow.iteration).order_by(ResultRow.iteration))
        return list(iterations), trial


LOSSES = random.Random(3).sample(range(1000), 50)  # distinct; epoch i reports LOSSES[i-1]
RUNGS = {1, 3, 9, 27, 50}


@BOTH_BACKENDS
def test_every_n_keeps_multiples_rungs_and_each_new_best_and_progress_counts_all(
    db: sessionmaker[Session],
) -> None:
    recorder, _ = retention_recorder(db, {"keep": "every_n", "n": 5}, batch_size=7)
    for epoch, loss in enumerate(LOSSES, start=1):
        recorder.submit(result("t", epoch, loss))
    for epoch in (12, 13):  # re-delivered: still not kept, progress unchanged
        recorder.submit(result("t", epoch, LOSSES[epoch - 1]))
    assert recorder.close(30)
    improved = {e for e in range(1, 51) if LOSSES[e - 1] < min(LOSSES[: e - 1], default=2)}
    iterations, trial = kept_iterations(db)
    assert iterations == sorted(set(range(5, 51, 5)) | RUNGS | improved)
    assert len(iterations) < 50
    assert trial.iteration == 50 and trial.last_metric == LOSSES[-1]
    assert trial.best_metric == min(LOSSES)


@BOTH_BACKENDS
def test_last_k_per_trial_keeps_the_latest_k_the_rungs_and_the_best(
    db: sessionmaker[Session],
) -> None:
    recorder, _ = retention_recorder(db, {"keep": "last_k_per_trial", "k": 4}, batch_size=6)
    for epoch, loss in enumerate(LOSSES, start=1):
        recorder.submit(result("t", epoch, loss))
        if epoch % 10 == 0:
            assert recorder.flush(30)  # pruned while the trial runs, not only at its end
            iterations, _ = kept_iterations(db)
            assert len(iterations) <= 4 + len(RUNGS) + 1 + 6  # one batch may wait its prune
    assert recorder.close(30)
    best_epoch = LOSSES.index(min(LOSSES)) + 1
    iterations, trial = kept_iterations(db)
    assert iterations == sorted({47, 48, 49, 50} | RUNGS | {best_epoch})
    assert trial.best_metric == min(LOSSES) and trial.last_metric == LOSSES[-1]


@BOTH_BACKENDS
def test_every_result_is_kept_by_default(db: sessionmaker[Session]) -> None:
    recorder, _ = retention_recorder(db, {}, batch_size=7)
    for epoch, loss in enumerate(LOSSES, start=1):
        recorder.submit(result("t", epoch, loss))
    assert recorder.close(30)
    assert kept_iterations(db)[0] == list(range(1, 51))


@BOTH_BACKENDS
def test_trials_are_numbered_in_their_experiment_in_the_order_they_appear(
    db: sessionmaker[Session],
) -> None:
    """1, 2, 3... per experiment (not the ids), over batches, whether a trial's start or (after
    a restored driver) its first result created it; a trial seen again keeps its number."""
    first, second = new_experiment(db), new_experiment(db)
    recorders = [
        Recorder(ResultStore(e, "val_loss", "min").into(db), batch_size=2).start()
        for e in (first, second)
    ]
    for name in "abcde":  # batches of two: the numbering goes on from batch to batch
        recorders[0].submit(TrialStarted(name, {"lr": 0.1}))
    recorders[0].submit(result("f", 1, 0.5))  # a trial created from its result
    recorders[0].submit(TrialStarted("a", {"lr": 0.1}))  # seen again: no new number
    assert recorders[0].close(30)
    for name in "abcde":  # after the first's six: its ids are 7 and on, its numbers 1 and on
        recorders[1].submit(TrialStarted(name, {"lr": 0.1}))
    assert recorders[1].close(30)
    with db.begin() as session:
        numbered = {
            experiment: [
                (tune_id, number)
                for tune_id, number in session.execute(
                    select(TrialRow.tune_trial_id, TrialRow.number)
                    .where(TrialRow.experiment_id == experiment)
                    .order_by(TrialRow.id)
                )
            ]
            for experiment in (first, second)
        }
        ids = session.scalars(select(TrialRow.id).where(TrialRow.experiment_id == second)).all()
    assert numbered[first] == [(name, n) for n, name in enumerate("abcdef", start=1)]
    assert numbered[second] == [(name, n) for n, name in enumerate("abcde", start=1)]
    assert sorted(ids) != list(range(1, 6))  # the numbers are not the ids
