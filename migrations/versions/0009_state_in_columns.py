"""state in columns, not events: experiments.stop_requested_at (when the latest cancel or pause
was asked for: the reconciler's grace period counts from it) and experiments.promotion
(promoted | skipped: whether the promoter has dealt with a completed sweep). Both are filled
from the events that carried them until now.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-24
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("experiments") as batch:
        batch.add_column(sa.Column("stop_requested_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("promotion", sa.String(16), nullable=True))
    op.execute(
        """
        UPDATE experiments SET stop_requested_at = (
            SELECT max(events.created_at) FROM events
            WHERE events.experiment_id = experiments.id
              AND events.kind IN ('cancel_requested', 'pause_requested')
        )
        WHERE state IN ('cancelling', 'pausing')
        """
    )
    op.execute(
        """
        UPDATE experiments SET promotion = CASE
            WHEN EXISTS (SELECT 1 FROM events WHERE events.experiment_id = experiments.id
                         AND events.kind = 'promoted') THEN 'promoted'
            ELSE 'skipped' END
        WHERE EXISTS (SELECT 1 FROM events WHERE events.experiment_id = experiments.id
                      AND events.kind IN ('promoted', 'promotion_skipped'))
        """
    )


def downgrade() -> None:
    with op.batch_alter_table("experiments") as batch:
        batch.drop_column("promotion")
        batch.drop_column("stop_requested_at")
