"""The Python SDK: ``Client`` talks to the REST API, ``Experiment`` is a handle on one sweep.

Example::

    from raysweep import Client

    client = Client()                      # RAYSWEEP_URL / RAYSWEEP_TOKEN, config file, local
    experiment = client.submit("sweep.yaml")
    experiment.wait()                      # progress bar in Jupyter and terminals
    experiment.trials_frame().head()
"""

from __future__ import annotations

import io
import warnings
import zipfile
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from raysweep.client_automation import AutomationCalls
from raysweep.client_logs import LogCalls
from raysweep.code_ref import CodePackageRead
from raysweep.errors import (
    SubmitNote,
)
from raysweep.experiment import Experiment
from raysweep.lifecycle import ExperimentState
from raysweep.projects import ProjectRead, UsageRead
from raysweep.registry import AliasRead, FinalRunRead, ModelRead, ModelVersionRead
from raysweep.schemas import ExperimentRead, ResultRead
from raysweep.spec import ExperimentSpec
from raysweep.spec_reader import read_mapping
from raysweep.tensorboard import TensorBoardRuns


class Client(LogCalls, AutomationCalls):
    """A connection to a raysweep server.

    ``url`` and ``token`` fall back to ``RAYSWEEP_URL`` / ``RAYSWEEP_TOKEN``, then to
    ``~/.config/raysweep/config.toml``, then to the local server (``http://127.0.0.1``
    on ``RAYSWEEP_PORT``, default 8000) and its ``$RAYSWEEP_HOME/admin-token``. Every call
    has a ``timeout_s`` limit; reads are retried with backoff when the server cannot be
    reached, writes only when the request provably never left this machine.

    Example::

        client = Client("http://sweeps.internal:8000", token="rsw_...")
        for experiment in client.experiments(state="running"):
            print(experiment.id, experiment.state)
    """

    # --- code packages -----------------------------------------------------------------------

    def upload_code(self, path: str | Path) -> CodePackageRead:
        """Upload training code: a directory (zipped here, without caches and hidden files), a
        ``.zip`` or a ``.tar.gz``. Returns the package; name it in a spec by its ``sha256``.
        Uploading the same files again returns the same package.

        Example::

            package = client.upload_code("my_training_code/")
            spec["code"] = {"package": package.sha256, "entrypoint": "train:train_loop",
                            "metrics": {"loss": "min", "epoch": "max"}}
        """
        source = Path(path)
        if source.is_dir():
            content, kind = pack_directory(source), "application/zip"
        elif source.is_file():
            content = source.read_bytes()
            kind = "application/zip" if source.suffix == ".zip" else "application/gzip"
        else:
            raise FileNotFoundError(f"no such file or directory: {source}")
        data = self.request(
            "POST", "/code", params=self._in_project(), content=content, content_type=kind
        )
        return CodePackageRead.model_validate(data)

    def code_packages(self) -> list[CodePackageRead]:
        """Every uploaded code package, newest first."""
        pages = self.pages("/code", self._in_project())
        return [CodePackageRead.model_validate(item) for item in pages]

    # --- projects ----------------------------------------------------------------------------

    def projects(self) -> list[ProjectRead]:
        """The projects the token has a role in (an admin's: all), with this month's usage."""
        return [ProjectRead.model_validate(item) for item in self.request("GET", "/projects")]

    def create_project(self, name: str, **settings: Any) -> ProjectRead:
        """A new project (admin): ``weight``, ``max_workers``, ``max_cpus``, ``max_gpus``,
        ``max_queued``, ``monthly_worker_hours``, ``monthly_gpu_hours``, ``description``."""
        body = {"name": name, **settings}
        return ProjectRead.model_validate(self.request("POST", "/projects", body=body))

    def update_project(self, name: str, **settings: Any) -> ProjectRead:
        """Change a project's weight, quotas or budgets (admin); ``None`` removes a limit."""
        data = self.request("PATCH", f"/projects/{name}", body=settings)
        return ProjectRead.model_validate(data)

    def usage(self, start: datetime | None = None, end: datetime | None = None) -> UsageRead:
        """Compute held in [start, end) (default: this UTC month): in all, per project, sweep
        and day; the client's project only when it has one."""
        params: dict[str, str] = self._in_project()
        for key, moment in (("from", start), ("to", end)):
            if moment is not None:
                aware = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
                params[key] = aware.isoformat()
        return UsageRead.model_validate(self.request("GET", "/usage", params=params))

    # --- final runs and the model registry --------------------------------------------------

    def final_run_results(self, final_run_id: int) -> list[ResultRead]:
        """A final run's results, one per epoch (``iteration`` is the epoch)."""
        page = self.request("GET", f"/final-runs/{final_run_id}/results")
        return [ResultRead.model_validate(item) for item in page["items"]]

    def cancel_final_run(self, final_run_id: int) -> FinalRunRead:
        """Cancel a final run (idempotent): a queued one at once, a running one once the
        server has stopped its job (``cancelling`` until then). ``Conflict`` if it ended."""
        return FinalRunRead.model_validate(
            self.request("POST", f"/final-runs/{final_run_id}/cancel")
        )

    def models(self) -> list[ModelRead]:
        """Registered models: latest version, number of versions, aliases."""
        items = self.request("GET", "/models", params=self._in_project())
        return [ModelRead.model_validate(item) for item in items]

    def model_versions(self, name: str) -> list[ModelVersionRead]:
        """A model's versions, newest first, each with its lineage."""
        page = self.request("GET", f"/models/{name}/versions")
        return [ModelVersionRead.model_validate(item) for item in page["items"]]

    def model_version(self, name: str, version_or_alias: int | str) -> ModelVersionRead:
        """One version, by number or alias (``client.model_version("digits", "production")``)."""
        data = self.request("GET", f"/models/{name}/versions/{version_or_alias}")
        return ModelVersionRead.model_validate(data)

    def set_alias(self, name: str, alias: str, version: int) -> AliasRead:
        """Point ``alias`` at ``version``, moving it from its previous holder."""
        data = self.request("PUT", f"/models/{name}/aliases/{alias}", body={"version": version})
        return AliasRead.model_validate(data)

    def delete_alias(self, name: str, alias: str) -> None:
        """Remove ``alias`` from its version (``Conflict`` while a retrain schedule follows it).

        Example::

            client.delete_alias("digits", "production")
        """
        self.request("DELETE", f"/models/{name}/aliases/{alias}")

    # --- experiments -------------------------------------------------------------------------

    def submit(self, spec: ExperimentSpec | Mapping[str, Any] | str | Path) -> Experiment:
        """Submit a sweep: an ``ExperimentSpec``, a dict, or the path of a YAML/JSON file.

        The server validates it completely; a bad spec raises ``SpecError`` listing every
        problem and nothing is stored.

        Example::

            experiment = client.submit({"name": "digits", "trainer": "digits_mlp",
                                        "search_space": "digits_mlp",
                                        "metric": "val_accuracy", "mode": "max"})
        """
        if isinstance(spec, ExperimentSpec):
            body: Any = spec.model_dump(mode="json", exclude_unset=True)
        elif isinstance(spec, str | Path):
            body = read_mapping(spec)
        else:
            body = dict(spec)
        if self.project and isinstance(body, dict):
            body.setdefault("project", self.project)
        created = self.request("POST", "/experiments", body=body)
        for note in created.get("notes") or []:
            warnings.warn(note, SubmitNote, stacklevel=2)
        return self.experiment(created["id"])

    def experiment(self, experiment_id: str) -> Experiment:
        """A handle on an existing experiment (``NotFound`` if there is none)."""
        return Experiment(self, self.read_experiment(experiment_id))

    def read_experiment(self, experiment_id: str) -> ExperimentRead:
        return ExperimentRead.model_validate(self.request("GET", f"/experiments/{experiment_id}"))

    def tensorboard_runs(self, experiment_id: str) -> TensorBoardRuns:
        """The experiment's trials as TensorBoard runs: each one's name and the directory (on
        the server's storage URI) of its event files; ``raysweep.tensorboard.logdir_spec``
        joins them for ``tensorboard --logdir_spec``."""
        data = self.request("GET", f"/experiments/{experiment_id}/tensorboard")
        return TensorBoardRuns.model_validate(data)

    def experiments(
        self,
        state: ExperimentState | str | list[ExperimentState | str] | None = None,
        label: dict[str, str] | None = None,
    ) -> list[Experiment]:
        """Experiments, newest first, every page fetched; filter by state(s) and labels.

        Example::

            client.experiments(state=["running", "queued"], label={"team": "vision"})
        """
        states = [state] if isinstance(state, str) else list(state or [])
        params = {
            "state": [str(s) for s in states],
            "label": [f"{key}:{value}" for key, value in (label or {}).items()],
            **self._in_project(),
        }
        return [
            Experiment(self, ExperimentRead.model_validate(item))
            for item in self.pages("/experiments", params)
        ]


def pack_directory(directory: Path) -> bytes:
    """A zip of the directory's files, paths relative to it; skips hidden files and directories
    (``.git``, ``.venv``) and ``__pycache__``."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for file in sorted(directory.rglob("*")):
            relative = file.relative_to(directory)
            skipped = any(part.startswith(".") or part == "__pycache__" for part in relative.parts)
            if file.is_file() and not skipped:
                archive.write(file, relative.as_posix())
    return buffer.getvalue()
