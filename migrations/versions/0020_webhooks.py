"""Webhooks per project and their deliveries (the outbox).

A delivery row is written in the transaction that makes its event happen, so an event is never
lost to a server that dies before sending it; the controller's webhook sender sends and retries
them. Both tables' ids are addressed by the API: AUTOINCREMENT on SQLite (migration 0017).

Revision ID: 0020
Revises: 0019
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None

BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "webhooks",
        sa.Column("id", BIG_ID, primary_key=True, autoincrement=True),
        sa.Column(
            "project",
            sa.String(63),
            sa.ForeignKey("projects.name", name="fk_webhooks_project_projects"),
            nullable=False,
        ),
        sa.Column("url", sa.Text(), nullable=False),
        sa.Column("events", sa.JSON(), nullable=False),
        sa.Column("secret", sa.String(256), nullable=False),
        sa.Column("format", sa.String(8), nullable=False),
        sa.Column("enabled", sa.Boolean(), nullable=False),
        sa.Column("created_by", sa.String(64), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_webhooks"),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_webhooks_project", "webhooks", ["project"])
    op.create_table(
        "webhook_deliveries",
        sa.Column("id", BIG_ID, primary_key=True, autoincrement=True),
        sa.Column(
            "webhook_id",
            BIG_ID,
            sa.ForeignKey(
                "webhooks.id",
                name="fk_webhook_deliveries_webhook_id_webhooks",
                ondelete="CASCADE",
            ),
            nullable=False,
        ),
        sa.Column("event", sa.String(32), nullable=False),
        sa.Column("subject", sa.String(160), nullable=True),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_attempt_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("delivered_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("response_code", sa.Integer(), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_webhook_deliveries"),
        sqlite_autoincrement=True,
    )
    op.create_index(
        "ix_webhook_deliveries_state_next_attempt_at",
        "webhook_deliveries",
        ["state", "next_attempt_at"],
    )
    op.create_index(
        "ix_webhook_deliveries_webhook_id_id", "webhook_deliveries", ["webhook_id", "id"]
    )
    op.create_index(
        "ix_webhook_deliveries_webhook_id_event_subject",
        "webhook_deliveries",
        ["webhook_id", "event", "subject"],
    )


def downgrade() -> None:
    op.drop_table("webhook_deliveries")
    op.drop_table("webhooks")
