"""The REST API under /api, mounted into the Reflex app (one port). Thin: parse -> service -> envelope."""
from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.api import auth, firms, system, users
from app.api import industry_groups
from app.api import recommendations
from app.api import models as models_api
from app.api import assets as assets_api
from app.api import holdings as holdings_api
from app.api import investments as investments_api
from app.api import deposits as deposits_api
from app.api import transactions as transactions_api
from app.api import advice as advice_api
from app.api import reports as reports_api
from app.api import advice_reports as advice_reports_api
from app.api import audit as audit_api
from app.api import performance as performance_api
from app.api import broker_credentials as broker_credentials_api
from app.api import tax as tax_api
from app.api.headers import RequestOrigin, SecurityHeaders
from app.api.schemas import ERROR_STATUSES, ErrorEnvelope
from app.domain.errors import GENERIC, INVALID_FORM, DomainError

log = logging.getLogger(__name__)


def _failure(status: int, kind: str, message: str, fields: dict | None = None, result: Any = None) -> JSONResponse:
    body: dict[str, Any] = {"success": False, "message": f"{kind}: {message}"}
    if fields:
        body["errors"] = fields
    if result is not None:
        body["result"] = result
    return JSONResponse(body, status_code=status)


class RefuseNul:
    """A NUL character in the path or the query names nothing and cannot be stored or searched for
    (PostgreSQL text refuses it): such a request answers 400 before it reaches a router."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and ("\x00" in scope.get("path", "")
                                        or b"%00" in scope.get("query_string", b"")
                                        or b"\x00" in scope.get("query_string", b"")):
            response = _failure(400, "ValidationError", INVALID_FORM)
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)


# The largest body a call may send: the largest upload (an asset price file, 10 MB) and its form.
MAX_BODY_BYTES = 11 * 1024 * 1024
BODY_TOO_LARGE = "The request is too large: the limit is 11 MB"


class BodyTooLarge(Exception):
    """The body streamed past MAX_BODY_BYTES."""


class LimitBody:
    """A body over MAX_BODY_BYTES answers 400 before a byte of it is read when its Content-Length
    says so, or as soon as the bytes streamed reach the limit: an upload far over its route's own
    limit is never parsed or spooled to disk. (Each upload route still refuses a file just over its
    own, smaller limit with its own text.)"""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length", b"")
        if declared.isdigit() and int(declared) > MAX_BODY_BYTES:
            response = _failure(400, "ValidationError", BODY_TOO_LARGE, {"file": BODY_TOO_LARGE})
            await response(scope, receive, send)
            return
        seen = 0

        async def limited():
            nonlocal seen
            message = await receive()
            if message.get("type") == "http.request":
                seen += len(message.get("body", b""))
                if seen > MAX_BODY_BYTES:
                    raise BodyTooLarge()
            return message

        await self.app(scope, limited, send)


def create_api() -> FastAPI:
    api = FastAPI(
        title="Wealth Advice API",
        version="1.0",
        openapi_url="/api/openapi.json",
        docs_url="/api/docs",
        redoc_url=None,
    )
    api.add_middleware(LimitBody)  # innermost: its 400 still gets the security headers
    api.add_middleware(RefuseNul)
    api.add_middleware(SecurityHeaders)
    api.add_middleware(RequestOrigin)

    # The one error handler: every failure leaves as {"success": false, "message": "<Kind>: <text>"}.
    @api.exception_handler(DomainError)
    async def _domain_error(_: Request, exc: DomainError):
        return _failure(exc.status, exc.kind, exc.message, exc.fields, exc.result)

    @api.exception_handler(RequestValidationError)
    async def _bad_request(_: Request, exc: RequestValidationError):
        fields = {".".join(str(p) for p in e["loc"][1:]) or "body": e["msg"] for e in exc.errors()}
        return _failure(400, "ValidationError", INVALID_FORM, fields)

    @api.exception_handler(BodyTooLarge)
    async def _body_too_large(_: Request, exc: BodyTooLarge):
        return _failure(400, "ValidationError", BODY_TOO_LARGE, {"file": BODY_TOO_LARGE})

    @api.exception_handler(StarletteHTTPException)
    async def _http_error(_: Request, exc: StarletteHTTPException):
        if isinstance(exc.__cause__, BodyTooLarge):  # FastAPI reports a body it failed to read as a 400
            return _failure(400, "ValidationError", BODY_TOO_LARGE, {"file": BODY_TOO_LARGE})
        kind = {404: "NotFoundError", 405: "MethodNotAllowed"}.get(exc.status_code, "Error")
        return _failure(exc.status_code, kind, str(exc.detail))

    @api.exception_handler(Exception)
    async def _unexpected(_: Request, exc: Exception):
        log.exception("unhandled error", exc_info=exc)
        return _failure(500, "ServerError", GENERIC)

    for module in (system, auth, users, firms, industry_groups, recommendations, models_api, assets_api, holdings_api,
                   investments_api):
        api.include_router(module.router, prefix="/api")
    api.include_router(deposits_api.router, prefix="/api")
    api.include_router(transactions_api.router, prefix="/api")
    api.include_router(advice_api.router, prefix="/api")
    api.include_router(reports_api.router, prefix="/api")
    api.include_router(advice_reports_api.router, prefix="/api")
    api.include_router(audit_api.router, prefix="/api")
    api.include_router(performance_api.router, prefix="/api")
    api.include_router(broker_credentials_api.router, prefix="/api")
    api.include_router(tax_api.router, prefix="/api")
    _document_failures(api)
    return api


def _document_failures(api: FastAPI) -> None:
    """Every operation documents the failure envelope under the statuses the API answers with.
    FastAPI's default 422 is replaced: a request that fails validation answers 400 (above)."""
    from fastapi.openapi.utils import get_openapi

    def openapi() -> dict:
        if api.openapi_schema:
            return api.openapi_schema
        schema = get_openapi(title=api.title, version=api.version, routes=api.routes,
                             description="Every answer is an envelope: {\"success\": true, \"result\": ...} or "
                                         "{\"success\": false, \"message\": \"<ErrorKind>: <text>\"}. "
                                         "Sign in with POST /api/signin and send the token in the x-token header.")
        components = schema.setdefault("components", {}).setdefault("schemas", {})
        components["ErrorEnvelope"] = ErrorEnvelope.model_json_schema(ref_template="#/components/schemas/{model}")
        for name in ("HTTPValidationError", "ValidationError"):
            components.pop(name, None)
        failure = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorEnvelope"}}}}
        for item in schema.get("paths", {}).values():
            for operation in item.values():
                responses = operation.setdefault("responses", {})
                responses.pop("422", None)
                for status, text in ERROR_STATUSES.items():
                    responses.setdefault(status, {"description": text, **failure})
        api.openapi_schema = schema
        return schema

    api.openapi = openapi  # type: ignore[method-assign]
