"""/api/audit-events, its Excel export and a portfolio's history, over HTTP."""
from __future__ import annotations

import io

import pytest
from openpyxl import load_workbook

from tests import factories as f
from tests import factories_portfolios as fp


@pytest.fixture
def w(db):
    return fp.make_portfolio_world()


def test_sign_ins_and_changes_are_listed_for_administrators(client, w):
    f.ok_result(client.post("/api/signin", json={"email": w.admin.email, "password": f.PASSWORD}))
    f.failure(client.post("/api/signin", json={"email": w.admin.email, "password": "Wrong1234"}), 401)
    h = f.headers(w.admin)
    portfolio = f.ok_result(client.get(f"/api/investments/{w.portfolio.id}", headers=h))
    f.ok_result(client.put(f"/api/investments/{w.portfolio.id}", headers=h,
                           json={"version": portfolio["version"], "name": "Renamed Family Fund"}))
    page = f.ok_result(client.get("/api/audit-events", headers=h))
    actions = [r["action"] for r in page["rows"]]
    assert actions == ["portfolio.updated", "signin.failed", "signin"] and page["totals"] == [{"count": 3}]
    change = page["rows"][0]
    assert change["after"]["name"] == "Renamed Family Fund" and change["actor_email"] == w.admin.email
    assert change["ip"] == "testclient"
    only = f.ok_result(client.get("/api/audit-events?action=signin.failed", headers=h))
    assert [r["action"] for r in only["rows"]] == ["signin.failed"]
    # the portfolio's history, for its adviser; nobody of another firm
    history = f.ok_result(client.get(f"/api/investments/{w.portfolio.id}/history", headers=f.headers(w.adviser)))
    assert [r["action"] for r in history["rows"]] == ["portfolio.updated"]
    f.failure(client.get(f"/api/investments/{w.portfolio.id}/history", headers=f.headers(w.other_adviser)), 404)
    # advisers and clients do not read the firm's trail
    for user in (w.adviser, w.client):
        f.failure(client.get("/api/audit-events", headers=f.headers(user)), 403)


def test_excel_export(client, w):
    f.ok_result(client.post("/api/signin", json={"email": w.admin.email, "password": f.PASSWORD}))
    path = "/api/audit-events/export-excel"
    response = client.get(f"{path}?token={f.ticket(f.session_token(w.superuser), path)}&client-timezone-offset=-600")
    assert response.status_code == 200
    assert "Audit Trail - " in response.headers["content-disposition"]
    sheet = load_workbook(io.BytesIO(response.content)).active
    rows = list(sheet.iter_rows(values_only=True))
    assert rows[0] == ("When", "Who", "Action", "Object", "Changes", "From")
    assert rows[1][1] == w.admin.email and rows[1][2] == "Signed in" and rows[1][5] == "testclient"
