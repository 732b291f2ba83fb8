"""TensorBoard event files without TensorBoard or TensorFlow: the workers write them, so neither
may be a dependency of theirs.

An event file is a sequence of TFRecords (little-endian length, masked CRC32C of the length, the
data, masked CRC32C of the data), each record one ``tensorboard.Event`` protobuf, encoded here by
hand: the file's first event names its version, and each later one carries a wall time, a step
and a ``Summary`` of ``simple_value`` scalars. Only the handful of fields TensorBoard's scalar
dashboard reads are written.

Example::

    writer = EventFileWriter("/tmp/run/tensorboard")
    writer.add_scalars({"train_loss": 0.4, "val_accuracy": 0.91}, step=3)
"""

from __future__ import annotations

import itertools
import math
import os
import socket
import struct
import threading
import time
from collections.abc import Iterator, Mapping
from typing import Any, Protocol

from pyarrow import fs

FILE_VERSION = "brain.Event:2"
FILE_PREFIX = "events.out.tfevents."
# SessionLog.status START: TensorBoard drops the points at or after this step that earlier
# files of the run wrote (a run restarted from a checkpoint reports those epochs again)
SESSION_START = 1
_CRC_MASK_DELTA = 0xA282EAD8
_U32 = 0xFFFFFFFF
_U64 = 0xFFFFFFFFFFFFFFFF
# one process can open several files in a second: the counter keeps their names apart, in order
_file_numbers = itertools.count()
_numbers_lock = threading.Lock()


def _crc32c_table() -> tuple[int, ...]:
    table = []
    for byte in range(256):
        crc = byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x82F63B78 if crc & 1 else crc >> 1  # Castagnoli, reflected
        table.append(crc)
    return tuple(table)


_CRC_TABLE = _crc32c_table()


def crc32c(data: bytes) -> int:
    """CRC-32C (Castagnoli), as TFRecord framing uses: ``crc32c(b"123456789") == 0xE3069283``."""
    crc = _U32
    table = _CRC_TABLE
    for byte in data:
        crc = table[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ _U32


def masked_crc32c(data: bytes) -> int:
    """The CRC as a TFRecord stores it: rotated and offset, so CRCs of CRCs stay useful."""
    crc = crc32c(data)
    return ((((crc >> 15) | (crc << 17)) & _U32) + _CRC_MASK_DELTA) & _U32


def tf_record(data: bytes) -> bytes:
    """One TFRecord: length, its masked CRC, the data, the data's masked CRC."""
    length = struct.pack("<Q", len(data))
    return (
        length
        + struct.pack("<I", masked_crc32c(length))
        + data
        + struct.pack("<I", masked_crc32c(data))
    )


# --- protobuf wire format --------------------------------------------------------------------


def _varint(value: int) -> bytes:
    value &= _U64  # a negative int64 is its two's complement, ten bytes
    out = bytearray()
    while value > 0x7F:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def _key(field: int, wire_type: int) -> bytes:
    return _varint(field << 3 | wire_type)


def _length_delimited(field: int, payload: bytes) -> bytes:
    return _key(field, 2) + _varint(len(payload)) + payload


def _event(wall_time: float, step: int, what: bytes) -> bytes:
    """``Event{wall_time = 1 (double), step = 2 (int64), what}``; ``what`` one encoded field of
    its oneof (file_version = 3, summary = 5, session_log = 7)."""
    return _key(1, 1) + struct.pack("<d", wall_time) + _key(2, 0) + _varint(step) + what


def file_version_event(wall_time: float) -> bytes:
    return _event(wall_time, 0, _length_delimited(3, FILE_VERSION.encode()))


def session_start_event(wall_time: float, step: int) -> bytes:
    """``Event{session_log{status: START}}`` at ``step``."""
    return _event(wall_time, step, _length_delimited(7, _key(1, 0) + _varint(SESSION_START)))


def scalars_event(wall_time: float, step: int, scalars: Mapping[str, float]) -> bytes:
    """``Event{summary{value{tag, simple_value (float32)}...}}``: every scalar in one event."""
    values = b"".join(
        _length_delimited(1, _length_delimited(1, tag.encode()) + _key(2, 5) + _float32(value))
        for tag, value in scalars.items()
    )
    return _event(wall_time, step, _length_delimited(5, values))


def _float32(value: float) -> bytes:
    try:
        return struct.pack("<f", value)
    except OverflowError:  # finite in float64, out of float32's range: as float32 rounds it
        return struct.pack("<f", math.copysign(math.inf, value))


def scalars_of(metrics: Mapping[str, Any], prefix: str = "") -> Iterator[tuple[str, float]]:
    """Each number in ``metrics`` (bools and ints too) as a scalar, nested mappings' keys joined
    by ``/``; text and other values are left out."""
    for key, value in metrics.items():
        tag = f"{prefix}{key}"
        if isinstance(value, Mapping):
            yield from scalars_of(value, f"{tag}/")
        elif isinstance(value, int | float):
            yield tag, float(value)


# --- files -----------------------------------------------------------------------------------


class _Sink(Protocol):
    def append(self, data: bytes) -> None: ...

    def close(self) -> None: ...


class _LocalFile:
    """A local file, appended to and flushed after every write: a live TensorBoard reads each
    record as soon as it is written."""

    def __init__(self, path: str):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        self._file = open(path, "ab")  # noqa: SIM115  # open for the writer's life

    def append(self, data: bytes) -> None:
        self._file.write(data)
        self._file.flush()

    def close(self) -> None:
        self._file.close()


class _RewrittenObject:
    """A file on a pyarrow filesystem that cannot append (object stores: S3, GCS): the whole file
    is written again after every write, as an object becomes readable only once it is closed.
    Each write costs the file's size (about 100 bytes a scalar)."""

    def __init__(self, filesystem: fs.FileSystem, path: str):
        self._filesystem, self._path = filesystem, path
        self._data = bytearray()
        filesystem.create_dir(path.rsplit("/", 1)[0], recursive=True)

    def append(self, data: bytes) -> None:
        self._data += data
        with self._filesystem.open_output_stream(self._path) as stream:
            stream.write(bytes(self._data))

    def close(self) -> None:
        self._data = bytearray()


def event_file_name(now: float | None = None) -> str:
    """``events.out.tfevents.<time>.<host>.<pid>.<n>``, the name TensorBoard looks for; later
    files sort after earlier ones."""
    with _numbers_lock:
        number = next(_file_numbers)
    when = int(time.time() if now is None else now)
    # padded, so a process's 10th file of a second sorts after its 9th
    return f"{FILE_PREFIX}{when:010d}.{socket.gethostname()}.{os.getpid()}.{number:04d}"


class EventFileWriter:
    """One new event file in ``directory``: a local path, a URI pyarrow understands
    (``s3://bucket/x``, ``file:///x``), or a path on ``filesystem``. Every write is flushed (on an
    object store: the object rewritten), so a TensorBoard watching the directory sees it.

    Example::

        writer = EventFileWriter("s3://bucket/sweeps/run-1/tensorboard")
        writer.add_scalars({"val_loss": 0.52}, step=1)
        writer.close()
    """

    def __init__(self, directory: str, filesystem: fs.FileSystem | None = None):
        if filesystem is None and "://" in directory:
            filesystem, directory = fs.FileSystem.from_uri(directory)
        self.path = f"{directory.rstrip('/')}/{event_file_name()}"
        self._sink: _Sink = (
            _LocalFile(self.path)
            if filesystem is None or isinstance(filesystem, fs.LocalFileSystem)
            else _RewrittenObject(filesystem, self.path)
        )
        self._lock = threading.Lock()
        self._write(file_version_event(time.time()))

    def add_scalars(
        self, metrics: Mapping[str, Any], step: int, wall_time: float | None = None
    ) -> int:
        """Write the numbers in ``metrics`` (see ``scalars_of``) at ``step`` as one event;
        returns how many were written (none: nothing is written)."""
        scalars = dict(scalars_of(metrics))
        if scalars:
            when = time.time() if wall_time is None else wall_time
            self._write(scalars_event(when, int(step), scalars))
        return len(scalars)

    def add_scalar(self, tag: str, value: float, step: int, wall_time: float | None = None) -> None:
        self.add_scalars({tag: value}, step, wall_time)

    def mark_start(self, step: int, wall_time: float | None = None) -> None:
        """Say the run (re)starts at ``step``: TensorBoard drops what earlier files of the
        directory wrote at this step or later (e.g. epochs reported after the checkpoint a
        restarted run resumes from, which it reports again)."""
        self._write(session_start_event(time.time() if wall_time is None else wall_time, step))

    def close(self) -> None:
        with self._lock:
            self._sink.close()

    def _write(self, event: bytes) -> None:
        with self._lock:
            self._sink.append(tf_record(event))
