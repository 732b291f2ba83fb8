"""Final runs as the API reads them (a sweep's list, one, its results) and their cancelling."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from raysweep.lifecycle import (
    FinalRunState,
)
from raysweep.registry import FinalRunRead
from raysweep.schemas import Page, ResultRead
from service.db import repositories as repo
from service.db.models.registry import FinalRunResultRow, FinalRunRow, ModelVersionRow
from service.errors import Conflict, NotFound
from service.states import move_final_run


def to_read(session: Session, row: FinalRunRow) -> FinalRunRead:
    version = session.scalar(
        select(ModelVersionRow.version).where(ModelVersionRow.final_run_id == row.id)
    )
    return FinalRunRead.model_validate(
        {
            **{c: getattr(row, c) for c in FinalRunRead.model_fields if hasattr(row, c)},
            "model_version": version,
        }
    )


def list_final_runs(db: sessionmaker[Session], experiment_id: str) -> Page[FinalRunRead]:
    with db.begin() as session:
        repo.get_experiment_row(session, experiment_id)
        rows = session.scalars(
            select(FinalRunRow)
            .where(FinalRunRow.experiment_id == experiment_id)
            .order_by(FinalRunRow.rank, FinalRunRow.id)
        ).all()
        items = [to_read(session, row) for row in rows]
    return Page.whole(items)


def get_final_run_row(session: Session, final_run_id: int) -> FinalRunRow:
    row = session.get(FinalRunRow, final_run_id)
    if row is None:
        raise NotFound(f"final run {final_run_id} not found")
    return row


def get_final_run(db: sessionmaker[Session], final_run_id: int) -> FinalRunRead:
    with db.begin() as session:
        return to_read(session, get_final_run_row(session, final_run_id))


def cancel_final_run(db: sessionmaker[Session], final_run_id: int, by: str | None) -> FinalRunRead:
    """Idempotent: a queued final run is cancelled at once; a running one moves to
    ``cancelling`` and the controller stops its job (a run that ends first keeps its outcome).
    Cancelling a finished one is a ``Conflict``."""
    with db.begin() as session:
        row = session.get(FinalRunRow, final_run_id, with_for_update=True)
        if row is None:
            raise NotFound(f"final run {final_run_id} not found")
        if row.state.is_final:
            raise Conflict(f"final run {final_run_id} is {row.state}: there is nothing to cancel")
        request_final_run_cancel(session, row, f"cancel requested by {by or 'unknown'}")
        session.flush()
        return to_read(session, row)


def request_final_run_cancel(session: Session, row: FinalRunRow, reason: str) -> None:
    """Cancel ``row`` (locked by the caller, not final) as ``cancel_final_run`` does."""
    if row.state == FinalRunState.cancelling:
        return
    if row.state == FinalRunState.queued:
        move_final_run(row, FinalRunState.cancelled)
        kind, message = "final_run_cancelled", f"final run {row.id}: {reason}; cancelled queued"
    else:
        move_final_run(row, FinalRunState.cancelling)
        kind, message = "final_run_cancel_requested", f"final run {row.id}: {reason}"
    repo.add_event(session, row.experiment_id, kind, message, data={"final_run_id": row.id})


def final_run_results(db: sessionmaker[Session], final_run_id: int) -> Page[ResultRead]:
    with db.begin() as session:
        get_final_run_row(session, final_run_id)
        rows = session.scalars(
            select(FinalRunResultRow)
            .where(FinalRunResultRow.final_run_id == final_run_id)
            .order_by(FinalRunResultRow.epoch)
        ).all()
        items = [
            ResultRead(iteration=r.epoch, metrics=r.metrics, reported_at=r.reported_at)
            for r in rows
        ]
    return Page.whole(items)
