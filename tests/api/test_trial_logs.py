"""A trial's logs: what its workers print is kept with its run (head and latest lines, bounded),
served by attempt and rank with secrets replaced, followed by a long poll, and read by the SDK
and the CLI. The capture runs here as a Train worker runs it (its file descriptors 1 and 2);
the real-Ray path is in tests/engine/test_code.py."""

from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from devkit.demo import seed_sweep
from raysweep import Client
from service.db.models.registry import FinalRunRow
from service.db.models.sweeps import TrialRow
from service.engine import trial_logs
from service.engine.trial_logs import LoggedFunction, TrialStopped
from service.storage import driver_uri, final_run_uri, train_runs_uri
from service.usecases import experiments
from tests.client.test_cli import Cli
from tests.conftest import InProcessServer, ServerProcess
from tests.factories import production_model

PASSWORD_URL = "postgresql+psycopg://raysweep:hunter2secret@db.internal:5432/raysweep"


def running_trial(db: sessionmaker[Session]) -> TrialRow:
    experiment_id = seed_sweep(db, trials=4, max_t=3, running=1)
    with db.begin() as session:
        return session.scalars(
            select(TrialRow).where(
                TrialRow.experiment_id == experiment_id, TrialRow.state == "running"
            )
        ).one()


def storage_of(server: ServerProcess) -> str:
    assert isinstance(server, InProcessServer) and server.uvicorn is not None
    storage_root: str = server.uvicorn.config.app.state.raysweep.settings.storage_root
    return storage_root


def run_dir(server: ServerProcess, trial: TrialRow) -> str:
    return f"{train_runs_uri(storage_of(server), trial.experiment_id)}/{trial.tune_trial_id}"


def as_worker(monkeypatch: pytest.MonkeyPatch, attempt: str, rank: int) -> None:
    """What a Train worker of that attempt (its placement group) and rank would see."""
    monkeypatch.setattr(trial_logs, "_worker_identity", lambda: (attempt, rank))


def failing_epoch(secrets: list[str]) -> Any:
    def train(config: dict[str, Any]) -> None:
        print("epoch 1 loss 0.5")
        print("connecting to", *secrets)
        sys.stderr.write("a warning on stderr\n")
        os.write(1, b"written below Python, as a C library writes\n")
        raise ValueError(f"bad batch at lr {config['lr']}")

    return train


def test_logs_keep_every_workers_lines_by_attempt_and_rank_with_secrets_replaced(
    server: ServerProcess, db: sessionmaker[Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    trial = running_trial(db)
    secrets = [server.admin_token, PASSWORD_URL, "rsw_" + "x" * 30, "password=opensesame"]
    for attempt, rank in (("pgfirst", 0), ("pgfirst", 1), ("pgsecond", 0)):
        as_worker(monkeypatch, attempt, rank)
        with pytest.raises(ValueError, match="bad batch"):
            LoggedFunction(failing_epoch(secrets), run_dir(server, trial), 1 << 20)({"lr": 0.1})
        time.sleep(0.02)  # the second attempt starts later
    with server.client() as client:
        everything = client.get(f"/api/v1/trials/{trial.id}/logs").json()
        latest = client.get(f"/api/v1/trials/{trial.id}/logs", params={"attempt": -1}).json()
        rank_one = client.get(f"/api/v1/trials/{trial.id}/logs", params={"rank": 1}).json()
        newer = client.get(
            f"/api/v1/trials/{trial.id}/logs", params={"after": everything["cursor"]}
        ).json()
        bad_cursor = client.get(f"/api/v1/trials/{trial.id}/logs", params={"after": "x"})
    assert everything["attempts"] == [1, 2] and everything["ranks"] == [0, 1]
    assert everything["dropped"] == 0 and everything["running"] is True
    texts = [line["text"] for line in everything["lines"]]
    per_worker = [(1, 0), (1, 1), (2, 0)]
    assert [
        (line["attempt"], line["rank"]) for line in everything["lines"] if line["seq"] == 1
    ] == (per_worker)
    for expected in (
        "epoch 1 loss 0.5",
        "a warning on stderr",
        "written below Python, as a C library writes",
        "ValueError: bad batch at lr 0.1",  # the traceback Train itself does not print
    ):
        assert texts.count(expected) == 3, (expected, texts)
    assert "Traceback (most recent call last):" in texts
    streams = {line["text"]: line["stream"] for line in everything["lines"]}
    assert streams["a warning on stderr"] == "stderr" and streams["epoch 1 loss 0.5"] == "stdout"
    served = "\n".join(texts)
    # the server's own secrets whole, a credential in any URL or assignment by its shape
    shown = "connecting to *** postgresql+psycopg://***@db.internal:5432/raysweep *** password=***"
    assert shown in texts
    assert all(secret not in served for secret in (*secrets, "hunter2secret", "opensesame"))
    assert {line["attempt"] for line in latest["lines"]} == {2} and latest["attempts"] == [1, 2]
    assert {line["rank"] for line in rank_one["lines"]} == {1}
    assert newer["lines"] == [] and newer["cursor"] == everything["cursor"]
    assert bad_cursor.status_code == 422


def test_a_trial_the_service_stopped_leaves_no_traceback_in_its_logs(
    server: ServerProcess, db: sessionmaker[Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A warm group's trial stopped at its report (pruned, or its sweep ended) ends with
    ``TrialStopped``: no error, so neither its logs nor the driver's (Ray forwards the workers'
    output) show a traceback, as they do for an error of its own."""
    trial = running_trial(db)
    as_worker(monkeypatch, "pgstopped", 0)

    def stopped(config: dict[str, Any]) -> None:
        print("epoch 1 loss 0.5")
        raise TrialStopped("trial 1 was stopped")

    with pytest.raises(TrialStopped):
        LoggedFunction(stopped, run_dir(server, trial), 1 << 20)({})
    with server.client() as client:
        texts = [
            line["text"] for line in client.get(f"/api/v1/trials/{trial.id}/logs").json()["lines"]
        ]
    assert texts == ["epoch 1 loss 0.5"]


def test_a_long_output_keeps_its_head_and_latest_lines_and_says_how_many_went(
    server: ServerProcess, db: sessionmaker[Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    trial = running_trial(db)
    as_worker(monkeypatch, "pgonly", 0)

    def chatty(config: dict[str, Any]) -> None:
        for i in range(1, 2001):
            print(f"line {i:05d} " + "." * 40)

    LoggedFunction(chatty, run_dir(server, trial), 16 * 1024)({})
    with Client(server.url, server.admin_token) as client:
        lines: list[Any] = []
        after = None
        while True:  # paged by limit, as the CLI pages it
            logs = client.trial_logs(trial.id, after=after, limit=100)
            lines += logs.lines
            after = logs.cursor
            if not logs.more:
                break
        last = client.trial_logs(trial.id, limit=3, tail=True)
        after_last = client.trial_logs(trial.id, after=last.cursor)
    numbers = [int(line.text.split()[1]) for line in lines]
    assert numbers[:5] == [1, 2, 3, 4, 5] and numbers[-1] == 2000
    assert numbers == sorted(numbers) and len(numbers) < 2000
    assert logs.dropped == 2000 - len(numbers)
    # the last lines alone (what `raysweep logs --tail` and a failed trial's page show), with a
    # cursor past every line so far
    assert [int(line.text.split()[1]) for line in last.lines] == [1998, 1999, 2000]
    assert not last.more and after_last.lines == []


def test_following_a_running_trial_waits_for_its_next_line(
    server: ServerProcess,
    db: sessionmaker[Session],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    trial = running_trial(db)
    as_worker(monkeypatch, "pgonly", 0)
    release = threading.Event()

    def slow(config: dict[str, Any]) -> None:
        print("first line")
        release.wait(30)
        print("second line, a second later")

    worker = threading.Thread(
        target=LoggedFunction(slow, run_dir(server, trial), 1 << 20), args=({},)
    )
    worker.start()
    try:
        with Client(server.url, server.admin_token) as client:
            deadline = time.monotonic() + 10
            while not (first := client.trial_logs(trial.id)).lines:
                assert time.monotonic() < deadline
                time.sleep(0.1)
            threading.Timer(1.0, release.set).start()
            asked = time.monotonic()
            followed = client.trial_logs(trial.id, after=first.cursor, wait_s=10)
            waited = time.monotonic() - asked
        assert [line.text for line in first.lines] == ["first line"]
        assert [line.text for line in followed.lines] == ["second line, a second later"]
        assert 0.5 < waited < 9  # answered when the line came, not at the end of the wait
    finally:
        release.set()
        worker.join(10)
    # the CLI prints them, attempt and rank first
    printed = Cli(server, tmp_path)("logs", str(trial.id))
    assert printed.returncode == 0, printed.stderr
    assert "a1 r0  first line" in printed.stdout and "second line" in printed.stdout
    other = Cli(server, tmp_path)("logs", str(trial.id), "--rank", "3")
    assert other.returncode == 0 and "line" not in other.stdout
    last = Cli(server, tmp_path)("logs", str(trial.id), "--tail", "1")
    assert "second line" in last.stdout and "first line" not in last.stdout


def test_keeping_the_logs_never_fails_or_changes_the_function(
    server: ServerProcess, db: sessionmaker[Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A function of no argument runs as Ray Train runs it; a progress bar's carriage returns
    and a line without end are cut into bounded lines; a disk that fills mid-run stops the
    logs, not the function (its prints go on to where they went before)."""
    trial = running_trial(db)
    as_worker(monkeypatch, "pgonly", 0)

    def no_config() -> str:
        print("progress 10%\rprogress 20%\rprogress 30%")
        sys.stdout.write("x" * (trial_logs.MAX_LINE_BYTES + 10) + "\n")
        return "done"

    assert LoggedFunction(no_config, run_dir(server, trial), 1 << 20)({"lr": 1}) == "done"
    with server.client() as client:
        texts = [
            line["text"] for line in client.get(f"/api/v1/trials/{trial.id}/logs").json()["lines"]
        ]
    assert texts[:3] == ["progress 10%", "progress 20%", "progress 30%"]
    assert [len(text) for text in texts[3:]] == [trial_logs.MAX_LINE_BYTES, 10]

    writes = 0
    real_append = trial_logs.StreamFiles._append

    def full_disk(
        self: trial_logs.StreamFiles, stream: str, text: str, sequence: int, now: float
    ) -> None:
        nonlocal writes
        writes += 1
        if writes > 3:
            raise OSError(28, "No space left on device")
        real_append(self, stream, text, sequence, now)

    monkeypatch.setattr(trial_logs.StreamFiles, "_append", full_disk)
    as_worker(monkeypatch, "pgfull", 0)

    def chatty(config: dict[str, Any]) -> int:
        for i in range(200):
            print(f"line {i}")
        return 200

    assert LoggedFunction(chatty, run_dir(server, trial), 1 << 20)({}) == 200


def test_a_final_runs_workers_and_a_sweeps_drivers_are_read_the_same_way(
    server: ServerProcess,
    db: sessionmaker[Session],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    """A final run's workers write under its Train run, a sweep's drivers (one stream per
    driver job) under the sweep's driver directory; both are served, paged and redacted as a
    trial's are, and printed by ``raysweep logs --final-run`` / ``--driver``."""
    # an experiment id of 12 hex digits may be all decimal digits (CI drew one): like a trial id
    monkeypatch.setattr(experiments, "new_experiment_id", lambda: "621834354608")
    sweep = production_model(db)
    with db.begin() as session:
        final = session.scalars(select(FinalRunRow).where(FinalRunRow.experiment_id == sweep)).one()
    storage_root = storage_of(server)
    as_worker(monkeypatch, "pgfinal", 0)

    def final_epoch(config: dict[str, Any]) -> None:
        print("final epoch 1 of 3")
        print("token", server.admin_token)

    LoggedFunction(final_epoch, final_run_uri(storage_root, sweep, final.id), 1 << 20)({})
    for job in ("raysweep-driver-1", "raysweep-driver-2"):  # a resumed sweep's two drivers
        with trial_logs.kept_output(driver_uri(storage_root, sweep), job, 0, 1 << 20):
            print(f"{job}: experiment {sweep} is running")
            sys.stdout.flush()
            os.write(2, b"a warning from Ray\n")
        time.sleep(0.02)
    with Client(server.url, server.admin_token) as client:
        workers = client.final_run_logs(final.id)
        drivers = client.driver_logs(sweep)
        latest = client.driver_logs(sweep, attempt=-1)
    assert [line.text for line in workers.lines] == ["final epoch 1 of 3", "token ***"]
    assert workers.running is False  # the final run has ended: nothing to follow
    assert drivers.attempts == [1, 2] and drivers.ranks == [0]
    # by attempt, then time (two streams' lines are timed by their own readers)
    assert [line.attempt for line in drivers.lines] == [1, 1, 2, 2]
    assert {(line.attempt, line.stream, line.text) for line in drivers.lines} == {
        (1, "stdout", f"raysweep-driver-1: experiment {sweep} is running"),
        (1, "stderr", "a warning from Ray"),
        (2, "stdout", f"raysweep-driver-2: experiment {sweep} is running"),
        (2, "stderr", "a warning from Ray"),
    }
    assert {line.attempt for line in latest.lines} == {2}
    cli = Cli(server, tmp_path)
    printed = cli("logs", str(final.id), "--final-run")
    assert printed.returncode == 0 and "a1 r0  final epoch 1 of 3" in printed.stdout
    printed = cli("logs", sweep, "--driver", "--attempt", "2")
    assert printed.returncode == 0, printed.stderr
    assert "raysweep-driver-2" in printed.stdout and "raysweep-driver-1" not in printed.stdout
    refused = cli("logs", sweep)  # an experiment id is not a trial id, though all digits
    assert refused.returncode == 2, refused.stderr
    assert "is not a trial id but an experiment's: give --driver" in refused.stderr
    refused = cli("logs", "c890f7bb93f5")
    assert refused.returncode == 2 and "is not a trial id (a number)" in refused.stderr
    missing = cli("logs", "999999999")  # a number that is neither: the server's 404
    assert missing.returncode == 1 and "trial 999999999 not found" in missing.stderr
