"""The actor between a warm worker group's workers and its trial actor
(``service/engine/warm_group.py``): the job the workers run, their reports (complete once every
rank has made it), the trial's answer to each (go on or stop, the same for every rank) and how
each rank ended the job.

Light on purpose: the mailbox is a Ray actor of its own in every warm group, and its process
imports this module. When ``Job`` lived in ``warm_worker`` it imported the workers' loop with
Ray Train's internals under it: an actor of this class took 1.8 s of CPU to start, 0.7 s now
(measured alone on a 2-core machine; a bare actor takes 0.45 s)."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Job:
    """One trial for a warm group: what its workers run and where its run lives."""

    seq: int
    name: str  # the trial's run name (its directory under storage_path)
    entrypoint: str
    config: dict[str, Any]
    storage_path: str
    log_max_bytes: int
    resume: str | None  # the trial's latest checkpoint (a path on its storage), if any
    stamp: str  # names this job's checkpoint directories (a resumed trial's differ)
    torch_process_group: bool
    recycle_after: int  # trials a group runs before it is replaced
    max_rss_bytes: int  # a worker past this after a trial ends the group

    @property
    def run_uri(self) -> str:
        return f"{self.storage_path}/{self.name}"


Complete = tuple[int, dict[str, Any], str | None]  # report index, rank 0's metrics, checkpoint
Ended = tuple[str | None, str | None]  # a rank's error, and why its group must end


class Mailbox:
    """The actor between a warm group's workers and its trial actor: the job the workers run,
    their reports (complete once every rank has made it), the trial's answer to each (go on or
    stop, the same for every rank) and how each rank ended the job."""

    def __init__(self, world: int) -> None:
        self.world = world
        self.cond = threading.Condition()
        self.job: Job | None = None
        self.closed = False
        self.controller: str | None = None  # the group's Train controller actor, its id
        self._clear()

    def _clear(self) -> None:
        self.partial: dict[int, dict[int, tuple[dict[str, Any] | None, str | None]]] = {}
        self.complete: list[Complete] = []
        self.answers: dict[int, bool] = {0: False}
        self.decided: dict[int, bool] = {}  # report index -> the answer the first rank got
        self.stopping = False
        self.finished: dict[int, Ended] = {}

    def set_controller(self, actor_id: str) -> None:
        self.controller = actor_id

    def get_controller(self) -> str | None:
        return self.controller

    def assign(self, job: Job) -> None:
        with self.cond:
            self.job = job
            self._clear()
            self.cond.notify_all()

    def next_job(self, rank: int, done: int, wait_s: float) -> Job | str | None:
        with self.cond:
            self.cond.wait_for(
                lambda: self.closed or (self.job is not None and self.job.seq > done), wait_s
            )
            if self.closed:
                return None
            return self.job if self.job is not None and self.job.seq > done else "wait"

    def go_on(self, seq: int, index: int) -> bool:
        """Called by each rank before its report ``index + 1``: whether to go on, once the
        trial has answered report ``index`` (a stopped trial stores nothing more)."""
        with self.cond:
            self.cond.wait_for(
                lambda: (
                    self.closed
                    or self.job is None
                    or self.job.seq != seq
                    or self.stopping
                    or index in self.answers
                )
            )
            current = self.job is not None and self.job.seq == seq and not self.closed
            go = current and not self.stopping and not self.answers.get(index, True)
            # every rank gets the first rank's answer: one that stopped while another went on
            # into the next epoch's collectives would leave that one waiting for it forever
            return self.decided.setdefault(index, go) and current

    def report(
        self,
        rank: int,
        seq: int,
        index: int,
        metrics: dict[str, Any] | None,
        checkpoint: str | None,
    ) -> None:
        """Rank ``rank``'s report ``index``, with the directory of its checkpoint in the
        trial's run (every rank's files in the same one)."""
        with self.cond:
            if self.job is None or self.job.seq != seq:
                return
            ranks = self.partial.setdefault(index, {})
            ranks[rank] = (metrics, checkpoint)
            if len(ranks) == self.world:
                del self.partial[index]
                first = ranks.get(0, (None, None))[0] or {}
                saved = next((c for _, c in ranks.values() if c), None)
                self.complete.append((index, first, saved))
                self.cond.notify_all()

    def finish(self, rank: int, seq: int, error: str | None, recycle: str | None) -> None:
        with self.cond:
            if self.job is not None and self.job.seq == seq:
                self.finished[rank] = (error, recycle)
                self.cond.notify_all()

    def take(self, seq: int, wait_s: float) -> tuple[list[Complete], dict[int, Ended]]:
        """The reports complete since the last take, and how each rank ended the job so far."""
        with self.cond:
            self.cond.wait_for(lambda: bool(self.complete) or bool(self.finished), wait_s)
            complete, self.complete = self.complete, []
            return complete, dict(self.finished)

    def answer(self, seq: int, index: int, stop: bool) -> None:
        with self.cond:
            if self.job is not None and self.job.seq == seq:
                self.answers[index] = stop
                self.stopping = self.stopping or stop
                self.cond.notify_all()

    def stop(self, seq: int) -> None:
        with self.cond:
            if self.job is not None and self.job.seq == seq:
                self.stopping = True
                self.cond.notify_all()

    def close(self) -> None:
        with self.cond:
            self.closed = True
            self.cond.notify_all()
