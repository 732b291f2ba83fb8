"""What ``raysweep`` shows on an 80-column terminal: each command's screen read back from
tmux (a real pty, 80 columns; ``capture-pane -J`` joins what the terminal wrapped, so a line the
CLI printed wider than the screen shows as wider). Without tmux the commands run with
COLUMNS=80 and their stdout is read instead. The server is the in-process API on seeded data:
a sweep of simulated trials, a promoted sweep with a model version aliased ``production``, a
failed final run, a Berlin schedule and an hour and a half of compute in the ledger."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy.orm import Session, sessionmaker

from devkit.demo import seed_sweep
from raysweep.cli_output import asked_params
from raysweep.client import Client
from raysweep.lifecycle import ExperimentState
from service.resources import HeldSegment
from service.settings import REPO_ROOT
from service.usecases.projects import record_final_run_usage
from tests.client.test_cli import cli_environment
from tests.conftest import ServerProcess, minimal_spec
from tests.factories import fail_final_run, production_model

WIDTH = 80
DONE = "__raysweep_exit="


class Screen:
    """Runs ``raysweep ARGS`` on an 80-column screen; returns its exit code and its lines."""

    def __init__(self, server: ServerProcess, tmp_path: Path):
        self.env = {
            **cli_environment(server, tmp_path),
            "TZ": "Europe/Berlin",  # local time is not UTC here, as for most users
        }
        self.sockets = tmp_path
        self.tmux = shutil.which("tmux")
        self.runs = 0

    def __call__(self, *args: str) -> tuple[int, list[str]]:
        command = [sys.executable, "-m", "raysweep.cli", *args]
        if self.tmux is None:
            env = {**os.environ, **self.env, "COLUMNS": str(WIDTH)}
            done = subprocess.run(
                command, env=env, capture_output=True, text=True, cwd=REPO_ROOT, timeout=120
            )
            return done.returncode, done.stdout.splitlines()
        return self.on_screen(command)

    def on_screen(self, command: list[str]) -> tuple[int, list[str]]:
        assert self.tmux is not None
        self.runs += 1
        session = f"screen{self.runs}"
        env = ["env", *(f"{key}={value}" for key, value in self.env.items())]
        # the pane stays after the command so that its screen can be read
        shell = f"{shlex.join(env + command)}; echo {DONE}$?; sleep 120"
        # a tmux server of its own per command: one whose last session ended is exiting
        tmux = [self.tmux, "-S", str(self.sockets / f"{session}.sock")]
        size = ["-x", str(WIDTH), "-y", "300"]
        new = [*tmux, "new-session", "-d", "-s", session, *size, "-c", str(REPO_ROOT), shell]
        subprocess.run(new, check=True)
        deadline = time.monotonic() + 120
        while True:
            captured = subprocess.run(
                [*tmux, "capture-pane", "-p", "-J", "-S", "-", "-t", session],
                capture_output=True,
                text=True,
                check=True,
            ).stdout
            if match := re.search(rf"^{DONE}(\d+)$", captured, re.MULTILINE):
                break
            assert time.monotonic() < deadline, captured
            time.sleep(0.2)
        subprocess.run([*tmux, "kill-server"], check=True)
        lines = [line.rstrip() for line in captured[: match.start()].splitlines()]
        while lines and not lines[-1]:
            lines.pop()
        return int(match.group(1)), lines

    def close(self) -> None:
        """Stop the tmux servers a failed command left."""
        for socket in self.sockets.glob("screen*.sock"):
            subprocess.run([str(self.tmux), "-S", str(socket), "kill-server"], capture_output=True)


@pytest.fixture
def screen(server: ServerProcess, tmp_path: Path) -> Iterator[Screen]:
    shown = Screen(server, tmp_path)
    yield shown
    shown.close()


def shows(screen: Screen, *args: str) -> str:
    """The command's screen, checked to exit 0, to fit 80 columns and to hold no JSON."""
    status, lines = screen(*args)
    text = "\n".join(lines)
    assert status == 0, text
    assert lines, f"{args} printed nothing"
    too_wide = [line for line in lines if len(line) > WIDTH]
    assert not too_wide, f"{args}: wider than {WIDTH}:\n" + "\n".join(too_wide)
    assert "…" not in text, f"{args} cut a value:\n{text}"
    assert not re.search(r'^\s*[\[{]|"\w+": ', text, re.MULTILINE), f"{args} printed JSON:\n{text}"
    return text


def test_every_screen_fits_80_columns_and_names_trials_by_number(
    screen: Screen, server: ServerProcess, db: sessionmaker[Session], tmp_path: Path
) -> None:
    seed_sweep(db, trials=3, max_t=2, running=0, name="first")  # ids now differ from numbers
    promoted = production_model(db)  # trials #1 and #2; #1 became digits v1, aliased production
    sweep = seed_sweep(db, trials=6, max_t=4, running=1, name="a-rather-long-sweep-name")
    client = Client(server.url, server.admin_token)
    data = client.experiment(sweep).data

    shown = shows(screen, "show", sweep)
    counts = ", ".join(
        f"{n} {s}" for s, n in sorted(data.trial_counts.items(), key=lambda i: (-i[1], i[0]))
    )
    assert f"trials: {counts}" in shown and "pruned" in counts
    assert data.best_trial is not None
    assert f"best trial #{data.best_trial.number}: val_accuracy " in shown
    assert f"lr={data.best_trial.config['lr']:.4g}" in shown
    berlin = data.created_at.astimezone(ZoneInfo("Europe/Berlin"))
    assert f"created {berlin:%Y-%m-%d %H:%M} (just now), ran 1 h so far" in shown

    trials = {t.number: t for t in client.experiment(sweep).trials()}
    assert all(t.id != n for n, t in trials.items())  # numbers are not ids here
    everything = shows(screen, "trials", sweep)
    assert all(f"│ #{n} " in everything for n in trials)
    # the columns a filter names stay in the table
    table = shows(screen, "trials", sweep, "--where", "lr>0.00001", "--where", "optimizer=adam")
    header = next(line for line in table.splitlines() if "trial" in line and "state" in line)
    assert {"lr", "optimizer"} <= set(header.split()) and "best val_accuracy" in header
    adam = [n for n, t in trials.items() if t.config["optimizer"] == "adam"]
    assert adam and all(f"│ #{n} " in table for n in adam)
    assert sum(line.startswith("│ #") for line in table.splitlines()) == len(adam)

    watched = shows(screen, "watch", promoted, "--interval", "0.2")
    assert f"digits {promoted} completed: 2 completed, best val_loss 0.2" in watched
    assert "#1 " in watched and "#2 " in watched

    # promote by number, as read in the table; again: nothing new
    status, lines = screen("promote", promoted, "--trials", "2")
    assert status == 0, lines
    assert any(re.fullmatch(r"promoted 1 trial\(s\): #2 as final run \d+", ln) for ln in lines)
    again = shows(screen, "promote", promoted, "--trials", "#2")
    assert "nothing new promoted" in again
    refused = screen("promote", promoted, "--trials", "9")
    assert refused[0] == 1 and "invalid spec" not in "\n".join(refused[1])
    said = " ".join(line.strip() for line in refused[1])
    assert (
        "raysweep promote: the promotion cannot run as asked: trial_numbers.0: no trial #9 in "
        f"experiment {promoted}"
    ) in said
    runs = client.experiment(promoted).final_runs()
    second = next(r for r in runs if r.trial_number == 2)
    fail_final_run(db, second.id)
    status, lines = screen("final-runs", promoted, "--output", "json")
    assert status == 0 and [
        (r["trial_id"], r["trial_number"]) for r in json.loads("".join(lines))
    ] == [(r.trial_id, r.trial_number) for r in runs]  # JSON keeps the ids, the numbers beside them
    final = shows(screen, "final-runs", promoted)
    assert re.search(r"│ #1 +│ completed +│ digits v1 +│ test_loss=0\.3 test_accuracy=0\.7", final)
    assert re.search(r"│ #2 +│ failed ", final), final
    assert f"run {second.id} failed: RuntimeError: out of memory" in final

    models = shows(screen, "models", "ls")
    assert re.search(r"│ digits +│ 1 +│ 1 +│ production→v1 +│", models), models
    versions = shows(screen, "models", "versions", "digits")
    assert re.search(r"│ v1 +│ production +│ #1 +│ test_loss=0\.3", versions), versions
    lineage = shows(screen, "models", "show", "digits", "production")
    assert f"from sweep {promoted} trial #1 (final run {runs[0].id})" in lineage
    assert "config: " in lineage and "hidden=64" in lineage
    moved = shows(screen, "models", "alias", "digits", "production", "1")
    assert "digits: alias production → v1 (it did already: nothing changed)" in moved

    spec = minimal_spec(name="nightly-digits")
    nightly = client.create_schedule("nightly", "0 3 * * *", spec, timezone="Europe/Berlin")
    client.create_schedule("weekly", "0 4 * * 1", retrain={"model": "digits"})
    schedules = shows(screen, "schedules", "ls")
    cron = r"0 3 \* \* \* Europe/Berlin"
    nightly_row = rf"│ nightly +│ {nightly.id} +│ {cron} +│ on +│ in \d[\d.]* (h|min) +│"
    assert re.search(nightly_row, schedules), schedules  # a daily run: within a day
    assert "weekly" in schedules and nightly.id in schedules
    paused = shows(screen, "schedules", "pause", nightly.id)
    assert f"schedule nightly ({nightly.id}) paused" in paused and "no next run" in paused

    # 2 workers holding 4 CPUs for 90 minutes: 3 worker-hours, 6 CPU-hours
    began = datetime.now(UTC) - timedelta(hours=2)
    segment = HeldSegment(
        key="final/1", owner="x", label="final", started=began.timestamp(),
        ended=began.timestamp() + 5400, holding=False, workers=2, cpus=4.0, gpus=0.0,
    )  # fmt: skip
    record_final_run_usage(db, runs[0].id, [segment])
    usage = shows(screen, "usage")
    assert "total: 3.00 worker-hours, 6.00 CPU-hours, 0 GPU-hours" in usage
    assert re.search(rf"│ {promoted} +│ 3\.00 +│ 6\.00 +│ 0 +│", usage), usage
    projects = shows(screen, "projects")
    assert re.search(r"│ default +│ 1 +│ none +│ none +│ 3\.00 worker-h, 0 GPU-h", projects)

    package = tmp_path / "code"
    package.mkdir()
    (package / "train.py").write_text("def train_loop(config):\n    pass\n")
    sha = client.upload_code(package).sha256
    assert sha in shows(screen, "code", "ls").splitlines()  # whole, on a line of its own

    events = shows(screen, "events", promoted)
    assert re.search(r"promoted: 1 trial\(s\) promoted by \S+: trial #1 \(id \d+\)", events)


def test_the_trial_number_option_is_told_apart_from_ids_by_its_name(
    screen: Screen, server: ServerProcess, db: sessionmaker[Session]
) -> None:
    """--trials takes numbers (3 or '#3'), --trial-ids the API's ids as before; not both."""
    seed_sweep(db, trials=3, max_t=2, running=0)  # trial ids now differ from numbers
    done = seed_sweep(
        db, trials=4, max_t=2, running=0, state=ExperimentState.completed, prune=False
    )
    trials = {
        t.number: t.id for t in Client(server.url, server.admin_token).experiment(done).trials()
    }
    status, lines = screen("promote", done, "--trial-ids", str(trials[3]))
    assert status == 0, lines
    assert "promoted 1 trial(s): #3 as final run" in "\n".join(lines)
    for bad in (("--trials", "x3"), ("--trials", "0"), ("--trials", "1", "--trial-ids", "4")):
        status, _ = screen("promote", done, *bad)
        assert status == 2, bad


def test_a_filters_and_a_sorts_config_keys_are_the_columns_kept_first() -> None:
    """`trials --where 'lr>0.01'` keeps `lr` on screen however many params compete for it."""
    asked = asked_params(
        ["lr>0.01", "config.depth<=2", "optimizer = adam", "best_metric>0.9"], "config.hidden"
    )
    assert asked == ["lr", "depth", "optimizer", "best_metric", "hidden"]
    assert asked_params(None, "best_metric") == []
