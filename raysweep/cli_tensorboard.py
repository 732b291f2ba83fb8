"""``raysweep tensorboard EXPERIMENT``: TensorBoard over a sweep's trials, each a run named by its
number and config, read from the storage where the trials wrote their scalars."""

from __future__ import annotations

import argparse
import importlib.util
import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from typing import Any

from raysweep.cli_output import console, dump
from raysweep.client import Client
from raysweep.errors import RaysweepError
from raysweep.tensorboard import TensorBoardRun, logdir_spec

INSTALL_HINT = "pip install 'tensorboard>=2.16' (raysweep's tensorboard extra)"


class TensorBoardMissing(RaysweepError):
    """TensorBoard is not installed where the command runs."""


def add_tensorboard_command(add: Callable[..., argparse.ArgumentParser]) -> None:
    command = add(
        "tensorboard",
        "Start TensorBoard over the sweep's trials: every metric each trial reported, a run per "
        "trial named by its number and the config keys that differ. Reads the server's storage "
        f"directly (a path that must exist here, or a URI TensorBoard reads). Needs "
        f"tensorboard ({INSTALL_HINT}); --print shows the command without it.",
    )
    command.add_argument(
        "--print",
        action="store_true",
        dest="print_only",
        help="Print the tensorboard command line instead of running it.",
    )
    command.add_argument("--port", type=int, help="TensorBoard's port (its default: 6006).")
    command.add_argument("--host", help="The address TensorBoard listens on (default: localhost).")


def tensorboard_argv(
    runs: Sequence[TensorBoardRun], port: int | None = None, host: str | None = None
) -> list[str]:
    """The arguments after ``tensorboard``."""
    argv = ["--logdir_spec", logdir_spec(runs)]
    if port is not None:
        argv += ["--port", str(port)]
    if host is not None:
        argv += ["--host", host]
    return argv


def tensorboard_executable() -> list[str]:
    """How to start TensorBoard here: this Python's module, else a ``tensorboard`` on PATH."""
    if importlib.util.find_spec("tensorboard") is not None:
        return [sys.executable, "-m", "tensorboard.main"]
    found = shutil.which("tensorboard")
    if found is None:
        raise TensorBoardMissing(
            f"tensorboard is not installed here: {INSTALL_HINT} (or use --print for the command)"
        )
    return [found]


def tensorboard_command(client: Client, args: argparse.Namespace, as_json: bool) -> Any:
    found = client.tensorboard_runs(args.id)
    if not found.runs:
        raise RaysweepError(f"experiment {args.id} has no trials yet")
    argv = tensorboard_argv(found.runs, args.port, args.host)
    if as_json:
        return {"runs": dump(found.runs), "command": ["tensorboard", *argv]}
    if args.print_only:
        print(shlex.join(["tensorboard", *argv]))
        return None
    executable = tensorboard_executable()
    missing = [run.logdir for run in found.runs if "://" not in run.logdir]
    missing = [logdir for logdir in missing if not os.path.isdir(logdir)]
    if len(missing) == len(found.runs):
        console.print(
            "[yellow]None of the trials' directories exists on this machine: the server keeps "
            "them on its own disk. Run this where its storage is mounted, or give the server a "
            "shared RAYSWEEP_STORAGE_URI.[/yellow]"
        )
    names = ", ".join(run.name for run in found.runs[:3]) + ", ..." * (len(found.runs) > 3)
    console.print(f"TensorBoard over {len(found.runs)} trials ({names})")
    completed = subprocess.run([*executable, *argv], check=False)
    if completed.returncode:
        raise SystemExit(completed.returncode)
    return None
