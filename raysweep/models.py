"""``load_model``: a registered model version as a torch module, ready for inference.

It needs the server extra (``pip install '.[server]'`` in a raysweep checkout: torch and the
trainers) and access to the storage holding the checkpoint; the light client imports neither
until it is called.
"""

from __future__ import annotations

import importlib
from typing import Any

from raysweep.client import Client


def load_model(
    name: str, version_or_alias: int | str = "latest", client: Client | None = None
) -> Any:
    """The trained ``torch.nn.Module`` of ``name`` at a version number or alias (``"latest"``:
    the newest version), in eval mode.

    Example::

        model = raysweep.load_model("digits", "production")
        predictions = model(torch.tensor(rows)).argmax(dim=1)
    """
    api = client or Client()
    if version_or_alias == "latest":
        versions = api.model_versions(name)
        version = versions[0]
    else:
        version = api.model_version(name, version_or_alias)
    if version.trainer.startswith("code:"):
        raise ValueError(
            f"{name} version {version.version} was trained by user code; raysweep cannot build "
            f"its model: load its checkpoint ({version.checkpoint_uri}) with that code"
        )
    try:
        # imported here, not at the top: the light client must install without torch
        loading = importlib.import_module("trainers.loading")
    except ImportError as error:
        raise ImportError(
            "load_model needs the server extra (pip install '.[server]' in a raysweep "
            f"checkout): {error}"
        ) from None
    return loading.load_model(version.trainer, version.config, version.checkpoint_uri)
