"""Experiment use cases: each owns its transaction and returns API schemas."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session, sessionmaker

from raysweep.lifecycle import EXPERIMENT_ENDED, DeploymentState, ExperimentState
from raysweep.names import DEFAULT_PROJECT
from raysweep.schemas import EventRead, ExperimentCreated, ExperimentRead, Page, TrialSummary
from raysweep.spec import ExperimentSpec
from raysweep.tokens import TokenRead
from service.db import repositories as repo
from service.db.models.registry import ModelAliasRow, ModelDeploymentRow, ModelVersionRow
from service.db.models.sweeps import EventRow, ExperimentRow, LabelRow, TrialRow
from service.errors import Conflict
from service.specs import check_spec
from service.states import (
    move_deployment,
)
from service.storage import delete_tree, experiment_uri
from service.usecases.access import home_project
from service.usecases.admission import Refusal, admit_sweep, queue_refusal
from service.usecases.clusters import FinalClusters, FixedSweepCluster, no_fixed_cluster
from service.usecases.code import python_files_of
from service.usecases.trials import running_clocks
from service.usecases.view_cache import CACHE, all_experiments_version, cached

MAX_PAGE = 500


def new_experiment_id() -> str:
    return uuid.uuid4().hex[:12]


def package_files(
    db: sessionmaker[Session], sha256: str, project: str
) -> dict[str, str | None] | None:
    """A package the project holds: its parsed .py files; None for any other."""
    with db.begin() as session:
        return python_files_of(session, sha256, project)


def stored_spec(
    db: sessionmaker[Session], experiment_id: str, project: str
) -> ExperimentSpec | None:
    """The spec of one of the project's experiments; None for any other."""
    with db.begin() as session:
        row = session.get(ExperimentRow, experiment_id)
        if row is None or row.project != project:
            return None
        return ExperimentSpec.model_validate(row.spec)


def spec_project(data: Any) -> str:
    """The project a submitted spec names (its default when it names none or no string)."""
    project = data.get("project") if isinstance(data, dict) else None
    return project if isinstance(project, str) else DEFAULT_PROJECT


def in_home_project(data: Any, caller: TokenRead) -> Any:
    """The spec, in the caller's home project (``access.home_project``) when it names none."""
    if isinstance(data, dict) and data.get("project") is None:
        return {**data, "project": home_project(caller)}
    return data


def submit_experiment(
    db: sessionmaker[Session],
    data: Any,
    search_spaces_dir: Path,
    caller: TokenRead,
    final_clusters: FinalClusters | None = None,
    fixed_sweep_cluster: FixedSweepCluster = no_fixed_cluster,
) -> ExperimentCreated:
    """Validate completely (raising ``InvalidInput`` with every problem), then store as queued
    in the spec's project, which the caller must be a member of and whose queue, quota and
    budget must allow it. Code packages and warm-start sweeps are looked up in that project
    only; a spec naming no project goes to the caller's home project (``access.home_project``).
    With ``fixed_sweep_cluster`` (a cluster that does not autoscale) a trial must fit it."""
    data = in_home_project(data, caller)
    project = spec_project(data)
    spec = check_spec(
        data,
        search_spaces_dir,
        lambda sha256: package_files(db, sha256, project),
        None if final_clusters is None else final_clusters(project),
        lambda experiment_id: stored_spec(db, experiment_id, project),
    )
    source = data.get("search_space") if isinstance(data, dict) else None
    created_by = caller.name
    with db.begin() as session:
        admit_sweep(session, caller, spec, fixed_sweep_cluster)
        row = add_experiment(
            session,
            spec,
            f"submitted by {created_by or 'unknown'}",
            created_by,
            {"search_space": source if isinstance(source, str) else "inline"},
        )
    notes = spec.code.gives_up if spec.code is not None else []
    return ExperimentCreated(id=row.id, state=ExperimentState.queued, notes=notes)


def queue_sweep(
    session: Session,
    spec: ExperimentSpec,
    message: str,
    created_by: str | None,
    data: dict[str, Any] | None = None,
    fixed_sweep_cluster: FixedSweepCluster = no_fixed_cluster,
) -> ExperimentRow | Refusal:
    """For the service's own submissions (a schedule's firing, a retrain's re-tuning sweep):
    store the sweep as ``add_experiment`` does once it passes the admission a submit does
    (``admission.queue_refusal``); else the refusal, and nothing is stored."""
    refusal = queue_refusal(session, spec, fixed_sweep_cluster)
    if refusal is not None:
        return refusal
    return add_experiment(session, spec, message, created_by, data)


def add_experiment(
    session: Session,
    spec: ExperimentSpec,
    message: str,
    created_by: str | None,
    data: dict[str, Any] | None = None,
) -> ExperimentRow:
    """Store a checked spec as a queued experiment with its ``submitted`` event (flushed, in the
    caller's transaction)."""
    row = ExperimentRow(
        id=new_experiment_id(),
        name=spec.name,
        trainer=spec.trainer_label,
        metric=spec.primary.metric,
        mode=spec.primary.mode,
        spec=spec.model_dump(mode="json"),
        state=ExperimentState.queued,
        created_by=created_by,
        driver_restarts=0,
        project=spec.project,
        labels=[LabelRow(key=k, value=v) for k, v in spec.labels.items()],
    )
    session.add(row)
    session.flush()
    repo.add_event(session, row.id, "submitted", message, data=data or {})
    return row


# what ExperimentRead takes from the row's own columns; not its relationships, which would load
# one row at a time
READ_COLUMNS = [c for c in ExperimentRead.model_fields if c in ExperimentRow.__table__.columns]


def to_read(session: Session, row: ExperimentRow) -> ExperimentRead:
    return to_reads(session, [row])[0]


def to_reads(session: Session, rows: Sequence[ExperimentRow]) -> list[ExperimentRead]:
    """The rows as API models, read together: labels, trial counts and stored best trials in
    one query each; a best trial so far (a sweep not ended) in one query per such sweep."""
    ids = [row.id for row in rows]
    labels, counts = repo.labels_of(session, ids), repo.trial_counts(session, ids)
    running = running_clocks(session, [row.id for row in rows if not row.state.is_final])
    # the driver stores the best trial when the sweep ends; until then it is the best so far
    stored = [row.best_trial_id for row in rows if row.best_trial_id is not None]
    best = {
        trial.experiment_id: trial
        for trial in session.scalars(select(TrialRow).where(TrialRow.id.in_(stored)))
    }
    for row in rows:
        if row.best_trial_id is None and (so_far := repo.best_trial(session, row.id, row.mode)):
            best[row.id] = so_far
    reads = []
    for row in rows:
        trial = best.get(row.id)
        reads.append(
            ExperimentRead.model_validate(
                {
                    **{c: getattr(row, c) for c in READ_COLUMNS},
                    "best_metric": row.best_metric if trial is None else trial.best_metric,
                    "labels": labels.get(row.id, {}),
                    "trial_counts": counts.get(row.id, {}),
                    "best_trial": TrialSummary.model_validate(trial) if trial else None,
                    "running": running.get(row.id, []),
                }
            )
        )
    return reads


def list_experiments(
    db: sessionmaker[Session],
    states: Sequence[ExperimentState],
    labels: list[tuple[str, str]],
    limit: int,
    offset: int,
    projects: list[str] | None = None,
) -> Page[ExperimentRead]:
    """Newest first; ``projects``: only theirs (None: every project's)."""
    query = repo.experiments_query([s.value for s in states], labels, projects)
    ordered = query.order_by(ExperimentRow.created_at.desc(), ExperimentRow.id.desc())
    with db.begin() as session:
        scope = None if projects is None else tuple(projects)
        key = ("experiments", tuple(states), tuple(labels), limit, offset, scope)
        key += all_experiments_version(session)
        return CACHE.get(
            key,
            lambda: repo.page_rows(
                session, ordered, limit, offset, lambda rows: to_reads(session, rows)
            ),
        )


def get_experiment(db: sessionmaker[Session], experiment_id: str) -> ExperimentRead:
    return cached(db, experiment_id, experiment_read)


def experiment_read(session: Session, row: ExperimentRow) -> ExperimentRead:
    """The experiment as GET /experiments/{id} answers it: with objectives, its Pareto front."""
    # the front is a view of the trials (views import this module)
    from service.usecases.pareto import FRONT_LIMIT, pareto

    read = to_read(session, row)
    if read.spec.get("objectives"):
        front = pareto(session, row, FRONT_LIMIT).front[:FRONT_LIMIT]
        read = read.model_copy(update={"pareto_front": front})
    return read


def set_experiment_notes(
    db: sessionmaker[Session], experiment_id: str, notes: str
) -> ExperimentRead:
    """A member's notes on the sweep (empty: none); a change of the sweep for its cached
    reads."""
    with db.begin() as session:
        row = repo.get_experiment_row(session, experiment_id, for_update=True)
        row.notes = notes or None
        session.flush()
        return to_read(session, row)


DELETABLE = (*EXPERIMENT_ENDED, ExperimentState.paused)


def delete_experiment(db: sessionmaker[Session], storage_root: str, experiment_id: str) -> None:
    """Delete a finished or paused experiment: its rows (trials, results, checkpoints, events,
    labels, final runs and their model versions) and its storage (Tune state, checkpoints).
    Anything queued or running is a ``Conflict``: cancel it first; so is a sweep one of whose
    model versions an alias (``production``) names: move the alias first."""
    with db.begin() as session:
        row = repo.get_experiment_row(session, experiment_id, for_update=True)
        state = row.state
        if state not in DELETABLE:
            raise Conflict(
                f"experiment {experiment_id} is {state.value}; only "
                f"{', '.join(s.value for s in DELETABLE)} experiments can be deleted "
                "(cancel it first)"
            )
        aliased = session.execute(
            select(ModelAliasRow.name, ModelAliasRow.alias, ModelAliasRow.version)
            .join(
                ModelVersionRow,
                (ModelVersionRow.name == ModelAliasRow.name)
                & (ModelVersionRow.version == ModelAliasRow.version),
            )
            .where(ModelVersionRow.experiment_id == experiment_id)
            .order_by(ModelAliasRow.name, ModelAliasRow.alias)
        ).all()
        if aliased:
            named = ", ".join(f"{name} v{version} ({alias})" for name, alias, version in aliased)
            raise Conflict(
                f"experiment {experiment_id} has model versions that aliases name: {named}; "
                "move or delete those aliases first"
            )
        # its versions' deployments are undeployed (the Deployer removes their applications and
        # marks them deleted; their rows stay as history, bound to no version)
        for deployment in session.scalars(
            select(ModelDeploymentRow)
            .join(ModelVersionRow, ModelVersionRow.id == ModelDeploymentRow.model_version_id)
            .where(
                ModelVersionRow.experiment_id == experiment_id,
                ModelDeploymentRow.state != DeploymentState.deleted,
            )
        ):
            if deployment.state is not DeploymentState.deleting:
                move_deployment(deployment, DeploymentState.deleting)
        # rows go with the transaction; the storage is removed before it commits, so a storage
        # error leaves every row in place and the delete can simply be retried
        session.execute(delete(ExperimentRow).where(ExperimentRow.id == experiment_id))
        delete_tree(experiment_uri(storage_root, experiment_id))


def list_events(
    db: sessionmaker[Session],
    experiment_id: str,
    after_id: int,
    limit: int,
    trial_id: int | None = None,
) -> Page[EventRead]:
    with db.begin() as session:
        repo.get_experiment_row(session, experiment_id)
        query = select(EventRow).where(
            EventRow.experiment_id == experiment_id, EventRow.id > after_id
        )
        if trial_id is not None:
            query = query.where(EventRow.trial_id == trial_id)
        return repo.page(session, query.order_by(EventRow.id), limit, 0, EventRead.model_validate)
