"""Warm worker groups: a sweep's trials run one after another on a Ray Train worker group that
stays up, instead of each starting its own (process starts, imports, torch.distributed's set-up:
most of a short trial's time).

A Tune trial actor is reused for the sweep's next trial (Tune's ``reuse_actors``), and it keeps
its group in this module (``WarmGroup``): a Ray Train run started once, whose function on every
worker (``service/engine/warm_worker.py``) takes trial after trial from the group's mailbox
actor. The trial actor hands each trial to the group as a ``Job`` and relays its reports to Tune
as Train's ``TuneReportCallback`` does, registering each checkpoint in the trial's own run
directory with Ray Train's checkpoint manager, so the trial's run reads as one Train made: a
cold run of it (a restored sweep, an extension, warm groups off) resumes from it.

The group holds its gate lease from trial to trial: the lease passes to the next trial of the
same sweep (``HeldLease.handover``) unless a run of another owner waits for resources, when the
group is given up and the trial asks in the queue like any other. An idle group (its actor
cached, no trial) is given up as soon as a run of another owner waits, or after
``WarmPolicy.idle_s``. A worker error or a lost worker ends the group; the trial starts again
on a new group from its latest checkpoint, up to its ``max_failures`` (as Ray Train restarts a
worker group). A stopped trial's workers stop at their next report; one that does not report
within ``STOP_WAIT_S`` loses its group.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
import traceback
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import ray
import ray.train
from ray import tune
from ray.train.v2.api.config import CheckpointConfig, FailureConfig, RunConfig, ScalingConfig

from service.engine.gate import HeldLease
from service.engine.ray_compat import (
    ActorID,
    CheckpointManager,
    ControllerCallback,
    StorageContext,
    TrainingReport,
    TrainRunContext,
    core_worker,
    train_session,
)
from service.engine.train_run import LeanTrainer, backend_config
from service.engine.trial_plan import TrialPlan, WarmPolicy
from service.engine.user_code import CODE_LOAD_MARKER
from service.engine.warm_mailbox import Complete, Ended, Job, Mailbox
from service.engine.warm_worker import MAILBOX_KEY, serve_trials
from service.train_snapshot import copy_snapshot, repair_snapshot

log = logging.getLogger(__name__)

CHECKPOINT_PATH_KEY = "checkpoint_path"  # what TuneReportCallback adds to a report
STOP_WAIT_S = 5.0  # a stopped trial's workers have this long to reach a report
CLOSE_WAIT_S = 10.0  # a closed group's Train run has this long to end before it is killed
# a relay waiting this long for Tune to take a report counts as idle: Tune stopped or paused
# the trial and keeps its actor for a later trial. Long: a loaded driver's Tune takes seconds
# for a report now and then, and a group given up under a training trial costs it a restart
TUNE_SILENT_S = 30.0
# Tune waits this long for a reused trial actor's previous function to end (its default is 2 s,
# and a reset that times out fails the next trial): above STOP_WAIT_S and a kill
THREAD_TIMEOUT_S = "30"
WARM_GROUPS_DIR = "raysweep-warm-groups"


class MailboxWatch(ControllerCallback):
    """Runs in the group's Train controller: gives the mailbox the controller's actor id, by
    which the trial kills it (with the workers it owns) when the group must end at once. An id,
    not a handle: a handle's class is imported where it is unpickled, and the mailbox would
    import Ray Train for it (about 1 s of CPU in every group's mailbox)."""

    def __init__(self, mailbox: Any) -> None:
        self.mailbox = mailbox

    def after_controller_start(self, train_run_context: TrainRunContext) -> None:
        self.mailbox.set_controller.remote(ray.get_runtime_context().get_actor_id())


class WarmTrialFailed(RuntimeError):
    """A trial's training function raised on a warm group (or its group was lost) more times
    than its ``max_failures``."""


@dataclass(frozen=True)
class Outcome:
    kind: str  # finished | stopped | failed | given_up | unloadable (its code: CodeLoadError)
    message: str = ""
    last_metrics: dict[str, Any] | None = None
    relayed: int = 0  # reports this run handed Tune


def stop_requested() -> bool:
    """Whether Tune asked this trial actor's function to end (a reset for the next trial)."""
    session = train_session()
    event = getattr(session, "stop_event", None)
    return bool(event is not None and event.is_set())


def idle_for(busy: bool, idle_since: float, tune_since: float | None, now: float) -> float | None:
    """How long a group has idled: since its last trial ended, or since Tune last left a report
    of its trial untaken for ``TUNE_SILENT_S`` (a stopped or paused trial whose actor Tune
    keeps); None while it trains."""
    if not busy:
        return now - idle_since
    if tune_since is not None and now - tune_since > TUNE_SILENT_S:
        return now - tune_since
    return None


def give_up_why(idle: float | None, idle_s: float, contended: Callable[[], bool]) -> str | None:
    """Why an idle group gives its lease up now (``contended`` asks the gate whether a run of
    another owner waits, only of an idle group); None to keep it."""
    if idle is None:
        return None
    if idle > idle_s:
        return f"idle {idle:.0f}s (RAYSWEEP_WARM_GROUP_IDLE_S)"
    if contended():
        return "a run of another owner waits for its resources"
    return None


def register(manager: Any, report: Any) -> None:
    """Ray Train's checkpoint manager notifies its listeners on an event loop."""

    async def call() -> None:
        manager.register_checkpoint(report)

    asyncio.run(call())


class WarmGroup:
    """One warm worker group, kept by its trial actor across the trials Tune gives it."""

    def __init__(self, plan: TrialPlan, policy: WarmPolicy, lease: HeldLease) -> None:
        self.plan, self.policy, self.lease = plan, policy, lease
        self.world = int(plan.num_workers)  # type: ignore[arg-type]  # warm plans are fixed
        self.mailbox: Any = (
            ray.remote(Mailbox).options(num_cpus=0, max_concurrency=64).remote(self.world)
        )
        self.seq = 0
        self.lock = threading.Lock()
        self.busy = True
        self.closed = False
        self.idle_since = time.monotonic()
        self.tune_since: float | None = None  # when the relay began waiting on Tune
        self.given_up = False  # closed to free its resources, not for a failure
        self.ended = threading.Event()
        self.failure = ""
        threading.Thread(target=self._fit, name="raysweep-warm-group", daemon=True).start()
        threading.Thread(target=self._watch_idle, name="raysweep-warm-idle", daemon=True).start()

    def _fit(self) -> None:
        # trial.py imports this module
        from service.engine.trial import WorkerGroupWatch, failure_summary

        plan = self.plan
        try:
            LeanTrainer(
                serve_trials,
                train_loop_config={MAILBOX_KEY: self.mailbox},
                backend_config=backend_config(plan),
                scaling_config=ScalingConfig(
                    num_workers=self.world,
                    use_gpu=plan.use_gpu,
                    resources_per_worker=plan.resources_per_worker(),
                ),
                run_config=RunConfig(  # type: ignore[arg-type]  # Train V2's
                    name=f"group-{uuid.uuid4().hex[:12]}",
                    storage_path=f"/tmp/{WARM_GROUPS_DIR}",
                    failure_config=FailureConfig(max_failures=0),
                    callbacks=[
                        WorkerGroupWatch(self.lease.key, plan.owner, None),  # type: ignore[list-item]
                        MailboxWatch(self.mailbox),  # type: ignore[list-item]
                    ],
                ),
            ).fit()
        except BaseException as error:  # the group's run ended with a worker's error
            failures = getattr(error, "worker_failures", None) or {}
            # the summary, then what each cause says (a lost worker's ActorDiedError)
            detail = "".join(
                "".join(traceback.format_exception(e)) for e in [*failures.values(), error]
            )
            summary = failure_summary(failures) if failures else f"{type(error).__name__}: {error}"
            self.failure = f"{summary}\n{detail}"
        finally:
            self.ended.set()

    def _watch_idle(self) -> None:
        """Give the group up when it idles: without a trial, or with one whose report Tune has
        not taken for ``TUNE_SILENT_S`` (Tune stopped or paused the trial and keeps the actor
        for a trial not yet there; its workers wait at their next report)."""
        while not self.closed:
            time.sleep(1.0)
            with self.lock:
                if self.closed:
                    return
                idle = idle_for(self.busy, self.idle_since, self.tune_since, time.monotonic())
            why = give_up_why(idle, self.policy.idle_s, self.lease.contended)
            if why is not None:
                self.close(why, given_up=True)

    def take(self, request: Any) -> bool:
        """Claim the idle group for the trial asking ``request``: the lease passes to it."""
        with self.lock:
            usable = not (self.closed or self.busy or self.ended.is_set())
            self.busy = True
        if not usable:
            self.close("its worker group ended")
            return False
        if self.lease.handover(request):
            return True
        self.close("its lease could not pass to the next trial")
        return False

    def run(self, name: str, plan: TrialPlan, config: dict[str, Any]) -> Outcome:
        """Run one trial on the group, relaying its reports to Tune."""
        from service.engine.trial import failure_summary  # trial.py imports this module

        storage = StorageContext(storage_path=plan.storage_path, experiment_dir_name=name)
        run_uri = f"{plan.storage_path}/{name}"
        repair_snapshot(run_uri)
        # Train V2's config (the V1 name is typed)
        manager = CheckpointManager(CheckpointConfig(num_to_keep=None), storage)  # type: ignore[arg-type]
        latest = manager.latest_checkpoint_result
        if latest is not None and latest.checkpoint is None:
            latest = None
        self.seq += 1
        job = Job(
            seq=self.seq,
            name=name,
            entrypoint=plan.entrypoint,
            config=config,
            storage_path=plan.storage_path,
            log_max_bytes=plan.log_max_bytes,
            resume=latest.checkpoint.path if latest is not None and latest.checkpoint else None,
            stamp=time.strftime("%Y-%m-%d_%H-%M-%S") + f"_{self.seq}",
            torch_process_group=plan.torch_process_group,
            recycle_after=self.policy.trials,
            max_rss_bytes=self.policy.max_rss_mb << 20,
        )
        try:
            ray.get(self.mailbox.assign.remote(job))
        except ray.exceptions.RayActorError as error:
            self._mailbox_lost(error)
        last = dict(latest.metrics) if latest is not None else None
        relayed = 0
        try:
            while True:
                if self.given_up:  # its resources went to another run: the trial goes on
                    return Outcome("given_up", last_metrics=last, relayed=relayed)
                # read before the take: a worker posts its reports and its end (a raised error)
                # to the mailbox before its function returns and the group's run ends, so a take
                # after the run ended holds all of them (ending on "ended" before taking lost a
                # worker's ValueError as "the worker group ended" under load)
                ended = self.ended.is_set()
                reports, finished = self._take(job.seq, 0.0 if ended else 1.0)
                for index, metrics, checkpoint in reports:
                    metrics = dict(metrics)
                    if checkpoint is not None:
                        saved = ray.train.Checkpoint(
                            f"{storage.experiment_fs_path}/{checkpoint}",
                            filesystem=storage.storage_filesystem,
                        )
                        register(manager, TrainingReport(saved, metrics, False))
                        copy_snapshot(run_uri)
                        metrics[CHECKPOINT_PATH_KEY] = saved.path
                    last = metrics
                    self.tune_since = time.monotonic()
                    try:
                        tune.report(metrics)
                    except SystemExit:  # Tune stopped the trial: its workers stop here
                        self.mailbox.answer.remote(job.seq, index, True)
                        self._wait_stopped(job.seq)
                        raise
                    finally:
                        self.tune_since = None
                    self.mailbox.answer.remote(job.seq, index, False)
                    relayed += 1
                errors = {rank: e for rank, (e, _) in finished.items() if e is not None}
                unloadable = [e for e in errors.values() if e.startswith(CODE_LOAD_MARKER)]
                if unloadable:  # its code cannot be imported: no new group would do better
                    self.close("the trial's code cannot be loaded", kill=True)
                    message = unloadable[0].splitlines()[0].removeprefix(CODE_LOAD_MARKER)
                    return Outcome("unloadable", message, last, relayed)
                if errors:
                    self.close("a worker's training function raised", kill=True)
                    summary = failure_summary(errors)
                    detail = next(iter(errors.values()))
                    return Outcome("failed", f"{summary}\n{detail}", last, relayed)
                if len(finished) == self.world:
                    recycled = [r for _, r in finished.values() if r]
                    if recycled:
                        log.info("a new worker group for the next trial: %s", recycled[0])
                        self.close(recycled[0])
                    return Outcome("finished", last_metrics=last, relayed=relayed)
                if ended:
                    failure = self.failure or "the worker group ended"
                    return Outcome("failed", failure, last, relayed)
                if stop_requested():
                    self._wait_stopped(job.seq)
                    return Outcome("stopped", last_metrics=last, relayed=relayed)
        finally:
            with self.lock:
                self.busy = False
                self.idle_since = time.monotonic()

    def _take(self, seq: int, wait_s: float) -> tuple[list[Complete], dict[int, Ended]]:
        """``Mailbox.take``; nothing once the group was closed (its mailbox is gone). A mailbox
        lost otherwise (its node died) ends the group: its trial goes on on a new one."""
        try:
            taken: tuple[list[Complete], dict[int, Ended]] = ray.get(
                self.mailbox.take.remote(seq, wait_s)
            )
            return taken
        except ray.exceptions.RayActorError as error:
            self._mailbox_lost(error)
            return [], {}

    def _mailbox_lost(self, error: Exception) -> None:
        """The mailbox is gone: closed with the group, or lost with its node, which ends the
        group as a failure (its trial goes on on a new one)."""
        if not self.closed:
            self.failure = f"the worker group's mailbox actor is gone: {error}"
            self.close("its mailbox actor is gone", kill=True)
        self.ended.wait(CLOSE_WAIT_S)
        self.ended.set()

    def _wait_stopped(self, seq: int) -> None:
        """Stop the job's workers at their next report; a group whose workers do not get there
        within ``STOP_WAIT_S`` is ended at once."""
        self.mailbox.stop.remote(seq)
        deadline = time.monotonic() + STOP_WAIT_S
        while time.monotonic() < deadline and not self.ended.is_set() and not self.closed:
            _, finished = self._take(seq, 0.5)
            if len(finished) == self.world:
                if any(e or r for e, r in finished.values()):
                    self.close("a stopped trial's workers could not be put back")
                return
        self.close("a stopped trial's workers did not reach a report", kill=True)

    def close(self, why: str, kill: bool = False, given_up: bool = False) -> None:
        """End the group (its workers return, or are killed with their controller) and give up
        its lease. ``given_up``: to free its resources (a trial still on it goes on elsewhere
        from its latest checkpoint, as after a yield), not for a failure."""
        with self.lock:
            if self.closed:
                return
            self.closed = True
            self.given_up = given_up
        log.info("ending the warm worker group: %s", why)
        try:
            ray.get(self.mailbox.close.remote(), timeout=10)
            if kill or not self.ended.wait(CLOSE_WAIT_S):
                controller = ray.get(self.mailbox.get_controller.remote(), timeout=10)
                if controller is not None:  # as ray.kill would, by id (no public API does)
                    core_worker().kill_actor(ActorID.from_hex(controller), True)
            ray.kill(self.mailbox)
        except Exception:  # its actors die with this trial actor anyway
            log.warning("could not end the warm worker group cleanly", exc_info=True)
        finally:
            self.lease.release()
