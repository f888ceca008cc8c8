"""Ordering and filtering of the version lists: a model's history (spec 000 s7, s9: orderBy and
orderDirection, created_at descending by default) and a portfolio's target portfolio versions
(001 s7: where version not null, investment_id, status in a list; orderBy, orderDirection)."""
from __future__ import annotations

import json

import pytest

from app.db.tables import ModelVersion
from app.domain.model_rules import read_form
from app.services import models
from tests.advice_edge import tps
from tests import factories as f
from tests import factories_models as fm
from tests.factories_advice import make_target_portfolio
from tests.factories_portfolios import make_portfolio


@pytest.fixture
def history(db):
    """A model of three versions whose saving times run against their numbers (version 1 is the
    newest: a history restored from elsewhere, say), so the two orders differ."""
    w = f.make_world()
    u = fm.make_universe()
    admin = f.actor(w.admin_a)
    mid = fm.make_model(admin, u)["id"]
    models.update_model(actor=admin, model_id=mid, form=read_form(fm.payload(u, version=1)))
    models.update_model(actor=admin, model_id=mid, form=read_form(fm.payload(u, version=2)))
    for row in fm.version_rows(mid):
        f.update_row(ModelVersion, row.id, created_at=f.at(f"2026-02-{10 - row.version:02d}"))
    return w, mid


def test_model_history_is_created_at_descending_by_default(history):
    w, mid = history
    found = models.model_history(actor=f.actor(w.admin_a), model_id=mid)
    rows, count = found.rows, found.total
    assert count == 3 and [r.version_id for r in rows] == [1, 2, 3]
    found = models.model_history(actor=f.actor(w.admin_a), model_id=mid, order="asc")
    rows = found.rows
    assert [r.version_id for r in rows] == [3, 2, 1]
    found = models.model_history(actor=f.actor(w.admin_a), model_id=mid, order_by="version_id", order="desc")
    rows = found.rows
    assert [r.version_id for r in rows] == [3, 2, 1]
    found = models.model_history(actor=f.actor(w.admin_a), model_id=mid, order_by="moderator_id; drop")
    rows = found.rows
    assert [r.version_id for r in rows] == [1, 2, 3]  # an unknown column: the default


def test_model_history_api_takes_order_by_and_where(history):
    w, mid = history
    client = f.api_client()
    url = f"/api/models/{mid}/history"
    result = f.ok_result(client.get(url, headers=f.headers(w.admin_a)))
    assert [r["version_id"] for r in result["rows"]] == [1, 2, 3] and result["count"] == 3
    result = f.ok_result(client.get(url, params={"orderBy": "version_id", "orderDirection": "asc", "limit": 2,
                                                 "where": json.dumps({"model_id": mid})}, headers=f.headers(w.admin_a)))
    assert [r["version_id"] for r in result["rows"]] == [1, 2]
    f.failure(client.get(url, params={"where": json.dumps({"model_id": mid + 1})}, headers=f.headers(w.admin_a)), 400)
    f.failure(client.get(url, params={"where": "{not json"}, headers=f.headers(w.admin_a)), 400)


@pytest.fixture
def versions(db):
    w = f.make_world()
    p = make_portfolio(w.firm_a, holders=[w.client_a], adviser=w.adviser_a)
    made = [make_target_portfolio(p, version=n, status=status, day=day) for n, status, day in (
        (1, "declined", "2026-03-05"), (2, "active", "2026-03-02"), (3, "validated", "2026-03-04"),
        (4, "draft", "2026-03-03"))]
    return w, p, made


def _numbers(rows):
    return [r.version for r in rows]


def test_target_portfolio_versions_order_and_status_filter(versions):
    w, p, _ = versions
    adviser = f.actor(w.adviser_a)
    rows, total = tps.versions(actor=adviser, investment_id=p.id)
    assert total == 4 and _numbers(rows) == [1, 3, 4, 2]  # created_at descending
    rows, _ = tps.versions(actor=adviser, investment_id=p.id, order_by="version", order="asc")
    assert _numbers(rows) == [1, 2, 3, 4]
    rows, total = tps.versions(actor=adviser, investment_id=p.id, statuses=["validated", "active", "declined"],
                               versioned=True)
    assert total == 3 and _numbers(rows) == [1, 3, 2]
    rows, total = tps.versions(actor=adviser, investment_id=p.id, statuses=["nonsense"])
    assert (rows, total) == ([], 0)
    rows, total = tps.versions(actor=f.actor(w.client_a), investment_id=p.id, statuses=["draft", "active"])
    assert _numbers(rows) == [2]  # a client never sees a draft, whatever is asked


def test_target_portfolio_versions_api_where_and_order_by(versions):
    w, p, _ = versions
    client = f.api_client()
    where = {"investment_id": p.id, "version": {"$ne": None}, "status": {"$in": ["validated", "active", "declined"]}}
    result = f.ok_result(client.get("/api/target-portfolios", params={"where": json.dumps(where)},
                                    headers=f.headers(w.adviser_a)))
    assert [r["version"] for r in result["rows"]] == [1, 3, 2] and result["totals"][0]["count"] == 3
    result = f.ok_result(client.get("/api/target-portfolios", params={
        "investment_id": p.id, "where": json.dumps({"status": ["draft", "active"]}), "orderBy": "version",
        "orderDirection": "desc"}, headers=f.headers(w.adviser_a)))
    assert [r["version"] for r in result["rows"]] == [4, 2]
    result = f.ok_result(client.get("/api/target-portfolios", params={"investment_id": p.id},
                                    headers=f.headers(w.adviser_a)))
    assert [r["version"] for r in result["rows"]] == [1, 3, 4, 2]
    other = make_portfolio(w.firm_a, holders=[w.client_a])
    f.failure(client.get("/api/target-portfolios", params={"investment_id": p.id, "where": json.dumps(
        {"investment_id": other.id})}, headers=f.headers(w.adviser_a)), 400)
    f.failure(client.get("/api/target-portfolios", params={"where": json.dumps({"colour": "red"})},
                         headers=f.headers(w.adviser_a)), 400)
