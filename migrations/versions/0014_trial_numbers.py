"""Trials numbered within their experiment: 1 for the first trial created, then 2, 3, ...; the
web UI names a trial by it (its id stays the API's key). Existing trials are numbered in the
order of their ids.

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-25
"""

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("trials") as batch:
        batch.add_column(sa.Column("number", sa.Integer(), nullable=True))
    # one pass with a window function (PostgreSQL, and SQLite since 3.33), not a count per row
    op.execute(
        "UPDATE trials SET number = numbered.n FROM (SELECT id, row_number() OVER "
        "(PARTITION BY experiment_id ORDER BY id) AS n FROM trials) AS numbered "
        "WHERE trials.id = numbered.id"
    )
    with op.batch_alter_table("trials") as batch:
        batch.alter_column("number", existing_type=sa.Integer(), nullable=False)
        batch.create_unique_constraint(
            "uq_trials_experiment_id_number", ["experiment_id", "number"]
        )


def downgrade() -> None:
    with op.batch_alter_table("trials") as batch:
        batch.drop_constraint("uq_trials_experiment_id_number", type_="unique")
        batch.drop_column("number")
