"""Ids that never come back, and model names that belong to one project.

SQLite reuses the largest integer id after a DELETE unless the table is AUTOINCREMENT; an id
that comes back can reach a cache (or a bookmark) that still names the deleted object's project.
The tables whose ids the API addresses (trials, final runs, model versions, deployments) are
rebuilt AUTOINCREMENT there; PostgreSQL's sequences never reuse a value.

``model_names`` holds each model name's project from the first promotion queued under it (it
stays when the versions go): two projects can no longer register the same new name, and a
name's project never changes.

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None

ADDRESSED = ("trials", "final_runs", "model_versions", "model_deployments")


def rebuild(autoincrement: bool) -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    for table in ADDRESSED:
        with op.batch_alter_table(
            table, recreate="always", table_kwargs={"sqlite_autoincrement": autoincrement}
        ):
            pass


def upgrade() -> None:
    rebuild(True)
    op.create_table(
        "model_names",
        sa.Column("name", sa.String(128), primary_key=True),
        sa.Column(
            "project",
            sa.String(63),
            sa.ForeignKey("projects.name", name="fk_model_names_project_projects"),
            nullable=False,
        ),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_model_names_project", "model_names", ["project"])
    # every name in use: its versions' project, else the project of the sweep whose final run
    # was queued under it (the earliest first)
    op.execute(
        "INSERT INTO model_names (name, project, created_at) "
        "SELECT name, MIN(project), MIN(created_at) FROM model_versions GROUP BY name"
    )
    op.execute(
        "INSERT INTO model_names (name, project, created_at) "
        "SELECT f.model_name, MIN(e.project), MIN(f.created_at) FROM final_runs f "
        "JOIN experiments e ON e.id = f.experiment_id "
        "WHERE f.model_name NOT IN (SELECT name FROM model_names) GROUP BY f.model_name"
    )


def downgrade() -> None:
    op.drop_index("ix_model_names_project", table_name="model_names")
    op.drop_table("model_names")
    rebuild(False)
