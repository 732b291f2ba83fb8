"""How a benchmark's plain Tune + Train subprocess hands its figures back: one marked line of
JSON on stdout. Ray forwards what the script's workers print (the kit's device line, say) to
the same stdout, before or after it, so the parent looks for the mark, not the last line. No
imports beyond the standard library: the plain scripts import this before Ray."""

from __future__ import annotations

import json
from typing import Any

MARK = "raysweep-bench-result: "


def print_result(value: Any) -> None:
    print(MARK + json.dumps(value), flush=True)


def read_result(stdout: str) -> Any:
    """The value the script printed with ``print_result`` (its last, should there be several)."""
    marked = [line[len(MARK) :] for line in stdout.splitlines() if line.startswith(MARK)]
    if not marked:
        raise ValueError(f"the script printed no result line:\n{stdout[-2000:]}")
    return json.loads(marked[-1])
