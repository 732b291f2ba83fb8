"""The notebook example, run start to finish against a full server with Ray, so it cannot rot."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from service.settings import REPO_ROOT
from tests.conftest import RAY_TESTS, ServerProcess

pytestmark = RAY_TESTS


def test_notebook_example_runs_a_sweep_and_plots_its_curves(
    engine_server: ServerProcess, tmp_path: Path
) -> None:
    figure = tmp_path / "curves.png"
    result = subprocess.run(
        [sys.executable, str(REPO_ROOT / "examples" / "notebook.py")],
        env={
            **os.environ,
            "RAYSWEEP_URL": engine_server.url,
            "RAYSWEEP_TOKEN": engine_server.admin_token,
            "XDG_CONFIG_HOME": str(tmp_path / "config"),
            "EXAMPLE_FIGURE": str(figure),
            "EXAMPLE_TIMEOUT_S": "480",
            "MPLBACKEND": "Agg",
        },
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=560,
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-4000:]
    assert "completed" in result.stdout and "best trial" in result.stdout
    assert figure.stat().st_size > 10_000  # a real plot, not an empty canvas
    assert "digits-notebook" in result.stderr  # the progress bar, on stderr
