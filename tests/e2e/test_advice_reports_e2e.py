"""The cash report and the pending target portfolios report end to end, as the Harbour demo adviser.

Through the REST API the adviser calculates the target portfolios of two demo portfolios and has
one validated and approved. The cash report then shows the approved one with its cash (the figure
the API answers), and its Excel download holds the same row; the pending report shows the other as
Validation Required. While the pending report is open, calculating the approved portfolio again
(through the API, in the server) makes its new draft appear without a reload: the 'target portfolio
updated' event. Screenshots at 1440x900 go to tests/e2e/artifacts/report-*.png."""
from __future__ import annotations

import io
import re
from decimal import Decimal

from openpyxl import load_workbook
from playwright.sync_api import Page, expect

from app.domain.cgt import format_aud

ADVISER = "adviser@harbour.example.com"
TIMEOUT = 30_000
ARTIFACTS = "tests/e2e/artifacts"


def _api(page: Page, base: str):
    token = page.request.post(f"{base}/api/signin", data={"email": ADVISER, "password": "Demo1234"}
                              ).json()["result"]["token"]
    headers = {"x-token": token}

    def call(method: str, path: str, data=None) -> dict:
        response = page.request.fetch(f"{base}{path}", method=method, headers=headers, data=data)
        assert response.ok, response.text()
        return response.json()["result"]

    return call


def test_adviser_reads_both_reports_downloads_the_excel_and_sees_live_updates(page: Page, login, app_server) -> None:
    call = _api(page, app_server.url)
    listed = call("GET", "/api/investments?limit=100")["rows"]
    with_model = [p for p in listed if p.get("model")]
    assert len(with_model) >= 2, listed
    approved, pending = with_model[0], with_model[1]

    tp = call("POST", f"/api/investments/{approved['id']}/target-portfolio")
    assert tp["status"] == "draft", tp
    tp = call("PUT", f"/api/target-portfolios/{tp['id']}/validate", {"row_version": tp["row_version"]})
    if tp["status"] == "validated":
        tp = call("PUT", f"/api/target-portfolios/{tp['id']}/rofa", {"action": "approve", "row_version": tp["row_version"]})
    assert tp["status"] == "active", tp
    draft = call("POST", f"/api/investments/{pending['id']}/target-portfolio")
    assert draft["status"] in ("draft", "failed"), draft

    cash = call("GET", "/api/target-portfolios-cash-report/generate")
    row = next(r for r in cash["rows"] if r["investment_id"] == approved["id"])
    login(page, ADVISER)

    # the cash report: the approved portfolio with its cash, as the API answers it
    page.goto("/reports/cash")
    expect(page.locator("#page-title")).to_have_text("Cash report", timeout=TIMEOUT)
    line = page.locator(".report-row").filter(has=page.locator(f"a[href='/portfolios/{approved['id']}/target-portfolio']"))
    expect(line).to_have_count(1, timeout=TIMEOUT)
    expect(line.locator(".tp-status")).to_have_text("Approved")
    expect(line).to_contain_text(format_aud(Decimal(row["cash"])))
    expect(page.locator("#report-total")).to_have_text(format_aud(Decimal(cash["totalAmount"])))
    page.screenshot(path=f"{ARTIFACTS}/report-cash.png", full_page=True)

    with page.expect_download(timeout=TIMEOUT) as info:
        page.locator("#export-excel").click()
    download = info.value
    assert re.fullmatch(r"Harbour Wealth Partners - Cash Report - \d\d-\d\d-\d{4}\.xlsx", download.suggested_filename)
    ws = load_workbook(io.BytesIO(open(download.path(), "rb").read())).active
    sheet = {r[0]: r for r in ws.iter_rows(values_only=True) if r[0]}
    assert sheet[approved["name"]][4] == "Approved"
    assert Decimal(str(sheet[approved["name"]][7])) == Decimal(row["cash"])

    # the pending report: the other portfolio waits; the approved one does not
    page.goto("/reports/pending-target-portfolios")
    expect(page.locator("#page-title")).to_have_text("Pending target portfolios", timeout=TIMEOUT)
    waiting = page.locator(".report-row").filter(has=page.locator(f"a[href='/portfolios/{pending['id']}/target-portfolio']"))
    expect(waiting).to_have_count(1, timeout=TIMEOUT)
    expect(waiting.locator(".tp-status")).to_have_text(re.compile("Validation Required|Not Enough Cash|Calculation Error"))
    again = page.locator(".report-row").filter(has=page.locator(f"a[href='/portfolios/{approved['id']}/target-portfolio']"))
    expect(again).to_have_count(0)
    expect(page.locator("#report-live")).to_be_visible(timeout=TIMEOUT)
    page.screenshot(path=f"{ARTIFACTS}/report-pending.png", full_page=True)

    # a new calculation in the server shows up while the page is open
    call("POST", f"/api/investments/{approved['id']}/target-portfolio")
    expect(again).to_have_count(1, timeout=TIMEOUT)
    expect(again.locator(".tp-status")).to_have_text(re.compile("Validation Required|Not Enough Cash"))

    # the Not Enough Cash switch keeps only those; the arrow opens the target portfolio
    page.locator("#not-enough-cash").click()
    expect(page.locator(".tp-status").filter(has_not_text="Not Enough Cash")).to_have_count(0, timeout=TIMEOUT)
    page.locator("#not-enough-cash").click()
    expect(waiting).to_have_count(1, timeout=TIMEOUT)
    waiting.locator(".open-target").click()
    page.wait_for_url(re.compile(rf".*/portfolios/{pending['id']}/target-portfolio$"), timeout=TIMEOUT)
