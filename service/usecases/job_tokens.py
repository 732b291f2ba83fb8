"""The tokens Ray jobs write through the API with, one per job, scoped to what the job runs.

A sweep's driver job and a final run's job hold no database credentials (uploaded code runs
beside them and can read whatever they hold): each gets a token naming its job, signed with a
key the service's processes share in the database. The token is good for its own sweep's or
final run's driver routes only, and only while that record is active and the job is its
latest attempt: it is revoked by the sweep ending, pausing or being resubmitted, with nothing
to store or forget. A job's id says what it runs and its attempt (derived, so a retried submit
never starts a second job).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass
from typing import Literal

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from raysweep.lifecycle import EXPERIMENT_ACTIVE, ExperimentState
from service.db.models.access import ServiceKeyRow
from service.db.models.registry import FinalRunRow
from service.db.models.sweeps import ExperimentRow
from service.errors import Unauthorized

JOB_TOKEN_PREFIX = "rsj_"
JOB_TOKEN_KEY = "job_tokens"
_DRIVER_JOB = re.compile(r"raysweep-([0-9a-f]{1,32})-(\d{1,9})")
_FINAL_RUN_JOB = re.compile(r"raysweep-final-(\d{1,18})-(\d{1,9})")


def driver_job_id(experiment_id: str, attempt: int) -> str:
    """Derived from the experiment and attempt: a retried submit can never start a second driver."""
    return f"raysweep-{experiment_id}-{attempt}"


def final_run_job_id(final_run_id: int, attempt: int) -> str:
    return f"raysweep-final-{final_run_id}-{attempt}"


@dataclass(frozen=True)
class JobScope:
    """What a job token lets its holder write: one sweep's records (``sweep``, the experiment
    id) or one final run's (``final_run``, its id), as the job's ``attempt``."""

    kind: Literal["sweep", "final_run"]
    target: str
    attempt: int


def job_token(key: bytes, job_id: str) -> str:
    return f"{JOB_TOKEN_PREFIX}{job_id}.{_signature(key, job_id)}"


def _signature(key: bytes, job_id: str) -> str:
    digest = hmac.new(key, job_id.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def is_job_token(token: str) -> bool:
    return token.startswith(JOB_TOKEN_PREFIX)


def job_scope(key: bytes, token: str) -> JobScope:
    """The scope a job token was minted for; ``Unauthorized`` when it was not minted with
    ``key`` (a constant-time comparison) or names no job."""
    job_id, _, signature = token.removeprefix(JOB_TOKEN_PREFIX).rpartition(".")
    if not is_job_token(token) or not hmac.compare_digest(signature, _signature(key, job_id)):
        raise Unauthorized("unknown job token")
    if match := _FINAL_RUN_JOB.fullmatch(job_id):
        return JobScope("final_run", match[1], int(match[2]))
    if match := _DRIVER_JOB.fullmatch(job_id):
        return JobScope("sweep", match[1], int(match[2]))
    raise Unauthorized("unknown job token")


def job_token_key(db: sessionmaker[Session]) -> bytes:
    """The shared signing key, created by the first process that asks."""
    with db.begin() as session:
        value = session.get(ServiceKeyRow, JOB_TOKEN_KEY)
        if value is not None:
            return value.value.encode()
    try:
        with db.begin() as session:
            session.add(ServiceKeyRow(name=JOB_TOKEN_KEY, value=secrets.token_urlsafe(48)))
    except IntegrityError:  # another process created it first
        pass
    with db.begin() as session:
        return session.get_one(ServiceKeyRow, JOB_TOKEN_KEY).value.encode()


def check_job_current(session: Session, scope: JobScope) -> None:
    """``Unauthorized`` unless the token's record is still active and its job the record's
    latest attempt (one the controller has submitted, or is recording as submitted)."""
    found: tuple[bool, int] | None
    if scope.kind == "sweep":
        sweep = session.execute(
            select(ExperimentRow.state, ExperimentRow.driver_attempts).where(
                ExperimentRow.id == scope.target
            )
        ).one_or_none()
        # queued: the controller submitted the job and is recording that it did
        found = None
        if sweep is not None:
            active = sweep.state in EXPERIMENT_ACTIVE or sweep.state is ExperimentState.queued
            found = (active, sweep.driver_attempts)
    else:
        run = session.execute(
            select(FinalRunRow.state, FinalRunRow.attempts).where(
                FinalRunRow.id == int(scope.target)
            )
        ).one_or_none()
        found = None if run is None else (not run.state.is_final, run.attempts)
    # attempts counts the jobs recorded as submitted; the newest may not be recorded yet
    if found is None or not found[0] or scope.attempt < found[1] - 1:
        raise Unauthorized(f"this job token's {scope.kind.replace('_', ' ')} is no longer running")
