"""Search-space versions: an extension may change a sweep's space, and each trial says which
version it was sampled from.

``experiments.search_spaces`` holds every version once the space has changed (null while the
sweep has its first one only); ``trials.space_version`` is 1 for every trial stored before.
Plain ADD COLUMN (no batch copy): the tables keep their AUTOINCREMENT (migration 0017).

Revision ID: 0021
Revises: 0020
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("experiments", sa.Column("search_spaces", sa.JSON(), nullable=True))
    op.add_column(
        "trials", sa.Column("space_version", sa.Integer(), nullable=False, server_default="1")
    )


def downgrade() -> None:
    op.drop_column("trials", "space_version")
    op.drop_column("experiments", "search_spaces")
