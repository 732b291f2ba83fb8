"""The ``raysweep`` command in a child process against a real server, on both databases."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import yaml
from sqlalchemy.orm import Session, sessionmaker

from devkit.demo import seed_sweep
from raysweep.client import Client
from raysweep.errors import Conflict
from raysweep.lifecycle import ExperimentState
from service.db.models.sweeps import ExperimentRow
from service.settings import REPO_ROOT
from tests.conftest import ServerProcess, minimal_spec
from tests.factories import MULTI_OBJECTIVE_TRIALS, production_model, record_multi_objective_sweep
from tests.packages import code_spec


def cli_environment(server: ServerProcess, tmp_path: Path) -> dict[str, str]:
    """What a CLI under test is run with: the server's URL and admin token, a config directory
    of its own and no local server's home to find."""
    return {
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "RAYSWEEP_HOME": str(tmp_path / "no-home"),
        "RAYSWEEP_URL": server.url,
        "RAYSWEEP_TOKEN": server.admin_token,
    }


class Cli:
    def __init__(self, server: ServerProcess, tmp_path: Path):
        self.env = {**os.environ, **cli_environment(server, tmp_path), "COLUMNS": "200"}

    def __call__(self, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "raysweep.cli", *args],
            env={**self.env, **env},
            capture_output=True,
            text=True,
            cwd=REPO_ROOT,
            timeout=120,
        )

    def json(self, *args: str) -> Any:
        result = self(*args, "--output", "json")
        assert result.returncode == 0, result.stderr
        return json.loads(result.stdout)


@pytest.fixture
def cli(server: ServerProcess, tmp_path: Path) -> Cli:
    return Cli(server, tmp_path)


def test_submit_ls_show_and_json_output(cli: Cli, tmp_path: Path) -> None:
    spec = tmp_path / "sweep.yaml"
    spec.write_text(yaml.safe_dump(minimal_spec(name="cli-sweep", labels={"team": "nlp"})))
    submitted = cli("submit", str(spec))
    assert submitted.returncode == 0, submitted.stderr
    assert "submitted" in submitted.stdout and "queued" in submitted.stdout
    created = cli.json("submit", str(spec))
    assert created["state"] == "queued" and created["name"] == "cli-sweep"
    listed = cli.json("ls", "--state", "queued", "--label", "team:nlp")
    assert listed[0]["id"] == created["id"] and len(listed) == 2
    assert cli.json("ls", "--state", "running") == []
    table = cli("ls")
    assert table.returncode == 0 and "cli-sweep" in table.stdout and created["id"] in table.stdout
    shown = cli.json("show", created["id"])
    assert shown["id"] == created["id"] and shown["labels"] == {"team": "nlp"}
    # options after the command work as well as before it
    assert json.loads(cli("--output", "json", "show", created["id"]).stdout)["id"] == created["id"]


def test_trials_events_and_controls(cli: Cli, db: sessionmaker[Session], tmp_path: Path) -> None:
    experiment_id = seed_sweep(db, trials=6, max_t=4, running=1)
    trials = cli.json("trials", experiment_id)
    metrics = [t["best_metric"] for t in trials]
    assert len(trials) == 6 and metrics == sorted(metrics, reverse=True)
    by_iteration = cli.json("trials", experiment_id, "--sort", "iteration", "--state", "running")
    assert [t["state"] for t in by_iteration] == ["running"]
    adam = cli.json("trials", experiment_id, "--where", "optimizer=adam", "--sort", "config.lr")
    # a config key in the default order ascends
    wanted = sorted(
        (t for t in trials if t["config"]["optimizer"] == "adam"), key=lambda t: t["config"]["lr"]
    )
    assert [t["id"] for t in adam] == [t["id"] for t in wanted]
    table = cli("trials", experiment_id)
    assert "optimizer" in table.stdout and "best val_accuracy" in table.stdout
    assert [e["kind"] for e in cli.json("events", experiment_id)] == [
        "submitted",
        "trial_restarted",
    ]
    assert "trial_restarted" in cli("events", experiment_id).stdout
    ranked = cli.json("importance", experiment_id, "--evaluator", "fanova")
    assert ranked["evaluator"] == "fanova" and ranked["message"] is None
    shown = cli("importance", experiment_id, "--evaluator", "fanova").stdout
    assert (
        f"fanova importance for val_accuracy (max): {ranked['trials_used']} trials compared at "
        f"iteration {ranked['at_iteration']}"
    ) in shown
    rows = [line.split("│")[1:3] for line in shown.splitlines() if line.startswith("│")]
    assert [(name.strip(), float(share)) for name, share in rows] == [
        (p["name"], round(p["importance"], 3)) for p in ranked["importances"]
    ]
    assert cli.json("pause", experiment_id)["state"] == "pausing"
    assert cli.json("cancel", experiment_id)["state"] == "cancelling"
    assert "cancelling" in cli("show", experiment_id).stdout
    # server text is printed as it is, never read as rich markup
    with db.begin() as session:
        session.get_one(ExperimentRow, experiment_id).error = "boom [/red] [Errno 2] [bold]x"
    shown = cli("show", experiment_id)
    assert shown.returncode == 0 and "boom [/red] [Errno 2] [bold]x" in shown.stdout
    # extend: a finished sweep goes on under its id; once queued, the server's reason (exit 1)
    finished = seed_sweep(db, trials=3, max_t=4, running=0, state=ExperimentState.completed)
    extended = cli.json("extend", finished, "--samples", "12", "--max-t", "6")
    assert extended["state"] == "queued" and extended["extensions"] == 1
    assert extended["spec"]["search"]["num_samples"] == 12
    refused = cli("extend", finished, "--max-t", "8")
    assert refused.returncode == 1 and "the sweep is queued: only a completed" in refused.stderr
    # a new search space from a file, with the value earlier trials had of what it adds
    changed = seed_sweep(db, trials=3, max_t=4, running=0, state=ExperimentState.completed)
    space_file = tmp_path / "narrower.yaml"
    space_file.write_text(
        "lr: {type: loguniform, low: 1e-3, high: 1e-1}\n"
        "hidden: {type: int, low: 16, high: 256}\n"
        "dropout: {type: uniform, low: 0.0, high: 0.5}\n"
    )
    args = ["extend", changed, "--samples", "6", "--search-space", str(space_file)]
    missing = cli(*args)  # every problem named: too few samples, dropout's earlier value
    assert missing.returncode == 1 and "earlier_values.dropout" in missing.stderr
    assert "num_samples: must be more than the sweep's 8" in missing.stderr
    args[3] = "12"
    versions = cli.json(*args, "--earlier", "dropout=0.0")["search_spaces"]
    assert versions[-1]["added"] == {"dropout": 0.0} and versions[-1]["removed"] == ["optimizer"]


def test_watch_ends_when_the_sweep_does(cli: Cli, db: sessionmaker[Session]) -> None:
    finished = seed_sweep(db, trials=3, max_t=2, running=0, state=ExperimentState.completed)
    result = cli("watch", finished, "--interval", "0.2")
    assert result.returncode == 0, result.stderr
    assert "completed" in result.stdout and "trial" in result.stdout


def test_waiting_on_a_sweep_that_ends_failed_or_cancelled_exits_4(
    cli: Cli, db: sessionmaker[Session], server: ServerProcess, tmp_path: Path
) -> None:
    for state, status in (
        (ExperimentState.failed, 4),
        (ExperimentState.cancelled, 4),
        (ExperimentState.paused, 0),
        (ExperimentState.completed, 0),
    ):
        ended = seed_sweep(db, trials=2, max_t=2, running=0, state=state)
        watched = cli("watch", ended, "--interval", "0.2")
        assert watched.returncode == status, (state, watched.stderr)
        if status:
            assert f"raysweep watch: experiment {ended} ended {state.value}" in watched.stderr
    # submit --wait: the sweep (no controller runs it here) is cancelled while the command waits
    spec = tmp_path / "sweep.yaml"
    spec.write_text(yaml.safe_dump(minimal_spec(name="waited")))
    waiting = subprocess.Popen(
        [sys.executable, "-m", "raysweep.cli", "submit", str(spec), "--wait", "--output", "json"],
        env=cli.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO_ROOT,
    )  # fmt: skip
    client = Client(server.url, server.admin_token)
    deadline = time.monotonic() + 60
    while not (waited := [e for e in client.experiments() if e.data.name == "waited"]):
        assert time.monotonic() < deadline, "the sweep was never submitted"
        time.sleep(0.2)
    [experiment] = waited
    assert experiment.cancel().state == ExperimentState.cancelled  # queued: at once
    stdout, stderr = waiting.communicate(timeout=60)
    assert waiting.returncode == 4, stderr
    assert json.loads(stdout)["state"] == "cancelled"
    assert f"raysweep submit: experiment {experiment.id} ended cancelled" in stderr


def test_exit_codes_and_messages(cli: Cli, tmp_path: Path, server: ServerProcess) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(minimal_spec(mode="sideways", search={"num_samples": 0})))
    refused = cli("submit", str(bad))
    assert refused.returncode == 1
    assert "mode" in refused.stderr and "search.num_samples" in refused.stderr
    missing = cli("show", "nope")
    assert missing.returncode == 1 and "not found" in missing.stderr
    assert cli("ls", "--token", "rsw_wrong").returncode == 1
    assert "401" in cli("ls", "--token", "rsw_wrong").stderr
    assert cli("ls", "--state", "sideways").returncode == 2  # usage
    assert cli().returncode == 2
    unreachable = cli("show", "x", "--url", "http://127.0.0.1:9")
    assert unreachable.returncode == 3 and "cannot reach" in unreachable.stderr
    assert cli("submit", str(tmp_path / "absent.yaml")).returncode == 1
    # usage: wrong argument counts, a label that is no key:value, an upload without a path
    for args in (("schedules", "pause"), ("ls", "--label", "team"), ("code", "upload")):
        assert cli(*args).returncode == 2, args
    # a spec file that is no YAML names the file and the line
    broken = tmp_path / "broken.yaml"
    broken.write_text("name: x\nsearch: {num_samples: 3\nmetric: loss\n")
    unreadable = cli("submit", str(broken))
    assert unreadable.returncode == 1 and "Traceback" not in unreadable.stderr
    assert "broken.yaml" in unreadable.stderr and "line 3" in unreadable.stderr
    for command in ("submit", "ls", "show", "trials", "watch", "cancel", "token"):
        helped = cli(command, "--help")
        assert helped.returncode == 0 and "--output" in helped.stdout


def test_token_helpers_write_the_config_file_and_never_print_the_secret(
    cli: Cli, server: ServerProcess, tmp_path: Path
) -> None:
    no_env = {"RAYSWEEP_TOKEN": "", "RAYSWEEP_URL": ""}
    assert cli("ls", **no_env).returncode in (1, 3)  # nothing configured: the local default
    saved = cli("token", "set", server.admin_token, "--url", server.url, **no_env)
    assert saved.returncode == 0 and server.admin_token not in saved.stdout
    path = tmp_path / "config" / "raysweep" / "config.toml"
    assert path.stat().st_mode & 0o777 == 0o600
    assert cli("ls", **no_env).returncode == 0  # url and token from the file
    shown = cli("token", "show", **no_env)
    assert server.admin_token[:8] in shown.stdout and server.admin_token not in shown.stdout
    assert cli("token", "clear", **no_env).returncode == 0
    assert "not set" in cli("token", "show", **no_env).stdout


def test_code_upload_of_a_directory_prints_the_hash_a_spec_names(cli: Cli, tmp_path: Path) -> None:
    package = tmp_path / "mycode"
    (package / "pkg").mkdir(parents=True)
    (package / "train.py").write_text("def train_loop(config):\n    pass\n")
    (package / "pkg" / "__init__.py").write_text("")
    (package / "__pycache__").mkdir()
    (package / "__pycache__" / "train.cpython-311.pyc").write_bytes(b"\x00")
    (package / ".git").mkdir()
    (package / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    uploaded = cli("code", "upload", str(package))
    assert uploaded.returncode == 0, uploaded.stderr
    sha = uploaded.stdout.split()[0]
    assert len(sha) == 64 and "2 files, modules: pkg, train" in uploaded.stdout
    listed = cli.json("code", "ls")
    assert [p["sha256"] for p in listed] == [sha] and listed[0]["modules"] == ["pkg", "train"]
    spec = tmp_path / "code.yaml"
    spec.write_text(yaml.safe_dump(code_spec(sha)))
    assert cli.json("submit", str(spec))["trainer"] == f"code:{sha[:12]}"
    missing = cli("code", "upload", str(tmp_path / "nowhere"))
    assert missing.returncode == 1 and "no such file or directory" in missing.stderr
    not_code = tmp_path / "notes.zip"
    not_code.write_bytes(b"PK\x03\x04 not really")
    refused = cli("code", "upload", str(not_code))
    assert refused.returncode == 1 and "not a valid zip archive" in refused.stderr


def test_promote_final_runs_and_models(cli: Cli, db: sessionmaker[Session]) -> None:
    done = seed_sweep(
        db, trials=4, max_t=2, running=0, state=ExperimentState.completed, prune=False
    )
    running = seed_sweep(db, trials=2, max_t=2, running=1)
    runs = cli.json(
        "promote", done, "--top-k", "2", "--workers", "4", "--model-name", "dig",
        "--gpus-per-worker", "1", "--precision", "bf16",
    )  # fmt: skip
    assert [r["rank"] for r in runs] == [1, 2] and {r["num_workers"] for r in runs} == {4}
    assert {r["model_name"] for r in runs} == {"dig"} and {r["state"] for r in runs} == {"queued"}
    assert {r["resources"]["gpus_per_worker"] for r in runs} == {1.0}  # a CPU sweep, on GPUs
    assert {r["config"]["precision"] for r in runs} == {"bf16"}
    table = cli("final-runs", done)
    assert table.returncode == 0 and "queued" in table.stdout and "dig" in table.stdout
    cancelled = cli("cancel-final-run", str(runs[1]["id"]))
    assert cancelled.returncode == 0, cancelled.stderr
    assert cancelled.stdout.strip() == f"final run {runs[1]['id']} is cancelled"
    again = cli("cancel-final-run", str(runs[1]["id"]))
    assert again.returncode == 1 and "is cancelled: there is nothing to cancel" in again.stderr
    refused = cli("promote", running)
    assert refused.returncode == 1 and "only a sweep that has ended" in refused.stderr
    assert cli.json("models", "ls") == []
    missing = cli("models", "show", "dig", "1")
    assert missing.returncode == 1 and "no model named 'dig'" in missing.stderr
    usage = cli("models", "versions")
    assert usage.returncode == 2 and "models versions takes 1 argument(s)" in usage.stderr


def test_schedules_from_the_cli_and_the_sdk(
    cli: Cli, server: ServerProcess, tmp_path: Path, db: sessionmaker[Session]
) -> None:
    spec = tmp_path / "sweep.yaml"
    spec.write_text(yaml.safe_dump(minimal_spec(name="nightly-digits")))
    created = cli.json(
        "schedules", "create", "nightly", "0 3 * * *", str(spec), "--timezone", "Europe/Berlin",
        "--overlap", "queue",
    )  # fmt: skip
    assert created["overlap"] == "queue" and created["next_run_at"]
    assert [s["name"] for s in cli.json("schedules", "ls")] == ["nightly"]
    assert cli.json("schedules", "pause", created["id"])["next_run_at"] is None
    assert cli.json("schedules", "firings", created["id"]) == []
    bad = cli("schedules", "create", "bad", "0 3 * *", str(spec))
    assert bad.returncode == 1 and "cron" in bad.stderr
    client = Client(server.url, server.admin_token)
    assert client.set_schedule_enabled(created["id"], True).next_run_at is not None
    client.delete_schedule(created["id"])
    assert client.schedules() == []

    unknown = cli("schedules", "create", "weekly", "0 4 * * 1", "--retrain", "digits")
    assert unknown.returncode == 1 and "no model named 'digits'" in unknown.stderr
    production_model(db)
    weekly = cli.json(
        "schedules", "create", "weekly", "0 4 * * 1", "--retrain", "digits", "--margin", "0.01",
        "--retune-samples", "3",
    )  # fmt: skip
    assert weekly["kind"] == "retrain" and weekly["template"] is None
    assert weekly["retrain"]["margin"] == 0.01 and weekly["retrain"]["retune"]["num_samples"] == 3
    sdk = client.create_schedule(
        "weekly-sdk", "0 4 * * 1", retrain={"model": "digits", "epochs": 5}
    )
    assert sdk.kind == "retrain" and sdk.retrain is not None and sdk.retrain.epochs == 5
    # the alias the retrain schedules follow stays until they go
    followed = cli("models", "unalias", "digits", "production")
    assert followed.returncode == 1, followed.stderr
    assert (
        f"retrain schedule weekly ({weekly['id']}), weekly-sdk ({sdk.id}) follows alias "
        "'production' of model 'digits'"
    ) in followed.stderr
    assert cli("models", "alias", "digits", "production", "one").returncode == 2  # usage
    for schedule in client.schedules():
        client.delete_schedule(schedule.id)
    removed = cli.json("models", "unalias", "digits", "production")
    assert removed == {"name": "digits", "alias": "production", "deleted": True}
    assert client.models()[0].aliases == {}


def test_pareto_and_a_promotion_by_pick(cli: Cli, db: sessionmaker[Session]) -> None:
    _, experiment_id, ids = record_multi_objective_sweep(db, MULTI_OBJECTIVE_TRIALS)
    shown = cli("pareto", experiment_id)
    assert shown.returncode == 0, shown.stderr
    assert (
        "Pareto front of val_accuracy (max), model_params (min): 3 of 5 completed trial(s)"
        in shown.stdout
    )
    rows = [line.split("│")[1:4] for line in shown.stdout.splitlines() if line.startswith("│")]
    # trials by their number in the sweep: trial t{i} was started (numbered) i + 1-th
    assert [(t.strip(), float(a), float(p)) for t, a, p in rows] == [
        ("#5", 0.97, 20000.0),
        ("#2", 0.95, 5000.0),
        ("#1", 0.9, 1000.0),
    ]
    assert cli.json("pareto", experiment_id, "--limit", "3")["front"] == [ids[4], ids[1], ids[0]]
    unbounded = cli("promote", experiment_id, "--max", "model_params=6000")
    assert unbounded.returncode == 2 and "give --pick OBJECTIVE too" in unbounded.stderr
    garbled = cli("promote", experiment_id, "--pick", "val_accuracy", "--max", "size=big")
    assert garbled.returncode == 2 and "'size=big' is not METRIC=NUMBER" in garbled.stderr
    runs = cli.json(
        "promote",
        experiment_id,
        "--pick",
        "val_accuracy",
        "--max",
        "model_params=6000",
        "--top-k",
        "1",
    )
    assert [r["trial_id"] for r in runs] == [ids[1]]


def test_tables_at_80_columns_show_whole_columns_and_name_the_hidden_ones(
    cli: Cli, db: sessionmaker[Session]
) -> None:
    """rich cut every column to two letters ("tr…", "st…") when all had to fit: the most
    important columns that fit are shown whole and the rest named; --columns chooses."""
    experiment_id = seed_sweep(db, trials=6, max_t=4, running=1, name="a-rather-long-sweep-name")
    narrow = cli("trials", experiment_id, COLUMNS="80")
    assert narrow.returncode == 0, narrow.stderr
    lines = narrow.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80
    header = next(line for line in lines if "trial" in line and "state" in line)
    assert "…" not in narrow.stdout
    assert [h.strip() for h in header.strip("│┃ ").split("┃")][:3] == ["trial", "state", "hidden"]
    assert "best val_accuracy" in header
    hidden = "hidden to fit 80 columns: last, restarts, id (see --columns, --output json)"
    assert lines[-1] == hidden
    listing = cli("ls", COLUMNS="80")
    assert listing.returncode == 0 and "…" not in listing.stdout
    assert max(len(line) for line in listing.stdout.splitlines()) <= 80
    assert "a-rather-long-sweep-name" in listing.stdout
    chosen = cli("trials", experiment_id, "--columns", "trial,lr", COLUMNS="80")
    rows = [line for line in chosen.stdout.splitlines() if line.startswith("│")]
    assert len(rows) == 6 and all(line.count("│") == 3 for line in rows)
    assert "hidden to fit" not in chosen.stdout
    unknown = cli("trials", experiment_id, "--columns", "trial,colour")
    assert unknown.returncode == 2 and "--columns: no column colour" in unknown.stderr


def test_a_project_through_the_sdk_and_the_cli(
    cli: Cli, server: ServerProcess, tmp_path: Path
) -> None:
    with Client(server.url, server.admin_token) as admin:
        created = admin.create_project("vision", weight=2, max_queued=1)
        assert created.weight == 2 and created.max_queued == 1
        in_default = admin.submit(minimal_spec(name="elsewhere"))
    member = server.create_token("vision-member", "member", project="vision")
    with Client(server.url, member, project="vision") as client:
        assert [p.name for p in client.projects()] == ["vision"]
        sweep = client.submit(minimal_spec(name="seen"))
        assert sweep.project == "vision"
        assert [e.id for e in client.experiments()] == [sweep.id]
        with pytest.raises(Conflict, match="max_queued 1"):  # its queue holds one
            client.submit(minimal_spec(name="second"))
        usage = client.usage()
        assert usage.total.worker_seconds == 0 and set(usage.by_project) <= {"vision"}
    # naming no project, a token of one project creates in it (here its full queue refuses)
    with (
        Client(server.url, member) as unscoped,
        pytest.raises(Conflict, match="project 'vision' has 1 sweeps queued"),
    ):
        unscoped.submit(minimal_spec(name="into-its-project"))
    spec = tmp_path / "sweep.yaml"
    spec.write_text(yaml.safe_dump(minimal_spec(name="cli-vision")))
    homed = cli("submit", str(spec), RAYSWEEP_TOKEN=member)
    assert homed.returncode == 1 and "project 'vision' has 1 sweeps queued" in homed.stderr
    env = {"RAYSWEEP_TOKEN": server.admin_token}
    listed = cli("--project", "vision", "ls", "--output", "json", **env)
    assert [e["id"] for e in json.loads(listed.stdout)] == [sweep.id]
    everything = {e["id"] for e in cli.json("ls")}
    assert {sweep.id, in_default.id} <= everything
    refused = cli("--project", "vision", "submit", str(spec), **env)
    assert refused.returncode == 1 and "max_queued" in refused.stderr
    # the projects and their compute, as the token sees them
    listed_projects = cli("--output", "json", "projects", RAYSWEEP_TOKEN=member)
    assert [p["name"] for p in json.loads(listed_projects.stdout)] == ["vision"]
    usage = cli(
        "--output", "json", "--project", "vision", "usage", "--from", "2026-01-01T00:00:00+00:00",
        RAYSWEEP_TOKEN=member,
    )  # fmt: skip
    assert usage.returncode == 0, usage.stderr
    assert json.loads(usage.stdout)["total"]["worker_seconds"] == 0
