"""The loop that keeps each final cluster's Serve applications equal to the deployments the
database asks for, and moves those deployments by what Serve reports of them."""

from __future__ import annotations

from collections.abc import Mapping

from sqlalchemy.orm import Session, sessionmaker

from service.engine.cluster import RayConnection
from service.engine.serving import ServeApplications
from service.settings import Settings
from service.usecases.deployments import record_deployment_statuses, wanted_applications


class Deployer:
    """Reconciles deployments with Serve on each final cluster, one declarative update per
    change of the wanted set; reads the applications' status back into the rows."""

    name = "deployer"

    def __init__(
        self,
        db: sessionmaker[Session],
        connections: Mapping[str, RayConnection],
        settings: Settings,
    ):
        self.db, self.connections, self.settings = db, connections, settings

    def run_once(self) -> int:
        acted = 0
        for cluster in self.settings.final_cluster_names:
            acted += self.reconcile(cluster)
        return acted

    def reconcile(self, cluster: str) -> int:
        apps, deleting = wanted_applications(self.db, cluster)
        if not apps and not deleting:
            return 0
        serve = ServeApplications(self.connections[cluster])
        port = self.settings.serve_port
        running = serve.running()
        if {app.name for app in apps} != set(running):
            serve.replace(apps, port)
            running = serve.running()
        return record_deployment_statuses(
            self.db, cluster, running, lambda prefix: serve.url(port, prefix)
        )
