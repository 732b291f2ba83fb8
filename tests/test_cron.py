"""Cron expressions in time zones (cronsim), across daylight-saving changes."""

from __future__ import annotations

from datetime import UTC, datetime
from itertools import islice

from service.cron import cron_problem, due_between, due_times, next_due


def utc(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=UTC)


def test_a_daily_time_in_berlin_across_spring_forward_and_fall_back() -> None:
    spring = list(islice(due_times("30 2 * * *", "Europe/Berlin", utc(2026, 3, 27, 12)), 3))
    # 02:30 does not exist on 29 March (02:00 -> 03:00): it fires at 03:00 CEST (01:00 UTC)
    assert spring == [utc(2026, 3, 28, 1, 30), utc(2026, 3, 29, 1, 0), utc(2026, 3, 30, 0, 30)]
    autumn = list(islice(due_times("30 2 * * *", "Europe/Berlin", utc(2026, 10, 24, 12)), 3))
    # 02:30 happens twice on 25 October: it fires once, at the first (CEST)
    assert autumn == [utc(2026, 10, 25, 0, 30), utc(2026, 10, 26, 1, 30), utc(2026, 10, 27, 1, 30)]


def test_an_hourly_schedule_in_new_york_keeps_every_real_hour_once() -> None:
    start, end = utc(2026, 11, 1, 4, 0), utc(2026, 11, 1, 8, 0)  # 00:00 EDT .. 03:00 EST
    fired = due_between("0 * * * *", "America/New_York", start, end)
    # 01:00 local happens twice (EDT, then EST): an hourly job runs every real hour, 5 in 4h
    assert fired == [utc(2026, 11, 1, h, 0) for h in (4, 5, 6, 7, 8)]
    assert next_due("*/15 * * * *", "UTC", utc(2026, 1, 1, 0, 7)) == utc(2026, 1, 1, 0, 15)
    assert next_due("0 9 * * 1-5", "Asia/Tokyo", utc(2026, 11, 20, 23, 0)) == utc(2026, 11, 23, 0)


def test_bad_cron_and_time_zones_are_named() -> None:
    assert cron_problem("0 3 * * *", "Europe/Berlin") == {}
    problems = cron_problem("61 * * * *", "Europe/Berln")
    assert "Bad minute" in problems["cron"] and "e.g. '0 3 * * *'" in problems["cron"]
    assert problems["timezone"] == "unknown time zone 'Europe/Berln'"
    assert "cron" in cron_problem("every day", "UTC")
    assert "cron" in cron_problem("* * * *", "UTC")
    assert "did you mean" in cron_problem("0 3 * * *", "berlin")["timezone"]
