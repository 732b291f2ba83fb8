"""Multi-objective and constrained search without Ray's cluster: the spec's two forms and what
a multi-objective sweep refuses, the searcher (Ray's ``OptunaSearch`` with Optuna's real TPE)
told every objective and each constraint's violation, the recorder's objective values and
feasibility on both databases, the Pareto front (checked against brute force and against
Optuna's own front of the same trials), promotion's choice of trials, and an extension's
searcher told the stored trials' objective values."""

from __future__ import annotations

import itertools
import math
import random
from typing import Any

import pytest
from optuna.study import StudyDirection
from optuna.trial import TrialState as OptunaTrialState
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from raysweep.promotion_spec import Pick, PromotionOverrides
from service.db import repositories as repo
from service.db.models.sweeps import TrialRow
from service.engine.search import ObjectiveSearch, SweepSearcher, param_space, search_algorithm
from service.errors import Conflict, InvalidInput
from service.specs import check_spec
from service.usecases.extension import sweep_history
from service.usecases.pareto import non_dominated, pareto
from service.usecases.promotion_choice import chosen_trials
from tests.conftest import minimal_spec
from tests.factories import (
    MULTI_OBJECTIVE_TRIALS,
    OBJECTIVES,
    multi_spec,
    record_multi_objective_sweep,
)
from tests.test_spec import SPACES


def problems(data: dict[str, Any]) -> dict[str, str]:
    with pytest.raises(InvalidInput) as caught:
        check_spec(data, SPACES)
    return {p.path: p.message for p in caught.value.details}


def test_a_spec_gives_metric_and_mode_or_objectives_and_each_problem_is_named() -> None:
    both = problems(multi_spec(metric="val_loss", mode="min"))
    assert both == {"objectives": "give either metric and mode or objectives, not both"}
    neither = multi_spec()
    del neither["objectives"]
    assert problems(neither) == {
        "metric": "is required, or give objectives instead of metric and mode",
        "mode": "is required, or give objectives instead of metric and mode",
    }
    found = problems(
        multi_spec(
            objectives=[*OBJECTIVES, {"metric": "val_accuracy", "mode": "min"}],
            constraints=[{"metric": "flops", "max": 1}, {"metric": "val_loss"}],
            early_stopping={"objective": "val_loss"},
        )
    )
    assert found == {
        "objectives": "must name distinct metrics",
        "early_stopping.objective": "'val_loss' is not one of the objectives "
        "(val_accuracy, model_params, val_accuracy)",
        "constraints.1": "give max, min or both",
        # the trainer check reads the raw spec: a metric it does not report is named too
        "constraints.0.metric": found["constraints.0.metric"],
    }
    assert "does not report 'flops'" in found["constraints.0.metric"]
    assert problems(multi_spec(objectives=OBJECTIVES[:1])) == {
        "objectives": "must have at least 2 item(s)"
    }
    # what one objective needs, refused by name rather than run wrongly
    refused = problems(
        multi_spec(
            search={"algorithm": "cmaes", "warm_start_from": ["aaaaaaaaaaaa"]},
            stop={"converged": {"min_trials": 4}},
        )
    )
    assert set(refused) == {
        "search.algorithm",
        "stop.converged",
        "search.warm_start_from",
        "search.warm_start_from.0",  # and the source is unknown, as for any sweep
    }
    assert refused["search.algorithm"].startswith("not with objectives: cmaes optimises one")

    spec = check_spec(multi_spec(), SPACES)
    assert spec.multi_objective and spec.primary.metric == "val_accuracy"
    second = check_spec(multi_spec(early_stopping={"objective": "model_params"}), SPACES)
    assert (second.primary.metric, second.primary.mode) == ("model_params", "min")
    single = check_spec(minimal_spec(), SPACES)
    assert not single.multi_objective and single.primary.metric == "val_accuracy"


def test_the_front_is_what_brute_force_finds() -> None:
    rng = random.Random(3)
    for dimensions, count in itertools.product((1, 2, 3), (1, 7, 60)):
        # integers: ties and duplicates happen
        points = [[rng.randint(0, 6) for _ in range(dimensions)] for _ in range(count)]

        def dominated(p: list[int], pts: list[list[int]] = points) -> bool:
            return any(all(a <= b for a, b in zip(q, p, strict=True)) and q != p for q in pts)

        assert non_dominated(points) == [not dominated(p) for p in points]


def synthetic(config: dict[str, Any]) -> dict[str, float]:
    """Accuracy rises with depth and toward lr 1e-2; size grows with depth; too high an lr
    diverges (a val_loss past the constraint)."""
    accuracy = 0.9 - 0.05 * abs(math.log10(config["lr"]) + 2) + 0.02 * config["depth"]
    return {
        "val_accuracy": accuracy,
        "model_params": 1000.0 * config["depth"] + 100 * (config["optimizer"] == "adam"),
        "val_loss": 2.0 if config["lr"] > 0.1 else 1 - accuracy,
    }


def test_a_multi_objective_searcher_is_told_every_objective_and_the_constraints() -> None:
    spec = check_spec(multi_spec(search={"algorithm": "tpe", "seed": 4}), SPACES)
    searcher = search_algorithm(spec)
    assert isinstance(searcher, ObjectiveSearch)
    # Tune passes its scalar metric (ASHA's): the searcher keeps its list
    assert searcher.set_search_properties("val_accuracy", "max", param_space(spec))
    assert searcher.metric == ["val_accuracy", "model_params"]
    for number in range(24):
        config = searcher.suggest(f"t{number}")
        assert isinstance(config, dict)
        searcher.on_trial_complete(f"t{number}", {**synthetic(config), "training_iteration": 1})
    study = searcher._ot_study
    assert study is not None
    assert study.directions == [StudyDirection.MAXIMIZE, StudyDirection.MINIMIZE]
    trials = study.get_trials(states=[OptunaTrialState.COMPLETE])
    assert len(trials) == 24
    for trial in trials:
        values = synthetic(trial.params)
        assert trial.values == [values["val_accuracy"], values["model_params"]]
        assert trial.constraints == {"val_loss": pytest.approx(values["val_loss"] - 1.0)}
    # our front of the same trials is Optuna's own (which leaves infeasible trials out)
    feasible = [t for t in trials if t.constraints["val_loss"] <= 0]
    flags = non_dominated([[-t.values[0], t.values[1]] for t in feasible])
    ours = {t.number for t, on in zip(feasible, flags, strict=True) if on}
    assert ours == {t.number for t in study.best_trials}
    assert any(t.constraints["val_loss"] > 0 for t in trials)  # the constraint was exercised


def test_recorded_values_feasibility_front_best_and_promotion_choice(
    db: sessionmaker[Session],
) -> None:
    spec, experiment_id, ids = record_multi_objective_sweep(db, MULTI_OBJECTIVE_TRIALS)
    with db.begin() as session:
        rows = {t.id: t for t in session.scalars(select(TrialRow).where(TrialRow.id.in_(ids)))}
        assert [rows[i].feasible for i in ids] == [True, True, True, False, True, True, False]
        assert rows[ids[0]].objective_values == {
            "val_accuracy": 0.9,
            "model_params": 1000.0,
            "val_loss": 0.3,
        }
        assert rows[ids[6]].objective_values == {
            "val_accuracy": 0.1,
            "model_params": 10.0,
            "val_loss": None,
        }
        # the best by the scalar objective (val_accuracy) skips the infeasible 0.99
        best = repo.best_trial(session, experiment_id, "max")
        assert best is not None and best.id == ids[4]

        experiment = repo.get_experiment_row(session, experiment_id)
        front = pareto(session, experiment, 1000)
        assert front.front == [ids[4], ids[1], ids[0]]  # by the first objective, best first
        assert front.completed_trials == 5  # running and pruned trials are not judged
        shown = {t.trial_id: t for t in front.trials}
        assert set(shown) == {ids[0], ids[1], ids[2], ids[3], ids[4]}
        assert not shown[ids[3]].on_front and shown[ids[3]].feasible is False
        assert not shown[ids[2]].on_front and shown[ids[2]].feasible is True
        assert shown[ids[1]].values == {"val_accuracy": 0.95, "model_params": 5000.0}
        assert [t.trial_id for t in pareto(session, experiment, 2).trials] == front.front

        def chosen(**overrides: Any) -> list[int]:
            picked = chosen_trials(
                session, experiment, spec, PromotionOverrides.model_validate(overrides), 2
            )
            return [t.id for t in picked]

        # default: the front, by the first objective
        assert chosen() == [ids[4], ids[1]]
        assert chosen(pick={"objective": "model_params"}) == [ids[0], ids[1]]
        pick = {"objective": "val_accuracy", "max": {"model_params": 6000}}
        assert chosen(pick=pick) == [ids[1], ids[0]]
        assert chosen(trial_ids=[ids[2]]) == [ids[2]]  # any completed feasible trial, if named
        for overrides, expected in [
            (
                {"pick": {"objective": "val_accuracy", "min": {"val_accuracy": 0.999}}},
                {"pick": "none of the 3 trial(s) on the Pareto front keeps val_accuracy >= 0.999"},
            ),
            (
                {"pick": {"objective": "latency", "max": {"val_loss": 1}}},
                {
                    "pick.objective": "'latency' is not an objective of this sweep "
                    "(val_accuracy, model_params)",
                    "pick.max.val_loss": "'val_loss' is not an objective of this sweep "
                    "(val_accuracy, model_params)",
                },
            ),
            (
                {"trial_ids": [ids[3], ids[5], 999_999]},
                {
                    "trial_ids.0": f"trial {ids[3]} is infeasible: its latest result breaks a "
                    "constraint",
                    "trial_ids.1": f"trial {ids[5]} is running; only a completed trial can be "
                    "promoted",
                    "trial_ids.2": f"no trial 999999 in experiment {experiment_id}",
                },
            ),
            (
                {"trial_ids": [ids[0]], "pick": {"objective": "val_accuracy"}},
                {"pick": "give one of trial_ids, trial_numbers and pick, not trial_ids and pick"},
            ),
        ]:
            with pytest.raises(InvalidInput) as caught:
                chosen(**overrides)
            assert {p.path: p.message for p in caught.value.details} == expected

    _, nothing_done, _ = record_multi_objective_sweep(
        db, [MULTI_OBJECTIVE_TRIALS[3], MULTI_OBJECTIVE_TRIALS[5]]
    )
    with (
        db.begin() as session,
        pytest.raises(
            Conflict, match="no completed trial with a val_accuracy that keeps its constraints"
        ),
    ):
        chosen_trials(
            session,
            repo.get_experiment_row(session, nothing_done),
            spec,
            PromotionOverrides(pick=Pick(objective="val_accuracy")),
            1,
        )


def test_an_extension_tells_its_searcher_every_objective_of_the_stored_trials(
    db: sessionmaker[Session],
) -> None:
    spec, experiment_id, _ = record_multi_objective_sweep(db, MULTI_OBJECTIVE_TRIALS)
    extended = spec.model_copy(
        update={"search": spec.search.model_copy(update={"num_samples": 12})}
    )
    with db.begin() as session:
        history = sweep_history(session, experiment_id, extended)
    searcher = search_algorithm(extended, history)
    assert isinstance(searcher, SweepSearcher)
    assert searcher.set_search_properties("val_accuracy", "max", param_space(extended))
    study = searcher.searcher._ot_study
    assert study is not None
    told = {
        round(t.params["dropout"] * 100): (t.state, t.values)
        for t in study.get_trials(deepcopy=False)
        if t.state is not OptunaTrialState.RUNNING
    }
    # completed with both values, pruned as pruned; the running one continues instead
    assert told[0] == (OptunaTrialState.COMPLETE, [0.90, 1000.0])
    assert told[3] == (OptunaTrialState.COMPLETE, [0.99, 900.0])
    assert told[6] == (OptunaTrialState.PRUNED, None)
    assert 5 not in told and [c[2] for c in history.continuing] == [2]
    assert isinstance(searcher.suggest("new"), dict)
