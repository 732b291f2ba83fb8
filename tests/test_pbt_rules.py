"""Population-based training's rules without Ray: who exploits whom, how a config is explored,
what a spec may ask, how a final run's schedule splits into segments, how the kit resumes an
optimizer under a changed config, and how exploits are stored (both backends) and read back."""

from __future__ import annotations

import random
from typing import Any

import pytest
import torch
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from raysweep.errors import Problem
from raysweep.lifecycle import TrialState
from raysweep.search_space import Choice, IntRange, LogUniform, Uniform
from raysweep.spec import ExperimentSpec
from service.db.models.sweeps import EventRow, ExploitRow, TrialRow
from service.engine.exploit import explore, pairs, perturbed
from service.engine.recorder import Recorder
from service.errors import InvalidInput
from service.settings import REPO_ROOT
from service.specs import check_spec
from service.usecases.exploits import ExploitDecided, list_exploits, stored_exploits
from service.usecases.extension import sweep_history
from service.usecases.job_outcomes import FinalRunJob
from service.usecases.recording import ResultStore
from service.usecases.reports import TrialEnded, TrialStarted
from tests.conftest import BOTH_BACKENDS, minimal_spec
from tests.engine.test_recorder import SPEC, new_experiment, result
from trainers.kit import resume_optimizer

SPACES = REPO_ROOT / "search_spaces"


def test_the_worst_quantile_copies_the_best_and_never_more_than_half() -> None:
    rng = random.Random(0)
    values = {"a": 0.1, "b": 0.9, "c": 0.5, "d": 0.7}  # larger is better
    assert pairs(values, 0.25, rng) == [("a", "b")]
    two = pairs(values, 0.5, rng)
    assert sorted(t for t, _ in two) == ["a", "c"] and {s for _, s in two} <= {"b", "d"}
    assert pairs({"a": 1.0}, 0.5, rng) == []  # alone: nobody to copy
    assert len(pairs({f"t{i}": float(i) for i in range(5)}, 0.5, rng)) == 2  # floor(5 / 2)


def test_explore_perturbs_within_bounds_resamples_and_moves_choices_one_step() -> None:
    space = {
        "lr": LogUniform(type="loguniform", low=1e-3, high=0.1),
        "dropout": Uniform(type="uniform", low=0.0, high=0.5),
        "width": IntRange(type="int", low=8, high=64, step=8),
        "batch_size": Choice(type="choice", values=[32, 64, 128]),
    }
    config = {"lr": 0.09, "dropout": 0.2, "width": 16, "batch_size": 64, "fixed": "x"}
    rng = random.Random(1)
    for _ in range(200):
        new = explore(config, space, ["lr", "dropout", "width", "batch_size"], 0.0, rng)
        assert new["fixed"] == "x"
        assert new["lr"] in (pytest.approx(0.072), 0.1)  # x0.8, or x1.2 clipped to the bound
        assert new["dropout"] in (pytest.approx(0.16), pytest.approx(0.24))
        assert new["width"] in (8, 24)  # 16 x0.8 -> 12.8 -> 16: moved a step anyway
        assert new["batch_size"] in (32, 128)
    resampled = [explore(config, space, ["lr"], 1.0, rng)["lr"] for _ in range(50)]
    assert all(1e-3 <= lr <= 0.1 for lr in resampled) and len(set(resampled)) == 50
    untouched = explore(config, space, ["dropout"], 0.0, rng)
    assert untouched["lr"] == 0.09 and untouched["width"] == 16
    assert perturbed(IntRange(type="int", low=1, high=3), 3, 1.2) == 3  # at its top already


def pbt(**pbt: Any) -> dict[str, Any]:
    return {"scheduler": "pbt", "max_t": 4, "pbt": pbt}


def problems(**changes: Any) -> list[Problem]:
    with pytest.raises(InvalidInput) as refused:
        check_spec(minimal_spec(**changes), SPACES)
    return list(refused.value.details)


def test_a_pbt_spec_names_every_problem_and_spells_out_what_it_mutates() -> None:
    spec = check_spec(
        minimal_spec(early_stopping=pbt(), search={"num_samples": 4}, trainer="digits_mlp"),
        SPACES,
    )
    # digits_mlp's hidden, depth and optimizer shape its model and optimizer state
    assert spec.early_stopping.population.mutate == ["lr", "dropout", "weight_decay", "batch_size"]
    found = problems(
        trainer="digits_mlp",
        search={"num_samples": 1},
        early_stopping=pbt(mutate=["lr", "hidden", "nope", "lr"]),
    )
    assert {(p.path, p.message.split(":")[0]) for p in found} >= {
        ("search.num_samples", "is the population under pbt"),
        ("early_stopping.pbt.mutate.1", "'hidden' shapes digits_mlp's model or optimizer state"),
        ("early_stopping.pbt.mutate.2", "'nope' is not a search-space parameter"),
        ("early_stopping.pbt.mutate", "names a parameter twice"),
    }, found
    with pytest.raises(ValueError, match="perturbation_interval"):
        ExperimentSpec.model_validate(minimal_spec(early_stopping=pbt(perturbation_interval=4)))
    with pytest.raises(ValueError, match="applies to scheduler pbt only"):
        ExperimentSpec.model_validate(minimal_spec(early_stopping={"scheduler": "asha", "pbt": {}}))


def test_a_final_run_replays_a_schedule_as_segments() -> None:
    spec = ExperimentSpec.model_validate(minimal_spec())
    job = FinalRunJob(1, "e", spec, {"lr": 1}, 2, 6, None, None, None)
    assert job.segments() == [(6, {"lr": 1})]
    changes = [
        {"epoch": 4, "config": {"lr": 3}},
        {"epoch": 2, "config": {"lr": 2}},
        {"epoch": 9, "config": {"lr": 9}},  # past the run's epochs: never reached
    ]
    job = FinalRunJob(1, "e", spec, {"lr": 1}, 2, 6, None, None, changes)
    assert job.segments() == [(2, {"lr": 1}), (4, {"lr": 2}), (6, {"lr": 3})]


def test_the_kit_resumes_an_optimizer_under_the_config_it_is_given() -> None:
    def optimizer_at(lr: float) -> tuple[torch.optim.Optimizer, Any]:
        torch.manual_seed(0)
        model = torch.nn.Linear(3, 1)
        optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.1)
        schedule = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda step: 1 / (1 + step))
        return optimizer, schedule

    optimizer, schedule = optimizer_at(0.01)
    optimizer.param_groups[0]["params"][0].grad = torch.ones(1, 3)
    optimizer.param_groups[0]["params"][1].grad = torch.ones(1)
    for _ in range(3):
        optimizer.step()
        schedule.step()
    state = {"optimizer": optimizer.state_dict(), "scheduler": schedule.state_dict()}
    same, same_schedule = optimizer_at(0.01)
    resume_optimizer(same, same_schedule, state)
    assert same.param_groups[0]["lr"] == pytest.approx(0.01 / 4)  # as saved
    changed, changed_schedule = optimizer_at(0.03)
    resume_optimizer(changed, changed_schedule, state)
    assert changed.param_groups[0]["lr"] == pytest.approx(0.03 / 4)  # the new lr, same step
    assert changed_schedule.base_lrs == [0.03] and changed_schedule.last_epoch == 3
    moments = changed.state_dict()["state"][0]["exp_avg"]
    assert torch.equal(moments, optimizer.state_dict()["state"][0]["exp_avg"])


@BOTH_BACKENDS
def test_exploits_are_stored_once_tell_the_trial_and_read_back(
    db: sessionmaker[Session],
) -> None:
    experiment_id = new_experiment(db)
    recorder = Recorder(ResultStore(experiment_id, "val_loss", "min").into(db)).start()
    for name in ("a", "b"):
        recorder.submit(TrialStarted(name, {"lr": 0.1}))
        recorder.submit(result(name, 1, 0.5 if name == "a" else 0.9))
    exploit = ExploitDecided("b", 1, "a", 0.9, 0.5, {"lr": 0.1}, {"lr": 0.12})
    for _ in range(2):  # re-delivered by a restored driver
        recorder.submit(exploit)
    assert recorder.close(30)
    with db.begin() as session:
        row = session.scalars(select(ExploitRow)).one()
        trial = session.get_one(TrialRow, row.trial_id)
        events = session.scalars(select(EventRow.message).where(EventRow.kind == "trial_exploited"))
        assert stored_exploits(session, experiment_id) == [exploit]
        assert list(events) == [f"trial b {trial.early_stopping}"]
    assert trial.early_stopping == "copied trial a at epoch 1 (val_loss 0.9 -> 0.5); lr 0.1 -> 0.12"
    [read] = list_exploits(db, experiment_id, trial_id=row.trial_id)
    assert (read.trial_number, read.source_trial_number, read.new_config) == (2, 1, {"lr": 0.12})
    assert list_exploits(db, experiment_id, trial_id=row.source_trial_id) == []


def test_an_extension_continues_an_exploited_trial_with_its_latest_config(
    db: sessionmaker[Session],
) -> None:
    experiment_id = new_experiment(db)
    recorder = Recorder(ResultStore(experiment_id, "val_loss", "min").into(db)).start()
    for name, lr in (("a", 0.1), ("b", 0.2)):
        recorder.submit(TrialStarted(name, {"lr": lr}))
        recorder.submit(result(name, 1, 0.5 if name == "a" else 0.9))
    recorder.submit(ExploitDecided("b", 1, "a", 0.9, 0.5, {"lr": 0.2}, {"lr": 0.12}))
    for name in ("a", "b"):
        recorder.submit(result(name, 2, 0.4))
        recorder.submit(TrialEnded(name, TrialState.completed))
    assert recorder.close(30)
    spec = ExperimentSpec.model_validate({**SPEC, "early_stopping": pbt(), "search_space": {}})
    longer = spec.model_copy(
        update={"early_stopping": spec.early_stopping.model_copy(update={"max_t": 8})}
    )
    with db.begin() as session:
        history = sweep_history(session, experiment_id, longer)
    assert sorted((name, config, at) for name, config, at in history.continuing) == [
        ("a", {"lr": 0.1}, 2),
        ("b", {"lr": 0.12}, 2),
    ]
