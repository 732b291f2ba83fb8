"""Cron expressions in a time zone, via cronsim (daylight-saving changes handled: a time that
does not exist that day fires at the first valid minute after it, a repeated hour fires once)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from functools import cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from cronsim import CronSim, CronSimError

# a schedule firing more often than this would flood the sweep cluster; cron's finest is 1/min
MAX_DUE_TIMES = 10_000


def cron_problem(expression: str, timezone: str) -> dict[str, str]:
    """{field: message} for a bad cron expression or time zone; empty when both are fine."""
    problems = {}
    try:
        if timezone not in zone_names():  # ZoneInfo opens any path under the zone directory
            raise ZoneInfoNotFoundError(timezone)
        zone = ZoneInfo(timezone)
    except (ZoneInfoNotFoundError, ValueError):
        close = sorted(z for z in zone_names() if timezone.lower()[:64] in z.lower())[:5]
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        problems["timezone"] = f"unknown time zone {timezone!r}{hint}"
        zone = ZoneInfo("UTC")
    try:
        CronSim(expression, datetime.now(zone))
    except (CronSimError, ValueError) as error:
        problems["cron"] = f"not a cron expression ({error}): e.g. '0 3 * * *' for 03:00 daily"
    return problems


@cache
def zone_names() -> frozenset[str]:
    """The IANA zone names this machine knows; "America" (a directory) or a 10 kB string is
    none of them."""
    return frozenset(available_timezones())


def due_times(expression: str, timezone: str, after: datetime) -> Iterator[datetime]:
    """The expression's times strictly after ``after``, in UTC."""
    zone = ZoneInfo(timezone)
    start = after.astimezone(zone)
    for moment in CronSim(expression, start):
        if moment > start:
            yield moment.astimezone(UTC)


def next_due(expression: str, timezone: str, after: datetime) -> datetime:
    return next(due_times(expression, timezone, after))


def due_between(expression: str, timezone: str, first: datetime, until: datetime) -> list[datetime]:
    """Due times from ``first`` (itself due) up to and including ``until``."""
    times: list[datetime] = []
    for moment in due_times(expression, timezone, first - timedelta(seconds=1)):
        if moment > until or len(times) >= MAX_DUE_TIMES:
            break
        times.append(moment)
    return times
