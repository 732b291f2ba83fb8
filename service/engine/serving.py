"""Ray Serve side of a model deployment: the predictor application and the Deployer that keeps
Serve's applications on each final cluster equal to the deployments the database asks for.

raysweep owns every Serve application on its final clusters: Serve's declarative API replaces
the whole set at each change.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlparse

import torch
from ray import serve
from ray.serve import Application
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker
from starlette.requests import Request
from starlette.responses import JSONResponse

from raysweep.lifecycle import DeploymentState
from service.db.models.registry import ModelDeploymentRow, ModelVersionRow
from service.engine.cluster import RayConnection
from service.engine.ray_compat import ServeSubmissionClient
from service.settings import Settings
from service.usecases.deployments import AppStatus, record_deployment_statuses
from trainers.loading import load_task

log = logging.getLogger("raysweep.deployer")
IMPORT_PATH = "service.engine.serving:build_app"
REPLICA_CPUS = 0.1  # the predictor is small; it must fit beside sweeps on a busy cluster


@serve.deployment(ray_actor_options={"num_cpus": REPLICA_CPUS})
class Predictor:
    """A bundled trainer's model from a checkpoint; POST {"inputs": [...]} -> outputs."""

    def __init__(
        self, trainer: str, config: dict[str, Any], checkpoint_uri: str, key_sha256: str | None
    ):
        self.key_sha256 = key_sha256
        task = load_task(trainer, config, checkpoint_uri)
        self.model = task.model
        self.input_dtype = task.splits["train"].inputs.dtype
        self.classifier = task.splits["train"].targets.dtype == torch.long

    def predict(self, inputs: list[Any]) -> dict[str, Any]:
        with torch.no_grad():
            outputs = self.model(torch.tensor(inputs, dtype=self.input_dtype))
        predictions = outputs.argmax(dim=-1) if self.classifier else outputs
        return {"outputs": outputs.tolist(), "predictions": predictions.tolist()}

    async def __call__(self, request: Request) -> dict[str, Any] | JSONResponse:
        refusal = key_refusal(request.headers.get("authorization"), self.key_sha256)
        if refusal is not None:
            return JSONResponse(
                {"error": refusal}, status_code=401, headers={"WWW-Authenticate": "Bearer"}
            )
        inputs = parse_inputs(await request.body())
        if isinstance(inputs, str):
            return JSONResponse({"error": inputs}, status_code=400)
        try:
            return self.predict(inputs)
        except (RuntimeError, ValueError, TypeError) as error:
            return JSONResponse({"error": f"{type(error).__name__}: {error}"}, status_code=400)


def parse_inputs(raw: bytes) -> list[Any] | str:
    """A request body's ``inputs`` (one row per example), or what is wrong with the body."""
    try:
        body = json.loads(raw)
    except ValueError as error:  # not JSON, or not UTF-8
        return f'the body is not JSON ({error}); send {{"inputs": [...]}}'
    if not isinstance(body, dict) or not isinstance(body.get("inputs"), list):
        return 'send {"inputs": [...]}: one row per example'
    inputs: list[Any] = body["inputs"]
    return inputs


def key_refusal(authorization: str | None, key_sha256: str | None) -> str | None:
    """Why a request may not use the model (None: it may): it must carry the deployment's key,
    given once when the deployment was made, as ``Authorization: Bearer <key>``."""
    if key_sha256 is None:
        return "this deployment has no key (made before keys): undeploy it and deploy it again"
    scheme, _, key = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or not key:
        return "send the deployment's key as Authorization: Bearer <key>"
    if not hmac.compare_digest(hashlib.sha256(key.strip().encode()).hexdigest(), key_sha256):
        return "wrong key for this deployment"
    return None


def build_app(args: dict[str, Any]) -> Application:
    """Serve's import path for every raysweep deployment."""
    # serve.deployment turns the class into a Deployment at runtime; its stubs keep the class
    return Predictor.bind(  # type: ignore[attr-defined]
        args["trainer"], args["config"], args["checkpoint_uri"], args.get("key_sha256")
    )


def serve_url(cluster_address: str | None, port: int, route_prefix: str) -> str:
    host = urlparse(cluster_address).hostname if cluster_address else None
    return f"http://{host or '127.0.0.1'}:{port}{route_prefix}"


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

    def client(self, cluster: str) -> ServeSubmissionClient:
        connection = self.connections[cluster]
        return ServeSubmissionClient(str(connection.address), headers=connection.headers)

    def wanted(self, cluster: str) -> tuple[list[dict[str, Any]], list[int]]:
        """Serve applications to run, and the rows being deleted."""
        with self.db.begin() as session:
            rows = session.execute(
                # outer: a deployment being deleted with its version (its sweep) has none
                select(ModelDeploymentRow, ModelVersionRow)
                .outerjoin(
                    ModelVersionRow, ModelVersionRow.id == ModelDeploymentRow.model_version_id
                )
                .where(
                    ModelDeploymentRow.cluster == cluster,
                    ModelDeploymentRow.state != DeploymentState.deleted,
                )
            ).all()
            apps = [
                {
                    "name": deployment.app_name,
                    "route_prefix": deployment.route_prefix,
                    "import_path": IMPORT_PATH,
                    "args": {
                        "trainer": version.trainer,
                        "config": version.config,
                        "checkpoint_uri": version.checkpoint_uri,
                        # the hash only: Serve shows its applications' args in its config
                        "key_sha256": deployment.key_sha256,
                    },
                }
                for deployment, version in rows
                if version is not None
                and deployment.state in (DeploymentState.deploying, DeploymentState.running)
            ]
            deleting = [d.id for d, _ in rows if d.state == DeploymentState.deleting]
        return apps, deleting

    def reconcile(self, cluster: str) -> int:
        apps, deleting = self.wanted(cluster)
        if not apps and not deleting:
            return 0
        client = self.client(cluster)
        running = client.get_serve_details().get("applications") or {}
        if {a["name"] for a in apps} != set(running):
            host = "127.0.0.1" if self.connections[cluster].embedded else "0.0.0.0"
            client.deploy_applications(
                {
                    "http_options": {"host": host, "port": self.settings.serve_port},
                    "applications": apps,
                }
            )
            running = client.get_serve_details().get("applications") or {}
        return self.record(cluster, running)

    def record(self, cluster: str, running: Mapping[str, Any]) -> int:
        address = self.connections[cluster].address
        return record_deployment_statuses(
            self.db,
            cluster,
            {
                name: AppStatus(str(app.get("status")), str(app.get("message", "")))
                for name, app in running.items()
            },
            lambda prefix: serve_url(address, self.settings.serve_port, prefix),
        )
