"""Loading a trial's training function (a bundled trainer or the user's uploaded code), and the
error that fails a sweep when it cannot be loaded. Light on purpose: a warm group's workers load
the function with it, and they import no Tune."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from trainers.registry import load_reference


class CodeLoadError(RuntimeError):
    """The trial could not import its training function (user code) or build its datasets:
    every other trial would fail the same way, so the driver fails the sweep on the first one
    (matched by this name)."""


# how the error's line begins in a trial's traceback or a warm worker's error text
CODE_LOAD_MARKER = f"{CodeLoadError.__name__}: "


def load_training_function(entrypoint: str) -> Callable[[dict[str, Any]], None]:
    """Import the function the workers run, where its package is (the job's runtime env
    carries the user's package to every process): in a cold trial's actor, which hands it to
    Ray Train, or on a warm group's worker, which runs it. Code that cannot be imported raises
    ``CodeLoadError``."""
    try:
        function = load_reference(entrypoint)
    except Exception as error:
        raise CodeLoadError(
            f"cannot load the training function {entrypoint!r}: {type(error).__name__}: {error}"
        ) from error
    if not callable(function):
        raise CodeLoadError(f"{entrypoint!r} is a {type(function).__name__}, not a function")
    return function  # type: ignore[no-any-return]
