"""Cash and asset transactions end to end, as the Harbour adviser on a portfolio of Liam O'Connor's
created for the test: the breadcrumbs name the portfolio and its owner; an opening balance and a
credit set the cash balance (an unchanged opening balance closes without a change); a purchase
added through the asset transaction modal shows up as the asset's row and takes its cost out of the
cash balance; a sell beyond the units held is refused with 'Not enough assets to sell' and the
quantity is marked; the row expands to its transactions and the status filters narrow them; a CSV
upload adds its lines, a file with a wrong line adds none and names the line; a transaction is
deleted after the confirmation; a client sees the same screens read-only. portfolios.add-transaction
opens the form; an errored transaction is changed by a new one after the confirmation; the asset
panel pages by 12, Load more appends the next page, and an emptied page steps back."""
from __future__ import annotations

import json
import uuid
from datetime import datetime, timedelta, timezone
from decimal import Decimal

from playwright.sync_api import Page, expect
from sqlmodel import Session, create_engine, select

from app.db.tables import Asset, AssetTransaction, CashTransaction, Firm, Portfolio, PortfolioUser, User
from app.services import postings
from tests.e2e.browser import see_toast

ADVISER = "adviser@harbour.example.com"
CLIENT = "client@harbour.example.com"
TIMEOUT = 30_000
ARTIFACTS = "tests/e2e/artifacts"
APPROVAL = {"tp_validation_required": True, "tr_validation_required": True, "tp_approval_required": True,
            "tp_approval_request": True, "tr_approval_request": True, "tr_approval_required": True,
            "tr_auto_approval": "never"}


def _engine(url: str):
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url.split("://", 1)[1]
    return create_engine(url)


def _portfolio(database_url: str) -> tuple[int, str]:
    """A new, empty Harbour portfolio held (and owned) by Liam O'Connor, advised by the adviser."""
    name = f"E2E Transactions {uuid.uuid4().hex[:6]}"
    engine = _engine(database_url)
    try:
        with Session(engine, expire_on_commit=False) as s:
            firm = s.exec(select(Firm).where(Firm.name == "Harbour Wealth Partners")).one()
            client = s.exec(select(User).where(User.email == CLIENT)).one()
            adviser = s.exec(select(User).where(User.email == ADVISER)).one()
            p = Portfolio(firm_id=firm.id, name=name, type="SAVINGS", adviser_id=adviser.id, inactive=False,
                          approval_settings=json.dumps(APPROVAL))
            s.add(p)
            s.flush()
            s.add(PortfolioUser(investment_id=p.id, user_id=client.id, is_owner=True))
            s.commit()
            return p.id, name
    finally:
        engine.dispose()


def _stored(database_url: str, portfolio_id: int) -> tuple[int, int]:
    engine = _engine(database_url)
    try:
        with Session(engine) as s:
            a = len(s.exec(select(AssetTransaction.id).where(AssetTransaction.investment_id == portfolio_id)).all())
            c = len(s.exec(select(CashTransaction.id).where(CashTransaction.investment_id == portfolio_id)).all())
            return a, c
    finally:
        engine.dispose()


def _shots(page: Page, name: str) -> None:
    page.screenshot(path=f"{ARTIFACTS}/{name}-desktop.png", full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(300)
    page.screenshot(path=f"{ARTIFACTS}/{name}-phone.png", full_page=True)
    page.set_viewport_size({"width": 1440, "height": 900})
    page.wait_for_timeout(300)


def test_adviser_records_cash_and_asset_transactions(page: Page, login, app_server) -> None:
    pid, name = _portfolio(app_server.database_url)
    login(page, ADVISER)
    page.goto(f"/portfolios/{pid}/cash-transactions")

    # breadcrumbs and the empty state
    expect(page.locator("#crumb-portfolio")).to_have_text(name, timeout=TIMEOUT)
    expect(page.locator("#crumb-owners")).to_contain_text("Liam O'Connor")
    expect(page.locator("#cash-body")).to_contain_text("No cash transactions yet", timeout=TIMEOUT)
    expect(page.locator("#cash-balance")).to_have_text("$0.00")

    # the opening balance: required fields are marked on the first save attempt
    page.locator("#cash-add").click()
    page.locator("#cash-opening").click()
    expect(page.locator("#opening-balance-modal")).to_be_visible(timeout=TIMEOUT)
    page.locator("#ob-save").click()
    see_toast(page, "Please, fill all required fields with valid data")
    expect(page.locator("#opening-balance-modal .field-error")).to_have_count(2, timeout=TIMEOUT)
    page.locator("#ob-price").fill("10000")
    page.locator("#ob-date").fill("02/01/2026")
    expect(page.locator("#opening-balance-modal .field-error")).to_have_count(0, timeout=TIMEOUT)
    page.locator("#ob-save").click()
    see_toast(page, "Opening balance has been changed")
    expect(page.locator("#cash-balance")).to_have_text("$10,000.00", timeout=TIMEOUT)
    expect(page.locator(".cash-row[data-class='Opening Balance']")).to_have_count(1)

    # a credit of $5,000 and a pending withdrawal, which the totals ignore
    page.locator("#cash-add").click()
    page.locator("#cash-add-credit").click()
    expect(page.locator("#cm-title")).to_have_text("Add cash transaction", timeout=TIMEOUT)
    page.locator("#cm-price").fill("5000")
    page.locator("#cm-trade-at").fill("03/01/2026")
    page.locator("#cm-description").fill("Contribution")
    page.locator("#cm-save").click()
    see_toast(page, "Transaction added")
    expect(page.locator("#cash-balance")).to_have_text("$15,000.00", timeout=TIMEOUT)
    expect(page.locator("#cash-in")).to_have_text("$15,000.00")

    page.locator("#cash-add").click()
    page.locator("#cash-add-withdrawal").click()
    page.locator("#cm-price").fill("700")
    page.locator("#cm-status").click()
    page.get_by_role("option", name="Pending", exact=True).click()
    page.locator("#cm-save").click()
    see_toast(page, "Transaction added")
    pending = page.locator(".cash-row[data-status='pending']")
    expect(pending).to_contain_text("-$700.00", timeout=TIMEOUT)
    expect(pending).to_contain_text("Pending")
    expect(page.locator("#cash-balance")).to_have_text("$15,000.00")
    expect(page.locator("#cash-out")).to_have_text("$0.00")

    # the unchanged opening balance closes with the success message and changes nothing
    before = _stored(app_server.database_url, pid)
    page.locator("#cash-add").click()
    page.locator("#cash-opening").click()
    expect(page.locator("#ob-price")).to_have_value("10000", timeout=TIMEOUT)
    page.locator("#ob-save").click()
    see_toast(page, "Opening balance has been changed")
    expect(page.locator("#opening-balance-modal")).to_have_count(0, timeout=TIMEOUT)
    assert _stored(app_server.database_url, pid) == before

    # the opening balance offers no Delete; the credit's detail modal shows it
    ob_row = page.locator(".cash-row[data-class='Opening Balance']")
    ob_row.locator(".row-actions").click()
    expect(page.locator(".cash-edit-ob")).to_be_visible(timeout=TIMEOUT)
    expect(page.locator(".cash-delete")).to_have_count(0)
    page.keyboard.press("Escape")
    page.locator(".cash-row[data-class='Credit'] .cash-class").click()
    expect(page.locator("#cash-detail-modal")).to_contain_text("Contribution", timeout=TIMEOUT)
    expect(page.locator("#cash-detail-modal")).to_contain_text("$5,000.00")
    page.locator("#detail-close").click()
    _shots(page, "transactions-cash")

    # the asset screen: add a purchase of 100 BHP at $40 with $9.95 brokerage
    page.locator("#cash-actions").click()
    page.locator("#cash-to-assets").click()
    page.wait_for_url(f"**/portfolios/{pid}/asset-transactions", timeout=TIMEOUT)
    expect(page.locator("#asset-body")).to_contain_text("No asset transactions yet", timeout=TIMEOUT)
    expect(page.locator("#assets-cash")).to_have_text("$15,000.00")
    page.locator("#asset-add").click()
    modal = page.locator("#asset-transaction-modal")
    expect(modal).to_be_visible(timeout=TIMEOUT)
    expect(page.locator("#af-title")).to_have_text("Add transaction")
    expect(page.locator("#af-contract-fields")).to_be_visible()  # purchase by default, with its contract note
    page.locator("#af-code").fill("bhp")
    page.locator("#af-code").blur()
    expect(page.locator("#af-asset-name")).to_contain_text("BHP", timeout=TIMEOUT)
    expect(page.locator("#af-code")).to_have_value("BHP")
    page.locator("#af-trade-at").fill("05/01/2026")
    page.locator("#af-quantity").fill("100")
    page.locator("#af-price").fill("40")
    page.locator("#af-fee").fill("9.95")
    expect(page.locator("#af-value-hint")).to_have_text("Value $4,000.00 · Cash out $4,009.95", timeout=TIMEOUT)
    page.screenshot(path=f"{ARTIFACTS}/transactions-purchase-modal.png")
    page.locator("#af-save").click()
    see_toast(page, "Transaction added")
    expect(modal).to_have_count(0, timeout=TIMEOUT)
    bhp = page.locator(".asset-row[data-code='BHP']")
    expect(bhp.locator(".asset-remaining")).to_have_text("100", timeout=TIMEOUT)
    expect(bhp.locator(".asset-cost")).to_have_text("$4,009.95")
    expect(page.locator("#assets-cash")).to_have_text("$10,990.05")
    expect(page.locator("#assets-cost")).to_have_text("$4,009.95")

    # a sell beyond the units held is refused and the quantity marked
    page.locator("#asset-add").click()
    page.locator("#af-type-sell").click()
    page.locator("#af-code").fill("BHP")
    page.locator("#af-code").blur()
    expect(page.locator("#af-asset-name")).to_contain_text("BHP", timeout=TIMEOUT)
    page.locator("#af-trade-at").fill("01/02/2026")
    page.locator("#af-quantity").fill("500")
    page.locator("#af-price").fill("45")
    page.locator("#af-save").click()
    see_toast(page, "Not enough assets to sell")
    expect(modal.locator(".field-error")).to_contain_text(["Not enough assets to sell"], timeout=TIMEOUT)
    page.locator("#af-cancel").click()
    expect(modal).to_have_count(0, timeout=TIMEOUT)
    assert _stored(app_server.database_url, pid)[0] == 1

    # an unknown code marks the field and clears the asset
    page.locator("#asset-add").click()
    page.locator("#af-code").fill("NOPE9")
    page.locator("#af-code").blur()
    expect(modal.locator(".field-error")).to_contain_text(["NOPE9"], timeout=TIMEOUT)
    expect(page.locator("#af-asset-name")).to_have_text("")
    page.locator("#af-cancel").click()

    # the upload: a CSV whose lines are all good adds them all
    good = ("date,type,code,quantity,price,fee,amount,description\n"
            "10/01/2026,purchase,BHP,50,41,0,,CSV buy\n"
            "12/01/2026,credit,,,,,1000,CSV credit\n"
            "20/01/2026,dividend,BHP,,,,120,\n").encode()
    page.locator("#asset-actions").click()
    page.locator("#asset-upload").click()
    page.locator("#transactions-upload input[type=file]").set_input_files(
        files=[{"name": "transactions.csv", "mimeType": "text/csv", "buffer": good}])
    expect(page.locator("#upload-file-name")).to_have_text("transactions.csv", timeout=TIMEOUT)
    page.locator("#upload-confirm").click()
    see_toast(page, "File uploaded")
    expect(bhp.locator(".asset-remaining")).to_have_text("150", timeout=TIMEOUT)
    # 10,990.05 - 2,050.00 + 1,000.00 + 120.00
    expect(page.locator("#assets-cash")).to_have_text("$10,060.05", timeout=TIMEOUT)

    # a file with a wrong line adds nothing and names the line
    bad = ("date,type,code,quantity,price\n"
           "01/02/2026,purchase,BHP,1,40\n"
           "02/02/2026,sell,BHP,10000,40\n").encode()
    page.locator("#asset-actions").click()
    page.locator("#asset-upload").click()
    page.locator("#transactions-upload input[type=file]").set_input_files(
        files=[{"name": "bad.csv", "mimeType": "text/csv", "buffer": bad}])
    expect(page.locator("#upload-file-name")).to_have_text("bad.csv", timeout=TIMEOUT)
    page.locator("#upload-confirm").click()
    expect(page.locator("#upload-failure-title")).to_have_text("The file upload was unsuccessful", timeout=TIMEOUT)
    expect(page.locator("#upload-failure-message")).to_have_text("Transactions are not uploaded due to line(s): 3")
    expect(page.locator(".upload-failure-line")).to_contain_text(["Not enough assets to sell"])
    page.locator("#upload-failure-ok").click()
    expect(bhp.locator(".asset-remaining")).to_have_text("150")

    # the row expands to its transactions (newest first); the filters narrow them
    bhp.locator(".asset-toggle").click()
    panel = page.locator(".asset-transactions[data-code='BHP']")
    expect(panel.locator(".tx-row")).to_have_count(3, timeout=TIMEOUT)
    expect(panel.locator(".tx-type")).to_have_text(["Dividend", "Purchase", "Purchase"])
    page.locator("#filter-dividend").click()
    expect(panel.locator(".tx-type")).to_have_text(["Dividend"], timeout=TIMEOUT)
    page.locator("#filter-all").click()
    expect(panel.locator(".tx-row")).to_have_count(3, timeout=TIMEOUT)
    _shots(page, "transactions-assets")

    # a purchase opens read-only; deleting one asks first and takes its cash with it
    panel.locator(".tx-row[data-type='Purchase']").last.locator(".tx-type").click()
    expect(page.locator("#af-title")).to_have_text("View purchase", timeout=TIMEOUT)
    expect(page.locator("#af-quantity")).to_have_value("100")
    expect(page.locator("#af-quantity")).to_have_attribute("readonly", "")
    expect(page.locator("#af-save")).to_have_count(0)
    expect(page.locator("#af-summary")).to_contain_text("$4,009.95")
    page.screenshot(path=f"{ARTIFACTS}/transactions-view-modal.png")
    page.locator("#af-cancel").click()
    panel.locator(".tx-row[data-type='Purchase']").first.locator(".row-actions").click()
    page.locator(".tx-delete").click()
    expect(page.locator("#confirm-message")).to_have_text("Are you sure you want to delete this transaction?",
                                                          timeout=TIMEOUT)
    page.locator("#confirm-ok").click()
    see_toast(page, "Transaction has been removed")
    expect(bhp.locator(".asset-remaining")).to_have_text("100", timeout=TIMEOUT)
    expect(page.locator("#assets-cash")).to_have_text("$12,110.05")

    # back on the cash screen the balance follows
    page.locator("#asset-actions").click()
    page.locator("#assets-to-cash").click()
    expect(page.locator("#cash-balance")).to_have_text("$12,110.05", timeout=TIMEOUT)
    expect(page.locator(".cash-row[data-class='Buy']")).to_have_count(1)
    expect(page.locator(".cash-row[data-class='Dividend']")).to_have_count(1)
    assert _stored(app_server.database_url, pid) == (2, 6)


def test_client_sees_the_transactions_read_only(page: Page, login, app_server) -> None:
    pid, name = _portfolio(app_server.database_url)
    engine = _engine(app_server.database_url)
    try:
        with Session(engine) as s:
            day = datetime(2026, 1, 5, tzinfo=timezone.utc)
            s.add(CashTransaction(investment_id=pid, type="cash", action="increase", status="executed",
                                  price=Decimal("2500.00"), trade_at=day, created_at=day, updated_at=day))
            s.commit()
    finally:
        engine.dispose()
    login(page, CLIENT)
    page.goto(f"/portfolios/{pid}/cash-transactions")
    expect(page.locator("#crumb-portfolio")).to_have_text(name, timeout=TIMEOUT)
    expect(page.locator("#cash-balance")).to_have_text("$2,500.00", timeout=TIMEOUT)
    expect(page.locator("#cash-add")).to_have_count(0)
    row = page.locator(".cash-row[data-class='Credit']")
    row.locator(".row-actions").click()
    expect(page.locator(".cash-view")).to_be_visible(timeout=TIMEOUT)
    expect(page.locator(".cash-edit")).to_have_count(0)
    expect(page.locator(".cash-delete")).to_have_count(0)
    page.keyboard.press("Escape")
    page.goto(f"/portfolios/{pid}/asset-transactions")
    expect(page.locator("#asset-body")).to_contain_text("No asset transactions yet", timeout=TIMEOUT)
    expect(page.locator("#asset-add")).to_have_count(0)
    expect(page.locator("#empty-add")).to_have_count(0)


def test_an_errored_transaction_is_changed_by_a_new_one_after_confirmation(page: Page, login, app_server) -> None:
    pid, _name = _portfolio(app_server.database_url)
    login(page, ADVISER)
    # portfolios.add-transaction opens the form on the asset screen, here for a sell of BHP
    page.goto(f"/portfolios/{pid}/add-transaction?type=sell&code=BHP")
    modal = page.locator("#asset-transaction-modal")
    expect(modal).to_be_visible(timeout=TIMEOUT)
    expect(page.locator("#af-asset-name")).to_contain_text("BHP", timeout=TIMEOUT)
    expect(page.locator("#af-type-sell")).to_have_attribute("data-accent-color", "indigo")
    page.locator("#af-type-purchase").click()
    page.locator("#af-save").click()  # every invalid field is marked on the attempt
    expect(modal.locator(".field-error")).to_have_count(2, timeout=TIMEOUT)  # quantity and price
    page.locator("#af-quantity").fill("10")
    page.locator("#af-price").fill("40")
    expect(modal.locator(".field-error")).to_have_count(0, timeout=TIMEOUT)
    page.locator("#af-status").click()
    page.get_by_role("option", name="Error", exact=True).click()
    page.locator("#af-save").click()
    see_toast(page, "Transaction added")
    bhp = page.locator(".asset-row[data-code='BHP']")
    expect(bhp.locator(".asset-remaining")).to_have_text("0", timeout=TIMEOUT)  # not executed: holds nothing

    bhp.locator(".asset-toggle").click()
    panel = page.locator(".asset-transactions[data-code='BHP']")
    expect(panel.locator(".tx-status")).to_have_text(["Error"], timeout=TIMEOUT)
    page.locator("#filter-executed").click()
    expect(panel.locator(".tx-empty")).to_be_visible(timeout=TIMEOUT)
    page.locator("#filter-error").click()
    expect(panel.locator(".tx-row")).to_have_count(1, timeout=TIMEOUT)
    page.locator("#filter-all").click()

    panel.locator(".tx-row .row-actions").click()
    page.locator(".tx-edit").click()
    expect(page.locator("#af-title")).to_have_text("Edit purchase", timeout=TIMEOUT)
    page.locator("#af-price").fill("41")
    page.locator("#af-save").click()
    expect(page.locator("#confirm-message")).to_have_text(
        "This transaction failed in order management. Do you want to create a new transaction with the updated data?",
        timeout=TIMEOUT)
    page.locator("#confirm-ok").click()
    see_toast(page, "Transaction created")
    # the new transaction (a draft) replaces the errored one in the list
    expect(panel.locator(".tx-status")).to_have_text(["Draft"], timeout=TIMEOUT)
    expect(panel.locator(".tx-row")).to_contain_text(["$41.00"])
    page.set_viewport_size({"width": 390, "height": 844})
    panel.locator(".tx-type").click()
    expect(page.locator("#af-title")).to_have_text("View purchase", timeout=TIMEOUT)
    page.wait_for_timeout(300)
    page.screenshot(path=f"{ARTIFACTS}/transactions-view-modal-phone.png", full_page=True)
    page.locator("#af-cancel").click()
    page.set_viewport_size({"width": 1440, "height": 900})
    # drafts are not edited (delete and add again): Edit is not offered
    panel.locator(".tx-row .row-actions").click()
    expect(page.locator(".tx-view")).to_be_visible(timeout=TIMEOUT)
    expect(page.locator(".tx-edit")).to_have_count(0)
    expect(page.locator(".tx-delete")).to_be_visible()


def test_the_asset_panel_pages_loads_more_and_steps_back_from_an_empty_page(page: Page, login, app_server) -> None:
    pid, _name = _portfolio(app_server.database_url)
    engine = _engine(app_server.database_url)
    try:
        with Session(engine, expire_on_commit=False) as s:
            adviser = s.exec(select(User).where(User.email == ADVISER)).one()
            portfolio = s.get(Portfolio, pid)
            assets = s.exec(select(Asset).where(Asset.firm_id.is_(None)).order_by(Asset.code).limit(13)).all()
            assert len(assets) == 13
            start = datetime(2026, 1, 1, tzinfo=timezone.utc)
            for n, asset in enumerate(assets):  # the first asset's trade is the oldest: it comes last
                postings.record(s, actor_id=adviser.id, portfolio=portfolio, kind="asset_buy", status="executed",
                                trade_at=start + timedelta(days=n), asset_id=asset.id, quantity=Decimal(1),
                                price=Decimal("1"))
            oldest = assets[0].code
            s.commit()
    finally:
        engine.dispose()

    login(page, ADVISER)
    page.goto(f"/portfolios/{pid}/asset-transactions")
    rows = page.locator(".asset-row")
    expect(rows).to_have_count(12, timeout=TIMEOUT)  # 12 a page by default, newest trade first
    expect(page.locator("#asset-count")).to_have_text("12 of 13 assets")
    page.locator("#load-more").click()  # the next page is appended
    expect(rows).to_have_count(13, timeout=TIMEOUT)
    expect(rows.last).to_have_attribute("data-code", oldest)
    expect(page.locator("#load-more")).to_have_count(0)

    # sorting by code, ascending then descending
    page.get_by_text("Code", exact=True).click()
    expect(rows).to_have_count(12, timeout=TIMEOUT)
    expect(rows.first).to_have_attribute("data-code", oldest)
    page.get_by_text("Code", exact=True).click()
    expect(rows.last).not_to_have_attribute("data-code", oldest, timeout=TIMEOUT)
    page.get_by_text("Last trade", exact=True).click()  # back to the newest trade first
    expect(rows.first).not_to_have_attribute("data-code", oldest, timeout=TIMEOUT)

    # page 2 holds the oldest asset only; deleting its one transaction empties the page: back to page 1
    page.locator("#pagination").get_by_role("button", name="2").click()
    expect(rows).to_have_count(1, timeout=TIMEOUT)
    expect(rows.first).to_have_attribute("data-code", oldest)
    rows.first.locator(".asset-toggle").click()
    panel = page.locator(f".asset-transactions[data-code='{oldest}']")
    panel.locator(".tx-row .row-actions").click()
    page.locator(".tx-delete").click()
    page.locator("#confirm-ok").click()
    see_toast(page, "Transaction has been removed")
    expect(rows).to_have_count(12, timeout=TIMEOUT)
    expect(page.locator("#asset-count")).to_have_text("12 of 12 assets")

    # the cash screen's menu leads to the term deposits
    page.goto(f"/portfolios/{pid}/cash-transactions")
    page.locator("#cash-actions").click()
    page.locator("#cash-to-deposits").click()
    page.wait_for_url(f"**/portfolios/{pid}/add-deposit", timeout=TIMEOUT)
