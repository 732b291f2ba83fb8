"""Serving model versions: deploying one behind Ray Serve under an API key, reading and ending a
deployment, and recording what Serve says of each."""

from __future__ import annotations

import hashlib
import re
import secrets
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from raysweep.lifecycle import DeploymentState
from raysweep.registry import DeploymentRead
from service.db.models.registry import (
    ModelDeploymentRow,
    ModelNameRow,
    ModelVersionRow,
)
from service.errors import Conflict, NotFound
from service.states import move_deployment
from service.usecases.clusters import FinalClusters
from service.usecases.models import version_row
from trainers.registry import TRAINERS


def _active_deployment(session: Session, version: ModelVersionRow) -> ModelDeploymentRow | None:
    """The version's deployment that is not deleted (at most one: a unique index)."""
    return session.scalars(
        select(ModelDeploymentRow).where(
            ModelDeploymentRow.model_version_id == version.id,
            ModelDeploymentRow.state != DeploymentState.deleted,
        )
    ).one_or_none()


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def deploy_version(
    db: sessionmaker[Session],
    name: str,
    version_or_alias: str,
    final_clusters: FinalClusters,
    created_by: str | None,
) -> tuple[DeploymentRead, bool]:
    """Ask for the version to be served on its project's default final cluster (the Deployer
    makes it so); returns the deployment and whether it is new. A new deployment gets a bearer
    key, returned this once; a version already deployed is returned as it is, without its key."""
    with db.begin() as session:
        version = version_row(session, name, version_or_alias)
        if version.trainer not in TRAINERS:
            raise Conflict(
                f"{name} version {version.version} was trained by {version.trainer}; only "
                "bundled trainers' models can be deployed (their model is known to raysweep)"
            )
        existing = _active_deployment(session, version)
        if existing is not None and existing.state != DeploymentState.deleting:
            return DeploymentRead.model_validate(existing), False
        if existing is not None:
            raise Conflict(f"{name} version {version.version} is being undeployed; retry soon")
        version_id = version.id
        stamp = uuid.uuid4().hex[:6]
        app = re.sub(r"[^A-Za-z0-9_-]", "-", f"{name}-v{version.version}-{stamp}")
        key = secrets.token_urlsafe(32)
        cluster = final_clusters(session.get_one(ModelNameRow, name).project)[0]
        row = ModelDeploymentRow(
            name=name,
            version=version.version,
            model_version_id=version.id,
            app_name=app,
            cluster=cluster,
            state=DeploymentState.deploying,
            route_prefix=f"/models/{app}",
            key_sha256=key_hash(key),
            created_by=created_by,
        )
        try:
            with session.begin_nested():  # a racing request may have deployed it meanwhile
                session.add(row)
        except IntegrityError:
            raced = session.scalars(
                select(ModelDeploymentRow).where(
                    ModelDeploymentRow.model_version_id == version_id,
                    ModelDeploymentRow.state != DeploymentState.deleted,
                )
            ).one()
            return DeploymentRead.model_validate(raced), False
        return DeploymentRead.model_validate(row).model_copy(update={"key": key}), True


def _deployment(session: Session, name: str, version_or_alias: str) -> ModelDeploymentRow:
    """The version's active deployment, or ``NotFound`` naming the version."""
    version = version_row(session, name, version_or_alias)
    row = _active_deployment(session, version)
    if row is None:
        raise NotFound(f"{name} version {version.version} is not deployed")
    return row


def get_deployment(db: sessionmaker[Session], name: str, version_or_alias: str) -> DeploymentRead:
    with db.begin() as session:
        return DeploymentRead.model_validate(_deployment(session, name, version_or_alias))


def undeploy_version(db: sessionmaker[Session], name: str, version_or_alias: str) -> DeploymentRead:
    """Ask for the version's Serve application to be removed (idempotent)."""
    with db.begin() as session:
        row = _deployment(session, name, version_or_alias)
        if row.state != DeploymentState.deleting:
            move_deployment(row, DeploymentState.deleting)
        session.flush()
        return DeploymentRead.model_validate(row)


@dataclass(frozen=True)
class WantedApp:
    """A deployment Serve should run: its application's name and route, and the version it
    serves (the key's hash only: Serve shows its applications' arguments in its config)."""

    name: str
    route_prefix: str
    trainer: str
    config: dict[str, Any]
    checkpoint_uri: str
    key_sha256: str | None


def wanted_applications(
    db: sessionmaker[Session], cluster: str
) -> tuple[list[WantedApp], list[int]]:
    """What the cluster should serve (deployments deploying or running), and the deployments
    being deleted (their applications must go)."""
    with db.begin() as session:
        rows = session.execute(
            # outer: a deployment being deleted with its version (its sweep) has none
            select(ModelDeploymentRow, ModelVersionRow)
            .outerjoin(ModelVersionRow, ModelVersionRow.id == ModelDeploymentRow.model_version_id)
            .where(
                ModelDeploymentRow.cluster == cluster,
                ModelDeploymentRow.state != DeploymentState.deleted,
            )
        ).all()
        apps = [
            WantedApp(
                deployment.app_name,
                deployment.route_prefix,
                version.trainer,
                version.config,
                version.checkpoint_uri,
                deployment.key_sha256,
            )
            for deployment, version in rows
            if version is not None
            and deployment.state in (DeploymentState.deploying, DeploymentState.running)
        ]
        deleting = [d.id for d, _ in rows if d.state == DeploymentState.deleting]
    return apps, deleting


@dataclass(frozen=True)
class AppStatus:
    """One Serve application as its cluster reports it (RUNNING, DEPLOY_FAILED, ...)."""

    status: str
    message: str


def record_deployment_statuses(
    db: sessionmaker[Session],
    cluster: str,
    running: Mapping[str, AppStatus],
    url_for: Callable[[str], str],
) -> int:
    """Move the cluster's deploying and deleting deployments by what Serve reports of their
    applications (``url_for`` turns a route prefix into the deployment's URL); returns how many
    moved."""
    changed = 0
    with db.begin() as session:
        for row in session.scalars(
            select(ModelDeploymentRow).where(
                ModelDeploymentRow.cluster == cluster,
                ModelDeploymentRow.state.in_([DeploymentState.deploying, DeploymentState.deleting]),
            )
        ):
            app = running.get(row.app_name)
            if row.state == DeploymentState.deleting and app is None:
                move_deployment(row, DeploymentState.deleted)
                row.url = None
            elif row.state == DeploymentState.deploying and app and app.status == "RUNNING":
                move_deployment(row, DeploymentState.running)
                row.url = url_for(row.route_prefix)
            elif row.state == DeploymentState.deploying and app and app.status == "DEPLOY_FAILED":
                move_deployment(row, DeploymentState.failed)
                row.error = app.message[:4000]
            else:
                continue
            changed += 1
    return changed
