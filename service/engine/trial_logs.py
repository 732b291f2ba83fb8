"""What a Train worker prints, kept with its run: every line of its stdout and stderr (Python's
and the C libraries' alike: the process's file descriptors 1 and 2 are captured), stamped with
its time, stream and a sequence number, in ``<run dir>/logs/`` on the sweep's storage, where it
survives the node and the API reads it (``service.usecases.trial_logs``).

One stream per worker of each worker-group attempt: ``<attempt>-rank<r>``, the attempt named by
the worker group's placement group (a restart gets a new one). A stream keeps its head (the
first quarter of ``max_bytes``) and its latest lines (two rolling segments of three eighths
each); what falls between is dropped, and the reader says how many lines. Each line is still
written to the worker's own output (Ray's worker logs), after it passed the pipe: on a hard crash
of the process (a segfault) what was still in the pipe is lost from both. Lines are cut at
``MAX_LINE_BYTES``; a carriage return (a progress bar) ends a line.

Written straight to the storage path when it is local; on a remote storage URI each file is
uploaded when the function returns or raises (limits: a remote run's logs are not followed
live, and a worker Ray kills, a stopped trial's, uploads nothing)."""

from __future__ import annotations

import contextlib
import fcntl
import inspect
import json
import logging
import os
import shutil
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

from pyarrow import fs

from service.storage import LOG_HEAD, LOGS_DIR

log = logging.getLogger(__name__)

STREAMS = {1: "stdout", 2: "stderr"}
# a line longer than this is cut into several (a progress bar without newlines, a dump)
MAX_LINE_BYTES = 64 * 1024
# the pipes hold this much before a writer waits for their reader (Linux's default is 64 KiB)
PIPE_BYTES = 1 << 20
READER_JOIN_S = 2.0


def stream_name(attempt: str, rank: int) -> str:
    return f"{attempt}-rank{rank}"


class StreamFiles:
    """A stream's bounded files: the head, then rolling segments of which the latest two stay.
    Its first record (sequence 0, no text) marks when the stream began. A write that fails
    (a full disk) turns the files off; nothing is raised to the worker."""

    def __init__(self, directory: Path, name: str, max_bytes: int):
        self.directory, self.name = directory, name
        self.head_bytes = max_bytes // 4
        self.segment_bytes = max(1, max_bytes * 3 // 8)
        self.segment = -1  # writing the head
        self.written = 0
        self.lock = threading.Lock()
        self.sequence = 0
        self.broken = False
        self.file: IO[str] | None = self._open()
        self._append("start", "", 0, round(time.time(), 3))
        self.file.flush()

    def _path(self, segment: int) -> Path:
        suffix = LOG_HEAD if segment < 0 else f"{segment:06d}"
        return self.directory / f"{self.name}.{suffix}.jsonl"

    def _open(self) -> IO[str]:
        return self._path(self.segment).open("a", encoding="utf-8")

    def write(self, stream: str, texts: list[str]) -> None:
        """Append lines read together: one time stamp and one flush for all (a line's own
        costs the worker's training thread CPU and the GIL: `bench/trial_logs.py`)."""
        with self.lock:
            if self.broken:
                return
            now = round(time.time(), 3)
            try:
                for text in texts:
                    self.sequence += 1
                    self._append(stream, text, self.sequence, now)
                if self.file is not None:
                    self.file.flush()
            except (OSError, ValueError):  # logs must never fail a trial: stop keeping them
                self.broken = True
                log.warning("stopped keeping the worker's output in %s", self.directory)

    def _append(self, stream: str, text: str, sequence: int, now: float) -> None:
        # one record per line, written by hand: json.dumps of a dict per line cost more than
        # the rest of the line's handling
        line = f'{{"n": {sequence}, "t": {now}, "s": "{stream}", "m": {json.dumps(text)}}}'
        limit = self.head_bytes if self.segment < 0 else self.segment_bytes
        if self.written and self.written + len(line) + 1 > limit:
            assert self.file is not None
            self.file.close()
            self.segment += 1
            self.written = 0
            stale = self._path(self.segment - 2)
            if self.segment >= 2:
                stale.unlink(missing_ok=True)  # the latest two segments stay: the tail
            self.file = self._open()
        assert self.file is not None
        self.file.write(line + "\n")
        self.written += len(line) + 1

    def close(self) -> None:
        with self.lock:
            if self.file is not None:
                with contextlib.suppress(OSError, ValueError):
                    self.file.close()
                self.file = None
            self.broken = True


class CapturedOutput:
    """Within the block, file descriptors 1 and 2 go through pipes whose lines are written to
    ``files`` and passed on to where they went before. A reader owns its copy of where the
    output went before and the files' end: one still reading when the block ends (a child
    process holding the pipe) goes on alone and closes them itself."""

    def __init__(self, files: StreamFiles):
        self.files = files
        self.saved: dict[int, int] = {}
        self.python_streams: tuple[Any, Any] = (None, None)
        self.readers: list[threading.Thread] = []

    def __enter__(self) -> CapturedOutput:
        self.python_streams = (sys.stdout, sys.stderr)
        try:
            for fd, stream in STREAMS.items():
                read_end, write_end = os.pipe()
                with contextlib.suppress(OSError):  # Linux: room for bursts
                    fcntl.fcntl(write_end, getattr(fcntl, "F_SETPIPE_SZ", 1031), PIPE_BYTES)
                passthrough = os.dup(fd)
                reader = threading.Thread(
                    target=self._pump,
                    args=(read_end, passthrough, stream),
                    name=f"raysweep-log-{stream}",
                    daemon=True,
                )
                _flush_python_streams()
                self.saved[fd] = os.dup(fd)
                os.dup2(write_end, fd)
                os.close(write_end)
                reader.start()
                self.readers.append(reader)
        except BaseException:
            self._restore()
            raise
        # only streams that do not write to the descriptors already: replacing a worker's own
        # makes Ray Train's print patch (when on) write each print twice
        if not _writes_to(sys.stdout, 1):
            sys.stdout = _text_stream(1)
        if not _writes_to(sys.stderr, 2):
            sys.stderr = _text_stream(2)
        return self

    def _pump(self, read_end: int, passthrough: int, stream: str) -> None:
        pending = b""
        try:
            with os.fdopen(read_end, "rb", buffering=0) as pipe:
                while chunk := pipe.read(65536):
                    with contextlib.suppress(OSError):  # where it went before is gone
                        os.write(passthrough, chunk)
                    pending += chunk.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
                    *lines, pending = pending.split(b"\n")
                    while len(pending) > MAX_LINE_BYTES:  # a line without end yet: its start
                        lines.append(pending[:MAX_LINE_BYTES])
                        pending = pending[MAX_LINE_BYTES:]
                    self.files.write(
                        stream,
                        [
                            line[start : start + MAX_LINE_BYTES].decode("utf-8", "replace")
                            for line in lines
                            for start in range(0, max(len(line), 1), MAX_LINE_BYTES)
                        ],
                    )
            if pending:
                self.files.write(stream, [pending.decode("utf-8", "replace")])
        finally:
            os.close(passthrough)

    def _restore(self) -> None:
        _flush_python_streams()
        sys.stdout, sys.stderr = self.python_streams
        for fd, saved in self.saved.items():
            with contextlib.suppress(OSError):
                os.dup2(saved, fd)  # drops the pipe's write end: its reader drains and ends
                os.close(saved)
        self.saved = {}

    def __exit__(self, *exc: object) -> None:
        self._restore()
        for reader in self.readers:
            reader.join(timeout=READER_JOIN_S)
        if not any(reader.is_alive() for reader in self.readers):
            self.files.close()
        # else: a child process still holds a pipe; its reader keeps the files open until then


def _writes_to(stream: Any, fd: int) -> bool:
    try:
        return bool(stream.fileno() == fd)
    except (AttributeError, OSError, ValueError):  # no descriptor of its own (a test's capture)
        return False


def _text_stream(fd: int) -> IO[str]:
    """A line-buffered text stream on a descriptor, left open when it is dropped."""
    return open(fd, "w", buffering=1, encoding="utf-8", errors="replace", closefd=False)


def _flush_python_streams() -> None:
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):  # a closed or replaced stream: nothing to flush
            stream.flush()


def _worker_identity() -> tuple[str, int]:
    """(attempt, rank): the worker group's placement group names the attempt."""
    try:
        import ray
        import ray.train

        rank = ray.train.get_context().get_world_rank()
        group = ray.get_runtime_context().get_placement_group_id() or "local"
        return group[:12], int(rank)
    except Exception:  # outside a Train run (a test calling the function directly)
        return "local", 0


def _takes_config(function: Callable[..., Any]) -> bool:
    """Whether Ray Train would pass the function its config (it takes one argument or none)."""
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):
        return True
    return any(
        p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.VAR_POSITIONAL) for p in parameters
    )


@contextlib.contextmanager
def kept_output(run_uri: str, attempt: str, rank: int, max_bytes: int) -> Iterator[None]:
    """Within the block, this process's output is kept in ``<run_uri>/logs`` as the stream of
    ``attempt`` and ``rank`` (on a remote storage URI, uploaded when the block ends). Keeping it
    never fails the block: where it cannot be kept, the block runs without."""
    capture = None
    try:
        filesystem, path = fs.FileSystem.from_uri(f"{run_uri}/{LOGS_DIR}")
        local = isinstance(filesystem, fs.LocalFileSystem)
        directory = Path(path) if local else Path(tempfile.mkdtemp(prefix="raysweep-logs-"))
        directory.mkdir(parents=True, exist_ok=True)
        capture = CapturedOutput(StreamFiles(directory, stream_name(attempt, rank), max_bytes))
        capture.__enter__()
    except Exception:
        log.warning("cannot keep this process's output; running without", exc_info=True)
        capture = None
    if capture is None:
        yield
        return
    try:
        yield
    finally:
        with contextlib.suppress(Exception):  # never replace the block's own outcome
            capture.__exit__(None, None, None)
        if not local:
            _upload(directory, filesystem, path)


class TrialStopped(BaseException):
    """Raised in a trial's training function at its report once its trial was stopped (a
    BaseException, as SystemExit: the user's ``except Exception`` must not catch it)."""


class LoggedFunction:
    """The training function Ray Train runs on each worker, with the worker's output kept in
    ``<run_uri>/logs``. Picklable (Train ships it to the workers). Keeping the logs never fails
    the trial: where they cannot be kept, the function runs without."""

    def __init__(self, function: Callable[..., Any], run_uri: str, max_bytes: int):
        self.function, self.run_uri, self.max_bytes = function, run_uri, max_bytes
        self.__name__ = getattr(function, "__name__", "train_loop")
        self.takes_config = _takes_config(function)

    def __call__(self, config: dict[str, Any]) -> Any:
        attempt, rank = _worker_identity()
        with kept_output(self.run_uri, attempt, rank, self.max_bytes):
            try:
                return self.function(config) if self.takes_config else self.function()
            except TrialStopped:  # the service stopped it (pruned, a warm group's next
                raise  # trial): no error, so no traceback in its logs and the driver's
            except BaseException:
                # Train reports the error, but the worker prints no traceback of it
                with contextlib.suppress(Exception):
                    traceback.print_exc()
                raise


def _upload(directory: Path, filesystem: fs.FileSystem, path: str) -> None:
    try:
        filesystem.create_dir(path, recursive=True)
        for file in directory.iterdir():
            with filesystem.open_output_stream(f"{path}/{file.name}") as out:
                out.write(file.read_bytes())
    except Exception:  # never fail a trial over its logs
        pass
    finally:
        shutil.rmtree(directory, ignore_errors=True)
