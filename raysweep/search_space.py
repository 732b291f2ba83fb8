"""Search-space parameters: the distributions a spec's ``search_space`` maps hyperparameters to,
inline or in a named file."""

from __future__ import annotations

import math
from typing import Annotated, Any, Literal

from pydantic import (
    Discriminator,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    Tag,
    TypeAdapter,
    field_validator,
    model_validator,
)

from raysweep.strict import StrictModel

SPACE_NAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$"

# --- search-space parameters ---------------------------------------------------------------------


# search-space bounds: their difference and their logarithms stay finite
MAX_MAGNITUDE = 1e12
MAX_INT_MAGNITUDE = 10**12


class Uniform(StrictModel):
    type: Literal["uniform"]
    low: StrictFloat = Field(ge=-MAX_MAGNITUDE, le=MAX_MAGNITUDE)
    high: StrictFloat = Field(ge=-MAX_MAGNITUDE, le=MAX_MAGNITUDE)

    @model_validator(mode="after")
    def _bounds(self) -> Uniform:
        if self.low >= self.high:
            raise ValueError("low must be < high")
        return self


class LogUniform(StrictModel):
    type: Literal["loguniform"]
    low: StrictFloat = Field(gt=0, le=MAX_MAGNITUDE)
    high: StrictFloat = Field(gt=0, le=MAX_MAGNITUDE)

    @model_validator(mode="after")
    def _bounds(self) -> LogUniform:
        if self.low >= self.high:
            raise ValueError("low must be < high")
        return self


class IntRange(StrictModel):
    type: Literal["int"]
    low: StrictInt = Field(ge=-MAX_INT_MAGNITUDE, le=MAX_INT_MAGNITUDE)
    high: StrictInt = Field(ge=-MAX_INT_MAGNITUDE, le=MAX_INT_MAGNITUDE)
    step: StrictInt = Field(default=1, ge=1, le=MAX_INT_MAGNITUDE)
    log: StrictBool = False

    @model_validator(mode="after")
    def _bounds(self) -> IntRange:
        if self.low > self.high:
            raise ValueError("low must be <= high")
        if self.log and self.low < 1:
            raise ValueError("log scale needs low >= 1")
        if self.log and self.step != 1:
            raise ValueError("log scale needs step 1")
        if (self.high - self.low) % self.step != 0:
            raise ValueError("high - low must be a multiple of step")
        return self


Scalar = bool | int | float | str | None


def _finite_values(values: list[Scalar]) -> list[Scalar]:
    if any(isinstance(v, float) and not math.isfinite(v) for v in values):
        raise ValueError("values must be finite")
    return values


# what one parameter and one space may hold (a 422 past it)
MAX_VALUES = 10_000
MAX_PARAMETERS = 256


class Choice(StrictModel):
    type: Literal["choice"]
    values: list[Scalar] = Field(min_length=1, max_length=MAX_VALUES)

    _finite = field_validator("values")(_finite_values)


class Grid(StrictModel):
    type: Literal["grid"]
    values: list[Scalar] = Field(min_length=1, max_length=MAX_VALUES)

    _finite = field_validator("values")(_finite_values)


class Constant(StrictModel):
    type: Literal["constant"]
    value: Scalar


PARAMETER_TYPES = ("uniform", "loguniform", "int", "choice", "grid", "constant")

Parameter = Annotated[
    Uniform | LogUniform | IntRange | Choice | Grid | Constant, Field(discriminator="type")
]
PARAMETER_NAME_PATTERN = r"^[A-Za-z_][A-Za-z0-9_]{0,63}$"
SearchSpace = Annotated[
    dict[Annotated[str, Field(pattern=PARAMETER_NAME_PATTERN)], Parameter],
    Field(max_length=MAX_PARAMETERS),
]
SEARCH_SPACE_ADAPTER: TypeAdapter[dict[str, Parameter]] = TypeAdapter(SearchSpace)


def _space_kind(value: Any) -> str | None:
    if isinstance(value, str):
        return "file"
    if isinstance(value, dict):
        return "inline"
    return None


SearchSpaceRef = Annotated[
    Annotated[Annotated[str, Field(pattern=SPACE_NAME_PATTERN)], Tag("file")]
    | Annotated[SearchSpace, Tag("inline")],
    Discriminator(
        _space_kind,
        custom_error_type="search_space_type",
        custom_error_message="must be a search-space name or a mapping of parameters",
    ),
]
