"""Auto-promotion of completed sweeps, as a controller loop: each sweep with ``promotion.auto``
gets its final runs (which the final-run dispatcher then submits as Ray Jobs)."""

from __future__ import annotations

from sqlalchemy.orm import Session, sessionmaker

from service.settings import Settings
from service.usecases.promotion import auto_promote


class Promoter:
    name = "promoter"

    def __init__(self, db: sessionmaker[Session], settings: Settings):
        self.db, self.settings = db, settings

    def run_once(self) -> int:
        return auto_promote(
            self.db, self.settings.final_clusters_for, self.settings.fixed_final_clusters
        )
