"""The ``Client``'s calls for logs: a trial's, a final run's and a sweep driver's, one answer
at a time or followed as they are written."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from raysweep.client_session import ApiSession
from raysweep.logs import LogLine, TrialLogs

# how long each follow request waits for new lines (within the client's 30 s timeout)
FOLLOW_WAIT_S = 20.0


class LogCalls(ApiSession):
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
