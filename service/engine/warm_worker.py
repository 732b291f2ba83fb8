"""What a warm worker group's workers run (``service/engine/warm_group.py`` has the trial's
side): a Ray Train run whose function, on every worker, takes one trial after another from the
group's mailbox and runs that trial's training function, instead of ending after one.

Each trial sees Ray Train as a run of its own: ``ray.train.report`` writes its checkpoints into
the trial's own run directory (each rank its files, as Train does) and hands the metrics to the
mailbox, ``ray.train.get_checkpoint`` returns the trial's latest checkpoint, and
``ray.train.get_context`` names the trial (``TrialFnUtils``, installed through Train's own
``set_train_fn_utils``). A stop (the scheduler's, a cancel) reaches the function at its next
report, which raises ``TrialStopped``.

Between trials the worker is put back as it was before the first (``WorkerBaseline``): its
environment variables, working directory, ``sys.path``, the modules of the user's code (those
imported from outside the Python installation are dropped, so the next trial imports them
anew), torch's defaults and every random generator's state. What cannot be put back ends the
group after the trial (the next one starts a new group): a thread the trial started and left
running, a torch.distributed process group it destroyed, a process past the memory bound, or
the group's trial count reached.
"""

from __future__ import annotations

import gc
import os
import random
import sys
import sysconfig
import threading
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import ray
import ray.train
from pyarrow import fs

from service.engine.ray_compat import (
    StorageContext,
    TrainFnUtils,
    contains_tensor,
    get_train_fn_utils,
    set_train_fn_utils,
)
from service.engine.trial_logs import LoggedFunction, TrialStopped
from service.engine.user_code import load_training_function
from service.engine.warm_mailbox import Job

MAILBOX_KEY = "raysweep_mailbox"
# a thread the trial left is given this long to end before the group is recycled
THREAD_GRACE_S = 1.0
NEXT_JOB_WAIT_S = 5.0


def _installed_roots() -> tuple[str, ...]:
    paths = sysconfig.get_paths()
    roots = {paths[k] for k in ("stdlib", "platstdlib", "purelib", "platlib") if k in paths}
    roots |= {sys.prefix, sys.base_prefix, sys.exec_prefix}
    return tuple(sorted(str(Path(r).resolve()) for r in roots))


def _is_user_module(module: Any, installed: tuple[str, ...]) -> bool:
    """A module imported from outside the Python installation: the user's code (a working
    dir), or raysweep's own trainers in a checkout."""
    location = getattr(module, "__file__", None)
    if not location:
        return False
    resolved = str(Path(location).resolve())
    return not any(resolved.startswith(root + os.sep) for root in installed)


def _rss_bytes() -> int:
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
        return pages * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


@dataclass
class WorkerBaseline:
    """The worker's state before its first trial, put back after each."""

    environ: dict[str, str]
    cwd: str
    path: list[str]
    modules: frozenset[str]
    threads: frozenset[int]
    random_state: Any
    numpy_state: Any
    torch_state: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def capture(cls) -> WorkerBaseline:
        numpy = sys.modules.get("numpy")
        baseline = cls(
            environ=dict(os.environ),
            cwd=os.getcwd(),
            path=list(sys.path),
            modules=frozenset(sys.modules),
            threads=frozenset(t.ident or 0 for t in threading.enumerate()),
            random_state=random.getstate(),
            numpy_state=numpy.random.get_state() if numpy is not None else None,
        )
        # what is alive before the first trial (Ray, torch, the trainers' modules: ~300k
        # objects) is never garbage a trial made: frozen, the collection after each trial walks
        # only the trials' objects (2 ms instead of 0.1 s of CPU, more under load, per trial)
        gc.collect()
        gc.freeze()
        torch = sys.modules.get("torch")
        if torch is not None:
            baseline.torch_state = {
                "dtype": torch.get_default_dtype(),
                "device": torch.get_default_device(),
                "grad": torch.is_grad_enabled(),
                "threads": torch.get_num_threads(),
                "rng": torch.get_rng_state(),
                "deterministic": torch.are_deterministic_algorithms_enabled(),
            }
        return baseline

    def restore(self, process_group: bool) -> str | None:
        """Put the worker back; what could not be (the reason to end the group), or None."""
        os.environ.clear()
        os.environ.update(self.environ)
        try:
            os.chdir(self.cwd)
        except OSError:
            return f"its working directory {self.cwd} is gone"
        sys.path[:] = self.path
        installed = _installed_roots()
        kept = []
        for name in [n for n in sys.modules if n not in self.modules]:
            if _is_user_module(sys.modules[name], installed):
                del sys.modules[name]
            else:
                kept.append(name)
        # an installed module a trial imported stays, and is not looked at again after each
        # trial (resolving every module's path took ~0.2 s of a worker's CPU per trial)
        self.modules |= frozenset(kept)
        random.setstate(self.random_state)
        numpy = sys.modules.get("numpy")
        if numpy is not None and self.numpy_state is not None:
            numpy.random.set_state(self.numpy_state)
        reason = self._restore_torch(process_group)
        gc.collect()
        return reason or self._leftover_threads()

    def _restore_torch(self, process_group: bool) -> str | None:
        torch = sys.modules.get("torch")
        if torch is None or not self.torch_state:
            return None
        state = self.torch_state
        torch.set_default_dtype(state["dtype"])
        torch.set_default_device(state["device"])
        torch.set_grad_enabled(state["grad"])
        torch.set_num_threads(state["threads"])
        torch.set_rng_state(state["rng"])
        torch.use_deterministic_algorithms(state["deterministic"])
        if torch.cuda.is_available() and torch.cuda.is_initialized():
            torch.cuda.empty_cache()
        if process_group and not torch.distributed.is_initialized():
            return "it destroyed the torch.distributed process group"
        return None

    def _leftover_threads(self) -> str | None:
        deadline = time.monotonic() + THREAD_GRACE_S
        while True:
            left = [
                t
                for t in threading.enumerate()
                if t.is_alive() and (t.ident or 0) not in self.threads
            ]
            if not left or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        if left:
            return "it left threads running: " + ", ".join(sorted(t.name for t in left)[:5])
        return None


class TrialContext:
    """Ray Train's context as the trial's function sees it: the group's, but named after the
    trial and storing into the trial's run."""

    def __init__(self, real: Any, job: Job) -> None:
        self._real, self._job = real, job

    def get_experiment_name(self) -> str:
        return self._job.name

    def get_storage(self) -> Any:
        """The trial's run on the sweep's storage (the kit's TensorBoard scalars go there)."""
        return StorageContext(self._job.storage_path, self._job.name, read_only=True)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)


class TrialFnUtils(TrainFnUtils):
    """``ray.train``'s calls for one trial on a warm group's worker."""

    def __init__(self, real: Any, job: Job, mailbox: Any, rank: int) -> None:
        self.real, self.job, self.mailbox, self.rank = real, job, mailbox, rank
        self.index = 0

    def report(
        self,
        metrics: dict[str, Any],
        checkpoint: Any = None,
        checkpoint_dir_name: str | None = None,
        checkpoint_upload_mode: Any = None,
        delete_local_checkpoint_after_upload: bool | None = None,
        checkpoint_upload_fn: Any = None,
        validation: Any = False,
    ) -> None:
        if validation:
            raise ValueError(
                "`validation_config` was not set on the trainer, but a validation was requested."
            )
        if "torch" in sys.modules and contains_tensor(metrics):
            raise ValueError(
                "Passing objects containing Torch tensors as metrics is not supported; "
                "convert them to Python numbers (`.item()`) or save them in the checkpoint."
            )
        # the trial's answer to this worker's last report: a stopped trial stores nothing more
        if not ray.get(self.mailbox.go_on.remote(self.job.seq, self.index)):
            raise TrialStopped(f"trial {self.job.name} was stopped")
        self.index += 1
        directory = None
        if checkpoint is not None:
            directory = checkpoint_dir_name or f"checkpoint_{self.job.stamp}_{self.index:06d}"
            _upload(checkpoint.path, f"{self.job.run_uri}/{directory}")
        ray.get(
            self.mailbox.report.remote(
                self.rank,
                self.job.seq,
                self.index,
                dict(metrics) if self.rank == 0 else None,
                directory,
            )
        )

    def get_checkpoint(self) -> Any:
        if self.job.resume is None:
            return None
        return ray.train.Checkpoint(self.job.resume)

    def get_all_reported_checkpoints(self, *args: Any, **kwargs: Any) -> list[Any]:
        raise NotImplementedError(
            "get_all_reported_checkpoints is not available on raysweep's warm worker groups "
            "(RAYSWEEP_WARM_GROUPS=false runs each trial as a Train run of its own)"
        )

    def get_dataset_shard(self, dataset_info: Any) -> Any:
        raise RuntimeError("a trial on a warm worker group has no Ray Data datasets")

    def get_context(self) -> Any:
        return TrialContext(self.real.get_context(), self.job)

    def get_preemption_info(self) -> Any:
        return self.real.get_preemption_info()

    def is_distributed(self) -> bool:
        return True

    def barrier(self) -> None:
        self.real.barrier()

    def broadcast_from_rank_zero(self, data: Any) -> Any:
        return self.real.broadcast_from_rank_zero(data)


def _upload(local: str, uri: str) -> None:
    """Copy a rank's checkpoint files into the trial's checkpoint directory (every rank into
    the same one, as Train merges them)."""
    filesystem, path = fs.FileSystem.from_uri(uri) if "://" in uri else (fs.LocalFileSystem(), uri)
    filesystem.create_dir(path, recursive=True)
    fs.copy_files(
        local, path, source_filesystem=fs.LocalFileSystem(), destination_filesystem=filesystem
    )


def spent(job: Job, served: int, rss_bytes: int) -> str | None:
    """Why the group must end after its ``served``-th trial though the worker was put back: it
    ran its share of trials, or a worker grew past the memory bound; None if neither."""
    if served >= job.recycle_after:
        return f"it ran {served} trials (RAYSWEEP_WARM_GROUP_TRIALS)"
    if job.max_rss_bytes and rss_bytes > job.max_rss_bytes:
        return f"a worker uses {rss_bytes >> 20} MiB (RAYSWEEP_WARM_GROUP_MAX_RSS_MB)"
    return None


def serve_trials(config: dict[str, Any]) -> None:
    """The warm group's Train function: run the mailbox's trials until it closes or this worker
    can no longer be put back as it was."""
    mailbox = config[MAILBOX_KEY]
    real = get_train_fn_utils()
    rank = int(real.get_context().get_world_rank())
    baseline = WorkerBaseline.capture()
    done, served = 0, 0
    while True:
        job = ray.get(mailbox.next_job.remote(rank, done, NEXT_JOB_WAIT_S))
        if job is None:
            return
        if not isinstance(job, Job):
            continue  # none yet
        done = job.seq
        error = None
        set_train_fn_utils(TrialFnUtils(real, job, mailbox, rank))
        try:
            function = load_training_function(job.entrypoint)  # CodeLoadError: the sweep fails
            LoggedFunction(function, job.run_uri, job.log_max_bytes)(job.config)
        except TrialStopped:
            pass
        except BaseException as raised:
            error = f"{type(raised).__name__}: {raised}\n{traceback.format_exc()}"
        finally:
            set_train_fn_utils(real)
        served += 1
        recycle = baseline.restore(job.torch_process_group) or spent(job, served, _rss_bytes())
        ray.get(mailbox.finish.remote(rank, job.seq, error, recycle))
        if error is not None or recycle is not None:
            return
