"""Slots for work that takes seconds (code package checks), shared fairly between projects.

A first-come queue let one project's burst of 19 MiB uploads hold both check slots and queue
every other project's upload behind all of them. Here a freed slot goes to the waiting request
of the project that holds the fewest slots, the earliest first among equals: a project waiting
behind another's burst gets the next slot. On the event loop (one per API process), so the
bookkeeping needs no lock."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from itertools import count


@dataclass
class _Waiter:
    order: int
    project: str
    granted: asyncio.Future[None] = field(repr=False)


class FairSlots:
    def __init__(self, capacity: int):
        self.capacity = capacity
        self.held: Counter[str] = Counter()
        self.waiting: list[_Waiter] = []
        self._arrivals = count()

    @asynccontextmanager
    async def slot(self, project: str) -> AsyncIterator[None]:
        waiter = _Waiter(next(self._arrivals), project, asyncio.get_running_loop().create_future())
        self.waiting.append(waiter)
        self._grant()
        try:
            await waiter.granted
        except asyncio.CancelledError:  # the client went away while it waited
            if waiter in self.waiting:
                self.waiting.remove(waiter)
            elif waiter.granted.done() and not waiter.granted.cancelled():
                self._release(project)
            raise
        try:
            yield
        finally:
            self._release(project)

    def _release(self, project: str) -> None:
        self.held[project] -= 1
        self._grant()

    def _grant(self) -> None:
        # a waiter whose request was cancelled meanwhile (its handler not yet run) is dropped
        self.waiting = [w for w in self.waiting if not w.granted.done()]
        while self.waiting and sum(self.held.values()) < self.capacity:
            waiter = min(self.waiting, key=lambda w: (self.held[w.project], w.order))
            self.waiting.remove(waiter)
            self.held[waiter.project] += 1
            waiter.granted.set_result(None)
