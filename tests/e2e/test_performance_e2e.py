"""Performance end to end, on the demo data:

- the demo adviser opens a client's portfolio's performance from its holdings' Actions menu: the
  value, the value-over-time chart (the portfolio, had it followed the model, and the money put in),
  and each period's time-weighted return, income and capital growth, IRR and the model's return are
  the figures the REST API answers; the Excel download is read back with openpyxl;
- the demo client opens their own performance from their home ("My performance"): every portfolio
  of theirs with its value, and nothing of another client.
Screenshots at 1440x900 go to tests/e2e/artifacts/performance-*.png."""
from __future__ import annotations

import io
import re
from decimal import Decimal

from openpyxl import load_workbook
from playwright.sync_api import Page, expect

from tests.e2e.browser import api_get, api_token

from app.domain.money import format_aud
from app.ui.display import percent_1dp

ADVISER = "adviser@harbour.example.com"
CLIENT = "client@harbour.example.com"
PASSWORD = "Demo1234"
TIMEOUT = 30_000
ARTIFACTS = "tests/e2e/artifacts"


def _token(page: Page, email: str) -> tuple[str, int]:
    return api_token(page, email, PASSWORD)


def _get(page: Page, token: str, path: str) -> dict:
    return api_get(page, token, path)


def _shot(page: Page, name: str) -> None:
    page.wait_for_timeout(400)
    page.screenshot(path=f"{ARTIFACTS}/performance-{name}.png", full_page=True)


def _percent(value: str | None) -> str:
    return percent_1dp(Decimal(value)) if value is not None else "N/A"


def test_adviser_and_client_read_performance(page: Page, login) -> None:
    client_token, client_id = _token(page, CLIENT)
    adviser_token, _ = _token(page, ADVISER)
    mine = _get(page, client_token, f"/api/users/{client_id}/performance")
    assert mine["portfolios"], "the demo client holds portfolios"
    # a portfolio of the client with a history and a model
    chosen = None
    for line in mine["portfolios"]:
        report = _get(page, adviser_token, f"/api/investments/{line['id']}/performance")
        if not report["message"] and report["model_name"] and any(p["available"] for p in report["periods"]):
            chosen = report
            break
    assert chosen, "a demo portfolio of the client has a history and follows a model"
    pid = chosen["investment_id"]

    # the adviser opens it from the holdings' Actions menu
    login(page, ADVISER)
    page.goto(f"/portfolios/{pid}/holdings")
    page.locator("#holdings-actions").click(timeout=TIMEOUT)
    page.locator("#action-performance").click()
    expect(page).to_have_url(re.compile(rf"/portfolios/{pid}/performance/?$"), timeout=TIMEOUT)
    expect(page.locator("h1")).to_have_text("Performance", timeout=TIMEOUT)
    expect(page.locator("#performance-value")).to_have_text(format_aud(Decimal(chosen["value"])), timeout=TIMEOUT)
    expect(page.locator("#performance-model")).to_contain_text(chosen["model_name"])
    # the chart draws its three lines
    expect(page.locator("#performance-chart .recharts-line")).to_have_count(3, timeout=TIMEOUT)
    for period in chosen["periods"]:
        row = page.locator(f"#period-{period['period']}")
        expect(row).to_contain_text(period["title"])
        cells = row.locator("td")
        expect(cells.nth(0)).to_have_text(_percent(period["twr"]))
        expect(cells.nth(1)).to_have_text(_percent(period["income"]))
        expect(cells.nth(2)).to_have_text(_percent(period["capital"]))
        expect(cells.nth(3)).to_have_text(_percent(period["irr"]))
        expect(cells.nth(4)).to_have_text(_percent(period["model"]))
    _shot(page, "adviser")

    # the Excel download, read as its receiver reads it
    with page.expect_download(timeout=TIMEOUT) as info:
        page.locator("#performance-excel").click()
    download = info.value
    assert download.suggested_filename.endswith(".xlsx") and " - Performance - " in download.suggested_filename
    ws = load_workbook(io.BytesIO(open(download.path(), "rb").read())).active
    assert ws["A1"].value == f"Performance - {chosen['title']}"
    heading = {row[0].value: row[1].value for row in ws.iter_rows(min_row=2, max_row=8, max_col=2)}
    assert heading["Firm"] == chosen["firm_name"] and heading["Model"] == chosen["model_name"]
    titles = [row[0].value for row in ws.iter_rows(min_col=1, max_col=1)]
    for period in chosen["periods"]:
        assert period["title"] in titles, period["title"]

    # the client: their own performance from their home, every portfolio of theirs
    page.locator("#user-menu").click()
    page.locator("#signout").click()
    page.wait_for_url(re.compile(r"/login$"), timeout=TIMEOUT)
    login(page, CLIENT)
    page.locator("#my-performance").click(timeout=TIMEOUT)
    expect(page).to_have_url(re.compile(r"/my-performance/?$"), timeout=TIMEOUT)
    expect(page.locator("#performance-value")).to_have_text(format_aud(Decimal(mine["value"])), timeout=TIMEOUT)
    for line in mine["portfolios"]:
        expect(page.get_by_role("link", name=line["name"], exact=True)).to_be_visible()
    _shot(page, "client")
