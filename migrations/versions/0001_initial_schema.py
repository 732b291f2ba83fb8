"""initial schema

Revision ID: 0001
Revises:
Create Date: 2026-11-21
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "api_tokens",
        sa.Column(
            "id",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            autoincrement=True,
            nullable=False,
        ),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("prefix", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_used_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_api_tokens")),
        sa.UniqueConstraint("name", name=op.f("uq_api_tokens_name")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_api_tokens_token_hash")),
    )
    op.create_table(
        "experiments",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=128), nullable=False),
        sa.Column("trainer", sa.String(length=128), nullable=False),
        sa.Column("metric", sa.String(length=128), nullable=False),
        sa.Column("mode", sa.String(length=3), nullable=False),
        sa.Column("spec", sa.JSON(), nullable=False),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("created_by", sa.String(length=64), nullable=True),
        sa.Column("driver_job_id", sa.String(length=128), nullable=True),
        sa.Column("driver_restarts", sa.Integer(), nullable=False),
        sa.Column(
            "best_trial_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=True
        ),
        sa.Column("best_metric", sa.Float(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_experiments")),
    )
    with op.batch_alter_table("experiments", schema=None) as batch_op:
        batch_op.create_index("ix_experiments_created_at", ["created_at"], unique=False)
        batch_op.create_index(
            "ix_experiments_state_created_at", ["state", "created_at"], unique=False
        )

    op.create_table(
        "experiment_labels",
        sa.Column("experiment_id", sa.String(length=32), nullable=False),
        sa.Column("key", sa.String(length=63), nullable=False),
        sa.Column("value", sa.String(length=256), nullable=False),
        sa.ForeignKeyConstraint(
            ["experiment_id"],
            ["experiments.id"],
            name=op.f("fk_experiment_labels_experiment_id_experiments"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("experiment_id", "key", name=op.f("pk_experiment_labels")),
    )
    with op.batch_alter_table("experiment_labels", schema=None) as batch_op:
        batch_op.create_index("ix_experiment_labels_key_value", ["key", "value"], unique=False)

    op.create_table(
        "trials",
        sa.Column(
            "id",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            autoincrement=True,
            nullable=False,
        ),
        sa.Column("experiment_id", sa.String(length=32), nullable=False),
        sa.Column("tune_trial_id", sa.String(length=64), nullable=False),
        sa.Column("config", sa.JSON(), nullable=False),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("iteration", sa.Integer(), nullable=False),
        sa.Column("last_metric", sa.Float(), nullable=True),
        sa.Column("best_metric", sa.Float(), nullable=True),
        sa.Column("checkpoint_uri", sa.Text(), nullable=True),
        sa.Column("restarts", sa.Integer(), nullable=False),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["experiment_id"],
            ["experiments.id"],
            name=op.f("fk_trials_experiment_id_experiments"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_trials")),
        sa.UniqueConstraint(
            "experiment_id", "tune_trial_id", name=op.f("uq_trials_experiment_id_tune_trial_id")
        ),
    )
    with op.batch_alter_table("trials", schema=None) as batch_op:
        batch_op.create_index(
            "ix_trials_experiment_id_best_metric", ["experiment_id", "best_metric"], unique=False
        )
        batch_op.create_index(
            "ix_trials_experiment_id_state", ["experiment_id", "state"], unique=False
        )

    op.create_table(
        "checkpoints",
        sa.Column(
            "id",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            autoincrement=True,
            nullable=False,
        ),
        sa.Column("trial_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("iteration", sa.Integer(), nullable=False),
        sa.Column("uri", sa.Text(), nullable=False),
        sa.Column("metric", sa.Float(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("deleted", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["trial_id"],
            ["trials.id"],
            name=op.f("fk_checkpoints_trial_id_trials"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_checkpoints")),
        sa.UniqueConstraint(
            "trial_id", "iteration", name=op.f("uq_checkpoints_trial_id_iteration")
        ),
    )
    op.create_table(
        "events",
        sa.Column(
            "id",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            autoincrement=True,
            nullable=False,
        ),
        sa.Column("experiment_id", sa.String(length=32), nullable=False),
        sa.Column("trial_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=True),
        sa.Column("kind", sa.String(length=64), nullable=False),
        sa.Column("message", sa.Text(), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["experiment_id"],
            ["experiments.id"],
            name=op.f("fk_events_experiment_id_experiments"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["trial_id"], ["trials.id"], name=op.f("fk_events_trial_id_trials"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_events")),
    )
    with op.batch_alter_table("events", schema=None) as batch_op:
        batch_op.create_index("ix_events_experiment_id_id", ["experiment_id", "id"], unique=False)

    # experiments <-> trials is a cycle: the best-trial key is added once both tables exist
    with op.batch_alter_table("experiments", schema=None) as batch_op:
        batch_op.create_foreign_key(
            op.f("fk_experiments_best_trial_id_trials"),
            "trials",
            ["best_trial_id"],
            ["id"],
            ondelete="SET NULL",
        )

    op.create_table(
        "trial_results",
        sa.Column(
            "id",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            autoincrement=True,
            nullable=False,
        ),
        sa.Column("trial_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("iteration", sa.Integer(), nullable=False),
        sa.Column("metrics", sa.JSON(), nullable=False),
        sa.Column("reported_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["trial_id"],
            ["trials.id"],
            name=op.f("fk_trial_results_trial_id_trials"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_trial_results")),
        sa.UniqueConstraint(
            "trial_id", "iteration", name=op.f("uq_trial_results_trial_id_iteration")
        ),
    )


def downgrade() -> None:
    op.drop_table("trial_results")
    with op.batch_alter_table("events", schema=None) as batch_op:
        batch_op.drop_index("ix_events_experiment_id_id")

    op.drop_table("events")
    op.drop_table("checkpoints")
    with op.batch_alter_table("experiments", schema=None) as batch_op:
        batch_op.drop_constraint(op.f("fk_experiments_best_trial_id_trials"), type_="foreignkey")

    with op.batch_alter_table("trials", schema=None) as batch_op:
        batch_op.drop_index("ix_trials_experiment_id_state")
        batch_op.drop_index("ix_trials_experiment_id_best_metric")

    op.drop_table("trials")
    with op.batch_alter_table("experiment_labels", schema=None) as batch_op:
        batch_op.drop_index("ix_experiment_labels_key_value")

    op.drop_table("experiment_labels")
    with op.batch_alter_table("experiments", schema=None) as batch_op:
        batch_op.drop_index("ix_experiments_state_created_at")
        batch_op.drop_index("ix_experiments_created_at")

    op.drop_table("experiments")
    op.drop_table("api_tokens")
