"""Extending a finished or paused sweep: more configurations, a larger budget, more time.

The experiment keeps its id, trials and results. Its next driver runs the extension as a new Tune
run (the sweep's ``extensions``-th) whose searcher is told every stored trial (Optuna's study
rebuilt from the database: configs and final values, pruned ones as pruned) and whose first
trials continue the earlier ones that have budget left, each from its own checkpoints under its
own name, before the new configurations.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from pydantic import ValidationError
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from raysweep.errors import Problem
from raysweep.schemas import ExperimentRead, ExperimentState, ExtendRequest, TrialState
from raysweep.search_space import Constant, Grid
from raysweep.spec import ExperimentSpec, problems_from_error
from service.db import repositories as repo
from service.db.models import ProjectRow, TrialRow
from service.errors import Conflict, InvalidInput
from service.states import move_experiment, move_trial
from service.usecases.experiments import to_read
from service.usecases.projects import sweep_refusal
from service.usecases.studies import finite, params_in, stored_values

EXTENDABLE = (ExperimentState.completed, ExperimentState.cancelled, ExperimentState.paused)
# trials a paused sweep left open: the extension continues them
OPEN = (TrialState.pending, TrialState.running, TrialState.paused)


@dataclass(frozen=True)
class Evaluated:
    """A trial already run, as the extension's searcher is told of it."""

    params: dict[str, Any]
    value: float | None
    state: TrialState
    # a multi-objective sweep's: every objective's latest value, None when one is missing
    values: list[float] | None = None


@dataclass(frozen=True)
class History:
    """What a Tune run starts from when it is not a sweep's first from scratch: an extension's
    (its own stored trials), or a warm-started sweep's (other sweeps' finished trials)."""

    evaluated: list[Evaluated] = field(default_factory=list)
    # (the trial's name, its config, its iteration): trials with budget left, run first
    continuing: list[tuple[str, dict[str, Any], int]] = field(default_factory=list)
    new_samples: int = 0  # configurations the searcher suggests after them
    extends: bool = True  # an extension: the spec's points_to_evaluate have been run


def sampled_names(spec: ExperimentSpec) -> list[str]:
    space = spec.search_space if isinstance(spec.search_space, dict) else {}
    return [name for name, p in space.items() if not isinstance(p, Constant)]


def warm_start_points(session: Session, spec: ExperimentSpec) -> list[Evaluated]:
    """The finished trials of the sweeps ``search.warm_start_from`` names whose configurations
    lie in this sweep's space (the spec check made sure the parameters match)."""
    space = spec.search_space if isinstance(spec.search_space, dict) else {}
    points = []
    for source_id in dict.fromkeys(spec.search.warm_start_from):
        for config, state, value in session.execute(
            select(TrialRow.config, TrialRow.state, TrialRow.last_metric)
            .where(
                TrialRow.experiment_id == source_id,
                TrialRow.state.in_([TrialState.completed, TrialState.pruned, TrialState.failed]),
            )
            .order_by(TrialRow.id)
        ):
            if (params := params_in(space, config)) is not None:
                points.append(Evaluated(params, finite(value), state))
    return points


def starting_history(
    session: Session, experiment_id: str, spec: ExperimentSpec, extensions: int
) -> History | None:
    """What the sweep's next Tune run starts from: for an extension its stored trials, and for
    any run the sweeps it warm-starts from; None for a first run from scratch."""
    if not extensions and not spec.search.warm_start_from:
        return None
    own = (
        sweep_history(session, experiment_id, spec)
        if extensions
        else History(new_samples=spec.search.num_samples, extends=False)
    )
    return replace(own, evaluated=warm_start_points(session, spec) + own.evaluated)


def sweep_history(session: Session, experiment_id: str, spec: ExperimentSpec) -> History:
    """The stored trials as an extension to ``spec`` (already extended) sees them: those with
    budget left (completed or cancelled below ``max_t``) continue (under promotion ASHA, also
    the pruned ones: each was paused at its
    rung when the sweep ended, and waits there again for a promotion as the rungs grow); the
    other final ones inform the searcher (a trial whose config was never stored does not)."""
    rows = session.execute(
        select(
            TrialRow.tune_trial_id,
            TrialRow.config,
            TrialRow.state,
            TrialRow.iteration,
            TrialRow.last_metric,
            TrialRow.objective_values,
        )
        .where(TrialRow.experiment_id == experiment_id)
        .order_by(TrialRow.id)
    ).all()
    names = sampled_names(spec)
    max_t = spec.early_stopping.max_t
    waiting = TrialState.pruned if spec.early_stopping.scheduler == "asha_promotion" else None
    history = History(new_samples=max(0, spec.search.num_samples - len(rows)))
    objectives = spec.all_objectives if spec.multi_objective else []
    for tune_id, config, state, iteration, value, stored in rows:
        # completed below the new max_t, or stopped by a cancel before it
        budget_left = state in (TrialState.completed, TrialState.cancelled) and iteration < max_t
        if state in OPEN or state is waiting or budget_left:
            history.continuing.append((tune_id, dict(config), iteration))
        elif state in (TrialState.completed, TrialState.pruned, TrialState.failed):
            params = {name: config[name] for name in names if name in config}
            if len(params) == len(names):
                multi = stored_values(stored, value, objectives) if objectives else None
                history.evaluated.append(Evaluated(params, finite(value), state, multi))
    return history


def trials_without_checkpoint(session: Session, experiment_id: str, history: History) -> list[str]:
    """The numbers of the continuing trials that trained (iteration > 0) and kept no
    checkpoint: their Train runs would start over."""
    names = [name for name, _, iteration in history.continuing if iteration > 0]
    if not names:
        return []
    numbers = session.scalars(
        select(TrialRow.number)
        .where(
            TrialRow.experiment_id == experiment_id,
            TrialRow.tune_trial_id.in_(names),
            ~repo.keeps_a_checkpoint(),
        )
        .order_by(TrialRow.number)
    ).all()
    return [f"#{number}" for number in numbers]


def extended_spec(spec: ExperimentSpec, request: ExtendRequest) -> ExperimentSpec:
    """The spec with the request's changes, or ``InvalidInput`` naming every problem."""
    problems = []
    search, early = spec.search, spec.early_stopping
    space = spec.search_space if isinstance(spec.search_space, dict) else {}
    if search.algorithm == "grid" or any(isinstance(p, Grid) for p in space.values()):
        problems.append(
            Problem(
                path="search.algorithm",
                message="a grid sweep cannot be extended: its grid is fixed",
            )
        )
    elif not sampled_names(spec):
        problems.append(
            Problem(path="search_space", message="nothing is sampled: there is nothing to extend")
        )
    if request.num_samples is not None and request.num_samples <= search.num_samples:
        problems.append(
            Problem(
                path="num_samples", message=f"must be more than the sweep's {search.num_samples}"
            )
        )
    if request.max_t is not None and request.max_t < early.max_t:
        problems.append(
            Problem(path="max_t", message=f"must be at least the sweep's {early.max_t}")
        )
    if request.num_samples is None and request.max_t is None and request.time_budget_s is None:
        problems.append(Problem(path="", message="give num_samples, max_t or time_budget_s"))
    if problems:
        raise InvalidInput("the extension is not valid", problems)
    data = spec.model_dump(mode="json")
    if request.num_samples is not None:
        data["search"]["num_samples"] = request.num_samples
    if request.max_t is not None:
        data["early_stopping"]["max_t"] = request.max_t
    if request.time_budget_s is not None:
        data["stop"]["time_budget_s"] = request.time_budget_s
    # an extension asks for more trials: the terminator would judge the trials it judged
    # before and end the extension at once
    data["stop"]["converged"] = None
    try:
        return ExperimentSpec.model_validate(data)
    except ValidationError as error:
        raise InvalidInput("the extension is not valid", problems_from_error(error)) from None


def extend_experiment(
    db: sessionmaker[Session], experiment_id: str, request: ExtendRequest
) -> ExperimentRead:
    """Queue the sweep again with its spec extended; an ``extended`` event says what changed.
    A sweep that is not completed, cancelled or paused is a ``Conflict``; an extension that
    would run nothing (every trial at the budget, no new configuration) is ``InvalidInput``."""
    with db.begin() as session:
        row = repo.get_experiment_row(session, experiment_id, for_update=True)
        if row.state not in EXTENDABLE:
            hint = "; pause it first" if row.state is ExperimentState.running else ""
            raise Conflict(
                f"the sweep is {row.state.value}: only a completed, cancelled or paused sweep "
                f"can be extended{hint}"
            )
        spec = ExperimentSpec.model_validate(row.spec)
        extended = extended_spec(spec, request)
        # queueing it again passes the admission a submit does (quota, queue, budget)
        if refusal := sweep_refusal(session, session.get_one(ProjectRow, row.project), extended):
            raise refusal
        history = sweep_history(session, experiment_id, extended)
        if not history.continuing and not history.new_samples:
            raise InvalidInput(
                "the extension would run nothing",
                [
                    Problem(
                        path="",
                        message="every trial has reached max_t and no configuration is added",
                    )
                ],
            )
        if restarting := trials_without_checkpoint(session, experiment_id, history):
            raise InvalidInput(
                "the extension would retrain trials from scratch",
                [
                    Problem(
                        path="",
                        message=f"trial(s) {', '.join(restarting)} have trained but saved no "
                        "checkpoint to continue from (the code reports none, "
                        "ray.train.report(metrics, checkpoint=...)): continuing them would "
                        "retrain them from their first epoch under iterations already stored. "
                        "Extend with num_samples alone, or make the code checkpoint",
                    )
                ],
            )
        changes = [
            f"{name} {before} -> {after}"
            for name, before, after in (
                ("num_samples", spec.search.num_samples, extended.search.num_samples),
                ("max_t", spec.early_stopping.max_t, extended.early_stopping.max_t),
                ("time_budget_s", spec.stop.time_budget_s, extended.stop.time_budget_s),
            )
            if before != after
        ] + (["stop.converged dropped"] if spec.stop.converged else [])
        continuing = {name for name, _, _ in history.continuing}
        for trial in session.scalars(
            select(TrialRow).where(
                TrialRow.experiment_id == experiment_id,
                TrialRow.state.in_([TrialState.completed, TrialState.cancelled, TrialState.pruned]),
                TrialRow.tune_trial_id.in_(continuing),
            )
        ):
            # open again, so the next driver runs it on (and does not take it for final): a
            # completed or cancelled one at once, a promotion-ASHA one paused at its rung
            reopened = TrialState.paused if trial.state is TrialState.pruned else TrialState.pending
            move_trial(trial, reopened)
            trial.finished_at = None
        row.spec = extended.model_dump(mode="json")
        row.extensions += 1
        row.error, row.stop_requested_at = None, None
        move_experiment(row, ExperimentState.queued)
        repo.add_event(
            session,
            row.id,
            "extended",
            f"extended ({', '.join(changes) or 'unchanged'}): {len(history.continuing)} "
            f"trial(s) continue, {history.new_samples} new configuration(s)",
            data={
                "extension": row.extensions,
                "continuing": len(history.continuing),
                "new_samples": history.new_samples,
            },
        )
        session.flush()
        return to_read(session, row)
