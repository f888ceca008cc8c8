"""A client portfolio's life end to end, through the UI only, as the Harbour adviser on the demo data:
the adviser reads BHP's last close in the asset universe, opens the demo client Amelia Fraser from
the clients list, creates a new Savings portfolio for her through the portfolio form, finds it in
the portfolios list and opens its holdings (nothing but an empty cash account), credits $50,000.00
on the cash transactions screen, buys a $10,000.00 term deposit at a demo institution on the term
deposits screen, buys 100 BHP at a typed price with brokerage on the asset transactions screen, and
then checks the holdings to the cent: cash = 50,000 - 10,000 - (100 x price + brokerage), the
deposit at $10,000.00, 100 BHP at that cost and valued at 100 x the last close, the total the sum of
the three; the cash screen's balance equals the holdings cash. A sell of 101 units is refused with
'Not enough assets to sell' and writes nothing: the holdings stay as they were. Screenshots at
1440x900 go to tests/e2e/artifacts/journey-*.png."""
from __future__ import annotations

import re
import uuid
from decimal import Decimal

from playwright.sync_api import Page, expect

from app.domain.cgt import format_aud
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.browser import see_toast

ADVISER = "adviser@harbour.example.com"
CLIENT_NAME = "Amelia Fraser"  # a demo client of the Harbour adviser (James Nguyen)
INSTITUTION = "Commonwealth Bank of Australia"  # a demo institution offering term deposits
TIMEOUT = 30_000
CREDIT = Decimal("50000.00")
DEPOSIT = Decimal("10000.00")
UNITS = 100
PRICE = Decimal("41.37")
BROKERAGE = Decimal("19.95")


def _choose(page: Page, trigger: str, option: str) -> None:
    page.locator(trigger).click()
    page.get_by_role("option", name=option, exact=True).click()


def _money(text: str) -> Decimal:
    """'$44.20' -> Decimal('44.20'), '-$1,000.00' -> Decimal('-1000.00')."""
    cleaned = text.strip().replace("$", "").replace(",", "")
    assert re.fullmatch(r"-?\d+(\.\d+)?", cleaned), f"not an amount: {text!r}"
    return Decimal(cleaned)


def _shot(page: Page, name: str) -> None:
    page.set_viewport_size({"width": 1440, "height": 900})
    page.wait_for_timeout(400)  # let toasts and menus settle
    page.screenshot(path=str(ARTIFACTS / f"journey-{name}.png"), full_page=True)


def _expect_holdings(page: Page, *, cash: Decimal, cost: Decimal, value: Decimal, total: Decimal) -> None:
    expect(page.locator("#total-value")).to_have_text(format_aud(total), timeout=TIMEOUT)
    expect(page.locator("#cash-value")).to_have_text(format_aud(cash))
    cash_row = page.locator(".holding-row[data-kind='cash']")
    expect(cash_row).to_have_count(1)
    expect(cash_row.locator(".holding-value")).to_have_text(format_aud(cash))
    deposit_row = page.locator(".holding-row[data-kind='deposit']")
    expect(deposit_row).to_have_count(1)
    expect(deposit_row).to_contain_text(INSTITUTION)
    expect(deposit_row.locator("td").nth(3)).to_have_text(format_aud(DEPOSIT))  # cost
    expect(deposit_row.locator(".holding-value")).to_have_text(format_aud(DEPOSIT))
    share_row = page.locator(".holding-row[data-kind='share']")
    expect(share_row).to_have_count(1)
    bhp = page.locator(".holding-row[data-code='BHP']")
    expect(bhp).to_contain_text("BHP Group Limited")
    expect(bhp.locator("td").nth(2)).to_have_text(str(UNITS))  # quantity
    expect(bhp.locator("td").nth(3)).to_have_text(format_aud(cost))  # cost
    expect(bhp.locator(".holding-value")).to_have_text(format_aud(value))


def test_adviser_takes_a_new_portfolio_from_creation_to_holdings(page: Page, login) -> None:
    name = f"Fraser Savings {uuid.uuid4().hex[:6]}"
    login(page, ADVISER)

    # BHP's last close as the asset universe shows it (another test may have imported a newer one)
    page.goto("/assets")
    page.locator("#asset-search").fill("bhp")
    bhp_asset = page.locator(".asset-row[data-code=BHP]")
    expect(page.locator(".asset-row")).to_have_count(1, timeout=TIMEOUT)
    bhp_asset.click()
    expect(page.locator("#detail-title")).to_contain_text("BHP", timeout=TIMEOUT)
    expect(page.locator("#detail-price")).to_have_text(re.compile(r"^\$[\d,]+\.\d\d$"), timeout=TIMEOUT)
    last_close = _money(page.locator("#detail-price").inner_text())
    page.locator("#detail-close").click()

    # the clients list: the client's row opens her portfolios, which offer 'Add New'
    page.goto("/clients")
    page.locator("#search").fill("Fraser")
    row = page.locator(".user-row").filter(has_text=CLIENT_NAME)
    expect(row).to_have_count(1, timeout=TIMEOUT)
    row.locator(".user-name").click()
    page.wait_for_url(re.compile(r".*/clients/\d+/portfolios$"), timeout=TIMEOUT)
    expect(page.locator("#page-title")).to_have_text(f"{CLIENT_NAME} \u00b7 Portfolio List", timeout=TIMEOUT)
    page.locator("#portfolio-new").click()

    # the portfolio form: the client is the holder; a Savings portfolio with a name of its own
    page.wait_for_url(re.compile(r".*/clients/\d+/new-portfolio.*"), timeout=TIMEOUT)
    expect(page.locator("#page-title")).to_have_text("Portfolio Details - New", timeout=TIMEOUT)
    expect(page.locator(".holder-row")).to_have_count(1, timeout=TIMEOUT)
    expect(page.locator(".holder-row")).to_contain_text(CLIENT_NAME)
    page.locator("#portfolio-name").fill(name)
    _choose(page, "#type", "Savings")
    expect(page.locator(".field-error")).to_have_count(0, timeout=TIMEOUT)
    page.locator("#portfolio-save").click()
    see_toast(page, "Portfolio is created/updated")
    page.wait_for_url(re.compile(r".*/portfolios/\d+$"), timeout=TIMEOUT)
    pid = int(re.search(r"/portfolios/(\d+)$", page.url).group(1))
    expect(page.locator("#portfolio-name")).to_have_value(name, timeout=TIMEOUT)

    # the portfolios list finds it (new portfolios start inactive); its row opens the holdings
    page.goto("/portfolios")
    page.locator("#portfolio-search").fill(name)
    _choose(page, "#activity-filter", "All portfolios")
    listed = page.locator(".portfolio-row").filter(has_text=name)
    expect(listed).to_have_count(1, timeout=TIMEOUT)
    expect(listed).to_contain_text("Savings")
    expect(listed).to_contain_text(CLIENT_NAME)
    listed.locator(".portfolio-name").click()
    page.wait_for_url(re.compile(rf".*/portfolios/{pid}/holdings$"), timeout=TIMEOUT)

    # the empty holdings: an empty cash account and nothing else
    expect(page.locator("#crumb-portfolio")).to_have_text(name, timeout=TIMEOUT)
    expect(page.locator("#crumb-owners")).to_contain_text(CLIENT_NAME)
    expect(page.locator("#total-value")).to_have_text("$0.00", timeout=TIMEOUT)
    expect(page.locator("#cash-value")).to_have_text("$0.00")
    expect(page.locator(".holding-row[data-kind='share']")).to_have_count(0)
    expect(page.locator(".holding-row[data-kind='deposit']")).to_have_count(0)
    expect(page.locator(".holding-row[data-kind='custom']")).to_have_count(0)
    _shot(page, "holdings-empty")

    # cash transactions: a credit of $50,000.00
    page.locator("#holdings-actions").click()
    page.locator("#action-cash").click()
    page.wait_for_url(re.compile(rf".*/portfolios/{pid}/cash-transactions$"), timeout=TIMEOUT)
    expect(page.locator("#cash-body")).to_contain_text("No cash transactions yet", timeout=TIMEOUT)
    expect(page.locator("#cash-balance")).to_have_text("$0.00")
    page.locator("#cash-add").click()
    page.locator("#cash-add-credit").click()
    expect(page.locator("#cm-title")).to_have_text("Add cash transaction", timeout=TIMEOUT)
    page.locator("#cm-price").fill("50000")
    page.locator("#cm-trade-at").fill("02/11/2026")
    page.locator("#cm-description").fill("Initial contribution")
    page.locator("#cm-save").click()
    see_toast(page, "Transaction added")
    expect(page.locator("#cash-balance")).to_have_text(format_aud(CREDIT), timeout=TIMEOUT)
    expect(page.locator(".cash-row[data-class='Credit']")).to_have_count(1)

    # term deposits: buy $10,000.00 at a demo institution
    page.locator("#cash-actions").click()
    page.locator("#cash-to-deposits").click()
    page.wait_for_url(re.compile(rf".*/portfolios/{pid}/add-deposit$"), timeout=TIMEOUT)
    expect(page.locator("#page-title")).to_have_text("Term deposits and at-call accounts", timeout=TIMEOUT)
    expect(page.locator("#deposit-cash")).to_have_text(format_aud(CREDIT), timeout=TIMEOUT)
    page.locator("#deposit-open-buy").click()
    form = page.locator("#deposit-form")
    expect(form).to_be_visible(timeout=TIMEOUT)
    expect(page.locator("#deposit-kind")).to_have_value("Term Deposit Buy")
    _choose(page, "#deposit-institution", INSTITUTION)
    expect(page.locator("#deposit-providername")).to_have_value(INSTITUTION, timeout=TIMEOUT)
    page.locator("#deposit-start").fill("03/11/2026")
    page.locator("#deposit-amount").fill("10000")
    page.locator("#deposit-maturityterm").fill("6")
    page.locator("#deposit-rate").fill("4.5")
    expect(form.locator(".field-error")).to_have_count(0, timeout=TIMEOUT)
    page.locator("#deposit-save").click()
    see_toast(page, "Transaction added")
    expect(form).to_have_count(0, timeout=TIMEOUT)
    deposit = page.locator(".deposit-row").filter(has_text=INSTITUTION)
    expect(deposit).to_have_count(1, timeout=TIMEOUT)
    expect(deposit.locator(".deposit-balance")).to_have_text(format_aud(DEPOSIT))
    expect(page.locator("#deposit-cash")).to_have_text(format_aud(CREDIT - DEPOSIT), timeout=TIMEOUT)

    # asset transactions (through the holdings, the deposits screen's crumb): buy 100 BHP
    page.locator("#breadcrumbs a").filter(has_text=name).click()
    page.wait_for_url(re.compile(rf".*/portfolios/{pid}/holdings$"), timeout=TIMEOUT)
    page.locator("#holdings-actions").click()
    page.locator("#action-assets").click()
    page.wait_for_url(re.compile(rf".*/portfolios/{pid}/asset-transactions$"), timeout=TIMEOUT)
    expect(page.locator("#asset-body")).to_contain_text("No asset transactions yet", timeout=TIMEOUT)
    expect(page.locator("#assets-cash")).to_have_text(format_aud(CREDIT - DEPOSIT), timeout=TIMEOUT)
    cost = UNITS * PRICE + BROKERAGE
    page.locator("#asset-add").click()
    modal = page.locator("#asset-transaction-modal")
    expect(modal).to_be_visible(timeout=TIMEOUT)
    page.locator("#af-code").fill("BHP")
    page.locator("#af-code").blur()
    expect(page.locator("#af-asset-name")).to_contain_text("BHP", timeout=TIMEOUT)
    page.locator("#af-trade-at").fill("04/11/2026")
    page.locator("#af-quantity").fill(str(UNITS))
    page.locator("#af-price").fill(str(PRICE))
    page.locator("#af-fee").fill(str(BROKERAGE))
    expect(page.locator("#af-value-hint")).to_have_text(
        f"Value {format_aud(UNITS * PRICE)} \u00b7 Cash out {format_aud(cost)}", timeout=TIMEOUT)
    page.locator("#af-save").click()
    see_toast(page, "Transaction added")
    expect(modal).to_have_count(0, timeout=TIMEOUT)
    bhp = page.locator(".asset-row[data-code='BHP']")
    expect(bhp.locator(".asset-remaining")).to_have_text(str(UNITS), timeout=TIMEOUT)
    expect(bhp.locator(".asset-cost")).to_have_text(format_aud(cost))

    # the holdings, to the cent
    cash = CREDIT - DEPOSIT - cost
    value = UNITS * last_close
    total = cash + DEPOSIT + value
    assert cash == Decimal("35843.05")  # 50,000 - 10,000 - (100 x 41.37 + 19.95)
    expect(page.locator("#assets-cash")).to_have_text(format_aud(cash), timeout=TIMEOUT)
    page.locator("#crumb-portfolio").click()
    page.wait_for_url(re.compile(rf".*/portfolios/{pid}/holdings$"), timeout=TIMEOUT)
    _expect_holdings(page, cash=cash, cost=cost, value=value, total=total)
    _shot(page, "holdings")

    # the cash screen's balance is the holdings' cash
    page.locator("#holdings-actions").click()
    page.locator("#action-cash").click()
    page.wait_for_url(re.compile(rf".*/portfolios/{pid}/cash-transactions$"), timeout=TIMEOUT)
    expect(page.locator("#cash-balance")).to_have_text(format_aud(cash), timeout=TIMEOUT)
    expect(page.locator(".cash-row")).to_have_count(3)  # the credit and the two purchases' cash legs
    expect(page.locator(".cash-row[data-class='Credit']")).to_contain_text(format_aud(CREDIT))
    buys = page.locator(".cash-row[data-class='Buy']")
    expect(buys.filter(has_text="BHP")).to_contain_text(format_aud(-cost))
    expect(buys.filter(has_text=INSTITUTION)).to_contain_text(format_aud(-DEPOSIT))
    expect(page.locator("#cash-in")).to_have_text(format_aud(CREDIT))
    expect(page.locator("#cash-out")).to_have_text(format_aud(DEPOSIT + cost))
    _shot(page, "cash")

    # selling 101 units is refused and writes nothing
    page.locator("#cash-actions").click()
    page.locator("#cash-to-assets").click()
    page.wait_for_url(re.compile(rf".*/portfolios/{pid}/asset-transactions$"), timeout=TIMEOUT)
    expect(bhp.locator(".asset-remaining")).to_have_text(str(UNITS), timeout=TIMEOUT)
    page.locator("#asset-add").click()
    expect(modal).to_be_visible(timeout=TIMEOUT)
    page.locator("#af-type-sell").click()
    page.locator("#af-code").fill("BHP")
    page.locator("#af-code").blur()
    expect(page.locator("#af-asset-name")).to_contain_text("BHP", timeout=TIMEOUT)
    page.locator("#af-trade-at").fill("05/11/2026")
    page.locator("#af-quantity").fill(str(UNITS + 1))
    page.locator("#af-price").fill("45")
    page.locator("#af-save").click()
    expect(page.locator("[data-sonner-toast]").filter(has_text="Not enough assets to sell")) \
        .to_be_visible(timeout=TIMEOUT)
    expect(modal.locator(".field-error")).to_contain_text(["Not enough assets to sell"], timeout=TIMEOUT)
    _shot(page, "sell-refused")
    page.locator("#af-cancel").click()
    expect(modal).to_have_count(0, timeout=TIMEOUT)
    expect(bhp.locator(".asset-remaining")).to_have_text(str(UNITS))
    expect(page.locator("#assets-cash")).to_have_text(format_aud(cash))
    bhp.locator(".asset-toggle").click()
    panel = page.locator(".asset-transactions[data-code='BHP']")
    expect(panel.locator(".tx-row")).to_have_count(1, timeout=TIMEOUT)  # the purchase only
    expect(panel.locator(".tx-type")).to_have_text(["Purchase"])

    # the holdings as they were, after a fresh load
    page.goto(f"/portfolios/{pid}/holdings")
    _expect_holdings(page, cash=cash, cost=cost, value=value, total=total)
    _shot(page, "holdings-after-refusal")
