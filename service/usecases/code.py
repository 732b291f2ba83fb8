"""Code package use cases: upload (checked, stored content-addressed), read, list."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from raysweep.code_ref import CodePackageRead
from raysweep.schemas import Page
from service.db import repositories as repo
from service.db.models.access import CodePackageProjectRow, CodePackageRow
from service.errors import NotFound
from service.package_check import check_isolated
from service.packages import module_name
from service.storage import code_package_uri, exists, write_bytes


def to_read(row: CodePackageRow, holding: CodePackageProjectRow | None) -> CodePackageRead:
    """The package as one of its holding projects sees it: who uploaded it there, and when it
    came in (None: an admin's view of a package no project holds any more)."""
    return CodePackageRead(
        sha256=row.sha256,
        size_bytes=row.size_bytes,
        files=row.files,
        modules=sorted(module_name(path) for path in row.python_files),
        uploaded_by=holding.uploaded_by if holding is not None else None,
        created_at=holding.created_at if holding is not None else row.created_at,
    )


def held_by(
    session: Session, sha256: str, project: str, uploaded_by: str | None
) -> tuple[CodePackageProjectRow, bool]:
    """The project's holding of the package, recorded (with its uploader) if it held none;
    whether it is new."""
    holding = session.get(CodePackageProjectRow, (sha256, project))
    if holding is not None:
        return holding, False
    holding = CodePackageProjectRow(sha256=sha256, project=project, uploaded_by=uploaded_by)
    session.add(holding)
    session.flush()
    return holding, True


def upload_code(
    db: sessionmaker[Session],
    storage_root: str,
    data: bytes,
    uploaded_by: str | None,
    project: str,
) -> tuple[CodePackageRead, bool]:
    """Check the archive (raising ``InvalidInput``), store its zip, record it in the project;
    (package as the project holds it, new to the project?). Content is stored once whatever the
    projects holding it; who uploaded it is the project's own.

    Storage is written before the row: a row always has its file, and a file left without a row
    by a failure is simply overwritten by the next upload of the same content."""
    package = check_isolated(data)
    with db.begin() as session:
        existing = session.get(CodePackageRow, package.sha256)
        if existing is not None and exists(code_package_uri(storage_root, package.sha256)):
            holding, new = held_by(session, package.sha256, project, uploaded_by)
            return to_read(existing, holding), new
    write_bytes(code_package_uri(storage_root, package.sha256), package.archive)
    try:
        with db.begin() as session:
            row = session.get(CodePackageRow, package.sha256)
            if row is None:
                row = CodePackageRow(
                    sha256=package.sha256,
                    size_bytes=len(package.archive),
                    files=package.files,
                    python_files=package.python_files,
                )
                session.add(row)
                session.flush()
            holding, new = held_by(session, package.sha256, project, uploaded_by)
            return to_read(row, holding), new
    except IntegrityError:  # the same package uploaded concurrently: theirs is ours
        with db.begin() as session:
            holding, new = held_by(session, package.sha256, project, uploaded_by)
            return to_read(session.get_one(CodePackageRow, package.sha256), holding), new


def holdings(
    session: Session, sha256s: list[str], projects: list[str] | None
) -> dict[str, CodePackageProjectRow]:
    """Each package's first holding among these projects (None: any project)."""
    query = select(CodePackageProjectRow).where(CodePackageProjectRow.sha256.in_(sha256s))
    if projects is not None:
        query = query.where(CodePackageProjectRow.project.in_(projects))
    first: dict[str, CodePackageProjectRow] = {}
    for holding in session.scalars(query.order_by(CodePackageProjectRow.created_at.desc())):
        first[holding.sha256] = holding
    return first


def read_code(
    db: sessionmaker[Session], sha256: str, projects: list[str] | None
) -> CodePackageRead:
    """The package as the first of these projects (None: any) to hold it sees it."""
    with db.begin() as session:
        row = session.get(CodePackageRow, sha256)
        if row is None:
            raise NotFound(f"no code package {sha256}")
        return to_read(row, holdings(session, [sha256], projects).get(sha256))


def list_code(
    db: sessionmaker[Session], limit: int, offset: int, projects: list[str] | None = None
) -> Page[CodePackageRead]:
    """Newest first; ``projects``: the packages they hold only, as they hold them."""
    query = select(CodePackageRow).order_by(CodePackageRow.created_at.desc(), CodePackageRow.sha256)
    if projects is not None:
        query = query.where(
            CodePackageRow.sha256.in_(
                select(CodePackageProjectRow.sha256).where(
                    CodePackageProjectRow.project.in_(projects)
                )
            )
        )
    with db.begin() as session:

        def read_rows(rows: Sequence[CodePackageRow]) -> list[CodePackageRead]:
            held = holdings(session, [row.sha256 for row in rows], projects)
            return [to_read(row, held.get(row.sha256)) for row in rows]

        return repo.page_rows(session, query, limit, offset, read_rows)


def python_files_of(session: Session, sha256: str, project: str) -> dict[str, str | None] | None:
    """A package's parsed .py files (for checking a spec's entrypoint); None unless the project
    holds it."""
    if session.get(CodePackageProjectRow, (sha256, project)) is None:
        return None
    row = session.get(CodePackageRow, sha256)
    return None if row is None else dict(row.python_files)
