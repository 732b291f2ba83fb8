"""The base of every model a user writes (specs, schedules, tokens, aliases)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class StrictModel(BaseModel):
    """Unknown fields are errors: a typo must not silently become a default. Numbers and
    switches are typed strictly (``true``, ``"5"`` or ``1000.0`` is no count) and bounded where
    a value past the bound could never run."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False, frozen=True)
