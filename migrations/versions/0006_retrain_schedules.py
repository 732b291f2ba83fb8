"""retrain schedules: final runs for retraining (many per trial), champion/challenger records

A final run is now a promotion (unique per trial, as before) or a retrain (a schedule firing's;
any number per trial): the unique key becomes a partial unique index on promotions.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-21
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

PROMOTIONS = sa.text("purpose = 'promotion'")


def upgrade() -> None:
    with op.batch_alter_table("final_runs") as batch:
        batch.add_column(
            sa.Column("purpose", sa.String(16), nullable=False, server_default="promotion")
        )
        batch.add_column(sa.Column("challenge", sa.JSON(), nullable=True))
        batch.drop_constraint("uq_final_runs_experiment_id_trial_id", type_="unique")
    with op.batch_alter_table("final_runs") as batch:
        batch.alter_column("purpose", server_default=None)
    op.create_index(
        "uq_final_runs_promotion",
        "final_runs",
        ["experiment_id", "trial_id"],
        unique=True,
        sqlite_where=PROMOTIONS,
        postgresql_where=PROMOTIONS,
    )
    with op.batch_alter_table("model_versions") as batch:
        batch.add_column(sa.Column("comparison", sa.JSON(), nullable=True))
    with op.batch_alter_table("schedules") as batch:
        batch.alter_column("template", existing_type=sa.JSON(), nullable=True)
        batch.add_column(sa.Column("retrain", sa.JSON(), nullable=True))
    with op.batch_alter_table("schedule_firings") as batch:
        batch.add_column(sa.Column("final_run_id", sa.BigInteger(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("schedule_firings") as batch:
        batch.drop_column("final_run_id")
    op.execute("DELETE FROM schedules WHERE kind = 'retrain'")
    with op.batch_alter_table("schedules") as batch:
        batch.drop_column("retrain")
        batch.alter_column("template", existing_type=sa.JSON(), nullable=False)
    with op.batch_alter_table("model_versions") as batch:
        batch.drop_column("comparison")
    op.drop_index("uq_final_runs_promotion", table_name="final_runs")
    op.execute("DELETE FROM final_runs WHERE purpose <> 'promotion'")
    with op.batch_alter_table("final_runs") as batch:
        batch.create_unique_constraint(
            "uq_final_runs_experiment_id_trial_id", ["experiment_id", "trial_id"]
        )
        batch.drop_column("challenge")
        batch.drop_column("purpose")
