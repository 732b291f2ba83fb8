"""API tokens as the API reads and writes them, and the roles a token has (an admin, or a
role per project)."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from pydantic import Field

from raysweep.schemas import ReadModel
from raysweep.strict import StrictModel


class Role(StrEnum):
    admin = "admin"
    member = "member"
    viewer = "viewer"


class TokenCreate(StrictModel):
    name: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}$")
    role: Role = Role.member


class TokenRead(ReadModel):
    id: int
    name: str
    role: Role = Field(
        description="`admin`: every project and the service's own settings; otherwise the "
        "highest of its project roles."
    )
    projects: dict[str, Role] = Field(
        default_factory=dict,
        description="Its role in each project it may see (an admin token: none listed, all "
        "of them).",
    )
    prefix: str
    created_at: datetime
    last_used_at: datetime | None
    revoked_at: datetime | None


class TokenCreated(TokenRead):
    token: str = Field(description="The secret; shown once, stored only as a hash.")
