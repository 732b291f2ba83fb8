"""No module of the installed packages (service, raysweep, trainers) grows past 400 lines: a
module that long holds more than one thing, and a newcomer cannot read it in one sitting. A
change that would take one past the limit splits it along its seams first (docs/layout.md)."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PACKAGES = ("service", "raysweep", "trainers")
MAX_LINES = 400


def module_lengths() -> dict[str, int]:
    return {
        path.relative_to(REPO).as_posix(): len(path.read_text().splitlines())
        for package in PACKAGES
        for path in sorted((REPO / package).rglob("*.py"))
    }


def test_no_module_grows_past_the_limit() -> None:
    lengths = module_lengths()
    assert len(lengths) > 100, "the packages' modules were not found"
    too_long = {name: lines for name, lines in lengths.items() if lines > MAX_LINES}
    assert not too_long, f"split these along their seams (at most {MAX_LINES} lines): {too_long}"
