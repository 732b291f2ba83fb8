"""deployment keys: model_deployments.key_sha256, the hash of the bearer key a deployed model's
endpoint asks for (the key itself is shown once, in the answer to the deploy)

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-24
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("model_deployments") as batch:
        batch.add_column(sa.Column("key_sha256", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("model_deployments") as batch:
        batch.drop_column("key_sha256")
