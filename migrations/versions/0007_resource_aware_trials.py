"""resource-aware trials: trials.waiting_for (what a trial's worker group waits for while the
cluster cannot place it) and cluster_capacity (each cluster's nodes as the controller last saw
them, for the submit-time check that one trial can ever fit)

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-23
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("trials") as batch:
        batch.add_column(sa.Column("waiting_for", sa.Text(), nullable=True))
    op.create_table(
        "cluster_capacity",
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("nodes", sa.JSON(), nullable=False),
        sa.Column("observed_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("name", name="pk_cluster_capacity"),
    )


def downgrade() -> None:
    op.drop_table("cluster_capacity")
    with op.batch_alter_table("trials") as batch:
        batch.drop_column("waiting_for")
