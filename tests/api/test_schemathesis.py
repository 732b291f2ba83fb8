"""Schemathesis against the running app's own OpenAPI document, on SQLite and PostgreSQL: every
operation gets bounded generated requests (examples, coverage and fuzzing phases), valid and
invalid, and every default check must hold: no 5xx, every status and body as documented,
invalid input refused, allowed methods named. The path parameters point at seeded rows (a
promoted sweep with its trials, final run and model version, a queued sweep, a schedule), so the
operations are fuzzed past their 404s."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from service.db.models.registry import FinalRunRow
from service.db.models.sweeps import TrialRow
from tests.conftest import BOTH_BACKENDS, ServerProcess
from tests.factories import production_model, retrain_schedule, submit

# examples per operation and phase: 42 operations x ~3 phases stay well under a minute per
# backend (25 took 126 s on PostgreSQL on a slow 2-core machine)
MAX_EXAMPLES = 12
SEED = 20261124

# operations whose bodies carry meaning JSON Schema cannot state (a search space or cluster that
# must exist, a cron expression, an archive's contents, which fields a kind needs, an integer
# written 3.0, a budget above the sweep's own, a trial filter's `KEY OP VALUE` conditions, an
# importance's iteration that must be one of the sweep's rungs): a
# schema-valid request may still be refused there with the documented 422;
# everywhere else a schema-valid request must succeed (or find nothing, 404, or a state that
# forbids it, 409)
SEMANTIC_VALIDATION = [
    ("POST", "/api/v1/experiments"),
    ("POST", "/api/v1/code"),
    ("POST", "/api/v1/experiments/{experiment_id}/promote"),
    ("POST", "/api/v1/experiments/{experiment_id}/extend"),
    ("POST", "/api/v1/schedules"),
    ("GET", "/api/v1/experiments/{experiment_id}/trials"),
    ("GET", "/api/v1/experiments/{experiment_id}/importance"),
    ("POST", "/api/v1/projects"),
    ("PATCH", "/api/v1/projects/{name}"),
]


def seeded_parameters(db: sessionmaker[Session], client: httpx.Client) -> dict[str, object]:
    promoted = production_model(db)
    queued = submit(client)
    with db.begin() as session:
        trial_id = session.scalars(
            select(TrialRow.id).where(TrialRow.experiment_id == promoted)
        ).first()
        final_run_id = session.scalars(select(FinalRunRow.id)).first()
    return {
        "experiment_id": promoted,
        "queued_experiment_id": queued,
        "trial_id": trial_id,
        "final_run_id": final_run_id,
        "schedule_id": retrain_schedule(db),
        "name": "digits",
        "version": 1,
        "alias": "production",
    }


def toml_value(value: object) -> str:
    return json.dumps(value)  # a JSON string or integer is the same TOML literal


def config_text(server: ServerProcess, parameters: dict[str, object]) -> str:
    queued = parameters.pop("queued_experiment_id")
    lines = [
        f"seed = {SEED}",
        "workers = 1",
        # an upload is checked in a subprocess limited to 30 s (package_check.py); under the Ray
        # tests' load one took over schemathesis's default 10 s to answer (with its 4xx)
        "request-timeout = 90",
        "generation.max-examples = " + str(MAX_EXAMPLES),
        'generation.database = "none"',
        "[headers]",
        f"Authorization = {toml_value('Bearer ' + server.admin_token)}",
        "[parameters]",
        *(f"{name} = {toml_value(value)}" for name, value in parameters.items()),
        "[phases]",
        "stateful.enabled = false",
    ]
    for method, path in SEMANTIC_VALIDATION:
        lines += [
            "[[operations]]",
            f"include-name = {toml_value(f'{method} {path}')}",
            'checks.positive_data_acceptance.expected-statuses = ["2xx", 401, 403, 404, 409, 422]',
        ]
    # deleting the promoted sweep would leave the other operations nothing to read: the
    # delete gets the queued sweep
    lines += [
        "[[operations]]",
        'include-name = "DELETE /api/v1/experiments/{experiment_id}"',
        f"parameters = {{ experiment_id = {toml_value(queued)} }}",
    ]
    return "\n".join(lines) + "\n"


@pytest.mark.timeout(600)
@BOTH_BACKENDS
def test_schemathesis_finds_nothing(
    server: ServerProcess, db: sessionmaker[Session], tmp_path: Path
) -> None:
    with server.client() as client:
        parameters = seeded_parameters(db, client)
    config = tmp_path / "schemathesis.toml"
    config.write_text(config_text(server, parameters))
    # the document is fetched here, once, and given to schemathesis as a file: its own load of a
    # schema URL times out after 10 s whatever request-timeout says, and under the Ray tests'
    # load the first /openapi.json (FastAPI builds it on first request) once took longer
    document = httpx.get(f"{server.url}/openapi.json", timeout=120).raise_for_status().json()
    schema = tmp_path / "openapi.json"
    schema.write_text(json.dumps(document))
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "schemathesis.cli",
            "--config-file",
            str(config),
            "run",
            str(schema),
            "--url",
            server.url,
            "--checks",
            "all",
            "--phases",
            "examples,coverage,fuzzing",
            "--no-color",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=540,
        check=False,
    )
    report = run.stdout + run.stderr
    assert run.returncode == 0, report[-20000:]
    # every operation the document lists was exercised, none skipped for want of a strategy
    operations = sum(len(methods) for methods in document["paths"].values())
    assert f"Tested: {operations}" in report, report[-3000:]
