"""Reject request bodies over a size limit before they are read into memory."""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from raysweep.errors import ErrorBody, ErrorResponse


class BodyTooLarge(HTTPException):
    """An HTTPException, so that FastAPI, reading a body for a route, passes it on as the 413
    it is (it turns other exceptions while reading into a 400)."""

    def __init__(self, max_bytes: int):
        super().__init__(413, too_large_message(max_bytes))


def too_large_message(max_bytes: int) -> str:
    return f"request body is over {max_bytes} bytes"


class BodyLimitMiddleware:
    """``max_bytes`` for every request, except paths starting with a key of ``limits``."""

    def __init__(self, app: ASGIApp, max_bytes: int, limits: dict[str, int] | None = None):
        self.app, self.max_bytes, self.limits = app, max_bytes, limits or {}

    def limit_for(self, path: str) -> int:
        return next(
            (limit for prefix, limit in self.limits.items() if path.startswith(prefix)),
            self.max_bytes,
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        max_bytes = self.limit_for(scope["path"])
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > max_bytes:
            await self._reject(send, max_bytes)
            return
        received = 0

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            received += len(message.get("body", b""))
            if received > max_bytes:
                raise BodyTooLarge(max_bytes)
            return message

        try:
            await self.app(scope, limited_receive, send)
        except BodyTooLarge:
            await self._reject(send, max_bytes)

    async def _reject(self, send: Send, max_bytes: int) -> None:
        body = ErrorResponse(
            error=ErrorBody(code="too_large", message=too_large_message(max_bytes))
        )
        payload = body.model_dump_json().encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(payload)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": payload})
