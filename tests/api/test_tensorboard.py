"""An experiment's trials as TensorBoard runs: by number, named by what differs between their
configs, each with the directory its Train run writes its scalars to on the storage URI."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from service.db.models.sweeps import TrialRow
from service.engine.recorder import Recorder
from service.usecases.recording import ResultStore
from service.usecases.reports import TrialStarted
from tests.conftest import ServerProcess, minimal_spec
from tests.tensorboard_files import trial_logdir


def test_the_runs_are_the_trials_by_number_named_by_what_differs_where_they_write(
    server: ServerProcess, db: sessionmaker[Session]
) -> None:
    with server.client() as client:
        experiment_id = client.post("/api/v1/experiments", json=minimal_spec()).json()["id"]
        recorder = Recorder(ResultStore(experiment_id, "val_accuracy", "max").into(db)).start()
        configs = {
            "t-b": {"lr": 0.0123456, "optimizer": "adam", "depth": 2},
            "t-a": {"lr": 0.1, "optimizer": "adam", "depth": 3},
            "t-c": {"lr": 0.1, "optimizer": "adam", "depth": 2, "note": "x,y:z"},
        }
        for tune_id, config in configs.items():
            recorder.submit(TrialStarted(tune_id, config))
        assert recorder.close(30)
        with db.begin() as session:
            ids = dict(
                session.execute(
                    select(TrialRow.tune_trial_id, TrialRow.id).where(
                        TrialRow.experiment_id == experiment_id
                    )
                ).all()
            )
        answer = client.get(f"/api/v1/experiments/{experiment_id}/tensorboard")
        assert answer.status_code == 200, answer.text
        runs = answer.json()["runs"]
        storage = (server.home / "storage").resolve()
        # optimizer is the same everywhere: not in the names; a comma or colon would split
        # --logdir_spec, so neither is in a name
        assert runs == [
            {
                "trial_id": ids[tune_id],
                "number": number,
                "state": "running",
                "name": name,
                "logdir": f"{storage}/{experiment_id}/train/{tune_id}/tensorboard",
            }
            for number, tune_id, name in (
                (1, "t-b", "#1 depth=2 lr=0.0123"),
                (2, "t-a", "#2 depth=3 lr=0.1"),
                (3, "t-c", "#3 depth=2 lr=0.1 note=x;y=z"),
            )
        ]
        assert answer.json()["experiment_id"] == experiment_id
        # where the Ray tests' helper looks is where the API points TensorBoard
        assert runs[0]["logdir"] == trial_logdir(str(storage), experiment_id, "t-b")
        missing = client.get("/api/v1/experiments/0123456789ab/tensorboard")
        assert missing.status_code == 404
        assert client.post("/api/v1/projects", json={"name": "alpha"}).status_code == 201
    # another project's token: the same answer as for no experiment at all
    with server.client(server.create_token("alpha-viewer", "viewer", project="alpha")) as other:
        foreign = other.get(f"/api/v1/experiments/{experiment_id}/tensorboard")
        assert foreign.status_code == 404
        assert foreign.text == missing.text.replace("0123456789ab", experiment_id)


def test_a_sweep_without_trials_has_no_runs(server: ServerProcess) -> None:
    with server.client() as client:
        experiment_id = client.post("/api/v1/experiments", json=minimal_spec()).json()["id"]
        answer = client.get(f"/api/v1/experiments/{experiment_id}/tensorboard")
        assert answer.json() == {"experiment_id": experiment_id, "runs": []}
