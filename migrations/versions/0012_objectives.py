"""trials.objective_values: the trial's latest values of every objective and constrained metric
(the Pareto front and promotion's pick read them without scanning results); trials.feasible:
whether that latest result keeps the spec's constraints (null: the sweep has none).

Trials recorded before this have neither: a multi-objective front and the constraints apply to
sweeps started after it.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-24
"""

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("trials") as batch:
        batch.add_column(sa.Column("objective_values", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("feasible", sa.Boolean(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("trials") as batch:
        batch.drop_column("feasible")
        batch.drop_column("objective_values")
