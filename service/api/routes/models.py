"""Model registry routes: models, versions with lineage, aliases."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Request, Response

from raysweep.registry import AliasRead, AliasSet, DeploymentRead, ModelRead, ModelVersionRead
from raysweep.schemas import Page
from service.api.deps import Db, ModelMember, ModelViewer, ProjectFilter, Viewer, app_state
from service.api.errors import ERROR_RESPONSES
from service.usecases import deployments
from service.usecases import models as usecase
from service.usecases.access import visible_projects

router = APIRouter(prefix="/api/v1/models", tags=["models"], responses=ERROR_RESPONSES)
AliasName = Annotated[str, Path(pattern=r"^[A-Za-z][A-Za-z0-9_-]{0,63}$")]


@router.get("", summary="Registered models")
def list_models(db: Db, caller: Viewer, project: ProjectFilter = None) -> list[ModelRead]:
    return usecase.list_models(db, visible_projects(caller, project))


@router.get("/{name}/versions", summary="A model's versions, newest first")
def versions(name: str, db: Db, _: ModelViewer) -> Page[ModelVersionRead]:
    return usecase.list_versions(db, name)


@router.get("/{name}/versions/{version}", summary="One version (a number or an alias)")
def version(name: str, version: str, db: Db, _: ModelViewer) -> ModelVersionRead:
    return usecase.get_version(db, name, version)


@router.put("/{name}/aliases/{alias}", summary="Point an alias at a version")
def set_alias(
    name: str, alias: AliasName, body: AliasSet, db: Db, caller: ModelMember
) -> AliasRead:
    """One holder per alias: setting it moves it from its previous version; history is kept."""
    return usecase.set_alias(db, name, alias, body.version, caller.name)


@router.delete(
    "/{name}/aliases/{alias}",
    status_code=204,
    response_class=Response,
    summary="Remove an alias from its version",
)
def delete_alias(name: str, alias: AliasName, db: Db, _: ModelMember) -> Response:
    """Members. The alias no longer names a version (its history stays), so that version's sweep
    may be deleted. A 409 naming the schedule while a retrain schedule follows the alias: delete
    that schedule first, or move the alias (PUT) instead."""
    usecase.delete_alias(db, name, alias)
    return Response(status_code=204)


@router.get("/{name}/aliases/{alias}", summary="An alias, its version and its history")
def get_alias(name: str, alias: str, db: Db, _: ModelViewer) -> AliasRead:
    return usecase.get_alias(db, name, alias)


@router.post(
    "/{name}/versions/{version}/deploy",
    status_code=202,
    summary="Serve a version with Ray Serve on the final cluster",
)
def deploy(
    name: str, version: str, request: Request, response: Response, caller: ModelMember
) -> DeploymentRead:
    """Deploys the version (a number or an alias) as a Ray Serve application with a JSON
    predict endpoint: POST `url` with `{"inputs": [[...], ...]}` (one row per example, shaped
    like the trainer's inputs: 64 pixel values for the digits trainers, 10 features for
    diabetes_regression, up to 64 token ids for tiny_lm) for `{"outputs": [...]}` (the model's
    raw outputs) and `{"predictions": [...]}` (class ids for classifiers, values for the
    regressor). The endpoint needs `Authorization: Bearer <key>`: `key` is in this answer
    when it makes the deployment (202, while it deploys: poll GET), and never again (200 when it
    was deployed already, without the key)."""
    state = app_state(request)
    deployment, created = deployments.deploy_version(
        state.db, name, version, state.settings.final_clusters_for, caller.name
    )
    response.status_code = 202 if created else 200
    return deployment


@router.get("/{name}/versions/{version}/deploy", summary="A version's deployment: state and URL")
def deployment(name: str, version: str, db: Db, _: ModelViewer) -> DeploymentRead:
    return deployments.get_deployment(db, name, version)


@router.delete(
    "/{name}/versions/{version}/deploy", status_code=202, summary="Remove a version's deployment"
)
def undeploy(name: str, version: str, db: Db, _: ModelMember) -> DeploymentRead:
    """The Serve application is removed by the controller; the state turns `deleted`."""
    return deployments.undeploy_version(db, name, version)
