"""Cluster use cases: the observed capacity of each cluster, and the check that a sweep's trial
can ever be placed on the sweep cluster."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy.orm import Session, sessionmaker

from raysweep.errors import Problem
from raysweep.spec import ExperimentSpec
from service.db.base import utcnow
from service.db.models.sweeps import ClusterCapacityRow
from service.errors import InvalidInput
from service.resources import Capacity, carves, trial_request

# which cluster a project's sweeps run on, by its name, when that cluster does not autoscale (a
# trial it cannot place now never runs); None: it autoscales, or nothing is known
FixedSweepCluster = Callable[[str], str | None]


def no_fixed_cluster(project: str) -> None:
    return None


# the final clusters a project's final runs and model deployments may use, by name, its
# default first: its own final clusters when it has some, else the shared ones
FinalClusters = Callable[[str], list[str]]


def shared_final_clusters(names: list[str]) -> FinalClusters:
    """Every project may use ``names`` (no final cluster is bound to a project)."""
    return lambda project: names


def record_capacity(db: sessionmaker[Session], name: str, nodes: list[dict[str, float]]) -> None:
    with db.begin() as session:
        row = session.get(ClusterCapacityRow, name, with_for_update=True)
        if row is None:
            session.add(ClusterCapacityRow(name=name, nodes=nodes, observed_at=utcnow()))
        else:
            row.nodes, row.observed_at = nodes, utcnow()


def observed_capacity(session: Session, name: str) -> Capacity | None:
    row = session.get(ClusterCapacityRow, name)
    return Capacity(tuple(row.nodes)) if row is not None and row.nodes else None


def trial_never_fits(session: Session, spec: ExperimentSpec, cluster: str | None) -> str | None:
    """Why one trial of ``spec`` can never be placed on ``cluster``, a fixed-size cluster whose
    capacity the controller has seen; None when it can, or when ``cluster`` is None (it
    autoscales) or unseen."""
    capacity = observed_capacity(session, cluster) if cluster is not None else None
    if capacity is None:
        return None
    request = trial_request(spec, carves(capacity.nodes))
    reason = request.unplaceable(capacity)
    if reason is None:
        return None
    return (
        f"one trial needs {request.describe()}: {reason}, but the sweep cluster {cluster!r} "
        f"has {capacity.describe()} and does not autoscale"
    )


def never_fits_error(reason: str) -> InvalidInput:
    """``trial_never_fits``'s reason as a request is refused."""
    return InvalidInput(
        "the sweep cluster can never run one trial of this sweep",
        [Problem(path="resources", message=reason)],
    )


def check_trial_fits(session: Session, spec: ExperimentSpec, cluster: str | None) -> None:
    """Refuse a sweep whose one trial can never be placed (it would wait forever)."""
    message = trial_never_fits(session, spec, cluster)
    if message is not None:
        raise never_fits_error(message)
