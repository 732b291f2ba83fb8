"""The private Ray names the engine uses are all in service/engine/ray_compat.py, and this Ray
still has each of them: an upgrade that moves one fails here, naming it, instead of in a driver
or a trial. No Ray cluster needed."""

from __future__ import annotations

import ast
import importlib
import inspect
import os
import pickle
import subprocess
import sys
from pathlib import Path

from service.engine import ray_compat
from service.engine.train_run import torch_backend
from service.settings import REPO_ROOT

PACKAGES = ("service", "raysweep", "trainers")


def private_ray_modules(tree: ast.AST) -> list[str]:
    """Modules a source imports whose path has a private part under ``ray``."""
    found = []
    for node in ast.walk(tree):
        names = (
            [alias.name for alias in node.names]
            if isinstance(node, ast.Import)
            else [node.module or ""]
            if isinstance(node, ast.ImportFrom)
            else []
        )
        found += [
            name
            for name in names
            if name.split(".")[0] == "ray"
            and (any(part.startswith("_") for part in name.split(".")) or ".dashboard" in name)
        ]
    return found


def test_every_private_ray_import_is_in_ray_compat() -> None:
    outside = {
        str(path.relative_to(REPO_ROOT)): modules
        for package in PACKAGES
        for path in sorted((REPO_ROOT / package).rglob("*.py"))
        if path != Path(ray_compat.__file__)
        and (modules := private_ray_modules(ast.parse(path.read_text())))
    }
    assert outside == {}, f"import these through service/engine/ray_compat.py: {outside}"
    # the check finds what it looks for
    compat = ast.parse(Path(ray_compat.__file__).read_text())
    assert "ray.train.v2._internal.execution.callback" in private_ray_modules(compat)


def test_this_ray_has_every_name_and_attribute_the_engine_uses() -> None:
    missing_optional = [name for name, value in ray_compat.OPTIONAL_NAMES.items() if value is None]
    assert missing_optional == [], "Ray moved these; their fallbacks cost time, fix the imports"
    assert ray_compat.missing_private_attributes() == []
    assert hasattr(ray_compat.ray_state, "actors")
    assert hasattr(ray_compat.ray_state.state, "_connect_and_get_accessor")
    torch_config = importlib.import_module(ray_compat.TORCH_CONFIG_MODULE)
    assert [n for n in ray_compat.TORCH_CONFIG_NAMES if not hasattr(torch_config, n)] == []


def test_tunes_trial_session_still_has_the_queues_and_count_the_engine_reads() -> None:
    from ray.train._internal.session import _TrainSession

    source = Path(inspect.getfile(_TrainSession)).read_text()
    for attribute in ("self._inter_actor_queue", "self.result_queue", "self.iteration"):
        assert attribute in source, f"Tune's session no longer sets {attribute}"


def test_the_engine_turns_on_token_auth_even_in_a_process_that_imported_ray_first() -> None:
    """Ray reads ``RAY_AUTH_MODE`` when it is imported; a tool or harness that imports Ray before
    the engine must still send the token (without it every call to the cluster is refused)."""
    for first in ("import ray", "pass"):
        script = f"{first}\nimport service.engine.ray_compat as c\nprint(c.token_auth())"
        environment = {k: v for k, v in os.environ.items() if k != "RAY_AUTH_MODE"}
        done = subprocess.run(
            [sys.executable, "-c", script],
            capture_output=True,
            text=True,
            env=environment,
            cwd=REPO_ROOT,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == "True", (first, done.stdout, done.stderr[-2000:])


def test_a_runs_torch_backend_is_held_without_importing_torch() -> None:
    """A run's backend config is built in its trial actor and unpickled in its Train controller,
    which never touch a tensor: neither imports torch for it (1.6 s of CPU each). The workers
    call TorchConfig's own functions (checked above) and train on 2 ranks in test_trainer.py."""
    held = pickle.dumps(torch_backend(False, 0.0, 2))
    script = (
        "import pickle, sys\n"
        "config = pickle.loads(sys.stdin.buffer.read())\n"
        "print(config.backend, config.backend_cls.__name__, 'torch' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], input=held, capture_output=True, cwd=REPO_ROOT, timeout=120
    )
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    assert done.stdout.decode().split() == ["gloo", "TorchProcessGroupBackend", "False"]
