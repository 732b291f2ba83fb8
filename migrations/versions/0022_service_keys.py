"""Keys the service's processes share: the one that signs the tokens Ray jobs (sweep drivers,
final runs) write through the API with, so every server on the database accepts the tokens any
of them minted. Created by the first process that needs it.

Revision ID: 0022
Revises: 0021
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "service_keys",
        sa.Column("name", sa.String(64), primary_key=True),
        sa.Column("value", sa.String(128), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("service_keys")
