"""Submits, inspects and stops driver Ray Jobs. The controller uses only this interface."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Protocol

from ray.job_submission import JobStatus
from ray.util.state import list_nodes

from service.engine.cluster import RayConnection
from service.settings import Settings
from service.usecases.job_tokens import driver_job_id, final_run_job_id, job_token

# the driver job's id, in its environment: it names the driver's own log stream
DRIVER_JOB_ENV = "RAYSWEEP_DRIVER_JOB"
# where a job reaches the API, and the token (scoped to the job's sweep or final run) it
# writes with: jobs hold no database credentials (service.usecases.job_tokens)
API_URL_ENV = "RAYSWEEP_API_URL"
JOB_TOKEN_ENV = "RAYSWEEP_JOB_TOKEN"


@dataclass(frozen=True)
class JobInfo:
    state: str  # PENDING | RUNNING | STOPPED | SUCCEEDED | FAILED | MISSING
    message: str

    @property
    def alive(self) -> bool:
        return self.state in ("PENDING", "RUNNING")


class Launcher(Protocol):
    def submit(self, experiment_id: str, attempt: int) -> str: ...
    def submit_final_run(self, final_run_id: int, attempt: int) -> str: ...
    def status(self, job_id: str) -> JobInfo: ...
    def stop(self, job_id: str) -> None: ...
    def capacity(self) -> list[dict[str, float]]: ...


# Ray Train's own settings a job passes on to its Train runs when the server has them set
# (tests shorten the worker-group start timeout)
PASSED_RAY_TRAIN_VARIABLES = ("RAY_TRAIN_WORKER_GROUP_START_TIMEOUT_S",)
JOB_STOP_WAIT_S = 30


class RayJobsLauncher:
    def __init__(
        self,
        settings: Settings,
        ray: RayConnection,
        job_token_key: bytes,
        autoscaling: bool = False,
    ):
        self.settings, self.ray, self.autoscaling = settings, ray, autoscaling
        self.job_token_key = job_token_key

    def _driver_env(self, job_id: str) -> dict[str, str]:
        """What a job needs: the API's address and its own job's token (which is all it can
        write with), storage, and the settings its Train runs follow. No database URL, secrets
        directory or server home: the trials' processes inherit this environment, and run
        code that members uploaded."""
        settings = self.settings
        return {
            API_URL_ENV: settings.api_url_for_jobs,
            JOB_TOKEN_ENV: job_token(self.job_token_key, job_id),
            DRIVER_JOB_ENV: job_id,  # names the driver's own log stream (storage.driver_uri)
            "RAYSWEEP_STORAGE_URI": settings.storage_root,
            "RAYSWEEP_SEARCH_SPACES_DIR": str(settings.search_spaces_dir),
            "RAYSWEEP_CANCEL_GRACE_S": str(settings.cancel_grace_s),
            "RAYSWEEP_TRIAL_LOG_MAX_BYTES": str(settings.trial_log_max_bytes),
            "RAYSWEEP_WARM_GROUPS": str(settings.warm_groups).lower(),
            "RAYSWEEP_WARM_GROUP_TRIALS": str(settings.warm_group_trials),
            "RAYSWEEP_WARM_GROUP_MAX_RSS_MB": str(settings.warm_group_max_rss_mb),
            "RAYSWEEP_WARM_GROUP_IDLE_S": str(settings.warm_group_idle_s),
            # how long a run waits for resources the cluster lacks: only a cluster that can
            # grow is worth waiting for
            "RAYSWEEP_TRIAL_RESOURCE_WAIT_S": str(
                settings.trial_resource_wait_s if self.autoscaling else 0
            ),
            "RAY_AUTH_MODE": "token",
            # a stopped job gets SIGTERM, which the driver turns into Tune's interrupt; give Tune
            # time to write its final snapshot before Ray's SIGKILL (3 s by default)
            "RAY_JOB_STOP_WAIT_TIME_S": str(JOB_STOP_WAIT_S),
            # a Train worker's report waits in a one-slot queue for the controller's next poll:
            # Ray's 2 s made every short epoch take 2 s
            "RAY_TRAIN_HEALTH_CHECK_INTERVAL_S": str(settings.train_poll_interval_s),
            # Train's preemption watcher (an actor per worker group) tells a drained node from
            # a failed one; only an autoscaling cluster drains nodes, and on a fixed one the
            # actor is one more process to start for every trial
            "RAY_TRAIN_ENABLE_PREEMPTION_WATCHER": "1" if self.autoscaling else "0",
            # Ray Train patches a worker's print to write each line twice, to stdout and to its
            # logger (stderr): a trial's logs (service.engine.trial_logs) would hold every line
            # twice; unpatched, a print is one line on stdout, as the user wrote it
            "RAY_TRAIN_ENABLE_PRINT_PATCH": "0",
            # Tune adds its CSV, JSON and TensorBoard loggers unless told not to; the driver adds
            # the first two itself (service/engine/tuner.py). Tune's TensorBoard logger imports
            # torch into the driver (1.8 s of CPU before the first trial) for event files nothing
            # reads: a trial's TensorBoard scalars are the kit's (README, "TensorBoard")
            "TUNE_DISABLE_AUTO_CALLBACK_LOGGERS": "1",
            **{k: os.environ[k] for k in PASSED_RAY_TRAIN_VARIABLES if k in os.environ},
        }

    def submit(self, experiment_id: str, attempt: int) -> str:
        return self._submit(
            driver_job_id(experiment_id, attempt),
            f"python -m service.engine.driver {experiment_id}",
            {"raysweep_experiment": experiment_id},
        )

    def submit_final_run(self, final_run_id: int, attempt: int) -> str:
        return self._submit(
            final_run_job_id(final_run_id, attempt),
            f"python -m service.engine.final_run {final_run_id}",
            {"raysweep_final_run": str(final_run_id)},
        )

    def _submit(self, job_id: str, entrypoint: str, metadata: dict[str, str]) -> str:
        """Idempotent: the job id is derived from what it runs and the attempt."""
        try:
            self.ray.jobs.submit_job(
                entrypoint=entrypoint,
                submission_id=job_id,
                runtime_env={"env_vars": self._driver_env(job_id)},
                metadata=metadata,
                entrypoint_num_cpus=0,
            )
        except RuntimeError as error:
            if "already exists" not in str(error):
                raise
        return job_id

    def status(self, job_id: str) -> JobInfo:
        try:
            info = self.ray.jobs.get_job_info(job_id)
        except RuntimeError as error:
            if "does not exist" in str(error) or "404" in str(error):
                return JobInfo("MISSING", "the driver job is unknown to Ray")
            raise
        state = info.status.value if isinstance(info.status, JobStatus) else str(info.status)
        return JobInfo(state, info.message or "")

    def stop(self, job_id: str) -> None:
        self.ray.jobs.stop_job(job_id)

    def capacity(self) -> list[dict[str, float]]:
        """Every alive node's total resources, from the state API (no Ray connection)."""
        nodes = list_nodes(address=self.ray.address, limit=10_000, raise_on_missing_output=False)
        return [
            {key: float(value) for key, value in (node.resources_total or {}).items()}
            for node in nodes
            if node.state == "ALIVE"
        ]
