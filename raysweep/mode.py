"""The direction a metric is optimised in, and the rules that follow from it, written once."""

from __future__ import annotations

from enum import StrEnum
from typing import Literal, Protocol, TypeVar

# the form specs and API schemas carry on the wire: a literal keeps the schema and its error
# message ("must be one of 'min' or 'max'") as they were
ModeName = Literal["min", "max"]

Ordered = TypeVar("Ordered", covariant=True)


class Sortable(Protocol[Ordered]):
    """A column that sorts both ways (an SQLAlchemy column; the client never imports one)."""

    def asc(self) -> Ordered: ...

    def desc(self) -> Ordered: ...


class Mode(StrEnum):
    """``min`` or ``max``: which values of a metric are better.

    Example::

        Mode("max").better(0.9, 0.8)  # True
        sorted(values, key=lambda v: -Mode("min").sign * v)  # best first
    """

    min = "min"
    max = "max"

    @property
    def sign(self) -> float:
        """``sign * value`` is larger when the value is better."""
        return 1.0 if self is Mode.max else -1.0

    @property
    def direction(self) -> Literal["minimize", "maximize"]:
        """The direction as Optuna's studies name it."""
        return "maximize" if self is Mode.max else "minimize"

    def better(self, value: float, than: float | None, margin: float = 0.0) -> bool:
        """Whether ``value`` is better than ``than`` by more than ``margin`` (a tie never is);
        anything is better than no value."""
        if than is None:
            return True
        return value > than + margin if self is Mode.max else value < than - margin

    def reached(self, value: float, target: float) -> bool:
        """Whether ``value`` is at least as good as ``target`` (a tie reaches it)."""
        return self.sign * value >= self.sign * target

    def order(self, column: Sortable[Ordered]) -> Ordered:
        """``column`` sorted best first (in SQL: descending for ``max``)."""
        return column.desc() if self is Mode.max else column.asc()
