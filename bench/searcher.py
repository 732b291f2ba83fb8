"""What each search algorithm costs and what it finds, through the driver's own code path
(``search_algorithm`` -> Ray's ``OptunaSearch`` -> Optuna's sampler), no cluster needed.

1. Overhead: one suggestion and its result (suggest + on_trial_complete), in ms, once the study
   already holds 100 / 1,000 / 5,000 finished trials of a 7-parameter mixed space (told the way
   an extension or a warm start tells them: ``add_evaluated_point``). Goal: tpe <= 20 ms at 1,000.
2. Regret after N trials on two cheap synthetic functions (a noisy 4-d quadratic bowl and
   Branin), 5 seeds each: the true (noise-free) value of the best configuration found minus the
   optimum; lower is better.

    python bench/searcher.py [--sizes 100 1000 5000] [--trials 40] [--seeds 5]
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import optuna
from ray.tune.search.optuna import OptunaSearch

from raysweep.spec import ExperimentSpec
from service.engine.search import param_space, search_algorithm

MIXED_SPACE: dict[str, Any] = {
    "lr": {"type": "loguniform", "low": 1e-5, "high": 1e-1},
    "weight_decay": {"type": "loguniform", "low": 1e-6, "high": 1e-2},
    "dropout": {"type": "uniform", "low": 0.0, "high": 0.5},
    "momentum": {"type": "uniform", "low": 0.5, "high": 0.99},
    "depth": {"type": "int", "low": 1, "high": 6},
    "hidden": {"type": "choice", "values": [32, 64, 128, 256]},
    "optimizer": {"type": "choice", "values": ["sgd", "adam", "adamw"]},
}
OVERHEAD_ALGORITHMS = ("tpe", "random", "gp", "cmaes", "qmc")
REGRET_ALGORITHMS = ("tpe", "gp", "cmaes", "random")
GP_MAX_TRIALS = 1000  # its Gaussian process is cubic in the trials: minutes per suggestion at 5k
MEASURED = 20  # suggestions timed per size


def spec_for(space: dict[str, Any], algorithm: str, seed: int, samples: int) -> ExperimentSpec:
    return ExperimentSpec.model_validate(
        {
            "name": "bench",
            "trainer": "digits_mlp",
            "search_space": space,
            "metric": "value",
            "mode": "min",
            "search": {"algorithm": algorithm, "seed": seed, "num_samples": samples},
        }
    )


def searcher_for(spec: ExperimentSpec) -> OptunaSearch:
    searcher = search_algorithm(spec)
    assert isinstance(searcher, OptunaSearch)
    searcher.set_search_properties(spec.primary.metric, spec.primary.mode, param_space(spec))
    return searcher


def random_mixed(rng: random.Random) -> dict[str, Any]:
    return {
        "lr": 10 ** rng.uniform(-5, -1),
        "weight_decay": 10 ** rng.uniform(-6, -2),
        "dropout": rng.uniform(0, 0.5),
        "momentum": rng.uniform(0.5, 0.99),
        "depth": rng.randint(1, 6),
        "hidden": rng.choice([32, 64, 128, 256]),
        "optimizer": rng.choice(["sgd", "adam", "adamw"]),
    }


def mixed_value(config: dict[str, Any]) -> float:
    return (math.log10(config["lr"]) + 3) ** 2 + config["dropout"] + 0.1 * config["depth"]


def overhead_ms(algorithm: str, finished: int) -> float:
    """Median ms of suggest + on_trial_complete with ``finished`` trials already told."""
    spec = spec_for(MIXED_SPACE, algorithm, seed=0, samples=finished + MEASURED)
    searcher = searcher_for(spec)
    rng = random.Random(0)
    for _ in range(finished):
        config = random_mixed(rng)
        searcher.add_evaluated_point(config, mixed_value(config))
    times = []
    for number in range(MEASURED):
        start = time.perf_counter()
        config = searcher.suggest(f"t{number}")
        assert isinstance(config, dict)
        searcher.on_trial_complete(f"t{number}", {"value": mixed_value(config)})
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


BOWL_SPACE = {f"x{i}": {"type": "uniform", "low": -1.0, "high": 1.0} for i in range(4)}
BRANIN_SPACE = {
    "x1": {"type": "uniform", "low": -5.0, "high": 10.0},
    "x2": {"type": "uniform", "low": 0.0, "high": 15.0},
}
BRANIN_MIN = 0.397887


def bowl(config: dict[str, Any]) -> float:
    return sum((config[f"x{i}"] - 0.3) ** 2 for i in range(4))


def branin(config: dict[str, Any]) -> float:
    x1, x2 = config["x1"], config["x2"]
    b, c, t = 5.1 / (4 * math.pi**2), 5 / math.pi, 1 / (8 * math.pi)
    return (x2 - b * x1**2 + c * x1 - 6) ** 2 + 10 * (1 - t) * math.cos(x1) + 10 - BRANIN_MIN


def regret(
    algorithm: str,
    space: dict[str, Any],
    function: Callable[[dict[str, Any]], float],
    trials: int,
    seed: int,
    noise: float,
) -> float:
    """The noise-free value of the configuration the searcher saw as best (observations noisy)."""
    searcher = searcher_for(spec_for(space, algorithm, seed, trials))
    noise_rng = random.Random(1000 + seed)
    seen: list[tuple[float, float]] = []
    for number in range(trials):
        config = searcher.suggest(f"t{number}")
        assert isinstance(config, dict)
        true = function(config)
        observed = true + noise_rng.gauss(0, noise)
        searcher.on_trial_complete(f"t{number}", {"value": observed})
        seen.append((observed, true))
    return min(seen)[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1000, 5000])
    parser.add_argument("--trials", type=int, default=40, help="Trials per regret run.")
    parser.add_argument("--seeds", type=int, default=5)
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    optuna.logging.set_verbosity(optuna.logging.ERROR)  # GP's "already converged" notes

    print(f"per-suggestion overhead (suggest + tell), median of {MEASURED}, ms")
    print(f"{'algorithm':<10}" + "".join(f"{size:>12,}" for size in args.sizes))
    measured: dict[tuple[str, int], float] = {}
    for algorithm in OVERHEAD_ALGORITHMS:
        cells = []
        for size in args.sizes:
            if algorithm == "gp" and size > GP_MAX_TRIALS:
                cells.append(f"{'(cubic)':>12}")
                continue
            measured[algorithm, size] = overhead_ms(algorithm, size)
            cells.append(f"{measured[algorithm, size]:>12.1f}")
        print(f"{algorithm:<10}" + "".join(cells), flush=True)
    if ("tpe", 1000) in measured:
        tpe = measured["tpe", 1000]
        verdict = "met" if tpe <= 20 else "NOT met"
        print(f"tpe at 1,000 trials: {tpe:.1f} ms per suggestion (goal <= 20 ms): {verdict}")

    print(f"\nsimple regret after {args.trials} trials, mean (sd) over {args.seeds} seeds")
    problems = (
        ("bowl 4-d, noise sd 0.05", BOWL_SPACE, bowl, 0.05),
        ("Branin, noise-free", BRANIN_SPACE, branin, 0.0),
    )
    print(f"{'algorithm':<10}" + "".join(f"{name:>28}" for name, *_ in problems))
    for algorithm in REGRET_ALGORITHMS:
        cells = []
        for _, space, function, noise in problems:
            values = [
                regret(algorithm, space, function, args.trials, seed, noise)
                for seed in range(args.seeds)
            ]
            cells.append(f"{statistics.mean(values):>19.4f} ({statistics.stdev(values):.4f})")
        print(f"{algorithm:<10}" + "".join(cells), flush=True)


if __name__ == "__main__":
    main()
