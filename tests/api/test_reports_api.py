"""Trade reports, broker files and orders over HTTP: the calls, the envelope, files read back,
roles and tenancy."""
from __future__ import annotations

import csv
import io
from datetime import date

import pytest
from openpyxl import load_workbook
from pypdf import PdfReader

from app.settings import settings
from tests import factories as f
from tests.factories_advice import make_book
from tests.factories_portfolios import make_portfolio_world


@pytest.fixture(autouse=True)
def _jobs_in_process(monkeypatch):
    monkeypatch.setattr(settings, "redis_url", "")


def _approved_trades(client, book) -> int:
    pid = book.portfolio_ids[0]
    adviser, owner = f.headers(book.adviser), f.headers(book.client)
    tp = f.ok_result(client.post(f"/api/investments/{pid}/target-portfolio", headers=adviser))
    f.ok_result(client.put(f"/api/target-portfolios/{tp['id']}/validate", headers=adviser, json={"row_version": 1}))
    f.ok_result(client.put(f"/api/target-portfolios/{tp['id']}/rofa", headers=owner, json={"action": "approve"}))
    [ti] = f.ok_result(client.post("/api/investments-generate-ti", headers=adviser, json={"investment_ids": [pid]}))
    out = f.ok_result(client.put("/api/reports/trade-recommendations-validate", headers=adviser,
                                 json={"trade_instructions": [ti["id"]]}))
    assert out["message"] == "Trades validated" and out["done"] == [ti["id"]]
    groups = f.ok_result(client.get("/api/reports/trade-recommendations-generate?status[]=spa", headers=adviser))["rows"]
    assert [g["trade_inst_id"] for g in groups] == [ti["id"]] and groups[0]["items"]
    out = f.ok_result(client.put("/api/reports/trade-recommendations-confirm", headers=owner,
                                 json={"trade_instructions": [ti["id"]], "is_approve_all": True}))
    assert out["message"] == "Trades approved."
    return ti["id"]


def test_trade_file_export_and_execution_file(client):
    book = make_book(1)
    adviser = f.headers(book.adviser)
    ti_id = _approved_trades(client, book)
    report = f.ok_result(client.get("/api/reports/trade-file-generate", headers=adviser))
    rows = [r for r in report["rows"] if not r["hidden"]]
    assert rows and {r["type"] for r in rows} == {"New"} and report["cash"][0]["investment_id"] == book.portfolio_ids[0]
    body = {"transactions": [{"id": r["recommendation_id"], "quantity": r["quantity"], "price": None,
                              "amount": r["amount"], "expirationDate": date.today().isoformat()} for r in rows]}
    response = client.post("/api/reports/trade-file-report-export", headers=adviser, json=body)
    assert response.status_code == 200 and "attachment;" in response.headers["content-disposition"]
    ws = load_workbook(io.BytesIO(response.content)).active
    assert ws.max_row == len(rows) + 1 and ws.cell(row=1, column=6).value == "Code"
    again = f.failure(client.post("/api/reports/trade-file-report-desktop-broker-export", headers=adviser, json=body), 400)
    assert again["message"].startswith("ValidationError: There are no trades to export")
    orders = f.ok_result(client.get("/api/orders", headers=adviser))
    assert orders["totals"][0]["count"] == len(rows)
    # the approval report PDF and Excel (the token in the link)
    token = f.session_token(book.adviser)
    pdf_path = "/api/reports/trade-instructions-export-pdf"
    pdf = client.get(f"{pdf_path}?token={f.ticket(token, pdf_path)}&status[]=sad")
    assert pdf.status_code == 200 and "Trade Recommendations" in "".join(
        p.extract_text() for p in PdfReader(io.BytesIO(pdf.content)).pages)
    xlsx_path = "/api/reports/trade-instructions-export-excel"
    xlsx = client.get(f"{xlsx_path}?token={f.ticket(token, xlsx_path)}&status[]=sad&mode=simple")
    sheet = load_workbook(io.BytesIO(xlsx.content)).active
    assert [c.value for c in sheet[1]] == ["Portfolio", "Code", "Action", "Quantity", "Price", "Value", "Decision"]
    one_path = f"/api/investments/{book.portfolio_ids[0]}/trade-instructions/export-excel"
    one = client.get(f"{one_path}?token={f.ticket(token, one_path)}")
    assert one.status_code == 200 and "Trade Recommendations" in one.headers["content-disposition"]
    # the execution file: a quantity that does not match writes nothing
    header = "code,side,quantity,price,brokerage,trade_date,settlement_date,account\n"
    first = orders["rows"][0]
    wrong = f"{first['asset_code']},{first['side']},1,1.00,0,{date.today():%d/%m/%Y},,ACC-1\n"
    failure = f.failure(client.post("/api/orders/confirmations-upload", headers=adviser,
                                    files={"file": ("fills.csv", header + wrong, "text/csv")}), 400)
    assert "line(s): 2" in failure["message"]
    assert f.ok_result(client.get("/api/orders", headers=adviser))["totals"][0]["count"] == len(rows)
    assert ti_id
    # one order filled, one refused by the broker: both on their portfolio's audit trail, with the export
    second = orders["rows"][1]
    f.ok_result(client.put(f"/api/orders/{first['id']}/execute", headers=adviser, json={"price": "10.50"}))
    f.ok_result(client.put(f"/api/orders/{second['id']}/reject", headers=adviser, json={"reason": "No liquidity"}))
    trail = f.ok_result(client.get("/api/audit-events", headers=f.headers(book.admin)))["rows"]
    actions = [r["action"] for r in trail]
    assert actions[:2] == ["order.rejected", "order.executed"] and "broker_file.exported" in actions
    assert trail[0]["after"]["reason"] == "No liquidity" and trail[1]["after"]["price"] == "10.50"


def test_reports_refuse_clients_and_other_firms(client):
    w = make_portfolio_world()
    assert f.failure(client.get("/api/reports/trade-file-generate", headers=f.headers(w.client)), 403)
    assert f.failure(client.get(f"/api/reports/trade-file-generate?firmId={w.firm.id}",
                                headers=f.headers(w.other_adviser)), 404)
    assert f.failure(client.post("/api/reports/trade-file-ausiex-export", headers=f.headers(w.adviser),
                                 json={"transactions": [], "firmId": w.firm.id}), 400)
    assert f.failure(client.post("/api/reports/trade-file-ausiex-export", headers=f.headers(w.adviser),
                                 json={"transactions": [{"id": 999999}]}), 404)
    assert f.failure(client.get("/api/reports/trade-recommendations-generate?status[]=xyz",
                                headers=f.headers(w.adviser)), 400)["message"].endswith("Filter is not found!")
    assert f.failure(client.put("/api/orders/999999/execute", headers=f.headers(w.adviser), json={"price": "1"}), 404)


def test_downloads_are_not_kept_in_caches(client):
    """Files built from client data forbid every cache (a shared browser or proxy keeps none)."""
    book = make_book(1)
    adviser = f.headers(book.adviser)
    _approved_trades(client, book)
    rows = [r for r in f.ok_result(client.get("/api/reports/trade-file-generate", headers=adviser))["rows"]
            if not r["hidden"]]
    body = {"transactions": [{"id": r["recommendation_id"], "quantity": r["quantity"], "price": None,
                              "amount": r["amount"], "expirationDate": date.today().isoformat()} for r in rows]}
    trade_file = client.post("/api/reports/trade-file-report-export", headers=adviser, json=body)
    assert trade_file.status_code == 200 and "attachment;" in trade_file.headers["content-disposition"]
    assert trade_file.headers["cache-control"] == "no-store"
    token = f.session_token(book.adviser)
    for path in ("/api/reports/trade-instructions-export-pdf", "/api/reports/trade-instructions-export-excel"):
        report = client.get(f"{path}?token={f.ticket(token, path)}&status[]=sad")
        assert report.status_code == 200 and "attachment;" in report.headers["content-disposition"]
        assert report.headers["cache-control"] == "no-store", path
