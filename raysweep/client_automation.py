"""The ``Client``'s calls for what runs on its own: cron schedules (sweeps and retrains) and
project webhooks."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from raysweep.client_session import ApiSession
from raysweep.schedules import ScheduleFiringRead, ScheduleRead
from raysweep.spec_reader import read_mapping
from raysweep.webhooks import DeliveryRead, WebhookCreated, WebhookRead


class AutomationCalls(ApiSession):
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
