"""TensorBoard scalars of the Ray Train run a worker belongs to, written to
``<run dir>/tensorboard/`` on the run's storage: beside its checkpoints, under the storage path or
URI the run was given (``<storage>/<experiment id>/train/<trial>/tensorboard/`` for a trial).
No TensorBoard package is needed (``trainers.events`` writes the files).

The bundled trainers' loop writes every metric it reports there (rank 0, step = epoch). Code of
your own writes its metrics the same way::

    import ray.train
    from trainers.tensorboard import scalar_writer

    def train_loop_per_worker(config):
        for epoch in range(1, config["epochs"] + 1):
            metrics = {"epoch": epoch, "val_loss": train_one_epoch()}
            scalar_writer().write(metrics, step=epoch)  # on every rank: rank 0 writes
            ray.train.report(metrics)

Writing never raises: a failure is logged and the run goes on.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Mapping
from typing import Any

import ray.train
from pyarrow import fs

from trainers.events import EventFileWriter
from trainers.registry import TENSORBOARD_DIR

log = logging.getLogger(__name__)


class ScalarWriter:
    """Writes scalars to one event file in ``directory`` (on ``filesystem``, or local), opened at
    the first write. ``enabled=False``: writes nothing (a rank other than 0, no Train run).

    A failed write is logged (with its traceback the first time) and the next write starts a
    new file, so one bad moment of the storage loses only that write."""

    def __init__(self, directory: str, filesystem: fs.FileSystem | None, enabled: bool = True):
        self.directory = directory
        self.enabled = enabled
        self._filesystem = filesystem
        self._file: EventFileWriter | None = None
        self._failures = 0
        self._lock = threading.Lock()

    def write(self, metrics: Mapping[str, Any], step: int) -> bool:
        """Write every number in ``metrics`` at ``step`` (nested mappings as ``a/b``, text left
        out); False when nothing was written. Never raises."""
        if not self.enabled:
            return False
        try:
            with self._lock:
                if self._file is None:
                    self._file = EventFileWriter(self.directory, self._filesystem)
                    # a new file of a run that restarted: TensorBoard drops the old points from
                    # this step on, which this run reports again
                    self._file.mark_start(step)
                self._file.add_scalars(metrics, step)
            return True
        except Exception:
            self._failed()
            return False

    def _failed(self) -> None:
        self._failures += 1
        self._file = None
        if self._failures == 1:
            log.warning(
                "could not write TensorBoard scalars to %s; the run goes on without them",
                self.directory,
                exc_info=True,
            )
        else:
            log.warning(
                "TensorBoard scalars: %d writes to %s failed", self._failures, self.directory
            )


# one writer per run directory and rank in this process: the kit's and the user's writes share it
_writers: dict[str, ScalarWriter] = {}
_writers_lock = threading.Lock()
_told_no_context = threading.Event()


def scalar_writer() -> ScalarWriter:
    """The writer of the current Ray Train run's TensorBoard scalars: one per process, on rank 0;
    other ranks, and callers outside a Train worker, get one that writes nothing."""
    try:
        context = ray.train.get_context()
        rank = context.get_world_rank()
        # Train V2's StorageContext (a DeveloperAPI): the run's filesystem and its directory
        storage: Any = context.get_storage()
        filesystem: fs.FileSystem = storage.storage_filesystem
        directory = f"{storage.experiment_fs_path}/{TENSORBOARD_DIR}"
    except Exception:
        _tell_no_context()
        return ScalarWriter("", None, enabled=False)
    key = f"{rank}:{directory}"
    with _writers_lock:
        if key not in _writers:
            _writers[key] = ScalarWriter(directory, filesystem, enabled=rank == 0)
        return _writers[key]


def _tell_no_context() -> None:
    if not _told_no_context.is_set():
        _told_no_context.set()
        log.warning(
            "no TensorBoard scalars: no Ray Train run's storage here (outside a Train worker?)",
            exc_info=True,
        )
