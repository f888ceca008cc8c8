"""The financial-year tax report end to end, on the demo data:

- the demo adviser opens a portfolio's tax report from its holdings' Actions menu ("Tax report"); it
  opens on the last completed financial year; another year is picked and the summary and the tables'
  totals are the figures the REST API answers for that portfolio and year;
- the carried-forward loss form refuses "-5" with the service's text under the field, and a valid
  amount lowers the net capital gain to what the API then answers;
- the Excel download is read back with openpyxl: the firm's name, the year and the net capital gain;
- the demo client opens their own tax report from their home page ("My tax report"): their
  portfolios' figures, read-only, and a portfolio's own report with no loss form.
Screenshots at 1440x900 go to tests/e2e/artifacts/tax-*.png."""
from __future__ import annotations

import io
import re
from datetime import date
from decimal import Decimal

from openpyxl import load_workbook
from playwright.sync_api import Page, expect

from tests.e2e.browser import api_get, api_token

from app.domain import tax
from app.domain.money import format_aud

ADVISER = "adviser@harbour.example.com"
CLIENT = "client@harbour.example.com"
PASSWORD = "Demo1234"
TIMEOUT = 30_000
ARTIFACTS = "tests/e2e/artifacts"
NEGATIVE = "The carried-forward loss cannot be negative."


def _token(page: Page, email: str) -> tuple[str, int]:
    return api_token(page, email, PASSWORD)


def _get(page: Page, token: str, path: str) -> dict:
    return api_get(page, token, path)


def _aud(value) -> str:
    return format_aud(Decimal(str(value)))


def _shot(page: Page, name: str) -> None:
    page.wait_for_timeout(300)
    page.screenshot(path=f"{ARTIFACTS}/tax-{name}.png", full_page=True)


def _pick_year(page: Page, year: int) -> None:
    page.locator("#tax-year").click()
    page.get_by_role("option", name=tax.financial_year(year).label).click()
    expect(page.locator("#tax-year")).to_contain_text(f"FY{year}", timeout=TIMEOUT)


def _expect_figures(page: Page, report: dict) -> None:
    """The screen's summary and totals are the API's figures for the same portfolio and year."""
    capital, income = report["capital"], report["income_totals"]
    expect(page.locator("#tax-net-capital-gain")).to_have_text(_aud(capital["net_capital_gain"]), timeout=TIMEOUT)
    expect(page.locator("#tax-gains")).to_have_text(_aud(capital["gains"]))
    expect(page.locator("#tax-discount")).to_have_text(_aud(-Decimal(str(capital["discount"]))))
    expect(page.locator("#tax-carried-forward-out")).to_have_text(_aud(capital["carried_forward_out"]))
    expect(page.locator("#tax-franking-credits")).to_have_text(_aud(income["franking_credits"]))
    if report["income"]:
        expect(page.locator("#income-total-cash")).to_have_text(_aud(income["cash"]))
        expect(page.locator(".income-row")).to_have_count(len(report["income"]))
    if report["gains"]:
        expect(page.locator("#gains-total-net")).to_have_text(_aud(capital["net_capital_gain"]))
        expect(page.locator(".gain-row")).to_have_count(len(report["gains"]))
    if report["unrealised"]:
        expect(page.locator("#unrealised-total-value")).to_have_text(_aud(report["unrealised_totals"]["value"]))


def test_adviser_and_client_read_the_tax_report(page: Page, login) -> None:
    this_year = tax.financial_year_of(date.today())
    completed = this_year - 1
    client_token, client_id = _token(page, CLIENT)
    adviser_token, _ = _token(page, ADVISER)
    # a portfolio of the demo client with a net capital gain in one of the two years
    mine = _get(page, client_token, f"/api/users/{client_id}/tax-report?year={completed}")["portfolios"]
    assert mine, "the demo client holds portfolios"
    chosen = None
    for year in (this_year, completed):
        for p in mine:
            report = _get(page, adviser_token, f"/api/investments/{p['portfolio_id']}/tax-report?year={year}")
            capital = report["capital"]
            if Decimal(str(capital["net_capital_gain"])) > 100 and Decimal(str(capital["carried_forward_in"])) == 0:
                chosen = (p["portfolio_id"], year, report)
                break
        if chosen:
            break
    assert chosen, "a demo portfolio of the client has a net capital gain in the last two financial years"
    pid, year, report = chosen
    other = completed if year == this_year else this_year

    # the adviser opens it from the holdings' Actions menu: the last completed financial year first
    login(page, ADVISER)
    page.goto(f"/portfolios/{pid}/holdings")
    page.locator("#holdings-actions").click(timeout=TIMEOUT)
    page.locator("#action-tax-report").click()
    expect(page).to_have_url(re.compile(rf"/portfolios/{pid}/tax-report/?$"), timeout=TIMEOUT)
    expect(page.locator("h1")).to_have_text("Tax report", timeout=TIMEOUT)
    expect(page.locator("#tax-year")).to_contain_text(f"FY{completed}", timeout=TIMEOUT)
    expect(page.locator("#crumb-portfolio")).to_have_text(report["portfolio_name"])

    # another year, then the chosen one: the figures are the API's
    _pick_year(page, other)
    _expect_figures(page, _get(page, adviser_token, f"/api/investments/{pid}/tax-report?year={other}"))
    _pick_year(page, year)
    _expect_figures(page, report)
    _shot(page, "adviser")

    # the carried-forward loss: refused with the service's text, then saved and applied
    loss_field = page.locator("#carried-forward-loss")
    loss_field.fill("-5")
    page.locator("#tax-loss-save").click()
    expect(page.locator("#tax-loss-form .field-error")).to_have_text(NEGATIVE, timeout=TIMEOUT)
    loss_field.fill("100")
    # typing clears the mark, and the Save button moves up as it goes: click once it has
    expect(page.locator("#tax-loss-form .field-error")).to_have_count(0, timeout=TIMEOUT)
    page.locator("#tax-loss-save").click()
    expect(page.get_by_text("Carried-forward loss saved").first).to_be_visible(timeout=TIMEOUT)
    expect(page.locator("#tax-loss-form .field-error")).to_have_count(0)
    after = _get(page, adviser_token, f"/api/investments/{pid}/tax-report?year={year}")
    assert Decimal(str(after["capital"]["carried_forward_in"])) == 100
    assert Decimal(str(after["capital"]["net_capital_gain"])) < Decimal(str(report["capital"]["net_capital_gain"]))
    _expect_figures(page, after)
    expect(page.locator("#tax-carried-forward-in")).to_have_text("-$100.00")

    # the Excel download, read as its receiver reads it
    with page.expect_download(timeout=TIMEOUT) as info:
        page.locator("#tax-excel").click()
    download = info.value
    assert download.suggested_filename.endswith(f" - Tax report FY{year}.xlsx")
    ws = load_workbook(io.BytesIO(open(download.path(), "rb").read())).active
    assert ws["A1"].value == after["firm_name"]
    assert ws["A2"].value == f"Tax report {tax.financial_year(year).label}"
    lines = {row[0].value: row[1].value for row in ws.iter_rows(min_col=1, max_col=2) if row[0].value}
    assert Decimal(str(lines["Net capital gain"])) == Decimal(str(after["capital"]["net_capital_gain"]))
    assert Decimal(str(lines["Carried-forward loss brought in"])) == -100

    # the client: their own report from their home page, read-only
    page.locator("#user-menu").click()
    page.locator("#signout").click()
    page.wait_for_url(re.compile(r"/login$"), timeout=TIMEOUT)
    login(page, CLIENT)
    expect(page).to_have_url(re.compile(r"/my-portfolios/?$"), timeout=TIMEOUT)
    page.locator("#my-tax-report").click()
    expect(page).to_have_url(re.compile(r"/my-tax-report/?$"), timeout=TIMEOUT)
    expect(page.locator("#tax-year")).to_contain_text(f"FY{completed}", timeout=TIMEOUT)
    expect(page.locator(".tax-portfolio-row")).to_have_count(len(mine))
    expect(page.locator("#tax-loss-form")).to_have_count(0)
    _pick_year(page, year)
    whole = _get(page, client_token, f"/api/users/{client_id}/tax-report?year={year}")
    expect(page.locator("#tax-net-capital-gain")).to_have_text(_aud(whole["net_capital_gain"]), timeout=TIMEOUT)
    _shot(page, "client")
    page.locator(".tax-portfolio-link", has_text=report["portfolio_name"]).click()
    expect(page).to_have_url(re.compile(rf"/portfolios/{pid}/tax-report\?year={year}$"), timeout=TIMEOUT)
    expect(page.locator("#tax-year")).to_contain_text(f"FY{year}", timeout=TIMEOUT)
    expect(page.locator("#tax-net-capital-gain")).to_have_text(_aud(after["capital"]["net_capital_gain"]))
    expect(page.locator("#tax-summary")).to_be_visible()
    expect(page.locator("#tax-loss-form")).to_have_count(0)
