"""Projects: every experiment, schedule, code package and model version belongs to one; tokens
hold a role per project (an admin token stays admin everywhere). Each project has a weight for
fair share, optional quotas and monthly budgets. The compute ledger records what each worker
group held and for how long. Everything that exists is put in the ``default`` project, and every
non-admin token gets its role there.

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-25
"""

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None

OWNED = ("experiments", "schedules", "model_versions")


def upgrade() -> None:
    op.create_table(
        "projects",
        sa.Column("name", sa.String(63), primary_key=True),
        sa.Column("description", sa.Text(), nullable=True),
        sa.Column("weight", sa.Float(), nullable=False, server_default="1"),
        sa.Column("max_workers", sa.Integer(), nullable=True),
        sa.Column("max_cpus", sa.Float(), nullable=True),
        sa.Column("max_gpus", sa.Float(), nullable=True),
        sa.Column("max_queued", sa.Integer(), nullable=True),
        sa.Column("monthly_worker_hours", sa.Float(), nullable=True),
        sa.Column("monthly_gpu_hours", sa.Float(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.execute(
        "INSERT INTO projects (name, description, weight, created_at, updated_at) VALUES "
        "('default', 'Everything made before projects existed', 1, CURRENT_TIMESTAMP, "
        "CURRENT_TIMESTAMP)"
    )
    for table in OWNED:
        with op.batch_alter_table(table) as batch:
            batch.add_column(
                sa.Column(
                    "project",
                    sa.String(63),
                    sa.ForeignKey("projects.name", name=f"fk_{table}_project_projects"),
                    nullable=False,
                    server_default="default",
                )
            )
            batch.create_index(f"ix_{table}_project", ["project"])
    op.create_table(
        "code_package_projects",
        sa.Column(
            "sha256",
            sa.String(64),
            sa.ForeignKey("code_packages.sha256", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("project", sa.String(63), sa.ForeignKey("projects.name"), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.execute(
        "INSERT INTO code_package_projects (sha256, project, created_at) "
        "SELECT sha256, 'default', created_at FROM code_packages"
    )
    op.create_table(
        "token_projects",
        sa.Column(
            "token_id",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            sa.ForeignKey("api_tokens.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("project", sa.String(63), sa.ForeignKey("projects.name"), primary_key=True),
        sa.Column("role", sa.String(16), nullable=False),
    )
    op.execute(
        "INSERT INTO token_projects (token_id, project, role) "
        "SELECT id, 'default', role FROM api_tokens WHERE role <> 'admin'"
    )
    op.create_table(
        "compute_usage",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), primary_key=True),
        # the gate's lease key (owner/label/holder) and when the lease was granted: one row per
        # held worker group, written again as it goes on
        sa.Column("lease", sa.String(255), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("holding", sa.Boolean(), nullable=False),
        # ended_at - started_at, kept so sums need no date arithmetic (which each database
        # spells differently)
        sa.Column("seconds", sa.Float(), nullable=False),
        sa.Column("project", sa.String(63), nullable=False),
        sa.Column(
            "experiment_id",
            sa.String(32),
            sa.ForeignKey("experiments.id", ondelete="CASCADE"),
            nullable=True,
        ),
        sa.Column("trial_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=True),
        sa.Column(
            "final_run_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=True
        ),
        sa.Column("workers", sa.Integer(), nullable=False),
        sa.Column("cpus", sa.Float(), nullable=False),
        sa.Column("gpus", sa.Float(), nullable=False),
        sa.UniqueConstraint("lease", "started_at", name="uq_compute_usage_lease_started_at"),
    )
    op.create_index(
        "ix_compute_usage_project_started_at", "compute_usage", ["project", "started_at"]
    )
    op.create_index("ix_compute_usage_experiment_id", "compute_usage", ["experiment_id"])
    op.create_index("ix_compute_usage_trial_id", "compute_usage", ["trial_id"])


def downgrade() -> None:
    op.drop_table("compute_usage")
    op.drop_table("token_projects")
    op.drop_table("code_package_projects")
    for table in reversed(OWNED):
        with op.batch_alter_table(table) as batch:
            batch.drop_index(f"ix_{table}_project")
            batch.drop_constraint(f"fk_{table}_project_projects", type_="foreignkey")
            batch.drop_column("project")
    op.drop_table("projects")
