"""Notes on an experiment and on a trial: free text a member writes (what was tried, why a
trial is odd), shown in the lists.

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-25
"""

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    for table in ("experiments", "trials"):
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column("notes", sa.Text(), nullable=True))


def downgrade() -> None:
    for table in ("trials", "experiments"):
        with op.batch_alter_table(table) as batch:
            batch.drop_column("notes")
