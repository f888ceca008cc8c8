"""The access-control matrix over every REST route, generated from the app itself.

Every route of create_api() (every method) is either in ROUTES below (how the matrix calls it) or
in tests/access/allowlist.py REST (why it needs no check); a new route in neither fails
test_every_route_is_in_the_matrix_or_allowlisted and its own matrix case, naming it.

The world (built once for the module): firms A ("Alpha") and B ("Zephyr Secret"), each with an
administrator, an adviser, a client owning a portfolio (cash, a trade, a custom holding, a
deposit), a model with recommendations, an asset class, type and asset private to the firm, an
approved target portfolio, a trade instruction with its transactions, a placed order and a bulk
run; plus a superuser. Every firm-B object carries the marker "Zephyr" in its name or e-mail.

For each route: path parameters are firm B's ids, query parameters naming an id (firm_id, model_id,
investment_id, adviser ...) too, searches look for firm B's names, and a body is sent (written per
route in _bodies(), else the route's pydantic model or a generic body, with ids pointing at firm B;
multipart routes get a real image or a small CSV). The route is called unauthenticated and as firm
A's administrator, adviser and client:
  - unauthenticated: 401;
  - firm A roles: never 500, never the marker in the answer (JSON, or a workbook's cells, or a PDF's
    text; EXPOSED lists what is shown by design); on an "object" route (it names a firm-B object)
    403 or 404, never 2xx (400 only where ALLOW_400 says why); a "firmwide" route (lists,
    reports, options, the caller's own things, shared reference data) is called plainly too;
  - the database is unchanged by all these calls (every table: row count and a hash of its rows;
    session_tokens.last_seen_at, download_tickets and signin_failures ignored).
Positive controls: each GET "object" route answers 2xx to firm B's people or the superuser (the ids
sent are real), and the firm-wide reads in MARKER_CONTROL show the marker to firm B's people.

test_firm_b_ids_in_bodies_of_firm_a_objects: firm A's own objects with firm B's ids slipped into
the body (a holder, an adviser, a private asset or class, a private model, mixed id lists).
ACCESS_MATRIX_REPORT=<file> writes every status to that file for review.
"""
from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.routing import APIRoute
from pydantic import BaseModel
from sqlalchemy import select as sa_select
from sqlmodel import SQLModel

from app.api.main import create_api
from tests.access.allowlist import REST as ALLOWLIST

MARKER = "zephyr"  # case-insensitive; every firm-B name and e-mail has it, nothing of firm A does
ROLES = ("administrator", "adviser", "client")

# ---- the routes ---------------------------------------------------------------------------------
# "object": the call names a firm-B object (path or body): firm A roles get 403/404, never 2xx.
# "firmwide": no firm-B object is named (lists, reports, options, the caller's own profile, shared
# reference data, creates): a 2xx is fine when it shows nothing of firm B and writes nothing.
OBJECT, FIRMWIDE = "object", "firmwide"

ROUTES: dict[str, str] = {
    # the caller's own things
    "GET /api/outbox": FIRMWIDE,
    "GET /api/me": FIRMWIDE,
    "POST /api/logo": FIRMWIDE,
    # users
    "GET /api/users": FIRMWIDE,
    "POST /api/users": OBJECT,
    "GET /api/users/{user_id}": OBJECT,
    "PUT /api/users/{user_id}": OBJECT,
    "DELETE /api/users/{user_id}": OBJECT,
    "POST /api/users-photo-upload/{user_id}": OBJECT,
    "POST /api/users-signature/{user_id}": OBJECT,
    "GET /api/advisers-options": FIRMWIDE,
    # firms
    "GET /api/firms": FIRMWIDE,
    "GET /api/firms/{firm_id}": OBJECT,
    "POST /api/firms": FIRMWIDE,
    "PUT /api/firms/{firm_id}": OBJECT,
    "DELETE /api/firms/{firm_id}": OBJECT,
    "POST /api/firms-logo-upload/{firm_id}": OBJECT,
    "GET /api/firms/{firm_id}/documents": OBJECT,
    "PUT /api/firms/{firm_id}/documents": OBJECT,
    "GET /api/firms/{firm_id}/documents/preview": OBJECT,
    # industry groups (shared reference data; superusers write)
    "GET /api/industry-groups": FIRMWIDE,
    "GET /api/industry-groups/main-list": FIRMWIDE,
    "GET /api/industry-groups/{group_id}": FIRMWIDE,
    "POST /api/industry-groups": FIRMWIDE,
    "PUT /api/industry-groups/{group_id}": FIRMWIDE,
    "DELETE /api/industry-groups/{group_id}": FIRMWIDE,
    "PUT /api/industry-groups-reorder": FIRMWIDE,
    # recommendations
    "GET /api/long-terms": OBJECT,
    "POST /api/long-terms": OBJECT,
    "PUT /api/long-terms/{rec_id}": OBJECT,
    "DELETE /api/long-terms/{rec_id}": OBJECT,
    "DELETE /api/long-terms-all": OBJECT,
    "POST /api/long-terms-upload": OBJECT,
    "GET /api/long-terms/{model_id}/export-csv": OBJECT,
    "GET /api/recommendations": OBJECT,
    "PUT /api/recommendations-mark-as-deleted": OBJECT,
    "POST /api/recommendations": OBJECT,
    "PUT /api/recommendations/{rec_id}": OBJECT,
    "POST /api/recommendations-upload": OBJECT,
    "GET /api/recommendations/{model_id}/export-csv": OBJECT,
    # models
    "GET /api/models": FIRMWIDE,
    "GET /api/models-form-options": FIRMWIDE,
    "GET /api/models/{model_id}": OBJECT,
    "POST /api/models": OBJECT,
    "PUT /api/models/{model_id}": OBJECT,
    "DELETE /api/models/{model_id}": OBJECT,
    "GET /api/models/{model_id}/history": OBJECT,
    "GET /api/models/{model_id}/versions/{version}": OBJECT,
    "GET /api/models/{model_id}/details": OBJECT,
    # asset universe
    "GET /api/asset-classes": FIRMWIDE,
    "POST /api/asset-classes": FIRMWIDE,
    "PUT /api/asset-classes/{class_id}": OBJECT,
    "DELETE /api/asset-classes/{class_id}": OBJECT,
    "GET /api/asset-types": FIRMWIDE,
    "POST /api/asset-types": FIRMWIDE,
    "PUT /api/asset-types/{type_id}": OBJECT,
    "DELETE /api/asset-types/{type_id}": OBJECT,
    "GET /api/assets": FIRMWIDE,
    "GET /api/assets-search": FIRMWIDE,
    "GET /api/assets-by-code/{code}": OBJECT,
    "GET /api/assets/{asset_id}": OBJECT,
    "GET /api/assets/{asset_id}/prices": OBJECT,
    "POST /api/assets": OBJECT,
    "PUT /api/assets/{asset_id}": OBJECT,
    "POST /api/asset-prices-upload": FIRMWIDE,
    # holdings
    "GET /api/investments/{investment_id}/assets": OBJECT,
    "GET /api/investments/{investment_id}/holdings": OBJECT,
    "GET /api/investments/{investment_id}/holdings/export-excel": OBJECT,
    "GET /api/investments/{investment_id}/holdings/export-pdf": OBJECT,
    # tax reports
    "GET /api/investments/{investment_id}/tax-report": OBJECT,
    "GET /api/investments/{investment_id}/tax-report/export-excel": OBJECT,
    "GET /api/investments/{investment_id}/tax-report/export-pdf": OBJECT,
    "PUT /api/investments/{investment_id}/carried-forward-losses/{year}": OBJECT,
    "GET /api/users/{user_id}/tax-report": OBJECT,
    "GET /api/users/{user_id}/tax-report/export-excel": OBJECT,
    "GET /api/users/{user_id}/tax-report/export-pdf": OBJECT,
    # performance against the model
    "GET /api/investments/{investment_id}/performance": OBJECT,
    "GET /api/investments/{investment_id}/performance/export-excel": OBJECT,
    "GET /api/investments/{investment_id}/performance/export-pdf": OBJECT,
    "GET /api/users/{user_id}/performance": OBJECT,
    "GET /api/users/{user_id}/performance/export-excel": OBJECT,
    "GET /api/users/{user_id}/performance/export-pdf": OBJECT,
    "GET /api/investments-asset-ownership": FIRMWIDE,
    "GET /api/investments/{investment_id}/custom-holdings": OBJECT,
    "GET /api/investments/{investment_id}/custom-holding-classes": OBJECT,
    "POST /api/custom-holdings/validate": OBJECT,
    "POST /api/custom-holdings": OBJECT,
    "GET /api/custom-holdings/{holding_id}": OBJECT,
    "PUT /api/custom-holdings/{holding_id}": OBJECT,
    "DELETE /api/custom-holdings/{holding_id}": OBJECT,
    # portfolios
    "GET /api/investments": FIRMWIDE,
    "POST /api/investments-by-models": FIRMWIDE,
    "GET /api/investments-form-options": FIRMWIDE,
    "POST /api/investments-buy-model": OBJECT,
    "GET /api/investments/{investment_id}": OBJECT,
    "POST /api/investments": OBJECT,
    "PUT /api/investments/{investment_id}": OBJECT,
    "GET /api/investments/{investment_id}/broker-credentials": OBJECT,
    "PUT /api/investments/{investment_id}/broker-credentials": OBJECT,
    "DELETE /api/investments/{investment_id}/broker-credentials": OBJECT,
    "DELETE /api/investments/{investment_id}": OBJECT,
    "PUT /api/investments/{investment_id}/unlinkModel": OBJECT,
    "GET /api/investments/{investment_id}/linkable-models": OBJECT,
    "GET /api/brokers": FIRMWIDE,
    "GET /api/institutions": FIRMWIDE,
    # deposits
    "GET /api/deposits": FIRMWIDE,
    "GET /api/deposits/{deposit_id}": OBJECT,
    "GET /api/deposits/{deposit_id}/amm-transactions": OBJECT,
    "POST /api/deposits": OBJECT,
    "PUT /api/deposits/{deposit_id}": OBJECT,
    "POST /api/deposits/{deposit_id}/sell": OBJECT,
    "POST /api/deposits/{deposit_id}/interest-accrual": OBJECT,
    "POST /api/deposits/{deposit_id}/deposit": OBJECT,
    "POST /api/deposits/{deposit_id}/income": OBJECT,
    "PUT /api/deposits/{deposit_id}/transactions/{transaction_id}": OBJECT,
    "POST /api/deposits/{deposit_id}/reprocess": OBJECT,
    # transactions
    "GET /api/investments/{investment_id}/cash-transactions": OBJECT,
    "POST /api/cash-transactions": OBJECT,
    "GET /api/cash-transactions/{transaction_id}": OBJECT,
    "PUT /api/cash-transactions/{transaction_id}": OBJECT,
    "DELETE /api/cash-transactions/{transaction_id}": OBJECT,
    "GET /api/investments/{investment_id}/opening-balance": OBJECT,
    "PUT /api/investments/{investment_id}/opening-balance": OBJECT,
    "GET /api/investments/{investment_id}/asset-transactions": OBJECT,
    "GET /api/investments/{investment_id}/asset-transactions/{asset_id}": OBJECT,
    "GET /api/transaction-form-options": FIRMWIDE,
    "POST /api/transactions/upload": OBJECT,
    "POST /api/transactions": OBJECT,
    "GET /api/transactions/{transaction_id}": OBJECT,
    "PUT /api/transactions/{transaction_id}": OBJECT,
    "DELETE /api/transactions/{transaction_id}": OBJECT,
    # advice
    "POST /api/investments/{investment_id}/target-portfolio": OBJECT,
    "GET /api/investments/{investment_id}/target-portfolio": OBJECT,
    "GET /api/target-portfolios": OBJECT,
    "GET /api/target-portfolios/{tp_id}": OBJECT,
    "PUT /api/target-portfolios/{tp_id}/validate": OBJECT,
    "PUT /api/target-portfolios/{tp_id}/rofa": OBJECT,
    "GET /api/target-portfolios/{tp_id}/rofa": OBJECT,
    "GET /api/target-portfolios/{tp_id}/rofa/export": OBJECT,
    "GET /api/target-portfolios/{tp_id}/capital-gains": OBJECT,
    "PUT /api/target-portfolios/{tp_id}/comments": OBJECT,
    "POST /api/target-portfolios/{tp_id}/recalculate": OBJECT,
    "PUT /api/target-portfolios/{tp_id}": OBJECT,
    "GET /api/target-portfolios/{tp_id}/email": OBJECT,
    "POST /api/target-portfolios/{tp_id}/email": OBJECT,
    "POST /api/investments-trigger-rebalance": OBJECT,
    "POST /api/investments-generate-ti": OBJECT,
    "POST /api/bulk-calculate": OBJECT,
    "GET /api/bulk-runs/{run_id}": OBJECT,
    "POST /api/bulk-runs/{run_id}/resume": OBJECT,
    "GET /api/investments/{investment_id}/trade-instructions": OBJECT,
    "GET /api/trade-instructions": OBJECT,
    "GET /api/trade-instructions/{ti_id}/history": OBJECT,
    "GET /api/trade-instructions/{ti_id}/capital-gains": OBJECT,
    "PUT /api/trade-instructions/{ti_id}/validate": OBJECT,
    "PUT /api/trade-instructions/{ti_id}/decline-all": OBJECT,
    "PUT /api/trade-instructions/{ti_id}/confirm": OBJECT,
    "POST /api/trade-instructions/{ti_id}/transactions": OBJECT,
    "GET /api/trade-instructions/{ti_id}/email": OBJECT,
    "POST /api/trade-instructions/{ti_id}/email": OBJECT,
    "PUT /api/trade-transactions/{tx_id}": OBJECT,
    "DELETE /api/trade-transactions/{tx_id}": OBJECT,
    # reports, broker files and orders
    "GET /api/reports/trade-file-generate": FIRMWIDE,
    "POST /api/reports/trade-file-report-export": OBJECT,
    "POST /api/reports/trade-file-report-desktop-broker-export": OBJECT,
    "POST /api/reports/trade-file-ausiex-export": OBJECT,
    "GET /api/reports/desktop-broker-export-excel": FIRMWIDE,
    "GET /api/reports/trade-recommendations-generate": FIRMWIDE,
    "PUT /api/reports/trade-recommendations-validate": OBJECT,
    "PUT /api/reports/trade-recommendations-confirm": OBJECT,
    "GET /api/reports/trade-instructions-export-excel": FIRMWIDE,
    "GET /api/reports/trade-instructions-export-pdf": FIRMWIDE,
    "GET /api/investments/{investment_id}/trade-instructions/export-excel": OBJECT,
    "GET /api/investments/{investment_id}/trade-instructions/export-pdf": OBJECT,
    "GET /api/orders": FIRMWIDE,
    "PUT /api/orders/{order_id}/execute": OBJECT,
    "PUT /api/orders/{order_id}/reject": OBJECT,
    "PUT /api/orders/{order_id}/cancel": OBJECT,
    "GET /api/orders/reconciliation": FIRMWIDE,
    "GET /api/orders/reconciliation/export-excel": FIRMWIDE,
    "POST /api/orders/confirmations-upload": FIRMWIDE,
    "GET /api/target-portfolios-cash-report/generate": FIRMWIDE,
    "GET /api/target-portfolios-pending-report/generate": FIRMWIDE,
    # audit trail
    "GET /api/audit-events": FIRMWIDE,
    "GET /api/audit-events/export-excel": FIRMWIDE,
    "GET /api/investments/{investment_id}/history": OBJECT,
}

# Routes where a firm A role may get 400: the body or query is refused before any object is looked
# up, so no firm-B object is reached. Keep this short; each entry says why.
_FIELD_CHECK = ("the form's firm-B id is refused as that field's validation error: the field's lookup is "
                "scoped to the caller's firm, and the answer names the field, not firm B's object")
ALLOW_400: dict[str, str] = {
    "POST /api/users": _FIELD_CHECK + " (adviser_id: 'Please, select adviser.')",
    "POST /api/investments": _FIELD_CHECK + " (holders and adviser must belong to the portfolio's firm)",
    "POST /api/models": _FIELD_CHECK + " (an allocation's asset: 'Asset <id> is not available')",
}

# Firm B's data a firm A role may see in a 2xx answer by design: route -> (texts, reason). The texts
# are removed before the marker is looked for.
EXPOSED: dict[str, tuple[tuple[str, ...], str]] = {
    "GET /api/models-form-options": (("Zephyr Secret Wealth",),
                                     "the model form offers every other live firm by name to share a model with"),
}

# Firm-wide reads where firm B's own people see the marker (so its absence for firm A means something).
MARKER_CONTROL = {
    "GET /api/users", "GET /api/advisers-options", "GET /api/models", "GET /api/asset-classes", "GET /api/asset-types",
    "GET /api/assets", "GET /api/investments", "GET /api/deposits", "GET /api/audit-events",
    "GET /api/audit-events/export-excel", "GET /api/orders", "GET /api/orders/reconciliation",
    "GET /api/target-portfolios-cash-report/generate", "GET /api/investments-asset-ownership",
}

# GET "object" routes whose positive control (firm B's people or the superuser read them) is not
# expected to answer 2xx, with the reason.
NO_CONTROL: dict[str, str] = {
    "GET /api/trade-instructions/{ti_id}/email": ("the world's trade recommendations still await validation: there "
                                                  "is nothing to send again yet, so firm B's own staff get 400 too"),
}


# ---- discovering the routes -----------------------------------------------------------------------
@dataclass(frozen=True)
class RouteCase:
    method: str
    path: str
    route: Any = field(compare=False, repr=False)

    @property
    def key(self) -> str:
        return f"{self.method} {self.path}"


def _flatten(routes):
    """The app's routes; FastAPI may keep included routers as lazy branches."""
    for route in routes:
        if hasattr(route, "effective_route_contexts"):
            yield from route.effective_route_contexts()
        else:
            yield route


def discover_routes() -> list[RouteCase]:
    out: dict[str, RouteCase] = {}
    for route in _flatten(create_api().routes):
        original = getattr(route, "original_route", route)
        methods = getattr(route, "methods", None) or set()
        for method in sorted(methods):
            if method == "HEAD" and not isinstance(original, APIRoute):
                continue  # Starlette adds HEAD to its plain GET routes (openapi, docs)
            case = RouteCase(method, route.path, route if isinstance(original, APIRoute) else None)
            out.setdefault(case.key, case)
    return list(out.values())


ALL_ROUTES = discover_routes()
MATRIX_ROUTES = [r for r in ALL_ROUTES if r.key not in ALLOWLIST]


def test_every_route_is_in_the_matrix_or_allowlisted():
    keys = {r.key for r in ALL_ROUTES}
    missing = sorted(k for k in keys if k not in ROUTES and k not in ALLOWLIST)
    assert not missing, ("routes neither in the access matrix (tests/api/test_access_matrix.py ROUTES) nor in "
                         f"tests/access/allowlist.py REST: {missing}")
    both = sorted(set(ROUTES) & set(ALLOWLIST))
    assert not both, f"routes both in the matrix and allow-listed: {both}"
    stale = sorted((set(ROUTES) | set(ALLOWLIST)) - keys)
    assert not stale, f"matrix or allowlist entries for routes the app no longer has: {stale}"
    assert all(reason.strip() for reason in ALLOWLIST.values())
    assert set(ALLOW_400) <= set(ROUTES) and set(NO_CONTROL) <= set(ROUTES) and set(EXPOSED) <= set(ROUTES)
    assert MARKER_CONTROL <= {k for k, kind in ROUTES.items() if kind == FIRMWIDE}


# ---- the world ----------------------------------------------------------------------------------
def _build_firm(label: str, u) -> SimpleNamespace:
    from sqlmodel import select

    from app.db.engine import session_scope
    from app.db.tables import AssetTransaction, BulkRun, BulkRunItem
    from app.domain.roles import Role
    from tests.advice_edge import target_portfolios
    from tests import trade_instructions_edge as trade_instructions
    from tests import factories as f
    from tests.factories_assets import make_asset, make_class, make_type
    from tests.factories_orders import make_order
    from tests.factories_models import make_model
    from tests.factories_portfolios import cash, make_custom_holding, make_deposit, make_portfolio, post
    from tests.factories_recommendations import make_long_term, make_short_term

    slug = label.split()[0].lower()
    x = SimpleNamespace(label=label)
    x.firm = f.make_firm(f"{label} Wealth", email=f"office@{slug}.example.com")
    x.admin = f.make_user(Role.ADMINISTRATOR, x.firm, email=f"{slug}.admin@{slug}.example.com",
                          first_name=f"{label} Admin")
    x.adviser = f.make_user(Role.ADVISER, x.firm, email=f"{slug}.adviser@{slug}.example.com",
                            first_name=f"{label} Adviser")
    x.client = f.make_user(Role.CLIENT, x.firm, email=f"{slug}.client@{slug}.example.com",
                           first_name=f"{label} Client", adviser_id=x.adviser.id)
    x.asset_class = make_class(f"{label} Class", firm=x.firm, idx=0)
    x.asset_type = make_type(f"{label} Type", firm=x.firm)
    x.asset = make_asset(f"{slug[:4].upper()}X", x.asset_class, name=f"{label} Fund", firm=x.firm, price="5.00")
    x.model = make_model(f.actor(x.admin), u, name=f"{label} Model")
    model_ref = SimpleNamespace(id=x.model["id"])
    x.long_term = make_long_term(model_ref, u.stocks[2], "buy", comment=f"{label} long view")
    x.short_term = make_short_term(model_ref, u.stocks[1], "BUY", comment=f"{label} short view")
    x.portfolio = make_portfolio(x.firm, holders=[x.client], adviser=x.adviser, model=x.model["id"],
                                 name=f"{label} Portfolio")
    x.cash_tx = cash(x.portfolio, "80000.00")
    x.asset_tx = post(x.portfolio, "asset_buy", asset_id=u.stocks[0].id, quantity=100, price="40.00", fee="10.00")
    x.holding = make_custom_holding(x.portfolio, f"{label} Holding", asset_class=x.asset_class)
    x.deposit = make_deposit(x.portfolio, provider_name=f"{label} Bank")

    adviser, owner = f.actor(x.adviser), f.actor(x.client)
    tp = target_portfolios.calculate(actor=adviser, investment_id=x.portfolio.id)
    target_portfolios.validate(actor=adviser, tp_id=tp["id"], row_version=1)
    target_portfolios.decide(actor=owner, tp_id=tp["id"], action="approve")
    x.tp_id = tp["id"]
    [ti] = trade_instructions.generate(actor=adviser, investment_ids=[x.portfolio.id])
    x.ti_id, x.tx_id = ti["id"], ti["transactions"][0]["id"]
    order_id, open_id = make_order(x.portfolio, u.stocks[3], x.tx_id, 5)
    with session_scope() as s:
        run = BulkRun(kind="tp", status="done", firm_id=x.firm.id, total=1, done=1, created_by=x.adviser.id)
        s.add(run)
        s.flush()
        s.add(BulkRunItem(run_id=run.id, investment_id=x.portfolio.id, status="done", result_id=x.tp_id))
        x.run_id = run.id
        assert s.exec(select(AssetTransaction).where(AssetTransaction.id == open_id)).one().status == "processing"
    x.order_id = order_id
    return x


@pytest.fixture(scope="module")
def world(database_url, data_dir):
    from app.settings import settings
    from tests import conftest
    from tests import factories as f
    from tests.factories_models import make_universe

    previous_redis = settings.redis_url
    settings.redis_url = ""  # jobs run in-process: a bulk run started by mistake shows in the snapshot
    try:
        u = make_universe()
        a = _build_firm("Alpha", u)
        b = _build_firm("Zephyr Secret", u)
        superuser = f.make_user("superuser", None, email="root@platform.example.com", first_name="Platform")
        tokens = {
            "administrator": f.session_token(a.admin), "adviser": f.session_token(a.adviser),
            "client": f.session_token(a.client), "superuser": f.session_token(superuser),
            "b_administrator": f.session_token(b.admin), "b_adviser": f.session_token(b.adviser),
            "b_client": f.session_token(b.client),
        }
        yield SimpleNamespace(u=u, a=a, b=b, superuser=superuser, tokens=tokens)
    finally:
        settings.redis_url = previous_redis
        from app.db import get_engine

        conftest._empty_all_tables(get_engine())
        conftest._forget_cached_models()


# The tests share the module's world (not the per-test database) and read server errors as 500s.
API_CLIENT = {"per_test_db": False, "raise_server_exceptions": False}


# ---- filling a request with firm B's ids ------------------------------------------------------------
def _path_ids(w) -> dict[str, Any]:
    b = w.b
    return {
        "investment_id": b.portfolio.id, "model_id": b.model["id"], "firm_id": b.firm.id, "user_id": b.client.id,
        "asset_id": b.asset.id, "class_id": b.asset_class.id, "type_id": b.asset_type.id,
        "group_id": w.u.banks.id, "holding_id": b.holding.id, "deposit_id": b.deposit.id,
        "tp_id": b.tp_id, "ti_id": b.ti_id, "tx_id": b.tx_id, "run_id": b.run_id, "order_id": b.order_id,
        "version": 1, "code": b.asset.code, "year": 2026,
    }


def _path_value(w, path: str, name: str) -> Any:
    b = w.b
    if name == "rec_id":
        return b.long_term.id if path.startswith("/api/long-terms") else b.short_term.id
    if name == "transaction_id":
        if path.startswith("/api/cash-transactions"):
            return b.cash_tx.id
        return b.asset_tx.id  # /api/transactions/{id}; under a deposit the deposit is looked up first
    ids = _path_ids(w)
    assert name in ids, f"no firm-B object for path parameter {{{name}}} in {path}: map it in _path_ids"
    return ids[name]


# query parameters naming an id: firm B's
def _query_ids(w) -> dict[str, Any]:
    b = w.b
    return {
        "firm_id": b.firm.id, "firmId": b.firm.id, "model_id": b.model["id"], "investment_id": b.portfolio.id,
        "adviser_id": b.adviser.id, "adviser": b.adviser.id, "client_id": b.client.id, "classId": b.asset_class.id,
        "typeId": b.asset_type.id, "object_id": b.portfolio.id,
        # searches for firm B's names: a firm-wide answer must still show nothing of firm B
        "search": "Zephyr", "query": "ZEPH", "who": "zephyr",
    }


def _generic_body(w) -> dict[str, Any]:
    """Ids of firm B under the names bodies use."""
    b = w.b
    return {
        "investment_id": b.portfolio.id, "investment_ids": [b.portfolio.id], "model_id": b.model["id"],
        "model_ids": [b.model["id"]], "asset_id": b.asset.id, "firm_id": b.firm.id, "firmId": b.firm.id,
        "user_id": b.client.id, "adviser_id": b.adviser.id, "class_id": b.asset_class.id,
        "type_id": b.asset_type.id, "trade_instructions": [b.ti_id], "id": b.holding.id,
        "ids": [b.model["id"]], "row_version": 1,
    }


def _bodies(w) -> dict[str, Any]:
    """Plausible bodies, written per route where the generic one would not reach the point."""
    from tests.factories_models import payload

    a, b, u = w.a, w.b, w.u
    model_with_b_asset = payload(u, name="Probe Model")
    model_with_b_asset["allocation_classes"][0]["assets"].append(
        {"asset_id": b.asset.id, "alt_asset_id": None, "priority": 3})
    return {
        "POST /api/users": {"role": "client", "first_name": "Probe", "last_name": "Person",
                            "email": "probe.person@probe.example.com", "firm_id": b.firm.id,
                            "adviser_id": b.adviser.id},
        "PUT /api/users/{user_id}": {"role": "client", "first_name": "Probe", "last_name": "Person",
                                     "email": "probe.person@probe.example.com", "firm_id": a.firm.id,
                                     "adviser_id": a.adviser.id},
        "POST /api/long-terms": {"model_id": b.model["id"], "asset_id": u.stocks[3].id, "action": "buy"},
        "PUT /api/long-terms/{rec_id}": {"model_id": b.model["id"], "asset_id": u.stocks[2].id, "action": "sell"},
        "POST /api/recommendations": {"model_id": b.model["id"], "asset_id": u.stocks[3].id, "action": "BUY"},
        "PUT /api/recommendations/{rec_id}": {"model_id": b.model["id"], "asset_id": u.stocks[1].id,
                                              "action": "SELL"},
        "POST /api/models": model_with_b_asset,
        "PUT /api/models/{model_id}": {**payload(u, name="Probe Model"), "version": 1},
        "POST /api/assets": {"code": "PRBX", "name": "Probe Asset", "class_id": b.asset_class.id,
                             "type_id": b.asset_type.id, "firm_id": b.firm.id},
        "PUT /api/assets/{asset_id}": {"code": b.asset.code, "name": "Probe Asset", "class_id": b.asset_class.id},
        "POST /api/custom-holdings/validate": {"investment_id": b.portfolio.id, "name": "Probe Holding",
                                               "class_id": b.asset_class.id, "value": "100.00"},
        "POST /api/custom-holdings": {"investment_id": b.portfolio.id, "name": "Probe Holding",
                                      "class_id": b.asset_class.id, "value": "100.00"},
        "PUT /api/custom-holdings/{holding_id}": {"investment_id": b.portfolio.id, "name": "Probe Holding",
                                                  "class_id": b.asset_class.id, "value": "100.00"},
        "POST /api/investments": {"name": "Probe Portfolio", "type": "SAVINGS", "firm_id": b.firm.id,
                                  "adviser_id": b.adviser.id, "model_id": b.model["id"],
                                  "users": [{"id": b.client.id, "user_id": b.client.id, "is_owner": True}]},
        "PUT /api/investments/{investment_id}/broker-credentials": {"macquarieAuthCode": "PROBE",
                                                                      "macquarieAuthPass": "probe"},
        "PUT /api/investments/{investment_id}": {"name": "Probe Portfolio", "type": "SAVINGS",
                                                 "adviser_id": a.adviser.id},
        "POST /api/investments-buy-model": {"investment_id": b.portfolio.id, "model_id": a.model["id"]},
        "POST /api/investments-by-models": {"model_ids": [b.model["id"]]},
        "POST /api/deposits": {"investment_id": b.portfolio.id, "product_type": "Term Deposits",
                               "provider_name": "Probe Bank", "amount": "1000.00", "rate": "4.0",
                               "start_date": "2026-01-05", "maturity_date": "2026-07-05"},
        "POST /api/cash-transactions": {"investment_id": b.portfolio.id, "type": "cash", "action": "increase",
                                        "price": "100.00", "status": "executed", "trade_at": "2026-01-05"},
        "PUT /api/cash-transactions/{transaction_id}": {"investment_id": b.portfolio.id, "type": "cash",
                                                        "action": "increase", "price": "100.00"},
        "PUT /api/investments/{investment_id}/opening-balance": {"amount": "100.00", "date": "2026-01-01"},
        "POST /api/transactions": {"investment_id": b.portfolio.id, "type": "asset_buy", "asset_id": u.stocks[0].id,
                                   "quantity": "1", "price": "40.00", "fee": "0", "status": "executed",
                                   "trade_at": "2026-01-06"},
        "PUT /api/transactions/{transaction_id}": {"investment_id": b.portfolio.id, "type": "asset_buy",
                                                   "asset_id": u.stocks[0].id, "quantity": "1", "price": "40.00"},
        "PUT /api/target-portfolios/{tp_id}/rofa": {"action": "approve"},
        "PUT /api/target-portfolios/{tp_id}/comments": {"type": "market", "description": "Probe comment"},
        "POST /api/bulk-calculate": {"kind": "tp", "model_ids": [b.model["id"]]},
        "PUT /api/trade-instructions/{ti_id}/confirm": {"is_approve_all": True},
        "POST /api/trade-instructions/{ti_id}/transactions": {"code": "BHP", "action": "BUY", "quantity": "1",
                                                              "price": "45.00"},
        "PUT /api/trade-transactions/{tx_id}": {"quantity": "1", "price": "45.00"},
        "POST /api/reports/trade-file-report-export": {"transactions": [
            {"id": b.tx_id, "quantity": "1", "price": None, "amount": "45.00", "expirationDate": "2026-12-31"}]},
        "POST /api/reports/trade-file-report-desktop-broker-export": {"transactions": [
            {"id": b.tx_id, "quantity": "1", "price": None, "amount": "45.00", "expirationDate": "2026-12-31"}]},
        "POST /api/reports/trade-file-ausiex-export": {"transactions": [
            {"id": b.tx_id, "quantity": "1", "price": None, "amount": "45.00", "expirationDate": "2026-12-31"}]},
        "PUT /api/reports/trade-recommendations-validate": {"trade_instructions": [b.ti_id]},
        "PUT /api/reports/trade-recommendations-confirm": {"trade_instructions": [b.ti_id], "is_approve_all": True},
        "PUT /api/orders/{order_id}/execute": {"price": "60.00", "quantity": "5", "fee": "10.00"},
        "PUT /api/orders/{order_id}/reject": {"reason": "Probe"},
        "PUT /api/orders/{order_id}/cancel": {"reason": "Probe"},
        "PUT /api/industry-groups-reorder": {"ids": [w.u.banks.id, w.u.miners.id]},
        "PUT /api/me": {"first_name": "Probe"},
        "POST /api/firms": {"name": "Probe Firm"},
        "PUT /api/firms/{firm_id}": {"name": "Probe Firm", "version": 1},
        "POST /api/industry-groups": {"title": "Probe Group", "color": "#123456"},
        "PUT /api/industry-groups/{group_id}": {"title": "Probe Group", "color": "#123456"},
        "PUT /api/recommendations-mark-as-deleted": {"ids": [b.short_term.id]},
    }


def _png() -> bytes:
    from tests.factories import png_bytes

    return png_bytes()


# multipart routes: (form fields, files)
def _multipart(w, case: RouteCase) -> tuple[dict[str, Any], dict[str, Any]]:
    """A real image for each declared file field (form fields get firm B's ids); the uploads that
    read the form themselves get the fields and a small CSV written here."""
    from fastapi import params as fastapi_params

    b = w.b
    csv = lambda text: {"file": ("probe.csv", text.encode(), "text/csv")}  # noqa: E731
    written = {
        "POST /api/long-terms-upload": ({"model_ids[]": str(b.model["id"]), "type": "replace"},
                                        csv("code,action,comment\nBHP,buy,probe\n")),
        "POST /api/recommendations-upload": ({"model_ids[]": str(b.model["id"]), "type": "replace"},
                                             csv("code,action,comment,price,yield\nBHP,BUY,probe,,\n")),
        "POST /api/transactions/upload": ({"investment_id": str(b.portfolio.id)},
                                          csv("date,type,code,quantity,price,fee\n2026-01-07,buy,BHP,1,40,0\n")),
        "POST /api/asset-prices-upload": ({}, csv(f"code,date,close\n{b.asset.code},2026-01-05,6.00\n")),
        "POST /api/orders/confirmations-upload": ({}, csv(f"order_id,price,quantity\nWA{b.order_id},60,5\n")),
        "POST /api/logo": ({}, {"file": ("probe.png", _png(), "image/png")}),
    }
    if case.key in written:
        return written[case.key]
    form, files = {}, {}
    ids = _generic_body(w)
    for param in case.route.dependant.body_params:
        name = param.alias or param.name
        if isinstance(param.field_info, fastapi_params.File):
            files[name] = ("probe.png", _png(), "image/png")
        elif isinstance(param.field_info, fastapi_params.Form) and name in ids:
            form[name] = str(ids[name])
    return form, files


def _model_body(model: type[BaseModel], w) -> dict[str, Any]:
    ids = _generic_body(w)
    out: dict[str, Any] = {}
    for name, info in model.model_fields.items():
        key = info.alias or name
        if key in ids:
            out[key] = ids[key]
        elif info.is_required():
            out[key] = "Probe"
    return out


@dataclass
class Request:
    method: str
    url: str
    params: dict[str, Any]
    json: Any = None
    data: dict[str, Any] | None = None
    files: dict[str, Any] | None = None


def _query_params(dependant) -> list[Any]:
    """The query parameters of a route, its dependencies' included."""
    out = list(dependant.query_params)
    for sub in dependant.dependencies:
        out.extend(_query_params(sub))
    return out


def build_request(case: RouteCase, w, *, hostile: bool = True) -> Request:
    route = case.route
    path_params = {p.name for p in route.dependant.path_params}
    url = case.path
    for name in path_params:
        url = url.replace("{" + name + "}", str(_path_value(w, case.path, name)))
    qids = _query_ids(w) if hostile else {}
    params = {}
    for q in _query_params(route.dependant):
        alias = getattr(q, "alias", None) or q.name
        if alias in qids:
            params[alias] = qids[alias]
        elif q.name in qids:
            params[alias] = qids[q.name]
        elif getattr(q, "required", False) or (hasattr(q, "is_required") and q.is_required()):
            params[alias] = "1"
    req = Request(case.method, url, params)
    form, files = _multipart(w, case)
    if files:
        req.data, req.files = form, files
        return req
    if case.method not in ("POST", "PUT", "PATCH", "DELETE"):
        return req
    bodies = _bodies(w)
    if case.key in bodies:
        req.json = bodies[case.key]
    elif route.body_field is not None:
        annotation = route.body_field.field_info.annotation
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            req.json = _model_body(annotation, w)
        else:
            req.json = _generic_body(w)
    elif case.method in ("POST", "PUT"):
        req.json = _generic_body(w)
    return req


def send(client, req: Request, token: str | None):
    headers = {"x-token": token} if token else {}
    kwargs: dict[str, Any] = {"params": req.params, "headers": headers}
    if req.files:
        kwargs.update(data=req.data, files=req.files)
    elif req.json is not None:
        kwargs["json"] = req.json
    return client.request(req.method, req.url, **kwargs)


# ---- the database snapshot ------------------------------------------------------------------------
IGNORED_TABLES = {"download_tickets", "signin_failures", "alembic_version"}
IGNORED_COLUMNS = {("session_tokens", "last_seen_at")}


def snapshot() -> dict[str, tuple[int, str]]:
    import app.db  # noqa: F401  (registers every table)
    from app.db import get_engine

    out = {}
    with get_engine().connect() as conn:
        for table in SQLModel.metadata.sorted_tables:
            if table.name in IGNORED_TABLES:
                continue
            columns = [c for c in table.columns if (table.name, c.name) not in IGNORED_COLUMNS]
            order = list(table.primary_key.columns) or columns
            rows = conn.execute(sa_select(*columns).order_by(*order)).all()
            digest = hashlib.sha256(repr([tuple(r) for r in rows]).encode()).hexdigest()
            out[table.name] = (len(rows), digest)
    return out


def _changed(before, after) -> list[str]:
    return [f"{t}: {before.get(t, (0,))[0]} -> {after.get(t, (0,))[0]} rows" + ("" if before.get(t, (0,))[0] != after.get(t, (0,))[0] else " (rows changed)")
            for t in sorted(set(before) | set(after)) if before.get(t) != after.get(t)]


# ---- the matrix ---------------------------------------------------------------------------------
def _text(response) -> str:
    """What an answer shows: a workbook's cells and a PDF's text, else the body."""
    kind = response.headers.get("content-type", "")
    if response.status_code < 300 and "spreadsheetml" in kind:
        from openpyxl import load_workbook

        book = load_workbook(io.BytesIO(response.content), read_only=True)
        return "\n".join(str(cell) for sheet in book.worksheets for row in sheet.iter_rows(values_only=True)
                         for cell in row if cell is not None)
    if response.status_code < 300 and "pdf" in kind:
        from pypdf import PdfReader

        return "\n".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(response.content)).pages)
    return response.text


def _visible_text(key: str, text: str) -> str:
    for allowed in EXPOSED.get(key, ((), ""))[0]:
        text = text.replace(allowed, "")
    return text


def _report(line: str) -> None:
    """ACCESS_MATRIX_REPORT=<file>: one line per route with every answer's status (for review)."""
    import os

    target = os.environ.get("ACCESS_MATRIX_REPORT")
    if target:
        with open(target, "a", encoding="utf-8") as out:
            out.write(line + "\n")


def _describe(response) -> str:
    return f"{response.status_code} {response.text[:300]!r}"


def _judge(where: str, key: str, kind: str, response, problems: list[str]) -> None:
    status = response.status_code
    if status >= 500:
        problems.append(f"{where}: server error {_describe(response)}")
        return
    if MARKER in _visible_text(key, _text(response)).lower():
        problems.append(f"{where}: firm B's data in the answer: {_describe(response)}")
    if 200 <= status < 300:
        if kind == OBJECT:
            problems.append(f"{where}: acted on firm B's object, got {_describe(response)}")
        return
    if status == 400:
        if kind == OBJECT and key not in ALLOW_400:
            problems.append(f"{where}: 400 on an object route not in ALLOW_400: {_describe(response)}")
    elif status not in (403, 404):
        problems.append(f"{where}: expected 403/404, got {_describe(response)}")
    if response.headers.get("content-type", "").startswith("application/json"):
        body = response.json()
        if body.get("success") is not False or not isinstance(body.get("message"), str):
            problems.append(f"{where}: not a failure envelope: {_describe(response)}")


@pytest.mark.parametrize("case", MATRIX_ROUTES, ids=[r.key for r in MATRIX_ROUTES])
def test_route(case: RouteCase, world, client):
    assert case.key in ROUTES, (f"{case.key} is neither in the access matrix (ROUTES in this file) nor in "
                                f"tests/access/allowlist.py REST: add it to one of them")
    assert case.route is not None, f"{case.key} is not a FastAPI route: allow-list it with the reason"
    kind = ROUTES[case.key]
    req = build_request(case, world)
    problems: list[str] = []

    statuses: list[str] = []
    before = snapshot()
    unauth = send(client, req, None)
    statuses.append(f"anon={unauth.status_code}")
    if unauth.status_code != 401:
        problems.append(f"unauthenticated: expected 401, got {_describe(unauth)}")
    calls = [("", req)]
    if kind == FIRMWIDE:  # the plain call too: no ids, no search
        calls.append((" (plain)", build_request(case, world, hostile=False)))
    for label, request in calls:
        for role in ROLES:
            response = send(client, request, world.tokens[role])
            statuses.append(f"{role[:5]}{label.strip()[1:-1][:1]}={response.status_code}")
            _judge(f"firm A {role}{label}", case.key, kind, response, problems)
    after = snapshot()
    changed = _changed(before, after)
    if changed:
        problems.append(f"the database changed: {changed}")

    # positive control for the marker: firm B's people do see their data on these firm-wide reads
    if kind == FIRMWIDE and case.key in MARKER_CONTROL:
        plain = build_request(case, world, hostile=False)
        seen = [send(client, plain, world.tokens[who]) for who in ("b_administrator", "b_adviser")]
        if not any(MARKER in _text(r).lower() for r in seen):
            problems.append(f"marker control: firm B's own people do not see firm B's data "
                            f"({[_describe(r) for r in seen]})")

    # positive control: the ids are real (someone of firm B, or the superuser, reads the object)
    if case.method == "GET" and kind == OBJECT and case.key not in NO_CONTROL:
        seen = []
        for who in ("superuser", "b_administrator", "b_adviser", "b_client"):
            response = send(client, req, world.tokens[who])
            seen.append(f"{who}: {response.status_code}")
            if 200 <= response.status_code < 300:
                break
        else:
            problems.append(f"positive control: nobody of firm B reads it ({', '.join(seen)})")
        statuses.append("control=" + seen[-1])
    _report(f"{case.key:<70} {kind:<8} {' '.join(statuses)}")

    assert not problems, f"{case.key}:\n  " + "\n  ".join(problems)


# ---- firm A's own objects with firm B's ids in the body ---------------------------------------------
# The path names something firm A may change; the body slips in a firm-B id. Each must be refused
# (400 for the field, 403 or 404) and write nothing.
def _cross_cases(w) -> dict[str, tuple[str, str, str, Any]]:
    from tests.factories_models import payload

    a, b, u = w.a, w.b, w.u
    model_with_b_asset = {**payload(u, name="Alpha Model"), "version": 1}
    model_with_b_asset["allocation_classes"][0]["assets"].append(
        {"asset_id": b.asset.id, "alt_asset_id": None, "priority": 3})
    return {
        "portfolio's adviser of firm B": ("adviser", "PUT", f"/api/investments/{a.portfolio.id}",
                                          {"adviser_id": b.adviser.id}),
        "portfolio's holder of firm B": ("adviser", "PUT", f"/api/investments/{a.portfolio.id}",
                                         {"users": [{"id": a.client.id, "is_owner": True},
                                                    {"id": b.client.id, "is_owner": False}]}),
        "portfolio's exception on firm B's asset": ("adviser", "PUT", f"/api/investments/{a.portfolio.id}",
                                                    {"exceptions": [{"asset_id": b.asset.id, "type": "exclude"}]}),
        "new portfolio of firm A with firm B's client": (
            "administrator", "POST", "/api/investments",
            {"name": "Alpha Second", "type": "SAVINGS", "adviser_id": a.adviser.id,
             "users": [{"id": b.client.id, "is_owner": True}]}),
        "link firm B's private model": ("adviser", "POST", "/api/investments-buy-model",
                                        {"investment_id": a.portfolio.id, "model_id": b.model["id"]}),
        "custom holding in firm B's class": ("adviser", "POST", "/api/custom-holdings",
                                             {"investment_id": a.portfolio.id, "name": "Alpha Extra",
                                              "class_id": b.asset_class.id, "value": "100.00"}),
        "custom holding moved to firm B's class": ("adviser", "PUT", f"/api/custom-holdings/{a.holding.id}",
                                                   {"investment_id": a.portfolio.id, "name": "Alpha Holding",
                                                    "class_id": b.asset_class.id, "value": "1000.00"}),
        "custom holding moved to firm B's portfolio": ("adviser", "PUT", f"/api/custom-holdings/{a.holding.id}",
                                                       {"investment_id": b.portfolio.id, "name": "Alpha Holding",
                                                        "class_id": a.asset_class.id, "value": "1000.00"}),
        "trade of firm B's private asset": ("adviser", "POST", "/api/transactions",
                                            {"investment_id": a.portfolio.id, "type": "asset_buy",
                                             "asset_id": b.asset.id, "quantity": "1", "price": "5.00", "fee": "0",
                                             "status": "executed", "trade_at": "2026-01-06"}),
        "trade moved to firm B's portfolio": ("adviser", "PUT", f"/api/transactions/{a.asset_tx.id}",
                                              {"investment_id": b.portfolio.id, "type": "asset_buy",
                                               "asset_id": u.stocks[0].id, "quantity": "100", "price": "40.00",
                                               "fee": "10.00", "trade_at": "2026-01-05"}),
        "cash moved to firm B's portfolio": ("adviser", "PUT", f"/api/cash-transactions/{a.cash_tx.id}",
                                             {"investment_id": b.portfolio.id, "type": "cash", "action": "increase",
                                              "price": "80000.00", "trade_at": "2026-01-02"}),
        "deposit transaction of firm B under firm A's deposit": (
            "adviser", "PUT", f"/api/deposits/{a.deposit.id}/transactions/{b.asset_tx.id}",
            {"investment_id": a.portfolio.id, "amount": "10.00", "date": "2026-02-01"}),
        "long-term on firm B's private asset": ("administrator", "POST", "/api/long-terms",
                                                {"model_id": a.model["id"], "asset_id": b.asset.id, "action": "buy"}),
        "firm B's long-term edited under firm A's model": (
            "administrator", "PUT", f"/api/long-terms/{b.long_term.id}",
            {"model_id": a.model["id"], "asset_id": u.stocks[2].id, "action": "sell"}),
        "short-term on firm B's private asset": ("administrator", "POST", "/api/recommendations",
                                                 {"model_id": a.model["id"], "asset_id": b.asset.id,
                                                  "action": "BUY"}),
        "model allocation to firm B's private asset": ("administrator", "PUT", f"/api/models/{a.model['id']}",
                                                       model_with_b_asset),
        "client moved to firm B's adviser": ("administrator", "PUT", f"/api/users/{a.client.id}",
                                             {"role": "client", "first_name": "Alpha Client", "last_name": "Tester",
                                              "email": a.client.email, "adviser_id": b.adviser.id}),
        "client moved to firm B": ("administrator", "PUT", f"/api/users/{a.client.id}",
                                   {"role": "client", "first_name": "Alpha Client", "last_name": "Tester",
                                    "email": a.client.email, "firm_id": b.firm.id, "adviser_id": b.adviser.id}),
        "trade of firm B's private asset added to advice": (
            "adviser", "POST", f"/api/trade-instructions/{a.ti_id}/transactions",
            {"code": b.asset.code, "action": "BUY", "quantity": "1", "price": "5.00"}),
        "validate firm A's and firm B's trades": ("adviser", "PUT", "/api/reports/trade-recommendations-validate",
                                                  {"trade_instructions": [a.ti_id, b.ti_id]}),
        "confirm firm A's and firm B's trades": ("client", "PUT", "/api/reports/trade-recommendations-confirm",
                                                 {"trade_instructions": [a.ti_id, b.ti_id], "is_approve_all": True}),
        "rebalance firm A's and firm B's portfolios": ("adviser", "POST", "/api/investments-trigger-rebalance",
                                                       {"investment_ids": [a.portfolio.id, b.portfolio.id]}),
        "trades for firm A's and firm B's portfolios": ("adviser", "POST", "/api/investments-generate-ti",
                                                        {"investment_ids": [a.portfolio.id, b.portfolio.id]}),
        "bulk calculation of firm A's and firm B's models": (
            "administrator", "POST", "/api/bulk-calculate",
            {"kind": "tp", "model_ids": [a.model["id"], b.model["id"]]}),
        "firm B's recommendations marked deleted": ("administrator", "PUT", "/api/recommendations-mark-as-deleted",
                                                    {"ids": [b.short_term.id]}),
    }



# Moves: the body names firm B's portfolio for firm A's row. Ignoring that field (the row stays in
# its portfolio) is as good as refusing: the row's portfolio is checked after the call.
MOVES = {
    "custom holding moved to firm B's portfolio": "custom_holdings",
    "trade moved to firm B's portfolio": "asset_transactions",
    "cash moved to firm B's portfolio": "cash_transactions",
}
# Lists of firm A's and firm B's ids: each portfolio is handled in its own transaction (one failing
# never stops the others), so firm A's part may be done before firm B's id is refused with 404;
# nothing of firm B may change.
MIXED = {
    "validate firm A's and firm B's trades", "confirm firm A's and firm B's trades",
    "rebalance firm A's and firm B's portfolios", "trades for firm A's and firm B's portfolios",
    "bulk calculation of firm A's and firm B's models",
}


def firm_b_snapshot(w) -> dict[str, tuple[int, str]]:
    """Like snapshot(), only the rows of firm B (its firm, users, models, portfolio and advice)."""
    import app.db  # noqa: F401
    from app.db import get_engine

    b = w.b
    owners = {"firm_id": [b.firm.id], "investment_id": [b.portfolio.id], "model_id": [b.model["id"]],
              "trade_instruction_id": [b.ti_id], "user_id": [b.admin.id, b.adviser.id, b.client.id]}
    out = {}
    with get_engine().connect() as conn:
        for table in SQLModel.metadata.sorted_tables:
            if table.name in IGNORED_TABLES:
                continue
            clauses = [table.c[name].in_(ids) for name, ids in owners.items() if name in table.c]
            if table.name == "firms":
                clauses.append(table.c.id == b.firm.id)
            if not clauses:
                continue
            from sqlalchemy import or_

            columns = [c for c in table.columns if (table.name, c.name) not in IGNORED_COLUMNS]
            rows = conn.execute(sa_select(*columns).where(or_(*clauses)).order_by(*table.primary_key.columns)).all()
            out[table.name] = (len(rows), hashlib.sha256(repr([tuple(r) for r in rows]).encode()).hexdigest())
    return out


def _portfolio_of(table: str, row_id: int) -> int:
    from app.db import get_engine

    t = SQLModel.metadata.tables[table]
    with get_engine().connect() as conn:
        return conn.execute(sa_select(t.c.investment_id).where(t.c.id == row_id)).scalar_one()


def test_firm_b_ids_in_bodies_of_firm_a_objects(world, client):
    problems: list[str] = []
    rows = {"custom_holdings": world.a.holding.id, "asset_transactions": world.a.asset_tx.id,
            "cash_transactions": world.a.cash_tx.id}
    covered = {t for t, (count, _) in firm_b_snapshot(world).items() if count}
    assert {"firms", "users", "models", "investments", "trade_instructions", "trade_transactions",
            "target_portfolios", "custom_holdings", "asset_transactions", "cash_transactions"} <= covered, covered
    for name, (role, method, url, body) in _cross_cases(world).items():
        before, before_b = snapshot(), firm_b_snapshot(world)
        response = send(client, Request(method, url, {}, json=body), world.tokens[role])
        where = f"{name} ({role}: {method} {url})"
        status = response.status_code
        if MARKER in response.text.lower():
            problems.append(f"{where}: firm B's data in the answer: {_describe(response)}")
        if name in MOVES and 200 <= status < 300:
            table = MOVES[name]
            if _portfolio_of(table, rows[table]) != world.a.portfolio.id:
                problems.append(f"{where}: firm A's row moved to another portfolio: {_describe(response)}")
        elif status not in (400, 403, 404):
            problems.append(f"{where}: expected 400/403/404, got {_describe(response)}")
        changed = _changed(before_b, firm_b_snapshot(world))
        if changed:
            problems.append(f"{where}: firm B's rows changed: {changed}")
        if name not in MOVES and name not in MIXED:
            changed = _changed(before, snapshot())
            if changed:
                problems.append(f"{where}: the database changed: {changed}")
        _report(f"cross: {name:<60} {role[:5]}={status} {response.text[:160]}")
    assert not problems, "\n  ".join(["firm B's ids accepted in firm A's requests:", *problems])
