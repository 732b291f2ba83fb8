"""rung_decisions: every early-stopping decision as the scheduler made it (the rung view and a
restored driver's scheduler read them); trials.early_stopping: the latest one in a line;
experiments.extensions: how many times the sweep was extended.

Sweeps run before this have no stored decisions: their rung view is empty.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-24
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rung_decisions",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), primary_key=True),
        sa.Column(
            "experiment_id",
            sa.String(length=32),
            sa.ForeignKey("experiments.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column(
            "trial_id",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            sa.ForeignKey("trials.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("bracket", sa.Integer(), nullable=False),
        sa.Column("milestone", sa.Integer(), nullable=False),
        sa.Column("value", sa.Float(), nullable=True),
        sa.Column("cutoff", sa.Float(), nullable=True),
        sa.Column("rank", sa.Integer(), nullable=True),
        sa.Column("rung_size", sa.Integer(), nullable=False),
        sa.Column("decision", sa.String(length=16), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("trial_id", "milestone", "decision"),
    )
    op.create_index(
        "ix_rung_decisions_experiment_id_milestone",
        "rung_decisions",
        ["experiment_id", "milestone"],
    )
    with op.batch_alter_table("trials") as batch:
        batch.add_column(sa.Column("early_stopping", sa.Text(), nullable=True))
    with op.batch_alter_table("experiments") as batch:
        batch.add_column(sa.Column("extensions", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("experiments") as batch:
        batch.drop_column("extensions")
    with op.batch_alter_table("trials") as batch:
        batch.drop_column("early_stopping")
    op.drop_index("ix_rung_decisions_experiment_id_milestone", table_name="rung_decisions")
    op.drop_table("rung_decisions")
