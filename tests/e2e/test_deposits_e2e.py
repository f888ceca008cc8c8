"""Term deposits end to end (route clients.addTransaction, /portfolios/[id]/add-deposit), on a Harbour
portfolio of Liam O'Connor's seeded with $50,000 of cash:
- the adviser opens the page (no deposits: only Buy is enabled), adds a term deposit through the
  Buy form (required texts first, then an institution picked by product type), sees it listed with
  its name, code and balance and the cash going down; the Sell form then shows the deposit's
  identity fields disabled and refuses a date before its start with the rule's text, writing
  nothing; a full redemption closes the deposit;
- the AMM modal reprocesses a transaction in error ('Success' 'Transaction was sended to
  reprocessing', the modal closes) and the client holder sees the deposits read-only."""
from __future__ import annotations

import json
import uuid
from datetime import date, datetime, timezone
from decimal import Decimal

from playwright.sync_api import Page, expect
from sqlmodel import Session, create_engine, select

from app.db.tables import CashTransaction, Deposit, Firm, Institution, Portfolio, PortfolioUser, User
from app.services import postings

ADVISER = "adviser@harbour.example.com"
CLIENT = "client@harbour.example.com"
TIMEOUT = 30_000
APPROVAL = {"tp_validation_required": True, "tr_validation_required": True, "tp_approval_required": True,
            "tp_approval_request": True, "tr_approval_request": True, "tr_approval_required": True,
            "tr_auto_approval": "never"}


def _engine(url: str):
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url.split("://", 1)[1]
    return create_engine(url)


def _seed(database_url: str, *, errored_deposit: bool = False) -> dict:
    """A Harbour portfolio held by Liam O'Connor with a $50,000 credit and an institution of our own
    offering term deposits and at-call accounts; with errored_deposit, also a term deposit whose
    placement is in error."""
    tag = uuid.uuid4().hex[:6]
    engine = _engine(database_url)
    try:
        with Session(engine, expire_on_commit=False) as s:
            firm = s.exec(select(Firm).where(Firm.name == "Harbour Wealth Partners")).one()
            client = s.exec(select(User).where(User.email == CLIENT)).one()
            adviser = s.exec(select(User).where(User.email == ADVISER)).one()
            bank = Institution(title=f"E2E Bank {tag}", provider_type="Bank", product_types="Term Deposits,At Call Account")
            s.add(bank)
            p = Portfolio(firm_id=firm.id, name=f"E2E Deposits {tag}", type="SAVINGS", adviser_id=adviser.id,
                          inactive=False, approval_settings=json.dumps(APPROVAL))
            s.add(p)
            s.flush()
            s.add(PortfolioUser(investment_id=p.id, user_id=client.id, is_owner=True))
            day = datetime(2026, 1, 2, tzinfo=timezone.utc)
            s.add(CashTransaction(investment_id=p.id, type="cash", action="increase", status="executed",
                                  price=Decimal("50000.00"), trade_at=day, created_at=day, updated_at=day))
            out = {"id": p.id, "name": p.name, "bank": bank.title}
            if errored_deposit:
                dep = Deposit(investment_id=p.id, product_type="Term Deposits", institution_id=bank.id,
                              provider_name=bank.title, provider_type="Bank", deal_id=f"E{tag}",
                              start_date=date(2026, 1, 5), maturity_date=date(2026, 4, 5), maturity_term=3,
                              rate=Decimal("4.2"), deal_status="Pending – Bank to Process")
                s.add(dep)
                s.flush()
                postings.record(s, actor_id=adviser.id, portfolio=p, kind="td_buy", status="processing_error",
                                trade_at=datetime(2026, 1, 5, 5, tzinfo=timezone.utc), deposit_id=dep.id,
                                amount=Decimal("2500.00"))
                out["deposit_id"] = dep.id
            s.commit()
            return out
    finally:
        engine.dispose()


def _pick(page: Page, trigger: str, option: str) -> None:
    page.locator(trigger).click()
    page.get_by_role("option", name=option).click()


def test_adviser_adds_a_term_deposit_sees_it_listed_and_redeems_it(page: Page, login, app_server) -> None:
    seeded = _seed(app_server.database_url)
    login(page, ADVISER)
    page.goto(f"/portfolios/{seeded['id']}/add-deposit")
    expect(page.locator("#page-title")).to_have_text("Term deposits and at-call accounts", timeout=TIMEOUT)
    expect(page.locator("#breadcrumbs")).to_contain_text(seeded["name"], timeout=TIMEOUT)
    expect(page.get_by_text("This portfolio has no term deposits or at-call accounts yet")).to_be_visible()
    expect(page.locator("#deposit-cash")).to_have_text("$50,000.00")
    # enabling rules: without deposits only Buy
    expect(page.locator("#deposit-open-sell")).to_be_disabled()
    expect(page.locator("#deposit-open-interest-accrual")).to_be_disabled()
    expect(page.locator("#deposit-open-deposit")).to_be_disabled()

    page.locator("#deposit-open-buy").click()
    form = page.locator("#deposit-form")
    expect(form).to_be_visible(timeout=TIMEOUT)
    expect(page.locator("#deposit-type-sell")).to_be_disabled()
    expect(page.locator("#deposit-kind")).to_have_value("Term Deposit Buy")
    expect(page.locator("#deposit-transaction-type")).to_have_value("Debit")
    page.locator("#deposit-save").click()
    for text in ("Please, select provider.", "Please, enter start date.", "Please, enter amount."):
        expect(form.locator(".field-error").filter(has_text=text)).to_be_visible(timeout=TIMEOUT)

    _pick(page, "#deposit-institution", seeded["bank"])
    expect(page.locator("#deposit-providername")).to_have_value(seeded["bank"], timeout=TIMEOUT)
    page.locator("#deposit-start").fill("05/01/2026")
    page.locator("#deposit-amount").fill("10000")
    page.locator("#deposit-maturityterm").fill("6")
    page.locator("#deposit-rate").fill("4.5")
    page.locator("#deposit-dealid").fill("TD9001")
    expect(form.locator(".field-error")).to_have_count(0, timeout=TIMEOUT)
    page.screenshot(path="tests/e2e/artifacts/deposits-buy-form.png")
    page.locator("#deposit-save").click()
    expect(page.get_by_text("Transaction added").first).to_be_visible(timeout=TIMEOUT)
    expect(form).to_have_count(0, timeout=TIMEOUT)

    name = f"{seeded['bank']} TD 6 months 05/07/2026 4.50%"
    row = page.locator(".deposit-row").filter(has_text=name)
    expect(row).to_have_count(1, timeout=TIMEOUT)
    expect(row.locator(".deposit-code")).to_have_text("TDTD9001")
    expect(row.locator(".deposit-balance")).to_have_text("$10,000.00")
    expect(row.locator(".deposit-deal-status")).to_contain_text("Pending – Bank to Process")
    expect(page.locator("#deposit-cash")).to_have_text("$40,000.00")
    page.screenshot(path="tests/e2e/artifacts/deposits-list.png", full_page=True)

    # Sell: the deposit is chosen (the only one), its identity is disabled, dates start at its start
    expect(page.locator("#deposit-open-sell")).to_be_enabled(timeout=TIMEOUT)
    expect(page.locator("#deposit-open-interest-accrual")).to_be_disabled()
    page.locator("#deposit-open-sell").click()
    expect(form).to_be_visible(timeout=TIMEOUT)
    expect(page.locator("#deposit-kind")).to_have_value("Term Deposit Sell", timeout=TIMEOUT)
    expect(page.locator("#deposit-transaction-type")).to_have_value("Credit")
    expect(page.locator("#deposit-providername")).to_have_value(seeded["bank"])
    expect(page.locator("#deposit-providername")).to_have_attribute("readonly", "")
    expect(page.locator("#deposit-dealid")).to_have_value("TD9001")
    expect(page.locator("#deposit-date")).to_have_attribute("data-min", "2026-01-05")
    page.locator("#deposit-date").fill("04/01/2026")
    page.locator("#deposit-amount").fill("10000")
    page.locator("#deposit-save").click()
    before_start = "The date can't be before the deposit start date 05/01/2026."
    expect(form.locator(".field-error").filter(has_text=before_start)).to_be_visible(timeout=TIMEOUT)
    expect(page.locator("[data-sonner-toast]").filter(has_text=before_start)).to_be_visible(timeout=TIMEOUT)
    page.screenshot(path="tests/e2e/artifacts/deposits-sell-refused.png")
    page.locator("#deposit-cancel").click()
    expect(row.locator(".deposit-balance")).to_have_text("$10,000.00")  # nothing written
    expect(page.locator("#deposit-cash")).to_have_text("$40,000.00")

    page.locator("#deposit-open-sell").click()
    page.locator("#deposit-date").fill("05/07/2026")
    page.locator("#deposit-amount").fill("10000")
    page.locator("#deposit-save").click()
    expect(page.get_by_text("Transaction added").first).to_be_visible(timeout=TIMEOUT)
    expect(row.locator(".deposit-balance")).to_have_text("$0.00", timeout=TIMEOUT)
    expect(row.locator(".deposit-deal-status")).to_contain_text("Closed")
    expect(page.locator("#deposit-cash")).to_have_text("$50,000.00")

    # the read-only deposit modal lists both transactions
    row.locator(".deposit-name").click()
    expect(page.locator("#deposit-view")).to_be_visible(timeout=TIMEOUT)
    expect(page.locator("#deposit-view .deposit-tx-row")).to_have_count(2)
    expect(page.locator("#deposit-view")).to_contain_text("Term Deposit Sell")
    page.locator("#deposit-view-close").click()
    expect(page.locator("#deposit-view")).to_have_count(0, timeout=TIMEOUT)

    # the buy form edits the deposit: identity fixed, the rate and deal status editable
    row.locator(".row-actions").click()
    page.get_by_role("menuitem", name="Edit").click()
    expect(form).to_be_visible(timeout=TIMEOUT)
    expect(page.locator("#deposit-form-title")).to_have_text("Edit buy")
    expect(page.locator("#deposit-types")).to_have_count(0)
    expect(page.locator("#deposit-institution")).to_be_disabled()
    expect(page.locator("#deposit-dealid")).to_have_attribute("readonly", "")
    expect(page.locator("#deposit-amount")).to_have_value("10000")
    page.locator("#deposit-rate").fill("4.75")
    _pick(page, "#deposit-deal-status", "Live")
    page.locator("#deposit-save").click()
    expect(page.get_by_text("Transaction updated").first).to_be_visible(timeout=TIMEOUT)
    edited = page.locator(".deposit-row").filter(has_text=f"{seeded['bank']} TD 6 months 05/07/2026 4.75%")
    expect(edited.locator(".deposit-deal-status")).to_contain_text("Live", timeout=TIMEOUT)

    # on a phone the table scrolls inside its card and the page does not
    page.set_viewport_size({"width": 390, "height": 844})
    expect(edited).to_be_visible(timeout=TIMEOUT)
    page.screenshot(path="tests/e2e/artifacts/deposits-phone.png", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_amm_reprocess_and_the_holders_read_only_view(page: Page, login, app_server) -> None:
    seeded = _seed(app_server.database_url, errored_deposit=True)
    login(page, ADVISER)
    page.goto(f"/portfolios/{seeded['id']}/add-deposit")
    row = page.locator(f"#deposit-row-{seeded['deposit_id']}")
    expect(row).to_be_visible(timeout=TIMEOUT)
    row.locator(".row-actions").click()
    page.get_by_role("menuitem", name="AMM transactions").click()
    amm = page.locator("#deposit-amm")
    expect(amm).to_be_visible(timeout=TIMEOUT)
    expect(amm.locator(".amm-row")).to_have_count(1)
    expect(amm.locator(".amm-type")).to_have_text("Placement")
    expect(amm.locator(".tx-status")).to_have_text("Error")
    page.screenshot(path="tests/e2e/artifacts/deposits-amm.png")
    amm.get_by_role("button", name="Reprocess").click()
    expect(page.get_by_text("Transaction was sended to reprocessing")).to_be_visible(timeout=TIMEOUT)
    expect(amm).to_have_count(0, timeout=TIMEOUT)
    expect(row.locator(".deposit-deal-status")).to_contain_text("Pending – AMM to Process", timeout=TIMEOUT)

    # the holder reads the same list, without the forms or Reprocess
    page.locator("#user-menu").click()
    page.locator("#signout").click()
    page.wait_for_url("**/login", timeout=TIMEOUT)
    login(page, CLIENT)
    page.goto(f"/portfolios/{seeded['id']}/add-deposit")
    expect(row).to_be_visible(timeout=TIMEOUT)
    expect(page.locator("#deposit-open-buy")).to_have_count(0)
    row.locator(".row-actions").click()
    expect(page.get_by_role("menuitem", name="Edit")).to_have_count(0)
    page.get_by_role("menuitem", name="AMM transactions").click()
    expect(amm).to_be_visible(timeout=TIMEOUT)
    expect(amm.locator(".tx-status")).to_have_text("Placed")
    expect(amm.get_by_role("button", name="Reprocess")).to_have_count(0)
