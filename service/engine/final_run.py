"""A final run: ``python -m service.engine.final_run <id>``, run as a Ray Job.

Trains a promoted trial's (scaled) config with the promotion's workers as one Ray Train run named
``final-<id>`` under the experiment's storage, so a resubmitted job continues from the run's
latest checkpoint. Every epoch's report is stored as it happens; at the end a bundled trainer's
model is scored on the held-out test split, and the run becomes a model version with lineage.
A retrain (a schedule's) then challenges the alias it was retrained for (champion/challenger).
"""

from __future__ import annotations

import dataclasses
import importlib.metadata
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
from sqlalchemy.orm import Session, sessionmaker

from raysweep.spec import ExperimentSpec
from service.db.session import create_db_engine, session_factory
from service.engine.callback import LEDGER_POLL_S, reported_metrics
from service.engine.driver import with_db_retry
from service.engine.gate import admitted, gate
from service.engine.ray_compat import TrainRunContext
from service.engine.trial import (
    LeanTrainer,
    TrialPlan,
    build_trainer,
    failure_summary,
    train_config,
)
from service.engine.tuner import runtime_env
from service.settings import REPO_ROOT, Settings, get_settings
from service.storage import artifact_uri, final_run_name, final_runs_uri
from service.usecases.job_outcomes import (
    FinalRunJob,
    FinalRunOutcome,
    finish_final_run,
    record_final_run_worker_failure,
    start_final_run,
    store_final_run_epoch,
)
from service.usecases.projects import record_final_run_usage
from trainers import practices
from trainers.loading import load_task

log = logging.getLogger("raysweep.final_run")
CHECKPOINTS_KEPT = 2


class StoreFinalRunResults(UserCallback):
    """Stores each epoch's report as it arrives, and each worker-group failure Ray Train retries
    as an event (in the Train controller actor); idempotent, so a resumed run re-reporting an
    epoch stores it once."""

    def __init__(self, final_run_id: int, experiment_id: str, database_url: str):
        self.final_run_id, self.experiment_id = final_run_id, experiment_id
        self.database_url = database_url
        self._db: sessionmaker[Session] | None = None

    def db(self) -> sessionmaker[Session]:
        if self._db is None:
            self._db = session_factory(create_db_engine(self.database_url))
        return self._db

    def after_exception(
        self, run_context: TrainRunContext, worker_exceptions: dict[int, Exception]
    ) -> None:
        message = f"final run {self.final_run_id}: {failure_summary(worker_exceptions)}"

        db = self.db()
        with_db_retry(
            lambda: record_final_run_worker_failure(
                db, self.final_run_id, self.experiment_id, message
            ),
            "recording a worker failure",
        )

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
        db = self.db()
        with_db_retry(
            lambda: store_final_run_epoch(db, self.final_run_id, epoch, reported), "storing"
        )


def trainer_for(job: FinalRunJob, settings: Settings) -> tuple[TrialPlan, LeanTrainer]:
    plan = TrialPlan.from_spec(
        job.spec,
        epochs=job.epochs,
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
    config = train_config(plan, job.config)
    if job.warm_start_uri:
        config["warm_start_from"] = job.warm_start_uri
    store = StoreFinalRunResults(job.final_run_id, job.experiment_id, settings.database_url_value)
    name = final_run_name(job.final_run_id)
    return plan, build_trainer(plan, config, name, CHECKPOINTS_KEPT, [store])


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
    version: dict[str, Any] = {"raysweep": importlib.metadata.version("raysweep")}
    if spec.code is not None:
        version["package"] = spec.code.package
    commit = subprocess.run(
        ["git", "-C", str(REPO_ROOT), "rev-parse", "HEAD"], capture_output=True, text=True
    )
    if commit.returncode == 0:
        version["git_commit"] = commit.stdout.strip()
    return version


@contextmanager
def ledger_kept(db: sessionmaker[Session], job: FinalRunJob, owner: str) -> Iterator[None]:
    """While the block runs (and once after it), store the run's leases, as the gate counts
    them, in the compute ledger."""
    stop = threading.Event()

    def store() -> None:
        segments = ray.get(gate().usage.remote(owner), timeout=5)
        record_final_run_usage(db, job.spec.project, job.experiment_id, job.final_run_id, segments)

    def keep() -> None:
        while not stop.wait(LEDGER_POLL_S):
            try:
                store()
            except Exception:  # the gate or the database briefly away: next time
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


def run(final_run_id: int) -> int:
    settings = get_settings()
    engine = create_db_engine(settings.database_url_value)
    db = session_factory(engine)
    job = with_db_retry(lambda: start_final_run(db, final_run_id), "reading the final run")
    if job is None:
        log.warning("final run %s is not active; nothing to do", final_run_id)
        return 0
    outcome, error = None, None
    try:
        ray.init(runtime_env=runtime_env(job.spec, settings))
        plan, trainer = trainer_for(job, settings)
        # the job's own process holds no resources (entrypoint_num_cpus=0)
        with (
            ledger_kept(db, job, plan.owner),
            admitted(plan.lease_request(plan.owner, {}), plan.resource_wait_s),
        ):
            result = trainer.fit()
        if result.checkpoint is None:
            raise RuntimeError("the final run ended without a checkpoint")
        test_metrics, fingerprint = evaluate_on_test(job.spec, job.config, result.checkpoint)
        uri = artifact_uri(settings.storage_root, result.checkpoint.path)
        outcome = FinalRunOutcome(
            reported_metrics(result.metrics or {}),
            uri,
            test_metrics,
            fingerprint,
            code_version(job.spec),
        )
    except Exception:
        error = traceback.format_exc(limit=20)
        log.exception("final run %s failed", final_run_id)
    with_db_retry(lambda: finish_final_run(db, job, outcome, error), "recording the outcome")
    engine.dispose()
    return 0 if outcome is not None else 1


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    sys.exit(run(int(sys.argv[1])))
