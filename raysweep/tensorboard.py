"""A sweep's TensorBoard runs as the API reads them, and the ``--logdir_spec`` that opens them.

Every trial's Train run writes its reported metrics as TensorBoard scalars into its own
directory on the storage URI (``<storage>/<experiment id>/train/<trial>/tensorboard``); a run is
named by the trial's number and the config keys that differ between the sweep's trials.

Example::

    from raysweep import Client
    from raysweep.tensorboard import logdir_spec

    runs = Client().tensorboard_runs("exp-2f1c")
    print(f"tensorboard --logdir_spec '{logdir_spec(runs.runs)}'")
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel, Field

from raysweep.lifecycle import TrialState

MAX_NAME_CHARS = 120


class TensorBoardRun(BaseModel):
    """One trial as a TensorBoard run."""

    trial_id: int
    number: int = Field(description="The trial's number in its sweep (1 first).")
    state: TrialState
    name: str = Field(
        description="The run's name: `#<number>` and the config keys that differ between the "
        "sweep's trials, e.g. `#3 lr=0.0123 optimizer=adam`."
    )
    logdir: str = Field(
        description="Where its event files are: a path or URI under the server's storage URI."
    )


class TensorBoardRuns(BaseModel):
    """An experiment's trials as TensorBoard runs, by number."""

    experiment_id: str
    runs: list[TensorBoardRun]


def varying_keys(configs: Sequence[Mapping[str, Any]]) -> list[str]:
    """The config keys whose values are not the same in every config (every key with one)."""
    keys = sorted({key for config in configs for key in config})
    if len(configs) < 2:
        return keys
    return [
        key
        for key in keys
        if len({json.dumps(config.get(key), sort_keys=True, default=str) for config in configs}) > 1
    ]


def _value_text(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float):
        return f"{value:.3g}"
    if isinstance(value, int | str):
        return str(value)
    return json.dumps(value, sort_keys=True, default=str)


def run_name(number: int, config: Mapping[str, Any], keys: Sequence[str]) -> str:
    """``#<number> key=value ...`` over ``keys`` (floats to 3 significant digits), at most
    ``MAX_NAME_CHARS``; with no comma or colon, which ``--logdir_spec`` would split on."""
    parts = [f"#{number}"]
    parts += [f"{key}={_value_text(config[key])}" for key in keys if key in config]
    name = " ".join(parts).replace(",", ";").replace(":", "=")
    return name if len(name) <= MAX_NAME_CHARS else name[: MAX_NAME_CHARS - 1] + "…"


def logdir_spec(runs: Sequence[TensorBoardRun]) -> str:
    """TensorBoard's ``--logdir_spec``: ``name:logdir`` per run, comma-separated. A logdir with
    a comma cannot be written in it (a ``ValueError``)."""
    for run in runs:
        if "," in run.logdir:
            raise ValueError(f"TensorBoard cannot name a directory with a comma: {run.logdir}")
    return ",".join(f"{run.name}:{run.logdir}" for run in runs)
