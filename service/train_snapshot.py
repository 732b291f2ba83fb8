"""Ray Train's checkpoint snapshot of a run (``checkpoint_manager_snapshot.json`` beside its
checkpoints), read and kept whole.

Train rewrites the snapshot in place after each checkpoint (ray 2.60's
``CheckpointManager._write_state_to_storage`` opens the file for output, which empties it, then
writes it). A process killed between the two, its node lost mid-report, leaves an empty or cut
file, and every later start of the run fails on it (``CheckpointManagerInitializationError``):
the trial can never resume and ends failed. So each snapshot that parses is copied beside it
(``SNAPSHOT_COPY``, by a report callback that runs after Train's checkpoint manager, written under
a temporary name and moved into place), and before a run starts ``repair_snapshot`` puts that
copy back over a snapshot that does not parse. The copy is at most the report being written
behind, and its checkpoints all exist: Train deletes the checkpoints a report drops only after it
has written that report's snapshot.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

from service.storage import delete_file, read_bytes, write_bytes

log = logging.getLogger(__name__)
TRAIN_SNAPSHOT = "checkpoint_manager_snapshot.json"  # Ray Train's record of a run's checkpoints
SNAPSHOT_COPY = "raysweep_snapshot_copy.json"  # the last snapshot of the run that parsed


def _parsed(data: bytes | None) -> dict[str, Any] | None:
    """The snapshot in ``data``; None when there is none or it does not parse (cut short)."""
    if not data:
        return None
    try:
        snapshot = json.loads(data)
    except ValueError:
        return None
    return snapshot if isinstance(snapshot, dict) else None


def read_snapshot(run_uri: str) -> dict[str, Any] | None:
    """The run's snapshot, or its copy when the snapshot was cut short; None when neither
    parses (a run that never checkpointed)."""
    snapshot = _parsed(read_bytes(f"{run_uri}/{TRAIN_SNAPSHOT}"))
    return snapshot if snapshot is not None else _parsed(read_bytes(f"{run_uri}/{SNAPSHOT_COPY}"))


def copy_snapshot(run_uri: str) -> None:
    """Keep the run's snapshot as its copy, if it parses (called after each checkpoint)."""
    data = read_bytes(f"{run_uri}/{TRAIN_SNAPSHOT}")
    if _parsed(data) is not None and data is not None:
        write_bytes(f"{run_uri}/{SNAPSHOT_COPY}", data)


def repair_snapshot(run_uri: str) -> str | None:
    """Before the run starts: a snapshot that does not parse is replaced by its copy, or removed
    when there is no copy that parses (the run then starts afresh rather than never); a whole
    one becomes the copy, should the copy lag (its process died between Train's write and the
    copy, after Train deleted a checkpoint the older copy names). What was done, in a sentence,
    or None when the snapshot was whole or absent."""
    uri = f"{run_uri}/{TRAIN_SNAPSHOT}"
    data = read_bytes(uri)
    if data is None:
        return None
    copy = read_bytes(f"{run_uri}/{SNAPSHOT_COPY}")
    if _parsed(data) is not None:
        if copy != data:  # a process lost before it copied its last report's: copied now
            write_bytes(f"{run_uri}/{SNAPSHOT_COPY}", data)
        return None
    if _parsed(copy) is not None and copy is not None:
        write_bytes(uri, copy)
        what = "put back its copy from the report before"
    else:
        delete_file(uri)
        what = "removed it (no copy): the run starts from its first epoch"
    done = f"Ray Train's checkpoint snapshot of {run_uri} was cut short ({len(data)} bytes); {what}"
    log.warning("%s", done)
    return done


def rewrite_snapshots(run_uri: str, rewrite: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
    """Apply ``rewrite`` (a snapshot dict -> the dict to keep) to the run's snapshot and its copy,
    each written whole; a file that does not parse is left to ``repair_snapshot``."""
    for name in (TRAIN_SNAPSHOT, SNAPSHOT_COPY):
        uri = f"{run_uri}/{name}"
        snapshot = _parsed(read_bytes(uri))
        if snapshot is None:
            continue
        before = json.dumps(snapshot)
        after = rewrite(json.loads(before))
        if json.dumps(after) != before:
            write_bytes(uri, json.dumps(after).encode())
