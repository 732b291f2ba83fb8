"""final runs and the model registry: promoted trials, their results, model versions, aliases,
deployments

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-21
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def _stamp(name: str, nullable: bool = False) -> sa.Column:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "final_runs",
        sa.Column("id", BIG_ID, autoincrement=True, nullable=False),
        sa.Column("experiment_id", sa.String(32), nullable=False),
        sa.Column("trial_id", BIG_ID, nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("config", sa.JSON(), nullable=False),
        sa.Column("num_workers", sa.Integer(), nullable=False),
        sa.Column("epochs", sa.Integer(), nullable=False),
        sa.Column("warm_start_uri", sa.Text(), nullable=True),
        sa.Column("model_name", sa.String(128), nullable=False),
        sa.Column("cluster", sa.String(64), nullable=False),
        sa.Column("job_id", sa.String(128), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("restarts", sa.Integer(), nullable=False),
        sa.Column("worker_failures", sa.Integer(), nullable=False),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("metrics", sa.JSON(), nullable=True),
        sa.Column("test_metrics", sa.JSON(), nullable=True),
        sa.Column("checkpoint_uri", sa.Text(), nullable=True),
        _stamp("created_at"),
        _stamp("updated_at"),
        _stamp("started_at", nullable=True),
        _stamp("finished_at", nullable=True),
        sa.ForeignKeyConstraint(
            ["experiment_id"],
            ["experiments.id"],
            name="fk_final_runs_experiment_id_experiments",
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["trial_id"], ["trials.id"], name="fk_final_runs_trial_id_trials", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_final_runs"),
        sa.UniqueConstraint(
            "experiment_id", "trial_id", name="uq_final_runs_experiment_id_trial_id"
        ),
    )
    op.create_index("ix_final_runs_state", "final_runs", ["state"])
    op.create_table(
        "final_run_results",
        sa.Column("id", BIG_ID, autoincrement=True, nullable=False),
        sa.Column("final_run_id", BIG_ID, nullable=False),
        sa.Column("epoch", sa.Integer(), nullable=False),
        sa.Column("metrics", sa.JSON(), nullable=False),
        _stamp("reported_at"),
        sa.ForeignKeyConstraint(
            ["final_run_id"],
            ["final_runs.id"],
            name="fk_final_run_results_final_run_id_final_runs",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_final_run_results"),
        sa.UniqueConstraint(
            "final_run_id", "epoch", name="uq_final_run_results_final_run_id_epoch"
        ),
    )
    op.create_table(
        "model_versions",
        sa.Column("id", BIG_ID, autoincrement=True, nullable=False),
        sa.Column("name", sa.String(128), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("final_run_id", BIG_ID, nullable=False),
        sa.Column("experiment_id", sa.String(32), nullable=False),
        sa.Column("trial_id", BIG_ID, nullable=False),
        sa.Column("trainer", sa.String(128), nullable=False),
        sa.Column("config", sa.JSON(), nullable=False),
        sa.Column("metrics", sa.JSON(), nullable=False),
        sa.Column("test_metrics", sa.JSON(), nullable=True),
        sa.Column("checkpoint_uri", sa.Text(), nullable=False),
        sa.Column("code_version", sa.JSON(), nullable=False),
        sa.Column("data_fingerprint", sa.String(64), nullable=True),
        _stamp("created_at"),
        sa.ForeignKeyConstraint(
            ["final_run_id"],
            ["final_runs.id"],
            name="fk_model_versions_final_run_id_final_runs",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_model_versions"),
        sa.UniqueConstraint("final_run_id", name="uq_model_versions_final_run_id"),
        sa.UniqueConstraint("name", "version", name="uq_model_versions_name_version"),
    )
    op.create_table(
        "model_aliases",
        sa.Column("name", sa.String(128), nullable=False),
        sa.Column("alias", sa.String(64), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        _stamp("updated_at"),
        sa.PrimaryKeyConstraint("name", "alias", name="pk_model_aliases"),
    )
    op.create_table(
        "model_alias_history",
        sa.Column("id", BIG_ID, autoincrement=True, nullable=False),
        sa.Column("name", sa.String(128), nullable=False),
        sa.Column("alias", sa.String(64), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("previous_version", sa.Integer(), nullable=True),
        sa.Column("set_by", sa.String(64), nullable=True),
        _stamp("set_at"),
        sa.PrimaryKeyConstraint("id", name="pk_model_alias_history"),
    )
    op.create_index("ix_model_alias_history_name_alias", "model_alias_history", ["name", "alias"])

    op.create_table(
        "model_deployments",
        sa.Column("id", BIG_ID, autoincrement=True, nullable=False),
        sa.Column("name", sa.String(128), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("app_name", sa.String(160), nullable=False),
        sa.Column("cluster", sa.String(64), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("route_prefix", sa.String(300), nullable=False),
        sa.Column("url", sa.Text(), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("created_by", sa.String(64), nullable=True),
        _stamp("created_at"),
        _stamp("updated_at"),
        sa.PrimaryKeyConstraint("id", name="pk_model_deployments"),
        sa.UniqueConstraint("app_name", name="uq_model_deployments_app_name"),
    )
    op.create_index("ix_model_deployments_name_version", "model_deployments", ["name", "version"])


def downgrade() -> None:
    op.drop_table("model_deployments")
    op.drop_table("model_alias_history")
    op.drop_table("model_aliases")
    op.drop_table("model_versions")
    op.drop_table("final_run_results")
    op.drop_table("final_runs")
