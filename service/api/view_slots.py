"""How many expensive views (curves, history, rungs, configs, importance, the Pareto front) one
API process computes at once.

Each is CPU-bound Python on the thread pool. Eight viewers asking uncached views of a 3,000-trial
sweep at once shared the GIL with the event loop so thinly that `/healthz` waited over a second
and every view took several times as long as alone; past the slots a request waits, holding no
GIL, and gets a 503 with Retry-After only if no slot frees within the wait. A route waits through
``view_slot`` (a dependency) on threads of the slots' own, so waiting views never take the API's
few threads (RAYSWEEP_API_THREADS) from cheap requests."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial

import anyio

from service.errors import Busy

# threads that do nothing but wait for a slot (each waits at most RAYSWEEP_VIEW_WAIT_S)
WAITING_THREADS = 256


class ViewSlots:
    def __init__(self, at_once: int, wait_s: float):
        self.at_once, self.wait_s = at_once, wait_s
        self._free = threading.BoundedSemaphore(at_once)

        self._waiting = anyio.CapacityLimiter(WAITING_THREADS)

    def _busy(self) -> Busy:
        return Busy(
            f"{self.at_once} other view(s) of this server took longer than {self.wait_s:g} s "
            "(RAYSWEEP_VIEW_WAIT_S) to compute; try again"
        )

    @contextmanager
    def held(self) -> Iterator[None]:
        """A slot for the block, waited for on this thread."""
        if not self._free.acquire(timeout=self.wait_s):
            raise self._busy()
        try:
            yield
        finally:
            self._free.release()

    async def take(self) -> None:
        """Wait for a slot on a thread of the slots' own; ``give_back`` it when done. Shielded:
        a request given up while it waits still gets (and so gives back) its slot."""
        with anyio.CancelScope(shield=True):
            taken = await anyio.to_thread.run_sync(
                partial(self._free.acquire, timeout=self.wait_s), limiter=self._waiting
            )
        if not taken:
            raise self._busy()

    def give_back(self) -> None:
        self._free.release()
