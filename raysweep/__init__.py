"""raysweep: the light client: spec models, API schemas, the SDK (``Client``) and the CLI.

Example::

    from raysweep import Client

    experiment = Client().submit("sweep.yaml")
    experiment.wait()
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from raysweep.client import Client
    from raysweep.errors import (
        AuthError,
        Conflict,
        NotFound,
        Problem,
        RaysweepError,
        SpecError,
        Unreachable,
        WaitTimeout,
    )
    from raysweep.experiment import Experiment, Trial
    from raysweep.models import load_model
    from raysweep.spec import ExperimentSpec
    from raysweep.spec_reader import load_spec

# each name's module, imported when the name is first used: the service's Ray processes import
# raysweep.spec (and so this package) for the spec models alone, and the SDK's modules (httpx,
# the CLI's automation) cost each of them ~0.15 s of CPU more at start
_MODULES = {
    "Client": "raysweep.client",
    "AuthError": "raysweep.errors",
    "Conflict": "raysweep.errors",
    "NotFound": "raysweep.errors",
    "Problem": "raysweep.errors",
    "RaysweepError": "raysweep.errors",
    "SpecError": "raysweep.errors",
    "Unreachable": "raysweep.errors",
    "WaitTimeout": "raysweep.errors",
    "Experiment": "raysweep.experiment",
    "Trial": "raysweep.experiment",
    "load_model": "raysweep.models",
    "ExperimentSpec": "raysweep.spec",
    "load_spec": "raysweep.spec_reader",
}


def __getattr__(name: str) -> Any:
    if name not in _MODULES:
        raise AttributeError(f"module 'raysweep' has no attribute {name!r}")
    value = getattr(importlib.import_module(_MODULES[name]), name)
    globals()[name] = value
    return value


__all__ = [
    "AuthError",
    "Client",
    "Conflict",
    "Experiment",
    "ExperimentSpec",
    "NotFound",
    "Problem",
    "RaysweepError",
    "SpecError",
    "Trial",
    "Unreachable",
    "WaitTimeout",
    "load_model",
    "load_spec",
]
__version__ = "0.1.0"
