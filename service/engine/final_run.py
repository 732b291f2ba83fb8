"""A final run: ``python -m service.engine.final_run <id>``, run as a Ray Job.

Trains a promoted trial's (scaled) config with the promotion's workers as one Ray Train run named
``final-<id>`` under the experiment's storage (a PBT trial's schedule of configs replayed as
that run's segments, each resuming from the one before's checkpoint), so a resubmitted job
continues from the run's latest checkpoint. User code's Train run is started from a Ray task of
the job (where the code imports, ``fit_final_run``), not from the job's driver. Every epoch's
report is stored as it happens; at the end a bundled trainer's model is scored on the held-out
test split, and the run becomes a model version with lineage.
A retrain (a schedule's) then challenges the alias it was retrained for (champion/challenger).
"""

from __future__ import annotations

import dataclasses
import logging
import subprocess
import sys
import threading
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import ray
import torch
from ray.train import Checkpoint
from ray.train.v2.api.callback import UserCallback

import raysweep
from raysweep.spec import ExperimentSpec
from service.engine.callback import reported_metrics
from service.engine.driver_context import LEDGER_POLL_S
from service.engine.gate import admitted, gate
from service.engine.job_api import JobApi, Refused
from service.engine.ray_compat import TrainRunContext
from service.engine.train_run import LeanTrainer
from service.engine.trial import build_trainer, failure_summary
from service.engine.trial_plan import TrialPlan, train_config
from service.engine.tuner import runtime_env
from service.settings import REPO_ROOT, Settings, get_settings
from service.storage import artifact_uri, final_run_name, final_runs_uri
from service.usecases.driving import FinalRunEnd, FinalRunEpoch, WorkerFailure
from service.usecases.job_outcomes import FinalRunJob, FinalRunOutcome
from trainers import practices
from trainers.loading import load_task

log = logging.getLogger("raysweep.final_run")
CHECKPOINTS_KEPT = 2


class StoreFinalRunResults(UserCallback):
    """Stores each epoch's report as it arrives, and each worker-group failure Ray Train retries
    as an event (in the Train controller actor), through the API with the job's token;
    idempotent, so a resumed run re-reporting an epoch stores it once."""

    def __init__(self, final_run_id: int, api_url: str, token: str):
        self.final_run_id, self.api_url, self.token = final_run_id, api_url, token
        self._api: JobApi | None = None

    def api(self) -> JobApi:
        if self._api is None:
            self._api = JobApi(self.api_url, self.token)
        return self._api

    def __getstate__(self) -> dict[str, Any]:  # Ray pickles it into the Train controller
        return {**self.__dict__, "_api": None}

    def after_exception(
        self, run_context: TrainRunContext, worker_exceptions: dict[int, Exception]
    ) -> None:
        message = f"final run {self.final_run_id}: {failure_summary(worker_exceptions)}"
        self.api().call("POST", "/final-run/worker-failures", body=WorkerFailure(message))

    def after_report(
        self,
        run_context: TrainRunContext,
        metrics: list[dict[str, Any]],
        checkpoint: Checkpoint | None,
    ) -> None:
        reported = reported_metrics(metrics[0]) if metrics else {}
        epoch = reported.get("epoch")
        if not isinstance(epoch, int):
            return
        self.api().call("POST", "/final-run/epochs", body=FinalRunEpoch(epoch, reported))


def plan_for(job: FinalRunJob, settings: Settings, epochs: int) -> TrialPlan:
    """The final run's plan up to ``epochs`` (one segment of a replayed schedule, or all)."""
    plan = TrialPlan.from_spec(
        job.spec,
        epochs=epochs,
        num_workers=job.num_workers,
        storage_path=final_runs_uri(settings.storage_root, job.experiment_id),
        owner=f"final-{job.final_run_id}",
        resource_wait_s=settings.trial_resource_wait_s,
        log_max_bytes=settings.trial_log_max_bytes,
    )
    if job.resources is not None:  # promotion asked for other ones than the sweep's
        plan = dataclasses.replace(
            plan,
            use_gpu=bool(job.resources["use_gpu"]),
            cpus_per_worker=float(job.resources["cpus_per_worker"]),
            gpus_per_worker=float(job.resources["gpus_per_worker"]),
        )
    return plan


def trainer_for(
    job: FinalRunJob, settings: Settings, api: JobApi, epochs: int, config: dict[str, Any]
) -> LeanTrainer:
    """The final run's Train run up to ``epochs`` with ``config``."""
    plan = plan_for(job, settings, epochs)
    config = train_config(plan, config)
    if job.schedule and job.spec.trainer is not None:
        config["lr_schedule_epochs"] = job.epochs  # the LR schedule spans every segment
    if job.warm_start_uri:
        config["warm_start_from"] = job.warm_start_uri
    store = StoreFinalRunResults(job.final_run_id, api.url, api.token)
    name = final_run_name(job.final_run_id)
    return build_trainer(plan, config, name, CHECKPOINTS_KEPT, [store])


def evaluate_on_test(
    spec: ExperimentSpec, config: dict[str, Any], checkpoint: Checkpoint
) -> tuple[dict[str, float] | None, str | None]:
    """(test metrics, data fingerprint) of a bundled trainer's checkpoint; (None, None) for user
    code, whose data raysweep does not know."""
    if spec.trainer is None:
        return None, None
    task = load_task(spec.trainer, config, checkpoint)  # keeps the storage filesystem
    metrics = practices.evaluate(task.model, task, task.splits["test"], torch.device("cpu"))
    return {f"test_{name}": value for name, value in metrics.items()}, practices.data_fingerprint(
        task.splits
    )


def code_version(spec: ExperimentSpec) -> dict[str, Any]:
    # the package's own attribute, not its installed metadata: a server run from a checkout
    # (PYTHONPATH, no install) has none, and its final runs failed after training for it
    version: dict[str, Any] = {"raysweep": raysweep.__version__}
    if spec.code is not None:
        version["package"] = spec.code.package
    commit = subprocess.run(
        ["git", "-C", str(REPO_ROOT), "rev-parse", "HEAD"], capture_output=True, text=True
    )
    if commit.returncode == 0:
        version["git_commit"] = commit.stdout.strip()
    return version


@contextmanager
def ledger_kept(api: JobApi, owner: str) -> Iterator[None]:
    """While the block runs (and once after it), store the run's leases, as the gate counts
    them, in the compute ledger."""
    stop = threading.Event()

    def store() -> None:
        segments = ray.get(gate().usage.remote(owner), timeout=5)
        api.call("POST", "/final-run/usage", body=segments, patient=False)

    def keep() -> None:
        while not stop.wait(LEDGER_POLL_S):
            try:
                store()
            except Exception:  # the gate or the API briefly away: next time
                log.warning("could not store the final run's held compute", exc_info=True)

    keeper = threading.Thread(target=keep, name="raysweep-ledger", daemon=True)
    keeper.start()
    try:
        yield
    finally:
        stop.set()
        keeper.join()
        try:
            store()
        except Exception:
            log.warning("could not store the final run's held compute", exc_info=True)


def fit_final_run(job: FinalRunJob) -> tuple[dict[str, Any], Checkpoint | None]:
    """The final run's Train run, its lease and its ledger; the metrics of its last report and
    its last checkpoint. A final run imports its training function (and dataset functions)
    before its workers start; for user code that import happens in a Ray task of the job
    (``run``), which Ray starts where the package imports (ray.init's working_dir, with the
    code's requirements), as the sweep's trials do in Tune's trial actors: Ray never makes the
    job's driver process such a place. A bundled trainer imports anywhere, and runs here in
    the driver, without a task's process start."""
    settings = get_settings()
    api = JobApi.from_environment()
    try:
        plan = plan_for(job, settings, job.epochs)
        # the task holds no resources (num_cpus=0), its workers hold the lease's
        with (
            ledger_kept(api, plan.owner),
            admitted(plan.lease_request(plan.owner), plan.resource_wait_s),
        ):
            for epochs, config in job.segments():
                # each segment's Train run (one name) resumes from the one before's checkpoint
                result = trainer_for(job, settings, api, epochs, config).fit()
        return dict(result.metrics or {}), result.checkpoint
    finally:
        api.close()


def run(final_run_id: int) -> int:
    settings = get_settings()
    api = JobApi.from_environment()
    try:
        job: FinalRunJob | None = api.call("POST", "/final-run/start", FinalRunJob | None)
    except Refused as refused:  # the run ended, or a newer job replaced this one
        log.warning("final run %s: nothing to do (%s)", final_run_id, refused)
        return 0
    if job is None:
        log.warning("final run %s is not active; nothing to do", final_run_id)
        return 0
    outcome, error = None, None
    try:
        ray.init(runtime_env=runtime_env(job.spec, settings))
        if job.spec.code is None:
            metrics, checkpoint = fit_final_run(job)
        else:
            # no retry: a lost task (its node died) fails the job, which the controller
            # submits again, and the Train run of the same name resumes from its checkpoint
            fit = ray.remote(num_cpus=0, max_retries=0)(fit_final_run)
            metrics, checkpoint = ray.get(fit.remote(job))
        if checkpoint is None:
            raise RuntimeError("the final run ended without a checkpoint")
        test_metrics, fingerprint = evaluate_on_test(job.spec, job.config, checkpoint)
        uri = artifact_uri(settings.storage_root, checkpoint.path)
        outcome = FinalRunOutcome(
            reported_metrics(metrics),
            uri,
            test_metrics,
            fingerprint,
            code_version(job.spec),
        )
    except Exception:
        error = traceback.format_exc(limit=20)
        log.exception("final run %s failed", final_run_id)
    api.call("POST", "/final-run/finish", body=FinalRunEnd(outcome, error))
    api.close()
    return 0 if outcome is not None else 1


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    sys.exit(run(int(sys.argv[1])))
