"""CapacityObserver: records each cluster's nodes, so that the API (which never talks to Ray)
can refuse a sweep whose one trial no node set of the sweep cluster can ever hold."""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping

from sqlalchemy.orm import Session, sessionmaker

from service.engine.launcher import Launcher
from service.settings import Settings
from service.usecases.clusters import record_capacity

log = logging.getLogger("raysweep.capacity")
OBSERVE_INTERVAL_S = 15.0


class CapacityObserver:
    name = "capacity-observer"

    def __init__(
        self,
        db: sessionmaker[Session],
        launchers: Mapping[str, Launcher],
        settings: Settings,
        interval_s: float = OBSERVE_INTERVAL_S,
    ):
        self.db, self.launchers, self.settings = db, launchers, settings
        self.interval_s = interval_s
        self._observed_at: float | None = None
        self._last: dict[str, list[dict[str, float]]] = {}

    def run_once(self) -> int:
        now = time.monotonic()
        if self._observed_at is not None and now - self._observed_at < self.interval_s:
            return 0
        self._observed_at = now
        changed = 0
        for name, launcher in self.launchers.items():
            nodes = launcher.capacity()
            # an empty answer (the head restarting) says nothing about the cluster; an unchanged
            # one needs no write
            if nodes and nodes != self._last.get(name):
                record_capacity(self.db, name, nodes)
                self._last[name], changed = nodes, changed + 1
        return changed
