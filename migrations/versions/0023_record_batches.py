"""The last batch of reports each sweep's driver stored, so a batch the driver sends again
(its answer lost after the commit) is stored once.

Revision ID: 0023
Revises: 0022
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

revision = "0023"
down_revision = "0022"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "record_batches",
        sa.Column(
            "experiment_id",
            sa.String(32),
            sa.ForeignKey("experiments.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("attempt", sa.Integer(), nullable=False),
        sa.Column("last_sequence", sa.Integer(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("record_batches")
