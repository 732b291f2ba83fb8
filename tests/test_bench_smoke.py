"""The benchmarks that need no Ray or browser, run with tiny sizes so they cannot rot unnoticed
(``bench/recorder.py`` had stopped running when submit began to take a token). Their figures are
not checked here: `make bench` prints them; this proves each still runs and prints its table."""

from __future__ import annotations

import subprocess
import sys

import pytest

from service.settings import REPO_ROOT
from tests.conftest import PG_URL

SMOKE_RUNS = {
    "recorder": (["bench/recorder.py", "--sizes", "20x5", "--postgres", PG_URL], "ratio"),
    "searcher": (
        ["bench/searcher.py", "--sizes", "20", "--trials", "6", "--seeds", "2"],
        "per-suggestion overhead",
    ),
    "api_load": (
        ["bench/api_load.py", "--clients", "2", "--requests", "10", "--trials", "30"],
        "p99",
    ),
}


@pytest.mark.postgres
@pytest.mark.parametrize("bench", sorted(SMOKE_RUNS))
def test_the_benchmark_runs_with_tiny_sizes_and_prints_its_figures(bench: str) -> None:
    arguments, heading = SMOKE_RUNS[bench]
    finished = subprocess.run(
        [sys.executable, *arguments],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert finished.returncode == 0, finished.stderr[-3000:]
    assert heading in finished.stdout, finished.stdout[-3000:]
