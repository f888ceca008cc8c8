"""Holdings and custom holdings over HTTP: envelope and shapes, paging, permissions per role and
firm, real xlsx / pdf exports (token in the query, client-timezone-offset)."""
from __future__ import annotations

import io
import re
from decimal import Decimal as D

import pytest
from openpyxl import load_workbook
from pypdf import PdfReader

from tests import factories as f
from tests.factories_assets import make_asset, make_cash_class, make_class
from tests.factories_portfolios import cash, make_custom_holding, make_portfolio_world, post

NOT_FOUND = "NotFoundError: Portfolio not found"
NOT_ALLOWED = "PermissionError: You are not allowed to perform this action"
INVALID = "ValidationError: Please, fill all required fields with valid data"


@pytest.fixture
def w(db):
    world = make_portfolio_world()
    make_cash_class()
    eq = make_class("Australian Equities")
    bhp = make_asset("BHP", eq, name="BHP Group", last_close_price=D("45.10"), six_month_return=D("8.5"))
    cash(world.portfolio, "5000.00")
    post(world.portfolio, "asset_buy", asset_id=bhp.id, quantity=100, price="40.00", fee="9.95")
    world.equities = eq
    world.bhp = bhp
    return world


def test_holdings_result_and_assets_page(client, w):
    h = f.headers(w.adviser)
    result = f.ok_result(client.get(f"/api/investments/{w.portfolio.id}/holdings", headers=h))
    assert set(result) >= {"cash_account", "shares", "deposits", "custom_holdings", "classes", "totals"}
    # cash 5000 - (100 x 40 + 9.95) = 990.05; BHP 100 x 45.10 = 4510.00 against a cost of 4009.95;
    # since purchase 4510.00 / 4009.95 - 1 = 12.4702%; allocation 4510.00 / 5500.05 = 81.9993%
    assert result["cash_account"]["value"] == "990.05"
    (share,) = result["shares"]
    assert share == {
        "id": w.bhp.id, "asset_id": w.bhp.id, "name": "BHP Group", "code": "BHP", "quantity": "100", "price": "45.100000",
        "cost": "4009.95", "value": "4510.00", "url": None, "pdf_url": None, "sixMonthsReturn": "8.5000",
        "sincePurchase": "12.4702", "dividendYield": None, "class": "Australian Equities", "class_id": w.equities.id,
        "allocation": "81.9993",
    }
    assert result["totals"]["value"] == "5500.05" and result["can_edit"] is True

    page = f.ok_result(client.get(f"/api/investments/{w.portfolio.id}/assets?limit=12&offset=0", headers=h))
    assert page["totals"] == [{"count": 1}]
    assert page["rows"] == [{"id": w.bhp.id, "code": "BHP", "name": "BHP Group", "url": None, "class": "Australian Equities",
                             "class_id": w.equities.id, "allocation": "81.9993", "value": "4510.00", "cost": "4009.95"}]


@pytest.mark.parametrize("role, status", [
    ("superuser", 200), ("admin", 200), ("adviser", 200), ("client", 200), ("co_holder", 200),
    ("stranger", 404), ("other_adviser", 404), ("other_client", 404),
])
def test_read_permissions_per_role_and_firm(client, w, role, status):
    h = f.headers(getattr(w, role))
    for path in ("holdings", "assets", "custom-holdings", "holdings/export-excel", "holdings/export-pdf"):
        response = client.get(f"/api/investments/{w.portfolio.id}/{path}", headers=h)
        assert response.status_code == status, (path, response.text)
        if status == 404:
            assert f.failure(response, 404)["message"] == NOT_FOUND


def test_unauthenticated_and_bad_ids(client, w):
    assert client.get(f"/api/investments/{w.portfolio.id}/holdings").status_code == 401
    assert client.get(f"/api/investments/{w.portfolio.id}/holdings/export-excel?token=nope").status_code == 401
    h = f.headers(w.superuser)
    assert f.failure(client.get("/api/investments/abc/holdings", headers=h), 404)["message"] == NOT_FOUND
    assert f.failure(client.get("/api/investments/999999/assets", headers=h), 404)["message"] == NOT_FOUND
    # a superuser naming another firm's context
    other = f.failure(client.get(f"/api/investments/{w.portfolio.id}/assets?firm_id={w.other_firm.id}", headers=h), 404)
    assert other["message"] == NOT_FOUND


def test_excel_export_with_token_query(client, w):
    token = f.session_token(w.client)
    path = f"/api/investments/{w.portfolio.id}/holdings/export-excel"
    response = client.get(f"{path}?token={f.ticket(token, path)}&client-timezone-offset=-600")
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    disposition = response.headers["content-disposition"]
    assert re.search(r'attachment; filename="Smith Family - Holdings - \d\d-\d\d-\d{4}\.xlsx"', disposition)
    ws = load_workbook(io.BytesIO(response.content)).active
    values = [c.value for row in ws.iter_rows() for c in row if c.value is not None]
    assert "Smith Family" in values and "BHP" in values and 4510.0 in values and "Not linked" in values
    assert re.fullmatch(r"\d\d/\d\d/\d{4}", ws["B5"].value)


def test_pdf_export(client, w):
    response = client.get(f"/api/investments/{w.portfolio.id}/holdings/export-pdf?client-timezone-offset=-600",
                          headers=f.headers(w.admin))
    assert response.status_code == 200 and response.headers["content-type"] == "application/pdf"
    assert response.content[:5] == b"%PDF-"
    assert response.headers["content-disposition"].startswith('attachment; filename="Smith Family - Holdings - ')
    reader = PdfReader(io.BytesIO(response.content))
    assert len(reader.pages) == 1
    text = reader.pages[0].extract_text()
    assert "BHP Group" in text and "$4,510.00" in text and "$5,500.05" in text and "12.5%" in text


def test_custom_holdings_crud(client, w):
    h = f.headers(w.adviser)
    prop = make_class("Property")
    body = {"investment_id": w.portfolio.id, "name": "Beach House", "class_id": prop.id, "fee": "0.5", "value": "1000"}
    assert f.ok_result(client.post("/api/custom-holdings/validate", headers=h, json=body)) == {"valid": True}
    made = f.ok_result(client.post("/api/custom-holdings", headers=h, json=body))
    assert made["message"] == "Custom holding is created" and made["classTitle"] == "Property" and made["value"] == "1000.00"

    dup = f.failure(client.post("/api/custom-holdings/validate", headers=h, json={**body, "name": "beach house"}), 400)
    assert dup == {"success": False, "message": "ValidationError: Name should be unique.", "errors": {"name": "Name should be unique."}}
    assert f.failure(client.post("/api/custom-holdings", headers=h, json=body), 400)["errors"] == {"name": "Name should be unique."}
    bad = f.failure(client.post("/api/custom-holdings", headers=h, json={"investment_id": w.portfolio.id}), 400)
    assert bad["message"] == INVALID and set(bad["errors"]) == {"name", "class_id", "value"}

    updated = f.ok_result(client.put(f"/api/custom-holdings/{made['id']}", headers=h, json={"value": "1500.25"}))
    assert updated["value"] == "1500.25" and updated["name"] == "Beach House" and updated["fee"] == "0.5"
    assert f.ok_result(client.get(f"/api/custom-holdings/{made['id']}", headers=f.headers(w.client)))["value"] == "1500.25"
    listed = f.ok_result(client.get(f"/api/investments/{w.portfolio.id}/custom-holdings", headers=f.headers(w.client)))
    assert listed["totals"] == [{"count": 1}] and listed["rows"][0]["name"] == "Beach House"
    totals = f.ok_result(client.get(f"/api/investments/{w.portfolio.id}/holdings", headers=h))["totals"]
    assert totals["value"] == "7000.30" and totals["custom_holdings"] == "1500.25"
    classes = f.ok_result(client.get(f"/api/investments/{w.portfolio.id}/custom-holding-classes", headers=h))
    assert classes[0]["is_cash"] is True and "Property" in [c["title"] for c in classes]

    deleted = f.ok_result(client.delete(f"/api/custom-holdings/{made['id']}", headers=h))
    assert deleted == {"id": made["id"], "message": "Custom holding is deleted"}
    assert f.failure(client.delete(f"/api/custom-holdings/{made['id']}", headers=h), 404)["message"] == \
        "NotFoundError: Custom holding not found"


@pytest.mark.parametrize("role, status", [
    ("superuser", 200), ("admin", 200), ("adviser", 200), ("client", 403), ("co_holder", 403),
    ("stranger", 404), ("other_adviser", 404), ("other_client", 404),
])
def test_custom_holding_write_permissions(client, w, role, status):
    prop = make_class("Property")
    holding = make_custom_holding(w.portfolio, "Art", asset_class=prop)
    h = f.headers(getattr(w, role))
    body = {"investment_id": w.portfolio.id, "name": "Farm", "class_id": prop.id, "value": "10"}
    calls = [
        client.post("/api/custom-holdings/validate", headers=h, json=body),
        client.post("/api/custom-holdings", headers=h, json=body),
        client.put(f"/api/custom-holdings/{holding.id}", headers=h, json={"value": "20"}),
        client.delete(f"/api/custom-holdings/{holding.id}", headers=h),
    ]
    for response in calls:
        assert response.status_code == status, response.text
        if status == 403:
            assert response.json()["message"] == NOT_ALLOWED


def test_asset_ownership_on_a_date(client):
    w = make_portfolio_world()
    bhp = make_asset("BHP")
    post(w.portfolio, "asset_buy", asset_id=bhp.id, quantity=100, price="40", day="2026-01-05")
    post(w.portfolio, "parcel", asset_id=bhp.id, quantity=30, price="45", day="2026-02-05")
    post(w.other_portfolio, "asset_buy", asset_id=bhp.id, quantity=7, price="40", day="2026-01-05")
    rows = client.get("/api/investments-asset-ownership?date=2026-01-31", headers=f.headers(w.adviser)).json()["result"]["rows"]
    assert [(r["investment_name"], r["code"], r["quantity"]) for r in rows] == [("Smith Family", "BHP", "100")]
    rows = client.get("/api/investments-asset-ownership?date=2026-02-05", headers=f.headers(w.adviser)).json()["result"]["rows"]
    assert rows[0]["quantity"] == "70"
    assert client.get("/api/investments-asset-ownership?date=2026-01-04", headers=f.headers(w.adviser)).json()["result"]["rows"] == []
    rows = client.get("/api/investments-asset-ownership?date=2026-03-01", headers=f.headers(w.other_client)).json()["result"]["rows"]
    assert [(r["investment_name"], r["quantity"]) for r in rows] == [("Other Family", "7")]
    bad = client.get("/api/investments-asset-ownership?date=31-01-2026", headers=f.headers(w.adviser))
    assert bad.status_code == 400
