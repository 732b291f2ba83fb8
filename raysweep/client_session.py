"""What every call of the SDK's ``Client`` goes through: the connection (URL, token, project),
one API request with retries, paged listings, and the SDK's exception for an error answer."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator, Mapping
from typing import Any, Self

import httpx

from raysweep.config import resolve
from raysweep.errors import (
    AuthError,
    Conflict,
    ErrorResponse,
    NotFound,
    Problem,
    RaysweepError,
    SpecError,
    Unreachable,
)

RETRY_DELAYS_S = (0.5, 1.0, 2.0, 4.0)
PAGE = 500


class ApiSession:
    """A connection to a raysweep server (``Client`` documents its arguments)."""

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

    def __enter__(self) -> Self:
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

    def _in_project(self) -> dict[str, str]:
        return {"project": self.project} if self.project else {}


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
