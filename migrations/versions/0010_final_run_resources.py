"""final_runs.resources: a final run's per-worker resources ({use_gpu, cpus_per_worker,
gpus_per_worker}) when promotion asked for other ones than the sweep's; NULL (every run made
before this) means the sweep's.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-24
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("final_runs") as batch:
        batch.add_column(sa.Column("resources", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("final_runs") as batch:
        batch.drop_column("resources")
