"""Sweep artifacts on the storage URI: a local directory or any URI pyarrow's filesystems accept
(``s3://``, ``gs://``, ``hdfs://``...). Each experiment owns ``<storage>/<experiment-id>``."""

from __future__ import annotations

import json
from typing import Any

from pyarrow import fs

# a Train run's logs (service.engine.trial_logs writes them, service.usecases.trial_logs reads
# them): <run dir>/logs/<stream>.head.jsonl, then <stream>.<segment>.jsonl
LOGS_DIR = "logs"
LOG_HEAD = "head"


def experiment_uri(storage_root: str, experiment_id: str) -> str:
    return f"{storage_root.rstrip('/')}/{experiment_id}"


def train_runs_uri(storage_root: str, experiment_id: str) -> str:
    """Where the experiment's Ray Train runs live; each is named after its Tune trial."""
    return f"{experiment_uri(storage_root, experiment_id)}/train"


def final_runs_uri(storage_root: str, experiment_id: str) -> str:
    """Where the experiment's final runs' Ray Train runs live, each named ``final_run_name``."""
    return f"{experiment_uri(storage_root, experiment_id)}/final"


def final_run_name(final_run_id: int) -> str:
    return f"final-{final_run_id}"


def final_run_uri(storage_root: str, experiment_id: str, final_run_id: int) -> str:
    """Where a final run's Ray Train run lives (its checkpoints, its workers' logs)."""
    return f"{final_runs_uri(storage_root, experiment_id)}/{final_run_name(final_run_id)}"


def driver_uri(storage_root: str, experiment_id: str) -> str:
    """Where the sweep's drivers keep their own output (``<this>/logs``, one stream per
    driver job)."""
    return f"{experiment_uri(storage_root, experiment_id)}/driver"


def code_package_uri(storage_root: str, sha256: str) -> str:
    """Where an uploaded code package's zip lives: content-addressed, shared by experiments."""
    return f"{storage_root.rstrip('/')}/code/{sha256}.zip"


def write_bytes(uri: str, data: bytes) -> None:
    """Write a file, creating its directory; written under a temporary name and moved into
    place where the filesystem allows, so a reader never sees half a file."""
    filesystem, path = fs.FileSystem.from_uri(uri)
    parent = path.rsplit("/", 1)[0]
    filesystem.create_dir(parent, recursive=True)
    partial = f"{path}.partial"
    with filesystem.open_output_stream(partial) as stream:
        stream.write(data)
    filesystem.move(partial, path)


def subdirectories(uri: str) -> list[str]:
    """The URIs of a directory's immediate subdirectories (none when it does not exist)."""
    filesystem, path = fs.FileSystem.from_uri(uri)
    infos = filesystem.get_file_info(fs.FileSelector(path, allow_not_found=True))
    prefix = uri[: len(uri) - len(path)] if uri.endswith(path) else ""
    return [prefix + info.path for info in infos if info.type == fs.FileType.Directory]


def delete_tree(uri: str) -> bool:
    """Delete a directory tree; False when there was nothing to delete."""
    filesystem, path = fs.FileSystem.from_uri(uri)
    if filesystem.get_file_info(path).type == fs.FileType.NotFound:
        return False
    filesystem.delete_dir(path)
    return True


def exists(uri: str) -> bool:
    filesystem, path = fs.FileSystem.from_uri(uri)
    return filesystem.get_file_info(path).type != fs.FileType.NotFound


def artifact_uri(storage_root: str, path: str) -> str:
    """The URI of a path Ray reports on the storage filesystem (Ray drops the scheme)."""
    scheme, sep, _ = storage_root.partition("://")
    return f"{scheme}://{path.lstrip('/')}" if sep and "://" not in path else path


def read_bytes(uri: str) -> bytes | None:
    """A file's content; None when it does not exist."""
    filesystem, path = fs.FileSystem.from_uri(uri)
    if filesystem.get_file_info(path).type != fs.FileType.File:
        return None
    with filesystem.open_input_stream(path) as stream:
        data: bytes = stream.read()
    return data


def read_json(uri: str) -> Any:
    """A JSON file's content; None when it does not exist."""
    data = read_bytes(uri)
    return None if data is None else json.loads(data)


def delete_file(uri: str) -> None:
    """Delete one file (it must exist)."""
    filesystem, path = fs.FileSystem.from_uri(uri)
    filesystem.delete_file(path)


def files_in(uri: str) -> list[tuple[str, int]]:
    """(name, size) of a directory's files; none when it does not exist."""
    filesystem, path = fs.FileSystem.from_uri(uri)
    infos = filesystem.get_file_info(fs.FileSelector(path, allow_not_found=True))
    return [(info.base_name, info.size or 0) for info in infos if info.type == fs.FileType.File]


def read_text(uri: str) -> str:
    """A text file's content; empty when it does not exist (it may be rotated away meanwhile)."""
    filesystem, path = fs.FileSystem.from_uri(uri)
    try:
        with filesystem.open_input_stream(path) as stream:
            data: bytes = stream.read()
    except FileNotFoundError:
        return ""
    return data.decode("utf-8", "replace")
