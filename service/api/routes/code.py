"""Code package routes: upload training code, list and read packages."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Annotated

from fastapi import APIRouter, Query, Request, Response
from fastapi.concurrency import run_in_threadpool

from raysweep.code_ref import CodePackageRead
from raysweep.names import PROJECT_PATTERN
from raysweep.schemas import Page
from raysweep.tokens import Role
from service.api.deps import (
    AppState,
    CodeViewer,
    Db,
    Limit,
    Member,
    Offset,
    ProjectFilter,
    Viewer,
    app_state,
)
from service.api.errors import ERROR_RESPONSES
from service.api.fair_slots import FairSlots
from service.usecases import code as usecase
from service.usecases.access import home_project, visible_projects
from service.usecases.projects import in_project

router = APIRouter(prefix="/api/v1/code", tags=["code"], responses=ERROR_RESPONSES)

PACKAGE_BODY = {
    "requestBody": {
        "required": True,
        "content": {
            media: {"schema": {"type": "string", "format": "binary"}}
            for media in ("application/zip", "application/gzip", "application/octet-stream")
        },
    }
}


# the threads that wait for upload checks, apart from the API's few: at most this many checks
# at once (each child may take up to its memory limit), the others wait
UPLOAD_CHECKS = ThreadPoolExecutor(max_workers=4, thread_name_prefix="upload-check")
# who gets a check slot next: the waiting project holding the fewest (service.api.fair_slots);
# as many as the checks service.package_check runs at once
CHECK_SLOTS = FairSlots(2)


@router.post(
    "",
    status_code=201,
    response_model=CodePackageRead,
    openapi_extra=PACKAGE_BODY,
    summary="Upload a training-code package",
    responses={
        200: {"description": "The same package was uploaded before", "model": CodePackageRead}
    },
)
async def upload(
    request: Request,
    response: Response,
    caller: Member,
    project: Annotated[
        str | None,
        Query(
            pattern=PROJECT_PATTERN,
            description="The project that will hold it (default: the token's one project for "
            "a token bound to one, else `default`).",
        ),
    ] = None,
) -> CodePackageRead:
    """Upload a zip or tar.gz of Python code as the raw body (`curl --data-binary @pkg.zip`).
    It is checked as an archive and parsed in a child process with a time and a memory limit,
    never imported or run by the server (at most 1 MiB of Python per file and 8 MiB in all are
    parsed; past a limit the answer is a 422 naming it); stored as a
    zip named by its sha256 (`RAYSWEEP_MAX_CODE_BYTES` bounds the size). 201 when new, 200 when
    the project held the same files before. A spec of that project then names it as
    `code: {package: <sha256>, entrypoint: "module:function", metrics: {...}}`."""
    state: AppState = app_state(request)
    project = project or home_project(caller)
    await run_in_threadpool(in_project, state.db, caller, project, Role.member)
    body = await request.body()
    # the check runs in a child process with time and memory limits (service.package_check);
    # waiting for it on a thread of its own keeps the event loop and the API's few threads
    # answering everyone else
    async with CHECK_SLOTS.slot(project):
        package, created = await asyncio.get_running_loop().run_in_executor(
            UPLOAD_CHECKS,
            partial(
                usecase.upload_code,
                state.db,
                state.settings.storage_root,
                body,
                caller.name,
                project,
            ),
        )
    response.status_code = 201 if created else 200
    response.headers["Location"] = f"/api/v1/code/{package.sha256}"
    return package


@router.get("", summary="List code packages, newest first")
def list_code(
    db: Db, caller: Viewer, limit: Limit = 50, offset: Offset = 0, project: ProjectFilter = None
) -> Page[CodePackageRead]:
    return usecase.list_code(db, limit, offset, visible_projects(caller, project))


@router.get("/{sha256}", summary="One code package")
def get_code(sha256: str, db: Db, caller: CodeViewer) -> CodePackageRead:
    """As the caller's projects hold it: who uploaded it there, and when."""
    return usecase.read_code(db, sha256, visible_projects(caller))
