"""The recorder (what the Tune callback writes through) on SQLite and PostgreSQL."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from raysweep.schemas import TrialState
from service.db.models import CheckpointRow, EventRow, ResultRow, TrialRow
from service.engine.recorder import Recorder, ResultReported, TrialEnded, TrialStarted
from service.settings import REPO_ROOT
from service.usecases.experiments import submit_experiment

SPEC = {
    "name": "r",
    "trainer": "digits_mlp",
    "search_space": "digits_mlp",
    "metric": "val_loss",
    "mode": "min",
}


def new_experiment(db: sessionmaker[Session]) -> str:
    return submit_experiment(db, SPEC, REPO_ROOT / "search_spaces", "test").id


def result(
    tune_id: str, iteration: int, loss: float, checkpoint: str | None = None
) -> ResultReported:
    return ResultReported(tune_id, iteration, {"epoch": iteration, "val_loss": loss}, checkpoint)


def test_results_delivered_twice_are_stored_once_and_progress_is_kept(
    db: sessionmaker[Session],
) -> None:
    experiment_id = new_experiment(db)
    recorder = Recorder(db, experiment_id, "val_loss", "min", batch_size=3).start()
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


def test_a_result_for_an_unseen_trial_creates_it_and_failures_keep_their_text(
    db: sessionmaker[Session],
) -> None:
    experiment_id = new_experiment(db)
    recorder = Recorder(db, experiment_id, "val_loss", "min").start()
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
