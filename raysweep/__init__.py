"""raysweep: the light client: spec models, API schemas, the SDK (``Client``) and the CLI.

Example::

    from raysweep import Client

    experiment = Client().submit("sweep.yaml")
    experiment.wait()
"""

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
