"""The GPU proof: raysweep's DDP trials, mixed precision, checkpoints, a sweep, a killed worker
and a promotion on a real GPU, in one run (a lent GPU machine gives ~15 minutes in all).

Stages, each timed, its figures (or its error) written to ``OUT/gpu_proof.json`` as it ends;
a stage that fails does not stop the next:

1. ``env``: torch, the GPU, ``nvidia-smi``.
2. ``nccl_shared``: two NCCL ranks on one GPU (``bench/amp_gpu.py --backend nccl``): NCCL
   refuses it, which is why the service puts workers that share a GPU on gloo.
3. ``amp``: the plain torch.distributed loop (``bench/amp_gpu.py``, 2 workers sharing the GPU
   as ``gpus_per_worker: 0.5`` trials do): fp32 vs bf16 vs fp16 step time, samples per second,
   all-reduce share.
4. ``checkpoints``: the kit trains 2 epochs on the GPU and resumes epoch 3 on the CPU from that
   checkpoint, and the other way round (Adam's moments moved with the model).
5. ``sweep``: the local service (embedded Ray head, SQLite) runs 4 trials of digits_cnn,
   2 workers x ``gpus_per_worker: 0.5``, ASHA, ``precision: bf16``; ``nvidia-smi`` sampled every
   second meanwhile; per trial its device line, samples per second, all-reduce share and
   start-up (trial start -> first result); the ratio of a trial's bf16 throughput to stage 3's.
6. ``worker_kill``: a GPU trial whose Ray Train worker is SIGKILLed mid-trial restarts from its
   checkpoint and completes with every epoch stored once.
7. ``promotion``: the sweep's best trial promoted to a 1-worker final run with
   ``gpus_per_worker: 1``: a model version, loaded on the CPU (a GPU-written checkpoint), then
   deployed and answering predictions over HTTP (Serve's replica runs on the CPU: deployments
   take no GPU, as the README says).

``--cpu`` runs the same stages without a GPU (gloo, fp32, ``use_gpu: false``) on 2 CPUs: how
the script is tested before a GPU machine is spent on it.

    python bench/gpu_proof.py [--cpu] [--out DIR (default $OUT, else var/gpu_proof)]
                              [--stages env,nccl_shared,amp,checkpoints,sweep,worker_kill,promotion]

On a GPU machine without the server's packages (the lent ones have Python 3.12 and torch):
``pip download --no-deps --python-version 3.12 --only-binary=:all:`` the server extra's
requirements that machine lacks (ray and its serve/tune needs, fastapi, sqlalchemy, alembic,
optuna, pydantic-settings, ...; grpcio-reflection at the machine's grpcio version, or Serve does
not import), ``pip install --no-deps --target /tmp/site`` them there, then
``PYTHONPATH=/tmp/site:$PWD PATH=/tmp/site/bin:$PATH python3 bench/gpu_proof.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import Any

import httpx
import torch

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from trainers.registry import TASK_KEY, TRAINERS  # noqa: E402

# one configuration for the plain loop and the trials: digits_cnn made wider (as amp_gpu's)
CHANNELS, BATCH = 64, 256
SWEEP_EPOCHS, KILLED_EPOCHS = 6, 40
WORKER_CPUS = {True: 1, False: 0.5}  # a trial worker's CPUs, with a GPU and without


class Proof:
    def __init__(self, out: Path, gpu: bool):
        self.out, self.gpu = out, gpu
        self.report: dict[str, Any] = {"gpu": gpu, "started": datetime.now().isoformat()}
        self.shared: dict[str, Any] = {}  # what a later stage takes from an earlier one

    def stage(self, name: str, run: Callable[[], dict[str, Any]]) -> None:
        started = time.monotonic()
        print(f"\n=== {name}", flush=True)
        try:
            figures = run()
            entry: dict[str, Any] = {"ok": True, **figures}
        except BaseException as error:  # the next stage still runs
            entry = {"ok": False, "error": f"{type(error).__name__}: {error}"}
            entry["traceback"] = traceback.format_exc()[-4000:]
            print(entry["traceback"], flush=True)
            if isinstance(error, KeyboardInterrupt):
                raise
        entry["seconds"] = round(time.monotonic() - started, 1)
        self.report[name] = entry
        shown = {k: v for k, v in entry.items() if k != "traceback"}
        print(f"=== {name}: {json.dumps(shown, default=str)[:3000]}", flush=True)
        (self.out / "gpu_proof.json").write_text(json.dumps(self.report, indent=1, default=str))


def run_command(
    command: list[str], timeout_s: float, env: dict[str, str] | None = None
) -> tuple[int, str]:
    try:
        done = subprocess.run(
            command,
            capture_output=True,
            text=True,
            timeout=timeout_s,
            cwd=REPO,
            check=False,
            env={**os.environ, **(env or {})},
        )
        return done.returncode, (done.stdout + done.stderr)[-3000:]
    except subprocess.TimeoutExpired as expired:
        return -1, f"timed out after {timeout_s} s: {str(expired.stdout)[-1500:]}"


def env_stage(proof: Proof) -> dict[str, Any]:
    figures: dict[str, Any] = {"torch": torch.__version__, "cuda": torch.cuda.is_available()}
    if torch.cuda.is_available():
        figures["device"] = torch.cuda.get_device_name(0)
        figures["nccl"] = ".".join(map(str, torch.cuda.nccl.version()))
    if shutil.which("nvidia-smi"):
        figures["nvidia_smi"] = run_command(["nvidia-smi"], 30)[1][-1500:]
    figures["cpus"] = os.cpu_count()
    return figures


def nccl_shared_stage(proof: Proof) -> dict[str, Any]:
    amp = [sys.executable, "bench/amp_gpu.py", "--workers", "2", "--epochs", "2"]
    rc, tail = run_command([*amp, "--backend", "nccl", "--channels", "16"], 60)
    return {"rc": rc, "refused": "Duplicate GPU" in tail, "tail": tail[-1200:]}


def amp_stage(proof: Proof) -> dict[str, Any]:
    figures = proof.out / "amp.json"
    command = [sys.executable, "bench/amp_gpu.py", "--workers", "2", "--epochs", "6"]
    command += ["--channels", str(CHANNELS), "--batch-size", str(BATCH), "--json", str(figures)]
    # as many CPU threads a process as a trial's worker gets (Ray sets OMP_NUM_THREADS to its
    # CPUs): the first GPU run left torch's default (16 a process) and its Ray/plain ratio of
    # 2.05 was not like for like
    rc, tail = run_command(
        command, 300, {"OMP_NUM_THREADS": str(max(1, int(WORKER_CPUS[proof.gpu])))}
    )
    print(tail, flush=True)
    if rc != 0:
        raise RuntimeError(f"amp_gpu.py exited {rc}: {tail[-1500:]}")
    result: dict[str, Any] = json.loads(figures.read_text())
    proof.shared["plain"] = result
    return result


class LocalRuntime:
    """The kit's loop in this process on one device, checkpoints kept under ``run_dir``."""

    def __init__(self, run_dir: Path, device: torch.device):
        self.run_dir, self._device = run_dir, device
        self.epochs: dict[int, dict[str, float]] = {}

    def latest_checkpoint(self) -> Any:
        return None  # each run starts from config["resume_from"]

    def report(self, metrics: dict[str, float], checkpoint: Any) -> None:
        epoch = int(metrics["epoch"])
        self.epochs[epoch] = metrics
        if checkpoint is not None:
            shutil.copytree(checkpoint.path, self.run_dir / f"epoch_{epoch}", dirs_exist_ok=True)

    def prepare_model(self, model: torch.nn.Module, ddp: dict[str, Any]) -> torch.nn.Module:
        return model

    def device(self) -> torch.device:
        return self._device


def checkpoints_stage(proof: Proof) -> dict[str, Any]:
    from trainers.kit import read_state, train_on

    devices = [torch.device("cuda", 0), torch.device("cpu")]
    if not proof.gpu:
        devices = [torch.device("cpu"), torch.device("cpu")]
    config = {
        **TRAINERS["digits_cnn"].defaults,
        TASK_KEY: TRAINERS["digits_cnn"].task,
        "optimizer": "adam",
        "checkpoint_frequency": 1,
    }
    figures: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as scratch:
        for index, (first, second) in enumerate((devices, devices[::-1])):
            name = f"{index + 1}_{first.type}_to_{second.type}"
            run_dir = Path(scratch) / name
            run_dir.mkdir()
            writer = LocalRuntime(run_dir, first)
            train_on({**config, "epochs": 2}, writer)
            saved = read_state(_checkpoint(run_dir / "epoch_2"))
            reader = LocalRuntime(run_dir, second)
            train_on({**config, "epochs": 3, "resume_from": str(run_dir / "epoch_2")}, reader)
            assert sorted(reader.epochs) == [3], reader.epochs  # resumed, not restarted
            moments = saved["optimizer"]["state"]
            figures[name] = {
                "written_on": str(first),
                "resumed_on": str(second),
                "adam_moments_saved": len(moments),
                "val_loss_epoch_2": writer.epochs[2]["val_loss"],
                "val_loss_epoch_3": reader.epochs[3]["val_loss"],
            }
    return figures


def _checkpoint(path: Path) -> Any:
    import ray.train

    return ray.train.Checkpoint(str(path))


def sweep_spec(proof: Proof, name: str, samples: int, epochs: int, asha: bool) -> dict[str, Any]:
    constants = {
        **TRAINERS["digits_cnn"].defaults,
        "channels": CHANNELS,
        "hidden": 4 * CHANNELS,
        "batch_size": BATCH,
        "precision": "bf16" if proof.gpu else "fp32",
    }
    space: dict[str, Any] = {k: {"type": "constant", "value": v} for k, v in constants.items()}
    space["lr"] = {"type": "loguniform", "low": 3e-4, "high": 1e-2}
    resources: dict[str, Any] = {"num_workers": 2, "cpus_per_worker": WORKER_CPUS[proof.gpu]}
    if proof.gpu:
        resources.update(use_gpu=True, gpus_per_worker=0.5)
    stopping: dict[str, Any] = {"scheduler": "none", "max_t": epochs}
    if asha:
        stopping = {"scheduler": "asha", "max_t": epochs, "grace_period": 2, "reduction_factor": 2}
    return {
        "name": name,
        "trainer": "digits_cnn",
        "metric": "val_accuracy",
        "mode": "max",
        "search_space": space,
        "search": {"algorithm": "random", "num_samples": samples, "max_concurrent_trials": 2},
        "early_stopping": stopping,
        "resources": resources,
        "fault_tolerance": {"max_failures": 2, "checkpoint_frequency": 1},
    }


class GpuSampler(threading.Thread):
    """nvidia-smi's utilization and memory every second until stopped."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.samples: list[tuple[int, int]] = []
        self.done = threading.Event()

    def run(self) -> None:
        query = ["nvidia-smi", "--query-gpu=utilization.gpu,memory.used", "--format=csv,noheader"]
        while not self.done.wait(1.0):
            try:
                line = subprocess.run(query, capture_output=True, text=True, timeout=10).stdout
                util, memory = (int(part.split()[0]) for part in line.strip().split(","))
                self.samples.append((util, memory))
            except Exception:  # a missed sample is a missed sample
                continue

    def summary(self) -> dict[str, Any]:
        utils = [u for u, _ in self.samples]
        return {
            "samples": len(utils),
            "busy_samples": sum(u > 0 for u in utils),
            "max_utilization_pct": max(utils, default=0),
            "max_memory_mib": max((m for _, m in self.samples), default=0),
        }


def trial_figures(client: Any, trial: Any) -> dict[str, Any]:
    results = list(client.pages(f"/trials/{trial.id}/results"))
    logs = client.trial_logs(trial.id, limit=200)
    device_lines = sorted(
        {
            line.text
            for line in logs.lines
            if line.text.startswith("rank ") and "worker(s)" in line.text
        }
    )
    later = [r["metrics"] for r in results if r["iteration"] >= 2] or [
        r["metrics"] for r in results
    ]
    first = min((datetime.fromisoformat(r["reported_at"]) for r in results), default=None)
    startup = (first - trial.started_at).total_seconds() if first and trial.started_at else None
    return {
        "number": trial.number,
        "state": trial.state,
        "restarts": trial.restarts,
        "iterations": [r["iteration"] for r in results],
        "config_lr": trial.config.get("lr"),
        "devices": device_lines,
        "samples_per_second": _median(later, "samples_per_second"),
        "allreduce_share": _median(later, "allreduce_share"),
        "startup_s": startup,
    }


def _median(rows: list[dict[str, Any]], key: str) -> float | None:
    values = [float(row[key]) for row in rows if key in row]
    return statistics.median(values) if values else None


def service_stages(proof: Proof, stages: set[str]) -> dict[str, Any]:
    from bench.local import local_raysweep
    from raysweep.client import Client

    with local_raysweep(cpus=None if proof.gpu else 2) as (_, _ray, server):
        client = Client(server.url, server.admin_token, timeout_s=60)
        if "sweep" in stages:
            proof.stage("sweep", lambda: sweep_stage(proof, client))
        if "worker_kill" in stages:
            proof.stage("worker_kill", lambda: worker_kill_stage(proof, client))
        if "promotion" in stages and "sweep" in proof.shared:
            proof.stage("promotion", lambda: promotion_stage(proof, client, server))
    return {}


def sweep_stage(proof: Proof, client: Any) -> dict[str, Any]:
    sampler = GpuSampler()
    if proof.gpu:
        sampler.start()
    started = time.monotonic()
    experiment = client.submit(sweep_spec(proof, "gpu-asha", 4, SWEEP_EPOCHS, asha=True))
    experiment.wait(timeout=240, progress=False)
    wall = time.monotonic() - started
    sampler.done.set()
    trials = [trial_figures(client, t) for t in experiment.trials()]
    figures: dict[str, Any] = {
        "state": experiment.state,
        "error": experiment.data.error,
        "wall_s": round(wall, 1),
        "trials": trials,
        "nvidia_smi": sampler.summary(),
    }
    throughputs = [t["samples_per_second"] for t in trials if t["samples_per_second"]]
    # the plain loop's figures: this run's, else an earlier run's in the same OUT
    plain_file = proof.out / "amp.json"
    if "plain" not in proof.shared and plain_file.exists():
        proof.shared["plain"] = json.loads(plain_file.read_text())
    plain = proof.shared.get("plain", {}).get("precisions", {})
    precision = "bf16" if proof.gpu else "fp32"
    if throughputs and precision in plain:
        baseline = plain[precision]["samples_per_second"]
        figures["plain_samples_per_second"] = baseline
        figures["train_over_plain"] = statistics.median(throughputs) / baseline
    startups = [t["startup_s"] for t in trials if t["startup_s"] is not None]
    figures["startup_s"] = startups
    if experiment.state != "completed":
        raise RuntimeError(json.dumps(figures, default=str))
    proof.shared["sweep"] = experiment
    return figures


def worker_kill_stage(proof: Proof, client: Any) -> dict[str, Any]:
    experiment = client.submit(sweep_spec(proof, "gpu-killed-worker", 1, KILLED_EPOCHS, False))
    deadline = time.monotonic() + 150
    while not any(t.iteration >= 3 for t in experiment.trials()):
        if time.monotonic() > deadline or experiment.refresh().state in ("failed", "cancelled"):
            raise RuntimeError(f"no epoch 3: {experiment.state} {experiment.data.error}")
        time.sleep(0.5)
    workers = subprocess.run(
        ["pgrep", "-f", "RayTrainWorker"], capture_output=True, text=True, check=False
    ).stdout.split()
    if not workers:
        raise RuntimeError("no RayTrainWorker process to kill")
    killed_at = next(t.iteration for t in experiment.trials())
    os.kill(int(workers[-1]), signal.SIGKILL)
    experiment.wait(timeout=150, progress=False)
    [trial] = experiment.trials()
    figures = trial_figures(client, trial)
    restarted = [e.message for e in experiment.events() if e.kind == "trial_restarted"]
    figures.update(
        state=experiment.state,
        killed_pid=workers[-1],
        killed_at_iteration=killed_at,
        restarted=restarted,
    )
    assert experiment.state == "completed", figures
    assert figures["iterations"] == list(range(1, KILLED_EPOCHS + 1)), figures
    assert trial.restarts >= 1, figures
    return figures


def promotion_stage(proof: Proof, client: Any, server: Any) -> dict[str, Any]:
    from raysweep.models import load_model

    experiment = proof.shared["sweep"]
    overrides: dict[str, Any] = {"top_k": 1, "model_name": "gpu-digits", "epochs": 2}
    overrides.update(num_workers=1)
    if proof.gpu:
        overrides.update(use_gpu=True, gpus_per_worker=1, precision="bf16")
    [run] = experiment.promote(**overrides)
    deadline = time.monotonic() + 150
    while True:
        final = next(r for r in experiment.final_runs() if r.id == run.id)
        if final.state.is_final:
            break
        if time.monotonic() > deadline:
            raise TimeoutError(f"final run {run.id} still {final.state}")
        time.sleep(1)
    assert final.state == "completed", final
    [version] = client.model_versions("gpu-digits")
    logs = client.final_run_logs(run.id, limit=200)
    device_lines = sorted({line.text for line in logs.lines if line.text.startswith("rank ")})
    model = load_model("gpu-digits", version.version, client=client)  # on the CPU
    figures: dict[str, Any] = {
        "final_run": final.id,
        "devices": device_lines,
        "version": version.version,
        "test_metrics": version.test_metrics,
        "loaded_on": str(next(model.parameters()).device),
    }
    with server.client() as http:
        path = f"/api/v1/models/gpu-digits/versions/{version.version}/deploy"
        deployed = http.post(path)
        assert deployed.status_code == 202, deployed.text
        deadline = time.monotonic() + 120
        while True:
            deployment = http.get(path).json()
            if deployment["state"] in ("running", "failed") or time.monotonic() > deadline:
                break
            time.sleep(1)
        assert deployment["state"] == "running", deployment
        inputs = torch.zeros(3, 1, 8, 8).tolist()
        answer = httpx.post(
            deployment["url"],
            json={"inputs": inputs},
            headers={"Authorization": f"Bearer {deployed.json()['key']}"},
            timeout=30,
        )
        figures["predict_status"] = answer.status_code
        figures["predictions"] = answer.json().get("predictions")
        assert answer.status_code == 200, answer.text
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cpu", action="store_true", help="the same stages without a GPU")
    parser.add_argument(
        "--out", type=Path, default=Path(os.environ.get("OUT") or REPO / "var" / "gpu_proof")
    )
    parser.add_argument(
        "--stages", default="env,nccl_shared,amp,checkpoints,sweep,worker_kill,promotion"
    )
    args = parser.parse_args()
    gpu = not args.cpu
    if gpu and not torch.cuda.is_available():
        raise SystemExit("no GPU here: run with --cpu")
    args.out.mkdir(parents=True, exist_ok=True)
    proof = Proof(args.out, gpu)
    stages = set(args.stages.split(","))
    local: list[tuple[str, Callable[[Proof], dict[str, Any]]]] = [
        ("env", env_stage),
        ("nccl_shared", nccl_shared_stage),
        ("amp", amp_stage),
        ("checkpoints", checkpoints_stage),
    ]
    for name, stage in local:
        if name in stages and (gpu or name != "nccl_shared"):
            proof.stage(name, partial(stage, proof))
    if stages & {"sweep", "worker_kill", "promotion"}:
        proof.stage("service", lambda: service_stages(proof, stages))
    failed = [k for k, v in proof.report.items() if isinstance(v, dict) and not v.get("ok")]
    print(f"\nfailed stages: {failed or 'none'}; figures in {args.out / 'gpu_proof.json'}")


if __name__ == "__main__":
    main()
