"""raysweep: the light client (spec models, API schemas; SDK and CLI to come)."""

from raysweep.spec import ExperimentSpec, Problem, SpecError, load_spec

__all__ = ["ExperimentSpec", "Problem", "SpecError", "load_spec"]
__version__ = "0.1.0"
