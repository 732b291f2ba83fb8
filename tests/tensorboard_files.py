"""TensorBoard event files read back by TensorBoard's own reader, for tests: what a directory
holds as TensorBoard shows it, and where a sweep's trial keeps its files.

From a Ray test, once a trial has finished::

    logdir = trial_logdir(settings.storage_root, experiment_id, trial.tune_trial_id)
    assert_epochs_written(logdir, range(1, 4), tags=("train_loss", "val_accuracy"))
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

from tensorboard.backend.event_processing.event_accumulator import EventAccumulator
from tensorboard.backend.event_processing.io_wrapper import IsTensorFlowEventsFile

from service.storage import train_runs_uri
from trainers.registry import TENSORBOARD_DIR


class Point(NamedTuple):
    step: int
    value: float
    wall_time: float


def trial_logdir(storage_root: str, experiment_id: str, tune_trial_id: str) -> str:
    """Where a sweep's trial (its Train run) writes its TensorBoard scalars."""
    return f"{train_runs_uri(storage_root, experiment_id)}/{tune_trial_id}/{TENSORBOARD_DIR}"


def event_files(logdir: str | Path) -> list[Path]:
    directory = Path(logdir)
    if not directory.is_dir():
        return []
    return sorted(p for p in directory.iterdir() if IsTensorFlowEventsFile(str(p)))


def read_scalars(logdir: str | Path) -> dict[str, list[Point]]:
    """Every scalar tag in ``logdir``'s event files as TensorBoard shows it (points from a
    restarted run's older files at or past its restart step dropped), by step."""
    accumulator = EventAccumulator(str(logdir), size_guidance={"scalars": 0})
    accumulator.Reload()
    return {
        tag: [Point(e.step, e.value, e.wall_time) for e in accumulator.Scalars(tag)]
        for tag in accumulator.Tags()["scalars"]
    }


def assert_epochs_written(
    logdir: str | Path, epochs: Iterable[int], tags: Iterable[str] = ("epoch", "train_loss")
) -> dict[str, list[Point]]:
    """That ``logdir`` holds event files whose ``tags`` have exactly one point at each of
    ``epochs`` (and at no other step), and ``epoch`` (where written) equal to its step; returns
    the scalars for further checks."""
    files = event_files(logdir)
    assert files, f"no TensorBoard event files in {logdir}"
    scalars = read_scalars(logdir)
    wanted = sorted(epochs)
    for tag in tags:
        assert tag in scalars, f"{tag} not in {logdir} (tags: {sorted(scalars)})"
        steps = [point.step for point in scalars[tag]]
        assert steps == wanted, f"{tag} at steps {steps} in {logdir}, expected {wanted}"
    for point in scalars.get("epoch", []):
        assert point.value == point.step, f"epoch {point.value} written at step {point.step}"
    return scalars
