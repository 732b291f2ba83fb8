"""Model registry use cases: versions registered by finished final runs, and aliases (serving
a version: ``deployments``)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from raysweep.mode import Mode
from raysweep.registry import AliasRead, ModelRead, ModelVersionRead
from raysweep.schedules import ScheduleKind
from raysweep.schemas import Page
from service.db.base import MAX_INT
from service.db.models.registry import (
    FinalRunRow,
    ModelAliasHistoryRow,
    ModelAliasRow,
    ModelVersionRow,
)
from service.db.models.schedules import ScheduleRow
from service.db.models.sweeps import ExperimentRow
from service.errors import Conflict, NotFound


def register_version(
    session: Session,
    final_run: FinalRunRow,
    trainer: str,
    code_version: dict[str, Any],
    data_fingerprint: str | None,
) -> ModelVersionRow:
    """The next version of the final run's model name, with its lineage. The caller's
    transaction holds the final run's row lock; (name, version) is unique, so two runs
    registering at once cannot share a number (the loser's transaction fails and is retried)."""
    latest = session.scalar(
        select(func.max(ModelVersionRow.version)).where(
            ModelVersionRow.name == final_run.model_name
        )
    )
    if final_run.checkpoint_uri is None or final_run.metrics is None:
        raise ValueError(f"final run {final_run.id} has no checkpoint or metrics to register")
    row = ModelVersionRow(
        name=final_run.model_name,
        version=(latest or 0) + 1,
        final_run_id=final_run.id,
        experiment_id=final_run.experiment_id,
        trial_id=final_run.trial_id,
        trainer=trainer,
        config=final_run.config,
        metrics=final_run.metrics,
        test_metrics=final_run.test_metrics,
        checkpoint_uri=final_run.checkpoint_uri,
        code_version=code_version,
        data_fingerprint=data_fingerprint,
        project=session.scalar(
            select(ExperimentRow.project).where(ExperimentRow.id == final_run.experiment_id)
        ),
    )
    session.add(row)
    session.flush()
    return row


def _aliases(session: Session, name: str) -> dict[str, int]:
    rows = session.scalars(select(ModelAliasRow).where(ModelAliasRow.name == name))
    return {row.alias: row.version for row in rows}


def _version_read(row: ModelVersionRow, aliases: dict[str, int]) -> ModelVersionRead:
    read = ModelVersionRead.model_validate(row)
    return read.model_copy(
        update={"aliases": sorted(a for a, v in aliases.items() if v == row.version)}
    )


def list_models(db: sessionmaker[Session], projects: list[str] | None = None) -> list[ModelRead]:
    """Every model (``projects``: theirs only), by name."""
    # a model name is one project's for good: every version has the same project
    query = select(
        ModelVersionRow.name,
        func.max(ModelVersionRow.project),
        func.max(ModelVersionRow.version),
        func.count(),
    )
    if projects is not None:
        query = query.where(ModelVersionRow.project.in_(projects))
    with db.begin() as session:
        rows = session.execute(
            query.group_by(ModelVersionRow.name).order_by(ModelVersionRow.name)
        ).all()
        return [
            ModelRead(
                name=name,
                project=project,
                latest_version=latest,
                versions=count,
                aliases=_aliases(session, name),
            )
            for name, project, latest, count in rows
        ]


def list_versions(db: sessionmaker[Session], name: str) -> Page[ModelVersionRead]:
    with db.begin() as session:
        rows = session.scalars(
            select(ModelVersionRow)
            .where(ModelVersionRow.name == name)
            .order_by(ModelVersionRow.version.desc())
        ).all()
        if not rows:
            raise NotFound(f"no model named {name!r}")
        aliases = _aliases(session, name)
        items = [_version_read(row, aliases) for row in rows]
    return Page.whole(items)


def version_row(session: Session, name: str, version_or_alias: str) -> ModelVersionRow:
    # ASCII digits only ("²" is a digit to str.isdigit, not to int); a number past the column's
    # range names no version, as an unknown alias does (-1)
    if version_or_alias.isascii() and version_or_alias.isdigit():
        number = int(version_or_alias)
        version = number if number <= MAX_INT else -1
    else:
        version = _aliases(session, name).get(version_or_alias, -1)
    row = session.scalars(
        select(ModelVersionRow).where(
            ModelVersionRow.name == name, ModelVersionRow.version == version
        )
    ).one_or_none()
    if row is None:
        must_exist(session, name)
        raise NotFound(f"model {name!r} has no version or alias {version_or_alias!r}")
    return row


def must_exist(session: Session, name: str) -> None:
    """``NotFound`` for a name without versions, in the words the project check uses for
    another project's model (so the two read the same)."""
    if (
        session.scalar(select(ModelVersionRow.id).where(ModelVersionRow.name == name).limit(1))
        is None
    ):
        raise NotFound(f"no model named {name!r}")


def get_version(db: sessionmaker[Session], name: str, version_or_alias: str) -> ModelVersionRead:
    with db.begin() as session:
        return _version_read(version_row(session, name, version_or_alias), _aliases(session, name))


def set_alias(
    db: sessionmaker[Session], name: str, alias: str, version: int, set_by: str | None
) -> AliasRead:
    """Point ``alias`` at ``version`` (moving it from its previous holder); history is kept."""
    with db.begin() as session:
        version_row(session, name, str(version))
        move_alias(session, name, alias, version, set_by)
    return get_alias(db, name, alias)


def move_alias(session: Session, name: str, alias: str, version: int, set_by: str | None) -> None:
    row = session.get(ModelAliasRow, (name, alias), with_for_update=True)
    if row is None:
        try:
            with session.begin_nested():  # a racing request may create the alias meanwhile
                session.add(ModelAliasRow(name=name, alias=alias, version=version))
        except IntegrityError:  # it did: move theirs, as if it had been there
            row = session.get(
                ModelAliasRow, (name, alias), with_for_update=True, populate_existing=True
            )
    previous = row.version if row is not None else None
    if row is not None:
        row.version = version
    session.add(
        ModelAliasHistoryRow(
            name=name, alias=alias, version=version, previous_version=previous, set_by=set_by
        )
    )
    session.flush()


def delete_alias(db: sessionmaker[Session], name: str, alias: str) -> None:
    """Remove ``alias`` from its version (its history stays), so the version, and the sweep it
    came from, can be deleted. Refused (``Conflict`` naming them) while a retrain schedule
    follows the alias: each of its firings would fail for want of a champion."""
    with db.begin() as session:
        row = session.get(ModelAliasRow, (name, alias), with_for_update=True)
        if row is None:
            must_exist(session, name)
            raise NotFound(f"model {name!r} has no alias {alias!r}")
        followers = [
            f"{schedule.name} ({schedule.id})"
            for schedule in session.scalars(
                select(ScheduleRow)
                .where(ScheduleRow.kind == ScheduleKind.retrain)
                .order_by(ScheduleRow.name)
            )
            # retrain settings are stored whole (alias included), as JSON: compared here
            if (schedule.retrain or {}).get("model") == name
            and (schedule.retrain or {}).get("alias") == alias
        ]
        if followers:
            raise Conflict(
                f"retrain schedule {', '.join(followers)} follows alias {alias!r} of model "
                f"{name!r}: delete the schedule first, or move the alias instead"
            )
        session.delete(row)


def beats(challenger: float, champion: float, mode: str, margin: float) -> bool:
    """Strictly better by more than ``margin``: a tie never replaces the champion."""
    return Mode(mode).better(challenger, champion, margin)


def challenge_champion(
    session: Session, challenger: ModelVersionRow, challenge: dict[str, Any]
) -> dict[str, Any]:
    """Champion/challenger: ``challenger`` takes ``challenge["alias"]`` only when its held-out
    ``challenge["metric"]`` beats the alias's current version by more than the margin; otherwise
    it becomes the ``candidate`` and the champion stays. The comparison is stored on the
    challenger and returned. A champion or challenger without the test metric is never replaced
    or promoted: nothing is replaced on a comparison that could not be made."""
    alias, margin = challenge["alias"], float(challenge["margin"])
    metric, mode = challenge["metric"], challenge["mode"]
    champion_version = _aliases(session, challenger.name).get(alias)
    champion = (
        version_row(session, challenger.name, str(champion_version))
        if champion_version is not None
        else None
    )
    new = (challenger.test_metrics or {}).get(metric)
    old = (champion.test_metrics or {}).get(metric) if champion is not None else None
    if champion is None:
        promoted, reason = True, f"no version held {alias!r}"
    elif new is None or old is None:
        promoted = False
        reason = f"{metric} is missing on the {'challenger' if new is None else 'champion'}"
    else:
        promoted = beats(float(new), float(old), mode, margin)
        verdict = "beats" if promoted else "does not beat"
        reason = (
            f"{metric} {new:.6g} {verdict} version {champion_version}'s {old:.6g} "
            f"({mode}) by more than the margin {margin:g}"
        )
    comparison = {
        "alias": alias,
        "metric": metric,
        "mode": mode,
        "margin": margin,
        "challenger": new,
        "champion": old,
        "champion_version": champion_version,
        "promoted": promoted,
        "reason": reason,
    }
    challenger.comparison = comparison
    move_alias(
        session,
        challenger.name,
        alias if promoted else "candidate",
        challenger.version,
        "champion/challenger",
    )
    return comparison


def get_alias(db: sessionmaker[Session], name: str, alias: str) -> AliasRead:
    with db.begin() as session:
        row = session.get(ModelAliasRow, (name, alias))
        if row is None:
            must_exist(session, name)
            raise NotFound(f"model {name!r} has no alias {alias!r}")
        history = session.scalars(
            select(ModelAliasHistoryRow)
            .where(ModelAliasHistoryRow.name == name, ModelAliasHistoryRow.alias == alias)
            .order_by(ModelAliasHistoryRow.id.desc())
        ).all()
        return AliasRead(
            name=name,
            alias=alias,
            version=row.version,
            history=[
                {
                    "version": h.version,
                    "previous_version": h.previous_version,
                    "set_by": h.set_by,
                    "set_at": h.set_at.isoformat(),
                }
                for h in history
            ],
        )
