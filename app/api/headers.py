"""Security headers on every HTTP response of the one port: pages, the REST API and downloads.

The pages are a React app compiled by Reflex: it hydrates with inline scripts, styles components
inline and runs `rx.call_script` through `eval`, so scripts and styles allow 'unsafe-inline' (and
scripts 'unsafe-eval'); everything else comes from the app's own origin only, the state travels
over the same origin's websocket, and no other site may frame the app (clickjacking)."""
from __future__ import annotations

from typing import Any

CONTENT_SECURITY_POLICY = "; ".join((
    "default-src 'self'",
    "script-src 'self' 'unsafe-inline' 'unsafe-eval'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self' ws: wss:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
))

SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
    (b"x-content-type-options", b"nosniff"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=()"),
)

class RequestOrigin:
    """ASGI middleware: the caller's address for the audit trail of this request."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope.get("type") == "http":
            from app.services import audit

            client = scope.get("client")
            audit.set_origin(client[0] if client else None)
        await self.app(scope, receive, send)


class SecurityHeaders:
    """ASGI middleware: adds SECURITY_HEADERS to each HTTP response that does not set them itself
    (websocket traffic passes untouched). Added to the API app, it also covers the pages and the
    Reflex backend mounted inside it on the one port."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope.get("type") != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: dict) -> None:
            if message.get("type") == "http.response.start":
                headers = list(message.get("headers") or [])
                present = {name.lower() for name, _ in headers}
                headers += [(name, value) for name, value in SECURITY_HEADERS if name not in present]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)
