"""The Tune function trial: one Ray Train (V2) run of the spec's trainer or code, with
torch.distributed set up on its workers as Ray's TorchTrainer does (unless the code asks for no
process group)."""

from __future__ import annotations

import logging
import threading
import time
import uuid
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import ray
from ray import tune
from ray.train.v2.api.callback import RayTrainCallback

# Train V2's own classes: ray.train and ray.train.torch re-export them at runtime when V2 is on
# (it is in 2.60), but type checkers read the V1 names those modules import first
from ray.train.v2.api.config import CheckpointConfig, FailureConfig, RunConfig, ScalingConfig
from ray.tune.experiment import Trial
from ray.tune.integration.ray_train import TuneReportCallback

from service.engine.gate import HeldLease, admitted, gate, lease_key, yield_via
from service.engine.ray_compat import (
    ControllerCallback,
    FailureDecision,
    TrainRunContext,
    WorkerGroupCallback,
    train_session,
)
from service.engine.train_run import LeanTrainer, SnapshotCopy, backend_config
from service.engine.trial_logs import LoggedFunction
from service.engine.trial_plan import TrialPlan, train_config
from service.engine.user_code import CodeLoadError, load_training_function
from service.engine.warm_group import WarmGroup, WarmTrialFailed
from service.train_snapshot import repair_snapshot
from trainers.registry import (
    KIT_LOOP,
    YIELD_VIA_KEY,
    YIELDED_KEY,
    load_reference,
)

log = logging.getLogger(__name__)

# Ray Train retries controller failures (a worker group that did not start in time) and node
# preemptions without end by default; a run that keeps failing so ends with its error instead
CONTROLLER_FAILURE_LIMIT = 3
PREEMPTION_FAILURE_LIMIT = 10
# in a trial's config under promotion ASHA: the epoch its current segment trains to (its next
# rung); the scheduler raises it when it promotes the trial
BUDGET_KEY = "raysweep_budget"
# in the config of a Tune trial that continues an earlier one (an extended sweep): that trial's
# name, which its Train run and its database row keep
RUN_KEY = "raysweep_run"
# in the config of a Tune trial that Tune starts again after an error of its own (not the loss
# of its process): the attempt fails at once, so the trial ends failed with its first error
FAILED_KEY = "raysweep_failed"
CONTROL_KEYS = frozenset({BUDGET_KEY, RUN_KEY, FAILED_KEY})
# how long a Train run keeps telling the gate about its worker group (its registration, a
# restart) while the gate does not answer (one restarting on another node: Ray notices a dead
# node within about 30 s)
REGISTER_FOR_S = 120.0


def run_name(trial_id: str, config: dict[str, Any]) -> str:
    """The trial's identity in the database and on storage: its Tune id, or the one it
    continues."""
    return str(config.get(RUN_KEY, trial_id))


def named(trial: Trial) -> str:
    """The trial as the database and storage know it (``run_name``)."""
    return run_name(trial.trial_id, trial.config)


class TrialFailedBefore(RuntimeError):
    """A new attempt of a trial whose last one failed with an error of its own (its Train run
    past max_failures, its code): running it again would repeat that."""


def build_datasets(plan: TrialPlan) -> dict[str, Any] | None:
    """The plan's Ray Data datasets (``code.datasets``), built here, in the trial actor or the
    final run's driver, as Ray Train's ``datasets=`` wants them. A dataset that cannot be built
    would fail every trial the same way: it is a ``CodeLoadError``, which fails the sweep."""
    if not plan.datasets:
        return None
    import ray.data  # only runs given datasets pay for importing Ray Data

    readers = {
        "parquet": ray.data.read_parquet,
        "csv": ray.data.read_csv,
        "json": ray.data.read_json,
    }
    built = {}
    for name, source in plan.datasets:
        try:
            if source.path is not None:
                dataset = readers[str(source.read_format)](source.path)
            else:
                dataset = load_reference(str(source.function))()
        except Exception as error:
            raise CodeLoadError(
                f"cannot build dataset {name!r} from {source.describe()}: "
                f"{type(error).__name__}: {error}"
            ) from error
        if not isinstance(dataset, ray.data.Dataset):
            raise CodeLoadError(
                f"dataset {name!r}: {source.function} returned a {type(dataset).__name__}, "
                "not a ray.data.Dataset"
            )
        built[name] = dataset
    return built


def failure_summary(errors: Mapping[int, BaseException | str]) -> str:
    """``rank N: Type: first line of the message`` for each failed rank: from Train's worker
    exceptions, or from a warm worker's error text (``Type: message`` and its traceback)."""
    return "; ".join(f"rank {rank}: {first_line(error)}" for rank, error in sorted(errors.items()))


def first_line(error: BaseException | str) -> str:
    if isinstance(error, str):
        lines = error.strip().splitlines()
        return lines[0][:300] if lines else "an error with no message"
    message = str(error).strip()
    return (
        f"{type(error).__name__}: {message.splitlines()[0][:300]}"
        if message
        else type(error).__name__
    )


def tell_gate(method: str, *args: Any) -> None:
    """Call the gate on a thread of its own, again every 2 s until it answers (at most
    ``REGISTER_FOR_S``): a gate restarting on another node (its own died, often with the run's
    workers) must neither hold up the run nor lose what it is told."""

    def call() -> None:
        deadline = time.monotonic() + REGISTER_FOR_S
        while True:
            try:
                ray.get(getattr(gate(), method).remote(*args), timeout=10)
                return
            except Exception:
                if time.monotonic() > deadline:
                    log.warning("the gate did not take %s", method, exc_info=True)
                    return
                time.sleep(2)

    threading.Thread(target=call, name=f"raysweep-{method}", daemon=True).start()


class WorkerGroupWatch(ControllerCallback, WorkerGroupCallback):
    """Runs in the Train controller actor and tells the cluster's gate about the run's worker
    groups: each group's placement group, registered under the run's lease so the gate removes
    it when the run ends, whoever ends it (a trial stopped by the scheduler loses its controller
    before the controller removes its group), and each restart Ray Train decides on, with the
    failure it restarts after, for the driver to count and store as an event. ``label``: the
    trial the restarts are told for; None (a warm group) tells none: a warm group runs many
    trials, Train retries only its start (a start that timed out), and a worker's error ends the
    group and reaches its trial through the group's relay. (A label of its own, "warm group",
    was once stored as a trial of that name.)"""

    def __init__(self, lease: str, owner: str, label: str | None) -> None:
        self.lease, self.owner, self.label = lease, owner, label
        self.controller = ""
        self.last_failure = "a worker group failure"

    def after_controller_start(self, train_run_context: TrainRunContext) -> None:
        self.controller = ray.get_runtime_context().get_actor_id() or ""

    def after_worker_group_start(self, worker_group: Any) -> None:
        group = worker_group.get_worker_group_state().placement_group_handle.placement_group
        tell_gate("register_group", self.lease, group, self.controller)

    def after_worker_group_poll_status(self, worker_group_status: Any) -> None:
        if worker_group_status.errors:
            self.last_failure = failure_summary(worker_group_status.errors)

    def before_controller_execute_failure_decision(self, failure_decision: Any) -> None:
        if failure_decision == FailureDecision.RETRY and self.label is not None:
            once = uuid.uuid4().hex  # retried while the gate restarts: counted once
            tell_gate("notify", self.owner, self.label, "restarted", self.last_failure, once)


def build_trainer(
    plan: TrialPlan,
    config: dict[str, Any],
    name: str,
    checkpoints_to_keep: int | None,
    callbacks: list[RayTrainCallback],
) -> LeanTrainer:
    """One Ray Train run of the plan. Its name is stable (a trial id, a final run's id), so a
    resubmitted run finds its checkpoints and the workers continue from the latest one (from the
    report before, should its snapshot have been cut short by a lost node)."""
    run_uri = f"{plan.storage_path}/{name}"
    repair_snapshot(run_uri)
    return LeanTrainer(
        LoggedFunction(load_training_function(plan.entrypoint), run_uri, plan.log_max_bytes),
        train_loop_config=config,
        datasets=build_datasets(plan),
        backend_config=backend_config(plan),
        scaling_config=ScalingConfig(
            num_workers=plan.num_workers,
            use_gpu=plan.use_gpu,
            resources_per_worker=plan.resources_per_worker(),
        ),
        run_config=RunConfig(  # type: ignore[arg-type]  # Train V2's (the V1 name is typed)
            name=name,
            storage_path=plan.storage_path,
            failure_config=FailureConfig(
                max_failures=plan.max_failures,
                controller_failure_limit=CONTROLLER_FAILURE_LIMIT,
                max_preemption_failures=PREEMPTION_FAILURE_LIMIT,
            ),
            checkpoint_config=CheckpointConfig(num_to_keep=checkpoints_to_keep),
            # internal callbacks are accepted too
            callbacks=[*callbacks, SnapshotCopy(run_uri)],  # type: ignore[list-item]
        ),
    )


def wait_until_tune_has_the_last_result(limit_s: float = 30.0) -> None:
    """Return only once Tune's main thread has taken the Train run's last report.

    Train's TuneReportCallback hands each report to the trial actor's main thread through a
    queue actor; when this function returns, Tune's thread reports one more (final) result into
    the one-slot queue that main thread reads from. If that final result gets there first, the
    main thread, moving the last report across, blocks on the full slot it alone empties, and
    the trial hangs forever (seen in Ray 2.60 when a trial's last epoch and its end are close).
    So wait until both queues are empty, and still are 0.1 s later (the main thread persists a
    report's artifacts between taking it and queueing it). Private session attributes: if Ray
    renames them, this waits for nothing."""
    try:
        session = train_session()
        relay = getattr(session, "_inter_actor_queue", None)
        local = getattr(session, "result_queue", None)
        if relay is None or local is None:
            return
        deadline = time.monotonic() + limit_s
        settled = 0
        while time.monotonic() < deadline:
            settled = settled + 1 if relay.empty() and local.empty() else 0
            if settled == 2:
                return
            time.sleep(0.1)
    except Exception:  # a best effort: never fail a finished trial over it
        log.warning("could not check that Tune took the trial's last report", exc_info=True)


def reports_so_far() -> int:
    """How many results this trial actor has handed Tune (its session's iteration count)."""
    try:
        session = train_session()
        return int(getattr(session, "iteration", 1)) if session is not None else 1
    except Exception:  # a private attribute: if Ray renames it, nothing is reported again
        return 1


def report_again_if_silent(metrics: dict[str, Any] | None, reported: int | None = None) -> None:
    """A trial whose Train run had nothing left to train (a segment restored at its rung, or a
    trial restarted after its last epoch's checkpoint) reported nothing in this actor, and
    Tune's final result for it would then hold no metric: Tune fails the whole sweep on that
    ("Trial returned a result which did not include the specified metric"). Its Train run's
    latest checkpointed result is reported again instead (the recorder stores an epoch once).
    ``reported``: the trial's own count of reports, where the session's counts others too (a
    reused actor's); the session's count otherwise."""
    if metrics and (reports_so_far() if reported is None else reported) == 0:
        log.info("the Train run trained no further; reporting its latest result again")
        tune.report(dict(metrics))


def run_trial(config: dict[str, Any], plan: TrialPlan) -> None:
    """Runs in the Tune trial actor; the Train run is named after the trial."""
    trial_id = run_name(tune.get_context().get_trial_id(), config)
    if trial_id in plan.finished_trials:
        # the previous driver saw this trial end after Tune's last state snapshot
        return
    if config.get(FAILED_KEY):
        raise TrialFailedBefore(f"trial {trial_id} failed with the error above; not run again")
    budget = config.get(BUDGET_KEY)
    config = {k: v for k, v in config.items() if k not in CONTROL_KEYS}
    if budget is not None:
        # one segment: the Train run of the same name resumes from its checkpoint and ends,
        # with a checkpoint, at the rung or step the scheduler set; a bundled trainer's LR
        # schedule spans the whole budget, not the segment
        if plan.trainer is not None:
            config["lr_schedule_epochs"] = plan.epochs
        plan = replace(plan, epochs=min(int(budget), plan.epochs))
    # a promotion-ASHA segment of the kit's loop may yield its workers to a project below its
    # share at a checkpoint (the loop asks the gate); it then waits for a slot again and its Train
    # run resumes from that checkpoint, here, in the same Tune trial
    rung = int(budget) if budget is not None and plan.entrypoint == KIT_LOOP else None
    request = plan.lease_request(trial_id, rung=rung)
    if plan.warm is not None:
        run_warm(trial_id, config, plan, request)
        return
    while True:
        # Train keeps every checkpoint while the trial runs; the driver prunes a finished trial
        # to its latest N plus its best (service.usecases.retention)
        with admitted(request, plan.resource_wait_s) as granted:
            held = plan.with_workers(granted)
            train = train_config(held, config)
            if request.rung is not None:
                train[YIELD_VIA_KEY] = yield_via(request)
            watch = WorkerGroupWatch(lease_key(request), plan.owner, trial_id)
            trainer = build_trainer(held, train, trial_id, None, [TuneReportCallback(), watch])
            result = trainer.fit()
        if not (result.metrics or {}).get(YIELDED_KEY):
            wait_until_tune_has_the_last_result()
            report_again_if_silent(result.metrics)
            return


# this trial actor's warm worker group, kept for the next trial Tune reuses the actor for
_warm_group: WarmGroup | None = None


def run_warm(trial_id: str, config: dict[str, Any], plan: TrialPlan, request: Any) -> None:
    """The trial on this actor's warm worker group (``service/engine/warm_group.py``): the
    group the actor's last trial left, if the gate lets its lease pass to this one, else a new
    one once the gate grants it. A worker's error or a lost group costs the group; the trial
    goes on from its latest checkpoint on a new one, up to ``max_failures`` times. Code that
    cannot be imported on the workers (they load it; this actor does not, sparing it torch and
    the trainers' imports) raises ``CodeLoadError`` at once, which fails the sweep."""
    global _warm_group
    assert plan.warm is not None
    failures = relayed = 0
    while True:
        group = _warm_group
        if group is None or not group.take(request):
            _warm_group = None
            lease = HeldLease.acquire(request, plan.resource_wait_s)
            group = _warm_group = WarmGroup(plan, plan.warm, lease)
        train = train_config(plan, config)
        if request.rung is not None:
            train[YIELD_VIA_KEY] = yield_via(request)
        outcome = group.run(trial_id, plan, train)
        relayed += outcome.relayed
        if outcome.kind == "unloadable":  # its workers import the code (this actor does not)
            _warm_group = None
            raise CodeLoadError(outcome.message)
        if outcome.kind == "failed":
            group.close(f"trial {trial_id} failed")
            _warm_group = None
            failures += 1
            if failures > plan.max_failures:
                raise WarmTrialFailed(
                    f"Training failed after {failures} attempt(s): {outcome.message}"
                )
            first = outcome.message.splitlines()[0] if outcome.message else "a worker failed"
            tell_gate("notify", plan.owner, trial_id, "restarted", first, uuid.uuid4().hex)
            continue
        if outcome.kind == "given_up":  # its group went to another run's waiting trial
            _warm_group = None
            continue  # waits for a slot again and resumes from its checkpoint
        if outcome.kind == "finished" and (outcome.last_metrics or {}).get(YIELDED_KEY):
            group.close(f"trial {trial_id} yielded its workers")
            _warm_group = None
            continue  # waits for a slot again and resumes from its checkpoint
        if outcome.kind == "finished":
            # Tune's session counts the reports of every trial this actor ran: the trial's own
            # count decides
            report_again_if_silent(outcome.last_metrics, relayed)
        return
