"""The cash report and the pending target portfolios report over HTTP: the envelope and its shape
(rows, totalAmount, availableStatuses; money as strings), filters, paging, the Excel and PDF
downloads with the token in the query (read back), roles and tenancy.

The book (tests.factories_advice.make_book): portfolio n holds $50,000 + $1,000 n cash less 10 + n
BHP bought at $40.00 with $10.00 brokerage, so its cash is 49,590.00, 50,550.00, 51,510.00 ..."""
from __future__ import annotations

import io
from decimal import Decimal
from urllib.parse import unquote

import pytest
from openpyxl import load_workbook
from pypdf import PdfReader

from app.settings import settings
from tests import factories as f
from tests.factories_advice import make_book

CASH = "/api/target-portfolios-cash-report/generate"
PENDING = "/api/target-portfolios-pending-report/generate"


@pytest.fixture(autouse=True)
def _jobs_in_process(monkeypatch):
    monkeypatch.setattr(settings, "redis_url", "")


@pytest.fixture
def book(client):
    """Calc 000 approved (calculated, validated, approved by its owner), Calc 001 calculated
    (Validation Required), Calc 002 never calculated."""
    book = make_book(3)
    adviser, owner = f.headers(book.adviser), f.headers(book.client)
    p0, p1, _ = book.portfolio_ids
    tp = f.ok_result(client.post(f"/api/investments/{p0}/target-portfolio", headers=adviser))
    f.ok_result(client.put(f"/api/target-portfolios/{tp['id']}/validate", headers=adviser, json={"row_version": 1}))
    f.ok_result(client.put(f"/api/target-portfolios/{tp['id']}/rofa", headers=owner, json={"action": "approve"}))
    f.ok_result(client.post(f"/api/investments/{p1}/target-portfolio", headers=adviser))
    return book


def test_cash_report_json(client, book):
    p0, p1, _ = book.portfolio_ids
    adviser = f.headers(book.adviser)
    result = f.ok_result(client.get(CASH, headers=adviser))
    assert {"rows", "totalAmount", "availableStatuses"} <= set(result)
    [row] = result["rows"]
    approved = f.ok_result(client.get(f"/api/investments/{p0}/target-portfolio", headers=adviser))
    assert row["investment_id"] == p0 and row["portfolio_name"] == "Calc 000" and row["tp_id"] == approved["id"]
    assert (row["status"], row["status_label"]) == ("active", "Approved")
    assert row["cash"] == "49590.00" and result["totalAmount"] == "49590.00"
    # the approved target's cash after its trades; cash to invest = cash - minimum cash = 49,590.00 - 0.00
    assert row["cash_after"] == "2575.00" and Decimal(approved["result"]["cash_after"]) == Decimal("2575.00")
    assert (row["min_cash"], row["cash_to_invest"]) == ("0.00", "49590.00")
    assert all(isinstance(row[k], str) for k in ("value", "cash", "cash_after", "min_cash", "cash_to_invest"))
    assert row["route"] == {"name": "portfolios.target-portfolio", "params": {"id": p0}}
    assert row["owners"] == f"{book.client.first_name} Tester" and row["adviser"] == f"{book.adviser.first_name} Tester"
    assert result["availableStatuses"] == [{"value": "draft", "label": "Validation Required"},
                                           {"value": "active", "label": "Approved"}]
    assert result["count"] == 1 and result["targetPortfolioStatus"] == ["active"]

    both = f.ok_result(client.get(f"{CASH}?targetPortfolioStatus=approved&targetPortfolioStatus=draft"
                                  "&sort=cash&order=desc", headers=adviser))
    assert [r["portfolio_name"] for r in both["rows"]] == ["Calc 001", "Calc 000"]
    assert both["totalAmount"] == "100140.00"  # 49,590.00 + 50,550.00
    paged = f.ok_result(client.get(f"{CASH}?targetPortfolioStatus=all&limit=1&offset=1", headers=adviser))
    assert [r["portfolio_name"] for r in paged["rows"]] == ["Calc 001"] and paged["count"] == 2
    assert paged["totalAmount"] == "100140.00"


def test_pending_report_json(client, book):
    _, p1, _ = book.portfolio_ids
    adviser = f.headers(book.adviser)
    result = f.ok_result(client.get(PENDING, headers=adviser))
    [row] = result["rows"]
    current = f.ok_result(client.get(f"/api/investments/{p1}/target-portfolio", headers=adviser))
    assert row["investment_id"] == p1 and row["status_label"] == "Validation Required" and row["days_waiting"] == 0
    assert row["value"] == current["target_portfolio_value"] and result["totalAmount"] == row["value"]
    assert row["calculated_by"] == f"{book.adviser.first_name} Tester" and row["error_message"] is None
    assert row["date"] == current["created_at"]
    assert result["availableStatuses"] == [{"value": "draft", "label": "Validation Required"}]
    assert result["sort"] == "date" and result["order"] == "desc"
    nec = f.ok_result(client.get(f"{PENDING}?notEnoughCash=1", headers=adviser))
    assert nec["rows"] == [] and nec["totalAmount"] == "0.00"
    assert f.ok_result(client.get(f"{PENDING}?targetPortfolioStatus=validated", headers=adviser))["rows"] == []


def test_downloads_with_the_token_in_the_query(client, book):
    token = f.session_token(book.adviser)
    response = client.get(f"{CASH}?fileType=xlsx&targetPortfolioStatus=all&token={f.ticket(token, CASH)}&client-timezone-offset=-600")
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("application/vnd.openxmlformats")
    disposition = unquote(response.headers["content-disposition"])
    assert "Calc Firm - Cash Report - " in disposition and disposition.endswith(".xlsx")
    ws = load_workbook(io.BytesIO(response.content)).active
    rows = {r[0]: r for r in ws.iter_rows(values_only=True) if r[0]}
    assert rows["Calc 000"][4] == "Approved" and rows["Calc 000"][7] == 49590
    assert rows["Calc 001"][4] == "Validation Required" and rows["Calc 001"][7] == 50550
    assert rows["Total"][7] == 100140

    response = client.get(f"{PENDING}?fileType=pdf&token={f.ticket(token, PENDING)}&client-timezone-offset=-600")
    assert response.status_code == 200 and response.headers["content-type"] == "application/pdf"
    assert "Pending Target Portfolios" in unquote(response.headers["content-disposition"])
    text = " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(response.content)).pages).split())
    assert "Calc 001" in text and "Validation Required" in text and "Calc 000" not in text

    assert client.get(f"{CASH}?fileType=xlsx&token=nope").status_code == 401
    assert f.failure(client.get(f"{CASH}?fileType=doc&token={f.ticket(token, CASH)}"), 400)["message"] == \
        "ValidationError: Unknown file type"


def test_refusals_and_tenancy(client, book):
    other = f.make_world()
    assert f.failure(client.get(CASH, headers=f.headers(book.client)), 403)["message"].startswith("PermissionError: ")
    assert f.failure(client.get(PENDING, headers=f.headers(book.client)), 403)
    # another firm's id from a non-superuser is not found; their own report holds nothing of this firm
    assert f.failure(client.get(f"{CASH}?firmId={book.firm.id}", headers=f.headers(other.adviser_a)), 404)[
        "message"] == "NotFoundError: Firm not found"
    assert f.failure(client.get(f"{PENDING}?firmId={book.firm.id}&fileType=xlsx",
                                headers=f.headers(other.admin_a)), 404)
    assert f.ok_result(client.get(f"{PENDING}?firmId=-1", headers=f.headers(other.adviser_a)))["rows"] == []
    su = f.headers(other.superuser)
    assert len(f.ok_result(client.get(f"{CASH}?firmId=-1&targetPortfolioStatus=all", headers=su))["rows"]) == 2
    assert f.ok_result(client.get(f"{CASH}?firmId={other.firm_a.id}", headers=su))["rows"] == []
    assert f.failure(client.get(f"{CASH}?targetPortfolioStatus=failed", headers=su), 400)["message"] == \
        "ValidationError: Unknown target portfolio status"
    assert client.get(CASH).status_code == 401


def test_openapi_lists_the_reports(client):
    paths = client.get("/api/openapi.json").json()["paths"]
    for path in (CASH, PENDING):
        names = {p["name"] for p in paths[path]["get"]["parameters"]}
        assert {"order", "sort", "firmId", "fileType", "targetPortfolioStatus"} <= names
    assert "notEnoughCash" in {p["name"] for p in paths[PENDING]["get"]["parameters"]}
