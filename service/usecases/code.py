"""Code package use cases: upload (checked, stored content-addressed), read, list."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from raysweep.schemas import CodePackageRead, Page
from service.db import repositories as repo
from service.db.models import CodePackageProjectRow, CodePackageRow
from service.errors import NotFound
from service.package_check import check_isolated
from service.packages import module_name
from service.storage import code_package_uri, exists, write_bytes


def to_read(row: CodePackageRow) -> CodePackageRead:
    return CodePackageRead(
        sha256=row.sha256,
        size_bytes=row.size_bytes,
        files=row.files,
        modules=sorted(module_name(path) for path in row.python_files),
        uploaded_by=row.uploaded_by,
        created_at=row.created_at,
    )


def held_by(session: Session, sha256: str, project: str) -> bool:
    """Record that the project holds the package; whether it did not before."""
    if session.get(CodePackageProjectRow, (sha256, project)) is not None:
        return False
    session.add(CodePackageProjectRow(sha256=sha256, project=project))
    session.flush()
    return True


def upload_code(
    db: sessionmaker[Session],
    storage_root: str,
    data: bytes,
    uploaded_by: str | None,
    project: str,
) -> tuple[CodePackageRead, bool]:
    """Check the archive (raising ``InvalidInput``), store its zip, record it in the project;
    (package, new to the project?). Content is stored once whatever the projects holding it.

    Storage is written before the row: a row always has its file, and a file left without a row
    by a failure is simply overwritten by the next upload of the same content."""
    package = check_isolated(data)
    with db.begin() as session:
        existing = session.get(CodePackageRow, package.sha256)
        if existing is not None and exists(code_package_uri(storage_root, package.sha256)):
            return to_read(existing), held_by(session, package.sha256, project)
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
                    uploaded_by=uploaded_by,
                )
                session.add(row)
                session.flush()
            return to_read(row), held_by(session, package.sha256, project)
    except IntegrityError:  # the same package uploaded concurrently: theirs is ours
        with db.begin() as session:
            held_by(session, package.sha256, project)
        return read_code(db, package.sha256), False


def read_code(db: sessionmaker[Session], sha256: str) -> CodePackageRead:
    with db.begin() as session:
        row = session.get(CodePackageRow, sha256)
        if row is None:
            raise NotFound(f"no code package {sha256}")
        return to_read(row)


def list_code(
    db: sessionmaker[Session], limit: int, offset: int, projects: list[str] | None = None
) -> Page[CodePackageRead]:
    """Newest first; ``projects``: the packages they hold only."""
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
        return repo.page(session, query, limit, offset, to_read)


def python_files_of(session: Session, sha256: str, project: str) -> dict[str, str | None] | None:
    """A package's parsed .py files (for checking a spec's entrypoint); None unless the project
    holds it."""
    if session.get(CodePackageProjectRow, (sha256, project)) is None:
        return None
    row = session.get(CodePackageRow, sha256)
    return None if row is None else dict(row.python_files)
