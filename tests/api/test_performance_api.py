"""Performance over REST: the portfolio's and the client's answers, and the Excel and PDF files
read back as their receiver reads them (openpyxl, pypdf). The world and its hand-checked figures
are those of tests/service/test_performance_service.py."""
from __future__ import annotations

import io

from openpyxl import load_workbook
from pypdf import PdfReader

from tests import factories as f
from tests.service.test_performance_service import world  # noqa: F401  (the fixture)


def test_the_portfolios_performance(client, world):
    result = f.ok_result(client.get(f"/api/investments/{world.portfolio.id}/performance", headers=f.headers(world.adviser)))
    assert result["title"] == "Smith Family" and result["firm_name"] == "Harbour Test"
    assert result["as_at"] == "2026-01-07" and result["value"] == "15490.00"
    since = {p["period"]: p for p in result["periods"]}["inception"]
    assert (since["twr"], since["income"], since["capital"], since["model"], since["difference"]) == (
        "4.90", "0.50", "4.40", "3.00", "1.90")
    assert {p["period"]: p for p in result["periods"]}["1y"]["twr"] is None
    assert [p["value"] for p in result["chart"]] == ["10000.00", "9990.00", "10490.00", "15490.00"]
    earlier = f.ok_result(client.get(f"/api/investments/{world.portfolio.id}/performance?until=2026-01-05",
                                     headers=f.headers(world.adviser)))
    assert earlier["value"] == "9990.00"
    bad = f.failure(client.get(f"/api/investments/{world.portfolio.id}/performance?until=31/02/2026",
                               headers=f.headers(world.adviser)), 400)
    assert bad["message"] == "ValidationError: Please, enter a valid date format."
    assert f.failure(client.get(f"/api/investments/{world.portfolio.id}/performance",
                                headers=f.headers(world.other_adviser)), 404)


def test_the_clients_performance(client, world):
    h = f.headers(world.client)
    mine = f.ok_result(client.get(f"/api/users/{world.client.id}/performance", headers=h))
    assert mine["user_id"] == world.client.id and [p["name"] for p in mine["portfolios"]] == ["Smith Family"]
    assert mine["portfolios"][0]["since_inception"] == "4.90"
    assert f.failure(client.get(f"/api/users/{world.co_holder.id}/performance", headers=h), 404)


def test_the_excel_file_reads_as_the_screen(client, world):
    response = client.get(f"/api/investments/{world.portfolio.id}/performance/export-excel?client-timezone-offset=-600",
                          headers=f.headers(world.adviser))
    assert response.status_code == 200
    assert "Smith Family - Performance - " in response.headers["content-disposition"]
    ws = load_workbook(io.BytesIO(response.content)).active
    cells = {(r, c): ws.cell(row=r, column=c).value for r in range(1, ws.max_row + 1) for c in range(1, 10)}
    texts = [v for v in cells.values() if isinstance(v, str)]
    assert "Harbour Test" in texts and "Balanced Growth" in texts
    since_row = next(r for (r, c), v in cells.items() if c == 1 and v == "Since inception")
    assert ws.cell(row=since_row, column=4).value == 0.049                # TWR 4.90 %
    assert ws.cell(row=since_row, column=5).value == 0.005                # income 0.50 %
    assert ws.cell(row=since_row, column=8).value == 0.03                 # the model 3.00 %
    one_year = next(r for (r, c), v in cells.items() if c == 1 and v == "1 year")
    assert ws.cell(row=one_year, column=4).value == "N/A"


def test_the_pdf_reads_as_the_screen(client, world):
    response = client.get(f"/api/users/{world.client.id}/performance/export-pdf", headers=f.headers(world.client))
    assert response.status_code == 200 and response.headers["content-type"] == "application/pdf"
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)
    assert "Harbour Test" in text and "Smith Family" in text
    assert "Since inception" in text and "4.9%" in text and "3.0%" in text and "N/A" in text
    assert "$15,490.00" in text
