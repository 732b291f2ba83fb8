"""A Ray job's way to the API: what a sweep's driver or a final run's job reads and stores,
over HTTP with the job's own token (``service.usecases.job_tokens``). Jobs hold no database
credentials: the member's code they run could read them.

Every call waits out an API or database outage the way the driver's own transactions did:
retried with backoff while the server cannot be reached or answers 502/503/504 (a database
outage is a 503), up to ``patience_s``; a 4xx is the caller's mistake or a revoked token and
raises at once.
"""

from __future__ import annotations

import logging
import os
import time
from typing import Any, TypeVar

import httpx
from pydantic import TypeAdapter
from pydantic_core import to_json

from service.engine.launcher import API_URL_ENV, JOB_TOKEN_ENV

log = logging.getLogger(__name__)
T = TypeVar("T")
# how long a call waits out an unreachable API or database before giving up
OUTAGE_TIMEOUT_S = 600
# one request's own limit: a batch of results is stored in well under this
REQUEST_TIMEOUT_S = 120
RETRIED_STATUSES = frozenset({502, 503, 504})


class Unavailable(RuntimeError):
    """The API could not be reached, or answered that it (or its database) is unavailable."""


class Refused(RuntimeError):
    """The API refused the call (a 4xx): a revoked token (the sweep ended, or another driver
    replaced this one), or a request it cannot take."""

    def __init__(self, status: int, message: str):
        super().__init__(f"{status}: {message}")
        self.status = status


class JobApi:
    def __init__(
        self,
        url: str,
        token: str,
        patience_s: float = OUTAGE_TIMEOUT_S,
        transport: httpx.BaseTransport | None = None,
    ):
        """``transport``: httpx's own unless given (a test's, to lose answers)."""
        self.url, self.token, self.patience_s = url.rstrip("/"), token, patience_s
        self._client = httpx.Client(
            base_url=f"{self.url}/api/v1/jobs",
            headers={"Authorization": f"Bearer {token}"},
            timeout=REQUEST_TIMEOUT_S,
            # the job's environment may name proxies for the user's code; the API is ours
            trust_env=False,
            transport=transport,
        )

    @classmethod
    def from_environment(cls) -> JobApi:
        return cls(os.environ[API_URL_ENV], os.environ[JOB_TOKEN_ENV])

    def close(self) -> None:
        self._client.close()

    def call(
        self,
        method: str,
        path: str,
        answer: type[T] | Any = None,
        body: Any = None,
        patient: bool = True,
        **params: Any,
    ) -> T:
        """``method path`` with ``body`` as JSON (bytes: JSON already; else encoded by
        pydantic-core: dataclasses, enums, dicts); the answer as ``answer`` (a type pydantic
        validates; None: nothing). ``patient``: wait out an outage, else one try."""
        content = None if body is None else body if isinstance(body, bytes) else to_json(body)
        headers = {"Content-Type": "application/json"} if content is not None else None
        deadline, backoff = time.monotonic() + self.patience_s, 0.5
        while True:
            try:
                response = self._client.request(
                    method,
                    path,
                    content=content,
                    headers=headers,
                    params={k: v for k, v in params.items() if v is not None},
                )
                if response.status_code not in RETRIED_STATUSES:
                    break
                problem = f"{response.status_code} {response.text[:200]}"
            except httpx.TransportError as error:
                problem = f"{type(error).__name__}: {error}"
            if not patient or time.monotonic() + backoff > deadline:
                raise Unavailable(f"{method} {path}: {problem}")
            log.warning("%s %s: API unavailable (%s); retrying", method, path, problem)
            time.sleep(backoff)
            backoff = min(backoff * 2, 10.0)
        if response.status_code >= 400:
            raise Refused(response.status_code, response.text[:500])
        if answer is None or response.status_code == 204:
            return None  # type: ignore[return-value]
        validated: T = TypeAdapter(answer).validate_python(response.json())
        return validated
