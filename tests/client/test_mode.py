"""The optimisation direction's rules, written once in ``raysweep.mode``."""

from __future__ import annotations

from typing import get_args

from raysweep.mode import Mode, ModeName


class Column:
    """Stands for an SQL column: says which way it was sorted."""

    def asc(self) -> str:
        return "asc"

    def desc(self) -> str:
        return "desc"


def test_the_wire_literal_and_the_enum_name_the_same_directions() -> None:
    assert list(get_args(ModeName)) == [mode.value for mode in Mode]


def test_larger_is_better_for_max_and_smaller_for_min() -> None:
    assert Mode.max.better(0.9, 0.8) and not Mode.max.better(0.8, 0.9)
    assert Mode.min.better(0.8, 0.9) and not Mode.min.better(0.9, 0.8)
    assert Mode("max").better(0.1, None) and Mode("min").better(0.1, None)
    # a tie is never better, nor a gain within the margin
    assert not Mode.max.better(0.5, 0.5) and not Mode.min.better(0.5, 0.5)
    assert not Mode.max.better(0.55, 0.5, margin=0.1) and Mode.max.better(0.65, 0.5, margin=0.1)
    assert not Mode.min.better(0.45, 0.5, margin=0.1) and Mode.min.better(0.35, 0.5, margin=0.1)


def test_sign_order_and_direction_put_the_best_first() -> None:
    values = [0.3, 0.1, 0.9]
    assert sorted(values, key=lambda v: -Mode.max.sign * v) == [0.9, 0.3, 0.1]
    assert sorted(values, key=lambda v: -Mode.min.sign * v) == [0.1, 0.3, 0.9]
    assert Mode.max.order(Column()) == "desc" and Mode.min.order(Column()) == "asc"
    assert (Mode.max.direction, Mode.min.direction) == ("maximize", "minimize")


def test_a_target_is_reached_by_a_tie_or_better_in_either_direction() -> None:
    assert Mode.max.reached(0.9, 0.9) and Mode.max.reached(0.95, 0.9)
    assert not Mode.max.reached(0.89, 0.9)
    assert Mode.min.reached(0.1, 0.1) and Mode.min.reached(0.05, 0.1)
    assert not Mode.min.reached(0.11, 0.1)
