"""API tokens: random secrets stored only as SHA-256 hashes, named, with a role, revocable."""

from __future__ import annotations

import hashlib
import os
import secrets
import threading
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

from cachetools import LRUCache
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from raysweep.names import DEFAULT_PROJECT
from raysweep.tokens import Role, TokenCreated, TokenRead
from service.db.base import utcnow
from service.db.models.access import ProjectRow, TokenProjectRow, TokenRow
from service.errors import Conflict, NotFound, Unauthorized
from service.usecases.access import ROLE_RANK

TOKEN_PREFIX = "rsw_"
# last_used_at is informative; writing it on every request would turn reads into writes
LAST_USED_RESOLUTION = timedelta(minutes=1)


def hash_token(token: str) -> str:
    # tokens carry 256 random bits, so a fast hash is enough (no dictionary to attack)
    return hashlib.sha256(token.encode()).hexdigest()


def token_read(row: TokenRow) -> TokenRead:
    return TokenRead(
        id=row.id,
        name=row.name,
        role=Role(row.role),
        projects={g.project: Role(g.role) for g in row.grants},
        prefix=row.prefix,
        created_at=row.created_at,
        last_used_at=row.last_used_at,
        revoked_at=row.revoked_at,
    )


def highest(roles: list[Role]) -> Role:
    return max(roles, key=lambda r: ROLE_RANK[r], default=Role.viewer)


def create_token(
    db: sessionmaker[Session], name: str, role: Role, project: str = DEFAULT_PROJECT
) -> TokenCreated:
    """A token with ``role`` in ``project`` (an admin token: in every project)."""
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    row = TokenRow(
        name=name,
        role=role.value,
        token_hash=hash_token(token),
        prefix=token[: len(TOKEN_PREFIX) + 4],
    )
    if role is not Role.admin:
        row.grants = [TokenProjectRow(project=project, role=role.value)]
    try:
        with db.begin() as session:
            if role is not Role.admin and session.get(ProjectRow, project) is None:
                raise NotFound(f"no project {project!r}")
            session.add(row)
            session.flush()
            read = token_read(row)
    except IntegrityError:
        raise Conflict(f"a token named {name!r} exists already") from None
    return TokenCreated.model_validate({**read.model_dump(), "token": token})


def grant_token(db: sessionmaker[Session], name: str, project: str, role: Role | None) -> TokenRead:
    """Give a non-admin token ``role`` in ``project`` (None: take its role there away)."""
    with db.begin() as session:
        row = session.scalars(select(TokenRow).where(TokenRow.name == name)).one_or_none()
        if row is None:
            raise NotFound(f"no token named {name!r}")
        if row.role == Role.admin.value:
            raise Conflict(f"token {name!r} is an admin: it has every project already")
        if session.get(ProjectRow, project) is None:
            raise NotFound(f"no project {project!r}")
        kept = [g for g in row.grants if g.project != project]
        if role is not None:
            kept.append(TokenProjectRow(project=project, role=role.value))
        row.grants = kept
        row.role = highest([Role(g.role) for g in kept]).value
        session.flush()
        return token_read(row)


def list_tokens(db: sessionmaker[Session]) -> list[TokenRead]:
    with db.begin() as session:
        return [token_read(r) for r in session.scalars(select(TokenRow).order_by(TokenRow.id))]


def revoke_token(db: sessionmaker[Session], name: str) -> TokenRead:
    with db.begin() as session:
        row = session.scalars(select(TokenRow).where(TokenRow.name == name)).one_or_none()
        if row is None:
            raise NotFound(f"no token named {name!r}")
        if row.revoked_at is None:
            row.revoked_at = utcnow()
        return token_read(row)


class RecentTokens:
    """Tokens the database admitted lately, by hash, with when: a caller's next requests in
    the following moment need no lookup (a lookup and its thread handoff were a fifth of a
    cached read's cost). Only admissions are kept, so an unknown token is looked up every time;
    a revoked one is refused once the moment has passed."""

    def __init__(self, size: int = 1024, clock: Callable[[], float] = time.monotonic):
        # the age is checked on each read: the moment is a setting the caller passes
        self.entries: LRUCache[str, tuple[float, TokenRead]] = LRUCache(maxsize=size)
        self.lock = threading.Lock()  # cachetools' caches are not thread-safe
        self.clock = clock

    def get(self, token: str, max_age_s: float) -> TokenRead | None:
        if max_age_s <= 0:
            return None
        digest = hash_token(token)
        with self.lock:
            found = self.entries.get(digest)
            if found is None or self.clock() - found[0] > max_age_s:
                return None
            return found[1]

    def put(self, token: str, caller: TokenRead) -> None:
        digest = hash_token(token)
        with self.lock:
            self.entries[digest] = (self.clock(), caller)


def authenticate(db: sessionmaker[Session], token: str) -> TokenRead:
    with db.begin() as session:
        row = session.scalars(
            select(TokenRow).where(TokenRow.token_hash == hash_token(token))
        ).one_or_none()
        if row is None:
            raise Unauthorized("unknown token")
        if row.revoked_at is not None:
            raise Unauthorized("this token was revoked")  # its name is not the caller's to learn
        now = utcnow()
        if row.last_used_at is None or now - row.last_used_at > LAST_USED_RESOLUTION:
            row.last_used_at = now
        return token_read(row)


def ensure_admin_token(db: sessionmaker[Session], path: Path) -> bool:
    """On a database without tokens, create an admin token and write it to ``path`` (0600).
    Returns whether one was created."""
    with db.begin() as session:
        if session.scalar(select(func.count()).select_from(TokenRow)):
            return False
    try:
        created = create_token(db, "admin", Role.admin)
    except Conflict:  # another replica created it first
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w") as handle:
        handle.write(created.token + "\n")
    os.chmod(path, 0o600)
    return True
