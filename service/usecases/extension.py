"""Extending a finished or paused sweep: more configurations, a larger budget, more time.

The experiment keeps its id, trials and results. Its next driver runs the extension as a new Tune
run (the sweep's ``extensions``-th) whose searcher is told every stored trial (Optuna's study
rebuilt from the database: configs and final values, pruned ones as pruned) and whose first
trials continue the earlier ones that have budget left, each from its own checkpoints under its
own name, before the new configurations.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from raysweep.errors import Problem
from raysweep.lifecycle import TRIAL_OPEN, ExperimentState, TrialState
from raysweep.schemas import ExperimentRead, ExtendRequest
from raysweep.search_space import Constant, Grid
from raysweep.spec import ExperimentSpec
from raysweep.spec_reader import problems_from_error
from service.db import repositories as repo
from service.db.models.sweeps import ExperimentRow, TrialRow
from service.errors import Conflict, InvalidInput
from service.specs import check_spec
from service.states import move_experiment, move_trial
from service.usecases.admission import queue_refusal
from service.usecases.clusters import FinalClusters
from service.usecases.experiments import package_files, stored_spec, to_read
from service.usecases.exploits import latest_configs
from service.usecases.space_changes import (
    Extended,
    SpecCheck,
    new_space,
    space_change_text,
    space_versions,
)
from service.usecases.studies import finite, params_in, stored_values

EXTENDABLE = (ExperimentState.completed, ExperimentState.cancelled, ExperimentState.paused)


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
    # ended trials outside the current search space (a changed one): not told to the searcher
    left_out: int = 0


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


def in_latest_space(
    config: dict[str, Any], version: int, spaces: list[dict[str, Any]] | None
) -> dict[str, Any]:
    """A trial's config sampled from space ``version``, as the latest space sees it: each
    parameter a later version added at the value the earlier trials had (``added``) unless the
    config has its own (a parameter removed and added again)."""
    mapped = dict(config)
    for later in (spaces or [])[version:]:
        for name, value in later.get("added", {}).items():
            mapped.setdefault(name, value)
    return mapped


def sweep_history(session: Session, experiment_id: str, spec: ExperimentSpec) -> History:
    """The stored trials as an extension to ``spec`` (already extended) sees them: those with
    budget left (completed or cancelled below ``max_t``) continue (under promotion ASHA, also
    the pruned ones: each was paused at its
    rung when the sweep ended, and waits there again for a promotion as the rungs grow), with
    their configs (plus the values of parameters a changed space added); the other final ones
    inform the searcher when they lie in the current space (a trial whose config was never
    stored does not; one outside a changed space is counted in ``left_out``)."""
    spaces = session.scalar(
        select(ExperimentRow.search_spaces).where(ExperimentRow.id == experiment_id)
    )
    rows = session.execute(
        select(
            TrialRow.tune_trial_id,
            TrialRow.config,
            TrialRow.state,
            TrialRow.iteration,
            TrialRow.last_metric,
            TrialRow.objective_values,
            TrialRow.space_version,
        )
        .where(TrialRow.experiment_id == experiment_id)
        .order_by(TrialRow.id)
    ).all()
    space = spec.search_space if isinstance(spec.search_space, dict) else {}
    max_t = spec.early_stopping.max_t
    waiting = TrialState.pruned if spec.early_stopping.scheduler == "asha_promotion" else None
    history = History(new_samples=max(0, spec.search.num_samples - len(rows)))
    objectives = spec.all_objectives if spec.multi_objective else []
    left_out = 0
    exploited = latest_configs(session, experiment_id)  # PBT: a trial's config in force last
    for tune_id, config, state, iteration, value, stored, version in rows:
        config = in_latest_space(exploited.get(tune_id, config), version, spaces)
        # completed below the new max_t, or stopped by a cancel before it
        budget_left = state in (TrialState.completed, TrialState.cancelled) and iteration < max_t
        # trials a paused sweep left open: the extension continues them
        if state in TRIAL_OPEN or state is waiting or budget_left:
            history.continuing.append((tune_id, config, iteration))
        elif state in (TrialState.completed, TrialState.pruned, TrialState.failed) and config:
            if (params := params_in(space, config)) is None:
                left_out += 1
                continue
            multi = stored_values(stored, value, objectives) if objectives else None
            history.evaluated.append(Evaluated(params, finite(value), state, multi))
    return replace(history, left_out=left_out)


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


def extended_spec(
    spec: ExperimentSpec,
    request: ExtendRequest,
    check: SpecCheck | None = None,
    extensions: int = 0,
    versions: int = 1,
) -> Extended:
    """The spec with the request's changes, or ``InvalidInput`` naming every problem. A new
    ``search_space`` is checked as a submitted spec's is (``check``); ``extensions`` and
    ``versions`` are the sweep's so far (the new space's version follows them)."""
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
    elif not sampled_names(spec) and request.search_space is None:
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
    if (
        request.num_samples is None
        and request.max_t is None
        and request.time_budget_s is None
        and request.search_space is None
    ):
        problems.append(
            Problem(path="", message="give num_samples, max_t, time_budget_s or search_space")
        )
    if request.earlier_values and request.search_space is None:
        problems.append(Problem(path="earlier_values", message="only with a new search_space"))
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
    if request.search_space is not None:
        if check is None:
            raise ValueError("a new search space needs the spec check")
        try:  # the new space's problems are named with the others
            extension = new_space(spec, request, data, check, extensions, versions)
        except InvalidInput as error:
            problems += error.details
        if problems:
            raise InvalidInput("the extension is not valid", problems)
        return extension
    if problems:
        raise InvalidInput("the extension is not valid", problems)
    try:
        return Extended(ExperimentSpec.model_validate(data))
    except ValidationError as error:
        raise InvalidInput("the extension is not valid", problems_from_error(error)) from None


def extendable(row: ExperimentRow) -> None:
    """``Conflict`` unless the sweep is completed, cancelled or paused."""
    if row.state not in EXTENDABLE:
        hint = "; pause it first" if row.state is ExperimentState.running else ""
        raise Conflict(
            f"the sweep is {row.state.value}: only a completed, cancelled or paused sweep "
            f"can be extended{hint}"
        )


def extend_experiment(
    db: sessionmaker[Session],
    experiment_id: str,
    request: ExtendRequest,
    search_spaces_dir: Path,
    final_clusters: FinalClusters | None = None,
) -> ExperimentRead:
    """Queue the sweep again with its spec extended; an ``extended`` event says what changed.
    A sweep that is not completed, cancelled or paused is a ``Conflict``; an extension that
    would run nothing (every trial at the budget, no new configuration) is ``InvalidInput``.
    A new search space is checked as a submitted spec is (its named file under
    ``search_spaces_dir``, the project's code packages and sweeps), outside the write
    transaction: the sweep is read again under its lock, and one changed meanwhile is a
    ``Conflict``."""
    with db.begin() as session:
        row = repo.get_experiment_row(session, experiment_id)
        extendable(row)
        stored, project = row.spec, row.project
        extensions, spaces = row.extensions, row.search_spaces
    spec = ExperimentSpec.model_validate(stored)
    versions = space_versions(spec, spaces)

    def check(data: dict[str, Any]) -> ExperimentSpec:
        return check_spec(
            data,
            search_spaces_dir,
            lambda sha256: package_files(db, sha256, project),
            None if final_clusters is None else final_clusters(project),
            lambda source_id: stored_spec(db, source_id, project),
        )

    extension = extended_spec(spec, request, check, extensions, len(versions))
    extended = extension.spec
    with db.begin() as session:
        row = repo.get_experiment_row(session, experiment_id, for_update=True)
        extendable(row)
        if row.spec != stored or row.extensions != extensions:
            raise Conflict("the sweep changed while the extension was checked: extend it again")
        # queueing it again passes the admission a submit does (quota, queue, budget)
        if refusal := queue_refusal(session, extended):
            raise refusal.error
        if extension.space is not None:
            row.search_spaces = [v.model_dump(mode="json") for v in [*versions, extension.space]]
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
        if (version := extension.space) is not None:
            changes.append(space_change_text(version))
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
            f"trial(s) continue, {history.new_samples} new configuration(s)"
            + (
                f"; {history.left_out} earlier trial(s) outside the new space left out of the "
                "searcher's history"
                if history.left_out
                else ""
            ),
            data={
                "extension": row.extensions,
                "continuing": len(history.continuing),
                "new_samples": history.new_samples,
                "told_to_searcher": len(history.evaluated),
                "left_out": history.left_out,
                "space_version": len(row.search_spaces or []) or 1,
            },
        )
        session.flush()
        return to_read(session, row)
