"""The sweep driver: ``python -m service.engine.driver <experiment-id>``, run as a Ray Job.

Builds a ``tune.Tuner`` from the stored spec, or restores it when the experiment's Tune state
exists (a resubmitted driver), runs it, and records the outcome. The database is written only
through the recorder (trials, results) and the short transactions here (experiment state).
"""

from __future__ import annotations

import logging
import sys
import traceback

import ray
from ray import tune
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from raysweep.schemas import ExperimentState, TrialState
from raysweep.spec import ExperimentSpec
from service.db import repositories as repo
from service.db.models import TrialRow
from service.db.session import create_db_engine, session_factory
from service.engine.callback import DriverContext, RecordingCallback, SweepStopper
from service.engine.recorder import Recorder
from service.engine.search import param_space, scheduler, search_algorithm
from service.engine.trial import TrialPlan, run_trial
from service.settings import Settings, get_settings
from service.states import move_experiment, move_trial
from trainers.registry import get_trainer

log = logging.getLogger("raysweep.driver")

ACTIVE = (ExperimentState.running, ExperimentState.cancelling, ExperimentState.pausing)
# a Tune function trial cannot ask for zero resources; its Train workers get their own group
TRIAL_DRIVER_RESOURCES = {"CPU": 0.01}
RECORDER_DRAIN_TIMEOUT_S = 600


def experiment_path(settings: Settings, experiment_id: str) -> str:
    return f"{settings.storage_root.rstrip('/')}/{experiment_id}"


def read_request(db: sessionmaker[Session], experiment_id: str) -> str | None:
    """The control request a running sweep must honour, if any."""
    with db.begin() as session:
        state = ExperimentState(repo.get_experiment_row(session, experiment_id).state)
    return {ExperimentState.cancelling: "cancel", ExperimentState.pausing: "pause"}.get(state)


def trial_plan(spec: ExperimentSpec, settings: Settings, experiment_id: str) -> TrialPlan:
    resources, faults = spec.resources, spec.fault_tolerance
    return TrialPlan(
        trainer=spec.trainer,
        epochs=spec.early_stopping.max_t,
        checkpoint_frequency=faults.checkpoint_frequency,
        checkpoints_to_keep=faults.checkpoints_to_keep,
        max_failures=faults.max_failures,
        num_workers=resources.num_workers,
        use_gpu=resources.use_gpu,
        cpus_per_worker=resources.cpus_per_worker,
        gpus_per_worker=resources.gpus_per_worker,
        storage_path=f"{experiment_path(settings, experiment_id)}/train",
        seed=spec.search.seed or 0,
    )


def build_tuner(spec: ExperimentSpec, settings: Settings, experiment_id: str) -> tune.Tuner:
    trainable = tune.with_resources(
        tune.with_parameters(run_trial, plan=trial_plan(spec, settings, experiment_id)),
        TRIAL_DRIVER_RESOURCES,
    )
    path = experiment_path(settings, experiment_id)
    if tune.Tuner.can_restore(path):
        log.info("restoring the sweep from %s", path)
        # errored trials stay failed: their error was recorded and retrying is max_failures' job
        return tune.Tuner.restore(path, trainable, resume_unfinished=True, resume_errored=False)
    time_attr = spec.early_stopping.time_attr or get_trainer(spec.trainer).time_attr
    return tune.Tuner(
        trainable,
        param_space=param_space(spec),
        tune_config=tune.TuneConfig(
            metric=spec.metric,
            mode=spec.mode,
            search_alg=search_algorithm(spec),
            scheduler=scheduler(spec, time_attr),
            num_samples=spec.search.num_samples,
            max_concurrent_trials=spec.search.max_concurrent_trials,
            time_budget_s=spec.stop.time_budget_s,
        ),
        run_config=tune.RunConfig(
            name=experiment_id,
            storage_path=settings.storage_root,
            stop=SweepStopper(),
            callbacks=[RecordingCallback()],
            verbose=1,
        ),
    )


def finish(
    db: sessionmaker[Session], experiment_id: str, context: DriverContext, error: str | None
) -> ExperimentState:
    """Record the best trial and the sweep's final (or paused) state; trials Tune left unfinished
    end with the sweep."""
    with db.begin() as session:
        row = repo.get_experiment_row(session, experiment_id, for_update=True)
        best = session.scalars(
            select(TrialRow)
            .where(TrialRow.experiment_id == experiment_id, TrialRow.best_metric.is_not(None))
            .order_by(repo.metric_order(TrialRow.best_metric, row.mode), TrialRow.id)
            .limit(1)
        ).one_or_none()
        row.best_trial_id, row.best_metric = (best.id, best.best_metric) if best else (None, None)
        current = ExperimentState(row.state)
        if error is not None:
            target, message = ExperimentState.failed, f"sweep failed: {error}"
        elif current is ExperimentState.cancelling:
            target, message = ExperimentState.cancelled, "sweep cancelled"
        elif current is ExperimentState.pausing:
            target, message = ExperimentState.paused, "sweep paused"
        else:
            target = ExperimentState.completed
            message = "sweep completed" + (
                f" (target reached by trial {context.target_reached_by})"
                if context.target_reached_by
                else ""
            )
        leftover = TrialState.pending if target is ExperimentState.paused else TrialState.cancelled
        for trial in session.scalars(
            select(TrialRow).where(
                TrialRow.experiment_id == experiment_id,
                TrialRow.state.in_([TrialState.pending.value, TrialState.running.value]),
            )
        ):
            if trial.state != leftover.value:
                move_trial(trial, leftover)
        move_experiment(row, target)
        row.error = error
        repo.add_event(
            session,
            experiment_id,
            target.value,
            message,
            data={"best_trial_id": row.best_trial_id, "best_metric": row.best_metric},
        )
    return target


def run(experiment_id: str) -> int:
    settings = get_settings()
    engine = create_db_engine(settings.database_url_value)
    db = session_factory(engine)
    with db.begin() as session:
        row = repo.get_experiment_row(session, experiment_id)
        state, spec_data = ExperimentState(row.state), row.spec
    if state not in ACTIVE:
        log.warning("experiment %s is %s; nothing to drive", experiment_id, state.value)
        return 0
    spec = ExperimentSpec.model_validate(spec_data)
    trainer = get_trainer(spec.trainer)
    recorder = Recorder(db, experiment_id, spec.metric, spec.mode).start()
    context = DriverContext(
        recorder=recorder,
        read_request=lambda: read_request(db, experiment_id),
        time_attr=spec.early_stopping.time_attr or trainer.time_attr,
        max_t=spec.early_stopping.max_t,
        metric=spec.metric,
        mode=spec.mode,
        target=spec.stop.target,
    ).bind()
    error = None
    try:
        ray.init()
        build_tuner(spec, settings, experiment_id).fit()
    except Exception:
        error = traceback.format_exc(limit=20)
        log.exception("the sweep failed")
    if not recorder.close(RECORDER_DRAIN_TIMEOUT_S):
        error = error or f"could not write all results to the database: {recorder.last_error}"
    final = finish(db, experiment_id, context, error)
    log.info("experiment %s is %s", experiment_id, final.value)
    engine.dispose()
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
