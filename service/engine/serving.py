"""Ray Serve's side of a model deployment: the predictor application, and the calls that read
and replace a final cluster's Serve applications (the controller's ``Deployer`` decides what
they should be from the database).

raysweep owns every Serve application on its final clusters: Serve's declarative API replaces
the whole set at each change.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from typing import Any
from urllib.parse import urlparse

import torch
from ray import serve
from ray.serve import Application
from starlette.requests import Request
from starlette.responses import JSONResponse

from service.engine.cluster import RayConnection
from service.engine.ray_compat import ServeSubmissionClient
from service.usecases.deployments import AppStatus, WantedApp
from trainers.loading import load_task

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


def serve_config(apps: list[WantedApp], host: str, port: int) -> dict[str, Any]:
    """Serve's declarative config for the wanted applications: every one is ``build_app``."""
    return {
        "http_options": {"host": host, "port": port},
        "applications": [
            {
                "name": app.name,
                "route_prefix": app.route_prefix,
                "import_path": IMPORT_PATH,
                "args": {
                    "trainer": app.trainer,
                    "config": app.config,
                    "checkpoint_uri": app.checkpoint_uri,
                    "key_sha256": app.key_sha256,
                },
            }
            for app in apps
        ],
    }


class ServeApplications:
    """A final cluster's Serve applications, through its dashboard (no Ray connection)."""

    def __init__(self, connection: RayConnection):
        self.connection = connection
        self.client = ServeSubmissionClient(str(connection.address), headers=connection.headers)

    def running(self) -> dict[str, AppStatus]:
        applications = self.client.get_serve_details().get("applications") or {}
        return {
            name: AppStatus(str(app.get("status")), str(app.get("message", "")))
            for name, app in applications.items()
        }

    def replace(self, apps: list[WantedApp], port: int) -> None:
        """Serve runs exactly ``apps`` from now (on this host only for an embedded cluster)."""
        host = "127.0.0.1" if self.connection.embedded else "0.0.0.0"
        self.client.deploy_applications(serve_config(apps, host, port))

    def url(self, port: int, route_prefix: str) -> str:
        return serve_url(self.connection.address, port, route_prefix)
