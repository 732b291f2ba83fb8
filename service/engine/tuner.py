"""Spec -> the sweep's Tune run: the trials' plan, the Tuner (new, an extension's, or restored
from the experiment's state), and where each Tune run lives."""

from __future__ import annotations

import logging
import os
from dataclasses import replace

from ray import tune
from ray.tune.logger import CSVLoggerCallback, JsonLoggerCallback

from raysweep.spec import ExperimentSpec
from service.engine.callback import RecordingCallback, SweepStopper
from service.engine.gate import cluster_capacity
from service.engine.search import param_space, scheduler, search_algorithm
from service.engine.trial import BUDGET_KEY, run_trial
from service.engine.trial_plan import TrialPlan, WarmPolicy
from service.engine.warm_group import THREAD_TIMEOUT_S
from service.resources import EPSILON, TRIAL_FUNCTION_RESOURCES, carves, trial_request
from service.settings import Settings
from service.storage import code_package_uri, experiment_uri, train_runs_uri
from service.usecases.decisions import pbt_steps, promotion_milestones
from service.usecases.extension import History
from service.usecases.reports import time_attr_of

log = logging.getLogger("raysweep.driver")


def runtime_env(spec: ExperimentSpec, settings: Settings) -> dict[str, object]:
    """What every process the job starts on Ray gets: the cluster's address (Ray sets it for
    the job's driver alone; without it whatever looks the cluster up inside a trial, Ray's own
    code or the user's, fails on a host running more than one Ray instance), and user code as
    the job's working_dir (a zip on storage; this process never imports it), with the code's
    pip requirements. The job has a runtime env anyway (the launcher's env vars), so this adds
    no process starts (requirements add their install, once per node)."""
    env: dict[str, object] = {}
    env_vars: dict[str, str] = {}
    if address := os.environ.get("RAY_ADDRESS"):
        env_vars["RAY_ADDRESS"] = address
    if warm_policy(spec, settings) is not None:
        # a trial actor Tune reuses waits for its last trial's function to stop its workers
        env_vars["TUNE_FUNCTION_THREAD_TIMEOUT_S"] = THREAD_TIMEOUT_S
    if env_vars:
        env["env_vars"] = env_vars
    if spec.code is not None:
        env["working_dir"] = code_package_uri(settings.storage_root, spec.code.package)
        if spec.code.requirements:
            # a virtualenv over this interpreter's packages, made once per list and node
            env["pip"] = {"packages": list(spec.code.requirements), "pip_check": False}
    return env


def warm_policy(spec: ExperimentSpec, settings: Settings) -> WarmPolicy | None:
    """How the sweep's trials share warm worker groups; None when each starts its own (warm
    groups off, or elastic workers or Ray Data datasets, which a group's fixed run lacks)."""
    elastic = isinstance(spec.resources.num_workers, tuple)
    datasets = spec.code is not None and bool(spec.code.datasets)
    if not settings.warm_groups or elastic or datasets:
        return None
    return WarmPolicy(
        trials=settings.warm_group_trials,
        max_rss_mb=settings.warm_group_max_rss_mb,
        idle_s=settings.warm_group_idle_s,
    )


def trial_plan(
    spec: ExperimentSpec, settings: Settings, experiment_id: str, finished: frozenset[str]
) -> TrialPlan:
    plan = TrialPlan.from_spec(
        spec,
        epochs=spec.early_stopping.max_t,
        num_workers=spec.resources.num_workers,
        storage_path=train_runs_uri(settings.storage_root, experiment_id),
        owner=experiment_id,
        resource_wait_s=settings.trial_resource_wait_s,
        finished_trials=finished,
        log_max_bytes=settings.trial_log_max_bytes,
    )
    return replace(
        plan,
        warm=warm_policy(spec, settings),
        function_share=dict(TRIAL_FUNCTION_RESOURCES),
        carve_function=carves(cluster_capacity().nodes),
    )


def trial_slots(spec: ExperimentSpec) -> int:
    """How many trials promotion ASHA and PBT let train at once: ``max_concurrent_trials``,
    else as many worker groups as the cluster's resources hold (paused trials hold none)."""
    if spec.search.max_concurrent_trials:
        return spec.search.max_concurrent_trials
    capacity = cluster_capacity()
    total = capacity.total
    # its workers, its function, and what a run given Ray Data datasets keeps free beside them
    per_trial = trial_request(spec, carves(capacity.nodes)).whole
    fits = [
        int((total.get(name, 0.0) + EPSILON) // amount)
        for name, amount in per_trial.items()
        if amount
    ]
    return max(1, min(fits, default=1))


def tune_run(settings: Settings, experiment_id: str, extensions: int) -> tuple[str, str]:
    """(storage path, name) of the sweep's current Tune run: the experiment's own directory,
    and each extension's inside it."""
    if extensions == 0:
        return settings.storage_root, experiment_id
    return experiment_uri(settings.storage_root, experiment_id), f"extension-{extensions}"


def with_budgets(spec: ExperimentSpec, history: History) -> History:
    """Under promotion ASHA a continuing trial trains first to the rung after its epoch; under
    PBT to the next step."""
    early = spec.early_stopping
    if early.scheduler == "pbt":
        marks = pbt_steps(early.population.perturbation_interval, early.max_t)
    else:
        marks = promotion_milestones(early.grace_period, early.reduction_factor, early.max_t, 0)
    return replace(
        history,
        continuing=[
            (
                name,
                {**config, BUDGET_KEY: min((m for m in marks if m > at), default=early.max_t)},
                at,
            )
            for name, config, at in history.continuing
        ],
    )


def build_tuner(
    spec: ExperimentSpec,
    settings: Settings,
    experiment_id: str,
    finished: frozenset[str],
    extensions: int = 0,
    history: History | None = None,
) -> tune.Tuner:
    """The sweep's Tune run, restored when its state exists; a new extension's starts from
    ``history`` (the stored trials)."""
    trainable = tune.with_resources(
        tune.with_parameters(run_trial, plan=trial_plan(spec, settings, experiment_id, finished)),
        TRIAL_FUNCTION_RESOURCES,
    )
    storage_path, name = tune_run(settings, experiment_id, extensions)
    path = f"{storage_path.rstrip('/')}/{name}"
    if tune.Tuner.can_restore(path):
        log.info("restoring the sweep from %s (%d trials already final)", path, len(finished))
        # unfinished and errored trials resume from their Train checkpoints, except those the
        # database holds as final (run_trial returns at once for them): a trial that failed
        # past max_failures stays failed, one pruned after Tune's last snapshot stays pruned
        return tune.Tuner.restore(path, trainable, resume_unfinished=True, resume_errored=True)
    time_attr = time_attr_of(spec)
    segmented = spec.early_stopping.segmented
    num_samples = spec.search.num_samples
    if history is not None:
        history = with_budgets(spec, history) if segmented else history
        num_samples = len(history.continuing) + history.new_samples
        log.info(
            "extension %d: %d trial(s) continue, %d known to the searcher, %d new",
            extensions,
            len(history.continuing),
            len(history.evaluated),
            history.new_samples,
        )
    return tune.Tuner(
        trainable,
        param_space=param_space(spec),
        tune_config=tune.TuneConfig(
            metric=spec.primary.metric,
            mode=spec.primary.mode,
            search_alg=search_algorithm(spec, history),
            scheduler=scheduler(
                spec,
                time_attr,
                trial_slots(spec) if segmented else 0,
                train_runs_uri(settings.storage_root, experiment_id),
            ),
            num_samples=num_samples,
            # Tune's limiter counts paused trials as running: promotion ASHA and PBT limit
            # themselves
            max_concurrent_trials=None if segmented else spec.search.max_concurrent_trials,
            time_budget_s=spec.stop.time_budget_s,
            # a trial actor keeps its warm worker group for the sweep's next trial
            reuse_actors=warm_policy(spec, settings) is not None,
        ),
        run_config=tune.RunConfig(
            name=name,
            storage_path=storage_path,
            stop=SweepStopper(),
            # Tune's own result files in each trial's directory, as Tune writes them by default;
            # not its TensorBoard logger (service/engine/launcher.py says why)
            callbacks=[RecordingCallback(), CSVLoggerCallback(), JsonLoggerCallback()],
            # a trial whose own actor died (its node was lost) starts again, and its Train run
            # resumes from its latest checkpoint; Ray Train's restarts cover its workers only
            failure_config=tune.FailureConfig(max_failures=spec.fault_tolerance.max_failures),
            verbose=1,
        ),
    )
