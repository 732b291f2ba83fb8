"""A registered model version's trained module, from its checkpoint (for inference)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ray.train import Checkpoint
from torch import nn

from trainers import kit
from trainers.practices import Task
from trainers.registry import get_trainer, load_reference


def load_task(trainer: str, config: Mapping[str, Any], checkpoint: Checkpoint | str) -> Task:
    """The bundled trainer's task built from ``config``, its model loaded from the checkpoint
    (a Ray Train checkpoint, or its URI: a local path or a pyarrow URI) and put in eval mode."""
    info = get_trainer(trainer)
    task: Task = load_reference(info.task)({**info.defaults, **config})
    source = checkpoint if isinstance(checkpoint, Checkpoint) else Checkpoint(checkpoint)
    task.model.load_state_dict(kit.read_state(source)["model"])
    task.model.eval()
    return task


def load_model(trainer: str, config: Mapping[str, Any], checkpoint_uri: str) -> nn.Module:
    return load_task(trainer, config, checkpoint_uri).model
