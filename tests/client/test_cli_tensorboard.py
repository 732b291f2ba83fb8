"""``raysweep tensorboard EXPERIMENT`` against a real server: the command it prints names every
trial's directory under a run name TensorBoard parses back; it starts a TensorBoard that shows
the trials' scalars; and it says what to install when TensorBoard is missing."""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker
from tensorboard.backend.event_processing.data_ingester import _parse_event_files_spec

from devkit.demo import seed_sweep
from raysweep.cli import main
from service.db.models.sweeps import TrialRow
from service.engine.cluster import free_port
from service.settings import REPO_ROOT
from tests.client.test_cli import Cli
from tests.conftest import ServerProcess
from trainers.events import EventFileWriter


def trials_of(db: sessionmaker[Session], experiment_id: str) -> list[tuple[int, str, dict]]:
    with db.begin() as session:
        rows = session.execute(
            select(TrialRow.number, TrialRow.tune_trial_id, TrialRow.config)
            .where(TrialRow.experiment_id == experiment_id)
            .order_by(TrialRow.number)
        ).all()
    return [(row.number, row.tune_trial_id, row.config) for row in rows]


def logdir(server: ServerProcess, experiment_id: str, tune_id: str) -> str:
    storage = (server.home / "storage").resolve()
    return f"{storage}/{experiment_id}/train/{tune_id}/tensorboard"


def test_print_names_every_trial_by_number_and_config_as_tensorboard_parses_it(
    server: ServerProcess, db: sessionmaker[Session], tmp_path: Path
) -> None:
    experiment_id = seed_sweep(db, trials=4, max_t=3, running=1)
    cli = Cli(server, tmp_path)
    printed = cli("tensorboard", experiment_id, "--print", "--port", "6123")
    assert printed.returncode == 0, printed.stderr
    argv = shlex.split(printed.stdout)
    assert argv[:2] == ["tensorboard", "--logdir_spec"] and argv[3:] == ["--port", "6123"]
    expected = {}
    for number, tune_id, config in trials_of(db, experiment_id):
        name = f"#{number} hidden={config['hidden']} lr={config['lr']:.3g} "
        expected[logdir(server, experiment_id, tune_id)] = name + f"optimizer={config['optimizer']}"
    assert len(expected) == 4
    assert _parse_event_files_spec(argv[2]) == expected
    shown = cli.json("tensorboard", experiment_id)
    assert shown["command"] == argv[:3]
    assert [run["number"] for run in shown["runs"]] == [1, 2, 3, 4]


def test_it_starts_tensorboard_over_the_trials_scalars(
    server: ServerProcess, db: sessionmaker[Session], tmp_path: Path
) -> None:
    experiment_id = seed_sweep(db, trials=2, max_t=3, running=0)
    names = {}
    for number, tune_id, _ in trials_of(db, experiment_id):
        writer = EventFileWriter(logdir(server, experiment_id, tune_id))
        for epoch in (1, 2, 3):
            writer.add_scalars({"val_accuracy": number / 10 + epoch / 100}, step=epoch)
        names[number] = tune_id
    port = free_port()
    cli = Cli(server, tmp_path)
    process = subprocess.Popen(
        [sys.executable, "-m", "raysweep.cli", "tensorboard", experiment_id, "--port", str(port)],
        env=cli.env,
        cwd=REPO_ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # TensorBoard is its child: stopped with it, as a group
    )
    try:
        values = scalars_shown(port, "val_accuracy", deadline=time.monotonic() + 90)
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        output = process.communicate(timeout=30)[0].decode()
    assert "TensorBoard over 2 trials" in output
    assert {run.split(" ")[0]: points for run, points in values.items()} == {
        "#1": [(1, pytest.approx(0.11)), (2, pytest.approx(0.12)), (3, pytest.approx(0.13))],
        "#2": [(1, pytest.approx(0.21)), (2, pytest.approx(0.22)), (3, pytest.approx(0.23))],
    }


def scalars_shown(port: int, tag: str, deadline: float) -> dict[str, list[tuple[int, float]]]:
    """Each run's (step, value) points of ``tag``, from TensorBoard's own HTTP API, once it shows
    two runs with three points each."""
    url = f"http://127.0.0.1:{port}/data/plugin/scalars"
    shown: dict[str, list[tuple[int, float]]] = {}
    while time.monotonic() < deadline:
        try:
            tags = httpx.get(f"{url}/tags", timeout=5).json()
            shown = {
                run: [
                    (step, value)
                    for _, step, value in httpx.get(
                        f"{url}/scalars", params={"run": run, "tag": tag}, timeout=5
                    ).json()
                ]
                for run in tags
            }
            if len(shown) == 2 and all(len(points) == 3 for points in shown.values()):
                return shown
        except httpx.TransportError:
            pass
        time.sleep(0.5)
    raise AssertionError(f"TensorBoard did not show the scalars: {shown}")


def test_without_tensorboard_it_says_what_to_install(
    server: ServerProcess,
    db: sessionmaker[Session],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    experiment_id = seed_sweep(db, trials=1, max_t=2, running=0)
    monkeypatch.setitem(sys.modules, "tensorboard", None)  # importlib finds no module then
    monkeypatch.setenv("PATH", str(Path(sys.executable).parent.parent / "no-bin"))
    token = ["--url", server.url, "--token", server.admin_token]
    assert main(["tensorboard", experiment_id, *token]) == 1
    error = capsys.readouterr().err
    assert "tensorboard is not installed" in error
    assert "pip install 'tensorboard>=2.16'" in error and "--print" in error
    # the command is still printed without it
    assert main(["tensorboard", experiment_id, "--print", *token]) == 0
    assert capsys.readouterr().out.startswith("tensorboard --logdir_spec '#1 ")
