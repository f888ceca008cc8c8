"""Tax reports over HTTP: the portfolio's and the client's report for a financial year, the
carried-forward loss refused with its text, and the workbook download."""
from __future__ import annotations

import io
from datetime import date

import pytest
from openpyxl import load_workbook

from tests import factories as f
from tests.factories_assets import add_prices, make_asset, make_class
from tests.factories_portfolios import make_portfolio_world, post


@pytest.fixture
def w(db):
    world = make_portfolio_world()
    bhp = make_asset("BHP", make_class("Australian Equities"), name="BHP Group")
    add_prices(bhp, [(date(2026, 6, 30), "50")])
    # 100 bought 1/8/2024 at $40, 40 sold 4/8/2025 at $45: +$200 held over 12 months -> $100 net
    post(world.portfolio, "asset_buy", asset_id=bhp.id, quantity=100, price="40", day="2024-08-01")
    post(world.portfolio, "parcel", asset_id=bhp.id, quantity=40, price="45", day="2025-08-04")
    return world


def test_portfolio_report_and_carried_forward_loss(client, w):
    url = f"/api/investments/{w.portfolio.id}/tax-report"
    r = f.ok_result(client.get(url, params={"year": 2026}, headers=f.headers(w.adviser)))
    assert r["year"] == 2026 and r["label"] == "FY2026 (1 July 2025 - 30 June 2026)" and r["empty"] is False
    assert r["capital"]["net_capital_gain"] == "100.00" and r["gains"][0]["acquired"] == "2024-08-01"
    assert r["unrealised"][0]["value"] == "3000.00"
    body = f.failure(client.put(f"/api/investments/{w.portfolio.id}/carried-forward-losses/2026",
                                json={"amount": "-10"}, headers=f.headers(w.adviser)), 400)
    assert body["message"] == "ValidationError: The carried-forward loss cannot be negative."
    body = f.failure(client.put(f"/api/investments/{w.portfolio.id}/carried-forward-losses/2026",
                                json={"amount": "ten"}, headers=f.headers(w.adviser)), 400)
    assert body["message"] == "ValidationError: The carried-forward loss must be a number."
    saved = f.ok_result(client.put(f"/api/investments/{w.portfolio.id}/carried-forward-losses/2026",
                                   json={"amount": 150}, headers=f.headers(w.adviser)))
    assert saved == {"portfolio_id": w.portfolio.id, "year": 2026, "amount": "150.00",
                     "message": "Carried-forward loss saved"}
    r = f.ok_result(client.get(url, params={"year": "2026"}, headers=f.headers(w.client)))
    assert r["capital"]["net_capital_gain"] == "25.00" and r["can_edit"] is False  # ($200 - $150) / 2
    f.failure(client.put(f"/api/investments/{w.portfolio.id}/carried-forward-losses/2026", json={"amount": 1},
                         headers=f.headers(w.client)), 403)
    empty = f.ok_result(client.get(url, params={"year": 2019}, headers=f.headers(w.adviser)))
    assert empty["empty"] is True and empty["message"].startswith("No transactions fall in FY2019")


def test_client_report_and_download(client, w):
    r = f.ok_result(client.get(f"/api/users/{w.client.id}/tax-report", params={"year": 2026},
                               headers=f.headers(w.client)))
    assert [p["portfolio_name"] for p in r["portfolios"]] == ["Smith Family"] and r["net_capital_gain"] == "100.00"
    f.failure(client.get(f"/api/users/{w.co_holder.id}/tax-report", headers=f.headers(w.client)), 404)
    response = client.get(f"/api/investments/{w.portfolio.id}/tax-report/export-excel", params={"year": 2026},
                          headers=f.headers(w.adviser))
    assert response.status_code == 200
    assert "Smith Family - Tax report FY2026.xlsx" in response.headers["content-disposition"]
    ws = load_workbook(io.BytesIO(response.content)).active
    assert ws["A1"].value == "Harbour Test"
