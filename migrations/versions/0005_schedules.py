"""schedules: cron schedules and their firings (unique per schedule and due time)

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-21
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "schedules",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("name", sa.String(128), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("cron", sa.String(128), nullable=False),
        sa.Column("timezone", sa.String(64), nullable=False),
        sa.Column("enabled", sa.Boolean(), nullable=False),
        sa.Column("overlap", sa.String(16), nullable=False),
        sa.Column("misfire", sa.String(16), nullable=False),
        sa.Column("template", sa.JSON(), nullable=False),
        sa.Column("next_run_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_by", sa.String(64), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_schedules"),
        sa.UniqueConstraint("name", name="uq_schedules_name"),
    )
    op.create_index("ix_schedules_enabled_next_run_at", "schedules", ["enabled", "next_run_at"])
    op.create_table(
        "schedule_firings",
        sa.Column(
            "id",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            autoincrement=True,
            nullable=False,
        ),
        sa.Column("schedule_id", sa.String(32), nullable=False),
        sa.Column("scheduled_for", sa.DateTime(timezone=True), nullable=False),
        sa.Column("fired_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("outcome", sa.String(16), nullable=False),
        sa.Column("experiment_id", sa.String(32), nullable=True),
        sa.Column("message", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["schedule_id"],
            ["schedules.id"],
            name="fk_schedule_firings_schedule_id_schedules",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_schedule_firings"),
        sa.UniqueConstraint(
            "schedule_id", "scheduled_for", name="uq_schedule_firings_schedule_id_scheduled_for"
        ),
    )
    op.create_index(
        "ix_schedule_firings_schedule_id_outcome", "schedule_firings", ["schedule_id", "outcome"]
    )


def downgrade() -> None:
    op.drop_table("schedule_firings")
    op.drop_table("schedules")
