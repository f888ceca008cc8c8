"""Trade recommendations end to end, on a portfolio of tests.factories_advice.make_book whose approval
settings do not require target portfolio approval: a first generation fails (no target portfolio
yet) and its version shows the error; after a target portfolio is calculated through the service,
the adviser calculates trade recommendations from the holdings actions menu (confirming first),
edits a transaction's units inline, meets the add-transaction errors ('Invalid code', 'Not enough
assets to sell', 'Transaction already exists'), adds and deletes one, validates ('Trades
validated'), reads the history and the versions; then the client owner chooses, tries to leave
(the leave dialog holds the page), approves all and confirms ('Trades confirmed').

The books are written into the app's own database with the test factories; the universe is the demo
data's assets (make_book's own universe would clash with the demo codes), see `seed_book`."""
from __future__ import annotations

import json
from contextlib import contextmanager
from decimal import Decimal
from typing import Iterator

import pytest
from playwright.sync_api import Page, expect
from sqlmodel import col, select

import tests.factories_advice as factories_advice
from app.db.engine import reset_engine, session_scope
from app.db.tables import Asset, AssetClass, AssetType, IndustryGroup, Portfolio
from app.domain import advice, transaction_rules
from app.domain.cgt import format_aud
from app.domain.engine.errors import CalculationError
from app.domain.errors import ValidationError
from app.db.types import utcnow
from tests.advice_edge import tps
from tests import trade_instructions_edge as tis
from app.settings import settings
from tests.factories import PASSWORD, actor
from tests.factories_models import Universe
from tests.factories_portfolios import DEFAULT_APPROVAL
from tests.e2e.browser import see_toast

TIMEOUT = 30_000
ARTIFACTS = "tests/e2e/artifacts"


# ---- data in the app's database -------------------------------------------------------------------
@contextmanager
def app_database(url: str) -> Iterator[None]:
    """Points this test process's engine (the factories and services) at the app server's database."""
    previous = settings.database_url
    reset_engine(url)
    try:
        yield
    finally:
        settings.database_url = previous
        reset_engine()


def demo_universe() -> Universe:
    """make_universe's shape over the demo data's classes, types, groups and assets."""
    with session_scope() as s:
        def klass(title: str) -> AssetClass:
            return s.exec(select(AssetClass).where(AssetClass.title == title, AssetClass.firm_id.is_(None))).first()

        def kind(title: str) -> AssetType:
            return s.exec(select(AssetType).where(AssetType.title == title, AssetType.firm_id.is_(None))).first()

        def group(title: str) -> IndustryGroup:
            return s.exec(select(IndustryGroup).where(IndustryGroup.title == title)).first()

        cash = s.exec(select(AssetClass).where(AssetClass.is_cash.is_(True), AssetClass.firm_id.is_(None))).first()
        codes = ["BHP", "CBA", "CSL", "WES", "NAB", "RIO", "VAF", "IAF"]
        assets = {a.code: a for a in s.exec(select(Asset).where(col(Asset.code).in_(codes))).all()}
        return Universe(cash=cash, equities=klass("Australian Equities"), bonds=klass("Fixed Income"), etf=kind("ETF"),
                        share=kind("Share"), banks=group("Financials"), miners=group("Materials"),
                        stocks=[assets[c] for c in codes[:6]], fixed=[assets[c] for c in codes[6:]])


def seed_book(monkeypatch: pytest.MonkeyPatch, count: int) -> factories_advice.Book:
    """make_book(count) in the app's database (inside `app_database`), on the demo universe."""
    monkeypatch.setattr(factories_advice, "make_universe", lambda **_: demo_universe())
    return factories_advice.make_book(count)


def set_approval(portfolio_id: int, **changes) -> None:
    with session_scope() as s:
        p = s.get(Portfolio, portfolio_id)
        p.approval_settings = json.dumps({**DEFAULT_APPROVAL, **changes})
        s.add(p)


def sign_out(page: Page) -> None:
    page.locator("#user-menu").click()
    page.locator("#signout").click()
    page.wait_for_url("**/login", timeout=TIMEOUT)


def _confirm(page: Page, question: str, label: str | None = None) -> None:
    expect(page.locator("#confirm-message")).to_have_text(question, timeout=TIMEOUT)
    if label:
        expect(page.locator("#confirm-ok")).to_have_text(label)
    page.locator("#confirm-ok").click()


# ---- the test ------------------------------------------------------------------------------------------
def test_adviser_generates_and_validates_then_the_client_approves_all(page: Page, login, app_server,
                                                                       monkeypatch) -> None:
    with app_database(app_server.database_url):
        book = seed_book(monkeypatch, 1)
        pid = book.portfolio_ids[0]
        set_approval(pid, tp_approval_required=False, tp_approval_request=False)
        adviser, client = actor(book.adviser), actor(book.client)
        with pytest.raises(ValidationError) as refused:  # no target portfolio yet: refused (001 s6)
            tis.generate(actor=adviser, investment_ids=[pid])
        assert refused.value.message == advice.NO_TARGET
        with session_scope() as s:  # a bulk calculation records the failure as a version
            tis._store(s, *tis.instruction_rows(pid, 1, None, CalculationError("requirements", advice.NO_TARGET),
                                                actor_id=adviser.id, run_id=None, now=utcnow()), adviser.id)
        tps.calculate(actor=adviser, investment_id=pid)

        # the adviser calculates from the holdings actions menu, confirming first
        login(page, book.adviser.email, PASSWORD)
        page.goto(f"/portfolios/{pid}/holdings")
        page.locator("#holdings-actions").click(timeout=TIMEOUT)
        page.locator("#action-calculate-tr").click()
        page.wait_for_url(lambda u: u.endswith(f"/portfolios/{pid}/trade-instructions?calculate=1"), timeout=TIMEOUT)
        _confirm(page, advice.CONFIRM_RECALCULATE_TR, "Calculate")
        expect(page.locator("#ti-status")).to_have_text("Pending validation", timeout=TIMEOUT)
        expect(page.locator("#ti-version")).to_have_text("Version 2")
        expect(page.locator("#ti-acted")).to_contain_text("Calculated by")
        expect(page.locator("#ti-acted")).to_contain_text(f"{book.adviser.first_name} {book.adviser.last_name}")
        expect(page.locator("#crumb-portfolio")).to_have_text("Calc 000")
        current = tis.get(actor=adviser, investment_id=pid)
        assert current["version"] == 2 and current["transactions"]
        payload = current["payload"]
        expect(page.locator("#ti-buys")).to_have_text(format_aud(Decimal(payload["buys"])))
        expect(page.locator("#ti-sells")).to_have_text(format_aud(Decimal(payload["sells"])))
        expect(page.locator("#ti-min-trade")).to_have_text(format_aud(Decimal(payload["min_trade_amount"])))
        expect(page.locator(".tx-row")).to_have_count(len(current["transactions"]))
        cba = page.locator(".tx-row[data-code='CBA']")
        expect(cba.locator(".tx-action")).to_have_text("BUY")
        # the recommendation at generation, in words with its code
        expect(cba.locator(".tx-rec-action")).to_have_text("Buy: hold it at the model's weight (BUY)")
        page.screenshot(path=f"{ARTIFACTS}/trade-instructions-desktop.png", full_page=True)
        page.set_viewport_size({"width": 390, "height": 844})
        page.screenshot(path=f"{ARTIFACTS}/trade-instructions-adviser-phone.png", full_page=True)
        page.set_viewport_size({"width": 1440, "height": 900})

        # inline edit of the units: the row's figures come back from the server
        cba.locator(".tx-edit").click()
        units = cba.locator("input[name='edit-units']")
        units.fill("5")
        cba.locator(".tx-save").click()
        see_toast(page, transaction_rules.TRANSACTION_UPDATED)
        expect(cba.locator(".tx-units")).to_have_text("5", timeout=TIMEOUT)
        edited = next(t for t in tis.get(actor=adviser, investment_id=pid)["transactions"] if t["asset_code"] == "CBA")
        assert Decimal(edited["quantity"]) == 5 and edited["user_action"] == "changed quantity"
        expect(cba.locator(".tx-value")).to_have_text(format_aud(Decimal(edited["value"])))
        expect(cba.locator(".tx-amount")).to_have_text(format_aud(Decimal(edited["amount"])))

        # adding: the code is uppercased; an unknown code marks the field; selling more than held and
        # the same transaction twice are refused with the specification's texts
        dialog = page.locator("#add-dialog")
        page.locator("#ti-add").click()
        page.locator("#add-code").fill("zzq")
        expect(page.locator("#add-code")).to_have_value("ZZQ")
        page.locator("#add-units").fill("1")
        page.locator("#add-save").click()
        expect(dialog.locator(".field-error")).to_have_text(["Invalid code"], timeout=TIMEOUT)
        page.locator("#add-code").fill("csl")  # not held, not in these trades
        page.locator("#add-action").click()
        page.get_by_role("option", name="SELL").click()
        page.locator("#add-units").fill("1000")
        page.locator("#add-save").click()
        expect(dialog.locator(".field-error")).to_have_text([advice.NOT_ENOUGH_ASSETS], timeout=TIMEOUT)
        page.locator("#add-code").fill("wes")
        page.locator("#add-action").click()
        page.get_by_role("option", name="BUY").click()
        page.locator("#add-units").fill("10")
        page.screenshot(path=f"{ARTIFACTS}/trade-instructions-add.png")
        page.locator("#add-save").click()
        see_toast(page, transaction_rules.TRANSACTION_ADDED)
        expect(dialog).to_have_count(0, timeout=TIMEOUT)
        wes = page.locator(".tx-row[data-code='WES']")
        expect(wes.locator(".tx-units")).to_have_text("10", timeout=TIMEOUT)
        page.locator("#ti-add").click()
        page.locator("#add-code").fill("WES")
        page.locator("#add-units").fill("10")
        page.locator("#add-save").click()
        expect(page.locator("#add-error")).to_have_text(advice.TRANSACTION_EXISTS, timeout=TIMEOUT)
        page.locator("#add-cancel").click()

        # deleting asks first
        wes.locator(".tx-delete").click()
        _confirm(page, transaction_rules.DELETE_QUESTION, "Delete")
        see_toast(page, transaction_rules.TRANSACTION_REMOVED)
        expect(wes).to_have_count(0, timeout=TIMEOUT)

        # validate: approval is required, so the trades wait for the client
        page.locator("#ti-validate").click()
        _confirm(page, advice.CONFIRM_VALIDATE, "Validate")
        see_toast(page, advice.TRADES_VALIDATED)
        expect(page.locator("#ti-status")).to_have_text("Pending approval", timeout=TIMEOUT)
        expect(page.locator("#ti-acted")).to_contain_text("Validated by")
        expect(page.locator("#ti-validate")).to_have_count(0)
        expect(page.locator("#ti-add")).to_have_count(0)

        # the history of actions, newest first
        page.locator("#ti-history").click()
        history = page.locator("#history-dialog .history-row")
        expect(history).to_have_count(5, timeout=TIMEOUT)
        expect(history.first).to_contain_text("validated")
        expect(history.last).to_contain_text("calculated")
        page.locator("#history-close").click()
        expect(page.locator("#history-dialog")).to_have_count(0, timeout=TIMEOUT)

        # versions, newest first; the failed one shows its error; Cancel returns
        page.locator("#ti-versions").click()
        page.wait_for_url(f"**/portfolios/{pid}/trade-instructions-versions", timeout=TIMEOUT)
        rows = page.locator(".version-row")
        expect(rows).to_have_count(2, timeout=TIMEOUT)
        expect(rows.nth(0).locator(".version-number")).to_have_text("Version 2")
        expect(rows.nth(1).locator(".version-status")).to_have_text("Calculation Error")
        rows.nth(1).click()
        page.wait_for_url(f"**/portfolios/{pid}/trade-instructions/1", timeout=TIMEOUT)
        expect(page.locator("#ti-error")).to_have_text(advice.NO_TARGET, timeout=TIMEOUT)
        expect(page.locator("#ti-status")).to_have_text("Calculation Error")
        page.locator("#ti-versions").click()
        page.locator("#versions-cancel").click(timeout=TIMEOUT)
        page.wait_for_url(f"**/portfolios/{pid}/trade-instructions", timeout=TIMEOUT)
        expect(page.locator("#ti-status")).to_have_text("Pending approval", timeout=TIMEOUT)
        sign_out(page)

        # the client owner decides
        login(page, book.client.email, PASSWORD)
        page.goto(f"/portfolios/{pid}/trade-instructions")
        pending = tis.get(actor=client, investment_id=pid)
        items = len(pending["transactions"]) + sum(1 for n in pending["tradeRecommendationNotes"]
                                                   if n["state"] == "validated")
        choices = page.locator(".choices")
        expect(choices).to_have_count(items, timeout=TIMEOUT)
        expect(page.locator("#ti-confirm")).to_be_disabled()
        choices.first.locator(".choose-decline").click()
        expect(choices.first).to_have_attribute("data-choice", "declined", timeout=TIMEOUT)
        trades, notes = len(pending["transactions"]), items - len(pending["transactions"])
        plural = lambda n, noun: f"{n} {noun}" + ("" if n == 1 else "s")  # noqa: E731
        expect(page.locator("#ti-decided")).to_have_text(  # trades count trades; the notes apart
            f"1 of {plural(trades, 'trade')} decided" + (f", 0 of {plural(notes, 'note')}" if notes else ""))

        # unconfirmed decisions hold the page
        page.locator("#crumb-portfolio").click()
        expect(page.locator("#leave-discard")).to_be_visible(timeout=TIMEOUT)
        page.locator("#leave-cancel").click()
        expect(page.locator("#leave-discard")).to_have_count(0, timeout=TIMEOUT)
        assert page.url.endswith(f"/portfolios/{pid}/trade-instructions")

        page.locator("#ti-approve-all").click()
        for i in range(items):
            expect(choices.nth(i)).to_have_attribute("data-choice", "approved", timeout=TIMEOUT)
        page.set_viewport_size({"width": 390, "height": 844})
        page.screenshot(path=f"{ARTIFACTS}/trade-instructions-phone.png", full_page=True)
        page.set_viewport_size({"width": 1440, "height": 900})
        page.locator("#ti-confirm").click()
        _confirm(page, advice.CONFIRM_DECISIONS, "Confirm")
        expect(page.locator("#confirm-cancel")).to_have_count(0, timeout=TIMEOUT)
        see_toast(page, advice.TRADES_CONFIRMED)
        expect(page.locator("#ti-status")).to_have_text("Approved", timeout=TIMEOUT)
        expect(page.locator(".choices")).to_have_count(0)
        page.screenshot(path=f"{ARTIFACTS}/trade-instructions-approved.png", full_page=True)

        done = tis.get(actor=client, investment_id=pid)
        assert done["status"] == "approved"
        assert {t["status"] for t in done["transactions"]} == {"approved"}
        # leaving is free again
        page.locator("#crumb-portfolio").click()
        page.wait_for_url(f"**/portfolios/{pid}/holdings", timeout=TIMEOUT)
