"""Batched, idempotent writes of what a running sweep reports.

The Tune callback only appends to an in-memory buffer, so Tune never waits on the store. A
writer thread drains the buffer in batches (stored in one transaction each); a failed batch is
sent again as it was, with backoff, and nothing is dropped. Results are unique per (trial,
iteration), so a result delivered twice (a restored driver, a restarted worker group) is stored
once; a batch sent again after its answer was lost is recognised by its number
(``BatchPoster``) and stored once, restarts and events included.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from service.engine.job_api import JobApi, Refused, Unavailable
from service.usecases.driving import MAX_BATCH, MAX_BATCH_BYTES, ops_json
from service.usecases.reports import Op

log = logging.getLogger(__name__)


class BufferFull(RuntimeError):
    pass


@dataclass
class Recorder:
    """Buffers a sweep's reports and hands them to ``sink`` in batches, one at a time, from
    its own thread: the driver's sink posts them to the API (``BatchPoster``), which stores
    each batch in one transaction (``ResultStore``)."""

    sink: Callable[[list[Op]], None]
    flush_interval_s: float = 0.2
    max_buffered: int = 1_000_000
    batch_size: int = MAX_BATCH
    max_backoff_s: float = 10.0
    _buffer: deque[Op] = field(default_factory=deque)
    _lock: threading.Condition = field(default_factory=threading.Condition)
    _stopping: bool = False
    _abandoned: bool = False
    _refused: bool = False
    _in_flight: int = 0
    _thread: threading.Thread | None = None
    last_error: str | None = None

    def start(self) -> Recorder:
        self._thread = threading.Thread(target=self._run, name="raysweep-recorder", daemon=True)
        self._thread.start()
        return self

    def submit(self, op: Op) -> None:
        with self._lock:
            waiting = len(self._buffer) + self._in_flight  # the batch being sent (again) too
            if waiting >= self.max_buffered:
                raise BufferFull(
                    f"{waiting} writes are waiting to be stored "
                    f"(last error: {self.last_error}); refusing to buffer more"
                )
            self._buffer.append(op)
            self._lock.notify()

    def flush(self, timeout_s: float | None = None) -> bool:
        """Wait until everything submitted so far is written; False on timeout, or once the
        store refused a batch (nothing more will be written)."""
        deadline = None if timeout_s is None else time.monotonic() + timeout_s
        with self._lock:
            self._lock.notify()
            while self._buffer or self._in_flight:
                if self._refused:
                    return False
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    return False
                self._lock.wait(timeout=remaining if remaining is not None else 1.0)
        return True

    def close(self, timeout_s: float | None = None) -> bool:
        """Write what is buffered, waiting at most ``timeout_s``; False when writes were left
        unwritten, and the writer then stops retrying them (its owner has given up)."""
        done = self.flush(timeout_s)
        with self._lock:
            self._stopping = True
            self._abandoned = not done
            self._lock.notify_all()
        if self._thread is not None:
            self._thread.join(timeout=5)
        return done

    def _run(self) -> None:
        backoff = 0.1
        failed: list[Op] | None = None  # sent again as it was: the sink numbers it the same
        while True:
            with self._lock:
                if failed is not None:
                    batch, failed = failed, None
                elif not self._buffer:
                    if self._stopping:
                        return
                    self._lock.wait(timeout=self.flush_interval_s)
                    continue
                else:
                    count = min(self.batch_size, len(self._buffer))
                    batch = [self._buffer.popleft() for _ in range(count)]
                self._in_flight = len(batch)
            try:
                self.sink(batch)
            except Refused as error:
                # the API will not take it however often it is sent: the sweep has ended (or a
                # newer driver replaced this one) and the token with it; waiting on it would
                # hold the driver's end for the whole drain timeout
                self.last_error = f"the API refused a batch: {error}"
                log.error(
                    "%s; %d write(s) not stored", self.last_error, len(self._buffer) + len(batch)
                )
                with self._lock:
                    self._buffer.extendleft(reversed(batch))
                    self._in_flight, self._refused = 0, True
                    self._lock.notify_all()
                return
            except Exception as error:
                # the store's error (the database, or the API, unavailable), or ours, with its
                # traceback: either way nothing is dropped, and a full buffer names it
                self.last_error = f"{type(error).__name__}: {error}"
                log.warning(
                    "storing results failed (%s); retrying in %.1fs",
                    self.last_error,
                    backoff,
                    exc_info=not isinstance(error, Unavailable),
                )
                with self._lock:
                    if self._abandoned:
                        self._buffer.extendleft(reversed(batch))
                        self._in_flight = 0
                        log.error("stopped retrying with %d write(s) unwritten", len(self._buffer))
                        return
                # the same batch again, as it was: had it been stored with its answer lost, the
                # store recognises it (``BatchSequence``) and stores it once
                failed = batch
                time.sleep(backoff)
                backoff = min(backoff * 2, self.max_backoff_s)
                continue
            backoff = 0.1
            self.last_error = None
            with self._lock:
                self._in_flight = 0
                self._lock.notify_all()


class BatchPoster:
    """The driver's sink: each batch to the records route in one call, unless its reports are
    so large that the body would pass the API's limit (then in halves, in order). Calls are
    numbered 1, 2, ... (``BatchSequence``): a batch handed over again (the recorder retries the
    same list after a failure) gets the numbers it had, so what the API stored of it before is
    not stored twice, and any other batch numbers after every part of it."""

    def __init__(self, api: JobApi) -> None:
        self.api = api
        self.next_number = 1
        self.last: tuple[int, list[Op]] | None = None

    def __call__(self, batch: list[Op]) -> None:
        again = self.last is not None and self.last[1] is batch
        first = self.last[0] if again and self.last is not None else self.next_number
        bodies = self._bodies(batch)
        self.last = (first, batch)
        self.next_number = max(self.next_number, first + len(bodies))
        for number, body in enumerate(bodies, start=first):
            self.api.call("POST", "/sweep/records", body=body, sequence=number)

    def _bodies(self, batch: list[Op]) -> list[bytes]:
        """The batch's body, or its halves' (each split again while too large), in order."""
        body = ops_json(batch)
        if len(body) > MAX_BATCH_BYTES and len(batch) > 1:
            half = len(batch) // 2
            return self._bodies(batch[:half]) + self._bodies(batch[half:])
        return [body]
