"""A deployment is bound to its model version's id, and at most one per version is active.

It was bound to (name, version): a deployment outlived its sweep's deletion and attached to the
next version that got the same name and number. ``model_version_id`` (SET NULL when the version
goes) binds it to the version itself; a partial unique index keeps one deployment that is not
``deleted`` per version, however many requests race.

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None

ACTIVE = sa.text("state != 'deleted'")


def upgrade() -> None:
    with op.batch_alter_table("model_deployments") as batch:
        batch.add_column(
            sa.Column(
                "model_version_id",
                sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
                nullable=True,
            )
        )
        batch.create_foreign_key(
            "fk_model_deployments_model_version_id_model_versions",
            "model_versions",
            ["model_version_id"],
            ["id"],
            ondelete="SET NULL",
        )
    op.execute(
        "UPDATE model_deployments SET model_version_id = (SELECT v.id FROM model_versions v "
        "WHERE v.name = model_deployments.name AND v.version = model_deployments.version)"
    )
    # a deployment whose version is gone, or a second active one of a version, is over
    op.execute(
        "UPDATE model_deployments SET state = 'deleted' WHERE state != 'deleted' AND "
        "(model_version_id IS NULL OR id NOT IN (SELECT MAX(id) FROM model_deployments "
        "WHERE state != 'deleted' GROUP BY model_version_id))"
    )
    op.create_index(
        "uq_model_deployments_active_version",
        "model_deployments",
        ["model_version_id"],
        unique=True,
        sqlite_where=ACTIVE,
        postgresql_where=ACTIVE,
    )


def downgrade() -> None:
    op.drop_index("uq_model_deployments_active_version", table_name="model_deployments")
    with op.batch_alter_table("model_deployments") as batch:
        batch.drop_constraint(
            "fk_model_deployments_model_version_id_model_versions", type_="foreignkey"
        )
        batch.drop_column("model_version_id")
