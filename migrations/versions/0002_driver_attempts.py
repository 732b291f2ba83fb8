"""driver attempts: every driver submission (restarts and resumes) gets its own Ray job id

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-21
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("experiments") as batch:
        batch.add_column(
            sa.Column("driver_attempts", sa.Integer(), nullable=False, server_default="0")
        )
    # existing experiments submitted driver_restarts + 1 drivers if they ever ran
    op.execute(
        "UPDATE experiments SET driver_attempts = driver_restarts + 1 "
        "WHERE driver_job_id IS NOT NULL"
    )


def downgrade() -> None:
    with op.batch_alter_table("experiments") as batch:
        batch.drop_column("driver_attempts")
