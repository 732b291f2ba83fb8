"""`pip install raysweep` (no extras) gives a working SDK and CLI without the server's weight."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from service.settings import REPO_ROOT

pytestmark = pytest.mark.slow

CHECK = """
import sys
import raysweep, raysweep.cli, raysweep.client
heavy = {"ray", "torch", "sqlalchemy", "fastapi", "pandas", "service", "trainers"}
loaded = heavy & {name.split(".")[0] for name in sys.modules}
assert not loaded, f"the base install imported {sorted(loaded)}"
print("light", raysweep.__version__)
"""


def test_base_install_imports_without_ray_torch_sqlalchemy_or_fastapi(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    install = subprocess.run(
        [str(venv / "bin" / "pip"), "install", "-q", str(REPO_ROOT)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert install.returncode == 0, install.stderr[-3000:]
    for package in ("ray", "torch", "sqlalchemy", "fastapi"):
        found = subprocess.run(
            [str(venv / "bin" / "python"), "-c", f"import {package}"], capture_output=True
        )
        assert found.returncode != 0, f"{package} was installed by the base install"
    checked = subprocess.run(
        [str(venv / "bin" / "python"), "-c", CHECK], capture_output=True, text=True, cwd=tmp_path
    )
    assert checked.returncode == 0 and "light" in checked.stdout, checked.stderr
    helped = subprocess.run(
        [str(venv / "bin" / "raysweep"), "--help"], capture_output=True, text=True
    )
    assert helped.returncode == 0 and "submit" in helped.stdout
    unreachable = subprocess.run(
        [str(venv / "bin" / "raysweep"), "ls", "--url", "http://127.0.0.1:9", "--token", "rsw_x"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert unreachable.returncode == 3, unreachable.stderr
