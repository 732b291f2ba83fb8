"""The sweep driver's process-local state (never pickled), which what Tune pickles (the callback,
the stopper, the schedulers, the searcher) reaches through ``DriverContext.current()``: the
recorder, the reads it polls through the job's API and the gate (control requests, waiting
trials, the gate's notices, convergence, usage and budget), and what decides the sweep's end."""

from __future__ import annotations

import logging
import re
import time
from collections import Counter
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import ClassVar

from ray.tune.experiment import Trial

from raysweep.lifecycle import TrialState
from service.engine.job_api import Unavailable
from service.engine.ledger import Notice
from service.engine.recorder import Recorder
from service.resources import HeldSegment
from service.usecases.decisions import RungDecided
from service.usecases.exploits import ExploitDecided
from service.usecases.job_outcomes import error_line
from service.usecases.reports import (
    ReservationReclaimed,
    TrialHeld,
    TrialRestarted,
    TrialWaiting,
)

log = logging.getLogger(__name__)

# a check costs a count on the trials index until more trials have completed, then one GP fit:
# asked often, a converged sweep stops before it starts (and cancels) more trials
CONVERGENCE_CHECK_S = 2.0
# how often the driver stores its leases' held compute, checks its budget and tells the gate its
# project's weight and quotas
LEDGER_POLL_S = 5.0


@dataclass
class DriverContext:
    """What one driver process shares between Tune's hooks; never pickled."""

    recorder: Recorder
    read_request: Callable[[], str | None]
    time_attr: str
    max_t: int
    metric: str
    mode: str
    target: float | None
    pause_wait_s: float = 30.0
    poll_s: float = 1.0
    pruned: set[str] = field(default_factory=set)
    request: str | None = None
    target_reached_by: str | None = None
    # pause: trials that saved a checkpoint since it was asked, and whether Tune was interrupted
    checkpointed_since_pause: set[str] = field(default_factory=set)
    pause_asked_at: float | None = None
    interrupted: bool = False
    # why the sweep stops and fails: the first trial that could not load user code, or
    # ``fail_fast_after`` trials that failed with the same error before any ended otherwise
    sweep_error: str | None = None
    fail_fast_after: int = 0
    # how many trials failed with each error fingerprint, while none has ended otherwise
    failures_by_error: Counter[str] = field(default_factory=Counter)
    any_trial_ended_well: bool = False
    # early stopping judges trials at ``time_attr``: a result without it fails its trial
    requires_time_attr: bool = False
    contract_errors: dict[str, str] = field(default_factory=dict)
    # the gate's view of this sweep's trials whose worker groups wait (Tune id -> why)
    read_waiting: Callable[[], dict[str, str]] | None = None
    waiting: dict[str, str] = field(default_factory=dict)
    # what the gate noticed about this sweep's runs: worker-group restarts, reclaimed
    # reservations (given the ids of those the last answer held, now stored, which the gate
    # then forgets; the others come again)
    read_notices: Callable[[Collection[str]], list[Notice]] | None = None
    stored_notices: set[str] = field(default_factory=set)  # each stored once, whatever comes
    unacknowledged_notices: set[str] = field(default_factory=set)  # named in the next ask
    # the driver got SIGTERM (its job was stopped): Tune was interrupted to save its state
    terminated: bool = False
    # the stored early-stopping decisions (a restored driver's scheduler rebuilds from them)
    # and the trials the database holds as final
    read_decisions: Callable[[], list[tuple[str, RungDecided]]] = list
    read_exploits: Callable[[], list[ExploitDecided]] = list
    finished_trials: frozenset[str] = frozenset()
    # promotion ASHA: new configurations the searcher may start now (one before it first says)
    new_trial_slots: int = 1
    # stop.converged: asks the terminator (the reason when converged); what it said last
    check_convergence: Callable[[], str | None] | None = None
    converged: str | None = None
    # the ledger: the gate's leases of this sweep; the project's settings pushed to the gate;
    # stop.budget checked (the reason once spent)
    read_usage: Callable[[], list[HeldSegment]] | None = None
    push_project: Callable[[], None] | None = None
    check_budget: Callable[[], str | None] | None = None
    budget_spent: str | None = None
    stored_segments: dict[tuple[str, float], HeldSegment] = field(default_factory=dict)
    _last_ledger_poll: float = 0.0
    _last_poll: float = 0.0
    _last_waiting_poll: float = 0.0
    _last_convergence_check: float = 0.0

    _current: ClassVar[DriverContext | None] = None

    def bind(self) -> DriverContext:
        DriverContext._current = self
        return self

    @classmethod
    def current(cls) -> DriverContext:
        if cls._current is None:
            raise RuntimeError("no driver context bound in this process")
        return cls._current

    def poll_request(self) -> str | None:
        """The pending control request; a pause can still turn into a cancel."""
        now = time.monotonic()
        if self.request != "cancel" and now - self._last_poll >= self.poll_s:
            self._last_poll = now
            try:
                self.request = self.read_request()
            except Unavailable as error:  # the API or its database down: training goes on
                log.warning("cannot read control requests: %s", error)
            if self.request == "pause" and self.pause_asked_at is None:
                self.pause_asked_at = now
        return self.request

    def poll_convergence(self) -> str | None:
        """Why the sweep has converged, once the terminator says so; asked at most every
        ``CONVERGENCE_CHECK_S`` (it fits a Gaussian process on the completed trials)."""
        now = time.monotonic()
        if (
            self.converged is None
            and self.check_convergence is not None
            and now - self._last_convergence_check >= CONVERGENCE_CHECK_S
        ):
            self._last_convergence_check = now
            try:
                self.converged = self.check_convergence()
            except Exception:  # the API or the fit failing is no reason to stop the sweep
                log.warning("cannot ask the terminator whether the sweep converged", exc_info=True)
        return self.converged

    def report_waiting(self) -> None:
        """Record which trials wait for resources (and which stopped waiting), at most every
        ``poll_s``."""
        now = time.monotonic()
        if self.read_waiting is None or now - self._last_waiting_poll < self.poll_s:
            return
        self._last_waiting_poll = now
        try:
            waiting = self.read_waiting()
        except Exception:  # the gate restarting is no reason to stop the sweep
            log.warning("cannot read the trials waiting for resources", exc_info=True)
            return
        self.report_notices()
        for tune_id in self.waiting.keys() - waiting.keys():
            self.recorder.submit(TrialWaiting(tune_id, None))
        for tune_id, reason in waiting.items():
            if self.waiting.get(tune_id) != reason:
                self.recorder.submit(TrialWaiting(tune_id, reason))
        self.waiting = waiting

    def report_notices(self) -> None:
        """Store what the gate noticed about the sweep's runs since it was last asked."""
        if self.read_notices is None:
            return
        try:
            notices = self.read_notices(self.unacknowledged_notices)
        except Exception:  # the gate restarting or slow: they come again next time, and the
            # acknowledgement goes again (it may not have arrived)
            log.warning("cannot read the gate's notices", exc_info=True)
            return
        # the gate forgot the acknowledged ones before it answered: only this answer's are left
        self.unacknowledged_notices = {notice.id for notice in notices}
        for notice in notices:
            if notice.id in self.stored_notices:
                continue
            self.stored_notices.add(notice.id)
            if notice.kind == "restarted":
                self.recorder.submit(TrialRestarted(notice.label, notice.message))
            else:
                self.recorder.submit(ReservationReclaimed(notice.label, notice.message))

    def report_usage(self, force: bool = False) -> None:
        """At most every ``LEDGER_POLL_S`` (or now): tell the gate the project's weight and
        quotas, store the leases that went on or ended since, and check the budget."""
        now = time.monotonic()
        if not force and now - self._last_ledger_poll < LEDGER_POLL_S:
            return
        self._last_ledger_poll = now
        for step, what in (
            (self.push_project, "tell the gate the project's weight and quotas"),
            (self._store_usage, "read the sweep's held compute from the gate"),
        ):
            if step is None:
                continue
            try:
                step()
            except Exception:  # the gate restarting or the database down: next time
                log.warning("could not %s", what, exc_info=True)
        if self.check_budget is not None and self.budget_spent is None:
            try:
                self.budget_spent = self.check_budget()
            except Exception:
                log.warning("could not check the sweep's compute budget", exc_info=True)

    def _store_usage(self) -> None:
        if self.read_usage is None:
            return
        for segment in self.read_usage():
            key = (segment.key, segment.started)
            if self.stored_segments.get(key) != segment:
                self.recorder.submit(TrialHeld(segment.label, segment))
                self.stored_segments[key] = segment

    def ready_to_pause(self, trials: list[Trial]) -> bool:
        """Every running trial that has reported saved a checkpoint since the pause was asked
        (so resuming redoes no work), or the wait for that ran out."""
        if self.poll_request() != "pause" or self.interrupted:
            return False
        asked = self.pause_asked_at
        if asked is not None and time.monotonic() - asked >= self.pause_wait_s:
            return True
        return all(
            trial.trial_id in self.checkpointed_since_pause
            for trial in trials
            if trial.status == Trial.RUNNING and trial.last_result
        )

    def trial_failed(self, error_text: str) -> None:
        """Count a failure towards ``fail_fast_after``: once N trials have failed with the same
        error while none ended otherwise, the sweep stops with that error instead of running
        every trial into it. (It once asked that the *first* N to end failed alike: one trial
        failing otherwise first, a lost worker say, then kept it from ever stopping.)"""
        if self.any_trial_ended_well or not self.fail_fast_after:
            return
        fingerprint = failure_fingerprint(error_text)
        self.failures_by_error[fingerprint] += 1
        count = self.failures_by_error[fingerprint]
        log.info("fail-fast: %d trial(s) failed with %r, none ended otherwise", count, fingerprint)
        if count >= self.fail_fast_after and self.sweep_error is None:
            self.sweep_error = (
                f"{count} trials failed with the same error and none ended otherwise, so the "
                f"sweep stopped (fault_tolerance.fail_fast_after): {error_line(error_text)}"
            )
            log.error("%s", self.sweep_error)

    def trial_ended_well(self, name: str, state: TrialState) -> None:
        """A trial ended otherwise than failed: from now on failures do not stop the sweep."""
        if not self.any_trial_ended_well and self.fail_fast_after:
            log.info("fail-fast off: trial %s ended %s", name, state.value)
        self.any_trial_ended_well = True

    def end_state(self, trial: Trial) -> TrialState:
        """How a TERMINATED trial ended: pruned by ASHA, completed, or cancelled with its sweep."""
        if trial.trial_id in self.pruned:
            return TrialState.pruned
        if (trial.last_result or {}).get(self.time_attr, 0) >= self.max_t:
            return TrialState.completed
        if self.request == "cancel" or self.target_reached_by or self.converged:
            return TrialState.cancelled
        if self.budget_spent:
            return TrialState.cancelled
        return TrialState.completed


def failure_fingerprint(error_text: str) -> str:
    """What makes two failures the same one: the exception's type and message with numbers,
    addresses and ids blanked (they differ between trials hitting the same bug)."""
    return re.sub(r"0x[0-9a-f]+|[0-9a-f]{8,}|\d+(\.\d+)?", "#", error_line(error_text).lower())
