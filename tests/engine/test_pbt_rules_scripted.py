"""Population-based training's scheduler, driven by the scripted Tune controller of
test_asha_rules (no Ray cluster): the population reaches each step together, the worst copies
the best there (the copy itself is storage work: recorded here, made for real in test_pbt.py),
trials in waiting hold no slot, and a restored driver's scheduler takes the stored exploits'
steps as decided and their configs as the trials'."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from ray.tune.experiment import Trial

from raysweep.search_space import LogUniform, Parameter
from service.engine import pbt
from service.engine.driver_context import DriverContext
from service.engine.pbt import PopulationTraining
from service.engine.trial import BUDGET_KEY
from service.usecases.exploits import ExploitDecided
from tests.engine.test_asha_rules import Controller, SearchAlg, run, value_at

MAX_T, INTERVAL, POPULATION, RUNNING = 6, 2, 4, 2
SPACE: dict[str, Parameter] = {"lr": LogUniform(type="loguniform", low=1e-3, high=1.0)}


@dataclass
class Exploits:
    made: list[ExploitDecided] = field(default_factory=list)

    def submit(self, op: Any) -> None:
        assert isinstance(op, ExploitDecided)
        self.made.append(op)


def context(exploits: Exploits, stored: list[ExploitDecided] | None = None) -> DriverContext:
    return DriverContext(
        recorder=exploits,  # type: ignore[arg-type]
        read_request=lambda: None,
        time_attr="epoch",
        max_t=MAX_T,
        metric="acc",
        mode="max",
        target=None,
        read_exploits=lambda: list(stored or []),
    ).bind()


def population() -> PopulationTraining:
    return PopulationTraining(
        time_attr="epoch",
        metric="acc",
        mode="max",
        max_t=MAX_T,
        interval=INTERVAL,
        quantile_fraction=0.25,
        resample_probability=0.0,
        space=SPACE,
        mutate=["lr"],
        max_running=RUNNING,
        storage_path="/nowhere",
        seed=0,
    )


@pytest.fixture
def copies(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str, int]]:
    made: list[tuple[str, str, int]] = []

    def copy(storage: str, source: str, trial: str, epoch: int, time_attr: str) -> str:
        made.append((trial, source, epoch))
        return f"{storage}/{trial}/copy"

    monkeypatch.setattr(pbt, "copy_checkpoint", copy)
    return made


def test_the_population_steps_together_and_the_worst_copies_the_best(
    copies: list[tuple[str, str, int]],
) -> None:
    exploits = Exploits()
    context(exploits)
    controller = Controller(population(), SearchAlg(remaining=0))  # type: ignore[arg-type]
    for number in range(POPULATION):
        trial = controller.add(f"t_{number:05d}", {"lr": 0.01 * (number + 1)})
        if trial.status == Trial.PENDING:
            controller.start(trial)
    epochs: dict[str, int] = {}
    running_seen = run(controller, epochs)

    assert max(running_seen) == RUNNING  # waiting trials never took a slot
    assert epochs == {f"t_{n:05d}": MAX_T for n in range(POPULATION)}
    # one exploit a step (a quarter of 4), at every step before max_t, each after its copy
    assert [(e.epoch, e.tune_id, e.source) for e in exploits.made] == [
        (epoch, trial, source) for trial, source, epoch in copies
    ]
    assert [e.epoch for e in exploits.made] == [2, 4]
    ranked = sorted(epochs, key=lambda t: value_at(t, 2))
    for exploit in exploits.made:
        # value_at ranks trials the same at every epoch: the worst copies the best
        assert (exploit.tune_id, exploit.source) == (ranked[0], ranked[-1])
        source_lr = 0.01 * (int(exploit.source.split("_")[1]) + 1)
        assert exploit.new_config["lr"] in (
            pytest.approx(source_lr * 0.8),
            pytest.approx(source_lr * 1.2),
        )
    exploited = next(t for t in controller.trials if t.trial_id == ranked[0])
    assert exploited.config["lr"] == exploits.made[-1].new_config["lr"]


def test_a_restored_scheduler_takes_stored_steps_as_decided_and_their_configs(
    copies: list[tuple[str, str, int]],
) -> None:
    stored = [ExploitDecided("t_00000", 2, "t_00003", 0.1, 0.9, {"lr": 0.01}, {"lr": 0.05})]
    exploits = Exploits()
    context(exploits, stored)
    controller = Controller(population(), SearchAlg(remaining=0))  # type: ignore[arg-type]
    # Tune's snapshot: every trial reached the step at epoch 2, with its config before the
    # exploit (the snapshot predates it)
    for number in range(POPULATION):
        trial = Trial(
            "run_trial",
            config={"lr": 0.01 * (number + 1), BUDGET_KEY: INTERVAL},
            trial_id=f"t_{number:05d}",
            stub=True,
        )
        trial.update_last_result({"epoch": 2, "acc": value_at(trial.trial_id, 2)})
        controller.trials.append(trial)
        controller.scheduler.on_trial_add(controller, trial)
    first = controller.trials[0]
    assert first.config == {"lr": 0.05, BUDGET_KEY: 4}  # the stored exploit's config
    assert all(t.config[BUDGET_KEY] == 4 for t in controller.trials)  # step 2 was decided
    epochs = dict.fromkeys((t.trial_id for t in controller.trials), 2)
    run(controller, epochs)
    assert [e.epoch for e in exploits.made] == [4]  # step 2 is not decided again
    assert epochs == {t.trial_id: MAX_T for t in controller.trials}
