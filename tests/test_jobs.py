"""The controller's one dispatcher and one reconciler, for sweeps and final runs alike, on a real
database through the real use cases; Ray's Jobs API is a scripted launcher (what Ray answers is
the input here: the Ray paths themselves run in tests/engine)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from sqlalchemy import select, update
from sqlalchemy.orm import Session, sessionmaker

from raysweep.projects import ProjectCreate
from raysweep.promotion_spec import PromotionOverrides
from service.controller.jobs import JobDispatcher, JobReconciler
from service.db.models.registry import FinalRunRow
from service.db.models.sweeps import EventRow, ExperimentRow
from service.engine.launcher import JobInfo, Launcher
from service.errors import InvalidInput
from service.settings import ClusterConfig, Settings
from service.usecases.access import operator
from service.usecases.clusters import record_capacity, shared_final_clusters
from service.usecases.deployments import deploy_version
from service.usecases.experiments import submit_experiment
from service.usecases.jobs import FinalRunJobs, SweepJobs
from service.usecases.projects import create_project
from service.usecases.promotion import promote_experiment
from service.usecases.sweep_control import cancel_experiment
from tests.conftest import minimal_spec
from tests.factories import SPACES, complete_final_run, completed_sweep


@dataclass
class ScriptedLauncher:
    """Ray's Jobs API as the controller sees it: submitted ids, and the state each job is in."""

    states: dict[str, str] = field(default_factory=dict)
    stopped: list[str] = field(default_factory=list)

    def submit(self, experiment_id: str, attempt: int) -> str:
        return self._started(f"raysweep-{experiment_id}-{attempt}")

    def submit_final_run(self, final_run_id: int, attempt: int) -> str:
        return self._started(f"final-{final_run_id}-{attempt}")

    def _started(self, job_id: str) -> str:
        self.states[job_id] = "RUNNING"
        return job_id

    def status(self, job_id: str) -> JobInfo:
        return JobInfo(self.states.get(job_id, "MISSING"), "Traceback...\nkilled")

    def stop(self, job_id: str) -> None:
        self.stopped.append(job_id)

    def capacity(self) -> list[dict[str, float]]:
        return []


def runs_of(db: sessionmaker[Session]) -> list[int]:
    with db.begin() as session:
        return list(session.scalars(select(FinalRunRow.id)))


def submit_driver(launcher: Launcher, experiment_id: str, attempt: int) -> str:
    return launcher.submit(experiment_id, attempt)


def submit_final_run(launcher: Launcher, final_run_id: int, attempt: int) -> str:
    return launcher.submit_final_run(final_run_id, attempt)


def test_a_lost_driver_is_resubmitted_up_to_the_limit_and_a_cancel_ends_with_its_job(
    db: sessionmaker[Session], tmp_path: Path
) -> None:
    settings = Settings(home=tmp_path, max_driver_restarts=1, cancel_grace_s=0.001)
    ray = ScriptedLauncher()
    sweeps = SweepJobs(db, settings)
    dispatcher = JobDispatcher("dispatcher", sweeps, {"local": ray}, submit_driver)
    reconciler = JobReconciler("reconciler", sweeps, {"local": ray}, submit_driver)
    lost = submit_experiment(db, minimal_spec(name="lost"), SPACES, operator("t")).id
    cancelled = submit_experiment(db, minimal_spec(name="cancelled"), SPACES, operator("t")).id
    assert dispatcher.run_once() == 2 and dispatcher.run_once() == 0  # 2 = the sweep limit
    ray.states[f"raysweep-{lost}-0"] = "FAILED"
    assert reconciler.run_once() == 1  # resubmitted as attempt 1
    ray.states[f"raysweep-{lost}-1"] = "FAILED"
    cancel_experiment(db, cancelled)
    time.sleep(0.01)  # past its (tiny) grace: the driver did not stop by itself
    assert reconciler.run_once() == 2  # the lost one fails; the cancelled one's job is stopped
    assert ray.stopped == [f"raysweep-{cancelled}-0"]
    ray.states[f"raysweep-{cancelled}-0"] = "STOPPED"
    assert reconciler.run_once() == 1 and reconciler.run_once() == 0
    with db.begin() as session:
        rows = {r.id: r for r in session.scalars(select(ExperimentRow))}
    assert (rows[lost].state, rows[lost].driver_restarts) == ("failed", 1)
    assert "driver job raysweep-" in (rows[lost].error or "")
    assert "RAYSWEEP_MAX_DRIVER_RESTARTS=1" in (rows[lost].error or "")
    assert rows[cancelled].state == "cancelled"


def test_a_final_run_on_a_cluster_no_longer_configured_fails_naming_it(
    db: sessionmaker[Session], tmp_path: Path
) -> None:
    clusters = [ClusterConfig(name="local", role="both"), ClusterConfig(name="big", role="final")]
    settings = Settings(home=tmp_path, clusters=clusters)
    ray, big = ScriptedLauncher(), ScriptedLauncher()
    runs = FinalRunJobs(db, settings)
    sweep = completed_sweep(db, [({"lr": 0.1}, 0.5), ({"lr": 0.2}, 0.4)])
    promote_experiment(
        db, sweep, PromotionOverrides(top_k=2, cluster="big"), "t", shared_final_clusters(["big"])
    )
    launchers: dict[str, Launcher] = {"local": ray, "big": big}
    dispatcher = JobDispatcher("final-run-dispatcher", runs, launchers, submit_final_run)
    assert dispatcher.run_once() == 1  # one at a time: max_concurrent_jobs 1
    assert list(big.states) == [f"final-{min(runs_of(db))}-0"] and ray.states == {}
    with db.begin() as session:  # "big" is dropped from the settings while the run goes on
        session.execute(update(FinalRunRow).values(cluster="gone"))
    reconciler = JobReconciler("final-run-reconciler", runs, {"local": ray}, submit_final_run)
    assert reconciler.run_once() == 1
    with db.begin() as session:
        states = sorted(session.scalars(select(FinalRunRow.state)))
        failed = session.scalars(
            select(EventRow.message).where(EventRow.kind == "final_run_failed")
        ).one()
    assert states == ["failed", "queued"]
    assert "cluster gone is no longer configured; not resubmitted" in failed


def test_a_project_bound_to_its_own_sweep_cluster_sweeps_there_alone(
    db: sessionmaker[Session], tmp_path: Path
) -> None:
    """RAYSWEEP_CLUSTERS gives project alpha a sweep cluster of its own: its sweeps go there
    and nowhere else, every other project's to the shared one, each cluster with its own limit
    of sweeps at once; a trial alpha's fixed-size cluster can never hold is refused at submit,
    the same spec in another project (the shared cluster autoscales) is not."""
    clusters = [
        ClusterConfig(name="shared", role="both", autoscaling=True),
        ClusterConfig(
            name="alpha-ray", address="http://alpha-head:8265", role="sweep", projects=("alpha",)
        ),
    ]
    settings = Settings(home=tmp_path, clusters=clusters, max_concurrent_sweeps=1)
    for project in ("alpha", "beta"):
        create_project(db, ProjectCreate(name=project))
    shared, alpha_ray = ScriptedLauncher(), ScriptedLauncher()
    launchers = {"shared": shared, "alpha-ray": alpha_ray}
    sweeps = SweepJobs(db, settings)
    assert [pool.cluster for pool in sweeps.pools()] == ["shared", "alpha-ray"]
    dispatcher = JobDispatcher("dispatcher", sweeps, launchers, submit_driver)
    ids = {
        name: submit_experiment(
            db, minimal_spec(name=name, project=project), SPACES, operator("t")
        ).id
        for name, project in (("a1", "alpha"), ("a2", "alpha"), ("b1", "beta"), ("d1", "default"))
    }
    assert dispatcher.run_once() == 2  # one on each cluster: each has its own limit of 1
    assert list(alpha_ray.states) == [f"raysweep-{ids['a1']}-0"]
    assert list(shared.states) == [f"raysweep-{ids['b1']}-0"]
    alpha_ray.states[f"raysweep-{ids['a1']}-0"] = "SUCCEEDED"
    with db.begin() as session:  # a1's driver finished its sweep
        session.execute(
            update(ExperimentRow).where(ExperimentRow.id == ids["a1"]).values(state="completed")
        )
    assert dispatcher.run_once() == 1  # a2 goes to alpha's cluster, not to the busy shared one
    assert f"raysweep-{ids['a2']}-0" in alpha_ray.states
    assert {(a.id, a.cluster) for a in sweeps.active()} == {
        (ids["a2"], "alpha-ray"),
        (ids["b1"], "shared"),
    }
    # alpha's cluster is fixed-size and holds 1 CPU: a 2-worker trial there never runs
    record_capacity(db, "alpha-ray", [{"CPU": 1.0}])
    big = minimal_spec(resources={"num_workers": 2, "cpus_per_worker": 1})
    fixed = settings.fixed_sweep_cluster
    assert (fixed("alpha"), fixed("beta")) == ("alpha-ray", None)
    with pytest.raises(InvalidInput, match="the sweep cluster can never run one trial"):
        submit_experiment(db, {**big, "project": "alpha"}, SPACES, operator("t"), None, fixed)
    submit_experiment(db, {**big, "project": "beta"}, SPACES, operator("t"), None, fixed)


def test_cluster_records_bind_each_project_once_to_one_sweep_cluster(tmp_path: Path) -> None:
    def settings(*clusters: dict[str, object]) -> Settings:
        records = [ClusterConfig.model_validate(c) for c in clusters]
        return Settings(home=tmp_path, clusters=records)

    own = {"name": "a", "address": "http://a:8265", "role": "sweep", "projects": ["alpha"]}
    only_bound = settings(own)  # the server's own Ray is the shared sweep and final cluster
    assert [c.name for c in only_bound.cluster_records] == ["local", "a"]
    assert only_bound.sweep_cluster_for("alpha").name == "a"
    assert only_bound.sweep_cluster_for("beta").name == "local"
    for clusters, refusal in (
        ([{"name": "x", "role": "sweep"}, {"name": "y", "role": "both"}], "exactly one cluster"),
        ([own, {**own, "name": "b"}], "alpha named twice"),
    ):
        with pytest.raises(ValueError, match=refusal):
            settings(*clusters)


def test_a_projects_own_final_clusters_are_its_only_ones_and_no_other_projects(
    tmp_path: Path, db: sessionmaker[Session]
) -> None:
    """A record with role final (or both) and projects: those projects' final runs and
    deployments go there (the first their default) and to no shared final cluster; no other
    project's may. A project without one keeps the shared ones."""
    records = [
        {"name": "shared", "role": "both"},
        {"name": "alpha-big", "address": "http://a:8265", "role": "final", "projects": ["alpha"]},
        {"name": "alpha-all", "address": "http://b:8265", "role": "both", "projects": ["alpha"]},
    ]
    settings = Settings(home=tmp_path, clusters=[ClusterConfig.model_validate(r) for r in records])
    assert settings.final_clusters_for("alpha") == ["alpha-big", "alpha-all"]
    assert settings.final_clusters_for("beta") == ["shared"]
    assert settings.sweep_cluster_for("alpha").name == "alpha-all"
    assert settings.final_cluster_names == ["shared", "alpha-big", "alpha-all"]  # all kept served
    # only bound final clusters: the server's own Ray is the shared final cluster
    bound_only = Settings(
        home=tmp_path, clusters=[ClusterConfig.model_validate(r) for r in records[1:]]
    )
    assert bound_only.final_clusters_for("beta") == ["local"]
    for project in ("alpha", "beta"):
        create_project(db, ProjectCreate(name=project))
    sweeps = {}
    for project in ("alpha", "beta"):
        sweeps[project] = completed_sweep(db, [({"lr": 0.01, "hidden": 64}, 0.2)])
        with db.begin() as session:
            session.execute(
                update(ExperimentRow)
                .where(ExperimentRow.id == sweeps[project])
                .values(project=project)
            )
    clusters = settings.final_clusters_for
    for project, other in (("beta", "alpha-big"), ("alpha", "shared")):
        with pytest.raises(InvalidInput) as refused:
            promote_experiment(
                db, sweeps[project], PromotionOverrides(cluster=other), "t", clusters
            )
        [problem] = refused.value.details
        assert problem.message == (
            f"no final cluster named {other!r}; final clusters: "
            + ", ".join(settings.final_clusters_for(project))
        )
    promoted = {
        project: promote_experiment(
            db, sweeps[project], PromotionOverrides(model_name=project), "t", clusters
        )
        for project in ("alpha", "beta")
    }
    assert promoted["alpha"].runs.items[0].cluster == "alpha-big"  # its own default
    assert promoted["beta"].runs.items[0].cluster == "shared"
    # and its models are served there
    for project in ("alpha", "beta"):
        complete_final_run(db, promoted[project].runs.items[0].id, 0.3)
    deployed = {p: deploy_version(db, p, "1", clusters, "t")[0].cluster for p in ("alpha", "beta")}
    assert deployed == {"alpha": "alpha-big", "beta": "shared"}
