"""Migrations on both databases: up, down, up; the ORM equals the migrated schema; the server
refuses a database that is behind."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect, select

import service.db.models  # noqa: F401  (defines the tables on Base.metadata)
from service.db import migrate
from service.db.base import Base
from service.db.models.sweeps import TrialRow
from service.db.session import create_db_engine, session_factory
from service.settings import REPO_ROOT
from service.usecases.access import operator
from service.usecases.experiments import submit_experiment
from tests.conftest import ServerProcess, minimal_spec
from tests.packages import readme_example, zip_of


def test_upgrade_downgrade_upgrade_and_the_orm_matches_the_schema(empty_db_url: str) -> None:
    migrate.upgrade(empty_db_url)
    migrate.downgrade(empty_db_url, "base")
    engine = create_db_engine(empty_db_url)
    assert set(inspect(engine).get_table_names()) <= {"alembic_version"}
    migrate.upgrade(empty_db_url)
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        assert compare_metadata(context, Base.metadata) == []
    assert migrate.current_revision(engine) == migrate.head_revision()
    engine.dispose()


def test_trials_stored_before_numbers_are_numbered_per_experiment_in_id_order(
    empty_db_url: str,
) -> None:
    migrate.upgrade(empty_db_url)
    engine = create_db_engine(empty_db_url)
    db = session_factory(engine)
    experiments = [
        submit_experiment(
            db, minimal_spec(name=f"e{n}"), REPO_ROOT / "search_spaces", operator("t")
        ).id
        for n in range(2)
    ]
    with db.begin() as session:
        for index in range(6):  # alternating, so each experiment's ids have gaps
            experiment = experiments[index % 2]
            session.add(
                TrialRow(
                    experiment_id=experiment,
                    tune_trial_id=f"t{index}",
                    number=99 - index,
                    config={},
                    state="running",
                )
            )
    migrate.downgrade(empty_db_url, "0013")
    migrate.upgrade(empty_db_url)
    with db.begin() as session:
        for experiment in experiments:
            numbers = session.scalars(
                select(TrialRow.number)
                .where(TrialRow.experiment_id == experiment)
                .order_by(TrialRow.id)
            ).all()
            assert numbers == [1, 2, 3]
    engine.dispose()


def test_server_refuses_an_out_of_date_schema_and_says_how_to_migrate(
    empty_db_url: str, tmp_path: Path
) -> None:
    env = {
        **os.environ,
        "RAYSWEEP_DATABASE_URL": empty_db_url,
        "RAYSWEEP_HOME": str(tmp_path),
        "RAYSWEEP_CONTROLLER": "false",
    }
    result = subprocess.run(
        [sys.executable, "-m", "service", "serve"],
        env=env,
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=300,  # it imports Ray first; beside the Ray tests' CPU stress that took 87 s
    )
    assert result.returncode != 0
    assert "python -m service migrate" in result.stderr
    assert not (tmp_path / "admin-token").exists()


def test_first_start_writes_a_private_admin_token_and_the_token_cli_manages_tokens(
    server_process: ServerProcess,
) -> None:
    server = server_process
    mode = stat.S_IMODE((server.home / "admin-token").stat().st_mode)
    assert mode == 0o600
    assert server.admin_token.startswith("rsw_")
    assert "admin-token" in server.log_path.read_text()
    created = server.manage("token", "create", "ci-bot", "--role", "viewer")
    assert created.returncode == 0 and created.stdout.startswith("rsw_")
    secret = created.stdout.strip()
    listed = server.manage("token", "list").stdout
    assert '"name": "ci-bot"' in listed and '"role": "viewer"' in listed
    assert secret not in listed and server.admin_token not in listed
    duplicate = server.manage("token", "create", "ci-bot")
    assert duplicate.returncode == 1 and "exists already" in duplicate.stderr
    assert server.manage("token", "revoke", "ci-bot").returncode == 0
    assert '"revoked_at": null' not in server.manage("token", "list").stdout.splitlines()[1]
    assert secret not in server.log_path.read_text()
    # what the server stores is the service's user's alone: uploaded code here
    with server.client() as client:
        uploaded = client.post(
            "/api/v1/code",
            content=zip_of({"train.py": readme_example()}),
            headers={"Content-Type": "application/zip"},
        )
    assert uploaded.status_code == 201, uploaded.text
    (stored,) = (server.home / "storage" / "code").iterdir()
    assert stat.S_IMODE(stored.stat().st_mode) == 0o600, oct(stored.stat().st_mode)
