"""``raysweep webhooks``: a project's webhooks, their delivery log and test deliveries."""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from rich.table import Table

from raysweep.cli_output import UsageError, console
from raysweep.client import Client
from raysweep.webhooks import DeliveryRead, WebhookEvent

ACTIONS = {"ls": 0, "add": None, "rm": 1, "test": 1, "deliveries": 1}
TEST_WAIT_S = 30.0


def add_webhooks_command(add: Callable[..., argparse.ArgumentParser]) -> None:
    command = add(
        "webhooks",
        "A project's webhooks (--project, default: default): ls | add URL EVENT... | rm ID | "
        "test ID (send a signed test delivery and wait for its outcome) | deliveries ID. "
        f"Events: {', '.join(WebhookEvent)}, or all.",
        with_id=False,
    )
    command.add_argument("action", choices=tuple(ACTIONS))
    command.add_argument("names", nargs="*", help="The action's arguments.")
    command.add_argument("--secret", help="With add: the signing secret (default: made for you).")
    command.add_argument(
        "--format", choices=("json", "slack"), help="With add: slack for a Slack incoming webhook."
    )


def webhooks_command(client: Client, args: argparse.Namespace, as_json: bool) -> Any:
    needed = ACTIONS[args.action]
    if (needed is None and len(args.names) < 2) or (
        needed is not None and len(args.names) != needed
    ):
        raise UsageError(f"webhooks {args.action}: wrong arguments; see --help")
    project = client.project or "default"
    if args.action == "ls":
        hooks = client.webhooks(project)
        if as_json:
            return hooks
        table = Table("id", "url", "events", "format", "enabled", "secret")
        for hook in hooks:
            table.add_row(
                str(hook.id),
                hook.url,
                ", ".join(hook.events),
                hook.format,
                str(hook.enabled).lower(),
                hook.secret_hint,
            )
        console.print(table)
        return None
    if args.action == "add":
        events = list(WebhookEvent) if args.names[1:] == ["all"] else args.names[1:]
        options = {k: v for k, v in (("secret", args.secret), ("format", args.format)) if v}
        created = client.create_webhook(project, args.names[0], events, **options)
        if as_json:
            return created
        console.print(f"webhook {created.id} of project {project}: {created.url}")
        if created.secret:
            console.print(f"secret (shown once): {created.secret}")
        return None
    webhook_id = webhook_number(args.names[0])
    if args.action == "rm":
        client.delete_webhook(project, webhook_id)
        return {"deleted": webhook_id} if as_json else None
    if args.action == "test":
        return shown_deliveries([waited_test(client, project, webhook_id)], as_json)
    return shown_deliveries(client.webhook_deliveries(project, webhook_id), as_json)


def webhook_number(text: str) -> int:
    if not (text.isascii() and text.isdigit()):
        raise UsageError(f"webhooks: the webhook id is a number, not {text!r}")
    return int(text)


def waited_test(client: Client, project: str, webhook_id: int) -> DeliveryRead:
    """The test delivery once its first attempt is recorded (or as it is after 30 s)."""
    queued = client.test_webhook(project, webhook_id)
    deadline = time.monotonic() + TEST_WAIT_S
    while time.monotonic() < deadline:
        time.sleep(0.5)
        for delivery in client.webhook_deliveries(project, webhook_id, limit=20):
            # an attempt is recorded: it ended the delivery, or left an error and a retry
            if delivery.id == queued.id and (delivery.state.is_final or delivery.error):
                return delivery
    return queued


def shown_deliveries(deliveries: list[DeliveryRead], as_json: bool) -> Any:
    if as_json:
        return deliveries
    table = Table("id", "event", "state", "attempts", "code", "error", "created", "last attempt")
    for d in deliveries:
        table.add_row(
            str(d.id),
            d.event,
            d.state.value,
            str(d.attempts),
            "" if d.response_code is None else str(d.response_code),
            d.error or "",
            f"{d.created_at:%Y-%m-%d %H:%M:%S}",
            "" if d.last_attempt_at is None else f"{d.last_attempt_at:%Y-%m-%d %H:%M:%S}",
        )
    console.print(table)
    return None
