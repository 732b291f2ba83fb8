"""Indexes on trials.updated_at, alone and per experiment: the API's cached reads are keyed on
the latest trial change (of one experiment, or of all for the experiment list), which these
make an index lookup instead of a scan of the experiment's trials.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-25
"""

from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_trials_experiment_id_updated_at", "trials", ["experiment_id", "updated_at"])
    op.create_index("ix_trials_updated_at", "trials", ["updated_at"])


def downgrade() -> None:
    op.drop_index("ix_trials_updated_at", table_name="trials")
    op.drop_index("ix_trials_experiment_id_updated_at", table_name="trials")
