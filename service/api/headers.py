"""Security headers on every response, a plain ASGI middleware like the body limit. The web UI
is served from the same origin as the API and loads nothing from elsewhere, so its policy allows
only this origin; the API docs (`/docs`, `/redoc`) load FastAPI's Swagger/ReDoc assets from
their CDN and get every header but the content policy."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

# inline styles: the charts set style attributes; nothing else is inline
CONTENT_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
ALWAYS = [
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
]
DOCS_PATHS = ("/docs", "/redoc")


class SecurityHeadersMiddleware:
    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        added = list(ALWAYS)
        if not scope["path"].startswith(DOCS_PATHS):
            added.append((b"content-security-policy", CONTENT_POLICY.encode()))

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *added]
            await send(message)

        await self.app(scope, receive, send_with_headers)
