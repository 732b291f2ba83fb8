"""Listing experiments: a page costs the same few queries however many rows it holds, and
each row still carries its own labels, trial counts and best trial."""

from __future__ import annotations

from typing import Any

from sqlalchemy import event
from sqlalchemy.orm import Session, sessionmaker

from service.db.models.sweeps import TrialRow
from service.specs import check_spec
from service.usecases.experiments import add_experiment, list_experiments
from tests.conftest import minimal_spec
from tests.factories import SPACES


def sweep(db: sessionmaker[Session], index: int, state: str, metrics: list[float]) -> str:
    """A sweep with these trials' best metrics (val_accuracy, max); an ended one has its best
    trial stored, as the driver does."""
    spec = check_spec(minimal_spec(name=f"s{index}", labels={"n": str(index)}), SPACES)
    with db.begin() as session:
        experiment = add_experiment(session, spec, "seeded", "tester")
        experiment.state = state
        trials = [
            TrialRow(
                experiment_id=experiment.id,
                tune_trial_id=f"t{i}",
                number=i + 1,
                config={},
                state="completed" if i else "pruned",
                best_metric=metric,
            )
            for i, metric in enumerate(metrics)
        ]
        session.add_all(trials)
        session.flush()
        if state == "completed":
            best = max(trials, key=lambda t: t.best_metric or 0)
            experiment.best_trial_id, experiment.best_metric = best.id, best.best_metric
        return experiment.id


def listed(db: sessionmaker[Session]) -> tuple[list[Any], int]:
    """The first page and the number of statements it took."""
    engine = db.kw["bind"]
    statements: list[str] = []

    def note(*args: Any) -> None:
        statements.append(args[2])

    event.listen(engine, "before_cursor_execute", note)
    try:
        page = list_experiments(db, [], [], 50, 0)
    finally:
        event.remove(engine, "before_cursor_execute", note)
    return page.items, len(statements)


def test_a_page_of_experiments_takes_the_same_queries_for_3_rows_or_30(
    db: sessionmaker[Session],
) -> None:
    running = sweep(db, 0, "running", [0.5, 0.7])  # its best so far: one query of its own
    for index in (1, 2):
        sweep(db, index, "completed", [0.1 * index, 0.2 * index, 0.05])
    _, few = listed(db)
    for index in range(3, 30):
        sweep(db, index, "completed", [0.01 * index])
    items, many = listed(db)
    assert many == few, f"{few} statements for 3 experiments, {many} for 30"
    assert len(items) == 30
    by_name = {item.name: item for item in items}
    first, running_read = by_name["s1"], by_name["s0"]
    assert first.labels == {"n": "1"}
    assert first.trial_counts == {"pruned": 1, "completed": 2}
    assert first.best_trial is not None and first.best_metric == 0.2
    assert first.best_trial.best_metric == 0.2
    assert running_read.id == running and running_read.best_trial is not None
    assert running_read.best_metric == 0.7 and running_read.labels == {"n": "0"}
