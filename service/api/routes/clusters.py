"""Cluster records: where sweeps, final runs and deployments run (from settings)."""

from __future__ import annotations

from fastapi import APIRouter, Request

from raysweep.compute import ClusterRead
from service.api.deps import Viewer, app_state
from service.api.errors import ERROR_RESPONSES
from service.usecases.access import visible_projects

router = APIRouter(prefix="/api/v1/clusters", tags=["clusters"], responses=ERROR_RESPONSES)


@router.get("", summary="The Ray clusters raysweep uses")
def list_clusters(request: Request, caller: Viewer) -> list[ClusterRead]:
    """Configured by `RAYSWEEP_CLUSTERS`; by default one cluster, `local`, with both roles.
    Tokens are never shown, only whether one is set; of the projects a cluster is bound to,
    only the caller's."""
    settings = app_state(request).settings
    own = settings.ray_address or "embedded"
    visible = visible_projects(caller)
    return [
        ClusterRead(
            name=record.name,
            address=record.address or f"this server's Ray ({own})",
            role=record.role,
            max_concurrent_jobs=record.max_concurrent_jobs,
            authenticated=record.token is not None,
            projects=[p for p in record.projects if visible is None or p in visible],
        )
        for record in settings.cluster_records
    ]
