"""An experiment's trials as TensorBoard runs: where each trial's Train run keeps the event files
of its reported metrics (``trainers.tensorboard`` writes them), and a name for each."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from raysweep.tensorboard import TensorBoardRun, TensorBoardRuns, run_name, varying_keys
from service.db import repositories as repo
from service.db.models.sweeps import TrialRow
from service.storage import train_runs_uri
from trainers.registry import TENSORBOARD_DIR


def tensorboard_runs(
    db: sessionmaker[Session], storage_root: str, experiment_id: str
) -> TensorBoardRuns:
    """Every trial of the experiment by number, named by its number and the config keys that
    differ between the trials; ``NotFound`` without the experiment."""
    with db.begin() as session:
        repo.get_experiment_row(session, experiment_id)
        rows = session.execute(
            select(
                TrialRow.id,
                TrialRow.number,
                TrialRow.state,
                TrialRow.config,
                TrialRow.tune_trial_id,
            )
            .where(TrialRow.experiment_id == experiment_id)
            .order_by(TrialRow.number)
        ).all()
    keys = varying_keys([row.config for row in rows])
    runs_uri = train_runs_uri(storage_root, experiment_id)
    return TensorBoardRuns(
        experiment_id=experiment_id,
        runs=[
            TensorBoardRun(
                trial_id=row.id,
                number=row.number,
                state=row.state,
                name=run_name(row.number, row.config, keys),
                logdir=f"{runs_uri}/{row.tune_trial_id}/{TENSORBOARD_DIR}",
            )
            for row in rows
        ],
    )
