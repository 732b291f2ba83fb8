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
import os
import time
import warnings
import zipfile
from collections.abc import Iterator, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

from raysweep.code_ref import CodePackageRead
from raysweep.config import resolve
from raysweep.errors import (
    AuthError,
    Conflict,
    ErrorResponse,
    NotFound,
    Problem,
    RaysweepError,
    SpecError,
    SubmitNote,
    Unreachable,
)
from raysweep.experiment import Experiment
from raysweep.lifecycle import ExperimentState
from raysweep.logs import LogLine, TrialLogs
from raysweep.projects import ProjectRead, UsageRead
from raysweep.registry import AliasRead, FinalRunRead, ModelRead, ModelVersionRead
from raysweep.schedules import ScheduleFiringRead, ScheduleRead
from raysweep.schemas import ExperimentRead, ResultRead
from raysweep.spec import ExperimentSpec
from raysweep.spec_reader import read_mapping
from raysweep.tensorboard import TensorBoardRuns
from raysweep.webhooks import DeliveryRead, WebhookCreated, WebhookRead

RETRY_DELAYS_S = (0.5, 1.0, 2.0, 4.0)
PAGE = 500


# how long each follow request waits for new lines (within the client's 30 s timeout)
FOLLOW_WAIT_S = 20.0


class Client:
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

    def __init__(
        self,
        url: str | None = None,
        token: str | None = None,
        timeout_s: float = 30,
        project: str | None = None,
    ):
        # with a project, sweeps, code and schedules are created in it and lists show only
        # its objects; without one, the server creates in the token's project (a token of one
        # project) or `default`, and lists show every project the token has a role in
        self.project = project or os.environ.get("RAYSWEEP_PROJECT") or None
        connection = resolve(url, token)
        self.url = connection.url
        self.token_source = connection.source
        headers = {"Authorization": f"Bearer {connection.token}"} if connection.token else {}
        self._http = httpx.Client(base_url=self.url, headers=headers, timeout=timeout_s)

    def __repr__(self) -> str:
        return f"Client({self.url!r}, token from {self.token_source})"

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    # --- transport -------------------------------------------------------------------------

    def request(
        self,
        method: str,
        path: str,
        *,
        params: Mapping[str, Any] | None = None,
        body: Any = None,
        content: bytes | None = None,
        content_type: str = "application/octet-stream",
    ) -> Any:
        """One API call under ``/api/v1`` with a JSON ``body`` or raw ``content``; returns the
        decoded JSON (None for 204)."""
        url = f"/api/v1{path}"
        headers = {"Content-Type": content_type} if content is not None else None
        for attempt, delay in enumerate((*RETRY_DELAYS_S, None)):
            try:
                response = self._http.request(
                    method, url, params=params, json=body, content=content, headers=headers
                )
                break
            except httpx.TransportError as error:
                # a read may always be repeated; a write only if it never reached the server
                safe = method == "GET" or isinstance(error, httpx.ConnectError)
                if not safe or delay is None:
                    raise Unreachable(
                        f"cannot reach {self.url} ({type(error).__name__}: {error})"
                        + (f" after {attempt + 1} attempts" if safe else "")
                    ) from None
                time.sleep(delay)
        if response.status_code >= 400:
            raise error_from(response)
        return None if response.status_code == 204 else response.json()

    def pages(self, path: str, params: Mapping[str, Any] | None = None) -> Iterator[Any]:
        """Every item of a paginated listing, fetched a page at a time."""
        offset = 0
        while True:
            page = self.request(
                "GET", path, params={**(params or {}), "limit": PAGE, "offset": offset}
            )
            yield from page["items"]
            offset += len(page["items"])
            if not page["items"] or offset >= page["total"]:
                return

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

    def _in_project(self) -> dict[str, str]:
        return {"project": self.project} if self.project else {}

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

    # --- schedules ---------------------------------------------------------------------------

    def create_schedule(
        self,
        name: str,
        cron: str,
        spec: Mapping[str, Any] | str | Path | None = None,
        *,
        retrain: Mapping[str, Any] | None = None,
        **options: Any,
    ) -> ScheduleRead:
        """A cron schedule: with ``spec`` (a dict or a YAML/JSON file) it submits a new sweep at
        each due time; with ``retrain`` (``model``, and optionally ``alias``, ``margin``,
        ``epochs``, ``num_workers``, ``cluster``, ``retune``) it retrains that model's
        production version and promotes the result only if it wins on the held-out test
        metric. ``options``: timezone, enabled, overlap, misfire.

        Example::

            client.create_schedule("nightly", "0 3 * * *", "sweep.yaml",
                                   timezone="Europe/Berlin", overlap="queue")
            client.create_schedule("weekly", "0 4 * * 1",
                                   retrain={"model": "digits", "margin": 0.005})
        """
        body: dict[str, Any] = {"name": name, "cron": cron, **self._in_project(), **options}
        if spec is not None:
            body["spec"] = read_mapping(spec) if isinstance(spec, str | Path) else dict(spec)
        if retrain is not None:
            body["kind"], body["retrain"] = "retrain", dict(retrain)
        return ScheduleRead.model_validate(self.request("POST", "/schedules", body=body))

    def schedules(self) -> list[ScheduleRead]:
        pages = self.pages("/schedules", self._in_project())
        return [ScheduleRead.model_validate(item) for item in pages]

    def set_schedule_enabled(self, schedule_id: str, enabled: bool) -> ScheduleRead:
        """Pause (``False``) or resume (``True``; times missed while paused do not fire)."""
        data = self.request("PATCH", f"/schedules/{schedule_id}", body={"enabled": enabled})
        return ScheduleRead.model_validate(data)

    def schedule_firings(self, schedule_id: str) -> list[ScheduleFiringRead]:
        """Every firing, newest first: scheduled and actual time, outcome, the sweep or final
        run it started."""
        pages = self.pages(f"/schedules/{schedule_id}/firings")
        return [ScheduleFiringRead.model_validate(item) for item in pages]

    def delete_schedule(self, schedule_id: str) -> None:
        self.request("DELETE", f"/schedules/{schedule_id}")

    # --- webhooks ----------------------------------------------------------------------------

    def create_webhook(
        self, project: str, url: str, events: list[str], **options: Any
    ) -> WebhookCreated:
        """A webhook of ``project`` (member): ``events`` (``raysweep.webhooks.WebhookEvent``
        values) POSTed to ``url``, signed. ``options``: ``secret`` (default: the server makes
        one, returned here once), ``format`` (``json`` or ``slack``), ``enabled``.

        Example::

            hook = client.create_webhook("default", "https://ci.example/hook",
                                         ["sweep.completed", "sweep.failed"])
            print(hook.secret)  # keep it: verify deliveries with raysweep.webhooks
        """
        body = {"url": url, "events": list(events), **options}
        data = self.request("POST", f"/projects/{project}/webhooks", body=body)
        return WebhookCreated.model_validate(data)

    def webhooks(self, project: str) -> list[WebhookRead]:
        """The project's webhooks, URLs and secrets redacted."""
        items = self.request("GET", f"/projects/{project}/webhooks")
        return [WebhookRead.model_validate(item) for item in items]

    def update_webhook(self, project: str, webhook_id: int, **changes: Any) -> WebhookRead:
        """Change ``url``, ``events``, ``secret``, ``format`` or ``enabled``."""
        data = self.request("PATCH", f"/projects/{project}/webhooks/{webhook_id}", body=changes)
        return WebhookRead.model_validate(data)

    def delete_webhook(self, project: str, webhook_id: int) -> None:
        self.request("DELETE", f"/projects/{project}/webhooks/{webhook_id}")

    def test_webhook(self, project: str, webhook_id: int) -> DeliveryRead:
        """Queue a ``webhook.test`` delivery; see ``webhook_deliveries`` for how it went."""
        data = self.request("POST", f"/projects/{project}/webhooks/{webhook_id}/test")
        return DeliveryRead.model_validate(data)

    def webhook_deliveries(
        self, project: str, webhook_id: int, limit: int = 50
    ) -> list[DeliveryRead]:
        """The webhook's latest ``limit`` deliveries, newest first: state, attempts, response
        code, error, times."""
        page = self.request(
            "GET",
            f"/projects/{project}/webhooks/{webhook_id}/deliveries",
            params={"limit": limit},
        )
        return [DeliveryRead.model_validate(item) for item in page["items"]]

    # --- logs --------------------------------------------------------------------------------

    def trial_logs(
        self,
        trial_id: int,
        *,
        rank: int | None = None,
        attempt: int | None = None,
        after: str | None = None,
        limit: int = 1000,
        wait_s: float = 0,
        tail: bool = False,
    ) -> TrialLogs:
        """What a trial's workers printed, oldest first (``attempt`` -1: the latest); pass
        ``logs.cursor`` back as ``after`` for newer lines only, with ``wait_s`` to wait for
        them (a long poll); ``tail``: the last ``limit`` lines instead of the first."""
        path = f"/trials/{trial_id}/logs"
        return self.logs_at(path, rank, attempt, after, limit, wait_s, tail)

    def final_run_logs(
        self,
        final_run_id: int,
        *,
        rank: int | None = None,
        attempt: int | None = None,
        after: str | None = None,
        limit: int = 1000,
        wait_s: float = 0,
        tail: bool = False,
    ) -> TrialLogs:
        """What a final run's workers printed, as ``trial_logs``."""
        path = f"/final-runs/{final_run_id}/logs"
        return self.logs_at(path, rank, attempt, after, limit, wait_s, tail)

    def driver_logs(
        self,
        experiment_id: str,
        *,
        attempt: int | None = None,
        after: str | None = None,
        limit: int = 1000,
        wait_s: float = 0,
        tail: bool = False,
    ) -> TrialLogs:
        """What a sweep's drivers printed (an attempt per driver job), as ``trial_logs``."""
        path = f"/experiments/{experiment_id}/driver-logs"
        return self.logs_at(path, None, attempt, after, limit, wait_s, tail)

    def follow_trial_logs(
        self, trial_id: int, *, rank: int | None = None, attempt: int | None = None
    ) -> Iterator[LogLine]:
        """Every line of the trial's logs, then each new one as its workers write it, until the
        trial has ended and every line was given::

            for line in client.follow_trial_logs(trial.id, rank=0):
                print(line.rank, line.text)
        """
        return self.follow_logs(f"/trials/{trial_id}/logs", rank=rank, attempt=attempt)

    def follow_logs(
        self,
        path: str,
        *,
        rank: int | None = None,
        attempt: int | None = None,
        last: int | None = None,
    ) -> Iterator[LogLine]:
        """Every line of the logs at ``path`` (``/trials/3/logs``, ``/final-runs/2/logs``,
        ``/experiments/ID/driver-logs``), or only the ``last`` ones so far, then each new one,
        until what wrote them has ended and every line was given."""
        after: str | None = None
        if last is not None:
            first = self.logs_at(path, rank, attempt, None, last, 0, tail=True)
            yield from first.lines
            after = first.cursor or None
        while True:
            logs = self.logs_at(path, rank, attempt, after, 1000, FOLLOW_WAIT_S)
            yield from logs.lines
            after = logs.cursor or after
            if not logs.running and not logs.more and not logs.lines:
                return

    def logs_at(
        self,
        path: str,
        rank: int | None = None,
        attempt: int | None = None,
        after: str | None = None,
        limit: int = 1000,
        wait_s: float = 0,
        tail: bool = False,
    ) -> TrialLogs:
        """The logs at an API ``path`` (as ``follow_logs`` names them), one answer."""
        params: dict[str, Any] = {"limit": limit, "wait_s": wait_s}
        if tail:
            params["tail"] = True
        for name, value in (("rank", rank), ("attempt", attempt), ("after", after)):
            if value is not None:
                params[name] = value
        return TrialLogs.model_validate(self.request("GET", path, params=params))

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


def error_from(response: httpx.Response) -> RaysweepError:
    """The SDK's exception for an error response (its body is the API's one error shape)."""
    try:
        error = ErrorResponse.model_validate(response.json()).error
        message, code, details = error.message, error.code, error.details
    except ValueError:
        message, code, details = response.text[:500] or response.reason_phrase, None, []
    status = response.status_code
    if code == "validation_error" and response.request.method == "POST":
        # labelled by what failed: only a submitted spec is an "invalid spec"; a promotion's
        # or an extension's problems come under the server's own words for them
        submitted = response.request.url.path.rstrip("/").endswith("/experiments")
        title = "invalid spec" if submitted else message if details else "refused"
        return SpecError(details or [Problem(path="", message=message)], status, title)
    kind: type[RaysweepError] = {401: AuthError, 403: AuthError, 404: NotFound, 409: Conflict}.get(
        status, RaysweepError
    )
    return kind(f"{message} (HTTP {status})", status=status, code=code, details=details)


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
