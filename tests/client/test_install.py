"""`pip install raysweep` (no extras) gives a working SDK and CLI without the server's weight."""

from __future__ import annotations

import re
import shutil
import socket
import subprocess
import sys
import zipfile
from pathlib import Path

import httpx
import pytest

import raysweep
from devkit.harness import wait_for
from service.db.migrate import head_revision
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


SERVER_DEPENDENCIES = """
import sysconfig
print(sysconfig.get_paths()["purelib"])
"""


def test_the_wheel_carries_the_server_ui_migrations_and_spaces_and_serves_without_a_checkout(
    tmp_path: Path,
) -> None:
    """The built wheel, installed into a venv outside the repository, runs `raysweep-server`:
    it migrates a fresh SQLite database and serves the API and the web UI from the package's
    own data. The server's dependencies (Ray, torch: gigabytes) are lent by this test's
    environment through a path entry, which reads no .pth file there: this checkout's editable
    install stays out of sight, as `service.__file__` shows."""
    assert (REPO_ROOT / "web" / "dist" / "index.html").exists(), "build the web UI: make web"
    source = tmp_path / "source"
    shutil.copytree(
        REPO_ROOT,
        source,
        ignore=shutil.ignore_patterns(
            ".git", ".venv", "node_modules", "build", "*.egg-info", "var", "__pycache__", ".*cache"
        ),
    )
    wheels = tmp_path / "wheels"
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
         "-w", str(wheels), str(source)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert built.returncode == 0, built.stderr[-3000:]
    [wheel] = wheels.glob("raysweep-*.whl")
    # the version the wheel says is the one the code says (a final run records that one)
    assert wheel.name.startswith(f"raysweep-{raysweep.__version__}-"), wheel.name
    with zipfile.ZipFile(wheel) as archive:
        tops = {name.split("/")[0] for name in archive.namelist()}
    assert {"raysweep", "service", "trainers"} <= tops, tops
    assert not tops & {"devkit", "tests", "bench"}, tops  # tooling stays in the checkout
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    installed = subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--no-deps", str(wheel)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert installed.returncode == 0, installed.stderr[-3000:]
    venv_site = subprocess.run(
        [str(python), "-c", SERVER_DEPENDENCIES], capture_output=True, text=True, check=True
    ).stdout.strip()
    ours = subprocess.run(
        [sys.executable, "-c", SERVER_DEPENDENCIES], capture_output=True, text=True, check=True
    ).stdout.strip()
    (Path(venv_site) / "lent_dependencies.pth").write_text(ours + "\n")
    where = subprocess.run(
        [str(python), "-c", "import service, importlib.metadata as m; print(service.__file__);"
         "print(m.requires('raysweep'))"],
        capture_output=True, text=True, cwd=tmp_path, check=True,
    ).stdout  # fmt: skip
    assert where.startswith(venv_site), where  # the wheel's, not the checkout's
    assert 'ray[serve,train,tune]==2.60.*; extra == "server"' in where.replace("'", '"'), where

    home, port = tmp_path / "home", free_port()
    env = {
        "PATH": f"{venv / 'bin'}:/usr/bin:/bin",
        "HOME": str(tmp_path),
        "RAYSWEEP_HOME": str(home),
        "RAYSWEEP_DATABASE_URL": f"sqlite:///{tmp_path / 'raysweep.db'}",
        "RAYSWEEP_PORT": str(port),
        "RAYSWEEP_CONTROLLER": "false",  # the API and UI; the controller would start Ray
    }
    server = subprocess.Popen(
        [str(venv / "bin" / "raysweep-server")],
        env=env, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    try:
        url = f"http://127.0.0.1:{port}"
        token = wait_for(
            lambda: (
                (home / "admin-token").read_text().strip()
                if (home / "admin-token").exists() and answers(url)
                else None
            ),
            120,
            "raysweep-server to serve",
        )
        page = httpx.get(url + "/")
        assert page.status_code == 200 and '<div id="app">' in page.text, page.text[:500]
        script = re.search(r'src="(/assets/[^"]+\.js)"', page.text)
        assert script and httpx.get(url + script.group(1)).status_code == 200
        me = httpx.get(url + "/api/v1/me", headers={"Authorization": f"Bearer {token}"})
        assert me.status_code == 200 and me.json()["role"] == "admin", me.text
        spaces = httpx.post(
            url + "/api/v1/experiments",
            headers={"Authorization": f"Bearer {token}"},
            json={"name": "x", "trainer": "digits_mlp", "search_space": "digits_mlp",
                  "metric": "val_accuracy", "mode": "max"},
        )  # fmt: skip
        assert spaces.status_code == 201, spaces.text  # the named space came from the wheel
    finally:
        server.terminate()
        output = server.communicate(timeout=30)[0]
    assert f"database at {head_revision()}" in output, output[-3000:]


def answers(url: str) -> bool:
    try:
        return httpx.get(url + "/healthz", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port
