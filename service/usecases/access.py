"""Who may see and change what: a token's role in each project, and the project each object
belongs to. An object of a project the caller has no role in is answered exactly as one that
does not exist (a 404 with the same words), so nobody learns what other projects hold."""

from __future__ import annotations

import threading
from datetime import UTC, datetime
from enum import StrEnum

from cachetools import LRUCache
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from raysweep.names import DEFAULT_PROJECT
from raysweep.tokens import Role, TokenRead
from service.db.models.access import CodePackageProjectRow
from service.db.models.registry import FinalRunRow, ModelNameRow
from service.db.models.schedules import ScheduleRow
from service.db.models.sweeps import ExperimentRow, TrialRow
from service.errors import Forbidden, NotFound

ROLE_RANK = {Role.viewer: 0, Role.member: 1, Role.admin: 2}


def role_in(caller: TokenRead, project: str) -> Role | None:
    """The caller's role in ``project``; an admin token is admin in every project."""
    if caller.role is Role.admin:
        return Role.admin
    return caller.projects.get(project)


def has_role_somewhere(caller: TokenRead, role: Role) -> bool:
    if caller.role is Role.admin:
        return True
    return any(ROLE_RANK[r] >= ROLE_RANK[role] for r in caller.projects.values())


def home_project(caller: TokenRead) -> str:
    """Where the caller's sweeps, code and schedules go when they name no project: the one
    project of a token bound to one (it could create nowhere else), otherwise ``default``."""
    if caller.role is not Role.admin and len(caller.projects) == 1:
        return next(iter(caller.projects))
    return DEFAULT_PROJECT


def visible_projects(caller: TokenRead, narrowed_to: str | None = None) -> list[str] | None:
    """The projects whose objects the caller's lists show (None: all of them), narrowed to one
    when asked; a project the caller has no role in narrows to nothing."""
    if caller.role is Role.admin:
        return None if narrowed_to is None else [narrowed_to]
    if narrowed_to is not None:
        return [narrowed_to] if narrowed_to in caller.projects else []
    return sorted(caller.projects)


def check_role(caller: TokenRead, projects: list[str], role: Role, missing: str) -> str:
    """The project (of ``projects``, those holding the object) through which the caller may do
    what needs ``role``: ``NotFound(missing)`` where it holds no role in any of them (or the
    object does not exist), ``Forbidden`` where its role is too low."""
    roles = {p: r for p in projects if (r := role_in(caller, p)) is not None}
    if not roles:
        raise NotFound(missing)
    best = max(roles, key=lambda p: ROLE_RANK[roles[p]])
    if ROLE_RANK[roles[best]] < ROLE_RANK[role]:
        raise Forbidden(
            f"role {roles[best].value} in project {best!r} may not do this; needs {role.value}"
        )
    return best


class Owned(StrEnum):
    """The kinds of object the API addresses by a path parameter, with the words their use
    cases say when one does not exist."""

    experiment = "experiment"
    trial = "trial"
    final_run = "final_run"
    model = "model"
    schedule = "schedule"
    code = "code"


def missing_message(kind: Owned, key: str) -> str:
    return {
        Owned.experiment: f"experiment {key} not found",
        Owned.trial: f"trial {key} not found",
        Owned.final_run: f"final run {key} not found",
        Owned.model: f"no model named {key!r}",
        Owned.schedule: f"schedule {key} not found",
        Owned.code: f"no code package {key}",
    }[kind]


def _owners_query(kind: Owned, key: str) -> object:
    if kind is Owned.experiment:
        return select(ExperimentRow.project).where(ExperimentRow.id == key)
    if kind is Owned.trial:
        return (
            select(ExperimentRow.project)
            .join(TrialRow, TrialRow.experiment_id == ExperimentRow.id)
            .where(TrialRow.id == int(key))
        )
    if kind is Owned.final_run:
        return (
            select(ExperimentRow.project)
            .join(FinalRunRow, FinalRunRow.experiment_id == ExperimentRow.id)
            .where(FinalRunRow.id == int(key))
        )
    if kind is Owned.model:
        return select(ModelNameRow.project).where(ModelNameRow.name == key)
    if kind is Owned.schedule:
        return select(ScheduleRow.project).where(ScheduleRow.id == key)
    return select(CodePackageProjectRow.project).where(CodePackageProjectRow.sha256 == key)


def projects_of(session: Session, kind: Owned, key: str) -> list[str]:
    """The projects holding the object (none: it does not exist)."""
    return list(session.scalars(_owners_query(kind, key)))  # type: ignore[call-overload]


class Owners:
    """The projects holding each object, read once: an object never moves between projects and
    its key never names another object (ids are never reused, migration 0017; a model name
    stays its project's), so what was read stays true (a code package may join more projects,
    so its holders are read again whenever the caller is not among them). Bounded, least
    recently used out."""

    def __init__(self, size: int = 100_000):
        self.entries: LRUCache[tuple[Owned, str], list[str]] = LRUCache(maxsize=size)
        self.lock = threading.Lock()  # cachetools' caches are not thread-safe

    def get(self, kind: Owned, key: str) -> list[str] | None:
        with self.lock:
            return self.entries.get((kind, key))

    def put(self, kind: Owned, key: str, projects: list[str]) -> None:
        if not projects:  # not there (yet): never cached, it may be created
            return
        with self.lock:
            self.entries[(kind, key)] = projects

    def read(self, db: sessionmaker[Session], kind: Owned, key: str) -> list[str]:
        with db.begin() as session:
            projects = projects_of(session, kind, key)
        self.put(kind, key, projects)
        return projects


def operator(name: str) -> TokenRead:
    """Someone at the server's own console (tests, scripts beside the database): admin in
    every project, as the token an operator creates with ``python -m service token``."""
    return TokenRead(
        id=0,
        name=name,
        role=Role.admin,
        prefix="",
        created_at=datetime.now(UTC),
        last_used_at=None,
        revoked_at=None,
    )
