"""The views at 40,000 trials give the answers the rows give: one simulated ASHA sweep of
40,000 trials (rungs at 1, 3 and 9: ~96,000 results, ~58,000 decisions) seeded once for the
module, each view read through a real server and checked against the rows, read with plain
SQL and recomputed here (every aggregate; a sample of the per-trial parts). Large enough for
every sampled and capped path a view has (curves sample 300 trials, importance takes at most
``PED_ANOVA_MAX_TRIALS``); their speed at 100,000 trials is ``make bench-scale``'s to measure
(seeding 100,000 here cost the suite 108 s of a slow machine's 2 cores)."""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import Engine, text

from devkit.demo import seed_sweep
from service.db import migrate
from service.db.session import create_db_engine, session_factory
from service.usecases.importance import MIN_TRIALS, PED_ANOVA_MAX_TRIALS
from tests.conftest import InProcessServer

# one xdist worker seeds the module's sweep once (split across two, each seeded its own)
pytestmark = pytest.mark.xdist_group("scale")

TRIALS = 40_000


@pytest.fixture(scope="module")
def scale(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[InProcessServer, Engine, str]]:
    directory = tmp_path_factory.mktemp("scale")
    url = f"sqlite:///{directory / 'raysweep.db'}"
    migrate.upgrade(url)
    engine = create_db_engine(url)
    sweep = seed_sweep(session_factory(engine), trials=TRIALS, max_t=9, running=3, seed=5)
    server = InProcessServer(directory / "home", url, {}).start()
    yield server, engine, sweep
    server.stop()
    engine.dispose()


def rows(engine: Engine, sql: str, **params: Any) -> list[Any]:
    with engine.connect() as connection:
        return list(connection.execute(text(sql), params))


def get(server: InProcessServer, path: str, **params: Any) -> Any:
    with server.client() as client:
        answer = client.get(path, params=params, timeout=120)
        assert answer.status_code == 200, answer.text
        return answer.json()


def test_counts_pages_and_configs_match_the_rows(
    scale: tuple[InProcessServer, Engine, str],
) -> None:
    server, engine, sweep = scale
    trials = rows(
        engine,
        "SELECT id, state, best_metric, config FROM trials WHERE experiment_id = :e",
        e=sweep,
    )
    assert len(trials) == TRIALS
    by_best = sorted(trials, key=lambda t: (-t.best_metric, t.id))

    experiment = get(server, f"/api/v1/experiments/{sweep}")
    assert experiment["trial_counts"] == dict(Counter(t.state for t in trials))
    assert experiment["best_metric"] == by_best[0].best_metric
    listed = get(server, "/api/v1/experiments")["items"][0]
    assert listed["id"] == sweep and listed["trial_counts"] == experiment["trial_counts"]

    page = get(server, f"/api/v1/experiments/{sweep}/trials", limit=50, offset=1000)
    assert page["total"] == TRIALS
    assert [t["id"] for t in page["items"]] == [t.id for t in by_best[1000:1050]]
    cut = by_best[TRIALS // 3].best_metric
    completed = get(
        server,
        f"/api/v1/experiments/{sweep}/trials",
        state="completed",
        where=f"best_metric>{cut!r}",
        limit=10,
    )
    assert completed["total"] == sum(t.state == "completed" and t.best_metric > cut for t in trials)

    configs = get(server, f"/api/v1/experiments/{sweep}/configs", limit=1000)
    assert configs["total_trials"] == TRIALS
    assert [(r["trial_id"], r["metric"]) for r in configs["rows"]] == [
        (t.id, t.best_metric) for t in by_best[:1000]
    ]


def test_rungs_match_the_stored_decisions(scale: tuple[InProcessServer, Engine, str]) -> None:
    server, engine, sweep = scale
    decided = rows(
        engine,
        "SELECT id, milestone, trial_id, decision, cutoff FROM rung_decisions "
        "WHERE experiment_id = :e ORDER BY id",
        e=sweep,
    )
    assert len(decided) > TRIALS  # every trial judged at 1, a third again at 3
    kinds: dict[int, Counter[str]] = defaultdict(Counter)
    judged: dict[int, set[int]] = defaultdict(set)
    latest_cutoff: dict[int, float | None] = {}
    for row in decided:
        kinds[row.milestone][row.decision] += 1
        judged[row.milestone].add(row.trial_id)
        latest_cutoff[row.milestone] = row.cutoff

    body = get(server, f"/api/v1/experiments/{sweep}/rungs")
    assert [r["milestone"] for r in body["rungs"]] == [1, 3, 9]
    for rung in body["rungs"]:
        mark = rung["milestone"]
        assert rung["reached"] == len(judged[mark])
        assert rung["continued"] == kinds[mark]["continue"]
        assert rung["stopped"] == kinds[mark]["stop"]
        assert rung["completed"] == kinds[mark]["complete"]
        assert rung["cutoff"] == latest_cutoff[mark]


def test_history_curves_and_importance_match_the_rows(
    scale: tuple[InProcessServer, Engine, str],
) -> None:
    server, engine, sweep = scale
    ended = rows(
        engine,
        "SELECT id, state, best_metric FROM trials WHERE experiment_id = :e "
        "AND finished_at IS NOT NULL ORDER BY finished_at, id",
        e=sweep,
    )
    best_so_far: dict[int, tuple[int, float | None]] = {}  # trial id: (order, best so far)
    best: float | None = None
    for order, trial in enumerate(ended, start=1):
        if trial.state not in ("failed", "pruned"):  # never the best (repo.best_trial)
            best = max(best if best is not None else float("-inf"), trial.best_metric)
        best_so_far[trial.id] = (order, best)

    history = get(server, f"/api/v1/experiments/{sweep}/history", max_points=1000)
    assert history["finished_trials"] == len(ended)
    assert len(history["points"]) == 1000
    states = {t.id: t.state for t in ended}
    for point in history["points"]:
        assert (point["order"], point["best"]) == best_so_far[point["trial_id"]]
        assert point["state"] == states[point["trial_id"]]
    assert history["points"][-1]["best"] == best  # the best of all is never thinned away

    curves = get(server, f"/api/v1/experiments/{sweep}/curves", max_trials=300)
    assert curves["total_trials"] == TRIALS and len(curves["series"]) == 300
    running = {t.id for t in rows(engine, "SELECT id FROM trials WHERE state = 'running'")}
    assert running <= {s["trial_id"] for s in curves["series"]}
    for series in random.Random(0).sample(curves["series"], 30):
        results = rows(
            engine,
            "SELECT iteration, json_extract(metrics, '$.val_accuracy') AS value "
            "FROM trial_results WHERE trial_id = :t ORDER BY iteration",
            t=series["trial_id"],
        )
        assert [tuple(p) for p in series["points"]] == [(r.iteration, r.value) for r in results]

    reached = Counter(
        r.iteration
        for r in rows(engine, "SELECT iteration FROM trials WHERE experiment_id = :e", e=sweep)
    )
    needed, total, common = max(MIN_TRIALS, -(-sum(reached.values()) // 4)), 0, None
    for iteration in sorted(reached, reverse=True):
        total += reached[iteration]
        if total >= needed:
            common = iteration
            break
    at_common = rows(
        engine,
        "SELECT count(*) AS n FROM trial_results r JOIN trials t ON t.id = r.trial_id "
        "WHERE t.experiment_id = :e AND r.iteration = :i",
        e=sweep,
        i=common,
    )[0].n
    importance = get(server, f"/api/v1/experiments/{sweep}/importance")
    assert importance["at_iteration"] == common
    assert importance["trials_used"] == min(PED_ANOVA_MAX_TRIALS, at_common)
    assert {p["name"] for p in importance["importances"]} == {"lr", "hidden", "optimizer"}
    # lr decides this simulated metric most (curve() in devkit/demo.py)
    assert importance["importances"][0]["name"] == "lr"
