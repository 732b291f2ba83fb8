"""The sweep driver: ``python -m service.engine.driver <experiment-id>``, run as a Ray Job.

Builds a ``tune.Tuner`` from the stored spec, or restores it when the experiment's Tune state
exists (a resubmitted driver), runs it, and records the outcome. It reads and stores through the
API with its job's token (``JobApi``): the recorder's batches (trials, results) and the calls
here (the sweep's state, its outcome). It holds no database credentials: the trials' processes
inherit its environment and run members' code.
"""

from __future__ import annotations

import logging
import os
import signal
import sys
import traceback
from collections.abc import Callable

import ray

from raysweep.lifecycle import EXPERIMENT_ACTIVE, ExperimentState
from raysweep.spec import ExperimentSpec
from service.engine.callback import reported_metrics
from service.engine.driver_context import DriverContext
from service.engine.gate import gate
from service.engine.job_api import JobApi, Refused
from service.engine.launcher import DRIVER_JOB_ENV
from service.engine.leftovers import Leftovers, remove_dead_attempts, remove_own_leftovers
from service.engine.recorder import BatchPoster, Recorder
from service.engine.trial_logs import kept_output
from service.engine.tuner import build_tuner, runtime_env
from service.resources import ProjectShare
from service.settings import Settings, get_settings
from service.storage import driver_uri, read_json, train_runs_uri
from service.train_snapshot import read_snapshot
from service.usecases.convergence import ConvergenceCheck
from service.usecases.decisions import RungDecided
from service.usecases.driving import (
    BudgetSpent,
    ControlRequest,
    DriverEvent,
    DriverEventKind,
    SweepEnded,
    SweepStart,
)
from service.usecases.exploits import ExploitDecided
from service.usecases.extension import History
from service.usecases.job_outcomes import DriverOutcome
from service.usecases.reports import ResultReported, time_attr_of
from trainers.registry import REPORTS_FILE

log = logging.getLogger("raysweep.driver")

RECORDER_DRAIN_TIMEOUT_S = 600
# Tune's state snapshot (what a resubmitted driver restores) every N seconds instead of Tune's
# adaptive >= 10 s: a driver killed between snapshots loses less searcher and trial state
TUNE_SNAPSHOT_INTERVAL_S = "2"


def backfill_from_train_runs(
    recorder: Recorder, runs_uri: str, tune_ids: frozenset[str], time_attr: str
) -> int:
    """Submit the results each unfinished trial's Train run holds on storage.

    A report can reach Ray Train (which saves its checkpoint) and never reach the driver: the
    sweep was paused or the driver died in between. The resumed run continues after the latest
    checkpoint, so its epoch, and the epochs since the checkpoint before it, would be missing;
    the recorder stores only the ones it lacks."""
    submitted = 0
    for tune_id in sorted(tune_ids):
        for result in stored_reports(f"{runs_uri}/{tune_id}", tune_id, time_attr):
            recorder.submit(result)
            submitted += 1
    return submitted


def stored_reports(run_uri: str, tune_id: str, time_attr: str) -> list[ResultReported]:
    """The reports a Train run's checkpoints hold, in order: each checkpoint's own (from Ray
    Train's snapshot), after the reports of the epochs before it that carried no checkpoint (the
    kit's ``REPORTS_FILE`` in it; user code that writes none loses only those)."""
    snapshot = read_snapshot(run_uri)
    found: list[ResultReported] = []
    for result in (snapshot or {}).get("checkpoint_results", []):
        checkpoint = f"{run_uri}/{result['checkpoint_dir_name']}"
        reports = [(metrics, None) for metrics in read_json(f"{checkpoint}/{REPORTS_FILE}") or []]
        for metrics, uri in [*reports, (result.get("metrics", {}), checkpoint)]:
            step = metrics.get(time_attr)
            if isinstance(step, int):
                found.append(ResultReported(tune_id, step, reported_metrics(metrics), uri))
    return found


def record_leftovers(api: JobApi, kind: DriverEventKind, what: str, found: Leftovers) -> None:
    log.warning("%s: %s", what, found.describe())
    data = {"placement_groups": found.placement_groups, "actors": found.actors}
    api.call("POST", "/sweep/events", body=DriverEvent(kind, f"{what}: {found.describe()}", data))


def interrupt_tune_on_sigterm(context: DriverContext) -> None:
    """Ray stops a job with SIGTERM (cancel/pause fallback, ``ray job stop``): make that Tune's
    graceful interrupt (SIGUSR1), which writes the final experiment snapshot, instead of a death
    that loses what happened since the last one."""

    def interrupt(signum: int, frame: object) -> None:
        context.terminated = True
        os.kill(os.getpid(), signal.SIGUSR1)

    signal.signal(signal.SIGTERM, interrupt)


def convergence_reader(api: JobApi, spec: ExperimentSpec) -> Callable[[], str | None] | None:
    """For ``stop.converged``: asks the terminator about the stored completed trials; the
    reason once it judges the sweep converged."""
    if spec.stop.converged is None:
        return None
    convergence = ConvergenceCheck(spec, spec.stop.converged)

    def read() -> str | None:
        points: list[tuple[dict, float]] = api.call(
            "GET",
            "/sweep/completed",
            list[tuple[dict[str, object], float]],
            patient=False,
            judged=convergence.judged,
        )
        verdict = convergence.judge(points)
        if verdict is None:
            return None
        log.info(
            "terminator after %d completed trials: regret bound %.4g, threshold %.4g",
            verdict.trials,
            verdict.regret_bound,
            verdict.threshold,
        )
        return verdict.reason if verdict.converged else None

    return read


def budget_reader(api: JobApi, spec: ExperimentSpec) -> Callable[[], str | None] | None:
    """For ``stop.budget``: what the sweep spent (the ledger, every driver's), once spent."""
    if spec.stop.budget is None:
        return None
    return lambda: api.call("GET", "/sweep/budget", BudgetSpent, patient=False).spent


def project_pusher(api: JobApi, project: str) -> Callable[[], None]:
    """Tell the cluster's gate the project's weight and quotas as the database has them now."""
    return lambda: ray.get(
        gate().set_project.remote(
            project, api.call("GET", "/sweep/share", ProjectShare, patient=False)
        ),
        timeout=5,
    )


def run(experiment_id: str) -> int:
    """Drive the sweep, this process's output kept with it (``storage.driver_uri``: Tune's
    progress, what Ray forwards from the trials' processes, the driver's own log and errors),
    one stream per driver job."""
    settings = get_settings()
    attempt = os.environ.get(DRIVER_JOB_ENV) or f"pid{os.getpid()}"
    with kept_output(
        driver_uri(settings.storage_root, experiment_id), attempt, 0, settings.trial_log_max_bytes
    ):
        return drive(experiment_id, settings)


def drive(experiment_id: str, settings: Settings) -> int:
    os.environ.setdefault("TUNE_GLOBAL_CHECKPOINT_S", TUNE_SNAPSHOT_INTERVAL_S)
    api = JobApi.from_environment()
    try:
        start: SweepStart = api.call("GET", "/sweep", SweepStart)
    except Refused as refused:  # the sweep ended, or a newer driver replaced this one
        log.warning("experiment %s: nothing to drive (%s)", experiment_id, refused)
        return 0
    if start.state not in EXPERIMENT_ACTIVE:
        log.warning("experiment %s is %s; nothing to drive", experiment_id, start.state.value)
        return 0
    spec = ExperimentSpec.model_validate(start.spec)
    recorder = Recorder(BatchPoster(api)).start()
    context = DriverContext(
        recorder=recorder,
        read_request=lambda: (
            api.call("GET", "/sweep/request", ControlRequest, patient=False).request
        ),
        time_attr=time_attr_of(spec),
        max_t=spec.early_stopping.max_t,
        metric=spec.primary.metric,
        mode=spec.primary.mode,
        target=spec.stop.target,
        pause_wait_s=settings.cancel_grace_s * 0.75,
        read_waiting=lambda: ray.get(gate().waiting.remote(experiment_id), timeout=5),
        read_notices=lambda stored: ray.get(
            gate().take_notices.remote(experiment_id, list(stored)), timeout=5
        ),
        read_decisions=lambda: api.call("GET", "/sweep/decisions", list[tuple[str, RungDecided]]),
        read_exploits=lambda: api.call("GET", "/sweep/exploits", list[ExploitDecided]),
        check_convergence=convergence_reader(api, spec),
        read_usage=lambda: ray.get(gate().usage.remote(experiment_id), timeout=5),
        push_project=project_pusher(api, spec.project),
        check_budget=budget_reader(api, spec),
        fail_fast_after=spec.fault_tolerance.fail_fast_after,
        requires_time_attr=spec.early_stopping.scheduler != "none",
    ).bind()
    context.finished_trials = frozenset(start.finished)
    runs = train_runs_uri(settings.storage_root, experiment_id)
    try:  # catching up on an earlier driver's pruning is not worth failing the sweep for
        api.call("POST", "/sweep/prune", patient=False)
    except Exception:
        log.warning("could not prune finished trials' checkpoints", exc_info=True)
    if start.unfinished:
        unfinished = frozenset(start.unfinished)
        backfilled = backfill_from_train_runs(recorder, runs, unfinished, context.time_attr)
        log.info("resubmitted %d checkpointed results of %d trials", backfilled, len(unfinished))
    error = None
    try:
        ray.init(runtime_env=runtime_env(spec, settings))
        # an earlier driver of this sweep that was killed left its trials running in Ray: they
        # hold resources and write to the same Train runs, so they go before anything resumes
        if found := remove_dead_attempts(experiment_id):
            record_leftovers(
                api, "ray_leftovers_removed", "removed what earlier drivers left in Ray", found
            )
        interrupt_tune_on_sigterm(context)
        # the gate applies the project's weight and quotas from the first trial on
        context.report_usage(force=True)
        # an extension's new Tune run starts from the stored trials, a warm-started one from
        # other sweeps' (unused when restored)
        history: History | None = api.call("GET", "/sweep/history", History | None)
        finished = context.finished_trials
        build_tuner(spec, settings, experiment_id, finished, start.extensions, history).fit()
    except Exception:
        error = traceback.format_exc(limit=20)
        log.exception("the sweep failed")
    try:  # no trial of this driver runs now: its leases end (a killed trial's at its last
        # renewal), the ledger gets them as they ended, and the gate removes their worker
        # groups at once (the last warm group's, whose trial actor Tune just stopped, would
        # otherwise wait for the gate's reaper to see its holder dead: ~2 s of every sweep)
        ray.get(gate().end_owner.remote(experiment_id), timeout=10)
    except Exception:
        log.warning("could not end the sweep's leases at the gate", exc_info=True)
    try:
        if leaked := remove_own_leftovers():
            record_leftovers(api, "ray_leak", "removed what the sweep left in Ray", leaked)
    except Exception:  # the state API being unreachable is no reason to fail a finished sweep
        log.warning("could not check Ray for leftovers of this sweep", exc_info=True)
    context.report_usage(force=True)
    context.report_notices()
    if not recorder.close(RECORDER_DRAIN_TIMEOUT_S):
        error = error or f"could not store all results: {recorder.last_error}"
    outcome = DriverOutcome(
        error or context.sweep_error,
        context.terminated,
        context.interrupted,
        context.target_reached_by,
        context.converged,
        budget_spent=context.budget_spent,
    )
    ended: SweepEnded = api.call("POST", "/sweep/finish", SweepEnded, body=outcome)
    final = ended.state
    log.info("experiment %s is %s", experiment_id, final.value)
    api.close()
    return 0 if final is not ExperimentState.failed else 1


def main() -> int:
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    if len(sys.argv) != 2:
        print("usage: python -m service.engine.driver <experiment-id>", file=sys.stderr)
        return 2
    return run(sys.argv[1])


if __name__ == "__main__":
    sys.exit(main())
