"""Every benchmark that needs neither Ray nor a browser, run with tiny sizes so that none can rot
unnoticed (``bench/recorder.py`` had stopped running when submit began to take a token, and
``bench/seed_scale.py`` could not start without the UI bench's playwright). Their figures are
not checked here (`make bench` prints them): this proves each still runs, prints its table and
never imports playwright. The benches that need a Ray cluster (overhead, recovery, scaling,
asha_efficiency, pbt, plain_tune, startup) or Chromium (ui_scale) are only imported, which still
catches a helper they name that is gone."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from service.settings import REPO_ROOT
from tests.conftest import PG_URL

# runs a bench as `python bench/x.py ARGS` would, with playwright made unimportable: only
# bench/ui_scale.py may need the browser
WITHOUT_PLAYWRIGHT = (
    "import runpy, sys; sys.modules['playwright'] = None; script = sys.argv[1]; "
    "sys.argv = sys.argv[1:]; runpy.run_path(script, run_name='__main__')"
)

SMOKE_RUNS = {
    "searcher": (
        ["bench/searcher.py", "--sizes", "20", "--trials", "6", "--seeds", "2"],
        "per-suggestion overhead",
    ),
    "api_load": (
        ["bench/api_load.py", "--clients", "2", "--requests", "10", "--trials", "30"],
        "p99",
    ),
    "views_load": (
        ["bench/views_load.py", "--trials", "30", "--results", "5", "--viewers", "2"],
        "/healthz p50",
    ),
    "amp_gpu": (
        [
            "bench/amp_gpu.py",
            "--epochs",
            "2",
            "--batch-size",
            "64",
            "--channels",
            "4",
            "--workers",
            "1",
        ],
        "ms/step",
    ),
    # the stages without Ray but amp (amp_gpu's own run above); the Ray stages ran on a GPU
    # machine (its docstring)
    "gpu_proof": (
        ["bench/gpu_proof.py", "--cpu", "--stages", "env,checkpoints", "--out", "var/smoke"],
        "failed stages: none",
    ),
    "trial_logs": (
        ["bench/trial_logs.py", "--lines", "300", "--repeats", "1", "--step-ms", "0.1"],
        "bytes per line",
    ),
}
NEEDS_RAY_OR_A_BROWSER = [
    "bench.overhead",
    "bench.recovery",
    "bench.scaling",
    "bench.asha_efficiency",
    "bench.pbt",
    "bench.plain_tune",
    "bench.startup",
    "bench.startup_probe",
    "bench.ui_scale",
]


def run_bench(*arguments: str) -> subprocess.CompletedProcess[str]:
    finished = subprocess.run(
        [sys.executable, "-c", WITHOUT_PLAYWRIGHT, *arguments],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert finished.returncode == 0, finished.stderr[-3000:]
    return finished


@pytest.mark.parametrize("bench", sorted(SMOKE_RUNS))
def test_the_benchmark_runs_with_tiny_sizes_and_prints_its_figures(bench: str) -> None:
    arguments, heading = SMOKE_RUNS[bench]
    printed = run_bench(*arguments).stdout
    assert heading in printed, printed[-3000:]


@pytest.mark.postgres
def test_the_recorder_benchmark_runs_on_both_databases() -> None:
    printed = run_bench("bench/recorder.py", "--sizes", "20x5", "--postgres", PG_URL).stdout
    rows = [line.split()[0] for line in printed.splitlines()[1:] if line.strip()]
    assert "API/raw" in printed.splitlines()[0] and rows[-2:] == ["postgresql", "sqlite"], printed


def test_seed_scale_seeds_a_database_once(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'scale.db'}"
    seeded = run_bench("bench/seed_scale.py", "--database", database, "--trials", "12")
    assert "seeded sweep" in seeded.stdout and "(12 trials x 100 results)" in seeded.stdout
    again = run_bench("bench/seed_scale.py", "--database", database, "--if-missing")
    assert "(scale) already: not seeded again" in again.stdout, again.stdout


def test_the_benchmarks_that_need_ray_or_a_browser_still_import() -> None:
    imported = subprocess.run(
        [sys.executable, "-c", f"import importlib; [importlib.import_module(m) for m in "
         f"{NEEDS_RAY_OR_A_BROWSER!r}]"],
        cwd=REPO_ROOT, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert imported.returncode == 0, imported.stderr[-3000:]
