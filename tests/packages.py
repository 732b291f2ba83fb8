"""Code packages for tests: archives built from {path: source}, and trainers/README.md's
complete example (so the documented example is the one the tests run)."""

from __future__ import annotations

import io
import re
import tarfile
import zipfile

from service.settings import REPO_ROOT


def zip_of(files: dict[str, str]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, source in files.items():
            archive.writestr(name, source)
    return buffer.getvalue()


def targz_of(files: dict[str, str]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name, source in files.items():
            data = source.encode()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def readme_example() -> str:
    """The ```python block under "### Complete example" in trainers/README.md."""
    text = (REPO_ROOT / "trainers" / "README.md").read_text()
    section = text.split("### Complete example", 1)[1]
    match = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert match is not None, "trainers/README.md lost its complete example"
    return match.group(1)


# A training function with no model, for the tests of orchestration (pause, faults, outages)
# rather than of training: its loss is a formula of lr and epoch (falling,
# with a wobble: the best epoch is not always the last), an epoch lasts ``epoch_s``
# (config, default 0.5), and it checkpoints every ``checkpoint_frequency`` epochs and resumes as
# trainers/README.md says. It imports no torch: swept with ``code.process_group: none``, its
# trials' Ray processes never load torch (each reports whether its process did), which makes a
# trial start several seconds sooner than one of the bundled torch trainers. Like a real
# trainer it refuses an ``optimizer`` it does not know (a trial that fails on its config), and
# given ``hidden`` it reports ``model_params``, digits_mlp's size with one hidden layer of that
# width (64 inputs, 10 classes: 75 * hidden + 10), for constraints on a model's size.
SCRIPTED_TRAINER = """
import json
import math
import os
import sys
import tempfile
import time

import ray.train


def train_loop(config: dict) -> None:
    optimizer = config.get("optimizer", "sgd")
    if optimizer not in ("sgd", "adam"):
        raise ValueError(f"optimizer must be one of sgd, adam; got {optimizer!r}")
    rank = ray.train.get_context().get_world_rank()
    start = 1
    if checkpoint := ray.train.get_checkpoint():
        with checkpoint.as_directory() as directory:
            with open(os.path.join(directory, "state.json")) as file:
                start = json.load(file)["epoch"] + 1
    for epoch in range(start, config["epochs"] + 1):
        time.sleep(config.get("epoch_s", 0.5))
        metrics = {
            "epoch": epoch,
            "loss": 1.0 / (1.0 + 10.0 * config["lr"] * epoch) + 0.1 * math.sin(epoch),
            "torch_loaded": float("torch" in sys.modules),
        }
        if "hidden" in config:
            metrics["model_params"] = 75 * config["hidden"] + 10
        with tempfile.TemporaryDirectory() as directory:
            saved = None
            if rank == 0 and epoch % config["checkpoint_frequency"] == 0:
                with open(os.path.join(directory, "state.json"), "w") as file:
                    json.dump({"epoch": epoch}, file)
                saved = ray.train.Checkpoint.from_directory(directory)
            ray.train.report(metrics, checkpoint=saved)
"""


def scripted_code(package: str, **changes: object) -> dict:
    """The ``code`` block of a sweep of SCRIPTED_TRAINER (uploaded as ``scripted.py``)."""
    return {
        "package": package,
        "entrypoint": "scripted:train_loop",
        "metrics": {"loss": "min", "epoch": "max", "torch_loaded": "min"},
        "process_group": "none",
        **changes,
    }


def code_spec(package: str, entrypoint: str = "train:train_loop", **changes: object) -> dict:
    """A sweep of user code reporting ``loss`` (min) per ``epoch``."""
    spec: dict = {
        "name": "user-code",
        "code": {
            "package": package,
            "entrypoint": entrypoint,
            "metrics": {"loss": "min", "epoch": "max"},
        },
        "metric": "loss",
        "mode": "min",
        "search_space": {"lr": {"type": "choice", "values": [0.01, 0.05]}},
    }
    spec.update(changes)
    return spec
