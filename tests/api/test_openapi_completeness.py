"""Every operation of /api/openapi.json describes what an integrator sends and receives, so that a
new route cannot slip in untyped:

- a JSON answer has a response model (a non-empty schema under application/json for 200), and the
  route declares it (`response_model=`); file downloads name their media types instead;
- an operation that takes a body documents it: FastAPI's body parameters, or for a handler that
  reads its multipart form or JSON itself, `openapi_extra=read_by_hand(...)` (app.api.schemas);
  every media type of a documented body has a non-empty schema, and a multipart one a binary
  file part where it is an upload;
- a POST, PUT or PATCH without a body is listed in NO_BODY with what it acts on.
"""
from __future__ import annotations

import inspect

import pytest
from fastapi import Request
from fastapi.routing import APIRoute

from app.api.main import create_api

JSON = "application/json"

# Writes that take no body: the path names everything they act on.
NO_BODY: dict[tuple[str, str], str] = {
    ("POST", "/api/signout"): "ends the session of the x-token header",
    ("POST", "/api/investments/{investment_id}/target-portfolio"): "calculates a new version from the portfolio",
    ("PUT", "/api/investments/{investment_id}/unlinkModel"): "unlinks the portfolio's model",
    ("POST", "/api/bulk-runs/{run_id}/resume"): "starts the run's pending items again",
    ("POST", "/api/target-portfolios/{tp_id}/email"): "sends the record of advice again to those its switches name",
    ("POST", "/api/trade-instructions/{ti_id}/email"): "sends the trade recommendations again to those its switches name",
}

API = create_api()
SCHEMA = API.openapi()


def _routes() -> list[tuple[str, str, APIRoute]]:
    out = []
    for route in API.routes:
        contexts = route.effective_route_contexts() if hasattr(route, "effective_route_contexts") else [route]
        for context in contexts:
            original = getattr(context, "original_route", context)
            if not isinstance(original, APIRoute) or not original.include_in_schema:
                continue
            for method in sorted(context.methods or ()):
                out.append((method, context.path, original))
    return out


ROUTES = _routes()
IDS = [f"{m} {p}" for m, p, _ in ROUTES]


def _empty(schema: dict | None) -> bool:
    """No schema, `{}`, or a bare object with neither properties nor a reference."""
    if not schema:
        return True
    if set(schema) <= {"title", "description", "type"} and schema.get("type") in (None, "object"):
        return True
    return False


def _operation(method: str, path: str) -> dict:
    return SCHEMA["paths"][path][method.lower()]


def test_the_routes_are_found():
    assert len(ROUTES) > 150
    assert {p for _, p, _ in ROUTES} == set(SCHEMA["paths"])


@pytest.mark.parametrize(("method", "path", "route"), ROUTES, ids=IDS)
def test_every_json_answer_has_a_response_model(method, path, route):
    content = _operation(method, path)["responses"]["200"].get("content") or {}
    assert content, f"{method} {path}: the 200 answer names no media type"
    if JSON in content:
        assert route.response_model is not None, f"{method} {path}: add response_model= (app/api/payloads.py)"
        assert not _empty(content[JSON].get("schema")), f"{method} {path}: the JSON answer has no schema"
    else:
        assert all(not media.startswith("application/json") for media in content), content


def _reads_body_by_hand(route: APIRoute) -> bool:
    """The handler takes the Request: it may read the body itself (its form or its JSON)."""
    return any(p.annotation is Request for p in inspect.signature(route.endpoint).parameters.values())


@pytest.mark.parametrize(("method", "path", "route"), ROUTES, ids=IDS)
def test_every_body_is_documented(method, path, route):
    operation = _operation(method, path)
    body = operation.get("requestBody")
    if body is None:
        assert not route.dependant.body_params, f"{method} {path}: body parameters left out of the document"
        if method in ("POST", "PUT", "PATCH"):
            if _reads_body_by_hand(route):
                pytest.fail(f"{method} {path} reads its body itself: document it with openapi_extra=read_by_hand(...)")
            assert (method, path) in NO_BODY, f"{method} {path}: takes no body; add a request model or list it in NO_BODY"
        return
    assert (method, path) not in NO_BODY, f"{method} {path} documents a body: take it off NO_BODY"
    content = body.get("content") or {}
    assert content, f"{method} {path}: a request body without a media type"
    for media, described in content.items():
        schema = described.get("schema")
        assert not _empty(schema), f"{method} {path}: the {media} body has no schema"
        if media == "multipart/form-data":
            properties = _resolved(schema).get("properties") or {}
            assert properties, f"{method} {path}: the form names no fields"


def _resolved(schema: dict) -> dict:
    ref = schema.get("$ref")
    if ref:
        return SCHEMA["components"]["schemas"][ref.rsplit("/", 1)[1]]
    return schema


def test_uploads_document_their_file_parts():
    uploads = [(m, p) for m, p, _ in ROUTES
               if "multipart/form-data" in ((_operation(m, p).get("requestBody") or {}).get("content") or {})]
    assert len(uploads) >= 11, uploads  # photos, signatures, logos, prices, recommendations, transactions, executions
    for method, path in uploads:
        schema = _resolved(_operation(method, path)["requestBody"]["content"]["multipart/form-data"]["schema"])
        binary = [name for name, prop in (schema.get("properties") or {}).items()
                  if prop.get("format") == "binary" or any(a.get("format") == "binary" for a in prop.get("anyOf", []))
                  or prop.get("contentMediaType") == "application/octet-stream"]
        assert binary, f"{method} {path}: the form has no file part"
