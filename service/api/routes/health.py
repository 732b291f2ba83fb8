"""Liveness and readiness (no token: load balancers call these)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends
from fastapi.responses import JSONResponse

from service.api.deps import AppState, app_state

router = APIRouter(tags=["health"])


@router.get("/healthz", summary="The process is alive")
async def healthz() -> dict[str, str]:  # async: never waits for a busy thread pool
    return {"status": "ok"}


@router.get("/readyz", summary="Database reachable with a current schema; Ray reachable")
def readyz(state: Annotated[AppState, Depends(app_state)]) -> JSONResponse:
    checks: dict[str, Any] = {}
    for name, check in state.ready_checks.items():
        try:
            problem = check()
        except Exception as error:  # a failing probe is a not-ready answer, not a 500
            problem = f"{type(error).__name__}: {error}"
        checks[name] = "ok" if problem is None else problem
    ready = all(value == "ok" for value in checks.values())
    return JSONResponse(
        {"status": "ready" if ready else "not ready", "checks": checks},
        status_code=200 if ready else 503,
    )
