"""The one-trial sweep the benchmarks submit: digits_mlp at its bundled defaults, 2 workers."""

from __future__ import annotations

from typing import Any

from trainers.registry import TRAINERS

CONFIG = dict(TRAINERS["digits_mlp"].defaults)  # the bundled defaults, one source


def single_trial_spec(name: str, epochs: int, **changes: Any) -> dict[str, Any]:
    """One 2-worker trial of the default config for ``epochs`` epochs, no early stopping."""
    return {
        "name": name,
        "trainer": "digits_mlp",
        "metric": "val_accuracy",
        "mode": "max",
        "search_space": {k: {"type": "constant", "value": v} for k, v in CONFIG.items()},
        "search": {"algorithm": "random", "num_samples": 1, "max_concurrent_trials": 1},
        "early_stopping": {"scheduler": "none", "max_t": epochs},
        "resources": {"num_workers": 2, "cpus_per_worker": 0.5},
        **changes,
    }
