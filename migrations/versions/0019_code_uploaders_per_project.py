"""Who uploaded a code package is kept per project holding it.

Packages are stored by content, so the same archive uploaded in two projects is one package; its
one ``uploaded_by`` told a member of the second project who had uploaded it in the first. The
uploader now lives on ``code_package_projects`` (who brought the package into that project).
Rows of a package only one project holds take its uploader; where several projects held it
before, which of them the uploader belonged to is not known, so theirs stay empty.

Revision ID: 0019
Revises: 0018
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("code_package_projects") as batch:
        batch.add_column(sa.Column("uploaded_by", sa.String(64), nullable=True))
    op.execute(
        "UPDATE code_package_projects SET uploaded_by = (SELECT p.uploaded_by FROM code_packages p "
        "WHERE p.sha256 = code_package_projects.sha256) WHERE (SELECT COUNT(*) FROM "
        "code_package_projects o WHERE o.sha256 = code_package_projects.sha256) = 1"
    )
    with op.batch_alter_table("code_packages") as batch:
        batch.drop_column("uploaded_by")


def downgrade() -> None:
    with op.batch_alter_table("code_packages") as batch:
        batch.add_column(sa.Column("uploaded_by", sa.String(64), nullable=True))
    op.execute(
        "UPDATE code_packages SET uploaded_by = (SELECT MIN(o.uploaded_by) FROM "
        "code_package_projects o WHERE o.sha256 = code_packages.sha256)"
    )
    with op.batch_alter_table("code_package_projects") as batch:
        batch.drop_column("uploaded_by")
